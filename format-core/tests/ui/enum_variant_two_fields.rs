use format_core::Codec;

#[derive(Codec)]
enum Track {
    #[format(tag = "KGTR")]
    Translation(u32, u32),
}

fn main() {}
