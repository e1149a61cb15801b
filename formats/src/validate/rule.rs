//! Every rule, declared once: its stable id, its severity (and where
//! Reforged models differ, theirs), the category of mdx-m3-viewer's sanity
//! test it belongs to, what it finds and why that matters. The table in the
//! [module](super) docs, and the rules `docs/sweeps.md` counts, are checked
//! against this list by `formats/tests/validate/rules.rs`.

use core::fmt;

/// How much a [`Finding`](super::Finding) matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Severity {
    /// Nothing breaks; something could be smaller or cleaner (an unused
    /// texture, a bone no vertex follows).
    Info,
    /// The game copes, but a map maker wants to know (a sequence name the
    /// game does not recognise, a missing `Death`).
    Warning,
    /// The game draws the model wrongly, not at all, or refuses it.
    Error,
}

impl Severity {
    /// `error`, `warning` or `info`.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The two families of Warcraft III models, whose findings a rule may grade
/// differently: the game fixed some of the classic client's flaws in
/// Reforged.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// Version 800, and every version Reforged does not write (older ones,
    /// WoW alpha's 1300 and 1400). Tiles, which have no version, are graded
    /// as these (no tile rule differs).
    #[default]
    Classic,
    /// Versions above 800 and below 1300: what Reforged writes (1000, 1100,
    /// 1200; and 900, which no game reads: `unsupported-version`).
    Reforged,
}

impl Family {
    /// The family of a model of `version` (mdx-m3-viewer's sanity test tells
    /// them apart the same way: `version > 800`).
    pub fn of(version: u32) -> Family {
        if version > 800 && version < crate::mdx::alpha::FIRST_VERSION {
            Family::Reforged
        } else {
            Family::Classic
        }
    }
}

/// A Reforged model's severity for a rule declared `Classic (Reforged:
/// Other)`: `None` is not reported.
macro_rules! reforged {
    ($classic:ident) => {
        Some(Severity::$classic)
    };
    ($classic:ident, None) => {
        None
    };
    ($classic:ident, $reforged:ident) => {
        Some(Severity::$reforged)
    };
}

/// Declares [`Rule`] and its table: `Variant = "id", Severity, "category",
/// "what", "why";`, where a Reforged model's severity differs `Variant =
/// "id", Severity (Reforged: Severity), ...` (`None`: not reported there).
macro_rules! rules {
    ($( $variant:ident = $id:literal, $severity:ident $( (Reforged: $reforged:ident) )?,
        $category:literal, $what:literal, $why:literal; )*) => {
        /// The rule a [`Finding`](super::Finding) breaks. Its [`id`](Rule::id)
        /// is stable (the CLI prints it, `--json` and serde use it). Ordered
        /// as in the documentation's table.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        pub enum Rule {
            $(
                #[doc = $what]
                #[cfg_attr(feature = "serde", serde(rename = $id))]
                $variant,
            )*
        }

        impl Rule {
            /// Every rule, in the order of the documentation's table.
            pub const ALL: &'static [Rule] = &[$(Rule::$variant),*];

            /// The stable id (`missing-stand-sequence`).
            pub fn id(self) -> &'static str {
                match self { $(Rule::$variant => $id,)* }
            }

            /// How much a finding of this rule matters in a classic model or
            /// a tile. A Reforged model's may differ
            /// ([`severity_in`](Rule::severity_in)); a finding carries its
            /// own ([`Finding::severity`](super::Finding::severity)).
            pub fn severity(self) -> Severity {
                match self { $(Rule::$variant => Severity::$severity,)* }
            }

            /// How much a finding of this rule matters in a model of
            /// `family`; `None` where the rule reports nothing there.
            pub fn severity_in(self, family: Family) -> Option<Severity> {
                match family {
                    Family::Classic => Some(self.severity()),
                    Family::Reforged => match self {
                        $(Rule::$variant => reforged!($severity $(, $reforged)?),)*
                    },
                }
            }

            /// The category of mdx-m3-viewer's sanity test the rule belongs
            /// to (`Sequences`, `Textures`, ...; `File` and `Tiles` for what
            /// it does not test).
            pub fn category(self) -> &'static str {
                match self { $(Rule::$variant => $category,)* }
            }

            /// What the rule finds.
            pub fn what(self) -> &'static str {
                match self { $(Rule::$variant => $what,)* }
            }

            /// Why it matters.
            pub fn why(self) -> &'static str {
                match self { $(Rule::$variant => $why,)* }
            }

            /// The rule with this id.
            pub fn from_id(id: &str) -> Option<Rule> {
                match id { $($id => Some(Rule::$variant),)* _ => None }
            }
        }
    };
}

rules! {
    // The structure of the file: run by `validate::model`.
    TextureIndex = "texture-index", Error, "Materials, emitters",
        "An index into `TEXS` out of range (a layer's texture, a texture entry, a `KMTF` key, a particle emitter 2's texture).",
        "The game reads past the texture list: the layer or emitter draws garbage or nothing.";
    MaterialIndex = "material-index", Error, "Geosets, emitters",
        "An index into `MTLS` out of range: a geoset (or ribbon emitter) without a material.",
        "Nothing says how to draw the geoset: it is invisible or the game crashes.";
    TextureAnimationIndex = "texture-animation-index", Error, "Materials",
        "A layer's texture animation index out of range of `TXAN` (-1 is none).",
        "The game reads past the texture animations.";
    GeosetIndex = "geoset-index", Error, "Geoset animations, bones",
        "An index into `GEOS` out of range (a geoset animation's geoset, a bone's geoset).",
        "The geoset animation animates nothing, or the game reads past the geosets.";
    GeosetAnimationIndex = "geoset-animation-index", Error, "Bones",
        "An index into `GEOA` out of range (a bone's geoset animation).",
        "The game reads past the geoset animations.";
    GlobalSequenceIndex = "global-sequence-index", Error, "Tracks",
        "A track's `globalSequenceId` out of range of `GLBS`.",
        "The track has no clock to run on.";
    ParentIndex = "parent-index", Error, "Nodes",
        "A `parentId` that is no node's object id, or the node's own.",
        "The node tree is broken: the node hangs from nothing or from itself.";
    VertexIndex = "vertex-index", Error, "Geosets",
        "A face's vertex index out of range of its geoset.",
        "The game draws triangles from memory past the vertices.";
    PivotCount = "pivot-count", Error, "Pivot points",
        "Fewer points in `PIVT` than nodes.",
        "A node past the end of the list has no pivot point: it turns about whatever a reader takes for one (mdx-m3-viewer: the origin).";
    ExtraPivotPoints = "extra-pivot-points", Warning, "Pivot points",
        "More points in `PIVT` than nodes.",
        "No node turns about the points past the last node: leftovers of deleted nodes (every node has its own, so the game draws the model as meant).";
    ObjectIds = "object-ids", Error, "Nodes",
        "Object ids, in file order, are not 0, 1, 2, ...",
        "The game finds nodes, pivots and vertex bindings by these ids.";
    SequenceOrder = "sequence-order", Error (Reforged: None), "Sequences",
        "A sequence starting before an earlier one ends (overlapping sequences, or sequences out of order), or where an earlier one starts (a 0 ms one).",
        "The classic client plays such sequences wrongly: keys of one play in another. Reforged plays them as meant (mdx-m3-viewer checks version 800 only: \"Reforged fixed these weird issues with sequence ordering\"): a Reforged model's are not reported; converted to 800, it must have them laid out in order.";
    NegativeLengthSequence = "negative-length-sequence", Warning, "Sequences",
        "A sequence that ends before it starts.",
        "There is no frame between its start and its end to play.";
    KeyOrder = "key-order", Error, "Tracks",
        "A track's keys not in time order.",
        "Interpolation between keys out of order jumps and warps.";
    KeyOutsideSequence = "key-outside-sequence", Info, "Tracks",
        "A key outside every sequence (or outside its global sequence, `0..=length`); a model without sequences has nothing to be outside of.",
        "The key never plays: dead weight, or a sign that a sequence was moved.";
    NormalLength = "normal-length", Warning, "Geosets",
        "A vertex normal whose length is not 1 (within 1%).",
        "Lighting on those vertices is too bright or too dark.";
    CutChunk = "cut-chunk", Error, "File",
        "The file (a model or a tile) ends inside its last chunk, or a model's chunk does not decode though its size fits (either kept as bytes by a lenient read).",
        "The file is damaged: the game reads past its end or misreads the chunk; what the chunk held is lost.";
    // The geometry: run by `validate::extents::model` (feature `anim`).
    StaleExtent = "stale-extent", Warning, "Extents",
        "A stored extent (`MODL`, a sequence's, a geoset's, or a geoset's list per sequence) that disagrees with the geometry by more than a tenth of the model's size: geometry beyond both its box and its bounds sphere, posed every 100 ms as Blizzard's exporter posed it; a box larger than anything the geometry reaches; a list of another length than the sequences. Extents not set (empty, or a point) are not compared.",
        "The game culls a model whose extent is off screen: geometry beyond it vanishes while it should show. A box much larger than the geometry was left behind by an edit.";
    // The map-maker checks: run by `validate::sanity`.
    UnsupportedVersion = "unsupported-version", Error, "Header",
        "A `VERS` version Warcraft III does not read (800 classic, 1000, 1100, 1200 Reforged; 900 is not read).",
        "The game refuses the model.";
    MissingHeader = "missing-header", Warning, "Header",
        "No `VERS` chunk (readers assume 800) or no `MODL` chunk (the model's name and extents).",
        "Every model the game ships has both: a file without them is damaged or not a whole model.";
    AnimationFile = "animation-file", Warning, "Header",
        "`MODL` names an animation file.",
        "The game does not use it; it is an exporter's leftover.";
    MissingStandSequence = "missing-stand-sequence", Warning, "Sequences",
        "No `Stand` sequence (or no sequences at all), in a model that is not a portrait.",
        "Idle units, doodads and effects play `Stand`: without it the model freezes in its bind pose.";
    MissingDeathSequence = "missing-death-sequence", Warning, "Sequences",
        "No `Death` sequence, in a model with sequences that is not a portrait.",
        "Dying units, destroyed doodads and missiles that hit play `Death`: without it they vanish at once.";
    MissingPortraitSequence = "missing-portrait-sequence", Warning, "Sequences",
        "A portrait model (named `..._Portrait`, or with Portrait sequences only) without `Portrait` or `Portrait Talk`.",
        "The portrait frame plays `Portrait`, and `Portrait Talk` while the unit speaks.";
    SequenceName = "sequence-name", Warning, "Sequences",
        "A sequence name outside the game's vocabulary: its first word (after `Alternate`) is not an action (`Stand`, `Walk`, `Attack`, ...), or a word is neither an action nor a qualifier (`Alternate`, `Upgrade`, `First`, `Swim`, `Gold`, `Slam`, `Talk`, ...). Numbers and anything after a `-` are variation marks.",
        "The game picks sequences by these words: a sequence named otherwise never plays.";
    ZeroLengthSequence = "zero-length-sequence", Warning, "Sequences",
        "A sequence that ends where it starts.",
        "Nothing moves while it plays.";
    ZeroLengthGlobalSequence = "zero-length-global-sequence", Warning, "Global sequences",
        "A global sequence 0 ms long.",
        "Tracks on it stay at one value.";
    UnusedGlobalSequence = "unused-global-sequence", Info, "Global sequences",
        "A global sequence no track runs on.",
        "Dead weight.";
    TexturePath = "texture-path", Error, "Textures",
        "A texture path the game cannot load: not `.blp`, `.tga` or `.dds` (`.tif` too from version 1000, whose HD textures are named so).",
        "The game shows the texture as missing (green or black).";
    EmptyTexture = "empty-texture", Error, "Textures",
        "A texture with an empty path and no replaceable id.",
        "There is no image to load: whatever uses it draws nothing.";
    ReplaceableId = "replaceable-id", Error, "Textures, emitters",
        "A texture's or particle emitter 2's replaceable id the game does not know (it knows 1, 2, 11, 21 and 31 to 37).",
        "The game has no texture to put there.";
    ReplaceableWithPath = "replaceable-with-path", Warning, "Textures",
        "A texture with both a path and a replaceable id.",
        "The game takes the replaceable texture (team colour, a tree): the path is a leftover, or the replaceable id a mistake.";
    NoTextures = "no-textures", Warning, "Textures",
        "A model with no textures that has something to draw with them (geosets, particle emitters 2, ribbon emitters).",
        "Its layers and emitters have no image to draw.";
    UnusedTexture = "unused-texture", Info, "Textures",
        "A texture no layer or particle emitter 2 uses.",
        "The game loads it for nothing.";
    MaterialWithoutLayers = "material-without-layers", Warning, "Materials",
        "A material with no layers.",
        "Geosets with this material draw nothing.";
    UnknownShader = "unknown-shader", Warning, "Materials",
        "A material shader other than `Shader_SD_FixedFunction` and `Shader_HD_DefaultUnit` (or none), versions 900 and 1000; a layer `shaderTypeId` other than 0 (SD) and 1 (HD), from version 1100.",
        "The game knows these two shaders only: it draws the material with another one, or not at all.";
    UnknownFilterMode = "unknown-filter-mode", Warning, "Materials, emitters",
        "A layer's filter mode above 6 (modulate 2x), or a particle emitter 2's above 4 (alpha key).",
        "The game blends with a mode it does not have: the layer or particles draw wrongly.";
    UnusedMaterial = "unused-material", Info, "Materials",
        "A material no geoset or ribbon emitter uses.",
        "Dead weight.";
    UnusedTextureAnimation = "unused-texture-animation", Info, "Texture animations",
        "A texture animation no layer uses.",
        "Dead weight.";
    GeosetVertexLimit = "geoset-vertex-limit", Error, "Geosets",
        "A geoset with more than 7432 vertices, drawn by the classic (SD) renderer (HD materials excepted).",
        "The classic client draws such a geoset completely broken (7433 vertices failed, 7394 drew, in mdx-m3-viewer's tests).";
    GeosetWithoutFaces = "geoset-without-faces", Warning, "Geosets",
        "A geoset with no faces.",
        "It draws nothing, and Magos crashes on it.";
    VertexSkinning = "vertex-skinning", Error, "Geosets",
        "A vertex not bound to a bone: its matrix group, or a `SKIN` slot, names no group, no node, or a node that is not a bone; `SKIN` weights that do not add up to 255 (only in models with bones).",
        "The vertex stays behind at the origin or stretches across the model.";
    GeosetAnimatedTwice = "geoset-animated-twice", Warning, "Geosets",
        "A geoset that several geoset animations name.",
        "The game uses one of them: the others animate nothing.";
    BoneWithoutVertex = "bone-without-vertex", Info, "Bones",
        "A bone no vertex is bound to.",
        "It could be a helper, which the game animates more cheaply.";
    InvisibleBoneGeoset = "invisible-bone-geoset", Warning, "Bones",
        "A bone naming a geoset and a geoset animation whose static alpha is below 0.1 with no alpha track.",
        "The geoset may be invisible throughout.";
    LightAttenuation = "light-attenuation", Warning, "Lights",
        "A light whose attenuation starts below 80, ends above 200, or does not end after it starts.",
        "The game's lights are made for attenuation between 80 and 200 (mdx-m3-viewer's bounds): beyond them the light covers too little or too much, and an end before the start lights nothing.";
    AttachmentPath = "attachment-path", Error, "Attachments",
        "An attachment path that is not an `.mdl` or `.mdx` model.",
        "The game cannot attach it.";
    MissingOriginRef = "missing-origin-ref", Warning, "Attachments",
        "No attachment named `Origin Ref` (any case, numbered or not, the words read as the game reads them) in a model the game attaches effects to: one with collision shapes (what players select: units, buildings, items) or an `Attack` or `Walk` sequence (a unit).",
        "Effects the game attaches to `origin` (buffs, auras, spell effects) have no point to attach to.";
    EmitterMissingTexture = "emitter-missing-texture", Error, "Emitters",
        "A particle emitter 2 without a replaceable id whose texture has neither a path nor a replaceable id, or a ribbon emitter whose material has no layer with such a texture (indices out of range are `texture-index` and `material-index`).",
        "The emitter's particles draw nothing.";
    EmitterPath = "emitter-path", Error, "Emitters",
        "A particle emitter whose model path is not an `.mdl` or `.mdx`, or a popcorn emitter whose path is not a `.pkfx`.",
        "The game cannot spawn it.";
    XyQuadWithoutSpeed = "xy-quad-without-speed", Error, "Emitters",
        "A particle emitter 2 with the `XYQuad` flag and a speed or latitude of 0.",
        "XY quad particles lie along their motion: without speed and spread they have none to lie along and draw wrongly.";
    EmitterTimeMiddle = "emitter-time-middle", Error, "Emitters",
        "A particle emitter 2 whose time middle (`time`) is not between 0 and 1.",
        "It is the fraction of a particle's life at which its colour, alpha and scale reach their middle values: above 1 the particle dies before it reaches them (or its end values), below 0 it is born past them (its start values never show).";
    SquirtWithoutTrack = "squirt-without-track", Error, "Emitters",
        "A particle emitter 2 with `squirt` set and no emission rate track (`KP2E`).",
        "A squirting emitter emits a burst at each emission rate key: without keys it never emits.";
    PopcornWithoutGuide = "popcorn-without-guide", Error, "Emitters",
        "A popcorn emitter (`CORN`) with an empty animation visibility guide (`Always=on, Death=off`).",
        "The guide says in which animations the effect plays: without it the game does not know when to play it.";
    EventWithoutKeys = "event-without-keys", Error, "Event objects",
        "An event object with no `KEVT` track, or one with no keys.",
        "The event (a sound, a footprint, a splat) never fires.";
    EmptyTrack = "empty-track", Warning, "Tracks",
        "An animation track with no keys.",
        "It animates nothing: dead weight, or the sign of a broken export.";
    TrackWithoutSequence = "track-without-sequence", Warning, "Tracks",
        "A track on the sequences' clock (no global sequence) in a model with no sequences.",
        "No sequence plays it: it never runs.";
    DuplicateKeyFrame = "duplicate-key-frame", Warning, "Tracks",
        "Two keys of a track at the same frame.",
        "The value jumps at that frame: one of the two keys is never reached.";
    VisibilityInterpolation = "visibility-interpolation", Warning, "Tracks",
        "A visibility track (`KATV`, `KLAV`, `KPEV`, `KP2V`, `KPPV`, `KRVS`) that interpolates (linear, hermite, bezier).",
        "The game steps visibility whatever the interpolation: a fade the track describes does not show.";
    MagosEmitterTrack = "magos-emitter-track", Warning, "Tracks",
        "A particle emitter 2 track of variation (`KP2R`) or gravity (`KP2G`).",
        "Magos does not implement them for MDX: the model animates otherwise there.";
    MissingOpeningKey = "missing-opening-key", Warning, "Tracks",
        "An interpolated track with keys in a sequence (or global sequence) but none at its start, where the first and last of those keys differ.",
        "The value at the start is interpolated from the previous sequence's keys: the animation can warp as it starts.";
    RedundantKey = "redundant-key", Info, "Tracks",
        "A key whose value is the value of the keys before and after it in its sequence (within 0.001; a hermite or bezier key with flat tangents).",
        "Interpolation gives the same value without it: dead weight (`formats optimize` drops it where the track stays within its tolerance).";
    FaceEffectPath = "face-effect-path", Error, "Face effects",
        "A face effect (`FAFX`) path that is not a `.facefx` or `.facefx_ingame` file.",
        "The game cannot load the face animation: the portrait does not talk.";
    BindPoseCount = "bind-pose-count", Warning, "Bind pose",
        "A `BPOS` chunk that does not have one matrix per node and camera.",
        "Reforged reads one matrix per node, then per camera, in order: with another count nodes take another's matrix, or none.";
    // ADT tiles: run by `validate::tile`.
    McrfReference = "mcrf-reference", Error, "Tiles",
        "An `MCRF` entry out of range of `MDDF` or `MODF`.",
        "The map chunk refers to a doodad or object that is not there.";
    NameOffset = "name-offset", Error, "Tiles",
        "An `MMID`/`MWID` offset not at the start of a name in `MMDX`/`MWMO`.",
        "The client reads a file name from the middle of another.";
    NameId = "name-id", Error, "Tiles",
        "An `MDDF`/`MODF` `nameId` out of range of `MMID`/`MWID`.",
        "The placement has no model.";
    ChunkCount = "chunk-count", Error, "Tiles",
        "A tile without its 16 x 16 = 256 `MCNK` map chunks.",
        "The client reads 256 map chunks through `MCIN`: the missing ones are holes in the ground, or the tile is refused.";
    ChunkIndex = "chunk-index", Warning, "Tiles",
        "An `MCNK` whose `IndexX`/`IndexY` are not its place in the tile (column `i % 16`, row `i / 16`).",
        "Tools that place chunks by their indices (and the client's culling) put it somewhere else than its neighbours expect.";
    ChunkPosition = "chunk-position", Error, "Tiles",
        "An `MCNK` with heights whose `position` is not the corner its `IndexX`/`IndexY` give in the tile the first `MCNK` places (feature `terrain`).",
        "The game draws the chunk where its position says, away from its neighbours: a gap or an overlap in the ground (`formats export` places it by its indices, and warns).";
    LayerCount = "layer-count", Warning, "Tiles",
        "An `MCLY` with more than 4 texture layers.",
        "The client draws four: the others are not painted.";
    AlphaOffset = "alpha-offset", Error, "Tiles",
        "An `MCLY` layer whose alpha map does not fit in `MCAL` from its `offsetInMCAL`: past the end, fewer bytes left than the smallest uncompressed map (2048, 4-bit), or a compressed map that does not decode.",
        "The layer's alpha map is read from outside the chunk: the texture blends with garbage.";
    LiquidExtent = "liquid-extent", Error, "Tiles",
        "An `MH2O` liquid instance reaching past its chunk's 8 x 8 liquid tiles (`x_offset + width` or `y_offset + height` over 8).",
        "The client reads the liquid's heights and tiles past the chunk: water spills into the neighbour, or the map crashes.";
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}
