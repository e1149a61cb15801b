//! A glTF document with its buffers and images loaded ([`Source`]): a
//! `.glb`, or a `.gltf` whose buffers and images are `data:` URIs or files
//! beside it.

use std::collections::BTreeSet;
use std::path::Path;

use base64::Engine;

use super::error::{BufferProblem, ImportError};
use crate::blp::RgbaImage;

/// A glTF document, validated by the glTF reader, with every buffer's bytes
/// and every image decoded (or why it could not be), ready for
/// [`import`](super::import).
pub struct Source {
    /// The document.
    pub document: gltf::Document,
    /// Each buffer's bytes, in the document's order (at least `byteLength`
    /// of them).
    pub buffers: Vec<Vec<u8>>,
    /// Each image a material's texture shows (base colour, normal,
    /// occlusion, metallic-roughness, emissive), decoded to RGBA, or why it
    /// could not be (or was not: [`ImageProblem::Unused`]); in the
    /// document's order. The base colours are decoded first, within
    /// [`MAX_IMAGE_PIXELS`], then the others with what is left: a classic
    /// import draws the base colours only, an HD one (1100 and later)
    /// every slot.
    pub images: Vec<Result<RgbaImage, ImageProblem>>,
}

/// Why an image of a [`Source`] has no pixels. An import goes on without
/// it: the material it was for gets no texture, and the report says why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ImageProblem {
    /// Neither PNG nor JPEG (by its first bytes, whatever its MIME type).
    #[error("neither PNG nor JPEG")]
    Format,
    /// Its bytes could not be found (a missing file, a view past its buffer).
    #[error("its bytes could not be read: {0}")]
    Unreadable(String),
    /// The decoder refused it.
    #[error("does not decode: {0}")]
    Decode(String),
    /// Its pixels, with those of the images decoded before it, would pass
    /// the [`MAX_IMAGE_PIXELS`] a document's images may decode to.
    #[error(
        "{width}x{height} pixels, past the {MAX_IMAGE_PIXELS} a document's images may decode to"
    )]
    TooLarge {
        /// Its width.
        width: u32,
        /// Its height.
        height: u32,
    },
    /// No material's texture shows it: not decoded.
    #[error("not decoded: no material's texture")]
    Unused,
}

/// The most pixels a [`Source`]'s images may decode to, all together (in
/// document order; 64 MiB as RGBA, a 4096 by 4096 image or four of 2048
/// by 2048): images share buffer views freely, a PNG of a few kilobytes may
/// declare 16384 by 16384 pixels, and each image decoded is encoded as BLP.
pub const MAX_IMAGE_PIXELS: u64 = 1 << 24;

impl Source {
    /// Reads a `.glb` or `.gltf` from `bytes`; `file` reads what a URI that
    /// is not a `data:` URI names (a `.gltf`'s `.bin` and images beside it).
    pub fn from_slice(
        bytes: &[u8],
        file: impl Fn(&str) -> std::io::Result<Vec<u8>>,
    ) -> Result<Source, ImportError> {
        let document_error = |source| ImportError::Document { source };
        glb_length(bytes).map_err(document_error)?;
        let gltf::Gltf { document, mut blob } =
            gltf::Gltf::from_slice_without_validation(bytes).map_err(document_error)?;
        let json = document.into_json();
        validation_gaps(&json).map_err(document_error)?;
        let document = gltf::Document::from_json(json).map_err(document_error)?;
        let mut buffers = Vec::with_capacity(document.buffers().len());
        for buffer in document.buffers() {
            let index = buffer.index();
            let fail = |why| ImportError::Buffer { index, why };
            let data = match buffer.source() {
                gltf::buffer::Source::Bin => blob.take().ok_or(fail(BufferProblem::Missing))?,
                gltf::buffer::Source::Uri(uri) => match data_uri(uri) {
                    Some(data) => data.map_err(|e| fail(BufferProblem::DataUri(e)))?,
                    None => file(&unescape(uri)).map_err(|source| {
                        fail(BufferProblem::File {
                            uri: uri.to_owned(),
                            source,
                        })
                    })?,
                },
            };
            if data.len() < buffer.length() {
                return Err(fail(BufferProblem::Short {
                    got: data.len(),
                    declared: buffer.length(),
                }));
            }
            buffers.push(data);
        }
        // Base colours first (all a classic layer draws), then the images
        // of the other slots (normal, occlusion, metallic-roughness,
        // emissive: an HD material's), each in document order.
        let base_colours: BTreeSet<usize> = (document.materials())
            .filter_map(|m| m.pbr_metallic_roughness().base_color_texture())
            .map(|info| info.texture().source().index())
            .collect();
        let others: BTreeSet<usize> = document
            .materials()
            .flat_map(|m| {
                let pbr = m.pbr_metallic_roughness();
                [
                    m.normal_texture().map(|t| t.texture()),
                    m.occlusion_texture().map(|t| t.texture()),
                    pbr.metallic_roughness_texture().map(|t| t.texture()),
                    m.emissive_texture().map(|t| t.texture()),
                ]
            })
            .flatten()
            .map(|t| t.source().index())
            .filter(|i| !base_colours.contains(i))
            .collect();
        let json_images = &document.as_json().images;
        let mut images: Vec<Result<RgbaImage, ImageProblem>> = (0..json_images.len())
            .map(|_| Err(ImageProblem::Unused))
            .collect();
        let mut pixels_left = MAX_IMAGE_PIXELS;
        for i in base_colours.iter().chain(&others).copied() {
            let (Some(image), Some(slot)) = (json_images.get(i), images.get_mut(i)) else {
                continue;
            };
            let bytes = match (&image.buffer_view, &image.uri) {
                (Some(view), _) => document
                    .views()
                    .nth(view.value())
                    .and_then(|view| view_bytes(&view, &buffers))
                    .map(<[u8]>::to_vec)
                    .ok_or_else(|| ImageProblem::Unreadable("its view is past its buffer".into())),
                (None, Some(uri)) => match data_uri(uri) {
                    Some(data) => data.map_err(|e| ImageProblem::Unreadable(e.to_string())),
                    None => file(&unescape(uri))
                        .map_err(|e| ImageProblem::Unreadable(format!("{uri}: {e}"))),
                },
                (None, None) => Err(ImageProblem::Unreadable("no uri, no view".into())),
            };
            *slot = bytes.and_then(|bytes| decode(&bytes, &mut pixels_left));
        }
        Ok(Source {
            document,
            buffers,
            images,
        })
    }

    /// Reads a `.glb` or `.gltf` file, and the files its URIs name relative
    /// to its folder.
    pub fn from_path(path: &Path) -> Result<Source, ImportError> {
        let bytes = std::fs::read(path).map_err(|source| ImportError::Buffer {
            index: 0,
            why: BufferProblem::File {
                uri: path.display().to_string(),
                source,
            },
        })?;
        let folder = path.parent().unwrap_or(Path::new("")).to_path_buf();
        Source::from_slice(&bytes, |uri| std::fs::read(folder.join(uri)))
    }
}

/// Fails on a GLB whose header gives a length shorter than the header: the
/// glTF reader (gltf 1.4.1, `Glb::from_slice`) subtracts the header's 12
/// bytes from it unchecked, which overflows.
fn glb_length(bytes: &[u8]) -> Result<(), gltf::Error> {
    let length = (bytes.strip_prefix(b"glTF"))
        .and_then(|rest| rest.get(4..8)?.try_into().ok())
        .map(u32::from_le_bytes);
    match length {
        Some(length) if length < 12 => Err(gltf::Error::Binary(gltf::binary::Error::Length {
            length,
            length_read: bytes.len(),
        })),
        _ => Ok(()),
    }
}

/// What the glTF reader's validation (gltf 1.4.1) leaves unchecked, and
/// its reader then looks up with `unwrap`, or by index: a primitive's
/// `POSITION` past the accessors (looked up by the validation itself,
/// `primitive_validate_hook`), and an animation channel's target (its node
/// and path are not validated; `Channel::target().node()` and
/// `property()` unwrap them).
fn validation_gaps(json: &gltf::json::Root) -> Result<(), gltf::Error> {
    use gltf::json::Path;
    use gltf::json::validation::{Checked, Error, Validate};
    let mut errors: Vec<(Path, Error)> = Vec::new();
    let position = Checked::Valid(gltf::Semantic::Positions);
    for (m, mesh) in json.meshes.iter().enumerate() {
        for (p, primitive) in mesh.primitives.iter().enumerate() {
            if let Some(accessor) = primitive.attributes.get(&position)
                && accessor.value() >= json.accessors.len()
            {
                let path = Path::new().field("meshes").index(m).field("primitives");
                let path = path.index(p).field("attributes").key("POSITION");
                errors.push((path, Error::IndexOutOfBounds));
            }
        }
    }
    for (a, animation) in json.animations.iter().enumerate() {
        for (c, channel) in animation.channels.iter().enumerate() {
            let path = || {
                let path = Path::new().field("animations").index(a).field("channels");
                path.index(c).field("target")
            };
            channel
                .target
                .validate(json, path, &mut |path, error| errors.push((path(), error)));
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(gltf::Error::Validation(errors))
    }
}

/// The bytes of a buffer view, or `None` past its buffer.
pub(super) fn view_bytes<'b>(
    view: &gltf::buffer::View<'_>,
    buffers: &'b [Vec<u8>],
) -> Option<&'b [u8]> {
    let buffer = buffers.get(view.buffer().index())?;
    let end = view.offset().checked_add(view.length())?;
    buffer.get(view.offset()..end)
}

/// The bytes of a `data:` URI (base64), or `None` for another URI.
fn data_uri(uri: &str) -> Option<Result<Vec<u8>, base64::DecodeError>> {
    let rest = uri.strip_prefix("data:")?;
    let (_, payload) = rest.split_once(";base64,")?;
    Some(base64::engine::general_purpose::STANDARD.decode(payload))
}

/// A relative URI's `%xx` escapes decoded (Blender writes `My%20Texture.png`).
fn unescape(uri: &str) -> String {
    let bytes = uri.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (b, hex) {
            (b'%', Some(value)) => {
                out.push(value);
                i += 3;
            }
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// PNG or JPEG (by their signatures) to RGBA, if its size (read from its
/// header first) is within the `pixels_left`, which it then takes.
fn decode(bytes: &[u8], pixels_left: &mut u64) -> Result<RgbaImage, ImageProblem> {
    let png = bytes.starts_with(b"\x89PNG");
    if !png && !bytes.starts_with(&[0xFF, 0xD8]) {
        return Err(ImageProblem::Format);
    }
    let decode_error = |e: String| ImageProblem::Decode(e);
    let (width, height) = if png {
        png::Decoder::new(std::io::Cursor::new(bytes))
            .read_header_info()
            .map(|info| info.size())
            .map_err(|e| decode_error(e.to_string()))?
    } else {
        jpeg_size(bytes).map_err(decode_error)?
    };
    let pixels = u64::from(width) * u64::from(height);
    if pixels > *pixels_left {
        return Err(ImageProblem::TooLarge { width, height });
    }
    *pixels_left -= pixels;
    if png {
        RgbaImage::from_png(bytes).map_err(|e| decode_error(e.to_string()))
    } else {
        RgbaImage::from_jpeg(bytes).map_err(|e| decode_error(e.to_string()))
    }
}

/// A JPEG's size, from its headers.
fn jpeg_size(bytes: &[u8]) -> Result<(u32, u32), String> {
    use zune_jpeg::zune_core::bytestream::ZCursor;
    let mut decoder = zune_jpeg::JpegDecoder::new(ZCursor::new(bytes));
    decoder.decode_headers().map_err(|e| e.to_string())?;
    let (width, height) = decoder.dimensions().ok_or("no frame header")?;
    let side = |s: usize| u32::try_from(s).map_err(|_| "a side past u32".to_string());
    Ok((side(width)?, side(height)?))
}
