use format_core::Codec;

#[derive(Codec, Clone, Copy)]
#[repr(u32)]
enum FilterMode {
    None = 0,
    #[format(tag = "TRNS")]
    Transparent = 1,
}

fn main() {}
