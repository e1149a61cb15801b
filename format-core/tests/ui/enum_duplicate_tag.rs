use format_core::Codec;

#[derive(Codec)]
enum Track {
    #[format(tag = "KMTA")]
    Alpha(u32),
    #[format(tag = "KMTA")]
    AlphaAgain(f32),
}

fn main() {}
