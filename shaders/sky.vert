#version 330 core
// The sky behind everything: one triangle over the window (corners at -1,-1, 3,-1 and
// -1,3) at the far plane's depth, drawn where nothing nearer was.
out vec2 v_ndc;

void main() {
    vec2 corner = vec2(float((gl_VertexID & 1) << 2), float((gl_VertexID & 2) << 1)) - 1.0;
    v_ndc = corner;
    gl_Position = vec4(corner, 1.0, 1.0);
}
