use format_core::{Codec, FixedStr};

#[derive(Codec)]
#[format(chunk = "VERS")]
struct Version {
    #[format(sets_version)]
    name: FixedStr<4>,
}

fn main() {}
