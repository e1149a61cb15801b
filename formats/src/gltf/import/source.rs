//! A glTF document with its buffers and images loaded ([`Source`]): a
//! `.glb`, or a `.gltf` whose buffers and images are `data:` URIs or files
//! beside it.

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
    /// Each image, decoded to RGBA, or why it could not be; in the
    /// document's order.
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
}

impl Source {
    /// Reads a `.glb` or `.gltf` from `bytes`; `file` reads what a URI that
    /// is not a `data:` URI names (a `.gltf`'s `.bin` and images beside it).
    pub fn from_slice(
        bytes: &[u8],
        file: impl Fn(&str) -> std::io::Result<Vec<u8>>,
    ) -> Result<Source, ImportError> {
        let gltf::Gltf { document, mut blob } =
            gltf::Gltf::from_slice(bytes).map_err(|source| ImportError::Document { source })?;
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
        let images = document
            .as_json()
            .images
            .iter()
            .map(|image| {
                let bytes = match (&image.buffer_view, &image.uri) {
                    (Some(view), _) => document
                        .views()
                        .nth(view.value())
                        .and_then(|view| view_bytes(&view, &buffers))
                        .map(<[u8]>::to_vec)
                        .ok_or_else(|| {
                            ImageProblem::Unreadable("its view is past its buffer".into())
                        }),
                    (None, Some(uri)) => match data_uri(uri) {
                        Some(data) => data.map_err(|e| ImageProblem::Unreadable(e.to_string())),
                        None => file(&unescape(uri))
                            .map_err(|e| ImageProblem::Unreadable(format!("{uri}: {e}"))),
                    },
                    (None, None) => Err(ImageProblem::Unreadable("no uri, no view".into())),
                };
                bytes.and_then(|bytes| decode(&bytes))
            })
            .collect();
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

/// PNG or JPEG (by their signatures) to RGBA.
fn decode(bytes: &[u8]) -> Result<RgbaImage, ImageProblem> {
    if bytes.starts_with(b"\x89PNG") {
        RgbaImage::from_png(bytes).map_err(|e| ImageProblem::Decode(e.to_string()))
    } else if bytes.starts_with(&[0xFF, 0xD8]) {
        RgbaImage::from_jpeg(bytes).map_err(|e| ImageProblem::Decode(e.to_string()))
    } else {
        Err(ImageProblem::Format)
    }
}
