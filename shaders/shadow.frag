#version 330 core
// The rasterizer writes the depth. Where the owners are read back (the map's triangles
// found in shade on the CPU: src/app/render/sun_shade.rs), each texel also keeps which
// triangle of the map lies nearest the sun there: one more than its number, 0 for none.
uniform uint u_first_triangle; // the draw's first triangle's number plus one (0: a mover)

out uint owner;

void main() {
    owner = u_first_triangle == 0u ? 0u : u_first_triangle + uint(gl_PrimitiveID);
}
