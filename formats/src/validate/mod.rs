//! Semantic checks beyond parsing: a file can decode perfectly and still
//! point at a texture that is not there, or be a model a map maker should
//! not ship. Each check returns a list of [`Finding`]s, each with the
//! [`Rule`] it breaks (a stable id and a [`Severity`]), the path of the
//! offending value (in the style of [`format_core::Error`] paths) and a
//! message.
//!
//! - [`model`] (MDX): the structure: every index in range (texture,
//!   material, texture animation, geoset, geoset animation, global sequence,
//!   parent object, vertex), one pivot point per node, object ids
//!   sequential, sequences ordered and not overlapping (in classic models),
//!   keys in time order and inside a sequence, unit normals, a file that
//!   ends inside its last chunk.
//! - [`sanity`] (MDX): what map makers check before they upload, the
//!   categories of the sanity test mdx-m3-viewer ships (the one the Hive
//!   Workshop runs): standard sequences and their names, texture paths the
//!   game loads, unused textures, materials, texture animations and global
//!   sequences, shaders and filter modes, geosets the classic client draws,
//!   vertices bound to bones, bones with vertices, lights' attenuation, the
//!   `Origin Ref` attachment, attachment and emitter paths, emitters that
//!   can emit, event objects that fire, tracks (opening keys, redundant
//!   keys, keys at one frame, visibility), face effects and the bind pose.
//!   Warcraft III models only (versions below 1300).
//! - `extents::model` (MDX, feature `anim`): stored extents against the
//!   geometry posed over every sequence (every version).
//! - [`tile`] (ADT): `MCRF` (and `MCRD`/`MCRW`) references in range,
//!   `MMID`/`MWID` offsets at the start of a name, `MDDF`/`MODF` name ids and
//!   `MCLY` texture ids in range, 256 map chunks each at the place its
//!   indices say, at most four layers, alpha maps within `MCAL`, liquids
//!   within their chunk. [`split_file`]: the same for a `_tex0`/`_obj0`
//!   file of a split tile, on its own.
//!
//! `formats validate` runs [`model`], [`sanity`] and `extents::model` on
//! models (together: [`all`]), [`tile`] on tiles and [`split_file`] on the
//! other files of split tiles, and fails when any finding is an
//! [`Severity::Error`].
//!
//! ```
//! use formats::mdx::Model;
//! use formats::validate::{self, Rule, Severity};
//!
//! let mut model = Model::from_bytes(&formats::sample::sample_mdx())?;
//! assert!(validate::model(&model).is_empty());
//! model.geosets_mut()[0].material_id = 3; // the sample has one material
//! let findings = validate::model(&model);
//! assert_eq!(findings.len(), 1);
//! assert_eq!(findings[0].rule, Rule::MaterialIndex);
//! assert_eq!(findings[0].rule.id(), "material-index");
//! assert_eq!(findings[0].severity(), Severity::Error);
//! assert_eq!(
//!     findings[0].to_string(),
//!     "chunks[5].GEOS.geosets[0].material_id: 3 is out of range: there are 1 materials"
//! );
//! // The sample is no unit: it has Stand and Birth, but no Death.
//! let sanity = validate::sanity(&model);
//! assert_eq!(sanity[0].rule.id(), "missing-death-sequence");
//! # Ok::<(), formats::Error>(())
//! ```
//!
//! # Rules
//!
//! Each rule has a stable id and a severity: **error** (the game draws the
//! model wrongly, not at all, or refuses it), **warning** (the game copes;
//! a map maker wants to know), **info** (something could be smaller). Where
//! Reforged models are graded otherwise than classic ones (a [`Family`]),
//! the severity says so: `error (Reforged: none)` is not reported in
//! Reforged models; a [`Finding`] carries its model's. The category is the
//! section of mdx-m3-viewer's sanity test with the same check (`File` and
//! `Tiles` are beyond it). [`Rule::ALL`] lists them; this table is checked
//! against it by the tests.
//!
//! The mdx-m3-viewer column is how that sanity test grades the same check:
//! error, severe, warning or unused (`—`: it has no such check), for the
//! versions in brackets where it depends on them (`none`: not reported).
//! Its errors are errors here, its warnings warnings, its unused infos; a
//! severe finding is an error where the game always draws the model wrongly
//! and a warning where the viewer says it may. Where a severity differs
//! otherwise, and why:
//!
//! - `pivot-count`: the viewer warns of any count but one point per node.
//!   Fewer points than nodes leave a node without one, an error here; more
//!   are `extra-pivot-points`, a warning as there.
//! - `unsupported-version`: the viewer, older than versions 1100 and 1200,
//!   warns of the versions it does not know; the game reads 800, 1000,
//!   1100 and 1200 and refuses the others.
//! - `bone-without-vertex`: the viewer warns; the game draws the model as
//!   meant, the bone only costs more than a helper would, an info as the
//!   other objects nothing uses.
//!
//! `formats-cli/tests/models/convert_sanity.rs` runs both on the corpus and on its
//! models converted to the other family: every error here is a finding
//! there (but for the rules it does not check), each mirrored rule finds
//! what the viewer finds, and the viewer grades each of its findings as
//! this column says for the model's version.
//!
//! Where the rules differ from the viewer's checks: `sequence-order`
//! reports a sequence once, naming the nearest earlier one it overlaps
//! (the viewer: once per earlier one); `key-outside-sequence` reports
//! keys at frame 0 and lone keys too (the viewer skips them);
//! `texture-path` takes `.tif` from Reforged models only (the viewer: from
//! any); `no-textures` skips models with nothing to draw; `bind-pose-count`
//! wants one matrix per node and camera (Blizzard's portraits), where the
//! viewer wants one more than the nodes; `redundant-key` keeps hermite and
//! bezier keys whose tangents bend the curve; attachments' tracks are
//! checked too; `missing-origin-ref` is reported only in models the game
//! attaches effects to (collision shapes: what players select; or an
//! `Attack` or `Walk` sequence: a unit), and reads names word by word, any
//! case (the viewer checks every model for a name starting `Origin Ref`:
//! it warns of 581 of Blizzard's 1,120 classic models, the spell effects,
//! missiles and spawned models among them, which nothing attaches to; of
//! the 502 with collision shapes or an `Attack` or `Walk` sequence, 9 have
//! no such point, and the war eagle's is `Origin  Ref`). Left out:
//! "negative extents" and the per-sequence extent
//! count (`stale-extent` measures the extents against the geometry, and
//! Blizzard's files mark a geoset hidden in a sequence with an inverted
//! box), and "skin and vertex groups together" (Blizzard's own Reforged
//! files have both).
//!
//! | id | severity | mdx-m3-viewer | category | what | why |
//! |---|---|---|---|---|---|
//! | `texture-index` | error | error | Materials, emitters | an index into `TEXS` out of range (a layer's texture, a texture entry, a `KMTF` key, a particle emitter 2's texture) | the layer or emitter draws garbage or nothing |
//! | `material-index` | error | error | Geosets, emitters | an index into `MTLS` out of range: a geoset (or ribbon emitter) without a material | the geoset is invisible or the game crashes |
//! | `texture-animation-index` | error | error | Materials | a layer's texture animation out of range of `TXAN` | the game reads past the texture animations |
//! | `geoset-index` | error | error | Geoset animations, bones | a geoset animation's or bone's geoset out of range | the game reads past the geosets |
//! | `geoset-animation-index` | error | error | Bones | a bone's geoset animation out of range | the game reads past the geoset animations |
//! | `global-sequence-index` | error | error | Tracks | a track's global sequence out of range of `GLBS` | the track has no clock |
//! | `parent-index` | error | error | Nodes | a parent that is no node, or the node itself | the node tree is broken |
//! | `vertex-index` | error | — | Geosets | a face's vertex index out of range | triangles drawn from memory past the vertices |
//! | `pivot-count` | error | warning | Pivot points | fewer pivot points than nodes | a node past the end of the list has no point to turn about |
//! | `extra-pivot-points` | warning | warning | Pivot points | more pivot points than nodes | leftovers: every node has its own |
//! | `object-ids` | error | — | Nodes | object ids not 0, 1, 2, ... in file order | nodes, pivots and vertex bindings are found by them |
//! | `sequence-order` | error (Reforged: none) | severe (800); none (others) | Sequences | a sequence starting before an earlier one ends (overlapping, or out of order), or where an earlier one starts | the classic client plays keys of one sequence in another; Reforged plays them as meant |
//! | `negative-length-sequence` | warning | warning | Sequences | a sequence that ends before it starts | it has no frame to play |
//! | `key-order` | error | severe | Tracks | keys not in time order | interpolation jumps |
//! | `key-outside-sequence` | info | unused | Tracks | a key outside every sequence (or its global sequence) | it never plays: dead weight |
//! | `normal-length` | warning | — | Geosets | a normal whose length is not 1 (within 1%) | lighting too bright or too dark |
//! | `cut-chunk` | error | — | File | the file (a model or a tile) ends inside its last chunk, or a model's chunk does not decode though its size fits (a lenient read keeps either as bytes) | the file is damaged; what the chunk held is lost |
//! | `stale-extent` | warning | — | Extents | a stored extent (`MODL`, a sequence's, a geoset's, a geoset's per-sequence list) that disagrees with the geometry by more than a tenth of the model's size: geometry beyond both its box and its bounds sphere (posed every 100 ms, as Blizzard's exporter did), a box larger than anything the geometry reaches; extents not set (empty, or a point) are not compared | the game culls a model whose extent is off screen while its geometry shows; a box much larger was left behind by an edit |
//! | `unsupported-version` | error | error (900); warning (others) | Header | a version Warcraft III does not read (not 800, 1000, 1100 or 1200; 900 included) | the game refuses the model |
//! | `missing-header` | warning | — | Header | no `VERS` (readers assume 800) or no `MODL` (name and extents) | every model the game ships has both: the file is damaged or not a whole model |
//! | `animation-file` | warning | warning | Header | `MODL` names an animation file | unused by the game, an exporter's leftover |
//! | `missing-stand-sequence` | warning | severe/warning | Sequences | no `Stand` (or no sequences at all), in a model that is not a portrait or a one-shot effect (every sequence a `Birth` or a `Death`: blood, an impact) | idle models play `Stand`: without it they freeze |
//! | `missing-death-sequence` | warning | severe | Sequences | no `Death`, in a model with sequences that is not a portrait or a one-shot effect | dying units, destroyed doodads, missiles that hit play `Death` |
//! | `missing-portrait-sequence` | warning | — | Sequences | a portrait model (`..._Portrait`, or Portrait sequences only) without `Portrait` or `Portrait Talk` | the portrait frame plays them |
//! | `sequence-name` | warning | warning | Sequences | a name whose first word (after `Alternate`) is no action, or with a word that is neither action nor qualifier (numbers and what follows a `-` are variation marks) | the game picks sequences by these words: this one never plays |
//! | `zero-length-sequence` | warning | warning | Sequences | a sequence that ends where it starts | nothing moves while it plays |
//! | `zero-length-global-sequence` | warning | warning | Global sequences | a global sequence 0 ms long | its tracks stay still |
//! | `unused-global-sequence` | info | unused | Global sequences | a global sequence no track runs on | dead weight |
//! | `texture-path` | error | error | Textures | a path not `.blp`, `.tga`, `.dds` (`.tif` too from version 1000) | the texture shows as missing |
//! | `empty-texture` | error | — | Textures | an empty path without a replaceable id | nothing to load |
//! | `replaceable-id` | error | error | Textures, emitters | a texture's or particle emitter 2's replaceable id other than 1, 2, 11, 21, 31 to 37 | the game has no texture for it |
//! | `replaceable-with-path` | warning | warning | Textures | a texture with both a path and a replaceable id | the game takes the replaceable texture: one of the two is a mistake |
//! | `no-textures` | warning | warning | Textures | no textures in a model with geosets, particle emitters 2 or ribbon emitters | its layers and emitters have no image |
//! | `unused-texture` | info | unused | Textures | a texture no layer or particle emitter 2 uses | loaded for nothing |
//! | `material-without-layers` | warning | warning | Materials | a material with no layers | its geosets draw nothing |
//! | `unknown-shader` | warning | warning | Materials | a shader other than `Shader_SD_FixedFunction` and `Shader_HD_DefaultUnit` (900, 1000), a layer `shaderTypeId` other than 0 and 1 (from 1100) | drawn with another shader, or not at all |
//! | `unknown-filter-mode` | warning | warning | Materials, emitters | a layer's filter mode above 6, a particle emitter 2's above 4 | blended in a mode the game does not have |
//! | `unused-material` | info | unused | Materials | a material no geoset or ribbon emitter uses | dead weight |
//! | `unused-texture-animation` | info | unused | Texture animations | a texture animation no layer uses | dead weight |
//! | `geoset-vertex-limit` | error | severe | Geosets | more than 7432 vertices in a geoset drawn by the classic (SD) renderer | the classic client draws it broken |
//! | `geoset-without-faces` | warning | warning | Geosets | a geoset with no faces | draws nothing; Magos crashes on it |
//! | `vertex-skinning` | error | error/severe | Geosets | a vertex bound to no group, no node, or a node that is not a bone; `SKIN` weights not adding up to 255 (models with bones) | the vertex stays behind or stretches |
//! | `geoset-animated-twice` | warning | warning | Geosets | a geoset several geoset animations name | one of them applies |
//! | `bone-without-vertex` | info | warning | Bones | a bone no vertex is bound to | it could be a cheaper helper |
//! | `invisible-bone-geoset` | warning | severe | Bones | a bone whose geoset animation has alpha below 0.1 and no alpha track | its geoset may be invisible |
//! | `light-attenuation` | warning | warning | Lights | attenuation starting below 80, ending above 200, or not ending after it starts | the light reaches too little or too far, or nowhere |
//! | `attachment-path` | error | error | Attachments | an attachment path that is not an `.mdl`/`.mdx` | the game cannot attach it |
//! | `missing-origin-ref` | warning | warning | Attachments | no attachment named `Origin Ref` (any case, numbered or not, word by word) in a model with collision shapes or an `Attack` or `Walk` sequence (what players select, a unit) | effects the game attaches to the origin have no point |
//! | `emitter-missing-texture` | error | — | Emitters | a particle emitter 2 whose texture has no path and no replaceable id, a ribbon emitter whose material has no layer with a texture (out-of-range indices: `texture-index`, `material-index`) | its particles draw nothing |
//! | `emitter-path` | error | error | Emitters | a particle emitter's model not `.mdl`/`.mdx`, a popcorn emitter's file not `.pkfx` | the game cannot spawn it |
//! | `xy-quad-without-speed` | error | severe | Emitters | an `XYQuad` particle emitter 2 with speed or latitude 0 | its particles have no motion to lie along |
//! | `emitter-time-middle` | error | severe | Emitters | a particle emitter 2's time middle outside 0..1 | above 1 its particles die before their middle colour, alpha and scale; below 0 they are born past them |
//! | `squirt-without-track` | error | severe | Emitters | a squirting particle emitter 2 without an emission rate track (`KP2E`) | it never emits |
//! | `popcorn-without-guide` | error | severe | Emitters | a popcorn emitter with no animation visibility guide | the game does not know when to play it |
//! | `event-without-keys` | error | error | Event objects | an event object with no `KEVT` keys | it never fires |
//! | `empty-track` | warning | warning | Tracks | a track without keys | it animates nothing |
//! | `track-without-sequence` | warning | warning | Tracks | a track on the sequences' clock in a model without sequences | it never runs |
//! | `duplicate-key-frame` | warning | warning | Tracks | two keys at one frame | the value jumps; one is never reached |
//! | `visibility-interpolation` | warning | warning | Tracks | a visibility track that interpolates | the game steps visibility: fades do not show |
//! | `magos-emitter-track` | warning | warning | Tracks | a particle emitter 2 variation (`KP2R`) or gravity (`KP2G`) track | Magos does not read them in MDX |
//! | `missing-opening-key` | warning | severe | Tracks | an interpolated track with keys in a sequence but none at its start, the first and last there differing | the animation can warp as the sequence starts |
//! | `redundant-key` | info | unused | Tracks | a key with the value of the keys around it in its sequence (within 0.001; hermite and bezier keys with flat tangents) | dead weight (`formats optimize` drops it where the track then stays within its tolerance: the rule compares each component, the optimizer the distance, so a key at the edge may stay) |
//! | `face-effect-path` | error | error | Face effects | a `FAFX` path not `.facefx`/`.facefx_ingame` | the game cannot load the face animation |
//! | `bind-pose-count` | warning | warning | Bind pose | a `BPOS` without one matrix per node and camera | nodes take another's bind pose, or none |
//! | `mcrf-reference` | error | — | Tiles | an `MCRF` entry out of range of `MDDF` or `MODF` | a doodad or object that is not there |
//! | `name-offset` | error | — | Tiles | an `MMID`/`MWID` offset not at the start of a name | a file name read from the middle of another |
//! | `name-id` | error | — | Tiles | an `MDDF`/`MODF` `nameId` out of range | the placement has no model |
//! | `chunk-count` | error | — | Tiles | a tile without its 256 `MCNK`s | holes in the ground, or the tile refused |
//! | `chunk-index` | warning | — | Tiles | an `MCNK`'s `IndexX`/`IndexY` not its place in the tile | tools place it elsewhere than its neighbours expect |
//! | `chunk-position` | error | — | Tiles | an `MCNK`'s `position` not the corner its indices give | a gap or an overlap in the ground |
//! | `layer-count` | warning | — | Tiles | an `MCLY` with more than 4 layers | the client draws four |
//! | `alpha-offset` | error | — | Tiles | a layer's alpha map not within `MCAL` (past its end, too short, or a compressed map that does not decode) | its alpha map is read from outside the chunk |
//! | `liquid-extent` | error | — | Tiles | an `MH2O` instance reaching past its chunk's 8 x 8 tiles | the liquid spills into the neighbour, or the client crashes |
//!
//! # Adding a check
//!
//! A model check is a `fn(&Model, &mut Findings)` in a file of its own,
//! listed in the `CHECKS` of `sanity/mod.rs` (or called from [`model`] for
//! the structure), with its rules declared in `rule.rs` (a severity for
//! each family where they differ) and listed in the table above and in
//! `docs/sweeps.md`'s count of how often each fires, and a test in
//! `formats/tests/validate/rules.rs` that breaks each rule on a built or real
//! model.

pub mod adt;
#[cfg(feature = "anim")]
pub mod extents;
pub mod mdx;
mod rule;
mod sanity;
mod walk;

pub use adt::{split_file, tile};
pub use mdx::model;
pub use rule::{Family, Rule, Severity};
#[cfg(feature = "gltf")]
pub(crate) use sanity::played;
pub use sanity::{SEQUENCE_ACTIONS, SEQUENCE_QUALIFIERS, sanity};

use core::fmt;

use crate::mdx::{Chunk, Model};

/// Every check of a model, in the order `formats validate` reports them:
/// [`model`], then [`sanity`], then (feature `anim`) `extents::model`.
///
/// ```
/// use formats::mdx::Model;
/// use formats::validate;
///
/// let mut model = Model::from_bytes(&formats::sample::sample_mdx())?;
/// let ids = |model: &Model| -> Vec<&str> {
///     validate::all(model).iter().map(|f| f.rule.id()).collect()
/// };
/// // No Death; no unit (no Attack, Walk or collision shape), so no need of
/// // an "Origin Ref" attachment point.
/// assert_eq!(ids(&model), ["missing-death-sequence"]);
/// model.sequences_mut()[1].name.set("Walk")?; // was Birth: a unit now
/// // "Stand" lifts the cube to 1: say it stays below 0.5, in no sphere.
/// let stand = &mut model.sequences_mut()[0].extent;
/// (stand.maximum[2], stand.bounds_radius) = (0.5, 0.0);
/// # #[cfg(feature = "anim")]
/// assert_eq!(
///     ids(&model),
///     ["missing-death-sequence", "missing-origin-ref", "stale-extent"]
/// );
/// # Ok::<(), formats::Error>(())
/// ```
pub fn all(model: &Model) -> Vec<Finding> {
    let mut findings = self::model(model);
    findings.extend(sanity(model));
    #[cfg(feature = "anim")]
    findings.extend(extents::model(model));
    findings
}

/// One thing a check found.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Finding {
    /// The rule broken.
    pub rule: Rule,
    /// Where (`chunks[4].MTLS.materials[0].layers[1].texture_id`).
    pub path: String,
    /// What is wrong, with the values involved.
    pub message: String,
    /// The rule's severity in the checked file's [`Family`].
    severity: Severity,
}

impl Finding {
    /// How much it matters: the rule's severity in the [`Family`] of the
    /// model it was found in ([`Rule::severity_in`]; a tile's is
    /// [`Rule::severity`]).
    pub fn severity(&self) -> Severity {
        self.severity
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// Collects the findings of one file, graded for its family (a tile's,
/// [`Default`], as classic: it has no version).
#[derive(Default)]
struct Findings {
    found: Vec<Finding>,
    family: Family,
}

impl Findings {
    /// For a model: graded by its version's family.
    fn of(model: &Model) -> Findings {
        Findings {
            found: Vec::new(),
            family: Family::of(model.version()),
        }
    }

    /// Adds a finding, unless `rule` reports nothing in the file's family.
    fn push(&mut self, rule: Rule, path: impl Into<String>, message: impl Into<String>) {
        let Some(severity) = rule.severity_in(self.family) else {
            return;
        };
        self.found.push(Finding {
            rule,
            path: path.into(),
            message: message.into(),
            severity,
        });
    }

    /// `value` must index a list of `len` `what`s.
    fn index(&mut self, rule: Rule, path: impl Into<String>, value: i64, len: usize, what: &str) {
        if value < 0 || value as u64 >= len as u64 {
            self.push(
                rule,
                path,
                format!("{value} is out of range: there are {len} {what}"),
            );
        }
    }
}

/// `n` and its noun, `one` or `many` (`1 sequence`, `3 matrices`), for
/// messages.
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The path of the model's first chunk with `tag` (`chunks[3].TEXS`), or
/// `tag` alone when it has none (a chunk kept as bytes does not count).
fn chunk_at(model: &Model, tag: &str) -> String {
    model
        .chunks
        .iter()
        .position(|c| {
            !matches!(c, Chunk::Unknown(_) | Chunk::Cut(_) | Chunk::Undecoded(_))
                && c.tag().0 == tag.as_bytes()
        })
        .map_or(tag.into(), |i| format!("chunks[{i}].{tag}"))
}
