use format_core::{Codec, Reader, Result, Writer};

fn read_list(r: &mut Reader<'_>) -> Result<Vec<u32>> {
    let _ = r;
    Ok(Vec::new())
}

fn write_list(v: &Vec<u32>, w: &mut Writer) -> Result<()> {
    let _ = (v, w);
    Ok(())
}

#[derive(Codec)]
struct List {
    #[format(read_with = read_list, write_with = write_list, count = u32)]
    items: Vec<u32>,
}

fn main() {}
