use format_core::Codec;

#[derive(Codec)]
#[format(chunk = "MTLS")]
struct Materials {
    #[format(until_end)]
    materials: Vec<u32>,
    trailer: u32,
}

fn main() {}
