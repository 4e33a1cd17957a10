#version 330 core
// Decals: the map's triangles under each, clipped, in world coordinates.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec2 a_uv;

uniform mat4 u_view_proj;
// In a mirror: what lies behind its plane is cut away (enabled only then; (0, 0, 0, 1)
// keeps everything), as the scene's shader does.
uniform vec4 u_clip_plane;

out vec2 v_uv;
out vec3 v_world;

void main() {
    v_uv = a_uv;
    v_world = a_position;
    gl_Position = u_view_proj * vec4(a_position, 1.0);
    gl_ClipDistance[0] = dot(u_clip_plane, vec4(a_position, 1.0));
}
