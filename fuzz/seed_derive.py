#!/usr/bin/env python3
"""Seeds for the `derive` target from real MDX files.

The target reads 2 selector bytes (starting version) then an MDLX file in the
reduced model of format-core/tests/support. Real files contain chunks that model
does not know in detail (kept as unknown chunks) and some it parses strictly, so
besides each whole (small) file this writes one seed per known chunk: selector,
"MDLX", the file's VERS chunk, that chunk.

usage: python3 seed_derive.py [MDX_DIR] [OUT_DIR]
       (defaults: ../../shared/corpus/mdx, corpus/derive, relative to this file)
"""
import hashlib
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "../../shared/corpus/mdx")
OUT = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "corpus/derive")
KNOWN = {b"SEQS", b"MTLS", b"PIVT", b"GEOS", b"BONE", b"CLID", b"INFO"}
MAX_SEED = 64 * 1024


def chunks(data):
    pos = 4
    while pos + 8 <= len(data):
        tag = data[pos:pos + 4]
        (size,) = struct.unpack_from("<I", data, pos + 4)
        end = pos + 8 + size
        if end > len(data):
            return
        yield tag, data[pos:end]
        pos = end


def main():
    os.makedirs(OUT, exist_ok=True)
    written = 0
    for name in sorted(os.listdir(SRC)):
        data = open(os.path.join(SRC, name), "rb").read()
        if data[:4] != b"MDLX":
            continue
        found = list(chunks(data))
        vers = b"".join(c for t, c in found if t == b"VERS")[:12]
        seeds = []
        if len(data) <= MAX_SEED:
            seeds.append(b"\0\0" + data)
        for tag, chunk in found:
            if tag in KNOWN and len(chunk) <= MAX_SEED:
                seeds.append(b"\0\0" + b"MDLX" + vers + chunk)
        for seed in seeds:
            path = os.path.join(OUT, hashlib.sha1(seed).hexdigest())
            if not os.path.exists(path):
                with open(path, "wb") as f:
                    f.write(seed)
                written += 1
    print(f"{written} seeds written to {OUT}")


if __name__ == "__main__":
    main()
