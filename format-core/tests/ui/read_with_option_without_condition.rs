use format_core::{Codec, Reader, Result, Writer};

fn read_maybe(r: &mut Reader<'_>) -> Result<Option<u32>> {
    if r.is_empty() { Ok(None) } else { r.u32().map(Some) }
}

fn write_maybe(value: &Option<u32>, w: &mut Writer) -> Result<()> {
    if let Some(v) = value {
        w.u32(*v);
    }
    Ok(())
}

// Writing would follow the declared layout, which has no presence condition.
#[derive(Codec)]
struct ReadOnly {
    #[format(read_with = read_maybe)]
    tail: Option<u32>,
}

// Both directions hand-written: the hooks see the whole `Option`.
#[derive(Codec)]
struct BothHooks {
    #[format(read_with = read_maybe, write_with = write_maybe)]
    tail: Option<u32>,
}

fn main() {}
