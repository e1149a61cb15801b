//! Offsets and sizes declared with `offset(...)`, `size(...)` and `placed`:
//! derived on write from where their targets land, kept as read while the
//! data still gives what it gave, targets placed by offset with gaps and
//! overlaps kept.

use format_core::{Codec, Context, Derived, ErrorKind, Kept, UnknownChunk, decode, encode};
use proptest::prelude::*;

fn le(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

#[derive(Codec, Debug, PartialEq, Clone, Default)]
struct Bytes {
    #[format(until_end)]
    bytes: Vec<u8>,
}

#[derive(Codec, Debug, PartialEq, Clone)]
enum Sub {
    #[format(chunk = "HGHT")]
    Height(Bytes),
    #[format(chunk = "NORM")]
    Normal(Bytes),
    #[format(unknown)]
    Unknown(UnknownChunk),
}

/// A header whose offsets point at its own sub-chunks (as MCNK's do).
#[derive(Codec, Debug, PartialEq, Clone)]
struct Header {
    flags: u32,
    #[format(offset(of = chunks["HGHT"], from = start))]
    ofs_height: Derived<u32>,
    #[format(size(of = chunks["HGHT"], body))]
    size_height: Derived<u32>,
    #[format(offset(of = chunks["NORM"], from = start))]
    ofs_normal: Derived<u32>,
    #[format(calc = chunks.len())]
    n_chunks: Derived<u32>,
    #[format(until_end)]
    chunks: Vec<Sub>,
    #[format(kept)]
    kept: Kept,
}

fn header(chunks: Vec<Sub>) -> Header {
    Header {
        flags: 7,
        ofs_height: Derived::new(),
        size_height: Derived::new(),
        ofs_normal: Derived::new(),
        n_chunks: Derived::new(),
        chunks,
        kept: Kept::new(),
    }
}

fn height(n: usize) -> Sub {
    Sub::Height(Bytes { bytes: vec![1; n] })
}

fn normal(n: usize) -> Sub {
    Sub::Normal(Bytes { bytes: vec![2; n] })
}

#[test]
fn offsets_into_a_list_are_derived_from_where_its_elements_land() {
    let value = header(vec![height(3), normal(2)]);
    let bytes = encode(&value, Context::new()).unwrap();
    // 20 bytes of header, then HGHT (8 + 3), then NORM.
    assert_eq!(&bytes[..20], le(&[7, 20, 3, 31, 2]).as_slice());
    let read = decode::<Header>(&bytes, Context::new()).unwrap();
    assert_eq!(read, value);
    assert!(read.kept.is_empty());
    // Absent: 0.
    let bytes = encode(&header(vec![normal(1)]), Context::new()).unwrap();
    assert_eq!(&bytes[..20], le(&[7, 0, 0, 20, 1]).as_slice());
}

/// The bytes of `header(vec![height(3), normal(2)])` with two header values
/// a writer got wrong: `size_height` 4, `ofs_normal` 99.
fn quirky() -> Vec<u8> {
    let mut bytes = encode(&header(vec![height(3), normal(2)]), Context::new()).unwrap();
    bytes[8..12].copy_from_slice(&4u32.to_le_bytes());
    bytes[12..16].copy_from_slice(&99u32.to_le_bytes());
    bytes
}

#[test]
fn values_a_file_wrote_differently_are_kept_while_the_data_gives_the_same() {
    let bytes = quirky();
    let mut value = decode::<Header>(&bytes, Context::new()).unwrap();
    // Every value of the header is kept with what its data gave; two differ.
    let values = value.kept.values();
    assert_eq!(values.len(), 4);
    assert_eq!(
        values
            .iter()
            .filter(|v| v.raw != v.derived.unwrap_or(0))
            .count(),
        2
    );
    assert_eq!(encode(&value, Context::new()).unwrap(), bytes);
    // The heights grow: their size and the normals' offset follow the data.
    value.chunks[0] = height(5);
    let written = encode(&value, Context::new()).unwrap();
    assert_eq!(&written[4..16], le(&[20, 5, 33]).as_slice());
    let reread = decode::<Header>(&written, Context::new()).unwrap();
    assert!(reread.kept.is_empty());
    assert_eq!(reread.chunks, value.chunks);
}

#[test]
fn an_absent_target_keeps_its_value_until_it_appears() {
    // `ofs_normal` 8 without a NORM chunk (as an `ofsShadow` without MCSH).
    let mut bytes = encode(&header(vec![height(1)]), Context::new()).unwrap();
    bytes[12..16].copy_from_slice(&8u32.to_le_bytes());
    let mut value = decode::<Header>(&bytes, Context::new()).unwrap();
    assert_eq!(encode(&value, Context::new()).unwrap(), bytes);
    value.chunks.push(normal(1));
    let written = encode(&value, Context::new()).unwrap();
    assert_eq!(u32_at(&written, 12), 20 + 9);
}

/// A texture (as BLP): a table of absolute offsets and sizes of levels placed
/// anywhere after the header, even over its palette.
#[derive(Codec, Debug, PartialEq, Clone)]
#[format(magic = "TEX1", region)]
struct Texture {
    width: u32,
    #[format(offset(of = levels, from = 0))]
    offsets: Derived<[u32; 4]>,
    #[format(size(of = levels))]
    sizes: Derived<[u32; 4]>,
    #[format(count = u32)]
    palette: Vec<u8>,
    #[format(placed)]
    levels: Vec<Vec<u8>>,
    #[format(kept)]
    kept: Kept,
}

fn texture(levels: Vec<Vec<u8>>) -> Texture {
    Texture {
        width: 4,
        offsets: Derived::new(),
        sizes: Derived::new(),
        palette: vec![9, 9, 9, 9],
        levels,
        kept: Kept::new(),
    }
}

/// Inline part: magic, width, 4 offsets, 4 sizes, palette count and 4 bytes.
const INLINE: usize = 4 + 4 + 16 + 16 + 4 + 4;

/// A texture file laid out by hand: each level at the given offset.
fn texture_file(levels: &[(u32, &[u8])], total: usize, fill: u8) -> Vec<u8> {
    let mut file = vec![fill; total.max(INLINE)];
    file[..4].copy_from_slice(b"TEX1");
    file[4..8].copy_from_slice(&4u32.to_le_bytes());
    file[8..40].fill(0);
    file[40..44].copy_from_slice(&4u32.to_le_bytes());
    file[44..48].copy_from_slice(&[9, 9, 9, 9]);
    for (i, (at, bytes)) in levels.iter().enumerate() {
        file[8 + 4 * i..12 + 4 * i].copy_from_slice(&at.to_le_bytes());
        let len = u32::try_from(bytes.len()).unwrap();
        file[24 + 4 * i..28 + 4 * i].copy_from_slice(&len.to_le_bytes());
        let at = *at as usize;
        if file.len() < at + bytes.len() {
            file.resize(at + bytes.len(), fill);
        }
        file[at..at + bytes.len()].copy_from_slice(bytes);
    }
    file
}

#[test]
fn placed_levels_are_laid_out_after_the_header() {
    let value = texture(vec![vec![1, 2, 3], vec![4]]);
    let bytes = encode(&value, Context::new()).unwrap();
    assert_eq!(bytes, texture_file(&[(48, &[1, 2, 3]), (51, &[4])], 52, 0));
    let read = decode::<Texture>(&bytes, Context::new()).unwrap();
    assert_eq!(read, value);
    assert!(read.kept.is_empty());
}

#[test]
fn gaps_overlaps_and_trailing_bytes_survive_and_an_edit_lays_out_afresh() {
    // Level 0 after a 4-byte gap; level 1 over the palette's last two bytes
    // (which it agrees with); 3 bytes after the last level.
    let file = texture_file(&[(52, &[1, 2, 3]), (46, &[9, 9, 5])], 58, 0xEE);
    let mut value = decode::<Texture>(&file, Context::new()).unwrap();
    assert_eq!(value.levels, [vec![1, 2, 3], vec![9, 9, 5]]);
    let placement = value.kept.placement().expect("not a fresh layout");
    assert_eq!(placement.targets, [(48, 3), (42, 3)]);
    assert_eq!(encode(&value, Context::new()).unwrap(), file);

    // Same lengths: written where they were.
    value.levels[0] = vec![7, 7, 7];
    let written = encode(&value, Context::new()).unwrap();
    assert_eq!(written[52..55], [7, 7, 7]);
    assert_eq!(written.len(), file.len());

    // A level that no longer agrees with the palette it overlaps: afresh.
    value.levels[1] = vec![1, 1, 1];
    let written = encode(&value, Context::new()).unwrap();
    assert_eq!(
        written,
        texture_file(&[(48, &[7, 7, 7]), (51, &[1, 1, 1])], 54, 0)
    );

    // A level of another length: afresh, offsets and sizes follow.
    let mut value = decode::<Texture>(&file, Context::new()).unwrap();
    value.levels[0] = vec![1, 2];
    let written = encode(&value, Context::new()).unwrap();
    let reread = decode::<Texture>(&written, Context::new()).unwrap();
    assert!(reread.kept.is_empty());
    assert_eq!(reread.levels, value.levels);
}

#[test]
fn table_entries_after_the_last_level_are_kept() {
    let mut file = texture_file(&[(48, &[1])], 49, 0);
    // Entry 2 has an offset but no size (no level): kept as written.
    file[16..20].copy_from_slice(&1234u32.to_le_bytes());
    let mut value = decode::<Texture>(&file, Context::new()).unwrap();
    assert_eq!(value.levels.len(), 1);
    assert_eq!(encode(&value, Context::new()).unwrap(), file);
    value.levels.push(vec![2]);
    value.levels.push(vec![3]);
    let written = encode(&value, Context::new()).unwrap();
    assert_eq!(u32_at(&written, 16), 50);
    // More levels than the table has entries is an error, not a truncation.
    value.levels = vec![vec![0]; 5];
    let err = encode(&value, Context::new()).unwrap_err();
    assert!(err.to_string().contains("4 entries"), "{err}");
}

#[test]
fn an_offset_outside_the_file_is_an_error_naming_it() {
    let mut file = texture_file(&[(48, &[1])], 49, 0);
    file[8..12].copy_from_slice(&4000u32.to_le_bytes());
    let err = decode::<Texture>(&file, Context::new()).unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("levels[0]") && text.contains("4000"),
        "{text}"
    );
}

#[test]
fn a_placed_part_outside_its_region_is_an_error_in_plain_words() {
    let value = SizedBody {
        ofs: Derived::new(),
        len: Derived::new(),
        body: Pair { a: 1, b: 2 },
        kept: Kept::new(),
    };
    let mut bytes = encode(&value, Context::new()).unwrap();
    bytes[4] = 200;
    let err = decode::<SizedBody>(&bytes, Context::new()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "body: invalid value at 0x4: 8 bytes at 0xc8 (offset 200 from 0x0) do not lie in 0x4..0x14"
    );
    // Without a size: the part, whatever its length.
    let mut bytes = encode(&liquids(), Context::new()).unwrap();
    bytes[28] = 200; // entry 0, instance 0: its bitmap's offset
    let err = decode::<Liquids>(&bytes, Context::new()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "entries[0].instances[0].bitmap: invalid value at 0x1c: a part at 0xc8 (offset 200 \
         from 0x0) does not lie in 0x0..0x33"
    );
}

#[derive(Codec, Debug, PartialEq, Clone)]
struct Pair {
    a: u32,
    b: u32,
}

/// A part placed by offset and bounded by a size stored apart from it.
#[derive(Codec, Debug, PartialEq, Clone)]
#[format(magic = "BODY", region)]
struct SizedBody {
    #[format(offset(of = body, from = 0))]
    ofs: Derived<u32>,
    #[format(size(of = body))]
    len: Derived<u32>,
    #[format(placed)]
    body: Pair,
    #[format(kept)]
    kept: Kept,
}

#[test]
fn a_placed_part_that_does_not_fit_its_size_is_an_error_naming_where_the_size_is() {
    let value = SizedBody {
        ofs: Derived::new(),
        len: Derived::new(),
        body: Pair { a: 1, b: 2 },
        kept: Kept::new(),
    };
    let bytes = encode(&value, Context::new()).unwrap();
    assert_eq!(bytes[4..12], [12, 0, 0, 0, 8, 0, 0, 0]);
    // The size says 6: `b` crosses its end. The size is stored at 0x8 (the
    // part starts at 0xc).
    let mut short = bytes.clone();
    short[8] = 6;
    let err = decode::<SizedBody>(&short, Context::new()).unwrap_err();
    match err.kind() {
        ErrorKind::SizeOverrun {
            offset,
            size_offset,
            ..
        } => assert_eq!((*offset, *size_offset), (0x10, 0x8), "{err}"),
        other => panic!("{other:?}"),
    }
    // The size says 10 where the part reads 8: the 2 bytes left are an error
    // naming the size too.
    let mut long = bytes.clone();
    long[8] = 10;
    long.extend([0, 0]);
    let err = decode::<SizedBody>(&long, Context::new()).unwrap_err();
    match err.kind() {
        ErrorKind::SizeUnderrun { size_offset, .. } => assert_eq!(*size_offset, 0x8, "{err}"),
        other => panic!("{other:?}"),
    }
}

#[derive(Codec, Debug, PartialEq, Clone)]
#[format(args(n: usize))]
struct Bits {
    #[format(count = n)]
    bytes: Vec<u8>,
}

/// Placed parts of placed parts (as MH2O's instances and their bitmaps).
#[derive(Codec, Debug, PartialEq, Clone)]
#[format(args(base: usize))]
struct Instance {
    kind: u16,
    cells: u16,
    #[format(offset(of = bitmap, from = base))]
    ofs_bitmap: Derived<u32>,
    #[format(placed, args(usize::from(cells).div_ceil(8)))]
    bitmap: Option<Bits>,
    #[format(kept)]
    kept: Kept,
}

#[derive(Codec, Debug, PartialEq, Clone)]
#[format(args(base: usize))]
struct Entry {
    #[format(offset(of = instances, from = base))]
    ofs_instances: Derived<u32>,
    #[format(calc = instances.len())]
    count: Derived<u32>,
    #[format(placed, count = count, args(base))]
    instances: Vec<Instance>,
    #[format(kept)]
    kept: Kept,
}

#[derive(Codec, Debug, PartialEq, Clone)]
#[format(region)]
struct Liquids {
    #[format(count = 3, args(start))]
    entries: Vec<Entry>,
    #[format(kept)]
    kept: Kept,
}

fn instance(kind: u16, bits: Option<&[u8]>) -> Instance {
    Instance {
        kind,
        cells: bits.map_or(8, |b| u16::try_from(b.len() * 8).unwrap()),
        ofs_bitmap: Derived::new(),
        bitmap: bits.map(|b| Bits { bytes: b.to_vec() }),
        kept: Kept::new(),
    }
}

fn entry(instances: Vec<Instance>) -> Entry {
    Entry {
        ofs_instances: Derived::new(),
        count: Derived::new(),
        instances,
        kept: Kept::new(),
    }
}

fn liquids() -> Liquids {
    Liquids {
        entries: vec![
            entry(vec![instance(1, Some(&[0xAA])), instance(2, None)]),
            entry(vec![]),
            entry(vec![instance(3, Some(&[1, 2]))]),
        ],
        kept: Kept::new(),
    }
}

#[test]
fn nested_placed_parts_are_laid_out_after_their_parents() {
    let value = liquids();
    let bytes = encode(&value, Context::new()).unwrap();
    // Header: 3 entries of 8; entry 0's two instances (8 each) at 24, its
    // first bitmap at 40; entry 2's instance at 41, its bitmap at 49.
    assert_eq!(&bytes[..24], le(&[24, 2, 0, 0, 41, 1]).as_slice());
    assert_eq!(&bytes[24..32], [1, 0, 8, 0, 40, 0, 0, 0]);
    assert_eq!(u32_at(&bytes, 36), 0, "an absent bitmap is 0");
    assert_eq!(bytes[40], 0xAA);
    assert_eq!(&bytes[49..51], [1, 2]);
    assert_eq!(bytes.len(), 51);
    let read = decode::<Liquids>(&bytes, Context::new()).unwrap();
    assert_eq!(read, value);
}

#[test]
fn nested_parts_placed_elsewhere_write_back_exactly() {
    // Entry 2's instance first, then entry 0's, bitmaps last, with padding.
    let mut file = le(&[40, 2, 0, 0, 28, 1]);
    file.extend([0xFF; 4]); // padding 24..28
    file.extend([3, 0, 16, 0, 60, 0, 0, 0]); // 28: entry 2's instance, bitmap at 60
    file.extend([0; 4]); // 36..40
    file.extend([1, 0, 8, 0, 58, 0, 0, 0, 2, 0, 8, 0, 0, 0, 0, 0]); // 40: entry 0's
    file.extend([0; 2]); // 56..58
    file.extend([0xAA, 0, 1, 2]); // 58: bitmap of instance 1, gap byte, 60: 1 2
    let value = decode::<Liquids>(&file, Context::new()).unwrap();
    assert_eq!(
        value.entries[2].instances[0].bitmap,
        Some(Bits { bytes: vec![1, 2] })
    );
    assert_eq!(encode(&value, Context::new()).unwrap(), file);
    let mut edited = value.clone();
    edited.entries[1].instances.push(instance(9, Some(&[7])));
    let written = encode(&edited, Context::new()).unwrap();
    let reread = decode::<Liquids>(&written, Context::new()).unwrap();
    assert!(reread.kept.is_empty());
    assert_eq!(reread.entries[1].instances[0].kind, 9);
    assert_eq!(
        reread
            .entries
            .iter()
            .map(|e| e.instances.len())
            .collect::<Vec<_>>(),
        [2, 1, 1]
    );
}

/// A texture file with levels cut from one random blob (so overlaps agree)
/// at random places, and random bytes around them.
fn arbitrary_texture_file() -> impl Strategy<Value = Vec<u8>> {
    (
        proptest::collection::vec(any::<u8>(), 0..64),
        proptest::collection::vec((0usize..64, 0usize..16), 0..4),
    )
        .prop_map(|(blob, cuts)| {
            let mut levels: Vec<(u32, Vec<u8>)> = Vec::new();
            for (at, len) in cuts {
                let len = len.max(1);
                let start = (INLINE - 8 + at).min(INLINE + blob.len());
                let bytes: Vec<u8> = (start..start + len)
                    .map(|i| match i.checked_sub(INLINE) {
                        Some(j) => blob.get(j).copied().unwrap_or(j as u8),
                        None => 9, // the palette's bytes (and the count's last)
                    })
                    .collect();
                // Inside the inline part only over the palette, which is 9s.
                if start < INLINE - 4 {
                    continue;
                }
                levels.push((u32::try_from(start).unwrap(), bytes));
            }
            let mut file = texture_file(
                &levels
                    .iter()
                    .map(|(at, b)| (*at, b.as_slice()))
                    .collect::<Vec<_>>(),
                INLINE,
                0,
            );
            for (i, byte) in blob.iter().enumerate() {
                let at = INLINE + i;
                if at >= file.len() {
                    file.push(*byte);
                } else if !levels
                    .iter()
                    .any(|(s, b)| (*s as usize..*s as usize + b.len()).contains(&at))
                {
                    file[at] = *byte;
                }
            }
            file
        })
}

/// Reads `file` as a `T` and writes it back: the bytes must be `file`'s.
fn round_trip<T>(file: &[u8]) -> Result<(), TestCaseError>
where
    T: format_core::Decode<Args = ()> + format_core::Encode<Args = ()>,
{
    let value = decode::<T>(file, Context::new()).unwrap();
    prop_assert_eq!(encode(&value, Context::new()).unwrap(), file);
    Ok(())
}

proptest! {
    #[test]
    fn any_layout_survives_a_round_trip(file in arbitrary_texture_file()) {
        round_trip::<Texture>(&file)?;
    }

    #[test]
    fn an_edited_value_is_written_consistently(
        file in arbitrary_texture_file(),
        level in proptest::collection::vec(any::<u8>(), 1..20),
    ) {
        let mut value = decode::<Texture>(&file, Context::new()).unwrap();
        if value.levels.len() < 4 {
            value.levels.push(level);
        } else {
            value.levels[0] = level;
        }
        let written = encode(&value, Context::new()).unwrap();
        let reread = decode::<Texture>(&written, Context::new()).unwrap();
        prop_assert_eq!(&reread.levels, &value.levels);
        prop_assert_eq!(&reread.palette, &value.palette);
        // Every offset and size points at its level.
        for (i, level) in reread.levels.iter().enumerate() {
            let at = u32_at(&written, 8 + 4 * i) as usize;
            prop_assert_eq!(&written[at..at + level.len()], level.as_slice());
            prop_assert_eq!(u32_at(&written, 24 + 4 * i) as usize, level.len());
        }
    }
}

/// A table at the start of a file pointing at later chunks of the same file
/// (as an ADT's MHDR and MCIN do).
#[derive(Codec, Debug, PartialEq, Clone)]
#[format(chunk = "HEAD")]
struct Head {
    #[format(offset(of = parent["DATA"], from = start))]
    ofs_data: Derived<u32>,
    #[format(count = 2, args(index))]
    items: Vec<ItemInfo>,
    #[format(kept)]
    kept: Kept,
}

/// Entry `index` locates the `index`-th ITEM chunk of the file.
#[derive(Codec, Debug, PartialEq, Clone)]
#[format(args(index: usize))]
struct ItemInfo {
    #[format(offset(of = parent["ITEM"][index], from = 0))]
    offset: Derived<u32>,
    #[format(size(of = parent["ITEM"][index]))]
    size: Derived<u32>,
    #[format(kept)]
    kept: Kept,
}

#[derive(Codec, Debug, PartialEq, Clone)]
enum Top {
    Head(Head),
    #[format(chunk = "DATA")]
    Data(Bytes),
    #[format(chunk = "ITEM")]
    Item(Bytes),
}

fn read_top(bytes: &[u8]) -> Vec<Top> {
    let mut r = format_core::Reader::new(bytes);
    let siblings = format_core::anchor::scan_chunks(&r);
    r.with_siblings(siblings, |r| format_core::decode_until_end(r, ()))
        .unwrap()
}

fn write_top(chunks: &[Top]) -> Vec<u8> {
    let mut w = format_core::Writer::new();
    w.with_siblings(|w| {
        for chunk in chunks {
            let start = w.pos();
            format_core::Encode::encode(chunk, w, ())?;
            let len = w.pos() - start;
            w.push_anchor(chunk.tag(), start, len);
        }
        Ok(())
    })
    .unwrap();
    w.into_bytes()
}

fn item_info() -> ItemInfo {
    ItemInfo {
        offset: Derived::new(),
        size: Derived::new(),
        kept: Kept::new(),
    }
}

fn top() -> Vec<Top> {
    vec![
        Top::Head(Head {
            ofs_data: Derived::new(),
            items: vec![item_info(), item_info()],
            kept: Kept::new(),
        }),
        Top::Data(Bytes { bytes: vec![5; 3] }),
        Top::Item(Bytes { bytes: vec![1] }),
        Top::Item(Bytes { bytes: vec![2, 2] }),
    ]
}

#[test]
fn offsets_into_the_enclosing_list_are_patched_once_it_is_written() {
    let chunks = top();
    let bytes = write_top(&chunks);
    // HEAD (8 + 20) at 0, DATA at 28, ITEMs at 39 (9 bytes) and 48 (10 bytes).
    assert_eq!(&bytes[8..28], le(&[20, 39, 9, 48, 10]).as_slice());
    assert_eq!(read_top(&bytes), chunks);

    // A writer's sizes 8 short (the chunk body only), as Noggit's MCIN: kept
    // while the items stay; once they move, each entry's offset and size are
    // derived together.
    let mut quirky = bytes.clone();
    quirky[16..20].copy_from_slice(&1u32.to_le_bytes());
    quirky[24..28].copy_from_slice(&2u32.to_le_bytes());
    let mut read = read_top(&quirky);
    assert_eq!(write_top(&read), quirky);
    if let Top::Data(data) = &mut read[1] {
        data.bytes.push(0);
    }
    let written = write_top(&read);
    assert_eq!(&written[8..28], le(&[20, 40, 9, 49, 10]).as_slice());
}

// Proptests over the other ways offsets are declared: relative to a chunk's
// start into its own sub-chunks (as MCNK), into the enclosing list (as MHDR,
// relative, and MCIN, absolute), and placed parts of placed parts (as MH2O).
// Each: any file, whatever its offsets say, is written back exactly; after
// an edit, a group of values is written as read if its data still gives what
// it gave, else derived afresh, consistently (checked against a layout
// worked out here), and the value reads back equal.

/// A chunk whose header locates its sub-chunks relative to the chunk's own
/// start, header included (as MCNK's `ofsHeight`, `ofsLayer`, `sizeShadow`).
#[derive(Codec, Debug, PartialEq, Clone)]
#[format(chunk = "CELL")]
struct Cell {
    flags: u32,
    #[format(offset(of = chunks["HGHT"], from = start.saturating_sub(8)))]
    ofs_height: Derived<u32>,
    #[format(size(of = chunks["HGHT"], body))]
    size_height: Derived<u32>,
    #[format(offset(of = chunks["NORM"][1], from = start.saturating_sub(8)))]
    ofs_second_normal: Derived<u32>,
    #[format(size(of = chunks["NORM"]))]
    size_normal: Derived<u32>,
    #[format(calc = chunks.len())]
    n_chunks: Derived<u32>,
    #[format(until_end)]
    chunks: Vec<Sub>,
    #[format(kept)]
    kept: Kept,
}

/// Cells one after the other, so that offsets relative to each cell's start
/// differ from absolute ones.
#[derive(Codec, Debug, PartialEq, Clone)]
struct Cells {
    #[format(until_end)]
    cells: Vec<Cell>,
}

/// The header words of a cell: 8 bytes of chunk header, then `flags`.
const CELL_WORDS: std::ops::Range<usize> = 12..32;

fn cell(flags: u32, chunks: Vec<Sub>) -> Cell {
    Cell {
        flags,
        ofs_height: Derived::new(),
        size_height: Derived::new(),
        ofs_second_normal: Derived::new(),
        size_normal: Derived::new(),
        n_chunks: Derived::new(),
        chunks,
        kept: Kept::new(),
    }
}

fn sub_len(sub: &Sub) -> usize {
    8 + match sub {
        Sub::Height(b) | Sub::Normal(b) => b.bytes.len(),
        Sub::Unknown(u) => u.bytes.len(),
    }
}

/// The header words a fresh layout gives, worked out from the sub-chunks.
fn cell_words(chunks: &[Sub]) -> Vec<u32> {
    let mut at = 32; // chunk header, six words
    let (mut height, mut normals) = (None, Vec::new());
    for sub in chunks {
        match sub {
            Sub::Height(b) if height.is_none() => height = Some((at, b.bytes.len())),
            Sub::Normal(_) => normals.push((at, sub_len(sub))),
            _ => {}
        }
        at += sub_len(sub);
    }
    let w = |x: usize| u32::try_from(x).unwrap();
    vec![
        height.map_or(0, |(at, _)| w(at)),
        height.map_or(0, |(_, len)| w(len)),
        normals.get(1).map_or(0, |(at, _)| w(*at)),
        normals.first().map_or(0, |(_, len)| w(*len)),
        w(chunks.len()),
    ]
}

/// Where each top-level chunk of `bytes` starts.
fn chunk_starts(bytes: &[u8]) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut at = 0;
    while at + 8 <= bytes.len() {
        starts.push(at);
        at += 8 + u32_at(bytes, at + 4) as usize;
    }
    starts
}

fn words(bytes: &[u8], at: usize, n: usize) -> Vec<u32> {
    (0..n).map(|i| u32_at(bytes, at + 4 * i)).collect()
}

fn put_words(bytes: &mut [u8], at: usize, words: &[u32]) {
    for (i, w) in words.iter().enumerate() {
        bytes[at + 4 * i..at + 4 * i + 4].copy_from_slice(&w.to_le_bytes());
    }
}

fn arbitrary_sub() -> impl Strategy<Value = Sub> + Clone {
    (0u8..3, proptest::collection::vec(any::<u8>(), 0..6)).prop_map(|(kind, bytes)| match kind {
        0 => Sub::Height(Bytes { bytes }),
        1 => Sub::Normal(Bytes { bytes }),
        _ => Sub::Unknown(UnknownChunk {
            tag: format_core::FourCC::of("MISC"),
            bytes,
        }),
    })
}

/// Words a writer put in place of the derived ones (`None`: as derived).
fn arbitrary_words(n: usize) -> impl Strategy<Value = Vec<Option<u32>>> {
    proptest::collection::vec(
        proptest::option::weighted(0.3, prop_oneof![0u32..80, any::<u32>()]),
        n,
    )
}

fn overwrite(bytes: &mut [u8], at: usize, words: &[Option<u32>]) {
    for (i, w) in words.iter().enumerate() {
        if let Some(w) = w {
            put_words(bytes, at + 4 * i, &[*w]);
        }
    }
}

/// A file of 1 to 3 cells, some of their header words replaced.
fn arbitrary_cells_file() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(
        (
            any::<u32>(),
            proptest::collection::vec(arbitrary_sub(), 0..6),
            arbitrary_words(5),
        ),
        1..4,
    )
    .prop_map(|cells| {
        let value = Cells {
            cells: cells
                .iter()
                .map(|(flags, chunks, _)| cell(*flags, chunks.clone()))
                .collect(),
        };
        let mut file = encode(&value, Context::new()).unwrap();
        for (start, (_, _, raw)) in chunk_starts(&file).into_iter().zip(&cells) {
            overwrite(&mut file, start + CELL_WORDS.start, raw);
        }
        file
    })
}

/// An edit of a list: insert, remove or replace the element at a position.
#[derive(Debug, Clone)]
enum Edit<T> {
    Insert(prop::sample::Index, T),
    Remove(prop::sample::Index),
    Replace(prop::sample::Index, T),
}

fn arbitrary_edit<T: std::fmt::Debug + Clone>(
    element: impl Strategy<Value = T> + Clone,
) -> impl Strategy<Value = Edit<T>> {
    prop_oneof![
        (any::<prop::sample::Index>(), element.clone()).prop_map(|(i, e)| Edit::Insert(i, e)),
        any::<prop::sample::Index>().prop_map(Edit::Remove),
        (any::<prop::sample::Index>(), element).prop_map(|(i, e)| Edit::Replace(i, e)),
    ]
}

impl<T: Clone> Edit<T> {
    /// Applies the edit to `list[from..]`.
    fn apply(&self, list: &mut Vec<T>, from: usize) {
        let n = list.len() - from;
        match self {
            Edit::Insert(i, e) => list.insert(from + i.index(n + 1), e.clone()),
            Edit::Remove(i) if n > 0 => {
                list.remove(from + i.index(n));
            }
            Edit::Replace(i, e) if n > 0 => list[from + i.index(n)] = e.clone(),
            Edit::Remove(_) | Edit::Replace(..) => {}
        }
    }
}

/// What a group of derived values is written as: as read while the data
/// gives what it gave when read, else what it gives now.
fn expected_group(raw: &[u32], before: &[u32], now: &[u32]) -> Vec<u32> {
    if before == now {
        raw.to_vec()
    } else {
        now.to_vec()
    }
}

proptest! {
    #[test]
    fn offsets_relative_to_a_chunk_survive_a_round_trip(file in arbitrary_cells_file()) {
        round_trip::<Cells>(&file)?;
    }

    #[test]
    fn offsets_relative_to_a_chunk_follow_an_edit(
        file in arbitrary_cells_file(),
        which in any::<prop::sample::Index>(),
        edit in arbitrary_edit(arbitrary_sub()),
    ) {
        let read = decode::<Cells>(&file, Context::new()).unwrap();
        let mut edited = read.clone();
        let which = which.index(edited.cells.len());
        edit.apply(&mut edited.cells[which].chunks, 0);
        let written = encode(&edited, Context::new()).unwrap();
        let reread = decode::<Cells>(&written, Context::new()).unwrap();
        prop_assert_eq!(&reread, &edited);
        let starts = chunk_starts(&file);
        let written_starts = chunk_starts(&written);
        prop_assert_eq!(written_starts.len(), edited.cells.len());
        for (i, cell) in edited.cells.iter().enumerate() {
            let raw = words(&file, starts[i] + CELL_WORDS.start, 5);
            let before = cell_words(&read.cells[i].chunks);
            let now = cell_words(&cell.chunks);
            let got = words(&written, written_starts[i] + CELL_WORDS.start, 5);
            prop_assert_eq!(got, expected_group(&raw, &before, &now), "cell {}", i);
        }
        // The edited cell, laid out afresh, locates its sub-chunks.
        let mut fresh = edited.clone();
        for cell in &mut fresh.cells {
            cell.kept = Kept::new();
        }
        let fresh_bytes = encode(&fresh, Context::new()).unwrap();
        let at = chunk_starts(&fresh_bytes)[which];
        let now = cell_words(&edited.cells[which].chunks);
        prop_assert_eq!(words(&fresh_bytes, at + CELL_WORDS.start, 5), now.clone());
        if now[0] != 0 {
            prop_assert_eq!(&fresh_bytes[at + now[0] as usize..][..4], b"HGHT");
        }
        if now[2] != 0 {
            prop_assert_eq!(&fresh_bytes[at + now[2] as usize..][..4], b"NORM");
        }
    }
}

fn arbitrary_top_chunk() -> impl Strategy<Value = Top> + Clone {
    (any::<bool>(), proptest::collection::vec(any::<u8>(), 0..6)).prop_map(|(data, bytes)| {
        if data {
            Top::Data(Bytes { bytes })
        } else {
            Top::Item(Bytes { bytes })
        }
    })
}

/// `HEAD`, then DATA and ITEM chunks in any order, some of HEAD's words
/// (`ofs_data`, then offset and size of each item) replaced.
fn arbitrary_top_file() -> impl Strategy<Value = Vec<u8>> {
    (
        proptest::collection::vec(arbitrary_top_chunk(), 0..6),
        arbitrary_words(5),
    )
        .prop_map(|(rest, raw)| {
            let mut chunks = vec![top().remove(0)];
            chunks.extend(rest);
            let mut file = write_top(&chunks);
            overwrite(&mut file, 8, &raw);
            file
        })
}

/// HEAD's words as a fresh layout gives them, in groups: `[ofs_data]`
/// (relative to HEAD's body), then `[offset, size]` of each item (absolute).
fn head_groups(chunks: &[Top]) -> Vec<Vec<u32>> {
    let mut at = 0;
    let (mut data, mut items) = (None, Vec::new());
    for chunk in chunks {
        let len = 8 + match chunk {
            Top::Head(_) => 20,
            Top::Data(b) | Top::Item(b) => b.bytes.len(),
        };
        match chunk {
            Top::Data(_) if data.is_none() => data = Some(at),
            Top::Item(_) => items.push((at, len)),
            _ => {}
        }
        at += len;
    }
    let w = |x: usize| u32::try_from(x).unwrap();
    let item = |i: usize| {
        items
            .get(i)
            .map_or(vec![0, 0], |(at, len)| vec![w(*at), w(*len)])
    };
    vec![vec![data.map_or(0, |at| w(at - 8))], item(0), item(1)]
}

fn head_words(bytes: &[u8]) -> Vec<Vec<u32>> {
    let all = words(bytes, 8, 5);
    vec![all[..1].to_vec(), all[1..3].to_vec(), all[3..].to_vec()]
}

proptest! {
    #[test]
    fn offsets_into_the_enclosing_list_survive_a_round_trip(file in arbitrary_top_file()) {
        let chunks = read_top(&file);
        prop_assert_eq!(write_top(&chunks), file);
    }

    #[test]
    fn offsets_into_the_enclosing_list_follow_an_edit(
        file in arbitrary_top_file(),
        edit in arbitrary_edit(arbitrary_top_chunk()),
    ) {
        let read = read_top(&file);
        let mut edited = read.clone();
        edit.apply(&mut edited, 1);
        let written = write_top(&edited);
        prop_assert_eq!(&read_top(&written), &edited);
        let raw = head_words(&file);
        let before = head_groups(&read);
        let now = head_groups(&edited);
        let got = head_words(&written);
        for g in 0..3 {
            prop_assert_eq!(&got[g], &expected_group(&raw[g], &before[g], &now[g]), "group {}", g);
        }
        // Where they are derived, they point at their chunks.
        if got[0] == now[0] && now[0][0] != 0 {
            prop_assert_eq!(&written[8 + now[0][0] as usize..][..4], b"DATA");
        }
        for g in 1..3 {
            if got[g] == now[g] && now[g][0] != 0 {
                let at = now[g][0] as usize;
                prop_assert_eq!(&written[at..at + 4], b"ITEM");
                prop_assert_eq!(u32_at(&written, at + 4) + 8, now[g][1]);
            }
        }
    }
}

/// What an instance holds: kind, cells and bitmap.
type InstanceData = (u16, u16, Option<Vec<u8>>);

fn instance_data(value: &Liquids) -> Vec<Vec<InstanceData>> {
    value
        .entries
        .iter()
        .map(|e| {
            e.instances
                .iter()
                .map(|i| (i.kind, i.cells, i.bitmap.as_ref().map(|b| b.bytes.clone())))
                .collect()
        })
        .collect()
}

fn arbitrary_instance() -> impl Strategy<Value = (u16, u16, bool)> + Clone {
    (any::<u16>(), 0u16..24, any::<bool>())
}

/// A liquids region laid out by hand: each entry's run of instances at a
/// place of its own, in any order, with gaps of any bytes before each; the
/// bitmaps cut anywhere from one blob after them (so that overlapping ones
/// agree); an empty entry's offset anything.
fn arbitrary_liquids_file() -> impl Strategy<Value = Vec<u8>> {
    (
        proptest::collection::vec(proptest::collection::vec(arbitrary_instance(), 0..3), 3),
        Just(vec![0usize, 1, 2]).prop_shuffle(),
        proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..5), 3),
        proptest::collection::vec(any::<u8>(), 3..40),
        proptest::collection::vec(any::<prop::sample::Index>(), 6),
        proptest::collection::vec(any::<u32>(), 3),
    )
        .prop_map(|(entries, order, gaps, blob, cuts, empty_offsets)| {
            let mut file = vec![0u8; 24];
            let mut runs = [0usize; 3];
            for &e in &order {
                file.extend(&gaps[e]);
                runs[e] = file.len();
                file.extend(vec![0u8; 8 * entries[e].len()]);
            }
            let blob_at = file.len() + 1;
            file.push(0xB0);
            file.extend(&blob);
            let mut cut = cuts.iter().cycle();
            for (e, instances) in entries.iter().enumerate() {
                let ofs = if instances.is_empty() {
                    empty_offsets[e]
                } else {
                    runs[e] as u32
                };
                put_words(&mut file, 8 * e, &[ofs, instances.len() as u32]);
                for (i, &(kind, cells, has_bitmap)) in instances.iter().enumerate() {
                    let len = usize::from(cells).div_ceil(8);
                    let bitmap = if has_bitmap {
                        let at = blob_at + cut.next().unwrap().index(blob.len() + 1 - len.min(3));
                        u32::try_from(at).unwrap()
                    } else {
                        0
                    };
                    let at = runs[e] + 8 * i;
                    file[at..at + 2].copy_from_slice(&kind.to_le_bytes());
                    file[at + 2..at + 4].copy_from_slice(&cells.to_le_bytes());
                    put_words(&mut file, at + 4, &[bitmap]);
                }
            }
            file
        })
}

proptest! {
    #[test]
    fn nested_placed_parts_survive_a_round_trip(file in arbitrary_liquids_file()) {
        round_trip::<Liquids>(&file)?;
    }

    #[test]
    fn nested_placed_parts_follow_an_edit(
        file in arbitrary_liquids_file(),
        which in any::<prop::sample::Index>(),
        edit in arbitrary_edit((any::<u16>(), proptest::option::of(proptest::collection::vec(any::<u8>(), 0..4)))),
    ) {
        let read = decode::<Liquids>(&file, Context::new()).unwrap();
        let mut edited = read.clone();
        let entry = &mut edited.entries[which.index(3)];
        let edit = match edit {
            Edit::Insert(i, (kind, bits)) => Edit::Insert(i, instance(kind, bits.as_deref())),
            Edit::Remove(i) => Edit::Remove(i),
            Edit::Replace(i, (kind, bits)) => Edit::Replace(i, instance(kind, bits.as_deref())),
        };
        edit.apply(&mut entry.instances, 0);
        let written = encode(&edited, Context::new()).unwrap();
        let reread = decode::<Liquids>(&written, Context::new()).unwrap();
        prop_assert_eq!(instance_data(&reread), instance_data(&edited));
        // Every offset points at its part: each instance record, and each
        // bitmap, is where its offset says.
        for (e, entry) in edited.entries.iter().enumerate() {
            let instances = &entry.instances;
            prop_assert_eq!(u32_at(&written, 8 * e + 4) as usize, instances.len());
            let run = u32_at(&written, 8 * e) as usize;
            for (i, inst) in instances.iter().enumerate() {
                let at = run + 8 * i;
                prop_assert_eq!(&written[at..at + 2], &inst.kind.to_le_bytes());
                let bitmap = u32_at(&written, at + 4) as usize;
                match &inst.bitmap {
                    Some(b) => prop_assert_eq!(&written[bitmap..bitmap + b.bytes.len()], b.bytes.as_slice()),
                    None => prop_assert_eq!(bitmap, 0),
                }
            }
        }
    }
}

/// An offset into a list with a count prefix: the count is read from the
/// reader before the list is (it once failed to compile, the reader
/// borrowed twice in one call).
#[derive(Codec, Debug, PartialEq, Clone)]
struct PrefixedList {
    #[format(offset(of = chunks["NORM"], from = 0))]
    ofs_normal: Derived<u32>,
    #[format(count = u32)]
    chunks: Vec<Sub>,
    #[format(kept)]
    kept: Kept,
}

#[test]
fn an_offset_into_a_list_with_a_count_prefix() {
    let value = PrefixedList {
        ofs_normal: Derived::new(),
        chunks: vec![height(3), normal(2)],
        kept: Kept::new(),
    };
    let bytes = encode(&value, Context::new()).unwrap();
    // 4 (offset) + 4 (count), then HGHT (8 + 3), then NORM at 19.
    assert_eq!(&bytes[..8], le(&[19, 2]).as_slice());
    assert_eq!(
        decode::<PrefixedList>(&bytes, Context::new()).unwrap(),
        value
    );
}

/// A chunk whose part lies by offset inside it: the chunk is its `region`
/// (without `region` the derive refuses it: `tests/ui`), so its size covers
/// the part and reads back.
#[derive(Codec, Debug, PartialEq, Clone)]
#[format(chunk = "STRT", region)]
struct ChunkWithPart {
    a: u32,
    #[format(offset(of = blob, from = start))]
    ofs_blob: Derived<u32>,
    #[format(placed)]
    blob: Option<Bytes>,
    #[format(kept)]
    kept: Kept,
}

#[test]
fn a_chunk_that_is_its_own_region_holds_its_placed_part() {
    let value = ChunkWithPart {
        a: 5,
        ofs_blob: Derived::new(),
        blob: Some(Bytes { bytes: vec![7, 8] }),
        kept: Kept::new(),
    };
    let bytes = encode(&value, Context::new()).unwrap();
    // Tag, size 10, then a, the offset (8: after a and itself), the part.
    assert_eq!(&bytes[4..16], le(&[10, 5, 8]).as_slice());
    assert_eq!(&bytes[16..], [7, 8]);
    assert_eq!(
        decode::<ChunkWithPart>(&bytes, Context::new()).unwrap(),
        value
    );
}

/// A table of offsets and sizes whose parts have placed parts of their own
/// (records, each with a bitmap), as one region.
#[derive(Codec, Debug, PartialEq, Clone)]
#[format(region)]
struct RecordTable {
    #[format(offset(of = records, from = 0))]
    offsets: Derived<[u32; 4]>,
    #[format(size(of = records))]
    sizes: Derived<[u32; 4]>,
    #[format(placed, args(0usize))]
    records: Vec<Instance>,
    #[format(kept)]
    kept: Kept,
}

/// A record table laid out by hand: a pool of distinct records at places of
/// their own, in any order, with gaps of any bytes before each; table
/// entries pointing at any of them (two entries at one record are parts
/// that overlap and agree), the entries after the last anything with a 0;
/// the bitmaps cut anywhere from one blob (overlapping ones agree), trailing
/// bytes after it.
fn arbitrary_record_table_file() -> impl Strategy<Value = Vec<u8>> {
    (
        proptest::collection::vec((arbitrary_instance(), any::<prop::sample::Index>()), 1..4),
        proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..5), 4),
        proptest::collection::vec(any::<prop::sample::Index>(), 0..5),
        proptest::collection::vec((any::<bool>(), any::<u32>()), 4),
        proptest::collection::vec(any::<u8>(), 3..40),
        proptest::collection::vec(any::<u8>(), 0..4),
    )
        .prop_map(|(pool, gaps, used, ends, blob, trailing)| {
            let mut file = vec![0u8; 32];
            let mut at = Vec::new();
            for (r, gap) in pool.iter().zip(&gaps) {
                let _ = r;
                file.extend(gap);
                at.push(file.len());
                file.extend([0u8; 8]);
            }
            let blob_at = file.len();
            file.extend(&blob);
            for (&((kind, cells, has_bitmap), cut), &record) in pool.iter().zip(&at) {
                let len = usize::from(cells).div_ceil(8);
                let bitmap = if has_bitmap && len <= blob.len() {
                    u32::try_from(blob_at + cut.index(blob.len() + 1 - len)).unwrap()
                } else {
                    0
                };
                file[record..record + 2].copy_from_slice(&kind.to_le_bytes());
                file[record + 2..record + 4].copy_from_slice(&cells.to_le_bytes());
                put_words(&mut file, record + 4, &[bitmap]);
            }
            file.extend(&trailing);
            let n = used.len().min(4);
            for (i, end) in ends.iter().enumerate() {
                let (offset, size) = match used.get(i) {
                    Some(which) if i < n => (at[which.index(at.len())] as u32, 8),
                    // After the last entry: a 0 offset or a 0 size, the other anything.
                    _ if end.0 => (0, end.1),
                    _ => (end.1.max(1), 0),
                };
                put_words(&mut file, 4 * i, &[offset]);
                put_words(&mut file, 16 + 4 * i, &[size]);
            }
            file
        })
}

proptest! {
    #[test]
    fn gaps_and_overlaps_in_a_table_of_nested_parts_survive_a_round_trip(
        file in arbitrary_record_table_file(),
    ) {
        round_trip::<RecordTable>(&file)?;
    }

    #[test]
    fn a_table_of_nested_parts_follows_an_edit(
        file in arbitrary_record_table_file(),
        kind in any::<u16>(),
        bits in proptest::option::of(proptest::collection::vec(any::<u8>(), 1..4)),
    ) {
        let mut value = decode::<RecordTable>(&file, Context::new()).unwrap();
        if value.records.len() < 4 {
            value.records.push(instance(kind, bits.as_deref()));
        } else {
            value.records[0] = instance(kind, bits.as_deref());
        }
        let written = encode(&value, Context::new()).unwrap();
        let reread = decode::<RecordTable>(&written, Context::new()).unwrap();
        prop_assert_eq!(reread.records.len(), value.records.len());
        for (read, want) in reread.records.iter().zip(&value.records) {
            prop_assert_eq!((read.kind, read.cells, &read.bitmap), (want.kind, want.cells, &want.bitmap));
        }
        // Written again unedited, the new layout is kept as it is.
        prop_assert_eq!(encode(&reread, Context::new()).unwrap(), written);
    }
}
