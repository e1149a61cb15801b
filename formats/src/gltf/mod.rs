//! glTF 2.0 out and in (feature `gltf`): models ([`export`]) and, with the
//! `terrain` feature, terrain tiles ([`export_tile`], [`export_tile_in`]) as
//! glTF documents, written as one `.glb` or as a `.gltf` with its `.bin` and
//! images ([`Document`]); and the document [`Builder`] both are made with,
//! for exporters of other things.
//!
//! | item | what for |
//! |---|---|
//! | [`export`], [`ExportOptions`], [`Export`] | a model, and the report of what it became and what was left out |
//! | [`export_tile`], [`export_tile_in`], [`TileExport`] | a terrain tile, alone or with its neighbours (feature `terrain`) |
//! | [`Document`], [`GltfFiles`] | an export's document, written as `.glb` bytes or `.gltf` files |
//! | [`TextureSource`]: [`TextureFolders`], `ArchiveTextures` (feature `archive`), [`FlatTextures`], [`NoTextures`]; [`TextureError`] | where a model's texture images come from, and why one is missing |
//! | [`ExportError`] | why an export, or the writing of its document, failed |
//! | [`import`], [`Source`], [`ImportOptions`], [`Imported`], [`ImportReport`], [`ImportError`] | a glTF document in, as a model of any version: the [`import`](import()) module docs say what each part becomes |
//! | [`Builder`], [`Element`], [`PointerChannel`], [`json`] (`gltf_json`) | a glTF document of one's own: typed JSON, one binary buffer, images |
//!
//! ```
//! use formats::gltf::{ExportOptions, export};
//!
//! let model = formats::mdx::Model::from_bytes(&formats::sample::sample_mdx())?;
//! let out = export(&model, "cube", &ExportOptions { sequence: Some("Stand"), ..Default::default() })?;
//! let gltf = out.document.to_gltf("cube")?;
//! assert!(std::str::from_utf8(&gltf.json).unwrap().contains("\"name\":\"Stand\""));
//! assert_eq!(gltf.files[0].0, "cube.bin");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Errors
//!
//! An export fails with an [`ExportError`] a caller can match: a sequence
//! the model does not have, animations past [what an export may
//! hold](#what-an-export-may-hold), a tile without terrain. A texture that
//! cannot be found or read does not fail it: its material goes without the
//! texture, and why is in [`Export::missing_textures`].
//!
//! ```
//! use formats::gltf::{ExportError, ExportOptions, TextureError, TextureFolders, export};
//!
//! let model = formats::mdx::Model::from_bytes(&formats::sample::sample_mdx())?;
//! let textures = TextureFolders::new(vec!["no such folder".into()]);
//! let fly = ExportOptions { sequence: Some("Fly"), textures: &textures, ..Default::default() };
//! match export(&model, "cube", &fly) {
//!     Err(ExportError::TooManyKeys { needed, limit, .. }) => {
//!         println!("{needed} animation values, past {limit}: export one sequence or none")
//!     }
//!     Err(ExportError::NoSequence { name, .. }) => assert_eq!(name, "Fly"),
//!     Err(other) => return Err(other.into()),
//!     Ok(_) => panic!("the cube has no sequence \"Fly\""),
//! }
//! let out = export(&model, "cube", &ExportOptions { textures: &textures, ..Default::default() })?;
//! let (path, why) = &out.missing_textures[0];
//! assert!(matches!(why, TextureError::NotFound { .. }), "{path}: {why}");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # What a model becomes
//!
//! ## Nodes and skin
//!
//! A root node named as the model turns Warcraft III's Z-up space into
//! glTF's Y-up (-90° about X: the quaternion `[-√½, 0, 0, √½]`). Under it
//! every bone, helper, attachment, light, emitter, event object and
//! collision shape is a node named as in the model, in the model's
//! hierarchy, at rest at its pivot: node `i`'s translation is its pivot
//! minus its parent's. The meshes' vertices, normals and tangents are
//! written Y up (`(x, y, z)` becomes `(x, z, -y)`, exactly), where the
//! root's rotation puts them at rest, and joint `i`'s inverse bind matrix
//! turns them back to Z up and translates by minus its pivot: the inverse
//! of the joint's rest world matrix. So the bind pose is the nodes' rest
//! pose (Blender's importer builds its rest pose from the inverse bind
//! matrices: were they not the inverse of the rest, a model would lie on
//! its side in Blender's rest pose and edit mode), and a joint moved by the
//! sampled `T · T(p) · R · S · T(-p)` of the model moves its vertices as the
//! game does. The root is joint 0 (inverse bind matrix: the inverse of its
//! rotation): vertices no bone holds follow it. Billboarding and particles
//! are not carried (a warning says so); a node name that is not UTF-8 has
//! U+FFFD for the bytes glTF cannot hold.
//!
//! ## Meshes
//!
//! A skinned mesh per geoset of the level of detail asked for
//! ([`ExportOptions::lod`]), each on a node of its own (`NAME geoset N`: each
//! can be shown, hidden or edited apart): positions, normals, every UV set
//! (`TEXCOORD_n`), joints and weights (as many `JOINTS_n`/`WEIGHTS_n` sets
//! as the most influenced vertex needs, 4 per set), indices, material; one
//! skin with the inverse bind matrices above. Vertices are kept as they
//! are, one glTF vertex per geoset vertex, turned Y up. Normals are scaled
//! to unit length, in `f64` so that huge and tiny ones keep their direction
//! (glTF requires it; a zero normal becomes +Z); non-finite coordinates
//! (which glTF refuses) become 0. Reforged tangents (`TANG`) go out as
//! `TANGENT` where the normals do (a normal map needs both): X, Y, Z scaled
//! to unit length (a zero one becomes a unit vector perpendicular to the
//! normal), W the bitangent's sign, -1 or +1. A geoset without vertices or
//! triangles has no mesh.
//!
//! ## Materials
//!
//! An SD material is its first layer: its filter mode, flags and static
//! alpha (as base colour alpha); the base colour texture is that of the
//! first layer whose texture is a file, so a unit's skin shows rather than
//! the team colour layer under it (texture coordinates from that layer's UV
//! set). A path two `TEXS` entries name is embedded once. A Reforged HD
//! material takes its textures by role: diffuse as base colour, normal map
//! (from [`TextureSource::normal_png`]: its Z rebuilt from X and Y), ORM
//! (occlusion in red, roughness in green, metallic in blue, as glTF reads
//! them; the alpha, where the game keeps the team colour's strength, has no
//! glTF meaning and is left unread) as occlusion and metallic-roughness,
//! emissive; by slot in 1100 and later (a layer with shader type 1), by
//! layer in the `Shader_HD_DefaultUnit` materials of 900 and 1000.
//!
//! | filter mode | alphaMode |
//! |---|---|
//! | 0 none | `OPAQUE` |
//! | 1 transparent | `MASK`, cutoff 0.75 (the game's alpha test) |
//! | 2 blend | `BLEND` |
//! | 3 additive, 4 add alpha | `BLEND` (approximation: glTF has no additive blending) |
//! | 5 modulate, 6 modulate 2x | `BLEND` (approximation: glTF has no multiplicative blending) |
//!
//! Two-sided (shading flag 0x10) is `doubleSided`, unshaded (0x1) is
//! `KHR_materials_unlit`. Textures are PNG from the [`TextureSource`] of
//! [`ExportOptions::textures`]; replaceable textures (team colour 1 and
//! team glow 2 in red, the others in grey) are flat-colour placeholders; a
//! texture the source cannot give leaves the material without it.
//!
//! What glTF has no field for goes in the material's `extras.mdx`, which
//! [`import`](import()) reads back: the filter mode, the diffuse texture's
//! path and replaceable id, whether the material is HD (`hd`), and an HD
//! material's every slot, team colour and reflection too (`slots`: each
//! entry's `slot`, `texture` path, `replaceableId` and `TEXS` `flags`, in
//! the file's order), so that a Reforged model exported and imported at
//! its version keeps its slots and their paths.
//!
//! ## Cameras
//!
//! A model's cameras (`CAMS`: the portrait camera of a unit, cameras of
//! cinematics) are an eye position and a target position (model space, Z
//! up) with a roll about the line of sight; each can move (`KCTR` moves the
//! eye, `KTTR` the target, both as offsets; `KCRL` is the roll in radians).
//! glTF has a camera node instead, which looks down its own -Z with +Y up,
//! so each camera is a perspective camera on a node under the model's root
//! at the eye, turned to look at the target with the model's up (+Z) kept
//! up, then rolled (right-handed about the direction looked in). A camera
//! that moves gets its node's translation and rotation resampled at 30 keys
//! a second in every animation; one that does not stays at rest.
//!
//! | MDX | glTF `perspective` |
//! |---|---|
//! | field of view (radians) | `yfov` (the format does not say which; the game's portrait frame is near square, where the two agree) |
//! | near clipping plane | `znear` |
//! | far clipping plane | `zfar` (none, an infinite projection, where it is not beyond `znear`) |
//!
//! Values glTF cannot take (a field of view outside 0 to π, a near plane
//! that is not above 0: synthetic and broken files have them) are replaced
//! by the game's usual ones (π/4, 8) with a warning, and the camera exported.
//!
//! ## Lights
//!
//! The model's lights (`LITE`: torches, candles, the lighting of portrait
//! models) become `KHR_lights_punctual` lights, each attached to its node
//! (at its pivot, moved by its node tracks):
//!
//! | MDX | `KHR_lights_punctual` |
//! |---|---|
//! | omni | `point` at the node |
//! | directional | `directional`, shining down the node's -Z: the model's down at rest (the format has no direction but the node's) |
//! | ambient | none (glTF has no ambient light): left out, with a warning |
//! | colour (blue, green, red) | `color` (red, green, blue), each clamped to 0..1 |
//! | intensity | `intensity` as it is, clamped to 0 or more: the game's is a multiplier without unit, glTF's is in candela (point) or lux (directional), so scale to taste |
//! | attenuation end | `range` (none where it is not above 0) |
//!
//! A property with a track takes the value of the track's first key (the
//! game ignores the static value of a property that has a track: the candle
//! of the corpus stores an intensity of -1 there). glTF lights cannot be
//! animated without `KHR_animation_pointer`, which few tools read: with
//! [`ExportOptions::light_animations`] the colour, intensity and visibility
//! tracks play through it; attenuation tracks are not exported.
//!
//! # Animations
//!
//! One glTF animation per sequence ([`ExportOptions::animations`],
//! [`ExportOptions::sequence`]), named as it: the node tracks' keys in the
//! sequence's interval, times in seconds from the sequence's start.
//!
//! The keys are exactly those [`SequenceKeys`](crate::anim::SequenceKeys)
//! plays (keys of other sequences left out, the opening and closing keys
//! added), so the exact mappings below give what
//! [`Sampler`](crate::anim::Sampler) gives at every time:
//!
//! | track | glTF |
//! |---|---|
//! | none | `STEP`, exact |
//! | linear translation or scaling | `LINEAR`, exact |
//! | linear rotation | `LINEAR` (slerp), exact up to normalising the keys and turning each to the side of the one before (q and -q are one rotation; the game's slerp takes the shorter way, and so do players that interpolate components, such as Blender's curves); where two keys turn more than 0.1 rad, slerped keys in between (at most 32 a segment), so that those players stay within 4e-6 rad of slerp (about `turn³ / 250` for a segment that turns `turn`, where one turning 90° would put them 0.9° off) |
//! | hermite translation or scaling | `CUBICSPLINE`, exact: tangents divided by the segment's length in seconds |
//! | bezier translation or scaling | `CUBICSPLINE`, exact: tangents `3 (control - value)` over the segment's length |
//! | hermite or bezier translation or scaling, with [`ExportOptions::resample_splines`] | resampled `LINEAR`, fitted (below; for Blender, whose importer drops `CUBICSPLINE` tangents) |
//! | hermite or bezier rotation | resampled `LINEAR`, fitted (below; the quaternion spline is not glTF's) |
//! | a track of a global sequence | resampled `LINEAR`, fitted (below), over the sequence, its counter starting with the sequence |
//! | the whole interval at one value | two keys (start and end), `LINEAR` |
//! | keys not strictly increasing | resampled `LINEAR`, fitted (below) |
//! | a camera's eye, target or roll | its node's translation and rotation resampled `LINEAR` at 30 keys a second |
//!
//! A fitted resampling has a key every 1/30 s (sequences over 5 minutes:
//! at most 9 000) and at each of the track's own keys, then keys where the
//! curve bends between two of them: wherever a `LINEAR` player (lerp,
//! slerp) would stray from the game's curve by more than 1e-3 (in the
//! model's units, or as a scale factor: translations, scalings) or 5e-4
//! rad (0.029°, 0.05 units at the end of a bone 100 units long: rotations)
//! a quarter, half or three quarters of the way, a key at the whole
//! millisecond halfway, the worst segment first, up to 8 times the 1/30 s
//! keys (and at most 4 million added in one export: a model whose tracks
//! would take more keeps its other channels at their 1/30 s and key-time
//! keys). With 30 keys a second only, the pack horse, hermite throughout,
//! was up to 1.75 (0.74 % of its size) from the game's pose halfway between
//! two keys; fitted, every corpus model is within a thousandth of its size
//! at the times `tests/gltf/export.rs` tries between keys (four in each of
//! the first four sequences of every corpus model), and the exports are
//! smaller (19.8 MB for the 57 corpus models, from 24.7 MB): where a
//! segment turned more than 0.1 rad, slerped keys used to be added, and
//! keys on the curve now make them fewer.
//!
//! Translations add the node's rest offset (its pivot minus its parent's,
//! see [Nodes and skin](#nodes-and-skin)). Every animation also holds the
//! root's constant rotation over the sequence, so it lasts as long as its
//! sequence even when no node moves.
//!
//! A node that does not take on all of its parent's motion (the "don't
//! inherit" translation, rotation and scaling flags; glTF nodes always take
//! on all of it) under a parent that moves gets, in every animation, its
//! translation, rotation and scale resampled `LINEAR` at 30 keys a second
//! (and at the sequence's end), each sample the local transform that puts
//! it where [`Skeleton::pose`](crate::anim::Skeleton::pose) puts it:
//! `T(-parent pivot) · W_parent⁻¹ · W_node · T(node pivot)`. Its children
//! then follow it as the game's do. Exact at every sample, up to `f32`
//! rounding, under ancestors scaled evenly or not at all. Under one scaled
//! unevenly that matrix can hold a shear, which glTF's translation,
//! rotation and scale cannot, and it is dropped: with the pack horse's
//! roots scaled by up to 1.6 along one axis and every node flagged, nodes
//! land up to 3 yards off on a model 200 across (measured once, by hand;
//! the tests use even scaling). Where the parent's world transform has no
//! inverse (scaled to 0), the node's own transform is used, so it vanishes
//! with its parent where the game still shows it.
//!
//! Geoset visibility ([`ExportOptions::geoset_visibility`]), geoset colour
//! and alpha ([`ExportOptions::material_colors`]), texture animations
//! ([`ExportOptions::texture_animations`]) and lights' colour, intensity
//! and visibility ([`ExportOptions::light_animations`]) play through
//! `KHR_animation_pointer` where they are asked for: each option says how.
//! Not exported: the visibility of other nodes (emitters, attachments) and
//! billboarding.
//!
//! ## What an export may hold
//!
//! An export's animations hold at most 2^25 values (33.5 million, 512 MiB
//! of rotations; about 8 times the most any of 2,580 public models needs,
//! 4.3 million for a WoW model of 17 sequences): a key's value (a
//! `CUBICSPLINE` key's three), a sample's, or a pose of one node, each
//! channel counting 96 more for its JSON (its sampler, channel, two
//! accessors and two buffer views take about 1.5 KB as the document is
//! built and written, as much as 96 rotations of 16 bytes: a model of many
//! sequences of constant tracks holds few values, but a channel for each
//! track in each). They are counted twice:
//!
//! - before anything is made, what each channel of each sequence will
//!   certainly take: a track kept as keys, the keys it plays in that
//!   sequence (the opening and closing keys included), two for a constant;
//!   a resampled track (the table above), the 1/30 s grid and its key
//!   moments, which fitting starts from; a baked node's three channels at
//!   the grid, and at each grid time a pose of every node; a moving
//!   camera's two channels at the grid; a pointed channel (geoset
//!   visibility, colours, texture transforms, lights), the times it is
//!   sampled at. Animations that would need more are refused at once
//!   ([`ExportError::TooManyKeys`], `counted_ahead`), with the count,
//!   saying to export one sequence (`--sequence`) or none
//!   (`--no-animations`);
//! - as each channel is added, the values its curve really holds (with the
//!   keys fitting adds and the slerped keys that cut far-turning rotations,
//!   which the first count cannot know): past the limit, the export stops
//!   with the same error and advice.
//!
//! The 1/30 s grid of a sequence of 49 days is 9 000 keys long, so a small
//! file declaring hundreds of such sequences over spline tracks is refused
//! by the first count, in milliseconds, rather than resampled for hours.
//!
//! # What a tile becomes
//!
//! [`export_tile`] (features `gltf` and `terrain`) makes a tile's mesh, its
//! liquids, and a node per doodad and map object placement from the
//! geometry of [`crate::terrain`].
//!
//! ## Axes
//!
//! Meshes and placements are in world space ([`crate::terrain`]: yards, X
//! north, Y west, Z up, the map's centre at the origin), under a root node
//! that turns Z up into glTF's Y up with the same -90° about X as a model's
//! root node. So glTF (x, y, z) is world (X, Z, -Y)
//! ([`world_to_gltf`](crate::terrain::world_to_gltf)): north is +x, up +y,
//! east +z. Tiles exported one by one line up with each other.
//!
//! A placement node holds a glTF asset as glTF holds any: Y up. Its
//! transform is the placement's world transform between two turns,
//! `R0 · P · R0⁻¹` in the scene (`R0` the root's turn, `P` the
//! placement's [`matrix`](crate::terrain::Placement::matrix)): a model
//! converted to glTF the usual way (Z up turned Y up, as this crate's model
//! export and other converters of M2 and WMO do), put under the node as it
//! is, stands where the game puts it. Importers that turn glTF's Y up back into Z up (Blender's) show the
//! tile at its world coordinates and each placement's empty at exactly
//! `P`, so a model imported there the same way and parented to it (or
//! given its transform) stands in place (`testkit/harness/blender/run.sh`
//! measures both on three corpus tiles).
//!
//! ## The tile's nodes
//!
//! - The root node, named as the tile, and under it:
//! - `terrain`, mesh `terrain`: every chunk's 145 MCVT vertices, chunk
//!   after chunk in file order, and 256 triangles per chunk (4 per quad,
//!   counter-clockwise from above: the front face is up), none in holes
//!   ([`TileMesh`](crate::terrain::TileMesh); X and Y on the map's grid,
//!   so neighbouring tiles meet without cracks; tiles exported together,
//!   [`export_tile_in`], share their edges' heights to the bit, while a
//!   tile exported alone keeps its own, which may be a bit off its
//!   neighbour's). `NORMAL` is MCNR, `TEXCOORD_0` runs 0..1 over the tile
//!   (east, south: the splat maps of `formats render --splat`),
//!   `TEXCOORD_1` one unit per chunk (for textures that repeat). Where any
//!   chunk has MCCV, `COLOR_0` is its colour as the multiplier the client
//!   makes of it, value / 127 (0x7F is 1.0), **clamped to 1.0**: glTF holds
//!   colours in 0..1, while the client brightens up to about 2x (0xFF), so
//!   every value above 0x7F is 1.0 there. The application-specific
//!   attribute `_MCCV` keeps the values unscaled and unclamped (unsigned
//!   bytes, 0x7F meaning 1.0, 0xFF about 2.0) but **reordered** to `[r, g,
//!   b, a]`, the order of `COLOR_0`: the file stores each entry as blue,
//!   green, red, alpha. Chunks without MCCV are 0x7F (alpha 0xFF).
//! - `liquids`, mesh `liquids` (where MH2O or MCLQ has a liquid quad): one
//!   primitive per liquid type with a material named `liquid type N` (the
//!   `LiquidType` id; MCLQ's river, ocean, magma and slime flags are ids 1 to
//!   4), two triangles per quad the instance's exists-mask (MCLQ: its tiles)
//!   marks ([`LiquidMesh`](crate::terrain::LiquidMesh),
//!   [`liquids`](crate::terrain::liquids())).
//! - `doodads` and `map objects`: one node per MDDF and per MODF entry, in
//!   file order, named by the model's file name (`FileDataID N` for a doodad
//!   that names its model by id; `doodad 3 (nameId 7)` where the name cannot
//!   be resolved), its translation, rotation and scale the placement's world
//!   transform ([`Placement`](crate::terrain::Placement)), its `extras`
//!   the record's `uniqueId`, `nameId`, `flags` and, for map objects,
//!   `bounds` (world space, `[min, max]`). A map object that spans tiles is in each of their MODFs, with one
//!   `uniqueId`. The models themselves are not in the file.
//!
//! The root's `extras` hold the tile's `tileX` and `tileY`.
//!
//! ```no_run
//! use formats::adt::Adt;
//! use formats::gltf::export_tile;
//!
//! let adt = Adt::from_bytes(&std::fs::read("Azeroth_32_48.adt")?)?;
//! let exported = export_tile(&adt, "Azeroth_32_48")?;
//! std::fs::write("Azeroth_32_48.glb", exported.document.to_glb()?)?;
//! println!("{} triangles, {} doodads", exported.triangles, exported.doodads);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod builder;
mod error;
mod glb;
mod import;
mod model;
#[cfg(feature = "terrain")]
mod terrain;
mod textures;

pub use builder::{Builder, Document, Element, GltfFiles, PointerChannel};
pub use error::ExportError;
pub use gltf_json as json;
pub use import::{
    AccessorProblem, BufferProblem, GlobalSequenceMade, HermitePart, HermiteTrack, ImageProblem,
    ImportError, ImportOptions, ImportReport, Imported, ImportedTexture, MAX_IMAGE_PIXELS,
    NON_LOOPING, SequenceMade, Source, TextureFormat, TextureMode, import, looping,
};
pub use model::{Export, ExportOptions, export};
#[cfg(feature = "terrain")]
pub use terrain::{TileExport, export_tile, export_tile_in};
#[cfg(feature = "archive")]
pub use textures::ArchiveTextures;
pub use textures::{FlatTextures, NoTextures, TextureError, TextureFolders, TextureSource};
