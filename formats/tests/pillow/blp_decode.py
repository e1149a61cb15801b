"""Decodes level 0 of BLP textures with Pillow, for formats/tests/blp_pillow.rs.

    python3 blp_decode.py OUT_DIR FILE...

For each FILE (a BLP texture; a corpus one, or one our encoder wrote) writes into OUT_DIR, under the file's base name:
  NAME.plugin.rgba  Pillow's BlpImagePlugin (Image.open), converted to RGBA;
                    NAME.plugin.err instead if the plugin refuses the file.
  NAME.jpeg.rgba    BLP1 JPEG only: Pillow's JPEG decoder (libjpeg) on the
                    stream jpegHeader ++ level 0, its 4 samples as stored
                    (B, G, R, A), reordered to R, G, B, A.
and prints one line per file: NAME WIDTH HEIGHT.

What the plugin does differently from the game (the Rust test allows for it):
- BLP1 palette: alpha from the palette's 4th byte, not the alpha plane; level 0
  read right after the palette whatever mipOffsets[0] says (this script gives
  it the file with level 0 moved there when it is elsewhere).
- BLP1 JPEG: RGB premultiplied by the 4th channel, no alpha.
- DXT: 5- and 6-bit endpoints expanded by a shift (31 -> 248, not 255).
- BLP2 uncompressed BGRA (compression 3): not supported.
"""

import io
import os
import struct
import sys

from PIL import Image, JpegImagePlugin


def table(data, at):
    offsets = struct.unpack_from("<16I", data, at)
    sizes = struct.unpack_from("<16I", data, at + 64)
    return offsets, sizes


def plugin_input(data):
    """The file as the plugin needs it: BLP1 palette level 0 right after the palette."""
    if data[:4] != b"BLP1" or struct.unpack_from("<I", data, 4)[0] != 1:
        return data
    offsets, sizes = table(data, 28)
    start = 28 + 128 + 1024
    if offsets[0] == start:
        return data
    moved = bytearray(data[:start] + data[offsets[0] : offsets[0] + sizes[0]])
    struct.pack_into("<I", moved, 28, start)
    return bytes(moved)


def main():
    out_dir, files = sys.argv[1], sys.argv[2:]
    for path in files:
        name = os.path.basename(path)
        data = open(path, "rb").read()
        width, height = struct.unpack_from("<II", data, 12)
        try:
            image = Image.open(io.BytesIO(plugin_input(data)))
            image.load()
            rgba = image.convert("RGBA").tobytes()
            open(os.path.join(out_dir, name + ".plugin.rgba"), "wb").write(rgba)
        except Exception as e:  # the plugin refuses some encodings
            open(os.path.join(out_dir, name + ".plugin.err"), "w").write(repr(e))
        if data[:4] == b"BLP1" and struct.unpack_from("<I", data, 4)[0] == 0:
            offsets, sizes = table(data, 28)
            (header_size,) = struct.unpack_from("<I", data, 156)
            stream = data[160 : 160 + header_size] + data[offsets[0] : offsets[0] + sizes[0]]
            jpeg = JpegImagePlugin.JpegImageFile(io.BytesIO(stream))
            # Pillow reads 4-channel JPEG as inverted Adobe CMYK ("CMYK;I"):
            # ask for the samples as stored.
            jpeg.tile = [jpeg.tile[0]._replace(args=("CMYK", ""))]
            raw = jpeg.tobytes()
            rgba = bytearray(len(raw))
            rgba[0::4], rgba[1::4], rgba[2::4], rgba[3::4] = raw[2::4], raw[1::4], raw[0::4], raw[3::4]
            open(os.path.join(out_dir, name + ".jpeg.rgba"), "wb").write(bytes(rgba))
            width, height = jpeg.size
        print(name, width, height)


if __name__ == "__main__":
    main()
