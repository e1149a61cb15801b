"""Writes DDS textures with Pillow (an encoder nobody here wrote), for the
tests of formats::dds.

    python3 dds_write.py OUT_DIR

Writes one 37x21 RGBA pattern (sides that are not multiples of 4, every
alpha value) as OUT_DIR/NAME.dds in each pixel format Pillow writes, and
prints one line per file: NAME.
"""

import os
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


if __name__ == "__main__":
    main()
