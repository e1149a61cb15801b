use format_core::{Codec, Reader, Result};

fn read_text(r: &mut Reader<'_>) -> Result<String> {
    let _ = r;
    Ok(String::new())
}

#[derive(Codec)]
struct Info {
    #[format(read_with = read_text)]
    text: String,
}

fn main() {}
