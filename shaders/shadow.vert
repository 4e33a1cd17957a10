#version 330 core
// The sun's shadow map: the map's (and the movers') positions seen from the sun, depth
// only.
layout(location = 0) in vec3 a_position;

uniform mat4 u_view_proj; // the sun's orthographic view

void main() {
    gl_Position = u_view_proj * vec4(a_position, 1.0);
}
