//! Animation: tracks sampled at any time, the node hierarchy posed, and
//! skinned geometry, for every MDX version (800 to 1500).
//!
//! - [`interpolate`]: the curves between two keys (none, linear, hermite,
//!   bezier; slerp and the quaternion spline for rotations; WoW alpha
//!   compressed quaternions).
//! - [`Timeline`] and [`Moment`]: sequences, global sequences, a time.
//! - [`Sampler`]: a track's value at a moment, with the rules for keys
//!   outside the playing sequence ([`sample`] says which).
//! - [`Skeleton`] and [`Pose`]: nodes about their pivots, through the
//!   hierarchy.
//! - [`Skin`] and [`Mesh`]: which nodes move each vertex (matrix groups,
//!   `SKIN`, `BIDX`/`BWGT`), and posed positions and normals.
//! - [`visibility`]: geoset alpha and colour, layer alpha, visibility tracks.
//! - [`UvTransform`]: how a texture animation moves a layer's texture
//!   coordinates ([`texture`]).
//!
//! ```
//! use formats::anim::{Sampler, Skeleton, Timeline, meshes};
//!
//! let model = formats::mdx::Model::from_bytes(&formats::sample::sample_mdx())?;
//! let (skeleton, timeline) = (Skeleton::from_model(&model), Timeline::from_model(&model));
//! let stand = timeline.sequence("Stand").unwrap();
//! // Half a second into "Stand": the sample's cube has risen.
//! let sampler = Sampler::new(&timeline, timeline.at(stand, 500.0).unwrap());
//! let pose = skeleton.pose(&sampler);
//! let cube = &meshes(&model, &skeleton)[0];
//! let posed = cube.posed_positions(&pose);
//! assert!(posed[0][2] > cube.positions[0][2]);
//! # Ok::<(), formats::Error>(())
//! ```
//!
//! Matrices, vectors and quaternions are [`glam`]'s (re-exported), values of
//! tracks the arrays the [`mdx`](crate::mdx) types hold.

pub mod interpolate;
pub mod mesh;
pub mod sample;
pub mod skeleton;
pub mod skin;
pub mod texture;
pub mod timeline;
pub mod visibility;

pub use glam;
pub use interpolate::{Interpolate, slerp, squad};
pub use mesh::{Mesh, meshes};
pub use sample::{Sampler, SequenceKeys, Window};
pub use skeleton::{Inherit, LocalTransform, NodeKind, Pose, Skeleton, SkeletonNode};
pub use skin::{Influence, Skin};
pub use texture::{OffsetRotationScale, UvTransform};
pub use timeline::{Moment, NoSequence, SequenceInfo, Timeline};
pub use visibility::{
    GeosetState, geoset_alpha_track, geoset_color_track, geoset_state, layer_alpha,
    layer_alpha_track, tex_layer_alpha, tex_layer_alpha_track,
};
