"""Decodes every mip level of BLP textures with Pillow, for formats/tests/textures/blp_pillow.rs.

    python3 blp_decode.py OUT_DIR FILE...

Pillow's BLP plugin decodes level 0 only. So that it decodes every level, each
level i is given to it as a one-level BLP: the same header with level i's size
(each side halved i times, at least 1) and level i's bytes as level 0. For each
FILE (a BLP texture; a corpus one, or one our encoder wrote) and each level i
this writes into OUT_DIR, under the file's base name:
  NAME.i.plugin.rgba  Pillow's BlpImagePlugin (Image.open), converted to RGBA;
                      NAME.i.plugin.err instead if the plugin refuses the file.
  NAME.i.jpeg.rgba    BLP1 JPEG only: Pillow's JPEG decoder (libjpeg) on the
                      stream jpegHeader ++ level i, its 4 samples as stored
                      (B, G, R, A), reordered to R, G, B, A, at the frame's size.
  NAME.i.dds.rgba     BLP2 DXT only: level i's blocks as a DDS file (DXT1, DXT3
                      or DXT5), decoded by Pillow's C BCn decoder.
  NAME.i.bgra.rgba    BLP2 uncompressed only (the plugin refuses it): level i's
                      B, G, R, A bytes unpacked by Pillow's raw "BGRA" decoder.
and prints one line per level: NAME LEVEL WIDTH HEIGHT, the size of the
.jpeg.rgba frame for JPEG, of the level otherwise.

What the plugin does differently from the game (the Rust test allows for it):
- BLP1 palette: alpha from the palette's 4th byte, not the alpha plane; level 0
  read right after the palette whatever mipOffsets[0] says (the one-level file
  puts it there).
- BLP1 JPEG: RGB premultiplied by the 4th channel, no alpha; a frame larger
  than the level is not cropped (its bytes fill the level row after row).
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


def level_size(width, height, level):
    return max(1, width >> level), max(1, height >> level)


def one_level(data, level):
    """The file as a BLP of level `level` alone: its size in the header, its
    bytes right after the palette or JPEG header, one mip entry."""
    blp1 = data[:4] == b"BLP1"
    size_at, table_at = (12, 28) if blp1 else (12, 20)
    width, height = struct.unpack_from("<II", data, size_at)
    offsets, sizes = table(data, table_at)
    if blp1 and struct.unpack_from("<I", data, 4)[0] == 0:
        (header_size,) = struct.unpack_from("<I", data, 156)
        start = 160 + header_size
    else:
        start = table_at + 128 + 1024
    out = bytearray(data[:start])
    struct.pack_into("<II", out, size_at, *level_size(width, height, level))
    struct.pack_into("<16I", out, table_at, start, *[0] * 15)
    struct.pack_into("<16I", out, table_at + 64, sizes[level], *[0] * 15)
    out += data[offsets[level] : offsets[level] + sizes[level]]
    return bytes(out)


def dds(blocks, width, height, fourcc):
    """A DDS file of one DXT surface."""
    header = struct.pack(
        "<4s7I44s8I5I",
        b"DDS ",
        124,  # dwSize
        0x1 | 0x2 | 0x4 | 0x1000 | 0x80000,  # caps, height, width, pixel format, linear size
        height,
        width,
        len(blocks),  # dwPitchOrLinearSize
        0,  # dwDepth
        0,  # dwMipMapCount
        bytes(44),  # dwReserved1
        32,  # ddspf.dwSize
        0x4,  # DDPF_FOURCC
        struct.unpack("<I", fourcc)[0],
        0,
        0,
        0,
        0,
        0,
        0x1000,  # DDSCAPS_TEXTURE
        0,
        0,
        0,
        0,
    )
    return header + blocks


def write(out_dir, name, level, kind, data):
    open(os.path.join(out_dir, f"{name}.{level}.{kind}"), "wb").write(data)


def main():
    out_dir, files = sys.argv[1], sys.argv[2:]
    for path in files:
        name = os.path.basename(path)
        data = open(path, "rb").read()
        blp1 = data[:4] == b"BLP1"
        width, height = struct.unpack_from("<II", data, 12)
        offsets, sizes = table(data, 28 if blp1 else 20)
        levels = next((i for i, s in enumerate(sizes) if s == 0), 16)
        for level in range(levels):
            w, h = level_size(width, height, level)
            bytes_ = data[offsets[level] : offsets[level] + sizes[level]]
            try:
                image = Image.open(io.BytesIO(one_level(data, level)))
                image.load()
                write(out_dir, name, level, "plugin.rgba", image.convert("RGBA").tobytes())
            except Exception as e:  # the plugin refuses some encodings
                write(out_dir, name, level, "plugin.err", repr(e).encode())
            if blp1 and struct.unpack_from("<I", data, 4)[0] == 0:
                (header_size,) = struct.unpack_from("<I", data, 156)
                stream = data[160 : 160 + header_size] + bytes_
                jpeg = JpegImagePlugin.JpegImageFile(io.BytesIO(stream))
                # Pillow reads 4-channel JPEG as inverted Adobe CMYK ("CMYK;I"):
                # ask for the samples as stored.
                jpeg.tile = [jpeg.tile[0]._replace(args=("CMYK", ""))]
                raw = jpeg.tobytes()
                rgba = bytearray(len(raw))
                rgba[0::4], rgba[1::4], rgba[2::4], rgba[3::4] = raw[2::4], raw[1::4], raw[0::4], raw[3::4]
                write(out_dir, name, level, "jpeg.rgba", bytes(rgba))
                w, h = jpeg.size
            elif not blp1 and data[8] == 2:
                fourcc, block = {0: (b"DXT1", 8), 1: (b"DXT3", 16), 7: (b"DXT5", 16)}[data[10]]
                blocks = bytes_[: max(1, (w + 3) // 4) * max(1, (h + 3) // 4) * block]
                with Image.open(io.BytesIO(dds(blocks, w, h, fourcc))) as image:
                    image.load()
                    assert image.size == (w, h), (name, level, image.size)
                    write(out_dir, name, level, "dds.rgba", image.convert("RGBA").tobytes())
            elif not blp1 and data[8] == 3:
                image = Image.frombytes("RGBA", (w, h), bytes_[: w * h * 4], "raw", "BGRA")
                write(out_dir, name, level, "bgra.rgba", image.tobytes())
            print(name, level, w, h)


if __name__ == "__main__":
    main()
