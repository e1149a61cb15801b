"""Writes DDS textures with Pillow (an encoder nobody here wrote), for the
tests of formats::dds.

    python3 dds_write.py OUT_DIR

Writes one 37x21 RGBA pattern (sides that are not multiples of 4, every
alpha value) as OUT_DIR/NAME.dds in each pixel format Pillow writes, and
prints one line per file: NAME. Pillow does not write BC7; `bc7.dds` is
random 16-byte blocks (every mode, all its bit patterns) behind a DX10
header written here, for Pillow's BC7 decoder to read.
"""

import os
import random
import struct
import sys

from PIL import Image

WIDTH, HEIGHT = 37, 21


def pattern():
    image = Image.new("RGBA", (WIDTH, HEIGHT))
    pixels = image.load()
    for y in range(HEIGHT):
        for x in range(WIDTH):
            pixels[x, y] = ((x * 7) % 256, (y * 12) % 256, (x * y * 3) % 256, (x * 11 + y * 5) % 256)
    return image


def main():
    out_dir = sys.argv[1]
    image = pattern()
    cases = [
        ("dxt1", image, {"pixel_format": "DXT1"}),
        ("dxt3", image, {"pixel_format": "DXT3"}),
        ("dxt5", image, {"pixel_format": "DXT5"}),
        ("bc5", image.convert("RGB"), {"pixel_format": "BC5"}),
        ("rgba", image, {}),
        ("rgb", image.convert("RGB"), {}),
        ("l", image.convert("L"), {}),
        ("la", image.convert("LA"), {}),
    ]
    for name, source, options in cases:
        source.save(os.path.join(out_dir, f"{name}.dds"), **options)
        print(name)
    with open(os.path.join(out_dir, "bc7.dds"), "wb") as out:
        out.write(bc7_file(random.Random(7)))
    print("bc7")


def bc7_file(rng):
    """A DX10 DDS of WIDTH x HEIGHT in BC7_UNORM (DXGI 98), random blocks."""
    blocks = ((WIDTH + 3) // 4) * ((HEIGHT + 3) // 4)
    flags = 0x1 | 0x2 | 0x4 | 0x1000 | 0x80000  # caps, height, width, pixel format, linear size
    header = struct.pack("<4s7I44x", b"DDS ", 124, flags, HEIGHT, WIDTH, blocks * 16, 0, 1)
    pixel_format = struct.pack("<2I4s5I", 32, 0x4, b"DX10", 0, 0, 0, 0, 0)
    caps = struct.pack("<5I", 0x1000, 0, 0, 0, 0)
    dx10 = struct.pack("<5I", 98, 3, 0, 1, 0)
    data = bytes(rng.getrandbits(8) for _ in range(blocks * 16))
    return header + pixel_format + caps + dx10 + data


if __name__ == "__main__":
    main()
