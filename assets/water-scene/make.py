#!/usr/bin/env python3
"""Writes the water scene's model (pool.obj and water.mtl: boxes in metres, Y up) beside
this file: a courtyard with a pool 8 x 11.7 m, a shallow shelf with steps at the near end
and a deep end 3.7 m under the surface, coloured blocks beyond it to see reflected.

The scene itself is scene.toml, written by hand; run this only to change the shapes.
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))

# The water's surface (scene.toml's box has it as its top): 0.3 m under the courtyard,
# so a swimmer who swims up can climb out anywhere at the edge.
SURFACE = -0.3


def box(lo, hi):
    """The 6 quads of a box, each wound counter-clockwise seen from outside."""
    (x0, y0, z0), (x1, y1, z1) = lo, hi
    v = [(x0, y0, z0), (x1, y0, z0), (x1, y1, z0), (x0, y1, z0),
         (x0, y0, z1), (x1, y0, z1), (x1, y1, z1), (x0, y1, z1)]
    quads = [(0, 3, 2, 1), (4, 5, 6, 7), (0, 4, 7, 3), (1, 2, 6, 5), (0, 1, 5, 4), (3, 7, 6, 2)]
    return [(v[a], v[b], v[c], v[d]) for a, b, c, d in quads]


GROUPS = [
    ("stone", box((-10, -4.5, -0.3), (10, 0, 8))          # the near side, where you stand
     + box((-10, -4.5, -18), (-4, 0, -0.3))               # left of the pool
     + box((4, -4.5, -18), (10, 0, -0.3))                 # right of the pool
     + box((-4, -4.5, -18), (4, 0, -12))),                # beyond it
    ("tile", box((-4, -4.5, -12), (4, -4, -4))            # the deep end's floor
     + box((-4, -4.5, -4), (4, -0.9, -0.9))               # the shallow shelf (waist deep)
     + box((-4, -3, -0.9), (4, -0.6, -0.6))               # two steps of 0.3 m up to the edge
     + box((-4, -3, -0.6), (4, SURFACE, -0.3))),
    ("wall", box((-10, 0, -19), (10, 5, -18))),
    ("red", box((-3, 0, -15), (-1.5, 2, -13.5))),
    ("yellow", box((1.5, 0, -16), (2.5, 4, -15))),
    ("blue", box((-7, 0, -8), (-6, 3, -7)) + box((6, 0, -8), (7, 3, -7))),
]

# Where a walk starts: the eye 1.6 m over the courtyard, 2 m before the steps, looking
# down the pool (-Z). An object named `spawn` is only a point (its centre), never a wall;
# without it the survey picked a spot inside the stone slab under the courtyard.
SPAWN = (0, 1.6, 2)


MATERIALS = {
    "stone": (0.72, 0.68, 0.6),
    "tile": (0.75, 0.86, 0.9),
    "wall": (0.6, 0.6, 0.63),
    "red": (0.8, 0.15, 0.12),
    "yellow": (0.9, 0.75, 0.2),
    "blue": (0.2, 0.35, 0.8),
}


def main():
    lines = ["# made by make.py", "mtllib water.mtl"]
    n = 0
    for material, faces in GROUPS:
        lines.append(f"o {material}")
        lines.append(f"usemtl {material}")
        for f in faces:
            for p in f:
                lines.append("v %g %g %g" % p)
            lines.append("f " + " ".join(str(n + i + 1) for i in range(len(f))))
            n += len(f)
    x, y, z = SPAWN
    lines += ["o spawn"] + ["v %g %g %g" % p for p in
                            [(x - 0.1, y, z), (x + 0.1, y, z), (x, y, z - 0.1), (x, y, z + 0.1)]]
    lines.append(f"f {n + 1} {n + 3} {n + 2} {n + 4}")
    with open(os.path.join(HERE, "pool.obj"), "w") as out:
        out.write("\n".join(lines) + "\n")
    with open(os.path.join(HERE, "water.mtl"), "w") as out:
        out.write("# made by make.py\n")
        for name, (r, g, b) in MATERIALS.items():
            out.write(f"newmtl {name}\nKd {r} {g} {b}\n")


if __name__ == "__main__":
    main()
