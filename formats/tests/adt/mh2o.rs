//! MH2O: the typed view of the corpus tiles' liquids against an independent
//! reading of the raw bytes, and layouts real writers produce.

use crate::common;

use common::corpus_root;
use formats::adt::Adt;
use formats::adt::mh2o::{Depth, HeightDepth, LiquidVertexData};

#[test]
fn mh2o_typed_view_agrees_with_the_raw_bytes() {
    let Some(root) = corpus_root() else { return };
    for name in [
        "wowserfmt_continent4229",
        "warcraftnet_Northrend_37_25",
        "tswowassets_kalimdor_1_1",
        "patch5_Aeven_10_3",
        "bfgilneas_gilneas_bg_2_28_31",
    ] {
        let data = std::fs::read(root.join(format!("adt/{name}.adt"))).unwrap();
        let tile = Adt::from_bytes(&data).unwrap();
        let mh2o = tile.mh2o().unwrap();
        // The MH2O data starts at MHDR.data + MHDR.mh2o + 8.
        let base = 20 + u32::from_le_bytes(data[20 + 40..20 + 44].try_into().unwrap()) as usize + 8;
        let u32_at =
            |o: usize| u32::from_le_bytes(data[base + o..base + o + 4].try_into().unwrap());
        let f32_at =
            |o: usize| f32::from_le_bytes(data[base + o..base + o + 4].try_into().unwrap());
        let mut instances = 0;
        for (c, chunk) in mh2o.chunks.iter().enumerate() {
            let (ofs, count, attr) = (
                u32_at(12 * c) as usize,
                u32_at(12 * c + 4) as usize,
                u32_at(12 * c + 8) as usize,
            );
            assert_eq!(chunk.instances.len(), count, "{name} chunk {c}");
            assert_eq!(chunk.attributes.is_some(), attr != 0);
            if let Some(a) = chunk.attributes {
                assert_eq!(a.fishable.to_le_bytes(), data[base + attr..base + attr + 8]);
            }
            for (k, inst) in chunk.instances.iter().enumerate() {
                let rec = ofs + 24 * k;
                let b = |o: usize| data[base + rec + o];
                assert_eq!(inst.liquid_type, u16::from_le_bytes([b(0), b(1)]));
                assert_eq!(inst.liquid_object_or_lvf, u16::from_le_bytes([b(2), b(3)]));
                assert_eq!(inst.min_height_level.to_bits(), f32_at(rec + 4).to_bits());
                assert_eq!(
                    (inst.x_offset, inst.y_offset, inst.width, inst.height),
                    (b(12), b(13), b(14), b(15))
                );
                let (exists, vertex) = (u32_at(rec + 16) as usize, u32_at(rec + 20) as usize);
                let n = (inst.width as usize + 1) * (inst.height as usize + 1);
                match (&inst.vertex_data, vertex) {
                    (None, 0) => {}
                    (
                        Some(LiquidVertexData::HeightDepth(HeightDepth {
                            heightmap,
                            depthmap,
                        })),
                        v,
                    ) => {
                        assert_eq!((heightmap.len(), depthmap.len()), (n, n));
                        assert_eq!(
                            heightmap[n - 1].to_bits(),
                            f32_at(v + 4 * (n - 1)).to_bits()
                        );
                        assert_eq!(depthmap[..], data[base + v + 4 * n..base + v + 5 * n]);
                    }
                    (Some(LiquidVertexData::Depth(Depth { depthmap })), v) => {
                        assert_eq!(depthmap[..], data[base + v..base + v + n]);
                    }
                    other => panic!("{name} chunk {c}: unexpected vertex data {other:?}"),
                }
                if let Some(bits) = &inst.exists_bitmap {
                    assert_eq!(bits[..], data[base + exists..base + exists + bits.len()]);
                    let w = inst.width as usize;
                    let bit =
                        |x: usize, y: usize| bits[(y * w + x) / 8] >> ((y * w + x) % 8) & 1 == 1;
                    assert_eq!(inst.exists(w - 1, 0), bit(w - 1, 0));
                }
                instances += 1;
            }
        }
        println!("adt/{name}.adt: {instances} liquid instances agree with the raw MH2O bytes");
        assert!(instances > 0, "{name}");
    }
}

#[test]
fn mh2o_offsets_of_chunks_without_liquid_are_kept() {
    // Found by fuzzing: a chunk with no instances but a non-zero offset.
    let Some(root) = corpus_root() else { return };
    let mut data = std::fs::read(root.join("adt/wowserfmt_continent4229.adt")).unwrap();
    let mh2o = 20 + u32::from_le_bytes(data[60..64].try_into().unwrap()) as usize + 8;
    let chunk = (0..256).find(|c| data[mh2o + 12 * c + 4] == 0).unwrap();
    data[mh2o + 12 * chunk..][..4].copy_from_slice(b"ASPe");
    let tile = Adt::from_bytes(&data).unwrap();
    assert!(tile.mh2o().unwrap().chunks[chunk].instances.is_empty());
    assert!(tile.to_bytes().unwrap() == data);
}
