//! The attributes that act in one direction (`read_with`, `write_with`,
//! `read_if`, `read_calc`, `write_assert`), per-element `index` arguments,
//! variants chosen by `when`, the generated `tag()`, and `until_end` in bulk.

use format_core::{
    ChunkTag, Codec, Context, ErrorKind, FourCC, Reader, Result, UnknownChunk, Writer, decode,
    encode,
};

/// A hand-written reader only: the write side is the declared `count = u32`.
/// It clamps a count the declared reader would refuse to the bytes left.
fn read_lenient_list(r: &mut Reader<'_>) -> Result<Vec<u16>> {
    let declared = r.u32()? as usize;
    let count = declared.min(r.remaining() / 2);
    r.plain_vec(count)
}

/// A hand-written reader only, with its argument in the call: the value on
/// disk divided by `divisor` (the write side is the declared `u32`).
fn read_divided(r: &mut Reader<'_>, divisor: u32) -> Result<u32> {
    Ok(r.u32()? / divisor)
}

/// A hand-written writer only, with its argument in the call: the value
/// times `factor` (the read side is the declared `u32`).
fn write_multiplied(value: &u32, w: &mut Writer, factor: u32) -> Result<()> {
    w.u32(value * factor);
    Ok(())
}

/// `len` bytes, as a type with arguments of its own.
#[derive(Codec, Debug, PartialEq)]
#[format(args(len: usize))]
struct Run {
    #[format(count = len)]
    bytes: Vec<u8>,
}

/// A hand-written reader given the field's `args`: the run backwards.
fn read_reversed(r: &mut Reader<'_>, len: usize) -> Result<Run> {
    let mut bytes = r.plain_vec::<u8>(len)?;
    bytes.reverse();
    Ok(Run { bytes })
}

/// A hand-written writer given the field's `args`: each byte plus `len`.
fn write_shifted(run: &Run, w: &mut Writer, len: usize) -> Result<()> {
    let shift = u8::try_from(len).unwrap();
    for byte in &run.bytes {
        w.u8(byte.wrapping_add(shift));
    }
    Ok(())
}

#[derive(Codec, Debug, PartialEq)]
struct OneWay {
    #[format(read_with = read_divided(2))]
    halved: u32,
    #[format(write_with = write_multiplied(3))]
    tripled: u32,
    #[format(args(2), read_with = read_reversed)]
    reversed: Run,
    #[format(args(3), write_with = write_shifted)]
    shifted: Run,
    #[format(count = u32, read_with = read_lenient_list)]
    list: Vec<u16>,
}

#[test]
fn hooks_replace_one_direction_only() {
    let value = OneWay {
        halved: 8,
        tripled: 7,
        reversed: Run { bytes: vec![1, 2] },
        shifted: Run {
            bytes: vec![4, 5, 6],
        },
        list: vec![1, 2],
    };
    let bytes = encode(&value, Context::new()).unwrap();
    #[rustfmt::skip]
    let expected = [
        8, 0, 0, 0, // halved: declared on write
        21, 0, 0, 0, // tripled: 7 * 3 by the write hook
        1, 2, // reversed: declared on write, `args(2)`
        7, 8, 9, // shifted: + 3 by the write hook, given `args(3)`
        2, 0, 0, 0, 1, 0, 2, 0, // list: declared on write, its count prefixed
    ];
    assert_eq!(bytes, expected);
    let read = decode::<OneWay>(&bytes, Context::new()).unwrap();
    assert_eq!(
        read,
        OneWay {
            halved: 4,                           // 8 / 2 by the read hook
            tripled: 21,                         // declared on read
            reversed: Run { bytes: vec![2, 1] }, // backwards by the read hook
            shifted: Run {
                bytes: vec![7, 8, 9], // declared on read, 3 bytes by `args(3)`
            },
            list: vec![1, 2],
        }
    );
    // The read hook clamps a count the declared reader would refuse.
    let mut short = bytes[..13].to_vec();
    short.extend([9, 0, 0, 0, 1, 0, 7, 0]);
    let read = decode::<OneWay>(&short, Context::new()).unwrap();
    assert_eq!(read.list, [1, 7]);
}

/// A trailer present only if exactly 4 bytes are left, and a value computed on read.
#[derive(Codec, Debug, PartialEq)]
struct Trailer {
    kind: u8,
    #[format(read_calc = kind & 0x80 != 0)]
    flagged: bool,
    #[format(read_if = reader.remaining() == 4 && reader.peek_tag() != Some(FourCC::of("NEXT")))]
    tail: Option<u32>,
}

#[test]
fn read_conditions_look_at_the_reader() {
    let with = decode::<Trailer>(&[0x81, 5, 0, 0, 0], Context::new()).unwrap();
    assert_eq!(with.tail, Some(5));
    assert!(with.flagged);
    let without = decode::<Trailer>(&[0x01], Context::new()).unwrap();
    assert_eq!((without.tail, without.flagged), (None, false));
    // Written as held; `flagged` is nothing on disk.
    let bytes = encode(&with, Context::new()).unwrap();
    assert_eq!(bytes, [0x81, 5, 0, 0, 0]);
    assert_eq!(encode(&without, Context::new()).unwrap(), [1]);
}

#[derive(Codec, Debug, PartialEq)]
struct Pairs {
    #[format(calc = left.len())]
    count: format_core::Derived<u32>,
    #[format(count = count)]
    left: Vec<u8>,
    #[format(
        count = count,
        write_assert(left.len() == right.len(), "each left has exactly one right")
    )]
    right: Vec<u8>,
}

#[test]
fn write_asserts_refuse_before_anything_is_written() {
    let bad = Pairs {
        count: format_core::Derived::new(),
        left: vec![1, 2],
        right: vec![3],
    };
    let err = encode(&bad, Context::new()).unwrap_err();
    assert!(
        err.to_string().contains("each left has exactly one right"),
        "{err}"
    );
    assert!(matches!(err.kind(), ErrorKind::Inconsistent { .. }));
}

/// Element `i` is read with the size that header `i` gives.
#[derive(Codec, Debug, PartialEq)]
#[format(args(len: u8))]
struct Blob {
    #[format(count = len)]
    bytes: Vec<u8>,
}

#[derive(Codec, Debug, PartialEq)]
struct Blobs {
    #[format(count = u8)]
    lens: Vec<u8>,
    #[format(count = lens.len(), args(lens.get(index).copied().unwrap_or(0)))]
    blobs: Vec<Blob>,
}

#[test]
fn element_arguments_see_their_index() {
    let value = Blobs {
        lens: vec![1, 3],
        blobs: vec![
            Blob { bytes: vec![9] },
            Blob {
                bytes: vec![7, 8, 9],
            },
        ],
    };
    let bytes = encode(&value, Context::new()).unwrap();
    assert_eq!(bytes, [2, 1, 3, 9, 7, 8, 9]);
    assert_eq!(decode::<Blobs>(&bytes, Context::new()).unwrap(), value);
}

#[derive(Codec, Debug, PartialEq, Clone, Copy)]
#[format(plain)]
#[repr(C)]
struct Depth {
    depth: u8,
}

#[derive(Codec, Debug, PartialEq, Clone, Copy)]
#[format(plain)]
#[repr(C)]
struct Height {
    height: f32,
}

/// The vertex format is a number stored elsewhere: variants chosen by `when`.
#[derive(Codec, Debug, PartialEq)]
#[format(args(format: u16))]
enum Vertex {
    #[format(when = format == 0)]
    Depth(Depth),
    #[format(when = format == 1 || format == 3)]
    Height(Height),
}

#[test]
fn variants_chosen_by_a_condition() {
    let ctx = Context::new();
    let mut r = Reader::with_context(&[7], ctx);
    assert_eq!(
        <Vertex as format_core::Decode>::decode(&mut r, (0,)).unwrap(),
        Vertex::Depth(Depth { depth: 7 })
    );
    let mut r = Reader::with_context(&[0, 0, 128, 63], ctx);
    assert_eq!(
        <Vertex as format_core::Decode>::decode(&mut r, (3,)).unwrap(),
        Vertex::Height(Height { height: 1.0 })
    );
    let err = <Vertex as format_core::Decode>::decode(&mut Reader::new(&[1]), (2,)).unwrap_err();
    assert!(err.to_string().contains("no variant of `Vertex`"), "{err}");
    // Writing checks the variant's condition against the arguments.
    let mut w = Writer::new();
    let err =
        format_core::Encode::encode(&Vertex::Depth(Depth { depth: 1 }), &mut w, (1,)).unwrap_err();
    assert!(err.to_string().contains("format == 0"), "{err}");
}

#[derive(Codec, Debug, PartialEq)]
#[format(chunk = "MYCK")]
struct Mine {
    value: u32,
}

#[derive(Codec, Debug, PartialEq)]
enum Chunk {
    #[format(chunk = "VERS")]
    Version(u32),
    Mine(Mine),
    #[format(unknown)]
    Unknown(UnknownChunk),
}

#[test]
fn tag_enums_tell_their_tag() {
    let chunks = [
        Chunk::Version(800),
        Chunk::Mine(Mine { value: 1 }),
        Chunk::Unknown(UnknownChunk {
            tag: FourCC::of("ABCD"),
            bytes: vec![],
        }),
    ];
    let tags: Vec<FourCC> = chunks.iter().map(Chunk::tag).collect();
    assert_eq!(
        tags,
        [FourCC::of("VERS"), FourCC::of("MYCK"), FourCC::of("ABCD")]
    );
    assert_eq!(ChunkTag::tag(&chunks[1]), FourCC::of("MYCK"));
    assert_eq!(ChunkTag::tag(&Mine { value: 0 }), FourCC::of("MYCK"));
}

#[derive(Codec, Debug, PartialEq)]
struct Tail {
    first: u8,
    #[format(until_end)]
    rest: Vec<[u16; 2]>,
}

#[test]
fn until_end_of_plain_elements_is_one_copy_and_names_a_partial_one() {
    let value = decode::<Tail>(&[1, 1, 0, 2, 0, 3, 0, 4, 0], Context::new()).unwrap();
    assert_eq!(value.rest, [[1, 2], [3, 4]]);
    let err = decode::<Tail>(&[1, 1, 0, 2, 0, 3], Context::new()).unwrap_err();
    assert!(err.to_string().contains("rest[1]"), "{err}");
}
