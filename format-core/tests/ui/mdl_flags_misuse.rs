use format_core::Mdl;

#[derive(Mdl)]
#[mdl(block = "Bitmap")]
struct Bitmap {
    #[mdl(flags(WrapWidth = 1, WrapWidth = 2))]
    flags: u32,
    #[mdl(flags(Unshaded = 1), static)]
    more: u32,
    #[mdl(required, default = 800)]
    version: u32,
    #[mdl(list, sets_version)]
    versions: Vec<u32>,
}

fn main() {}
