// `#[format(crate = "...")]`: the runtime reached through a renamed import
// and through a module that re-exports it, in a crate where the derive is
// named by another path too.
use format_core as my_rt;

mod runtime {
    pub use format_core::*;
}

#[derive(my_rt::Codec, Debug, PartialEq)]
#[format(crate = "my_rt", chunk = "RENM")]
struct Renamed {
    #[format(count = u32)]
    values: Vec<u16>,
}

#[derive(runtime::Codec, Debug, PartialEq)]
#[format(crate = "crate::runtime")]
enum Chunk {
    Renamed(Renamed),
    #[format(chunk = "VERS")]
    Version(u32),
    #[format(unknown)]
    Unknown(runtime::UnknownChunk),
}

fn main() {
    let chunks = vec![
        Chunk::Version(800),
        Chunk::Renamed(Renamed { values: vec![1, 2] }),
    ];
    let ctx = my_rt::Context::new();
    let mut w = runtime::Writer::new();
    for chunk in &chunks {
        my_rt::Encode::encode(chunk, &mut w, ()).unwrap();
    }
    let bytes = w.into_bytes();
    assert_eq!(&bytes[12..16], b"RENM");
    let mut r = my_rt::Reader::with_context(&bytes, ctx);
    let read: Vec<Chunk> = my_rt::decode_until_end(&mut r, ()).unwrap();
    assert_eq!(read, chunks);
    assert_eq!(read[1].tag(), my_rt::FourCC::of("RENM"));
}
