//! The glTF document [`Builder`], which knows nothing of models or tiles.

use std::collections::BTreeMap;

use gltf_json as json;
use json::accessor::{ComponentType, GenericComponentType, Type};
use json::buffer::Target;
use json::validation::{Checked, USize64};
use json::{Index, Root};

use super::error::ExportError;
use super::glb;

/// A value an accessor can hold: its component type, its type and its bytes.
pub trait Element: Copy {
    /// The component type (`FLOAT`, `UNSIGNED_SHORT`, ...).
    const COMPONENT: ComponentType;
    /// `SCALAR`, `VEC2`, ..., `MAT4`.
    const TYPE: Type;
    /// Appends the little-endian bytes.
    fn write(&self, out: &mut Vec<u8>);
    /// The components, for `min` and `max`.
    fn components(&self) -> Vec<f64>;
}

/// A number as glTF takes it: floats finite (the specification forbids NaN
/// and the infinities in accessors, and the Khronos validator reports each
/// as an error), NaN as 0 and an infinity as the largest `f32` of its sign;
/// integers as they are.
///
/// Exporters keep their values finite where they can say what stands in
/// (a zero normal, a camera's default); this is for what is left, such as
/// a NaN key in a damaged file or a spline tangent that overflows when
/// scaled to seconds.
trait Finite: Copy {
    fn finite(self) -> Self;
}

impl Finite for f32 {
    fn finite(self) -> f32 {
        if self.is_nan() {
            0.0
        } else {
            self.clamp(f32::MIN, f32::MAX)
        }
    }
}

macro_rules! integers_are_finite {
    ($($t:ty)*) => {$(
        impl Finite for $t {
            fn finite(self) -> $t {
                self
            }
        }
    )*};
}
integers_are_finite!(u8 u16 u32);

/// `Element` for arrays of a number type: `[number; N] => component, type`.
macro_rules! elements {
    ($($t:ty => $c:ident, $ty:ident;)*) => {$(
        impl Element for $t {
            const COMPONENT: ComponentType = ComponentType::$c;
            const TYPE: Type = Type::$ty;
            fn write(&self, out: &mut Vec<u8>) {
                for c in self {
                    out.extend_from_slice(&c.finite().to_le_bytes());
                }
            }
            fn components(&self) -> Vec<f64> {
                self.iter().map(|c| f64::from(c.finite())).collect()
            }
        }
    )*};
}
elements! {
    [f32; 1] => F32, Scalar;
    [f32; 2] => F32, Vec2;
    [f32; 3] => F32, Vec3;
    [f32; 4] => F32, Vec4;
    [f32; 16] => F32, Mat4;
    [u8; 1] => U8, Scalar;
    [u8; 4] => U8, Vec4;
    [u16; 4] => U16, Vec4;
    [u16; 1] => U16, Scalar;
    [u32; 1] => U32, Scalar;
}

/// An image waiting for the document to be written.
#[derive(Clone, Debug, PartialEq)]
struct PendingImage {
    index: Index<json::Image>,
    bytes: Vec<u8>,
    mime_type: &'static str,
}

/// An animation channel that targets a property by a JSON pointer
/// (`KHR_animation_pointer`), such as
/// `/nodes/3/extensions/KHR_node_visibility/visible`.
///
/// Kept apart from [`Root`]: `gltf_json`'s channel target requires a node,
/// which such a channel must not have, so these channels are added to the
/// JSON when the document is written.
#[derive(Clone, Debug, PartialEq)]
pub struct PointerChannel {
    /// The animation the channel belongs to.
    pub animation: Index<json::Animation>,
    /// Its sampler, in that animation.
    pub sampler: Index<json::animation::Sampler>,
    /// The JSON pointer to the animated property.
    pub pointer: String,
}

/// Builds a glTF document: the typed JSON of [`gltf_json`], one binary
/// buffer filled through typed accessors, and images kept aside until the
/// document is written (inside the buffer for `.glb`, as files for `.gltf`).
///
/// It knows nothing of models: any exporter (models, terrain) builds its
/// nodes, meshes and animations with it.
///
/// ```
/// use formats::gltf::{Builder, json};
///
/// let mut b = Builder::new("example");
/// let positions = b.vertex_attribute(&[[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]);
/// let indices = b.indices(&[0, 1, 2]);
/// let mesh = b.triangle_mesh("triangle", [(json::mesh::Semantic::Positions, positions)], Some(indices), None);
/// let node = b.push(json::Node { mesh: Some(mesh), ..Default::default() });
/// let glb = b.finish(vec![node]).to_glb()?;
/// assert_eq!(&glb[..4], b"glTF");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Builder {
    root: Root,
    bin: Vec<u8>,
    images: Vec<PendingImage>,
    pointer_channels: Vec<PointerChannel>,
}

/// A finished document: JSON, binary buffer and images, written as `.glb`
/// ([`to_glb`](Self::to_glb)) or `.gltf` ([`to_gltf`](Self::to_gltf)).
#[derive(Debug)]
pub struct Document {
    /// The JSON (buffers and images are filled in when written).
    pub root: Root,
    /// The binary buffer's bytes.
    pub bin: Vec<u8>,
    /// Channels by JSON pointer, added to `root`'s animations when written.
    pub pointer_channels: Vec<PointerChannel>,
    images: Vec<PendingImage>,
}

impl Builder {
    /// An empty glTF 2.0 document written by `generator`.
    pub fn new(generator: &str) -> Builder {
        let root = Root {
            asset: json::Asset {
                generator: Some(generator.to_string()),
                ..Default::default()
            },
            ..Default::default()
        };
        Builder {
            root,
            bin: Vec::new(),
            images: Vec::new(),
            pointer_channels: Vec::new(),
        }
    }

    /// The document so far.
    pub fn root(&self) -> &Root {
        &self.root
    }

    /// The document so far, to edit.
    pub fn root_mut(&mut self) -> &mut Root {
        &mut self.root
    }

    /// Adds an object (node, mesh, material, animation, ...) and gives its index.
    pub fn push<T>(&mut self, value: T) -> Index<T>
    where
        Root: AsMut<Vec<T>>,
    {
        self.root.push(value)
    }

    /// Adds `animation`, and a channel for each `(sampler, JSON pointer)` of
    /// `pointers` (its samplers), as `KHR_animation_pointer` has them.
    pub fn push_animation(
        &mut self,
        animation: json::Animation,
        pointers: Vec<(Index<json::animation::Sampler>, String)>,
    ) -> Index<json::Animation> {
        let index = self.root.push(animation);
        if !pointers.is_empty() {
            self.use_extension(POINTER, false);
        }
        self.pointer_channels
            .extend(
                pointers
                    .into_iter()
                    .map(|(sampler, pointer)| PointerChannel {
                        animation: index,
                        sampler,
                        pointer,
                    }),
            );
        index
    }

    /// Records an extension as used (and as required if `required`).
    pub fn use_extension(&mut self, name: &str, required: bool) {
        let add = |list: &mut Vec<String>| {
            if !list.iter().any(|e| e == name) {
                list.push(name.to_string());
            }
        };
        add(&mut self.root.extensions_used);
        if required {
            add(&mut self.root.extensions_required);
        }
    }

    /// Appends `bytes` to the buffer (at a 4-byte boundary) as a buffer view.
    pub fn view(&mut self, bytes: &[u8], target: Option<Target>) -> Index<json::buffer::View> {
        pad4(&mut self.bin);
        let offset = self.bin.len();
        self.bin.extend_from_slice(bytes);
        self.root.push(json::buffer::View {
            buffer: Index::new(0),
            byte_length: USize64::from(bytes.len()),
            byte_offset: Some(USize64::from(offset)),
            byte_stride: None,
            name: None,
            target: target.map(Checked::Valid),
            extensions: None,
            extras: Default::default(),
        })
    }

    /// An accessor over `data` in a view of its own; with `bounds`, its `min`
    /// and `max` (required for positions and animation times).
    pub fn accessor<T: Element>(
        &mut self,
        data: &[T],
        target: Option<Target>,
        bounds: bool,
    ) -> Index<json::Accessor> {
        let mut bytes = Vec::with_capacity(data.len() * 16);
        for element in data {
            element.write(&mut bytes);
        }
        let view = self.view(&bytes, target);
        let (min, max) = if bounds { min_max(data) } else { (None, None) };
        self.root.push(json::Accessor {
            buffer_view: Some(view),
            byte_offset: None,
            count: USize64::from(data.len()),
            component_type: Checked::Valid(GenericComponentType(T::COMPONENT)),
            extensions: None,
            extras: Default::default(),
            type_: Checked::Valid(T::TYPE),
            min,
            max,
            name: None,
            normalized: false,
            sparse: None,
        })
    }

    /// A vertex attribute (`POSITION`, `NORMAL`, `TEXCOORD_n`, ...), with its
    /// bounds (the glTF validator wants them on positions).
    pub fn vertex_attribute<T: Element>(&mut self, data: &[T]) -> Index<json::Accessor> {
        self.accessor(data, Some(Target::ArrayBuffer), true)
    }

    /// Scalar floats (animation times and the like), with bounds.
    pub fn scalars(&mut self, data: &[f32]) -> Index<json::Accessor> {
        let data: Vec<[f32; 1]> = data.iter().map(|v| [*v]).collect();
        self.accessor(&data, None, true)
    }

    /// Triangle indices, as `u16` when every index fits below 65535 (the
    /// value that means restart), as `u32` otherwise.
    pub fn indices(&mut self, indices: &[u32]) -> Index<json::Accessor> {
        let target = Some(Target::ElementArrayBuffer);
        if indices.iter().all(|&i| i < u32::from(u16::MAX)) {
            let short: Vec<[u16; 1]> = indices.iter().map(|&i| [i as u16]).collect();
            self.accessor(&short, target, false)
        } else {
            let long: Vec<[u32; 1]> = indices.iter().map(|&i| [i]).collect();
            self.accessor(&long, target, false)
        }
    }

    /// An image (PNG bytes), embedded or written beside the document.
    pub fn png_image(&mut self, name: &str, png: Vec<u8>) -> Index<json::Image> {
        let index = self.root.push(json::Image {
            buffer_view: None,
            mime_type: None,
            name: Some(name.to_string()),
            uri: None,
            extensions: None,
            extras: Default::default(),
        });
        self.images.push(PendingImage {
            index,
            bytes: png,
            mime_type: "image/png",
        });
        index
    }

    /// A mesh of one triangle-list primitive.
    pub fn triangle_mesh(
        &mut self,
        name: &str,
        attributes: impl IntoIterator<Item = (json::mesh::Semantic, Index<json::Accessor>)>,
        indices: Option<Index<json::Accessor>>,
        material: Option<Index<json::Material>>,
    ) -> Index<json::Mesh> {
        let primitive = triangles(attributes, indices, material);
        self.root.push(json::Mesh {
            extensions: None,
            extras: Default::default(),
            name: Some(name.to_string()),
            primitives: vec![primitive],
            weights: None,
        })
    }

    /// Ends the document with one scene of these root nodes.
    pub fn finish(mut self, scene_nodes: Vec<Index<json::Node>>) -> Document {
        let scene = self.root.push(json::Scene {
            extensions: None,
            extras: Default::default(),
            name: None,
            nodes: scene_nodes,
        });
        self.root.scene = Some(scene);
        Document {
            root: self.root,
            bin: self.bin,
            pointer_channels: self.pointer_channels,
            images: self.images,
        }
    }
}

/// A triangle-list primitive.
pub(crate) fn triangles(
    attributes: impl IntoIterator<Item = (json::mesh::Semantic, Index<json::Accessor>)>,
    indices: Option<Index<json::Accessor>>,
    material: Option<Index<json::Material>>,
) -> json::mesh::Primitive {
    let attributes: BTreeMap<_, _> = attributes
        .into_iter()
        .map(|(semantic, accessor)| (Checked::Valid(semantic), accessor))
        .collect();
    json::mesh::Primitive {
        attributes,
        extensions: None,
        extras: Default::default(),
        indices,
        material,
        mode: Checked::Valid(json::mesh::Mode::Triangles),
        targets: None,
    }
}

/// Component-wise minimum and maximum, as JSON arrays.
fn min_max<T: Element>(data: &[T]) -> (Option<json::Value>, Option<json::Value>) {
    let mut bounds: Option<(Vec<f64>, Vec<f64>)> = None;
    for element in data {
        let c = element.components();
        match &mut bounds {
            None => bounds = Some((c.clone(), c)),
            Some((lo, hi)) => {
                for ((l, h), v) in lo.iter_mut().zip(hi.iter_mut()).zip(c) {
                    *l = l.min(v);
                    *h = h.max(v);
                }
            }
        }
    }
    let array = |v: Vec<f64>| {
        json::Value::Array(
            v.into_iter()
                .map(|x| {
                    if T::COMPONENT == ComponentType::F32 {
                        json::Value::from(x)
                    } else {
                        json::Value::from(x as u64)
                    }
                })
                .collect(),
        )
    };
    match bounds {
        Some((lo, hi)) => (Some(array(lo)), Some(array(hi))),
        None => (None, None),
    }
}

/// A `.gltf` document as files.
#[derive(Clone, Debug, PartialEq)]
pub struct GltfFiles {
    /// The `.gltf` file's JSON.
    pub json: Vec<u8>,
    /// The files it names, to write beside it: `(file name, bytes)`.
    pub files: Vec<(String, Vec<u8>)>,
}

impl Document {
    /// One `.glb` file: the JSON, then the buffer with every image appended.
    pub fn to_glb(&self) -> Result<Vec<u8>, ExportError> {
        let mut root = self.root.clone();
        let mut bin = self.bin.clone();
        for image in &self.images {
            pad4(&mut bin);
            let offset = bin.len();
            bin.extend_from_slice(&image.bytes);
            let view = root.push(json::buffer::View {
                buffer: Index::new(0),
                byte_length: USize64::from(image.bytes.len()),
                byte_offset: Some(USize64::from(offset)),
                byte_stride: None,
                name: None,
                target: None,
                extensions: None,
                extras: Default::default(),
            });
            if let Some(slot) = root.images.get_mut(image.index.value()) {
                slot.buffer_view = Some(view);
                slot.mime_type = Some(json::image::MimeType(image.mime_type.to_string()));
            }
        }
        set_buffer(&mut root, bin.len(), None);
        let text = json_bytes(&root, &self.pointer_channels)?;
        glb::write(&text, &bin)
    }

    /// A `.gltf` file named `stem.gltf`: its JSON, and the files beside it
    /// (`stem.bin`, `stem_N.png`).
    pub fn to_gltf(&self, stem: &str) -> Result<GltfFiles, ExportError> {
        let mut root = self.root.clone();
        let mut files = Vec::new();
        let bin_name = format!("{stem}.bin");
        set_buffer(&mut root, self.bin.len(), Some(uri_escape(&bin_name)));
        if !self.bin.is_empty() {
            files.push((bin_name, self.bin.clone()));
        }
        for (n, image) in self.images.iter().enumerate() {
            let name = format!("{stem}_{n}.png");
            if let Some(slot) = root.images.get_mut(image.index.value()) {
                slot.uri = Some(uri_escape(&name));
            }
            files.push((name, image.bytes.clone()));
        }
        Ok(GltfFiles {
            json: json_bytes(&root, &self.pointer_channels)?,
            files,
        })
    }
}

/// Zeros up to the next multiple of 4 bytes (where the next view starts).
fn pad4(bin: &mut Vec<u8>) {
    bin.resize(bin.len().next_multiple_of(4), 0);
}

/// The one buffer (none when empty).
fn set_buffer(root: &mut Root, len: usize, uri: Option<String>) {
    root.buffers = if len == 0 {
        Vec::new()
    } else {
        vec![json::Buffer {
            byte_length: USize64::from(len),
            name: None,
            uri,
            extensions: None,
            extras: Default::default(),
        }]
    };
}

/// The extension of [`PointerChannel`]s.
const POINTER: &str = "KHR_animation_pointer";

/// The document's JSON, with `pointers` among its animations' channels.
fn json_bytes(root: &Root, pointers: &[PointerChannel]) -> Result<Vec<u8>, ExportError> {
    if pointers.is_empty() {
        return json::serialize::to_vec(root).map_err(ExportError::Json);
    }
    let mut value = serde_json::to_value(root).map_err(ExportError::Json)?;
    for channel in pointers {
        let channels = value
            .pointer_mut(&format!(
                "/animations/{}/channels",
                channel.animation.value()
            ))
            .and_then(serde_json::Value::as_array_mut)
            .ok_or(ExportError::NoAnimation {
                animation: channel.animation.value(),
            })?;
        channels.push(serde_json::json!({
            "sampler": channel.sampler.value(),
            "target": {
                "path": "pointer",
                "extensions": { POINTER: { "pointer": channel.pointer } },
            },
        }));
    }
    serde_json::to_vec(&value).map_err(ExportError::Json)
}

/// A file name as a relative URI (spaces and other reserved bytes escaped).
fn uri_escape(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accessors_carry_bounds_and_sit_on_4_byte_boundaries() {
        let mut b = Builder::new("test");
        let i = b.indices(&[0, 1, 2]);
        let p = b.vertex_attribute(&[[1.0f32, -2.0, 3.0], [-1.0, 5.0, 0.5]]);
        let doc = b.finish(vec![]);
        assert_eq!(doc.bin.len(), 8 + 24); // 6 bytes of u16 indices, padded
        let p = &doc.root.accessors[p.value()];
        assert_eq!(p.min, Some(serde_json::json!([-1.0, -2.0, 0.5])));
        assert_eq!(p.max, Some(serde_json::json!([1.0, 5.0, 3.0])));
        let i = &doc.root.accessors[i.value()];
        assert!(matches!(
            i.component_type,
            Checked::Valid(GenericComponentType(ComponentType::U16))
        ));
        assert_eq!(doc.root.buffer_views[1].byte_offset, Some(USize64(8)));
    }

    /// glTF forbids NaN and infinite floats in accessors: they are written
    /// as 0 and as the largest `f32` of their sign, in the buffer and in
    /// `min` and `max` (where `serde_json` would write `null`).
    #[test]
    fn non_finite_floats_are_written_finite() {
        let mut b = Builder::new("test");
        let p = b.vertex_attribute(&[[f32::NAN, f32::INFINITY, f32::NEG_INFINITY]]);
        let s = b.scalars(&[1.5, f32::NAN]);
        let doc = b.finish(vec![]);
        let floats: Vec<f32> = doc
            .bin
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        assert_eq!(floats, [0.0, f32::MAX, f32::MIN, 1.5, 0.0]);
        let p = &doc.root.accessors[p.value()];
        let bounds = serde_json::json!([0.0, f32::MAX, f32::MIN]);
        assert_eq!((&p.min, &p.max), (&Some(bounds.clone()), &Some(bounds)));
        let s = &doc.root.accessors[s.value()];
        let (min, max) = (serde_json::json!([0.0]), serde_json::json!([1.5]));
        assert_eq!((&s.min, &s.max), (&Some(min), &Some(max)));
    }

    #[test]
    fn indices_of_65535_and_more_are_32_bit() {
        let mut b = Builder::new("test");
        let i = b.indices(&[0, 65535, 2]);
        let doc = b.finish(vec![]);
        let i = &doc.root.accessors[i.value()];
        assert!(matches!(
            i.component_type,
            Checked::Valid(GenericComponentType(ComponentType::U32))
        ));
    }

    #[test]
    fn images_go_in_the_buffer_for_glb_and_beside_for_gltf() {
        let mut b = Builder::new("test");
        b.vertex_attribute(&[[0.0f32; 3]]);
        b.png_image("skin", vec![1, 2, 3]);
        let doc = b.finish(vec![]);
        let glb = doc.to_glb().unwrap();
        assert_eq!(&glb[..4], b"glTF");
        let GltfFiles { json, files } = doc.to_gltf("my model").unwrap();
        let text = String::from_utf8(json).unwrap();
        assert!(text.contains("\"uri\":\"my%20model.bin\""), "{text}");
        assert!(text.contains("\"uri\":\"my%20model_0.png\""), "{text}");
        assert_eq!(files.len(), 2);
        assert_eq!(files[1].1, [1, 2, 3]);
    }
}
