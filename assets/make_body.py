#!/usr/bin/env python3
"""Writes assets/body.obj: the walker's figure, drawn in third person and in mirrors.

A simple person of boxes the size of the walker's ellipsoid (0.6 m across the arms,
1.8 m tall; Y up, metres, feet at y = 0, facing -Z as yaw 0 looks): legs, a torso, arms
and a head, one object each (`o legs`, `o torso`, `o arms`, `o head`: the window colours
them by name). The window scales it to the body's height (crouching) and turns it with
the yaw. Run it again after editing; the binary embeds the result.
"""
import os

out = ["# walkthrough's figure (assets/make_body.py writes it)"]
verts = 0


def box(x0, y0, z0, x1, y1, z1):
    """A box's 12 triangles, wound outward."""
    global verts
    c = [(x, y, z) for z in (z0, z1) for y in (y0, y1) for x in (x0, x1)]
    for x, y, z in c:
        out.append(f"v {x:g} {y:g} {z:g}")
    i = [verts + k + 1 for k in range(8)]
    verts += 8
    # Corner k: x bit 1, y bit 2, z bit 4.
    for a, b, cc, d in [(0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2), (1, 3, 7, 5)]:
        out.append(f"f {i[a]} {i[b]} {i[cc]}")
        out.append(f"f {i[a]} {i[cc]} {i[d]}")


out.append("o legs")
box(-0.16, 0.0, -0.09, -0.02, 0.85, 0.09)
box(0.02, 0.0, -0.09, 0.16, 0.85, 0.09)
out.append("o torso")
box(-0.19, 0.85, -0.11, 0.19, 1.45, 0.11)
out.append("o arms")
box(-0.29, 0.78, -0.07, -0.2, 1.43, 0.07)
box(0.2, 0.78, -0.07, 0.29, 1.43, 0.07)
out.append("o head")
box(-0.1, 1.5, -0.11, 0.1, 1.78, 0.11)
# A nose, so the figure's front is seen from behind it in a mirror.
box(-0.025, 1.6, -0.16, 0.025, 1.66, -0.11)

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "body.obj"), "w") as f:
    f.write("\n".join(out) + "\n")
