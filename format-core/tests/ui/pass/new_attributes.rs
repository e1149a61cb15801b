// The second edition's attributes used as documented: one-direction hooks
// with their own arguments, read-side values and conditions, write-side
// asserts, offsets and sizes into a list, placed parts in a region, and
// variants chosen by `when`.
use format_core::{
    Codec, Context, Derived, FourCC, Kept, Reader, Result, UnknownChunk, Writer, decode, encode,
};

fn read_scaled(r: &mut Reader<'_>, divisor: u32) -> Result<u32> {
    Ok(r.u32()? / divisor)
}

fn write_scaled(value: &u32, w: &mut Writer, factor: u32) -> Result<()> {
    w.u32(value * factor);
    Ok(())
}

#[derive(Codec, Debug, PartialEq)]
struct Hooks {
    #[format(read_with = read_scaled(2))]
    halved: u32,
    #[format(write_with = write_scaled(3))]
    tripled: u32,
    #[format(read_calc = halved + tripled)]
    sum: u32,
    #[format(read_if = reader.remaining() >= 4, write_assert(tail.is_none() || halved > 0, "a tail needs a half"))]
    tail: Option<u32>,
}

#[derive(Codec, Debug, PartialEq)]
enum Sub {
    #[format(chunk = "HGHT")]
    Height(u32),
    #[format(unknown)]
    Unknown(UnknownChunk),
}

#[derive(Codec, Debug, PartialEq)]
#[format(chunk = "CELL")]
struct Cell {
    #[format(offset(of = chunks["HGHT"], from = start.saturating_sub(8)))]
    ofs_height: Derived<u32>,
    #[format(size(of = chunks["HGHT"], body))]
    size_height: Derived<u32>,
    #[format(until_end)]
    chunks: Vec<Sub>,
    #[format(kept)]
    kept: Kept,
}

#[derive(Codec, Debug, PartialEq)]
#[format(region)]
struct Texture {
    #[format(offset(of = levels, from = 0))]
    offsets: Derived<[u32; 2]>,
    #[format(size(of = levels))]
    sizes: Derived<[u32; 2]>,
    #[format(placed)]
    levels: Vec<Vec<u8>>,
    #[format(kept)]
    kept: Kept,
}

#[derive(Codec, Debug, PartialEq)]
#[format(args(kind: u8))]
enum Vertex {
    #[format(when = kind == 0)]
    Depth(u8),
    #[format(when = kind == 1)]
    Height(u16),
}

fn main() {
    let ctx = Context::new();
    let hooks = Hooks {
        halved: 4,
        tripled: 5,
        sum: 0,
        tail: Some(1),
    };
    let bytes = encode(&hooks, ctx).unwrap();
    assert_eq!(bytes, [4, 0, 0, 0, 15, 0, 0, 0, 1, 0, 0, 0]);
    let read = decode::<Hooks>(&bytes, ctx).unwrap();
    assert_eq!(
        read,
        Hooks {
            halved: 2,
            tripled: 15,
            sum: 17,
            tail: Some(1)
        }
    );

    let cell = Cell {
        ofs_height: Derived::new(),
        size_height: Derived::new(),
        chunks: vec![Sub::Height(7)],
        kept: Kept::new(),
    };
    let bytes = encode(&cell, ctx).unwrap();
    assert_eq!(&bytes[8..16], [16, 0, 0, 0, 4, 0, 0, 0]);
    assert_eq!(decode::<Cell>(&bytes, ctx).unwrap(), cell);

    let texture = Texture {
        offsets: Derived::new(),
        sizes: Derived::new(),
        levels: vec![vec![1, 2], vec![3]],
        kept: Kept::new(),
    };
    let bytes = encode(&texture, ctx).unwrap();
    assert_eq!(
        &bytes[..16],
        [16, 0, 0, 0, 18, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0]
    );
    assert_eq!(decode::<Texture>(&bytes, ctx).unwrap(), texture);

    let mut r = Reader::new(&[2, 1]);
    let v = <Vertex as format_core::Decode>::decode(&mut r, (1,)).unwrap();
    assert_eq!(v, Vertex::Height(0x0102));
    assert_eq!(FourCC::of("HGHT"), Sub::Height(0).tag());
}
