#version 330 core
// A cluster's bounding box for an occlusion query: the unit cube stretched from u_min to
// u_max. Nothing of it is written; the query counts the samples that would show.
layout(location = 0) in vec3 a_corner;

uniform mat4 u_view_proj;
uniform vec3 u_min;
uniform vec3 u_max;

void main() {
    gl_Position = u_view_proj * vec4(mix(u_min, u_max, a_corner), 1.0);
}
