"""Reads images with Pillow, for the tests that check what we write (PNG, TIFF).

    python3 read.py OUT_DIR FILE...

For the i-th FILE writes OUT_DIR/i.raw, Pillow's pixels as it holds them
(`Image.tobytes()`: RGBA/L as bytes, I;16 as little-endian 16-bit, F as
native 32-bit floats), and prints one line: i MODE WIDTH HEIGHT.
"""

import os
import sys

from PIL import Image


def main():
    out_dir, files = sys.argv[1], sys.argv[2:]
    for i, path in enumerate(files):
        with Image.open(path) as image:
            image.load()
            open(os.path.join(out_dir, f"{i}.raw"), "wb").write(image.tobytes())
            print(i, image.mode, image.size[0], image.size[1])


if __name__ == "__main__":
    main()
