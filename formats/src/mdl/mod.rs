//! MDL, the text twin of MDX: read into and written from the same
//! [`Model`] the binary reader produces (versions 800 to 1200).
//!
//! ```
//! use formats::mdx::Model;
//!
//! let bytes = formats::sample::sample_mdx();
//! let model = Model::from_bytes(&bytes)?;
//! let text = formats::mdl::to_string(&model);
//! assert!(text.contains("Version {"));
//! let back = formats::mdl::from_str(&text)?;
//! assert_eq!(back.to_bytes()?, bytes); // MDX -> MDL -> MDX is byte-exact
//! # Ok::<(), formats::Error>(())
//! ```
//!
//! # Blocks and keywords
//!
//! Every block and keyword Blizzard's tools and the community editors write
//! (`Version`, `Model`, `Sequences`, `GlobalSequences`, `Textures`,
//! `Materials`/`Layer`, `TextureAnims`, `Geoset`, `GeosetAnim`, `Bone`,
//! `Light`, `Helper`, `Attachment`, `PivotPoints`, `ParticleEmitter`,
//! `ParticleEmitter2`, `RibbonEmitter`, `EventObject`, `Camera`,
//! `CollisionShape`, and for Reforged `ParticleEmitterPopcorn`, `FaceFX`,
//! `BindPose`, `Tangents`, `SkinWeights`, `LevelOfDetail`, `Name`,
//! `EmissiveGain`, `FresnelColor`/`FresnelOpacity`/`FresnelTeamColor`,
//! `ShaderTypeId` and the v1100 texture list: its diffuse texture as the
//! layer's `TextureID`, as Retera's tools write it, and the other slots as
//! `NormalTextureID`, `ORMTextureID`, `EmissiveTextureID`,
//! `TeamColorTextureID` and `ReflectionsTextureID`, as war3-model does;
//! Blizzard has no MDL for 1100). Where
//! editors disagree, every known spelling is read (`AmbColor`/`AmbientColor`,
//! `InitVelocity`/`InitialVelocity`, `LifeSpan`/`Lifespan`) and the first one
//! written. war3-model's MDL reads too: its `RenderMode n` (a material's
//! flags as a number) and its `SkinWeights` in braces. Blocks are written in
//! the model's chunk order; consecutive object blocks of one kind (`Bone`,
//! `Bone`, ...) make one chunk.
//!
//! Static values are always written (`static Alpha 1`), also when a track
//! drives them, because the binary file stores both.
//!
//! # Derived from the chunk definitions
//!
//! Most blocks are not written here: their reader and writer are derived
//! (`#[derive(Mdl)]`, `format_core::mdl`) from the same definitions that
//! carry the binary layout, with `#[mdl(...)]` attributes for what the text
//! adds (keys and the aliases read but never written, `static`, RGB
//! colours, flag words, defaults, tracks, lists, sub-blocks like a
//! camera's `Target { }`, a word a block must have, a nested block, a check
//! across fields, words by number, an array in a sub-block, a flag bit
//! another statement says, a word as a key's value, a value spread over
//! keys, keys of some versions only): `Version`, `Sequences` and its
//! `Anim`s, `GlobalSequences`, `Textures` and its `Bitmap`s,
//! `TextureAnims`, `PivotPoints`, `Materials`, `Material` (war3-model's
//! `RenderMode n` read as `ExtFlags n`, `Shader` in 900 and 1000 only) and
//! `Layer` (`FilterMode` a word or a number, the fresnel values, keys of
//! some versions only), `Bone`, `Light`, `Helper`, `Attachment`,
//! `ParticleEmitter` (its `Particle { }`), `ParticleEmitter2` (its
//! `SegmentColor { Color, Color, Color }`, filter mode and head or tail as
//! words by number with `ExtFilterMode`/`ExtHeadOrTail` for the rest,
//! `Squirt`/`ExtSquirt n`), `RibbonEmitter`, `ParticleEmitterPopcorn`,
//! `EventObject` and its `EventTrack`, `CollisionShape`, `Camera`,
//! `GeosetAnim` (its colour flag said by `static Color` or a `Color`
//! track), `FaceFX` and `BindPose`; the node every object starts with and
//! the extent are parts of them (`format_core::mdl::Part`), and the track
//! tables (`tracks.rs`) map track variants to keywords.
//!
//! What this module still writes by hand, each with its reason where it
//! is: the `Model` block (`Num*` counts of the whole model, not fields of
//! its chunk), a layer's texture list (`material.rs`, the `Layer` block's
//! hook, `format_core::mdl::Hook`: the form it is written in is chosen by
//! what the list holds, across three fields), and `Geoset` (faces and
//! matrix groups rebuilt, `Ext*` lists): words the derive does not have
//! yet. The chunk order, `ExtChunk` and the plain writer's repairs are the
//! model's, not a block's. This module was 4,506 lines before the derive,
//! 2,788 before `ParticleEmitter`, `Camera`, `CollisionShape` and
//! `EventObject` were derived, 2,516 before `ParticleEmitter2` and
//! `GeosetAnim` were, 2,238 before `Materials` was, and is 2,080 since (the
//! derive's MDL part, `format-derive/src/mdl`, grew from 1,732 lines to
//! 2,022 for the words the first two needed, and to 2,322 for those of
//! `Materials`).
//!
//! A chunk of the user's own is a block too: see [`Blocks`].
//!
//! # Colours
//!
//! MDX stores every colour blue, green, red (`FLOAT[3] Color`, BGR); MDL
//! writes it red, green, blue, statics and tracks alike, as Blizzard's
//! converter and War3ModelView do (the corpus pairs `wc3lib_Orc_Exp`,
//! `amisd_File00001202_98f1fm0` and `pqw3_BlueUnsummon`): geoset animation
//! `Color`, light `Color` and `AmbColor`, ribbon `Color`, particle
//! `SegmentColor`. mdx-m3-viewer reverses the statics but not the tracks,
//! and war3mdlx changed its mind between commits. The Reforged
//! `FresnelColor` and popcorn `Color` are written as stored (no writer of
//! either is known). A colour an MDL object leaves out is black (lights,
//! ribbons, particle segments, as mdx-m3-viewer reads them) or white
//! (geoset animations).
//!
//! A geoset animation's colour flag (`GEOA` flag 2) has no word: a `static
//! Color` or a `Color` track says it (see
//! [`GeosetAnimation`]).
//!
//! # Real files: strict and lenient
//!
//! [`from_str`] refuses anything out of spec with the line, column and block
//! path (`Geoset 3 > Vertices: line 120, column 7: expected a number, found
//! "}"`). [`from_str_lenient`] accepts what real files are known to do and
//! says so in a [`Diagnostic`] each:
//!
//! | quirk | strict | lenient |
//! |---|---|---|
//! | a header count that disagrees with its block (`Textures 4` with 5 `Bitmap`s) | error | the block's count |
//! | a `Num*` count of the `Model` block that disagrees with the objects | error | the objects' count |
//! | a statement no reader knows (an editor's private keyword) | error | skipped |
//! | a Reforged value in a version without it (`LevelOfDetail`, `Tangents`, `EmissiveGain`, fresnel, `ShaderTypeId`, `ShadowIntensity`, a material `Shader` outside 900 and 1000, `TextureEntry` or a slot key like `NormalTextureID` before 1100) | error | dropped |
//! | a float where an integer belongs (`static TextureSlot 5.5`) | error | truncated |
//! | a string longer than its field or with a NUL in it (war3-model writes a name's NULs and the bytes after them) | error | its first bytes, as many as the field holds |
//! | a `static` value the binary format has no field for (`static Visibility` of an emitter) | error | dropped |
//! | a field given twice in one block (two `Vertices` in a geoset, `static Alpha` then `Alpha 1,`): one would replace the other (tracks, flag words and what adds to a list, like `Layer` or `TVertices`, repeat freely) | error naming both places | the last one |
//! | an `ExtChunk` holding a chunk cut short (the last chunk of a damaged MDX read leniently, [`Chunk::Cut`]) | error | kept as its bytes, so the damaged MDX comes back byte for byte; nothing may follow it (an error in both modes) |
//! | an `ExtChunk` holding a whole chunk whose content does not decode (a damaged MDX's chunk read leniently, [`Chunk::Undecoded`]) | error | kept as its bytes, so the damaged MDX comes back byte for byte |
//!
//! CRLF line ends, UTF-8 names, comments, a byte-order mark and a missing
//! `Version` block (read as version 800) are plain MDL, accepted in both modes.
//! The `Num*` counts of the `Model` block (`NumBones 30`) are checked against
//! the objects read once the whole file is (other `Num*` keys are informative).
//!
//! Hand edits that would lose what was written are errors in both modes: a
//! missing `,` that runs two statements into one (`FilterMode Additive`
//! then `Unshaded,`), a key without its `:`, and a string with no closing
//! `"` on its line (strings have no escapes: `\"` ends one; paths keep
//! their backslashes).
//!
//! # The extension: what MDL has no words for
//!
//! So that MDX -> MDL -> MDX is byte-exact, the writer adds, only where needed,
//! keywords starting with `Ext` and two literal forms. Other MDL readers skip
//! or reject them; plain MDL never needs them.
//!
//! | what | written as |
//! |---|---|
//! | a chunk MDL has no block for (unknown chunks like `MDVI`, `SNDS`, a chunk of objects with no objects, a second chunk of one kind right after the first, any `Chunk` variant added later) | `ExtChunk #"<hex of tag, size and body>",` at its place in the chunk order |
//! | the last chunk of a damaged file, cut short ([`Chunk::Cut`]) | `ExtChunk #"<hex of tag and the bytes there are>",` last (only the lenient reader takes it) |
//! | a chunk of a damaged file whose content does not decode ([`Chunk::Undecoded`]) | `ExtChunk #"<hex of tag, size and body>",` at its place (only the lenient reader takes it) |
//! | an unknown sub-chunk and the rest of its object ([`UnknownTail`](format_core::UnknownTail)) | `ExtTail #"<hex>",` in the object (`ExtNodeTail` for the node's own) at its place in the track list |
//! | a `char[N]` with bytes after its NUL, invalid UTF-8, a `"` or a line break | `#"<hex of the bytes, trailing zeros dropped>"` instead of `"text"` |
//! | a NaN other than `0x7fc00000` | its bits, `0x7fc00001` |
//! | flag bits no word names | `ExtFlags n` (textures, materials, layers, sequences, geosets, geoset animations), `ExtNodeFlags n` (nodes) |
//! | values no word names | `FilterMode n`, `LightType n`, `Interpolation n`, `ExtFilterMode n`, `ExtHeadOrTail n`, `ExtSquirt n` |
//! | face or matrix groups whose counts do not add up | `ExtFaceTypeGroups`, `ExtFaceGroups`, `ExtFaces`, `ExtMatrixGroups`, `ExtMatrixIndices` lists |
//! | light tracks stored after the `LITE` chunk (`MDX_VERSIONS.md` §8.3) | `ExtTracksAfterChunk { tracks }` in the light |
//! | an event object without a `KEVT` track (an `EventObject` without `EventTrack` is an empty `KEVT`, as other tools write it and other MDX readers need it) | `ExtNoEventTrack,` in the event object |
//! | a v1100 layer's texture list with no form in keys (empty, entries out of slot order, a slot twice or above 5, a layer-level texture track beside it) | `TextureEntries n` before its `TextureEntry` blocks |
//!
//! Floats are written in the shortest form that reads back to the same bits
//! (`0.1`, `-0`, `inf`, `1e-45`).
//!
//! # Plain MDL for other tools
//!
//! Other readers stop at the extension (mdx-m3-viewer refuses a file with
//! an `Ext*` key or a `#"hex"` value). [`to_string_plain`] writes the
//! vocabulary they know and lists in [`LeftOut`]s, by block, what it left
//! out: unknown chunks and sub-chunks, a damaged file's cut last chunk,
//! flag bits and values with no word, the bytes after a name's NUL (the
//! name itself is kept; invalid UTF-8 is replaced, a `"` becomes `'`). A value with no word is written as the
//! word a reader assumes without one (`FilterMode 9` as `None`). What has a
//! plain form is written in it, and noted: a chunk of objects right after
//! one of its kind joins it, light tracks stored after the `LITE` chunk
//! move into their light, face groups that do not add up become one
//! triangle list and matrix groups the ones their indices fill, a texture
//! list with no form in keys keeps its first texture. Plain MDL reads back
//! to a model whose plain MDL is the same text. `formats convert IN
//! OUT.mdl --plain` does it from the command line.

mod emitters;
mod geoset;
mod header;
pub(crate) mod material;
mod nodes;
mod tracks;
mod user;

pub use user::Blocks;

/// The syntax and the values are `format_core::mdl`'s, the runtime that
/// derived blocks share with these hand-written ones.
mod syntax {
    pub(crate) use format_core::mdl::{Item, Kind, Stmt, comment_count, parse};
}
mod value {
    pub(crate) use format_core::mdl::{Cx, Out, Rgb, Value, list, raw_of, write_list};
}

use std::collections::HashMap;

use format_core::mdl::Block;
use format_core::{Context, Diagnostic, Result};

use crate::mdx::{
    Attachment, Bone, Camera, Chunk, CollisionShape, CornEmitter, EventObject, FaceEffect,
    GeosetAnimation, Helper, Light, Model, ParticleEmitter, ParticleEmitter2, RibbonEmitter,
    UndecodedChunk,
};
pub use format_core::mdl::LeftOut;
use syntax::Stmt;
use value::{Cx, Out, raw_of};

/// Reads MDL text in strict mode: anything out of spec is an error naming the
/// line, column and block path.
pub fn from_str(text: &str) -> Result<Model> {
    from_str_with(text, &Blocks::new())
}

/// [`from_str`], with blocks of the user's own (see [`Blocks`]): each is
/// read into its chunk, kept in the model as bytes as the MDX reader keeps it.
pub fn from_str_with(text: &str, blocks: &Blocks) -> Result<Model> {
    read(text, false, blocks).map(|(model, _)| model)
}

/// Reads MDL text in lenient mode: the quirks real files have (see the module
/// docs) are accepted, each with a [`Diagnostic`] (its `offset` is the byte
/// offset in the text, its message names line, column and block).
pub fn from_str_lenient(text: &str) -> Result<(Model, Vec<Diagnostic>)> {
    read(text, true, &Blocks::new())
}

/// [`from_str_lenient`], with blocks of the user's own (see [`Blocks`]).
pub fn from_str_lenient_with(text: &str, blocks: &Blocks) -> Result<(Model, Vec<Diagnostic>)> {
    read(text, true, blocks)
}

pub use format_core::mdl::WRITER_MARK;

/// How many comments MDL `text` holds (but the [`WRITER_MARK`] header):
/// what a rewrite in the canonical layout drops, counted by the reader's own
/// rules (`//` to the end of its line, after a value too; `/* */`; none
/// inside a string).
///
/// ```
/// let text = "// mine\nBone \"a//b\" {\n\tParent 26, // \"Bone_Pelvis\"\n\tObjectId /* id */ 1,\n}\n";
/// assert_eq!(formats::mdl::comment_count(text), 3);
/// ```
pub fn comment_count(text: &str) -> usize {
    syntax::comment_count(text)
}

/// Writes the model as MDL. [`from_str`] reads it back to an equal model, whose
/// [`Model::to_bytes`] gives the same bytes as the original.
pub fn to_string(model: &Model) -> String {
    to_string_with(model, &Blocks::new())
}

/// [`to_string`], with blocks of the user's own (see [`Blocks`]): a chunk
/// of one of their types is written as its block, not as `ExtChunk` bytes.
pub fn to_string_with(model: &Model, blocks: &Blocks) -> String {
    let mut out = Out::new();
    out.line(&format!(
        "{WRITER_MARK}; `Ext*` keys and #\"hex\" carry what MDL has no words for."
    ));
    write_model(&mut out, model, blocks);
    out.text
}

/// Plain MDL, as [`to_string_plain`] writes it, and what it left out.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PlainMdl {
    /// The text.
    pub text: String,
    /// What the model holds that plain MDL has no words for, left out.
    pub left_out: Vec<LeftOut>,
}

/// Writes the model as plain MDL, the vocabulary other readers know
/// (mdx-m3-viewer, Retera's Model Studio, War3ModelView): without the
/// extension's `Ext*` keys and `#"hex"` values, so nothing beyond MDL is
/// kept and what is left out is listed. See [the module docs](self#plain-mdl-for-other-tools).
///
/// ```
/// use formats::mdx::Model;
///
/// let mut model = Model::from_bytes(&formats::sample::sample_mdx())?;
/// // A name with bytes after its NUL, as some converters write them.
/// let mut name = [0u8; 80];
/// name[..9].copy_from_slice(b"Root\0junk");
/// model.bones_mut()[0].node.name = formats::core::FixedStr::from_bytes(name);
/// assert!(formats::mdl::to_string(&model).contains("#\""));
///
/// let plain = formats::mdl::to_string_plain(&model)?;
/// assert!(plain.text.contains("Bone \"Root\" {") && !plain.text.contains("#\""));
/// assert_eq!(
///     plain.left_out[0].to_string(),
///     "Bone \"Root\": its name: 4 bytes after its NUL left out"
/// );
/// # Ok::<(), formats::Error>(())
/// ```
///
/// WoW alpha models (1300 and later) have no MDL form: an error.
pub fn to_string_plain(model: &Model) -> Result<PlainMdl> {
    to_string_plain_with(model, &Blocks::new())
}

/// [`to_string_plain`], with blocks of the user's own (see [`Blocks`]),
/// written as blocks (other tools skip or refuse a block they do not know).
pub fn to_string_plain_with(model: &Model, blocks: &Blocks) -> Result<PlainMdl> {
    let version = model.version();
    if !(800..=1200).contains(&version) {
        return Err(format_core::Error::other(format!(
            "MDL is for versions 800 to 1200; this model is version {version}"
        )));
    }
    let mut out = Out::plain();
    out.line(&format!("{WRITER_MARK} (plain MDL)."));
    let stray = model
        .lights()
        .iter()
        .any(|l| !l.tracks_after_chunk.is_empty());
    let repaired = stray.then(|| {
        let mut repaired = model.clone();
        let moved = repaired.repair_sizes();
        out.note(format!(
            "{moved} light tracks stored after the LITE chunk (moved into their light)"
        ));
        repaired
    });
    write_model(&mut out, repaired.as_ref().unwrap_or(model), blocks);
    let left_out = out.left_out();
    Ok(PlainMdl {
        text: out.text,
        left_out,
    })
}

/// Writes the chunks as blocks: in a plain writer, a chunk of objects right
/// after one of its kind joins it (its objects are read into the first).
fn write_model(out: &mut Out, model: &Model, blocks: &Blocks) {
    let mut version = 0;
    let mut previous: Option<&Chunk> = None;
    for chunk in &model.chunks {
        let repeated =
            previous.is_some_and(|p| core::mem::discriminant(p) == core::mem::discriminant(chunk));
        let joins = repeated && is_object_list(chunk);
        // Lossless, it stays a chunk of its own (an `ExtChunk`).
        let kept_apart = joins && !out.is_plain();
        if joins && out.is_plain() {
            out.note(format!(
                "a second `{}` chunk right after the first (its objects join the first)",
                chunk.tag()
            ));
        }
        if let (Chunk::Cut(cut), true) = (chunk, out.is_plain()) {
            // Said in full: a damaged file's last chunk, not an editor's.
            out.note(format!(
                "{} (a damaged file's last chunk, kept as bytes): plain MDL has no form for it",
                cut_chunk(cut)
            ));
        } else if let (Chunk::Undecoded(kept), true) = (chunk, out.is_plain()) {
            out.note(format!(
                "the `{}` chunk whose content does not decode (a damaged file's, kept as its \
                 {} bytes): plain MDL has no form for it",
                kept.tag,
                kept.bytes.len()
            ));
        } else if let Chunk::Unknown(kept) = chunk
            && blocks.write(out, kept, version)
        {
            // A block of the user's own.
        } else if !kept_apart && write_chunk(out, chunk, model) {
            if let Chunk::Version(v) = chunk {
                version = v.version;
            }
        } else {
            write_ext_chunk(out, chunk, version);
        }
        previous = Some(chunk);
    }
}

/// Chunks whose objects are top-level blocks of their own (`Bone`, `Bone`...).
fn is_object_list(chunk: &Chunk) -> bool {
    matches!(
        chunk,
        Chunk::Geosets(_)
            | Chunk::GeosetAnimations(_)
            | Chunk::Bones(_)
            | Chunk::Lights(_)
            | Chunk::Helpers(_)
            | Chunk::Attachments(_)
            | Chunk::ParticleEmitters(_)
            | Chunk::ParticleEmitters2(_)
            | Chunk::RibbonEmitters(_)
            | Chunk::CornEmitters(_)
            | Chunk::Cameras(_)
            | Chunk::EventObjects(_)
            | Chunk::CollisionShapes(_)
            | Chunk::FaceEffects(_)
    )
}

/// Writes `items` with `write`, or returns false for an empty list (which has
/// no MDL form).
fn each<T>(out: &mut Out, items: &[T], write: fn(&mut Out, &T)) -> bool {
    for item in items {
        write(out, item);
    }
    !items.is_empty()
}

/// Writes a chunk as MDL blocks; false if MDL has no form for it.
fn write_chunk(out: &mut Out, chunk: &Chunk, model: &Model) -> bool {
    match chunk {
        Chunk::Version(c) => c.write_block(out),
        Chunk::Model(c) => header::write_model(out, c, model),
        Chunk::Sequences(c) => c.write_block(out),
        Chunk::GlobalSequences(c) => c.write_block(out),
        Chunk::Textures(c) => c.write_block(out),
        Chunk::Materials(c) => c.write_block(out),
        Chunk::TextureAnimations(c) => c.write_block(out),
        Chunk::PivotPoints(c) => c.write_block(out),
        Chunk::Geosets(c) => return each(out, &c.geosets, geoset::write_geoset),
        Chunk::GeosetAnimations(c) => {
            return each(out, &c.animations, |out, a| a.write_block(out));
        }
        Chunk::Bones(c) => return each(out, &c.bones, |out, b| b.write_block(out)),
        Chunk::Lights(c) => return each(out, &c.lights, |out, l| l.write_block(out)),
        Chunk::Helpers(c) => return each(out, &c.helpers, |out, h| h.write_block(out)),
        Chunk::Attachments(c) => return each(out, &c.attachments, |out, a| a.write_block(out)),
        Chunk::ParticleEmitters(c) => return each(out, &c.emitters, |out, e| e.write_block(out)),
        Chunk::ParticleEmitters2(c) => return each(out, &c.emitters, |out, e| e.write_block(out)),
        Chunk::RibbonEmitters(c) => return each(out, &c.emitters, |out, e| e.write_block(out)),
        Chunk::CornEmitters(c) => return each(out, &c.emitters, |out, e| e.write_block(out)),
        Chunk::Cameras(c) => return each(out, &c.cameras, |out, c| c.write_block(out)),
        Chunk::EventObjects(c) => return each(out, &c.objects, |out, e| e.write_block(out)),
        Chunk::CollisionShapes(c) => return each(out, &c.shapes, |out, c| c.write_block(out)),
        Chunk::FaceEffects(c) => return each(out, &c.face_effects, |out, f| f.write_block(out)),
        Chunk::BindPoses(c) => c.write_block(out),
        // Unknown chunks, and any variant added later: binary, in `ExtChunk`.
        _ => return false,
    }
    true
}

/// What a chunk cut short by the end of its file is, for messages: "the
/// `CLID` chunk the file ends inside (124 of its 240 bytes)".
fn cut_chunk(cut: &format_core::CutChunk) -> String {
    format!(
        "the `{}` chunk the file ends inside ({})",
        cut.tag,
        cut.where_cut()
    )
}

/// `ExtChunk #"..."`: the chunk's bytes as the binary writer makes them.
fn write_ext_chunk(out: &mut Out, chunk: &Chunk, version: u32) {
    match format_core::encode(chunk, Context::new().with_version(version)) {
        Ok(bytes) => out.raw("ExtChunk", &bytes),
        // The binary writer refuses it too (`Model::to_bytes` reports why).
        Err(e) => out.line(&format!("// chunk not written: {e}")),
    }
}

fn read(text: &str, lenient: bool, blocks: &Blocks) -> Result<(Model, Vec<Diagnostic>)> {
    let tree = syntax::parse(text)?;
    let mut cx = Cx::new(lenient);
    let mut chunks = Vec::new();
    // Blocks without a name are numbered in the error path (`Geoset 3`);
    // named ones (`Bone "Root"`) and singletons (`Sequences`) name themselves.
    let mut seen: HashMap<String, usize> = HashMap::new();
    for s in &tree {
        if let Some(Chunk::Cut(cut)) = chunks.last() {
            // In MDX a cut chunk runs to the end of the file: a reader
            // would take whatever followed it for its missing bytes.
            return Err(cx.error(
                s.pos,
                format!(
                    "nothing can follow the ExtChunk that holds {}: it is a damaged \
                     file's last chunk",
                    cut_chunk(cut)
                ),
            ));
        }
        let key = s.key().1;
        if matches!(key, "Geoset" | "GeosetAnim") {
            let index = seen.entry(key.to_owned()).or_default();
            let name = format!("{key} {index}");
            *index += 1;
            cx.within(name, |cx| read_block(s, cx, &mut chunks, blocks))?;
        } else {
            read_block(s, &mut cx, &mut chunks, blocks)?;
        }
    }
    let model = Model { chunks };
    header::check_object_counts(&mut cx, &model)?;
    Ok((model, cx.diagnostics.into_inner()))
}

fn read_block(s: &Stmt, cx: &mut Cx, chunks: &mut Vec<Chunk>, blocks: &Blocks) -> Result<()> {
    macro_rules! item {
        ($variant:ident . $field:ident, $read:expr) => {{
            // Appended to the last chunk if it is of the same kind.
            let item = $read(s, cx)?;
            if !matches!(chunks.last(), Some(Chunk::$variant(_))) {
                chunks.push(Chunk::$variant(Default::default()));
            }
            if let Some(Chunk::$variant(c)) = chunks.last_mut() {
                c.$field.push(item);
            }
        }};
    }
    match s.key().1 {
        "Version" => chunks.push(Chunk::Version(Block::read_block(s, cx)?)),
        "Model" => chunks.push(Chunk::Model(header::read_model(s, cx)?)),
        "Sequences" => chunks.push(Chunk::Sequences(Block::read_block(s, cx)?)),
        "GlobalSequences" => chunks.push(Chunk::GlobalSequences(Block::read_block(s, cx)?)),
        "Textures" => chunks.push(Chunk::Textures(Block::read_block(s, cx)?)),
        "Materials" => chunks.push(Chunk::Materials(Block::read_block(s, cx)?)),
        "TextureAnims" => chunks.push(Chunk::TextureAnimations(Block::read_block(s, cx)?)),
        "PivotPoints" => chunks.push(Chunk::PivotPoints(Block::read_block(s, cx)?)),
        "BindPose" => chunks.push(Chunk::BindPoses(Block::read_block(s, cx)?)),
        "Geoset" => item!(Geosets.geosets, geoset::read_geoset),
        // Numbered in the error path by `read` (`GeosetAnim 3`).
        "GeosetAnim" => item!(GeosetAnimations.animations, GeosetAnimation::read_item),
        "Bone" => item!(Bones.bones, Bone::read_block),
        "Light" => item!(Lights.lights, Light::read_block),
        "Helper" => item!(Helpers.helpers, Helper::read_block),
        "Attachment" => item!(Attachments.attachments, Attachment::read_block),
        "ParticleEmitter" => item!(ParticleEmitters.emitters, ParticleEmitter::read_block),
        "ParticleEmitter2" => item!(ParticleEmitters2.emitters, ParticleEmitter2::read_block),
        "RibbonEmitter" => item!(RibbonEmitters.emitters, RibbonEmitter::read_block),
        "ParticleEmitterPopcorn" => item!(CornEmitters.emitters, CornEmitter::read_block),
        "Camera" => item!(Cameras.cameras, Camera::read_block),
        "EventObject" => item!(EventObjects.objects, EventObject::read_block),
        "CollisionShape" => item!(CollisionShapes.shapes, CollisionShape::read_block),
        "FaceFX" => item!(FaceEffects.face_effects, FaceEffect::read_block),
        "ExtChunk" => {
            let bytes = raw_of(s, cx)?;
            let ctx = Context::new().with_version(cx.binary_version);
            let chunk: Chunk = match format_core::decode(bytes, ctx) {
                Ok(chunk) => chunk,
                // The last chunk of a damaged MDX, which `to_string` writes
                // as the bytes it was read from: kept as they are, as the
                // lenient MDX reader keeps it, so MDX -> MDL -> MDX gives
                // the damaged file back.
                Err(e) if format_core::CutChunk::is_cut(bytes) => {
                    let cut: format_core::CutChunk = format_core::decode(bytes, ctx)?;
                    cx.quirk(
                        s.pos,
                        format!("ExtChunk holds {}: {e}", cut_chunk(&cut)),
                        "kept its bytes as they are (Chunk::Cut), to be written back unchanged",
                    )?;
                    Chunk::Cut(cut)
                }
                // A whole chunk whose content does not decode (written from
                // a model the lenient MDX reader took): kept as it is too.
                Err(e) => match format_core::decode::<UndecodedChunk>(bytes, ctx) {
                    Ok(mut kept) => {
                        cx.quirk(
                            s.pos,
                            format!("ExtChunk does not decode: {e}"),
                            "kept its bytes as they are (Chunk::Undecoded), to be written back \
                             unchanged",
                        )?;
                        kept.error = e.to_string();
                        Chunk::Undecoded(kept)
                    }
                    Err(_) => {
                        return Err(cx.error(s.pos, format!("ExtChunk does not decode: {e}")));
                    }
                },
            };
            // A `VERS` in binary sets the version as a `Version` block would.
            if let Chunk::Version(v) = &chunk {
                cx.version = v.version;
                cx.binary_version = v.version;
            }
            chunks.push(chunk);
        }
        _ => match blocks.read(s, cx) {
            Some(kept) => chunks.push(Chunk::Unknown(kept?)),
            None => cx.unknown(s)?,
        },
    }
    Ok(())
}
