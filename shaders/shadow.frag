#version 330 core
// Depth only: the rasterizer writes it; no colour is attached.
void main() {
}
