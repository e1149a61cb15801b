use format_core::Codec;

#[derive(Codec)]
#[repr(u32)]
enum Blend {
    None = 0,
    #[format(unknown)]
    Other(u32),
    #[format(unknown)]
    More(u32),
}

fn main() {}
