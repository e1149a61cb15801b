use format_core::{FixedStr, Mdl};

#[derive(Mdl)]
#[mdl(block = "Marks", name = title)]
struct Marks {
    name: FixedStr<32>,
}

#[derive(Mdl)]
#[mdl(block = "Other", name = name)]
struct Other {
    #[mdl(static)]
    name: FixedStr<32>,
}

fn main() {}
