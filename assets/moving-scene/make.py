#!/usr/bin/env python3
"""Writes the moving scene's models (boxes and a disc, in metres, Y up) beside this file.

The scene itself is scene.toml, written by hand; run this only to change the shapes.
"""
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def box(lo, hi):
    """The 12 triangles of a box, each face wound counter-clockwise seen from outside."""
    (x0, y0, z0), (x1, y1, z1) = lo, hi
    v = [(x0, y0, z0), (x1, y0, z0), (x1, y1, z0), (x0, y1, z0),
         (x0, y0, z1), (x1, y0, z1), (x1, y1, z1), (x0, y1, z1)]
    quads = [(0, 3, 2, 1), (4, 5, 6, 7), (0, 4, 7, 3), (1, 2, 6, 5), (0, 1, 5, 4), (3, 7, 6, 2)]
    return [(v[a], v[b], v[c], v[d]) for a, b, c, d in quads]


def disc(radius, y0, y1, sides=16):
    ring = [(radius * math.cos(2 * math.pi * i / sides), radius * math.sin(2 * math.pi * i / sides))
            for i in range(sides)]
    faces = [tuple((x, y1, z) for x, z in reversed(ring)), tuple((x, y0, z) for x, z in ring)]
    for i in range(sides):
        (xa, za), (xb, zb) = ring[i], ring[(i + 1) % sides]
        faces.append(((xa, y0, za), (xa, y1, za), (xb, y1, zb), (xb, y0, zb)))
    return faces


def write(name, groups, spawn=None):
    lines = ["# made by make.py", "mtllib moving.mtl"]
    n = 0
    for material, faces in groups:
        lines.append(f"o {material}")
        lines.append(f"usemtl {material}")
        for f in faces:
            for p in f:
                lines.append("v %g %g %g" % p)
            lines.append("f " + " ".join(str(n + i + 1) for i in range(len(f))))
            n += len(f)
    if spawn:
        x, y, z = spawn
        lines.append("o spawn")
        for p in [(x - 0.1, y, z), (x + 0.1, y, z), (x, y, z + 0.1)]:
            lines.append("v %g %g %g" % p)
        lines.append(f"f {n + 1} {n + 2} {n + 3}")
    with open(os.path.join(HERE, name), "w") as f:
        f.write("\n".join(lines) + "\n")


# Two grounds with an 8 m gap between them (x 0 to 8), the platform's to cross.
write("ground.obj", [("ground", box((-12, -0.3, -8), (0, 0, 8)) + box((8, -0.3, -8), (18, 0, 8)))],
      spawn=(-1.0, 1.6, 6.0))
# A room (inside x -10 to -4, z -3 to 3, 3 m high) with a doorway in its east wall and a
# roof to stand on (top at 3.2 m), the lift's balcony.
walls = (box((-10.2, 0, -3.2), (-10, 3, 3.2)) + box((-10, 0, -3.2), (-4, 3, -3))
         + box((-10, 0, 3), (-4, 3, 3.2)) + box((-4, 0, -3.2), (-3.8, 3, -0.7))
         + box((-4, 0, 0.7), (-3.8, 3, 3.2)) + box((-4, 2.2, -0.7), (-3.8, 3, 0.7)))
write("building.obj", [("wall", walls), ("roof", box((-10.2, 3, -3.2), (-3.8, 3.2, 3.2)))])
# The movers, each about its own origin: a door, a lift and a platform (their tops at
# y = 0), and a turntable.
write("door.obj", [("mover", box((-0.05, 0, -0.7), (0.05, 2.2, 0.7)))])
write("lift.obj", [("mover", box((-1, -0.1, -1), (1, 0, 1)))])
write("platform.obj", [("mover", box((-1.25, -0.2, -1.25), (1.25, 0, 1.25)))])
write("turntable.obj", [("mover", disc(2.0, 0.0, 0.15))])
