//! Generated tiles written and read back (proptest); prefixes and damaged
//! copies of a corpus tile: an error with an offset and a path, or a file that
//! writes back as itself, never a panic.

use crate::common;

use common::corpus_root;
use format_core::UnknownChunk;
use formats::adt::header::{Mcin, Mfbo, Mhdr, Mver, SMChunkInfo};
use formats::adt::mcnk::{
    CWSoundEmitter, EntryRefs, Mcal, Mccv, MccvEntry, Mclq, MclqLayer, Mcly, Mcnk, McnkChunk, Mcnr,
    Mcrf, Mcse, Mcsh, Mcvt, SLVert, SMLayer,
};
use formats::adt::mh2o::{
    Depth, HeightDepth, HeightUv, HeightUvDepth, LiquidAttributes, LiquidInstance,
    LiquidVertexData, Mh2o, RawVertexData, UvMapEntry,
};
use formats::adt::names::{FileNames, NameOffsets};
use formats::adt::placement::{Mddf, Modf, SMDoodadDef, SMMapObjDef};
use formats::adt::{Adt, AdtChunk};
use proptest::prelude::*;

/// A deterministic generator of tiles from a seed (xorshift64*).
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    fn f32(&mut self) -> f32 {
        (self.below(20_000) as f32 - 10_000.0) / 8.0
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
    fn blob(&mut self, min: usize, max: u64) -> Vec<u8> {
        let n = min + self.below(max) as usize;
        self.bytes(n)
    }
    fn u32s(&mut self, n: usize, below: u64) -> Vec<u32> {
        (0..n).map(|_| self.below(below) as u32).collect()
    }

    fn instance(&mut self) -> LiquidInstance {
        let lvf = [0, 1, 2, 3, 42][self.below(5) as usize];
        let (w, h) = (1 + self.below(8) as u8, 1 + self.below(8) as u8);
        let mut inst = LiquidInstance {
            liquid_type: self.below(20) as u16,
            liquid_object_or_lvf: lvf,
            min_height_level: self.f32(),
            max_height_level: self.f32(),
            x_offset: self.below(8) as u8,
            y_offset: self.below(8) as u8,
            width: w,
            height: h,
            ..Default::default()
        };
        if self.chance(50) {
            inst.exists_bitmap = Some(self.bytes(inst.bitmap_len()));
        }
        let n = inst.vertex_count();
        let heights = (0..n).map(|_| self.f32()).collect::<Vec<_>>();
        let uvs = (0..n)
            .map(|_| UvMapEntry {
                x: self.next() as u16,
                y: self.next() as u16,
            })
            .collect::<Vec<_>>();
        inst.vertex_data = self.chance(80).then(|| match lvf {
            0 => LiquidVertexData::HeightDepth(HeightDepth {
                heightmap: heights,
                depthmap: self.bytes(n),
            }),
            1 => LiquidVertexData::HeightUv(HeightUv {
                heightmap: heights,
                uvmap: uvs,
            }),
            2 => LiquidVertexData::Depth(Depth {
                depthmap: self.bytes(n),
            }),
            3 => LiquidVertexData::HeightUvDepth(HeightUvDepth {
                heightmap: heights,
                uvmap: uvs,
                depthmap: self.bytes(n),
            }),
            _ => LiquidVertexData::Raw(RawVertexData {
                bytes: self.blob(1, 40),
            }),
        });
        inst
    }

    fn mh2o(&mut self) -> Mh2o {
        let mut mh2o = Mh2o::new();
        for chunk in &mut mh2o.chunks {
            if self.chance(15) {
                chunk.instances = (0..1 + self.below(3)).map(|_| self.instance()).collect();
                if self.chance(60) {
                    chunk.attributes = Some(LiquidAttributes {
                        fishable: self.next(),
                        deep: self.next(),
                    });
                }
            }
        }
        mh2o
    }

    fn mcnk(&mut self, x: u32, y: u32, doodads: usize) -> Mcnk {
        let mut m = Mcnk::new(x, y);
        m.flags = self.next() as u32 & 0x80ff;
        m.areaid = self.below(5000) as u32;
        m.position = [self.f32(), self.f32(), self.f32()];
        m.really_low_quality_textureing_map = std::array::from_fn(|_| self.next() as u8);
        m.chunks.push(McnkChunk::Mcvt(Mcvt {
            height: std::array::from_fn(|_| self.f32()),
        }));
        if self.chance(40) {
            let entries = std::array::from_fn(|_| MccvEntry {
                blue: 127,
                green: self.next() as u8,
                red: 3,
                alpha: 0,
            });
            m.chunks.push(McnkChunk::Mccv(Mccv { entries }));
        }
        m.chunks.push(McnkChunk::Mcnr(Mcnr {
            entries: std::array::from_fn(|_| [self.next() as i8, self.next() as i8, 127]),
            padding: self
                .chance(80)
                .then(|| std::array::from_fn(|_| self.next() as u8)),
            declared_size: None,
        }));
        let layers = 1 + self.below(4) as usize;
        let mut alpha = Vec::new();
        let mcly = (0..layers)
            .map(|i| {
                let offset = alpha.len() as u32;
                if i > 0 {
                    alpha.extend(self.bytes(2048));
                }
                SMLayer {
                    texture_id: self.below(10) as u32,
                    flags: if i > 0 { 0x100 } else { 0 },
                    offset_in_mcal: offset,
                    effect_id: self.next() as u32,
                }
            })
            .collect();
        m.chunks.push(McnkChunk::Mcly(Mcly { layers: mcly }));
        if self.chance(70) {
            let d = self.below(5) as usize;
            let o = self.below(3) as usize;
            m.chunks.push(McnkChunk::Mcrf(Mcrf {
                doodad_refs: self.u32s(d, doodads.max(1) as u64),
                object_refs: self.u32s(o, 4),
            }));
        }
        if self.chance(50) {
            m.chunks.push(McnkChunk::Mcsh(Mcsh {
                shadow_map: std::array::from_fn(|_| self.next()),
            }));
        }
        m.chunks.push(McnkChunk::Mcal(Mcal {
            data: alpha,
            declared_size: None,
        }));
        if self.chance(20) {
            let layer = MclqLayer {
                height: [self.f32(), self.f32()],
                verts: (0..81)
                    .map(|_| SLVert {
                        data: [1, 2, 3, 4],
                        height: self.f32(),
                    })
                    .collect(),
                tiles: (0..8).map(|_| [self.next() as u8; 8]).collect(),
                n_flowvs: 0,
                flowvs: vec![Default::default(); 2],
            };
            m.chunks.push(McnkChunk::Mclq(Mclq {
                layers: vec![layer; 1 + self.below(2) as usize],
                declared_size: None,
            }));
        }
        if self.chance(20) {
            m.chunks.push(McnkChunk::Unknown(UnknownChunk {
                tag: (*b"MCXX").into(),
                bytes: self.blob(0, 9),
            }));
        }
        if self.chance(30) {
            m.chunks.push(McnkChunk::Mcrd(EntryRefs {
                entries: self.u32s(2, 9),
            }));
        }
        let emitters = (0..self.below(3))
            .map(|_| CWSoundEmitter {
                entry_id: 5,
                position: [1.0; 3],
                size: [2.0; 3],
            })
            .collect();
        m.chunks.push(McnkChunk::Mcse(Mcse { emitters }));
        m
    }

    fn tile(&mut self) -> Adt {
        let doodads = self.below(6) as usize;
        let mut chunks = vec![
            AdtChunk::Mver(Mver { version: 18 }),
            AdtChunk::Mhdr(Mhdr {
                flags: self.below(4) as u32,
                ..Default::default()
            }),
        ];
        let mcnks = 1 + self.below(20) as usize;
        if self.chance(80) {
            chunks.push(AdtChunk::Mcin(Mcin {
                entries: vec![SMChunkInfo::default(); mcnks],
            }));
        }
        chunks.push(AdtChunk::Mtex(
            FileNames::from_names(["a.blp", "tileset\\b.blp"]).unwrap(),
        ));
        chunks.push(AdtChunk::Mmdx(FileNames::from_names(["x.m2"]).unwrap()));
        chunks.push(AdtChunk::Mmid(NameOffsets { offsets: vec![0] }));
        let def = SMDoodadDef {
            scale: 1024,
            ..Default::default()
        };
        chunks.push(AdtChunk::Mddf(Mddf {
            doodad_defs: vec![def; doodads],
        }));
        chunks.push(AdtChunk::Modf(Modf {
            map_obj_defs: vec![SMMapObjDef::default(); self.below(2) as usize],
        }));
        if self.chance(60) {
            chunks.push(AdtChunk::Mh2o(self.mh2o()));
        }
        if self.chance(20) {
            chunks.push(AdtChunk::Unknown(UnknownChunk {
                tag: [0; 4].into(),
                bytes: Vec::new(),
            }));
        }
        for i in 0..mcnks {
            chunks.push(AdtChunk::Mcnk(self.mcnk(
                i as u32 % 16,
                i as u32 / 16,
                doodads,
            )));
        }
        if self.chance(50) {
            chunks.push(AdtChunk::Mfbo(Mfbo {
                maximum: [[1; 3]; 3],
                minimum: [[-1; 3]; 3],
            }));
        }
        Adt { chunks }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Tiles drawn from a seed (the generator above builds them; proptest picks
    /// and reports the seed): written, read back to the same tile, and written
    /// again to the same bytes.
    #[test]
    fn generated_tiles_write_and_read_back(seed in any::<u64>()) {
        let tile = Gen(seed | 1).tile();
        let bytes = tile.to_bytes().unwrap();
        let back = Adt::from_bytes(&bytes).unwrap();
        prop_assert!(back.mcnks().all(|m| m.kept.is_empty()), "nothing to keep in a derived tile");
        prop_assert!(
            back.mh2o().is_none_or(|m| m.kept.is_empty()),
            "nothing to keep in a derived MH2O"
        );
        prop_assert_eq!(&back, &tile);
        prop_assert!(back.to_bytes().unwrap() == bytes, "second write differs");
    }
}

fn smallest_corpus_tile() -> Option<Vec<u8>> {
    let root = corpus_root()?;
    Some(std::fs::read(root.join("adt/bfgilneas_gilneas_bg_2_28_31.adt")).unwrap())
}

/// Reads a prefix or damaged copy: an error that names a place inside the
/// data, or a tile that writes back as exactly these bytes.
fn errors_or_writes_back(data: &[u8], what: &str) -> bool {
    match Adt::from_bytes(data) {
        Ok(tile) => {
            let back = tile
                .to_bytes()
                .unwrap_or_else(|e| panic!("{what}: read but not written: {e}"));
            assert!(back == data, "{what}: read but written differently");
            true
        }
        Err(e) => {
            assert!(e.offset() <= data.len(), "{what}: {e}");
            false
        }
    }
}

#[test]
fn prefixes_of_a_corpus_tile_error_or_write_back_as_themselves() {
    let Some(data) = smallest_corpus_tile() else {
        return;
    };
    let mut cuts: Vec<usize> = (0..=5000).collect();
    // Every top-level chunk boundary, and a byte either side of it.
    let mut boundaries = vec![0];
    let mut at = 0;
    while at < data.len() {
        at += 8 + u32::from_le_bytes(data[at + 4..at + 8].try_into().unwrap()) as usize;
        boundaries.push(at);
    }
    for &b in &boundaries {
        cuts.extend([b.saturating_sub(1), b, (b + 1).min(data.len())]);
    }
    let mut g = Gen(99);
    cuts.extend((0..60).map(|_| g.below(data.len() as u64) as usize));
    cuts.sort_unstable();
    cuts.dedup();
    let whole = cuts
        .iter()
        .filter(|&&cut| errors_or_writes_back(&data[..cut], &format!("prefix {cut}")))
        .count();
    println!(
        "{} prefixes: {whole} read and wrote back as themselves, the rest errored",
        cuts.len()
    );
    // Exactly the prefixes that end at a chunk boundary are files, but for
    // the empty one: a tile starts with its MVER chunk.
    assert!(!errors_or_writes_back(&[], "the empty prefix"));
    assert_eq!(whole, boundaries.len() - 1);
}

#[test]
fn damaged_copies_error_or_write_back_as_themselves() {
    let Some(data) = smallest_corpus_tile() else {
        return;
    };
    let mut g = Gen(0x5EED);
    let (mut read, mut failed) = (0, 0);
    let mut sample = None;
    for case in 0..150 {
        let mut bad = data.clone();
        // Damage where the structure is: headers, MCNK headers, sizes.
        for _ in 0..1 + g.below(4) {
            let at = if g.chance(50) {
                g.below(5000)
            } else {
                g.below(bad.len() as u64)
            } as usize;
            bad[at] = match g.below(3) {
                0 => bad[at] ^ (1 << g.below(8)),
                1 => 0xff,
                _ => g.next() as u8,
            };
        }
        if errors_or_writes_back(&bad, &format!("case {case}")) {
            read += 1;
        } else {
            failed += 1;
            sample.get_or_insert_with(|| Adt::from_bytes(&bad).unwrap_err().to_string());
        }
    }
    println!(
        "damaged copies: {read} read and wrote back exactly, {failed} errored, e.g. {sample:?}"
    );
    assert!(read > 0 && failed > 0);
}

#[test]
fn errors_name_the_offset_and_the_field_path() {
    let Some(mut data) = smallest_corpus_tile() else {
        return;
    };
    // MCNK 0's MCVT declares 4 bytes fewer than its 145 heights.
    let mcnk = u32::from_le_bytes(data[84 + 8..84 + 12].try_into().unwrap()) as usize;
    let mcvt = mcnk + 8 + 128;
    assert_eq!(&data[mcvt..mcvt + 4], b"TVCM");
    data[mcvt + 4] -= 4;
    let e = Adt::from_bytes(&data).unwrap_err();
    let text = e.to_string();
    // MCVT is one plain block of 145 floats: the path ends at the sub-chunk.
    assert!(
        text.starts_with("chunks[11].MCNK.chunks[0].MCVT: need 580 bytes"),
        "{text}"
    );
    assert!(e.offset() >= mcvt && e.offset() < mcvt + 8 + 580, "{text}");
    println!("{text}");
}
