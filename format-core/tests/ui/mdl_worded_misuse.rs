use format_core::Mdl;

#[derive(Mdl, Clone, Copy, PartialEq)]
enum Mode {
    #[mdl(word = "Blend")]
    Blend,
    #[mdl(word = "Add")]
    Add,
}

impl From<Mode> for u32 {
    fn from(mode: Mode) -> u32 {
        mode as u32
    }
}

#[derive(Mdl)]
#[mdl(block = "Pass")]
struct Pass {
    #[mdl(worded, static)]
    mode: Mode,
    #[mdl(worded, list)]
    modes: Vec<Mode>,
}

fn main() {}
