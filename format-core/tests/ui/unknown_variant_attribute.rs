use format_core::Codec;

#[derive(Codec)]
enum Track {
    #[format(tga = "KGTR")]
    Translation(u32),
}

fn main() {}
