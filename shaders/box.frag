#version 330 core
// Colour and depth writes are off while boxes are tested: only the depth test matters.
out vec4 frag_color;

void main() {
    frag_color = vec4(1.0);
}
