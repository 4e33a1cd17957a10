#version 330 core
// Decals: the map's triangles under each, clipped, in world coordinates.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec2 a_uv;

uniform mat4 u_view_proj;

out vec2 v_uv;

void main() {
    v_uv = a_uv;
    gl_Position = u_view_proj * vec4(a_position, 1.0);
}
