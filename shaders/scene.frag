#version 330 core
// Compiled three times (the renderer adds the #define lines): plain colour; TEXTURED; and
// TEXTURED with ALPHA_TEST (cut-outs); each again with LIT (the `lighting` setting: a
// sky, sky and ground light, a sun with shadows), and with LIT and IN_SHADE (triangles
// the sun's light does not reach: no shadow lookup). A branch on a uniform would cost a
// software rasterizer both sides: it shades a block of pixels at once, with masks.
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

#ifdef LIT
in float v_ambient;               // the ambient light reaching here (occlusion, baked)
uniform vec3 u_sky_zenith;        // the sky's light from straight up
uniform vec3 u_ground;            // the ground's light from straight down
uniform vec3 u_sky_axis;          // where the sky is brightest: up, leaning to the sun
uniform vec3 u_fog_zenith;        // the fog looking straight up (the sky's gradient)
#endif
#if defined(LIT) && !defined(IN_SHADE)
uniform sampler2DShadow u_shadow; // the sun's depth (texture unit 1), compared
uniform mat4 u_shadow_matrix;     // world to the shadow map's [0, 1] coordinates
uniform vec2 u_shadow_texel;      // one shadow texel: (its size in texture coordinates,
                                  // its size in metres)
uniform vec3 u_eye_world;         // the eye (the world position is eye + v_from_eye)
// A receiver is tested this many shadow texels out along its normal (normal offset
// shadows, Holbein 2011): a slope's own depth never shadows it (acne).
const float NORMAL_OFFSET_TEXELS = 1.5;

// The share of sunlight at `world` (normal `n`, facing the eye): percentage-closer
// filtering (Reeves, Salesin and Cook, "Rendering Antialiased Shadows with Depth Maps",
// SIGGRAPH 1987) of four bilinear comparisons a texel apart (each already a 2x2 PCF in
// the sampler: Bunnell and Pellacini, GPU Gems ch. 11, 2004), a soft edge about 3 texels
// wide. Outside the map, lit: a depth of 0 passes every comparison (clamping to the
// edge, and this test, cost a software rasterizer less than a border colour).
float sunlit(vec3 world, vec3 n) {
    vec3 p = (u_shadow_matrix * vec4(world + n * NORMAL_OFFSET_TEXELS * u_shadow_texel.y, 1.0)).xyz;
    vec2 off_map = abs(p.xy - 0.5);
    p.z = max(off_map.x, off_map.y) > 0.5 ? 0.0 : p.z;
    float t = u_shadow_texel.x;
    float s = texture(u_shadow, vec3(p.xy + vec2(-t, -t), p.z))
        + texture(u_shadow, vec3(p.xy + vec2(t, -t), p.z))
        + texture(u_shadow, vec3(p.xy + vec2(-t, t), p.z))
        + texture(u_shadow, vec3(p.xy + vec2(t, t), p.z));
    return s * 0.25;
}
#endif

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
    float fog = clamp(eye_distance / u_fog_far, 0.0, 1.0);
#ifdef LIT
    // Hemisphere light (Akenine-Moller et al., Real-Time Rendering, "hemisphere
    // lighting"): the sky's colour from above, the ground's from below, blended by how
    // far the normal leans to the sky; the sky's axis leans to the sun, so walls facing
    // different ways differ even in shade.
    vec3 hemisphere = mix(u_ground, u_sky_zenith, dot(n, u_sky_axis) * 0.5 + 0.5);
#ifdef IN_SHADE
    // None of the sun's light reaches these triangles (found on the CPU: in shade, or
    // seen from the side away from the sun; see src/app/render/sun_shade.rs).
    diffuse = 0.0;
#else
    if (diffuse > 0.0) {
        diffuse *= sunlit(u_eye_world + v_from_eye, n);
    }
#endif
    // Ambient occlusion: corners and the foot of things get less of the light that comes
    // from all around (the sky, the ground, the headlight's fill), not of the sun's.
    vec3 lit = base.rgb * ((u_lighting.x * hemisphere + headlight) * v_ambient + u_lighting.y * diffuse);
    // The fog fades to the sky behind it: the sky's gradient in the view's direction.
    vec3 fog_color = mix(u_fog_color, u_fog_zenith, sqrt(max(v_from_eye.y / eye_distance, 0.0)));
#else
    vec3 lit = base.rgb * (u_lighting.x + u_lighting.y * diffuse + headlight);
    vec3 fog_color = u_fog_color;
#endif
    vec3 color = mix(lit, fog_color, fog * fog);
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
