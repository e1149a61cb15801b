use format_core::{Codec, Reader, Result};

fn read_name(r: &mut Reader<'_>) -> Result<u32> {
    r.u32()
}

#[derive(Codec)]
struct Named {
    #[format(read_with = read_name)]
    name: u16,
}

fn main() {}
