#version 330 core
// A decal's texel where its square covers (around a corner the texture coordinates go
// beyond 0..1: nothing there), cut out by alpha: no blending, no sorting. Fogged as the
// scene's shader fogs the wall under it (here in the colours as displayed).
in vec2 v_uv;
in vec3 v_world;

uniform sampler2D u_texture;
uniform float u_shade;     // the decal's colours dimmed as the map's lighting dims its walls
uniform vec3 u_eye;        // the eye, for the fog's distance
uniform float u_fog_far;   // distance at which fog is complete
uniform vec3 u_fog_color;  // the fog's colour, as displayed

out vec4 frag_color;

void main() {
    if (any(lessThan(v_uv, vec2(0.0))) || any(greaterThan(v_uv, vec2(1.0)))) {
        discard;
    }
    vec4 c = texture(u_texture, v_uv);
    if (c.a < 0.5) {
        discard;
    }
    float fog = clamp(length(u_eye - v_world) / u_fog_far, 0.0, 1.0);
    frag_color = vec4(mix(c.rgb * u_shade, u_fog_color, fog * fog), 1.0);
}
