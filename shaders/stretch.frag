#version 330 core
// The scene drawn at the render scale, filtered linearly over the window (an sRGB texture
// is decoded to light as it is sampled, and encoded again as it is written).
in vec2 v_uv;

uniform sampler2D u_scene;

out vec4 frag_color;

void main() {
    frag_color = texture(u_scene, v_uv);
}
