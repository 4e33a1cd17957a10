#version 330 core
// A water surface over its reflection (drawn into the framebuffer by the mirrors' path,
// when the eye is above) and over what lies under it (the scene drawn so far, copied to
// u_below). Colours are as displayed, as the overlays'.
in vec3 v_world;

uniform vec3 u_eye;
uniform float u_time;        // seconds: the ripples move with it
uniform sampler2D u_below;   // the scene before the reflection, as displayed
uniform vec4 u_viewport;     // the framebuffer's viewport: x, y, width, height (pixels)
uniform vec4 u_water;        // the water's colour as displayed, and its opacity
uniform float u_reflecting;  // 1: the reflection is under these pixels; 0: none (from below)
uniform vec3 u_light_dir;    // unit direction the sunlight travels

// Ripples: the surface's slope is a sum of travelling sine waves, each
// (direction x, direction z, wavelength m, steepness: the wave's largest slope). Each
// moves at deep water's speed, angular frequency sqrt(g k) (Airy wave theory; Tessendorf,
// "Simulating Ocean Water", SIGGRAPH 2001 course notes, sums such waves the same way).
const vec4 WAVES[4] = vec4[4](
    vec4(0.80, 0.60, 1.70, 0.050),
    vec4(-0.45, 0.89, 0.93, 0.040),
    vec4(0.28, -0.96, 0.61, 0.035),
    vec4(-0.92, -0.39, 0.37, 0.030)
);
const float GRAVITY = 9.81;
// Reflectance at normal incidence, air to water (n = 1.33): ((n - 1) / (n + 1))^2.
const float WATER_F0 = 0.02;
// How far the ripples shift what is seen through the surface, as a share of the view
// per unit of slope.
const float REFRACTION_SHIFT = 0.25;
// The water's colour lit by the sun on its ripples: a slope of 0.1 toward the sun
// brightens it by this much over a flat surface's (Lambert's law, to first order).
const float RIPPLE_SHADE = 3.0;
// The sun's glints on the ripples: Blinn-Phong's exponent and strength.
const float GLINT_POWER = 300.0;
const float GLINT = 0.5;

out vec4 frag_color;

void main() {
    vec2 p = v_world.xz;
    vec2 slope = vec2(0.0);
    for (int i = 0; i < 4; i++) {
        vec2 d = WAVES[i].xy;
        float k = 6.2831853 / WAVES[i].z;
        float phase = k * dot(d, p) - sqrt(GRAVITY * k) * u_time;
        slope += WAVES[i].w * cos(phase) * d;
    }
    vec3 n = normalize(vec3(-slope.x, 1.0, -slope.y));
    vec3 to_eye = normalize(u_eye - v_world);
    // Schlick's approximation of the Fresnel reflectance (Schlick 1994).
    float cos_theta = clamp(abs(dot(n, to_eye)), 0.0, 1.0);
    float fresnel = WATER_F0 + (1.0 - WATER_F0) * pow(1.0 - cos_theta, 5.0);
    vec2 at = (gl_FragCoord.xy - u_viewport.xy) / u_viewport.zw;
    vec3 below = texture(u_below, clamp(at + slope * REFRACTION_SHIFT, 0.0, 1.0)).rgb;
    // dot(n, -L) less a flat surface's, to first order in the slope.
    float shade = 1.0 + RIPPLE_SHADE * dot(slope, u_light_dir.xz);
    vec3 color = mix(below, u_water.rgb * shade, u_water.a);
    vec3 half_way = normalize(to_eye - u_light_dir);
    color += GLINT * pow(max(dot(n, half_way), 0.0), GLINT_POWER) * u_reflecting;
    // Over the reflection: (1 - F) of the water and what is under it, F of the reflection.
    frag_color = vec4(color, 1.0 - fresnel * u_reflecting);
}
