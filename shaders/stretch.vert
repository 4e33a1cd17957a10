#version 330 core
// The render scale's stretch into a multisampled window: one triangle that covers the
// window (corners at -1,-1, 3,-1 and -1,3), its texture coordinates 0 to 1 over the window.
out vec2 v_uv;

void main() {
    vec2 corner = vec2(float((gl_VertexID & 1) << 2), float((gl_VertexID & 2) << 1)) - 1.0;
    v_uv = corner * 0.5 + 0.5;
    gl_Position = vec4(corner, 0.0, 1.0);
}
