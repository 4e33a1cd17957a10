#!/usr/bin/env python3
"""Write a generated map of a million triangles (README, Performance: "A million
triangles"): a gently rolling terrain grid of 710 x 710 quads, 0.5 m apart (1,008,200
triangles), and 3,000 box buildings, 2 to 8 m a side and 3 to 20 m high, placed at
random (seed 1) - 1,038,200 triangles in all, Y-up, in metres.

    python3 benches/make_million.py /tmp/million.obj
    python3 benches/make_million.py /tmp/ten-million.obj 2236 0   # 10 million: no buildings
"""
import math
import random
import sys

N = 710  # quads a side
SPACING = 0.5  # metres between grid points
BUILDINGS = 3000


def main(path, n=710, buildings=3000):
    global N, BUILDINGS
    N, BUILDINGS = n, buildings
    random.seed(1)
    lines = []
    faces = []
    for j in range(N + 1):
        for i in range(N + 1):
            x = (i - N / 2) * SPACING
            z = (j - N / 2) * SPACING
            y = 0.3 * math.sin(x * 0.1) * math.cos(z * 0.13)
            lines.append(f"v {x:.3f} {y:.3f} {z:.3f}")

    def corner(i, j):
        return j * (N + 1) + i + 1

    for j in range(N):
        for i in range(N):
            a, b, c, d = corner(i, j), corner(i + 1, j), corner(i + 1, j + 1), corner(i, j + 1)
            faces.append(f"f {a} {b} {c}")
            faces.append(f"f {a} {c} {d}")
    count = len(lines)
    half = N * SPACING / 2 - 5
    for _ in range(BUILDINGS):
        cx, cz = random.uniform(-half, half), random.uniform(-half, half)
        w, d, h = random.uniform(2, 8), random.uniform(2, 8), random.uniform(3, 20)
        for y in (0, h):
            for dx, dz in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
                lines.append(f"v {cx + dx * w / 2:.3f} {y:.3f} {cz + dz * d / 2:.3f}")
        base = count + 1
        count += 8
        # Four walls and a roof (no floor: each stands on the terrain, open below).
        for p0, p1, p2, p3 in ((0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7), (4, 5, 6, 7)):
            faces.append(f"f {base + p0} {base + p1} {base + p2}")
            faces.append(f"f {base + p0} {base + p2} {base + p3}")
    with open(path, "w") as f:
        f.write("\n".join(lines + faces) + "\n")
    print(f"{path}: {len(faces)} triangles")


if __name__ == "__main__":
    if any(a in ("-h", "--help") for a in sys.argv[1:]) or len(sys.argv) > 4:
        print(__doc__.strip())
        print("\nusage: make_million.py [PATH [QUADS_A_SIDE [BUILDINGS]]]")
        sys.exit(0 if len(sys.argv) <= 4 else 2)
    main(
        sys.argv[1] if len(sys.argv) > 1 else "million.obj",
        int(sys.argv[2]) if len(sys.argv) > 2 else N,
        int(sys.argv[3]) if len(sys.argv) > 3 else BUILDINGS,
    )
