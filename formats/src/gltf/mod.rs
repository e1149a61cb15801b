//! glTF 2.0 out (feature `gltf`): a reusable document [`Builder`] (typed
//! JSON from [`gltf_json`], one binary buffer, `.glb` or `.gltf` + `.bin` +
//! images), the model exporter built on it ([`export`]) and, with the
//! `terrain` feature, the tile exporter (`terrain::export_tile`: a tile's
//! mesh, liquids and placements).
//!
//! # What a model becomes
//!
//! - A root node named as the model, turning Z up into Y up, with under it
//!   one node per bone, helper, attachment, light, emitter, event object and
//!   collision shape, named as in the model, in its hierarchy, at rest at its
//!   pivot ([`model::nodes`]).
//! - A skinned mesh per geoset of the level of detail asked for, on a node
//!   of its own (`NAME geoset N`: each can be shown, hidden or edited
//!   apart): positions, normals, tangents (Reforged), every UV set, joints
//!   and weights, indices ([`model::meshes`]); one skin with inverse bind
//!   matrices.
//! - A perspective camera per camera (`CAMS`: a unit's portrait camera), on
//!   a node at its eye looking at its target, moving where its tracks move
//!   it ([`model::cameras`]); omni and directional lights as
//!   `KHR_lights_punctual` lights on their nodes ([`model::lights`]).
//! - One animation per sequence, named as it, times in seconds; which
//!   tracks map exactly (`STEP`, `LINEAR`, `CUBICSPLINE`) and which are
//!   resampled (30 keys a second, and more where the curve bends) is in
//!   [`model::animations`]; a node that
//!   does not inherit all of its parent's motion is resampled where its
//!   parent moves, so that it stands where the game puts it. With
//!   [`ExportOptions::geoset_visibility`], geosets are also shown and hidden
//!   as their geoset animations do (`KHR_node_visibility` animated through
//!   `KHR_animation_pointer`); with [`ExportOptions::material_colors`], their
//!   colour and alpha play on materials of their own ([`model::colors`]);
//!   with [`ExportOptions::texture_animations`], texture animations move
//!   their textures (`KHR_texture_transform`, [`model::texture_transforms`]);
//!   with [`ExportOptions::light_animations`], lights' colour, intensity
//!   and visibility play ([`model::light_animations`]).
//! - Materials from each material's first layer, or its HD textures by role,
//!   filter modes as alpha modes, two-sided, unlit ([`model::materials`]);
//!   textures as PNG from a [`TextureSource`] (BLP and DDS files found in
//!   folders: [`textures::TextureFolders`]; one flat colour for every path:
//!   [`textures::FlatTextures`]), replaceable ones as flat colours.
//!
//! ```
//! use formats::gltf::{ExportOptions, export};
//!
//! let model = formats::mdx::Model::from_bytes(&formats::sample::sample_mdx())?;
//! let out = export(&model, "cube", &ExportOptions { sequence: Some("Stand"), ..Default::default() })?;
//! let gltf = out.document.to_gltf("cube")?;
//! assert!(std::str::from_utf8(&gltf.json).unwrap().contains("\"name\":\"Stand\""));
//! assert_eq!(gltf.files[0].0, "cube.bin");
//! # Ok::<(), formats::Error>(())
//! ```

pub mod builder;
pub mod glb;
pub mod model;
#[cfg(feature = "terrain")]
pub mod terrain;
pub mod textures;

pub use builder::{Builder, Document, Element, GltfFiles, PointerChannel};
pub use gltf_json as json;
pub use model::{Export, ExportOptions, export};
#[cfg(feature = "terrain")]
pub use terrain::{TileExport, export_tile, export_tile_in};
pub use textures::{NoTextures, TextureSource};
