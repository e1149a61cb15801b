// The words of issue 40: `record` and `split` (a struct-of-arrays layout),
// `clamp` (a lenient count), `read_when` (a variant chosen by looking at the
// input), and `chunk_list` with its `cut`, `undecoded` and `after_chunk`
// variants; each read, written back byte for byte, and misused input refused.
use format_core::{
    AfterChunk, Codec, Context, CutChunk, Decode, FourCC, Mode, Reader, Result, UndecodedChunk,
    UnknownChunk, Writer, chunk_list, decode, encode,
};

#[derive(Codec, Clone, Copy, Debug, PartialEq)]
#[format(record)]
struct Key {
    frame: i32,
    value: [u16; 2],
}

#[derive(Codec, Clone, Copy, Debug, PartialEq)]
#[format(record, bound = "T: format_core::Plain")]
struct Pair<T> {
    a: T,
    b: T,
}

/// Keys with a count in front; each followed by a pair when `kind > 1`.
#[derive(Codec, Clone, Debug, PartialEq)]
#[format(chunk = "TRAK")]
struct Track {
    kind: u32,
    #[format(count = u32, split(pairs, if = kind > 1))]
    keys: Vec<Key>,
    pairs: Vec<Pair<u16>>,
}

/// A count that may claim more than the chunk holds.
#[derive(Codec, Debug, PartialEq)]
#[format(chunk = "MATS")]
struct Matrices {
    #[format(calc = matrices.len())]
    count: format_core::Derived<u32>,
    #[format(count = count, clamp)]
    matrices: Vec<[u8; 4]>,
}

/// Chosen by where each form would end.
#[derive(Codec, Debug, PartialEq)]
enum Form {
    #[format(read_when = reader.remaining() == 2)]
    Short(u16),
    #[format(read_when = reader.remaining() >= 4)]
    Long(u32),
}

/// A chunk that owns the `u8`s a writer put after it.
#[derive(Codec, Debug, PartialEq, Default)]
#[format(chunk = "HOOK")]
struct Hooked {
    value: u8,
    #[format(skip)]
    after: Vec<u8>,
}

impl AfterChunk for Hooked {
    fn read_after(&mut self, r: &mut Reader<'_>) -> Result<()> {
        while r.peek_bytes(1) == Some(&[0xee]) {
            self.after.push(r.u8()?);
        }
        Ok(())
    }

    fn write_after(&self, w: &mut Writer) -> Result<()> {
        w.bytes(&self.after);
        Ok(())
    }
}

#[derive(Codec, Debug, PartialEq)]
#[format(chunk_list)]
enum Chunk {
    Track(Track),
    Matrices(Matrices),
    #[format(after_chunk)]
    Hooked(Hooked),
    #[format(cut)]
    Cut(CutChunk),
    #[format(undecoded)]
    Undecoded(UndecodedChunk),
    #[format(unknown)]
    Unknown(UnknownChunk),
}

#[derive(Codec, Debug, PartialEq)]
#[format(magic = "FILE")]
struct File {
    #[format(until_end)]
    chunks: Vec<Chunk>,
}

/// A list whose chunks' offsets may name each other (`parent["TAG"]`).
#[derive(Codec, Debug, PartialEq)]
#[format(chunk_list(parent))]
enum TerrainChunk {
    #[format(chunk = "MVER")]
    Version(u32),
    #[format(cut)]
    Cut(CutChunk),
    #[format(unknown)]
    Unknown(UnknownChunk),
}

#[derive(Codec, Debug, PartialEq)]
struct Terrain {
    #[format(until_end)]
    chunks: Vec<TerrainChunk>,
}

#[derive(Codec, Debug, PartialEq)]
#[format(chunk = "MINE")]
struct Mine {
    value: u16,
}

fn lenient() -> Context {
    Context::new().with_mode(Mode::Lenient)
}

fn read_lenient(data: &[u8]) -> (File, Vec<String>) {
    let mut r = Reader::with_context(data, lenient());
    let file = File::decode(&mut r, ()).unwrap();
    let notes = r.take_diagnostics().into_iter().map(|d| d.message).collect();
    (file, notes)
}

fn main() {
    let ctx = Context::new();
    // `split`: keys and pairs read from one run of records into two arrays.
    let track = Track {
        kind: 2,
        keys: vec![Key { frame: -1, value: [1, 2] }, Key { frame: 9, value: [3, 4] }],
        pairs: vec![Pair { a: 5, b: 6 }, Pair { a: 7, b: 8 }],
    };
    let bytes = encode(&track, ctx).unwrap();
    assert_eq!(bytes.len(), 8 + 4 + 4 + 2 * (8 + 4));
    assert_eq!(&bytes[16..28], [0xff, 0xff, 0xff, 0xff, 1, 0, 2, 0, 5, 0, 6, 0]);
    assert_eq!(decode::<Track>(&bytes, ctx).unwrap(), track);
    assert_eq!(<Key as format_core::Record>::SIZE, 8);
    // Without the condition, no pairs: and pairs given anyway are refused.
    let plain = Track { kind: 1, pairs: vec![], ..track.clone() };
    let bytes = encode(&plain, ctx).unwrap();
    assert_eq!(decode::<Track>(&bytes, ctx).unwrap(), plain);
    let wrong = Track { pairs: vec![Pair { a: 0, b: 0 }], ..plain };
    let err = encode(&wrong, ctx).unwrap_err();
    assert!(err.to_string().starts_with("TRAK.pairs: "), "{err}");
    // Input that ends inside the records names the record and field.
    let mut short = encode(&track, ctx).unwrap();
    short.truncate(short.len() - 1);
    short[4] -= 1;
    let err = decode::<Track>(&short, ctx).unwrap_err();
    assert!(err.to_string().starts_with("TRAK.keys[1].b: "), "{err}");

    // `clamp`: strict refuses a count larger than the chunk, lenient clamps.
    let mut mats = encode(&Matrices { count: Default::default(), matrices: vec![[1; 4], [2; 4]] }, ctx).unwrap();
    mats[8] = 3;
    let err = decode::<Matrices>(&mats, ctx).unwrap_err();
    assert!(err.to_string().contains("count 3 is more than the 2 elements"), "{err}");
    let mut r = Reader::with_context(&mats, lenient());
    let read = Matrices::decode(&mut r, ()).unwrap();
    assert_eq!(read.matrices.len(), 2);
    let notes = r.take_diagnostics();
    assert_eq!(notes[0].offset, 8); // where the count is stored
    assert!(notes[0].message.contains("read 2 elements"), "{}", notes[0].message);

    // `read_when`: the form that fits, written back as it is.
    for data in [&[1u8, 0][..], &[1, 0, 0, 0][..]] {
        let form: Form = decode(data, ctx).unwrap();
        assert_eq!(encode(&form, ctx).unwrap(), data);
    }
    assert!(decode::<Form>(&[1, 0, 0], ctx).is_err());

    // `chunk_list`: known, unknown, hooked, cut and undecoded chunks in place.
    let file = File {
        chunks: vec![
            Chunk::Track(track),
            Chunk::Hooked(Hooked { value: 1, after: vec![0xee, 0xee] }),
            Chunk::Unknown(UnknownChunk { tag: FourCC::of("ABCD"), bytes: vec![7] }),
            Chunk::Matrices(Matrices { count: Default::default(), matrices: vec![[3; 4]] }),
        ],
    };
    let bytes = encode(&file, ctx).unwrap();
    assert_eq!(decode::<File>(&bytes, ctx).unwrap(), file);
    // A cut file: strict refuses, lenient keeps the last chunk as bytes.
    let cut = &bytes[..bytes.len() - 2];
    let err = decode::<File>(cut, ctx).unwrap_err();
    assert!(err.to_string().starts_with("chunks[3].MATS"), "{err}");
    let (read, notes) = read_lenient(cut);
    assert!(matches!(read.chunks[3], Chunk::Cut(_)));
    assert!(notes[0].starts_with("chunks[3].MATS: "), "{}", notes[0]);
    assert!(notes[0].contains("(Chunk::Cut)"), "{}", notes[0]);
    assert_eq!(encode(&read, ctx).unwrap(), cut);
    // A chunk whose size fits but whose content does not decode.
    let mut bad = bytes.clone();
    let at = bytes.windows(4).position(|w| w == b"MATS").unwrap();
    bad[at + 8] = 5; // the count: strict refuses, and clamping does not explain the rest
    bad.splice(at + 4..at + 5, [9]); // a size of 9: one byte more
    bad.push(0);
    let (read, notes) = read_lenient(&bad);
    match &read.chunks[3] {
        Chunk::Undecoded(kept) => assert!(kept.error.starts_with("chunks[3].MATS"), "{}", kept.error),
        other => panic!("{other:?}"),
    }
    assert!(notes.iter().any(|n| n.contains("(Chunk::Undecoded)")), "{notes:?}");
    assert_eq!(encode(&read, ctx).unwrap(), bad);
    // A cut chunk written anywhere but last is refused.
    let mut misplaced = read_lenient(cut).0;
    misplaced.chunks.swap(2, 3);
    let err = encode(&misplaced, ctx).unwrap_err();
    assert!(err.to_string().starts_with("chunks[2].MATS: "), "{err}");

    // A list installed as its chunks' parent reads and writes the same.
    let terrain = Terrain {
        chunks: vec![
            TerrainChunk::Version(18),
            TerrainChunk::Unknown(UnknownChunk { tag: FourCC::of("MHDR"), bytes: vec![0; 4] }),
        ],
    };
    let bytes = encode(&terrain, ctx).unwrap();
    assert_eq!(decode::<Terrain>(&bytes, ctx).unwrap(), terrain);

    // Typed chunks of the user's own, kept as unknown in place.
    let mut chunks = file.chunks;
    assert!(chunk_list::chunk::<Mine, _>(&chunks, ctx).is_none());
    chunk_list::set_chunk(&mut chunks, &Mine { value: 42 }, ctx).unwrap();
    assert_eq!(chunk_list::chunk::<Mine, _>(&chunks, ctx).unwrap().unwrap(), Mine { value: 42 });
    assert!(chunk_list::set_chunk(&mut chunks, &Matrices { count: Default::default(), matrices: vec![] }, ctx).is_err());
}
