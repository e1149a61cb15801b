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

/// A small MPQ archive, built here with the format's own hashing and
/// encryption: [`sample_mdx`] as `Units\Footman.mdx` (in 512-byte sectors,
/// zlib-compressed, encrypted with the adjusted key), its texture
/// [`sample_blp`] as `Textures\Sample.blp`, a script `war3map.j` stored as
/// it is, and the `(listfile)` naming them (compressed). Feature `archive`.
///
/// ```
/// let bytes = formats::sample::sample_mpq();
/// let archive = formats::mpq::Archive::new(&bytes)?;
/// assert_eq!(archive.read("Units\\Footman.mdx")?, formats::sample::sample_mdx());
/// assert!(archive.diagnostics().is_empty());
/// # Ok::<(), formats::mpq::Error>(())
/// ```
#[cfg(feature = "archive")]
pub fn sample_mpq() -> Vec<u8> {
    build_mpq().unwrap_or_default()
}

/// The sample model's texture, `Textures\Sample.blp`: a BLP1 palette image
/// of 4 by 4 pixels, one colour, no alpha, no mipmaps, written byte by byte
/// as the format lays it out (header, mip table, palette, level 0).
///
/// ```
/// let blp = formats::blp::Blp::from_bytes(&formats::sample::sample_blp())?;
/// assert_eq!(blp.size(), (4, 4));
/// # Ok::<(), formats::Error>(())
/// ```
pub fn sample_blp() -> Vec<u8> {
    const LEVEL: u32 = 4 + 24 + 16 * 4 * 2 + 256 * 4;
    let mut out = b"BLP1".to_vec();
    // compression (palette), alphaBits, width, height, extra, hasMipmaps
    for field in [1u32, 0, 4, 4, 5, 0] {
        out.extend(field.to_le_bytes());
    }
    // Mip offsets, then sizes: level 0 alone.
    let offsets = [LEVEL].into_iter().chain([0; 15]);
    let sizes = [16u32].into_iter().chain([0; 15]);
    for value in offsets.chain(sizes) {
        out.extend(value.to_le_bytes());
    }
    // Palette entry 0 a stone grey (B, G, R, A), the rest black.
    out.extend([0x70, 0x80, 0x90, 0xFF]);
    out.resize(LEVEL as usize, 0);
    out.extend([0u8; 16]);
    out
}

#[cfg(feature = "archive")]
fn build_mpq() -> Result<Vec<u8>, Error> {
    use crate::mpq::{BlockEntry, HashEntry, HashKind, Header, encrypt, flags, hash};
    use format_core::{Context, encode};

    const SECTOR: usize = 512;
    const SLOTS: usize = 16;
    let script = b"function main takes nothing returns nothing\nendfunction\n".to_vec();
    let files: [(&str, Vec<u8>, u32); 4] = [
        (
            "Units\\Footman.mdx",
            sample_mdx(),
            flags::COMPRESS | flags::ENCRYPTED | flags::FIX_KEY | flags::EXISTS,
        ),
        (
            "Textures\\Sample.blp",
            sample_blp(),
            flags::COMPRESS | flags::EXISTS,
        ),
        ("war3map.j", script, flags::EXISTS),
        (
            "(listfile)",
            b"Units\\Footman.mdx\r\nTextures\\Sample.blp\r\nwar3map.j\r\n".to_vec(),
            flags::COMPRESS | flags::EXISTS,
        ),
    ];
    // Everything after the 32-byte header, whose offsets count from the start.
    const HEADER: usize = 32;
    let mut out = Vec::new();
    let mut blocks = Vec::new();
    let mut slots = [HashEntry {
        name1: u32::MAX,
        name2: u32::MAX,
        locale: u16::MAX,
        platform: u16::MAX,
        block_index: HashEntry::EMPTY,
    }; SLOTS];
    for (index, (name, data, bits)) in files.into_iter().enumerate() {
        let offset = (HEADER + out.len()) as u32;
        let key = (bits & flags::ENCRYPTED != 0).then(|| {
            let base = name.rsplit('\\').next().unwrap_or(name);
            (hash(base.as_bytes(), HashKind::Key).wrapping_add(offset)) ^ data.len() as u32
        });
        let mut stored = Vec::new();
        if bits & flags::COMPRESS != 0 {
            let sectors: Vec<Vec<u8>> = data
                .chunks(SECTOR)
                .map(|chunk| {
                    let mut packed = vec![0x02];
                    packed.extend(miniz_oxide::deflate::compress_to_vec_zlib(chunk, 9));
                    if packed.len() < chunk.len() {
                        packed
                    } else {
                        chunk.to_vec()
                    }
                })
                .collect();
            let mut table = Vec::new();
            let mut at = (sectors.len() as u32 + 1) * 4;
            for sector in &sectors {
                table.extend(at.to_le_bytes());
                at += sector.len() as u32;
            }
            table.extend(at.to_le_bytes());
            if let Some(key) = key {
                encrypt(&mut table, key.wrapping_sub(1));
            }
            stored.extend(table);
            for (i, mut sector) in sectors.into_iter().enumerate() {
                if let Some(key) = key {
                    encrypt(&mut sector, key.wrapping_add(i as u32));
                }
                stored.extend(sector);
            }
        } else {
            stored.extend(&data);
        }
        blocks.push(BlockEntry {
            offset,
            compressed_size: stored.len() as u32,
            file_size: data.len() as u32,
            flags: bits,
        });
        out.extend(stored);
        let first = hash(name.as_bytes(), HashKind::Offset) as usize;
        let free = (0..SLOTS).map(|i| (first + i) % SLOTS).find(|&i| {
            slots
                .get(i)
                .is_some_and(|s| s.block_index == HashEntry::EMPTY)
        });
        if let Some(slot) = free.and_then(|i| slots.get_mut(i)) {
            *slot = HashEntry {
                name1: hash(name.as_bytes(), HashKind::NameA),
                name2: hash(name.as_bytes(), HashKind::NameB),
                locale: 0,
                platform: 0,
                block_index: index as u32,
            };
        }
    }
    let ctx = Context::new();
    let hash_table_offset = (HEADER + out.len()) as u32;
    let mut table = encode(&slots, ctx)?;
    encrypt(&mut table, hash(b"(hash table)", HashKind::Key));
    out.extend(table);
    let block_table_offset = (HEADER + out.len()) as u32;
    let mut table = blocks
        .iter()
        .map(|block| encode(block, ctx))
        .collect::<Result<Vec<_>, _>>()?
        .concat();
    encrypt(&mut table, hash(b"(block table)", HashKind::Key));
    out.extend(table);
    let header = Header {
        header_size: 32,
        archive_size: (HEADER + out.len()) as u32,
        format_version: 0,
        sector_size_shift: 0,
        hash_table_offset,
        block_table_offset,
        hash_table_entries: SLOTS as u32,
        block_table_entries: blocks.len() as u32,
    };
    let mut file = crate::mpq::HEADER_MAGIC.to_vec();
    file.extend(encode(&header, ctx)?);
    file.extend(out);
    Ok(file)
}
