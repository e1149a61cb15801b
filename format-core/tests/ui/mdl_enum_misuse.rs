use format_core::Mdl;

#[derive(Mdl, Clone, Copy, PartialEq)]
#[mdl(block = "Light")]
enum LightType {
    #[mdl(word = "Omnidirectional")]
    Omni,
    #[mdl(word = "Omnidirectional")]
    Directional,
    #[mdl(word = "Other")]
    Other(u32),
}

#[derive(Mdl, Clone, Copy, PartialEq)]
enum NoWords {
    A,
}

fn main() {}
