use format_core::Mdl;

/// A hook that marks no field.
#[derive(Mdl)]
#[mdl(block = "Lone", hook = Lonely)]
struct Lone {
    width: u32,
}

/// A field of a hook, in a block without one.
#[derive(Mdl)]
#[mdl(block = "Orphan")]
struct Orphan {
    #[mdl(hook)]
    texture: u32,
    #[mdl(hook, key = "Texture")]
    keyed: u32,
}

/// `hook` names a type.
#[derive(Mdl)]
#[mdl(block = "Odd", hook = "Lonely")]
struct Odd {
    #[mdl(hook)]
    texture: u32,
}

/// Not for an enum.
#[derive(Mdl, Clone, Copy, PartialEq)]
#[mdl(hook = Lonely)]
enum Mode {
    #[mdl(word = "On")]
    On,
}

impl From<Mode> for u32 {
    fn from(_: Mode) -> u32 {
        0
    }
}

struct Lonely;

fn main() {}
