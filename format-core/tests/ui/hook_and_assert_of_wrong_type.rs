use format_core::{Codec, Result, Writer};

fn write_u16(value: &u16, w: &mut Writer) -> Result<()> {
    w.u16(*value);
    Ok(())
}

fn write_scaled(value: &u32, w: &mut Writer, factor: u32) -> Result<()> {
    w.u32(value * factor);
    Ok(())
}

// Each mistake is reported at the attribute that makes it, not at the derive.
#[derive(Codec)]
struct Header {
    #[format(write_with = write_u16)]
    width: u32,
    #[format(write_with = write_scaled("two"))]
    height: u32,
    #[format(write_assert(width + height, "the sum is not a condition"))]
    depth: u32,
}

fn main() {}
