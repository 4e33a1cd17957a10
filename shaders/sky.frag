#version 330 core
// The sky's gradient, from its colour at the horizon to its colour at the zenith by how
// far up the pixel's view direction looks: the same function the scene's fog blends to,
// so that the distance fades into the sky behind it.
in vec2 v_ndc;

uniform mat4 u_inverse_view_proj; // clip space back to the world
uniform vec3 u_horizon;           // the sky at the horizon (and below), lighting's space
uniform vec3 u_zenith;            // the sky straight up

out vec4 frag_color;

void main() {
    vec4 far = u_inverse_view_proj * vec4(v_ndc, 1.0, 1.0);
    vec4 near = u_inverse_view_proj * vec4(v_ndc, -1.0, 1.0);
    vec3 dir = normalize(far.xyz / far.w - near.xyz / near.w);
    // Square root: the sky's colour changes fastest near the horizon, as a clear sky's
    // does (the air's path shortens fastest there).
    frag_color = vec4(mix(u_horizon, u_zenith, sqrt(max(dir.y, 0.0))), 1.0);
}
