//! The runtime on its own: every error kind with its message, nested bounded
//! regions and back-patched sizes, zero-copy reads, tag order, serde forms.

use format_core::{
    Context, Decode, Error, ErrorKind, Expected, FixedStr, FourCC, Reader, Segment, SizeKind,
    TagOrder, UnknownChunk, Writer, decode,
};

fn tag(t: &[u8; 4]) -> FourCC {
    FourCC::new(*t)
}

#[test]
fn unexpected_end() {
    let mut r = Reader::new(&[1, 2]);
    let e = r.u32().unwrap_err();
    assert_eq!(
        e.kind(),
        &ErrorKind::UnexpectedEnd {
            offset: 0,
            needed: 4,
            available: 2
        }
    );
    assert_eq!(e.to_string(), "need 4 bytes at 0x0, 2 left");
    // A failed read consumes nothing.
    assert_eq!(r.pos(), 0);
    assert_eq!(r.u16().unwrap(), 0x0201);
}

#[test]
fn wrong_tag() {
    let mut r = Reader::new(b"xxxxGEOS");
    r.skip(4).unwrap();
    let e = r.expect_tag(tag(b"SEQS")).unwrap_err();
    assert_eq!(
        e.kind(),
        &ErrorKind::WrongTag {
            offset: 4,
            expected: Expected::Tag(tag(b"SEQS")),
            found: tag(b"GEOS")
        }
    );
    assert_eq!(e.to_string(), "expected tag `SEQS` at 0x4, found `GEOS`");
    static TRACKS: [FourCC; 2] = [FourCC::new(*b"KGTR"), FourCC::new(*b"KGRT")];
    let any = Expected::AnyOf(&TRACKS);
    assert_eq!(any.to_string(), "one of `KGTR`, `KGRT`");
}

#[test]
fn size_overrun_underrun_and_exceeding_the_data() {
    // Chunk declares 4 bytes, the body reads 8: over-run of the declared size.
    let data = [b"SEQS".as_slice(), &4u32.to_le_bytes(), &[0; 8]].concat();
    let mut r = Reader::new(&data);
    r.skip(4).unwrap();
    let e = r.chunk(|r| r.u64()).unwrap_err();
    assert_eq!(
        e.kind(),
        &ErrorKind::SizeOverrun {
            offset: 8,
            needed: 8,
            available: 4,
            kind: SizeKind::Chunk,
            size_offset: 4,
            declared: 4,
        }
    );
    assert_eq!(
        e.to_string(),
        "need 8 bytes at 0x8, 4 left before the end set by the chunk size 4 at 0x4"
    );

    // Declares 8, the body reads 4: under-run.
    let data = [b"SEQS".as_slice(), &8u32.to_le_bytes(), &[0; 8]].concat();
    let mut r = Reader::new(&data);
    r.skip(4).unwrap();
    let e = r.chunk(|r| r.u32()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "chunk size 8 at 0x4 is larger than its contents: 4 bytes read, 4 unread at 0xc"
    );

    // Declares more than the file holds.
    let data = [b"SEQS".as_slice(), &100u32.to_le_bytes(), &[0; 8]].concat();
    let mut r = Reader::new(&data);
    r.skip(4).unwrap();
    let e = r.chunk(|r| r.u32()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "chunk size 100 at 0x4 exceeds the 8 bytes left"
    );
    assert_eq!(e.offset(), 4);

    // An inclusive size counts itself.
    let mut r = Reader::new(&[12, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0]);
    assert_eq!(r.inclusive(|r| Ok((r.u32()?, r.u32()?))).unwrap(), (1, 2));
    let mut r = Reader::new(&[12, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0]);
    let e = r.inclusive(|r| r.u32()).unwrap_err();
    assert!(matches!(
        e.kind(),
        ErrorKind::SizeUnderrun {
            kind: SizeKind::Inclusive,
            declared: 12,
            consumed: 4,
            unread: 4,
            ..
        }
    ));
}

#[test]
fn nested_regions_blame_the_innermost_size() {
    // Outer chunk of 16 bytes holding an object whose inclusive size is 8, whose
    // contents read 12: the inner size is the one that is too small.
    let mut data = b"OUTR".to_vec();
    data.extend(16u32.to_le_bytes());
    data.extend(8u32.to_le_bytes());
    data.extend([0; 12]);
    let mut r = Reader::new(&data);
    r.skip(4).unwrap();
    let e = r
        .chunk(|r| r.inclusive(|r| Ok((r.u32()?, r.u64()?))))
        .unwrap_err();
    assert!(
        matches!(
            e.kind(),
            ErrorKind::SizeOverrun {
                kind: SizeKind::Inclusive,
                size_offset: 8,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn count_too_large_is_refused_before_allocating() {
    let r = Reader::new(&[0; 10]);
    let e = r.check_count(u64::MAX, 12).unwrap_err();
    assert_eq!(
        e.to_string(),
        "count 18446744073709551615 needs at least 18446744073709551615 bytes (12 each) at 0x0, 10 left"
    );
    assert_eq!(r.check_count(0, 12).unwrap(), 0);
    // Zero-sized elements count as one byte each.
    assert!(r.check_count(11, 0).is_err());
    assert_eq!(r.check_count(10, 0).unwrap(), 10);
    let mut r = Reader::new(&[0; 10]);
    assert!(matches!(
        r.plain_vec::<[f32; 3]>(1).unwrap_err().kind(),
        ErrorKind::CountTooLarge { .. }
    ));
}

#[test]
fn trailing_bytes_and_invalid_values() {
    let e = decode::<u32>(&[1, 0, 0, 0, 9], Context::new()).unwrap_err();
    assert_eq!(
        e.kind(),
        &ErrorKind::TrailingBytes {
            offset: 4,
            count: 1
        }
    );
    assert_eq!(e.to_string(), "1 trailing bytes at 0x4");

    let mut r = Reader::new(&[2, 0, 0, 0]);
    let e = r.inclusive(|_| Ok(())).unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid value at 0x0: inclusive size 2 is smaller than its own 4 bytes"
    );
}

#[test]
fn inconsistent_on_write() {
    let mut w = Writer::new();
    w.u32(7);
    let e = w
        .count_u32(u32::MAX as usize + 1, "vertex count")
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "cannot write at output offset 0x4: vertex count 4294967296 does not fit in a u32"
    );
    assert!(matches!(
        e.kind(),
        ErrorKind::Inconsistent { offset: 4, .. }
    ));
}

#[test]
fn paths_read_outermost_first() {
    let e = Error::new(ErrorKind::UnexpectedEnd {
        offset: 0x1a2c,
        needed: 12,
        available: 4,
    })
    .at_index(17)
    .in_field("vertices")
    .at_index(2)
    .in_tag(tag(b"GEOS"))
    .at_index(5)
    .in_field("chunks");
    assert_eq!(e.path_string(), "chunks[5].GEOS[2].vertices[17]");
    assert_eq!(
        e.path().collect::<Vec<_>>(),
        [
            Segment::Field("chunks"),
            Segment::Index(5),
            Segment::Tag(tag(b"GEOS")),
            Segment::Index(2),
            Segment::Field("vertices"),
            Segment::Index(17),
        ]
    );
    assert_eq!(
        format!("{e:?}"),
        "Error { path: \"chunks[5].GEOS[2].vertices[17]\", kind: UnexpectedEnd { offset: 6700, needed: 12, available: 4 } }"
    );
    let untagged = Error::invalid(3, "bad").in_tag(FourCC::new([0, 0, 0, 0]));
    assert_eq!(
        untagged.to_string(),
        "\\x00\\x00\\x00\\x00: invalid value at 0x3: bad"
    );
}

#[test]
fn back_patched_sizes_nest_to_any_depth() {
    let mut w = Writer::new();
    w.chunk(tag(b"OUTR"), |w| {
        w.inclusive(|w| {
            w.chunk(tag(b"INNR"), |w| {
                w.inclusive(|w| {
                    w.u8(0xaa);
                    Ok(())
                })
            })
        })
    })
    .unwrap();
    let b = w.into_bytes();
    let word = |at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    assert_eq!(b.len(), 4 + 4 + 4 + 4 + 4 + 4 + 1);
    assert_eq!(word(4), 17); // OUTR body: everything after its header
    assert_eq!(word(8), 17); // inclusive: itself and the rest
    assert_eq!(word(16), 5); // INNR body
    assert_eq!(word(20), 5); // inclusive: 4 + 1

    // And the reader takes the same structure apart.
    let mut r = Reader::new(&b);
    r.expect_tag(tag(b"OUTR")).unwrap();
    let v = r
        .chunk(|r| {
            r.inclusive(|r| {
                r.expect_tag(tag(b"INNR"))?;
                r.chunk(|r| r.inclusive(|r| r.u8()))
            })
        })
        .unwrap();
    assert_eq!(v, 0xaa);
    r.finish().unwrap();
}

#[test]
fn reads_are_zero_copy_and_peeks_do_not_consume() {
    let data = b"REVM\x04\x00\x00\x00\x12\x00\x00\x00".to_vec();
    let mut r = Reader::with_context(&data, Context::new().with_tag_order(TagOrder::Reversed));
    assert_eq!(r.peek_tag(), Some(tag(b"MVER")));
    assert_eq!(r.pos(), 0);
    r.expect_tag(tag(b"MVER")).unwrap();
    let body = r.chunk(|r| r.bytes(4)).unwrap();
    assert!(std::ptr::eq(body.as_ptr(), data[8..].as_ptr()));
    assert_eq!(r.peek_tag(), None);
    assert!(r.is_empty());
}

#[test]
fn context_is_shared_with_everything_read_later() {
    let mut r = Reader::new(&[]);
    r.ctx_mut().version = 1000;
    assert_eq!(*r.ctx(), Context::new().with_version(1000));
    let ctx = Context::new().with_flags(0x84).with_version(18);
    assert_eq!(
        (ctx.flags, ctx.version, ctx.is_lenient()),
        (0x84, 18, false)
    );
}

#[test]
fn unknown_chunk_keeps_every_byte() {
    let data = b"\x00\x00\x00\x00\x00\x00\x00\x00".to_vec();
    let chunk: UnknownChunk = decode(&data, Context::new()).unwrap();
    assert_eq!(
        chunk,
        UnknownChunk {
            tag: FourCC::new([0; 4]),
            bytes: vec![]
        }
    );
    assert_eq!(
        format!("{chunk:?}"),
        "UnknownChunk(\\x00\\x00\\x00\\x00, 0 bytes)"
    );
    let mut r = Reader::new(b"MDVI\x08\x00\x00\x00abc");
    let e = UnknownChunk::decode(&mut r, ()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "MDVI: chunk size 8 at 0x4 exceeds the 3 bytes left"
    );
}

#[test]
fn serde_forms_keep_everything() {
    let chunk = UnknownChunk {
        tag: FourCC::new(*b"MDVI"),
        bytes: vec![0, 1, 0xfe],
    };
    let json = serde_json::to_string(&chunk).unwrap();
    assert_eq!(json, r#"{"tag":"MDVI","bytes":"0001fe"}"#);
    assert_eq!(serde_json::from_str::<UnknownChunk>(&json).unwrap(), chunk);

    let odd = FourCC::new([b'A', 0, b'\\', 0xff]);
    let json = serde_json::to_string(&odd).unwrap();
    assert_eq!(json, r#""A\\x00\\x5c\\xff""#);
    assert_eq!(serde_json::from_str::<FourCC>(&json).unwrap(), odd);
    assert!(serde_json::from_str::<FourCC>("\"ABC\"").is_err());

    let name = FixedStr::<12>::from_bytes(*b"Hero\0\0\0\0PDR\0");
    let back: FixedStr<12> = serde_json::from_str(&serde_json::to_string(&name).unwrap()).unwrap();
    assert_eq!(back, name);
    assert!(serde_json::from_str::<FixedStr<4>>("\"too long\"").is_err());
}
