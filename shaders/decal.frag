#version 330 core
// A decal's texel where its square covers (around a corner the texture coordinates go
// beyond 0..1: nothing there), cut out by alpha: no blending, no sorting.
in vec2 v_uv;

uniform sampler2D u_texture;
uniform float u_shade; // the decal's colours dimmed as the map's lighting dims its walls

out vec4 frag_color;

void main() {
    if (any(lessThan(v_uv, vec2(0.0))) || any(greaterThan(v_uv, vec2(1.0)))) {
        discard;
    }
    vec4 c = texture(u_texture, v_uv);
    if (c.a < 0.5) {
        discard;
    }
    frag_color = vec4(c.rgb * u_shade, 1.0);
}
