use format_core::{Codec, Derived, Kept, Result, Writer};

fn write_level(level: &u32, w: &mut Writer) -> Result<()> {
    w.u32(*level);
    Ok(())
}

#[derive(Codec)]
#[format(region)]
struct Texture {
    #[format(offset(of = level, from = 0))]
    ofs_level: Derived<u32>,
    #[format(placed, write_with = write_level)]
    level: Option<u32>,
    #[format(kept)]
    kept: Kept,
}

fn main() {}
