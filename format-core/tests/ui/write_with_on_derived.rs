use format_core::{Codec, Derived, Result, Writer};

fn write_count(count: &u32, w: &mut Writer) -> Result<()> {
    w.u32(*count);
    Ok(())
}

#[derive(Codec)]
struct Track {
    #[format(calc = keys.len(), write_with = write_count)]
    count: Derived<u32>,
    #[format(count = count)]
    keys: Vec<u32>,
}

fn main() {}
