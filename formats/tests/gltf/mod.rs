//! glTF export: the model and the tile, checked by the Khronos validator and played in Babylon.js;
//! and Babylon.js's skinning of the exports and of files written by others (`skinning`).

pub(crate) mod colors;
pub(crate) mod export;
pub(crate) mod import;
pub(crate) mod import_materials;
pub(crate) mod light_animations;
pub(crate) mod properties;
pub(crate) mod skinning;
pub(crate) mod terrain;
pub(crate) mod texture_transforms;
pub(crate) mod validate;
pub(crate) mod visibility;
