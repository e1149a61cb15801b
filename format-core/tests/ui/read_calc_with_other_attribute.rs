use format_core::Codec;

#[derive(Codec)]
struct Info {
    flags: u32,
    #[format(read_calc = flags & 1 != 0, tag = "FLAG")]
    first: bool,
}

fn main() {}
