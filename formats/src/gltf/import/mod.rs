//! glTF 2.0 in: a document ([`Source`]) to an MDX [`Model`] of any
//! Warcraft III version ([`import`]), with the BLP and DDS textures its materials
//! name and an [`ImportReport`] of everything approximated or left out.
//!
//! ```
//! use formats::gltf::{ExportOptions, ImportOptions, Source, export, import};
//!
//! // A model out to glTF and back in.
//! let model = formats::mdx::Model::from_bytes(&formats::sample::sample_mdx())?;
//! let glb = export(&model, "cube", &ExportOptions::default())?.document.to_glb()?;
//! let source = Source::from_slice(&glb, |_| Err(std::io::ErrorKind::NotFound.into()))?;
//! let imported = import(&source, &ImportOptions { version: 800, ..Default::default() })?;
//! assert_eq!(imported.model.geosets().len(), 1);
//! assert_eq!(imported.model.sequences()[0].name.to_string_lossy(), "Stand");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! What each part of a document becomes, and the limits, are in
//! [`import`]'s docs.

mod accessor;
mod animation;
mod error;
mod geometry;
mod lights;
mod materials;
mod report;
mod scene;
mod skeleton;
mod source;

use format_core::FixedStr;

use crate::anim::glam::DVec3;
use crate::mdx::{Attachment, Bone, Extent, Helper, Model, Node, Sequence, node::node_flags};

pub use error::{AccessorProblem, BufferProblem, ImportError};
pub use report::{GlobalSequenceMade, HermitePart, HermiteTrack, ImportReport, SequenceMade};
pub use source::{ImageProblem, MAX_IMAGE_PIXELS, Source};

/// Where the textures go, and in which format ([`import`]'s docs,
/// "Materials", say which encoding each texture gets).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TextureMode {
    /// Each image encoded as the layer that shows it takes it
    /// ([`Imported::textures`]): a classic layer's as BLP1, an HD
    /// material's (1100 and later) as DDS, as Reforged's HD models have
    /// them; the model names it `{texture_folder}{image name}.blp` or
    /// `.dds`.
    #[default]
    Blp,
    /// Every image encoded as DDS, a classic layer's too (which Reforged
    /// reads; the game before Reforged reads BLP): `.dds`.
    Dds,
    /// The model names each image by its original URI (for images kept
    /// as they are, to convert later); no files are made. An image inside
    /// the document (GLB, `data:` URI), and a texture made of images (an
    /// ORM of two, an emissive scaled by its factor), has no file to name
    /// and is still encoded, as with [`TextureMode::Blp`].
    Keep,
}

/// What an [`ImportedTexture`] holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum TextureFormat {
    /// A BLP1 texture ([`Blp`](crate::blp::Blp)).
    Blp,
    /// A DDS texture ([`Dds`](crate::dds::Dds)).
    Dds,
}

impl TextureFormat {
    /// The file extension it is named with: `blp`, `dds`.
    pub fn extension(self) -> &'static str {
        match self {
            TextureFormat::Blp => "blp",
            TextureFormat::Dds => "dds",
        }
    }

    /// Its name in messages: `BLP`, `DDS`.
    pub fn name(self) -> &'static str {
        match self {
            TextureFormat::Blp => "BLP",
            TextureFormat::Dds => "DDS",
        }
    }
}

/// How [`import`] imports.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportOptions<'a> {
    /// The MDX version made: 800 (classic), 900, 1000, 1100 or 1200.
    pub version: u32,
    /// Model units per glTF unit (metre). 1 keeps the sizes (what the
    /// export wrote); a model made in metres needs about 50 to stand as
    /// tall as the game's units.
    pub scale: f64,
    /// The model's name (`MODL`).
    pub name: &'a str,
    /// Sequences to rename: (animation name, sequence name).
    pub sequence_names: &'a [(String, String)],
    /// Where the textures go.
    pub textures: TextureMode,
    /// A folder prefix for the texture paths the model names, with its
    /// trailing separator (`Textures\\`); empty: beside the model.
    pub texture_folder: &'a str,
    /// How the model, made as version 1000, is converted to
    /// [`version`](Self::version) (the default: as `formats convert` does).
    pub conversion: crate::convert::Options,
    /// Packs short looping animations as global sequences, which play
    /// in every sequence (a gem spinning, a flag waving): each looping
    /// animation whose name the game does not play (its action not
    /// `Stand`, `Walk`, `Attack`...: `Spin`, `Gem Glow`), at most this
    /// many seconds long (the [`import`] docs' "Global sequences"). `None`
    /// (the default): every animation is a sequence.
    pub global_sequences: Option<f64>,
}

impl Default for ImportOptions<'_> {
    fn default() -> Self {
        ImportOptions {
            version: 800,
            scale: 1.0,
            name: "",
            sequence_names: &[],
            textures: TextureMode::Blp,
            texture_folder: "",
            conversion: crate::convert::Options::default(),
            global_sequences: None,
        }
    }
}

/// A texture file to write beside the model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportedTexture {
    /// The path the model names it by (relative to the model).
    pub path: String,
    /// The file's bytes, a texture in [`format`](Self::format).
    pub bytes: Vec<u8>,
    /// Whether it is BLP or DDS (the path's extension says so too).
    pub format: TextureFormat,
    /// The glTF images it was made from: one, or for an ORM texture the
    /// occlusion and the metallic-roughness images when they differ.
    pub images: Vec<usize>,
}

/// What [`import`] made.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The model.
    pub model: Model,
    /// The textures to write, at the paths the model names them by.
    pub textures: Vec<ImportedTexture>,
    /// What was approximated, dropped and renamed.
    pub report: ImportReport,
}

/// Sequence names the game plays once (its animation names' first word,
/// as Blizzard's models flag them `NonLooping`); every other name loops.
pub const NON_LOOPING: [&str; 7] = [
    "Attack",
    "Birth",
    "Death",
    "Decay",
    "Dissipate",
    "Morph",
    "Spell",
];

/// Whether a sequence of this name loops: not when its first word is one of
/// [`NON_LOOPING`] (ASCII case ignored).
///
/// ```
/// use formats::gltf::looping;
/// assert!(looping("Stand Ready"));
/// assert!(!looping("attack 2"));
/// ```
pub fn looping(name: &str) -> bool {
    let first = name.split_whitespace().next().unwrap_or("");
    !NON_LOOPING.iter().any(|w| w.eq_ignore_ascii_case(first))
}

/// `text` in a field of `N` bytes (at most `N - 1` and a NUL), cut at a
/// character boundary; and whether it had to be cut.
pub(super) fn fixed<const N: usize>(text: &str) -> (FixedStr<N>, bool) {
    let mut end = text.len().min(N - 1);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let cut = text.get(..end).unwrap_or("");
    (
        FixedStr::try_from(cut).unwrap_or_default(),
        end < text.len(),
    )
}

/// Imports `source` as a model of [`ImportOptions::version`].
///
/// # What a document becomes
///
/// The model is made as a Reforged model (version 1000: `SKIN` weights and
/// MikkTSpace tangents), then [`convert`](crate::convert)ed to the version
/// asked for, which for 800 turns the weights into matrix groups (from
/// every weight, as "Weights" says), cuts geosets past 256 groups and
/// measures the largest position error that costs at every frame of every
/// sequence (in [`ImportReport::conversion`]); 900 keeps `SKIN`, as 1000.
///
/// - **Axes and units.** glTF's Y-up space becomes the game's Z-up:
///   `(x, y, z)` becomes `(x, -z, y)`, times [`ImportOptions::scale`]. The
///   exporter ([`export`](super::export)) turns Z up into Y up the same
///   way, so a model exported then imported stands where it stood.
/// - **Geometry.** One geoset per mesh primitive of the scene (the default
///   scene, else the first), with its material: positions, normals
///   (computed when missing), every `TEXCOORD_n`, triangles (strips and
///   fans converted; points and lines dropped). A primitive past 65,535
///   vertices is cut into geosets, a triangle never split. A mesh without
///   skin is bound to a bone made for its node, so its node's motion moves
///   it.
/// - **Skeleton.** Joints some vertex is weighted to, and nodes of meshes
///   without skin, become bones (object ids from 0, so `SKIN` names them by
///   a byte: at most 256). A node with a light becomes a light (a section
///   below), a node named like an attachment point (`Origin Ref`, `Hand
///   Right Ref`) an attachment, and the other joints, and the nodes on the
///   way to any of these, helpers. Pivots are the nodes' bind positions.
///   How a node's motion becomes its tracks is in "Motion"; a transform a
///   parent's non-uniform scaling shears is listed in
///   [`ImportReport::approximated`], with how far.
/// - **Weights.** `SKIN` holds each vertex's four largest weights of every
///   `JOINTS_n`/`WEIGHTS_n` set (a joint named twice counting once), out of
///   255; at 900 and later that is what the model keeps, and a vertex of
///   more weights is listed in [`ImportReport::approximated`]. A classic
///   model's (800) matrix groups are made from all of a vertex's weights,
///   by the rules the conversion makes them from `SKIN` with
///   ([`convert`](crate::convert)): a group weighs its bones equally, so a
///   vertex of 5 equal weights gets the group of those 5 bones, one of
///   uneven weights the group whose equal shares come nearest them (what
///   that costs is measured against all its weights, in the conversion's
///   skinning error).
/// - **Animations.** Each becomes a sequence, in document order, one
///   second apart on the timeline, named as the animation
///   ([`ImportOptions::sequence_names`] renames). Whether it loops follows
///   the game's vocabulary ([`looping`]). Morph target weights are dropped.
/// - **Global sequences.** With [`ImportOptions::global_sequences`], an
///   animation the game would never play by its name, short and looping,
///   becomes a global sequence instead, which runs in every sequence: one
///   whose sequence name's action is not one the game plays (`Stand`,
///   `Walk`, `Attack`... as [`validate`](crate::validate) knows them:
///   `Spin`, `Gem Glow`), that loops, and that lasts at least a
///   millisecond and at most the seconds given. Global sequences are
///   numbered in document order, each as long as its animation; the
///   tracks of every node it moves follow it (moves: a channel on the
///   node or on the nodes between it and its MDX parent takes it from
///   where it rests). An MDX track follows either the sequences or one
///   global sequence, so an animation that moves a node another
///   animation moves too stays a sequence, listed in
///   [`ImportReport::kept_sequences`] with the node and the other
///   animation. [`ImportReport::global_sequences`] lists those made.
/// - **Materials.** One classic layer each, or from 1100 on Reforged's HD
///   material of six slots, as the next section says.
/// - **Extents** of the model, each sequence and each geoset are measured
///   from the posed vertices ([`bounds`](crate::bounds)).
/// - **What glTF has no field for.** The [export](super::export) records
///   in `extras.mdx` each sequence's interval and looping flag, and each
///   material's filter mode, texture path (or replaceable id), whether it
///   is HD and each HD slot's texture (path or replaceable id, flags); the
///   import takes them from there when they are present and consistent
///   (an interval of the animation's length, no two overlapping), so that
///   a model exported and imported keeps its timeline, its additive
///   layers, its HD and SD materials and its texture paths.
/// - **The report** ([`ImportReport`]) lists everything approximated or
///   left out, and what [`validate`](crate::validate) warns of in the model
///   made (a name the game does not play, no `Death`, no `Origin Ref`):
///   what the glTF did not say.
///
/// # Materials
///
/// Every version: the layer (of a classic material, or an HD material's
/// diffuse layer) takes
///
/// | glTF | MDX layer |
/// |---|---|
/// | `alphaMode` `OPAQUE`, `MASK`, `BLEND` | filter mode none, transparent (alpha-tested), blend |
/// | `doubleSided` | shading flag two-sided |
/// | `KHR_materials_unlit` | shading flag unshaded |
/// | `baseColorTexture` | the (diffuse) texture, its `texCoord` the layer's UV set |
/// | `baseColorFactor`'s alpha | the layer's static alpha (its colour is reported as left out) |
/// | no base colour texture | `Textures\white.blp`, a texture every copy of the game has |
/// | `extras.mdx` (an export of this workspace) | the filter mode (additive, modulate...), the texture's path or replaceable id |
///
/// Below 1100 a material is that one layer (a classic layer draws the base
/// colour only: the other textures are reported as left out). From 1100
/// on it is an HD material (unless the export recorded an SD one, which
/// comes back SD): one layer of shader type 1 whose texture list fills
/// Reforged's six slots, as its own models do (the corpus's `HarvestGolem`)
/// and as the [export](super::export) reads them, so that a Reforged model
/// exported and imported at its version has the same slots:
///
/// | slot | from glTF | without a texture |
/// |---|---|---|
/// | 0 diffuse | `baseColorTexture` | `Textures\white.blp` |
/// | 1 normal | `normalTexture` (green as it is: the export does not flip it either; its `scale` is reported as left out) | `Textures\normal.dds` |
/// | 2 ORM | `occlusionTexture` red as occlusion (1 + strength · (red - 1)), `metallicRoughnessTexture` green as roughness and blue as metallic (times their factors), alpha 0: glTF's own packing, which the export writes both textures from; two images of different sizes are sampled at the larger's (reported) | `Textures\orm.dds` (the factors are reported as left out) |
/// | 3 emissive | `emissiveTexture` times `emissiveFactor` | `Textures\Black32.dds` (a factor is reported as left out) |
/// | 4 team colour | none | replaceable id 1 |
/// | 5 reflection | none | `ReplaceableTextures\EnvironmentMap.dds` |
///
/// The placeholders are [`PLACEHOLDERS`](crate::convert::PLACEHOLDERS),
/// which [`convert`](crate::convert) gives classic materials made HD (the
/// textures Retera's Model Studio uses); a slot the export recorded
/// (`extras.mdx.slots`: HarvestGolem's `Textures/Black32.blp`, say) takes
/// the recorded texture instead. An ORM's alpha is the team colour's
/// strength to the game's shader (mdx-m3-viewer's and HiveWE's read it so):
/// glTF has no team colour, so it is 0. A slot on another `texCoord` than
/// the base colour's is drawn with the base colour's (one layer has one UV
/// set; reported). HD textures are flagged to wrap as their sampler does
/// (glTF's default, and every HD texture of the corpus: both ways); the
/// placeholders wrap both ways.
///
/// Each image is written as a texture file ([`Imported::textures`]) at the
/// path the model names it by (`{texture_folder}{image name}.blp` or
/// `.dds`, relative to the model), as [`ImportOptions::textures`] says:
///
/// | use | [`TextureMode::Blp`] (default) | [`TextureMode::Dds`] |
/// |---|---|---|
/// | a classic layer's texture | BLP1: JPEG when the image is opaque, palette with its 8-bit alpha when it is not (exact alpha for the cut-outs `MASK` makes); every version of the game reads it | DDS, BC1 (opaque) or BC3 |
/// | HD diffuse | DDS, BC1 (opaque) or BC3 | the same |
/// | HD normal | DDS, BC5 (X and Y: the HD shader rebuilds Z) | the same |
/// | HD ORM | DDS, BC3 (its alpha 0 kept) | the same |
/// | HD emissive | DDS, BC1 | the same |
///
/// Why DDS in every HD slot, the diffuse too: Reforged's HD textures are
/// DDS (its models name `X_Diffuse.tif` and the game loads
/// `X_Diffuse.dds`), and the community's HD models of the corpus name
/// `.dds` in every slot (`tm_blob`, `tm_TM_DruidBear`); the only BLP
/// names in the corpus's HD slots are textures every copy of the game has
/// (`Textures/Black32.blp`, `ReplaceableTextures/EnvironmentMap.blp`), no
/// file shipped with a model. [`TextureMode::Keep`]
/// names each image file as it is instead (nothing written), but an image
/// inside the document and a texture made of images (an ORM of two, an
/// emissive scaled by its factor), which have no file to name, are
/// written as with [`TextureMode::Blp`]. A recorded path whose image is
/// written in another format is named for it (`X_Diffuse.tif` becomes
/// `X_Diffuse.dds`, reported as renamed). Each DDS has every mip level
/// down to 1x1 ([`Dds::encode`](crate::dds::Dds::encode)).
///
/// # Lights and cameras
///
/// | glTF | MDX |
/// |---|---|
/// | `KHR_lights_punctual` `point`, `spot` | an omni light on its node (a spot reported as approximated) |
/// | `directional` | a directional light, turned by its node |
/// | `color` (red, green, blue), `intensity` | colour (blue, green, red), intensity |
/// | `range` | attenuation end (from 0); none: twice the model's size, reported |
/// | a perspective camera's node | a camera at the node's place at rest, looking down its -Z: the target is the point of that line nearest the model's origin (100 units ahead where that is behind it); roll and motion are left out, reported |
/// | `yfov`, `znear`, `zfar` | field of view, near and far clipping planes (far 100,000 for an infinite projection) |
///
/// The export writes lights and cameras the other way round, so they come
/// back where they were.
///
/// # Motion
///
/// MDX nodes have no rest rotation: a node's transform moves vertices from
/// where the model stores them. Each node has a bind matrix `B` (glTF
/// world space): a joint's is the inverse of its inverse bind matrix, any
/// other node's its world matrix at rest. Its MDX world matrix at a time is
/// `C · G(t) · B⁻¹ · C⁻¹`, `G(t)` its glTF world matrix then and `C` the
/// change of axes and scale above; its pivot is where `C · B` puts the
/// origin. A skinned vertex is stored at `C · v` and an unskinned mesh's at
/// `C · B · v`, so they move as glTF moves them. The node's local
/// transform `L = W_parent⁻¹ · W` is taken apart into a translation,
/// rotation and scaling about its pivot (`T(p + t) · R · S · T(-p)`);
/// where `L` is not of that form (a parent's non-uniform scaling shears
/// it), the closest rotation and scaling are kept and the shear reported.
///
/// Baking against the bind pose changes the curves, so tracks are
/// sampled from glTF's curves (`STEP`, `LINEAR` with slerp, `CUBICSPLINE`
/// as the glTF specification plays them): at the keys of the channels
/// that move the node (whole milliseconds), then, where linear interpolation
/// strays from the curve by more than 1e-4 of the model's size (1e-4
/// radians, 1e-4 of a scale), halfway between keys until it does not (the
/// export's fitting). Then each track is thinned: a key goes where
/// interpolating between the keys kept either side plays it, and the
/// point halfway to each neighbour, within the smallest of the tolerances
/// (taken as model units, radians and a factor alike). A node whose every
/// moving channel is `STEP` gets keys without interpolation at the
/// animation's keys. Each sequence is laid out one second after the one
/// before (or where `extras.mdx` puts it); a global sequence's keys run
/// from 0 to its length.
///
/// **`CUBICSPLINE` kept as hermite.** A node's translation (or scaling) in
/// one animation is glTF's curve itself, as hermite keys, where that is
/// exact: of the channels on the glTF nodes from the node up to its MDX
/// parent, one `translation` (`scale`) channel changes in the animation;
/// it is `CUBICSPLINE`; its keys fall on whole milliseconds (as their
/// `f32` times say), in order; and the node's translation (scaling) is an
/// affine function `A · x + b` of that channel's value `x`. `A` and `b` are
/// measured from the channel's first value and a step along each axis,
/// then the relation is checked, within 1e-9 of the model's size (of a
/// factor, for scalings), at every key of every channel moving the node
/// and a quarter, half and three quarters of the way between; anything
/// else is sampled. A node moved by its own `translation` is exact
/// whatever its rotation does (the translation is where its pivot goes);
/// a scaling is exact where the turns of the nodes above it are
/// multiples of 90° (any other conjugates it into a shear). The keys are
/// the channel's, of values `A · v + b`, and the tangents, per second in
/// glTF and per segment in MDX ([`anim::interpolate`](crate::anim::interpolate)),
/// are rescaled: for the segment from key `k` to key `k + 1`, `dt` seconds
/// long, key `k`'s out-tangent is `A · b_k · dt` and key `k + 1`'s
/// in-tangent `A · a_(k+1) · dt` (glTF's out-tangent `b`, in-tangent `a`).
/// Where the channel starts after its animation does or ends before, a key
/// of its first or last value with flat tangents holds it there, as glTF
/// does; keys all of one value whose tangents bend between them are
/// sampled (a sequence whose keys hold one value plays it throughout).
/// Fitting leaves a part kept exact out. A track has one interpolation
/// type for all its sequences, so a track hermite in one animation holds
/// the others' keys (sampled and thinned as above) as hermite keys whose
/// tangents are the chords, which play the same straight segments.
/// Rotations are always sampled (the quaternion spline is not glTF's).
/// [`ImportReport::hermite`] lists the tracks kept, and in which
/// animations.
///
/// # What an import may make
///
/// Every budget is counted before the work or the memory it stands for,
/// and a document past one is refused with [`ImportError::TooLarge`]
/// (naming the budget), or for images, imported without the image. The
/// largest model of the corpus (`rms_PackHorse`: 76 nodes, 147 s of
/// sequences) is well within each; every budget reached, an import takes
/// a few seconds in a release build (some ten more where its DDS textures,
/// at the cluster fit's budget below, are noise).
///
/// - **Accessors**: 2^25 components (floats or integers) read, every read
///   of every accessor counted (an accessor without a buffer view declares
///   its count freely, and one accessor may be read by any number of
///   primitives, skins and channels), each size checked against its buffer
///   before anything is allocated. Every `JOINTS_n`/`WEIGHTS_n` set is
///   read, and its weights kept for a classic model's groups, within it.
/// - **Vertices**: 2^20 (1,048,576), all primitives together.
/// - **Images** ([`MAX_IMAGE_PIXELS`]): 2^24 pixels decoded (a 4096 by
///   4096 image), all images together, the base colours first then the
///   other slots' images, each in document order, each size read from its
///   header first; only images a material's texture shows are decoded.
///   An image past the budget is left out, as one that does not decode is
///   ([`ImageProblem::TooLarge`]).
/// - **Textures encoded**: 2^25 pixels, all textures together (their level
///   0), every decoded image encoded twice over. An image is encoded once
///   for each use and factors (a base colour that is also the emissive, an
///   ORM for each roughness factor), so a document of many materials
///   scaling one large image each by its own factor would encode it for
///   each; past the budget a texture is left out (reported) and its slot
///   takes what it would without the image.
/// - **Cluster fit**: 2^22 pixels of DDS BC1 and BC3 textures (a 2048 by
///   2048 one) have their blocks' colours fitted by cluster fit (the
///   better colours, about 25 us a block of 16 distinct colours in a
///   release build: 7 s for 2048 by 2048 pixels of noise on two cores,
///   far less for painted textures); the textures after them by range
///   fit, some 50 times faster and coarser (reported as approximated).
/// - **Node samples**: 2^22 (4,194,304), every MDX node at every key time
///   of every animation that moves it (Blender bakes every bone at every
///   frame: 200 bones for 12 minutes at 24 frames a second).
/// - **Fitting** adds at most 8 keys for each key and each 1/30 s of a
///   track (an animation longer than 5 minutes counts fewer than 30 a
///   second, and one longer than an hour is cut at an hour), and 2^16 keys
///   to all tracks together; past that, tracks keep the keys they have
///   (listed in [`ImportReport::approximated`]).
/// - **Exact curves**: measuring and checking whether a translation or a
///   scaling is a `CUBICSPLINE` curve ("Motion") costs 4 samples for each
///   key time of the channels moving the node, and 6 more, each of the
///   two parts, in an animation where one `CUBICSPLINE` channel of that
///   kind changes (at most 8 times the node samples above).
/// - **Thinning** looks at most 64 keys ahead (a key of a smooth track
///   stands for at most 64 samples), a few dozen interpolations a key.
///
/// The nodes of the skeleton, materials and textures cost work in
/// proportion to their number (the bones are also at most 256, `SKIN`
/// naming them by a byte).
pub fn import(source: &Source, options: &ImportOptions<'_>) -> Result<Imported, ImportError> {
    let document = &source.document;
    let buffers = &accessor::Buffers::new(&source.buffers);
    let mut report = ImportReport {
        version: options.version,
        ..ImportReport::default()
    };
    for extension in document.extensions_used() {
        if ![
            "KHR_materials_unlit",
            "KHR_lights_punctual",
            "KHR_mesh_quantization",
        ]
        .contains(&extension)
        {
            report.drop("extensionsUsed", format!("{extension} (not imported)"));
        }
    }
    let scene = scene::Scene::new(document)?;
    // The mesh instances: each scene node with a mesh, and its skin.
    let meshes: Vec<(usize, Option<usize>)> = document
        .nodes()
        .filter(|n| scene.in_scene(n.index()) && n.mesh().is_some())
        .map(|n| (n.index(), n.skin().map(|s| s.index())))
        .collect();
    let weighted = geometry::weighted_joints(document, buffers, &meshes)?;
    let skeleton = skeleton::Skeleton::new(document, buffers, &scene, &meshes, &weighted)?;
    for name in &skeleton.conflicting_binds {
        report.approximate(
            format!("joint \"{name}\""),
            "skins disagree on its inverse bind matrix: the first skin's is used",
        );
    }
    let scale = if options.scale.is_finite() && options.scale > 0.0 {
        options.scale
    } else {
        1.0
    };
    let c = skeleton::axes(scale);
    let mut vertices = 0u64;
    let mut pieces = Vec::new();
    // Classic matrix groups are made from every weight, SKIN keeps 4.
    let classic = options.version < 900;
    for &(node, skin) in &meshes {
        pieces.extend(geometry::pieces(
            document,
            buffers,
            &skeleton,
            c,
            node,
            skin,
            classic,
            &mut vertices,
            &mut report,
        )?);
    }
    if pieces.iter().all(|p| p.geoset.faces.is_empty()) {
        return Err(ImportError::NoMesh);
    }
    // Materials, in the order the geosets first use them.
    let mut used: Vec<Option<usize>> = Vec::new();
    for piece in &pieces {
        if !used.contains(&piece.material) {
            used.push(piece.material);
        }
    }
    let materials = materials::materials(document, &source.images, &used, options, &mut report);

    let clips = document
        .animations()
        .map(|a| scene::Clip::read(&a, buffers))
        .collect::<Result<Vec<_>, _>>()?;
    for (k, clip) in clips.iter().enumerate() {
        if clip.morph_channels > 0 {
            report.drop(
                format!("animations[{k}]"),
                format!(
                    "{} morph target weight channels (MDX has no morph targets)",
                    clip.morph_channels
                ),
            );
        }
    }
    // Each animation's sequence name, and whether it loops.
    let named: Vec<(String, bool)> = (clips.iter().enumerate())
        .map(|(k, clip)| {
            let renamed = (options.sequence_names.iter())
                .find(|(from, _)| *from == clip.name)
                .map(|(_, to)| to.clone());
            let wanted = renamed.unwrap_or_else(|| match clip.name.trim() {
                "" => format!("Animation {k}"),
                _ => clip.name.clone(),
            });
            let loops = clip.mdx_looping.unwrap_or_else(|| looping(&wanted));
            (wanted, loops)
        })
        .collect();
    animation::sample_budget(&scene, &skeleton, &clips)?;
    let slots = animation::slots(
        &scene,
        &skeleton,
        &clips,
        &named,
        options.global_sequences,
        &mut report,
    );

    // The model's size at rest, for the tolerances.
    let mut low = DVec3::splat(f64::INFINITY);
    let mut high = DVec3::splat(f64::NEG_INFINITY);
    for p in pieces.iter().flat_map(|p| &p.geoset.vertex_positions) {
        let v = DVec3::from(p.map(f64::from));
        low = low.min(v);
        high = high.max(v);
    }
    let size = (high - low).length();
    let size = if size.is_finite() && size > 0.0 {
        size
    } else {
        1.0
    };
    let tolerance = animation::Tolerance {
        translation: 1e-4 * size,
        rotation: 1e-4,
        scaling: 1e-4,
    };
    report.tolerance = [tolerance.translation, tolerance.rotation, tolerance.scaling];
    let tracks = animation::node_tracks(&scene, &skeleton, &clips, &slots, c, tolerance);
    report.keys_sampled = tracks.keys;
    report.keys_kept = tracks.kept;
    for (i, part, exact) in &tracks.hermite {
        let name = |k: &usize| clips.get(*k).map_or("", |c| c.name.as_str()).to_owned();
        report.hermite.push(HermiteTrack {
            node: skeleton
                .node(*i)
                .map_or("", |n| scene.name(n.gltf))
                .to_owned(),
            part: *part,
            animations: exact.iter().map(name).collect(),
        });
    }
    if tracks.fitting_cut {
        report.approximate(
            "animations",
            format!(
                "fitting stopped at {} keys added: later tracks may stray past the tolerance between their samples",
                animation::MAX_FITTED
            ),
        );
    }
    for &(i, shear) in &tracks.sheared {
        let name = skeleton.node(i).map_or("", |n| scene.name(n.gltf));
        report.approximate(
            format!("node \"{name}\""),
            format!("sheared by up to {shear:.3} of its scale (a non-uniform scaling along turned axes, which MDX nodes, without a rest rotation, cannot hold)"),
        );
    }

    // The model, as version 1000.
    let mut model = Model::new(1000);
    let (name, cut) = fixed::<80>(options.name);
    if cut {
        report.rename(
            "MODL.name",
            format!("cut to \"{}\"", name.to_string_lossy()),
        );
    }
    if let Some(crate::mdx::Chunk::Model(header)) = model
        .chunks
        .iter_mut()
        .find(|c| matches!(c, crate::mdx::Chunk::Model(_)))
    {
        header.name = name;
        header.blend_time = 150;
    }
    for (k, ((clip, slot), (wanted, loops))) in clips.iter().zip(&slots).zip(named).enumerate() {
        let interval = match *slot {
            animation::Slot::Sequence(interval) => interval,
            animation::Slot::Global { length, .. } => {
                model.global_sequences_mut().push(length);
                continue;
            }
        };
        let (seq_name, cut) = fixed::<80>(&wanted);
        if cut {
            report.rename(
                format!("animations[{k}]"),
                format!("\"{wanted}\" cut to 79 bytes"),
            );
        }
        report.sequences.push(SequenceMade {
            animation: clip.name.clone(),
            name: seq_name.to_string_lossy().into_owned(),
            interval,
            looping: loops,
        });
        model.sequences_mut().push(Sequence {
            name: seq_name,
            interval,
            move_speed: 0.0,
            flags: u32::from(!loops),
            rarity: 0.0,
            sync_point: 0,
            extent: Extent::default(),
        });
    }
    *model.textures_mut() = materials.textures;
    *model.materials_mut() = materials.materials;
    let bones = skeleton
        .nodes
        .iter()
        .filter(|n| n.role == skeleton::Role::Bone)
        .count();
    let mut weights = Vec::with_capacity(pieces.len());
    for mut piece in pieces {
        weights.push(core::mem::take(&mut piece.weights));
        piece.geoset.material_id = materials.by_gltf.get(&piece.material).copied().unwrap_or(0);
        piece.geoset.sequence_extents = vec![Extent::default(); report.sequences.len()];
        let skin = piece.geoset.skin.clone().unwrap_or_default();
        let (gndx, mtgc, mats) = crate::convert::head_groups(&skin, bones);
        piece.geoset.vertex_groups = gndx;
        piece.geoset.matrix_groups = mtgc;
        piece.geoset.matrix_indices = mats;
        piece.geoset.tangents = Some(crate::convert::tangents_of(&piece.geoset));
        model.geosets_mut().push(piece.geoset);
    }
    report.geosets = model.geosets().len();
    let pivots = skeleton.pivots(c);
    for (id, ((node, tracks), pivot)) in
        (skeleton.nodes.iter().zip(tracks.tracks).zip(pivots)).enumerate()
    {
        let gltf_name = scene.name(node.gltf);
        let wanted = if gltf_name.is_empty() {
            format!("node {}", node.gltf)
        } else {
            gltf_name.to_owned()
        };
        let (name, cut) = fixed::<80>(&wanted);
        if cut {
            report.rename(
                format!("nodes[{}]", node.gltf),
                format!("\"{wanted}\" cut to 79 bytes"),
            );
        }
        let flags = match node.role {
            skeleton::Role::Bone => node_flags::BONE,
            skeleton::Role::Helper => node_flags::HELPER,
            skeleton::Role::Attachment => node_flags::ATTACHMENT,
            skeleton::Role::Light => node_flags::LIGHT,
        };
        let mdx_node = Node {
            name,
            object_id: id as u32,
            parent_id: node.parent.map_or(u32::MAX, |p| p as u32),
            flags,
            tracks,
        };
        match node.role {
            skeleton::Role::Bone => {
                report.bones += 1;
                model.bones_mut().push(Bone {
                    node: mdx_node,
                    geoset_id: u32::MAX,
                    geoset_animation_id: u32::MAX,
                })
            }
            skeleton::Role::Helper => {
                report.helpers += 1;
                model.helpers_mut().push(Helper { node: mdx_node })
            }
            skeleton::Role::Attachment => {
                let attachment_id = report.attachments as u32;
                report.attachments += 1;
                model.attachments_mut().push(Attachment {
                    node: mdx_node,
                    path: FixedStr::default(),
                    attachment_id,
                    tracks: Vec::new(),
                })
            }
            skeleton::Role::Light => {
                report.lights += 1;
                let light = lights::light(document, node.gltf, mdx_node, size, &mut report);
                model.lights_mut().push(light)
            }
        }
        model.pivot_points_mut().push(pivot.as_vec3().to_array());
    }

    let animated = |n: usize| clips.iter().any(|clip| clip.by_node.contains_key(&n));
    let cameras = lights::cameras(document, &scene, c, animated, &mut report);
    report.cameras = cameras.len();
    if !cameras.is_empty() {
        *model.cameras_mut() = cameras;
    }
    model.recompute_extents();
    if options.version != 1000 {
        let conversion = crate::convert::convert_weighted(
            &mut model,
            options.version,
            &options.conversion,
            &weights,
        )
        .map_err(|source| ImportError::Convert {
            version: options.version,
            source,
        })?;
        report.conversion = Some(conversion);
    }
    // The structure and sanity rules: the extents were just measured from
    // the posed vertices, which `validate`'s extent rules would do again.
    let findings = crate::validate::model(&model)
        .into_iter()
        .chain(crate::validate::sanity(&model));
    for finding in findings {
        if finding.severity() > crate::validate::Severity::Info {
            let what = format!(
                "{} ({}): {}",
                finding.rule.id(),
                finding.severity().name(),
                finding.message
            );
            report
                .findings
                .push(crate::convert::Note::new(finding.path, what));
        }
    }
    Ok(Imported {
        model,
        textures: materials.files,
        report,
    })
}
