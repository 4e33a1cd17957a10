#version 330 core
// Map vertices are already in world coordinates (Y up, metres). A zero normal is a flat
// face's: the fragment shader finds it (so a face's corners can be shared with its
// neighbours' instead of each face having its own three).
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;
// The ambient light reaching the vertex, 0 to 1 (its ambient occlusion, baked; 1 where
// none is: see src/app/render/ambient.rs).
layout(location = 3) in float a_ambient;

uniform mat4 u_view_proj;
// Drawing a mirror's reflection: what lies behind the mirror's plane is cut away
// (enabled only then; (0, 0, 0, 1) keeps everything).
uniform vec4 u_clip_plane;
uniform vec3 u_eye;          // eye position

// The position from the eye: small numbers near the eye, so that their differences
// across a pixel (a flat face's normal) keep their precision far from the origin.
out vec3 v_from_eye;
out vec3 v_normal;
out vec2 v_uv;
out float v_ambient;

void main() {
    v_from_eye = a_position - u_eye;
    v_normal = a_normal;
    v_ambient = a_ambient;
    // OBJ texture coordinates start at the bottom row; images are uploaded top row first.
    v_uv = vec2(a_uv.x, 1.0 - a_uv.y);
    gl_Position = u_view_proj * vec4(a_position, 1.0);
    gl_ClipDistance[0] = dot(u_clip_plane, vec4(a_position, 1.0));
}
