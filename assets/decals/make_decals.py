#!/usr/bin/env python3
"""Writes the decal textures of assets/decals/ (512 x 512 RGBA PNGs, transparent outside
the mark): target.png (red and white rings), arrow.png (a yellow arrow pointing up) and
splat.png (a blue star). Plain Python (zlib): run it again after editing; the binary
embeds the results.
"""
import math
import os
import struct
import zlib

SIDE = 512
# The marks are drawn on a 64-unit square, whatever SIDE is.
UNITS = 64
# Samples a side in each pixel: its alpha is the mark's coverage and its colour the mean
# of the covered samples, so an edge is smooth rather than a staircase of whole pixels.
# Outside, a mark gives its edge's colour at alpha 0: the filtering that blends an edge
# texel with the one outside it then blends no black in (a dark rim around the mark).
SAMPLES = 4


def sampled(mark, px, py):
    covered = []
    for j in range(SAMPLES):
        for i in range(SAMPLES):
            x = (px + (i + 0.5) / SAMPLES) * UNITS / SIDE
            y = (py + (j + 0.5) / SAMPLES) * UNITS / SIDE
            c = mark(x, y)
            if c[3]:
                covered.append(c)
    if not covered:
        return mark(*[(p + 0.5) * UNITS / SIDE for p in (px, py)])
    rgb = [round(sum(c[k] for c in covered) / len(covered)) for k in range(3)]
    return (*rgb, round(255 * len(covered) / SAMPLES**2))


def png(path, pixel):
    rows = b""
    for y in range(SIDE):
        rows += b"\0" + b"".join(bytes(sampled(pixel, x, y)) for x in range(SIDE))

    def chunk(kind, data):
        c = kind + data
        return struct.pack(">I", len(data)) + c + struct.pack(">I", zlib.crc32(c) & 0xFFFFFFFF)

    head = struct.pack(">IIBBBBB", SIDE, SIDE, 8, 6, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head)
                + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


def target(x, y):
    r = math.hypot(x - 32, y - 32)
    if r > 30:
        return (220, 30, 30, 0)
    return (220, 30, 30, 255) if int(r / 6) % 2 == 0 else (245, 245, 245, 255)


def arrow(x, y):
    # Head: a triangle from y = 4 to 30; shaft: x 24..40 from 30 to 60.
    head = 4 <= y <= 30 and abs(x - 32) <= (y - 4) * 26 / 26
    shaft = 30 <= y <= 60 and 24 <= x <= 40
    return (250, 200, 30, 255 if head or shaft else 0)


def splat(x, y):
    a = math.atan2(y - 32, x - 32)
    r = math.hypot(x - 32, y - 32)
    edge = 18 + 10 * math.cos(5 * a)
    return (40, 90, 220, 255 if r <= edge else 0)


here = os.path.dirname(os.path.abspath(__file__))
for name, f in [("target", target), ("arrow", arrow), ("splat", splat)]:
    png(os.path.join(here, name + ".png"), f)
