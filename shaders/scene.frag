#version 330 core
// Compiled three times (the renderer adds the #define lines): plain colour; TEXTURED; and
// TEXTURED with ALPHA_TEST (cut-outs). A branch on a uniform would cost a software
// rasterizer both sides: it shades a block of pixels at once, with masks.
in vec3 v_from_eye;
in vec3 v_normal;
in vec2 v_uv;

#ifdef TEXTURED
uniform sampler2D u_texture; // the material's diffuse texture (map_Kd)
#else
uniform vec3 u_color;        // material diffuse colour (Kd), in the lighting's space
#endif
uniform vec3 u_light_dir;    // unit direction the light travels
uniform float u_fog_far;     // distance at which fog is complete
uniform vec3 u_fog_color;    // the sky's colour, in the space the lighting is done in
uniform vec3 u_lighting;     // ambient, sun and headlight factors (for that space)
uniform float u_srgb_out;    // 1: the framebuffer encodes to sRGB; 0: written as it is

// Dither: noise of this many steps of the 8-bit output (peak to peak) is added to the
// final colour, so a smooth gradient across a big flat wall is not cut into bands.
const float DITHER_STEPS = 1.0;
// A normal whose squared length is under this is the flat normal (zero): the face's own.
const float FLAT_NORMAL_SQUARED = 1e-12;
// The least squared length a normal is divided by: a face seen exactly edge-on has no
// plane across its pixel, and gets no normal rather than NaN.
const float LEAST_NORMAL_SQUARED = 1e-30;

out vec4 frag_color;

void main() {
    // A zero normal is a flat face's: the face's plane, from how the position changes
    // across the pixel (the same for every pixel of a triangle; its sign does not matter,
    // see below). Taken before any pixel may be discarded: derivatives are undefined
    // after a discard that only some pixels of a block take.
    vec3 face = cross(dFdx(v_from_eye), dFdy(v_from_eye));
#ifdef TEXTURED
    vec4 base = texture(u_texture, v_uv);
#ifdef ALPHA_TEST
    // Cut-outs (leaves, fences): texels under half alpha are holes. Only this variant may
    // discard, so the others keep the early depth test.
    if (base.a < 0.5) {
        discard;
    }
#endif
#else
    vec4 base = vec4(u_color, 1.0);
#endif
    vec3 n = dot(v_normal, v_normal) > FLAT_NORMAL_SQUARED ? v_normal : face;
    n *= inversesqrt(max(dot(n, n), LEAST_NORMAL_SQUARED));
    // Walls are seen from both sides and OBJ winding is unreliable: light the side facing
    // the eye.
    vec3 to_eye = -v_from_eye;
    // One square root for both the headlight's direction and the fog's distance (a
    // software rasterizer pays for each, every fragment).
    float eye_distance = max(length(to_eye), 1e-6);
    float facing = dot(n, to_eye);
    if (facing < 0.0) {
        n = -n;
        facing = -facing;
    }
    float diffuse = max(dot(n, -u_light_dir), 0.0);
    // A little extra light on vertical faces facing the eye keeps walls readable up close.
    float headlight = u_lighting.z * facing / eye_distance;
    vec3 lit = base.rgb * (u_lighting.x + u_lighting.y * diffuse + headlight);
    float fog = clamp(eye_distance / u_fog_far, 0.0, 1.0);
    vec3 color = mix(lit, u_fog_color, fog * fog);
    // Interleaved gradient noise (Jimenez, "Next Generation Post Processing in Call of
    // Duty: Advanced Warfare", SIGGRAPH 2014): a fixed pattern over the screen, uniform
    // in [0, 1), no texture. One 8-bit step in linear light is about 2 sqrt(c) / 255 where
    // the framebuffer encodes to sRGB (the slope of the sRGB curve), 1 / 255 otherwise;
    // one square root of the brightest channel serves all three (a software rasterizer
    // pays for each).
    float noise = fract(52.9829189 * fract(dot(gl_FragCoord.xy, vec2(0.06711056, 0.00583715))));
    float c = max(max(color.r, color.g), max(color.b, 0.0));
    float lsb = mix(1.0, 2.0 * sqrt(c), u_srgb_out) / 255.0;
    frag_color = vec4(color + (noise - 0.5) * DITHER_STEPS * lsb, 1.0);
}
