#!/usr/bin/env python3
"""Seeds for the `mdx` target in the WoW alpha versions 1400 and 1500.

The corpus has one alpha model (v1300); no real v1400 or v1500 file is known.
This writes three small synthetic models built from seed 003's layouts, one per
version 1300, 1400 and 1500, each with a chunk of every alpha kind Boar lacks
(GLBS, MTLS with a KMTF simple track, TXAN with KTAR, GEOA, LITE with KVIS,
RIBB with KRTX, PREM, PRE2 with splines, HTST cylinder/sphere/plane) and a
GEOS in the version's layout (the batched one for 1500).

usage: python3 seed_mdx_alpha.py [OUT_DIR]   (default: corpus/mdx-alpha, relative to this file)
"""
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "corpus/mdx-alpha")


# Little-endian fields, a chunk (tag, size, body), an object with its inclusive size.
def u32(*v): return b''.join(struct.pack('<I', x & 0xffffffff) for x in v)
def f32(*v): return b''.join(struct.pack('<f', x) for x in v)
def u16(*v): return b''.join(struct.pack('<H', x) for x in v)
def chunk(tag, body): return tag + u32(len(body)) + body
def incl(body): return u32(len(body)+4) + body
def name(s, n): return s.encode().ljust(n, b'\0')
# MDLKEYTRACK: tag, count, type, globalSeqId, (time, value) keys.
def keytrack(tag, vals, interp=1):
    b = tag + u32(len(vals), interp, 0xffffffff)
    for i, v in enumerate(vals): b += u32(i*100) + v
    return b
# MDLGENOBJECT: inclusive size, name[80], objectId, parentId (none), flags, tracks.
def node(nm, oid, flags, tracks=b''):
    return incl(name(nm, 80) + u32(oid, 0xffffffff, flags) + tracks)
modl = chunk(b'MODL', name('Seed', 80) + bytes(260) + f32(1,0,0,0,1,1,1) + u32(150) + b'\0')
rot = keytrack(b'KGRT', [struct.pack('<Q', 0x0000_0400_0000_0000), struct.pack('<Q', 0x0012_3456_789a_bcde)])
bone = chunk(b'BONE', u32(1) + node('Bone', 0, 0x80, keytrack(b'KGTR', [f32(0,0,1)]) + rot) + u32(0, 0xffffffff))
lite = chunk(b'LITE', u32(1) + incl(node('Light', 1, 0x100) + u32(0) + f32(1, 2, 1,1,1, 1, 0,0,0, 0) + keytrack(b'KVIS', [f32(1)], 0)))
ribb = chunk(b'RIBB', u32(1) + incl(node('Ribbon', 2, 0x2000) + u32(0) + f32(1,1,1, 1,1,1, 1) + u32(0,1,1,1,0) + f32(0)
    + b'KRTX' + u32(2, 0xffffffff) + u32(0, 1, 100, 2) + keytrack(b'KVIS', [f32(1)])))
txan = chunk(b'TXAN', u32(1) + incl(keytrack(b'KTAR', [struct.pack('<Q', 0x0000_0400_0000_0000)])))
geoa = chunk(b'GEOA', u32(1) + incl(u32(0) + f32(1, 1,1,1) + u32(1) + keytrack(b'KGAO', [f32(0.5)])))
mtls = chunk(b'MTLS', u32(1, 0) + incl(u32(0) + u32(1) + incl(u32(2, 0x100, 0, 0xffffffff) + u32(0) + f32(1)
    + b'KMTF' + u32(1, 0xffffffff) + u32(0, 0))))
prem = chunk(b'PREM', u32(1) + incl(node('Emitter', 3, 0) + f32(1,2,3,4) + name('x.mdx', 260) + f32(1, 2) + keytrack(b'KVIS', [f32(1)])))
pre2 = chunk(b'PRE2', u32(1) + incl(node('Emitter2', 4, 0x800) + u32(0, 3) + f32(*[1.0]*10) + u32(1,1,0) + f32(1, 0.5) + f32(*[1.0]*9)
    + bytes([255,128,0]) + f32(1,1,1) + u32(*[0]*12) + u32(0, 0, 0, 0) + bytes(520) + f32(*[0.0]*5) + f32(*[0.0]*6) + f32(0,0) + f32(0,0,0) + f32(0)
    + f32(0,0,0,0) + u32(2) + f32(0,0,0, 1,1,1) + u32(0) + keytrack(b'KP2S', [f32(1)])))
htst = chunk(b'HTST', u32(3) + incl(node('Cyl', 5, 0x1000) + b'\x01' + f32(0,0,0,1,1))
    + incl(node('Sph', 6, 0x1000) + b'\x02' + f32(0,0,0,1)) + incl(node('Pla', 7, 0x1000) + b'\x03' + f32(1,1)))
pivt = chunk(b'PIVT', f32(*[0.0]*24))
glbs = chunk(b'GLBS', u32(1000))
def geos_1400():
    n = 3
    g = (b'VRTX' + u32(n) + f32(*[0.0]*9) + b'NRMS' + u32(n) + f32(*[0.0,0.0,1.0]*3) + b'UVAS' + u32(1) + f32(*[0.0]*6)
        + b'PTYP' + u32(1) + b'\x04' + b'PCNT' + u32(1, 3) + b'PVTX' + u32(3) + u16(0,1,2) + b'GNDX' + u32(3) + b'\0\0\0'
        + b'MTGC' + u32(1, 1) + b'MATS' + u32(1, 0) + b'BIDX' + u32(3, 0, 0, 0) + b'BWGT' + u32(3, 255, 255, 255)
        + u32(0, 0, 0) + f32(1,0,0,0,1,1,1) + u32(0))
    return chunk(b'GEOS', u32(1) + incl(g))
def geos_1500():
    n, k = 3, 3
    header = u32(0) + f32(0,0,0,1) + u32(0, 0, 0) + b'PVTX' + u32(n) + b'PTYP' + u32(1) + b'PVTX' + u32(k) + bytes(8)
    verts = b''.join(f32(i,0,0) + bytes([255,0,0,0]) + bytes(4) + f32(0,0,1) + f32(0,0,0,0) for i in range(n))
    batch = verts + u32(3, 0) + u16(k, 0, 2, 0) + u16(0,1,2) + u16(*[0]*5)
    return chunk(b'GEOS', u32(1) + header + batch)
os.makedirs(OUT, exist_ok=True)
# GEOS goes right after MODL; the rest in Blizzard's order.
rest = modl + glbs + mtls + txan + geoa + bone + lite + ribb + prem + pre2 + htst + pivt
for v, geos in [(1400, geos_1400()), (1500, geos_1500()), (1300, geos_1400())]:
    data = b'MDLX' + chunk(b'VERS', u32(v)) + rest[:len(modl)] + geos + rest[len(modl):]
    open(os.path.join(OUT, f'seed_v{v}.mdx'), 'wb').write(data)
