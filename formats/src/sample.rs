//! A small model generated in code, so `formats info` has something to show on
//! a fresh machine with no files at hand; and the terrain additions the
//! examples and tests put into real tiles (a doodad, a pool of water).

use format_core::{Error, FixedStr, FourCC, Writer};

use crate::adt::mh2o::{HeightDepth, LiquidInstance, LiquidVertexData};
use crate::adt::placement::SMDoodadDef;

fn tag(t: &[u8; 4]) -> FourCC {
    FourCC::new(*t)
}

fn fixed<const N: usize>(w: &mut Writer, text: &str) -> Result<(), Error> {
    w.plain(&FixedStr::<N>::try_from(text)?);
    Ok(())
}

/// `Extent { float boundsRadius; float[3] minimum; float[3] maximum }` of
/// the unit cube at rest (`rises`: and as high as "Stand" lifts it, 0.5
/// more; the radius is from the box's centre).
fn extent(w: &mut Writer, rises: bool) {
    let top = if rises { 1.0 } else { 0.5 };
    let half_height = (top + 0.5) / 2.0;
    w.plain(&[(0.5f32 + half_height * half_height).sqrt()]);
    w.plain(&[[-0.5f32; 3], [0.5, 0.5, top]]);
}

/// A version 800 MDX: `VERS`, `MODL`, two `SEQS` sequences, a texture, a
/// material, a cube geoset (8 vertices, 12 triangles) bound to one bone that
/// moves during "Stand", and the bone's pivot point. It passes every check of
/// [`validate`](crate::validate).
///
/// ```
/// let bytes = formats::sample::sample_mdx();
/// let file = formats::chunks::ChunkFile::from_bytes(&bytes).unwrap();
/// let tags: Vec<String> = file.chunks().iter().map(|c| c.tag.to_string()).collect();
/// assert_eq!(tags, ["VERS", "MODL", "SEQS", "TEXS", "MTLS", "GEOS", "BONE", "PIVT"]);
/// ```
pub fn sample_mdx() -> Vec<u8> {
    build().unwrap_or_default()
}

fn build() -> Result<Vec<u8>, Error> {
    let mut w = Writer::new();
    w.tag(tag(b"MDLX"));
    w.chunk(tag(b"VERS"), |w| {
        w.u32(800);
        Ok(())
    })?;
    w.chunk(tag(b"MODL"), |w| {
        fixed::<80>(w, "Sample")?;
        fixed::<260>(w, "")?;
        extent(w, true);
        w.u32(150); // blendTime
        Ok(())
    })?;
    w.chunk(tag(b"SEQS"), |w| {
        for (name, interval, flags) in [("Stand", [0u32, 1000], 0u32), ("Birth", [2000, 3000], 1)] {
            fixed::<80>(w, name)?;
            w.plain(&interval);
            w.f32(0.0); // moveSpeed
            w.u32(flags); // 0: looping, 1: non looping
            w.f32(0.0); // rarity
            w.u32(0); // syncPoint
            extent(w, name == "Stand");
        }
        Ok(())
    })?;
    w.chunk(tag(b"TEXS"), |w| {
        w.u32(0); // replaceableId
        fixed::<260>(w, "Textures\\Sample.blp")?;
        w.u32(0); // flags
        Ok(())
    })?;
    w.chunk(tag(b"MTLS"), |w| {
        w.inclusive(|w| {
            w.u32(0); // priorityPlane
            w.u32(0); // flags
            w.tag(tag(b"LAYS"));
            w.u32(1); // layersCount
            w.inclusive(|w| {
                w.u32(0); // filterMode: none
                w.u32(0); // shadingFlags
                w.u32(0); // textureId
                w.u32(u32::MAX); // textureAnimationId: none
                w.u32(0); // coordId
                w.f32(1.0); // alpha
                Ok(())
            })
        })
    })?;
    w.chunk(tag(b"GEOS"), geoset)?;
    w.chunk(tag(b"BONE"), |w| {
        w.inclusive(|w| {
            fixed::<80>(w, "Root")?;
            w.u32(0); // objectId
            w.u32(u32::MAX); // parentId: none
            w.u32(0x100); // flags: bone
            // KGTR: the cube rises and falls during "Stand" (linear, no global sequence).
            w.tag(tag(b"KGTR"));
            w.u32(3); // tracksCount
            w.u32(1); // interpolationType: linear
            w.u32(u32::MAX); // globalSequenceId: none
            for (frame, z) in [(0u32, 0f32), (500, 0.5), (1000, 0.0)] {
                w.u32(frame);
                w.plain(&[0.0, 0.0, z]);
            }
            Ok(())
        })?;
        w.u32(0); // geosetId
        w.u32(u32::MAX); // geosetAnimationId: none
        Ok(())
    })?;
    w.chunk(tag(b"PIVT"), |w| {
        w.plain(&[0f32; 3]);
        Ok(())
    })?;
    Ok(w.into_bytes())
}

/// The corners of the unit cube, `x` in bit 0, `y` in bit 1, `z` in bit 2.
fn corner(i: u16) -> [f32; 3] {
    [0, 1, 2].map(|bit| if i >> bit & 1 == 1 { 0.5 } else { -0.5 })
}

/// A unit cube: each face two triangles, normals pointing out of the corners.
fn geoset(w: &mut Writer) -> Result<(), Error> {
    const FACES: [u16; 36] = [
        0, 2, 1, 1, 2, 3, // -z
        4, 5, 6, 5, 7, 6, // +z
        0, 1, 4, 1, 5, 4, // -y
        2, 6, 3, 3, 6, 7, // +y
        0, 4, 2, 2, 4, 6, // -x
        1, 3, 5, 3, 7, 5, // +x
    ];
    w.inclusive(|w| {
        w.tag(tag(b"VRTX"));
        w.u32(8);
        (0..8).for_each(|i| w.plain(&corner(i)));
        w.tag(tag(b"NRMS"));
        w.u32(8);
        (0..8).for_each(|i| w.plain(&corner(i).map(|v| v * 2.0 / 3f32.sqrt())));
        w.tag(tag(b"PTYP"));
        w.u32(1);
        w.u32(4); // triangles
        w.tag(tag(b"PCNT"));
        w.u32(1);
        w.u32(36);
        w.tag(tag(b"PVTX"));
        w.u32(36);
        w.plain(&FACES);
        w.tag(tag(b"GNDX"));
        w.u32(8);
        w.plain(&[0u8; 8]); // every vertex in matrix group 0
        w.tag(tag(b"MTGC"));
        w.u32(1);
        w.u32(1); // group 0 has one matrix
        w.tag(tag(b"MATS"));
        w.u32(1);
        w.u32(0); // bone 0
        w.u32(0); // materialId
        w.u32(0); // selectionGroup
        w.u32(0); // selectionFlags
        extent(w, true);
        w.u32(2); // an extent per sequence
        extent(w, true);
        extent(w, false);
        w.tag(tag(b"UVAS"));
        w.u32(1);
        w.tag(tag(b"UVBS"));
        w.u32(8);
        (0..8u8).for_each(|i| w.plain(&[f32::from(i & 1), f32::from(i >> 1 & 1)]));
        Ok(())
    })
}

/// The doodad the examples add to a tile: a crate at MDDF position
/// (17066, 25, 17000) at scale 1.0 (1024), `uniqueId` 0xfeed; with its
/// model's path, for [`Adt::add_doodad`](crate::adt::Adt::add_doodad).
///
/// ```
/// let (path, def) = formats::sample::doodad();
/// assert_eq!((path, def.scale), ("World\\Generic\\Test\\Crate.m2", 1024));
/// ```
pub fn doodad() -> (&'static str, SMDoodadDef) {
    let def = SMDoodadDef {
        unique_id: 0xfeed,
        position: [17066.0, 25.0, 17000.0],
        scale: 1024,
        ..Default::default()
    };
    ("World\\Generic\\Test\\Crate.m2", def)
}

/// The water the examples add to an MCNK: liquid type 1 between heights 10
/// and 12, 4 x 3 tiles from tile (1, 2) of the chunk's 8 x 8, every tile but
/// (0, 2) present (the exists-mask row by row), and a height and a depth for
/// each of its 5 x 4 vertices.
///
/// ```
/// let water = formats::sample::water();
/// assert!(water.exists(3, 1) && !water.exists(0, 2));
/// ```
pub fn water() -> LiquidInstance {
    LiquidInstance {
        liquid_type: 1,
        liquid_object_or_lvf: 0,
        min_height_level: 10.0,
        max_height_level: 12.0,
        x_offset: 1,
        y_offset: 2,
        width: 4,
        height: 3,
        exists_bitmap: Some(vec![0xff, 0x0e]),
        vertex_data: Some(LiquidVertexData::HeightDepth(HeightDepth {
            heightmap: (0..20u8).map(|i| 10.0 + f32::from(i) / 10.0).collect(),
            depthmap: vec![40; 20],
        })),
        ..Default::default()
    }
}
