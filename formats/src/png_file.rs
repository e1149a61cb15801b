//! PNG out, in one place for every image the crate writes (`render`'s gray
//! and RGB pictures, `blp`'s RGBA pixels, glTF's placeholder textures).

/// `data` (rows top first, `width * height` pixels of `color` at `depth`)
/// encoded as PNG, with fast compression (the images are written once and
/// mostly read by other tools, so size matters less than time).
pub(crate) fn encode(
    width: u32,
    height: u32,
    color: png::ColorType,
    depth: png::BitDepth,
    data: &[u8],
) -> Result<Vec<u8>, png::EncodingError> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(color);
    encoder.set_depth(depth);
    encoder.set_compression(png::Compression::Fast);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(data)?;
    writer.finish()?;
    Ok(out)
}
