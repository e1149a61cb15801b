use format_core::Codec;

#[derive(Codec)]
#[format(plain)]
enum Track {
    #[format(tag = "KGTR")]
    Translation(u32),
}

fn main() {}
