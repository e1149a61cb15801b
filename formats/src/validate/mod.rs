//! Semantic checks beyond parsing: a file can decode perfectly and still
//! point at a texture that is not there. Each check returns a list of
//! [`Finding`]s, each with the [`Rule`] it breaks, the path of the offending
//! value (in the style of [`format_core::Error`] paths) and a message.
//!
//! - [`model`] (MDX): every index in range (texture, material, texture
//!   animation, geoset, geoset animation, global sequence, parent object,
//!   vertex), pivot count equal to the node count, object ids sequential,
//!   sequences ordered and not overlapping, keys in time order and inside a
//!   sequence, unit normals.
//! - `extents::model` (MDX, feature `anim`): stored extents against the
//!   geometry posed over every sequence.
//! - [`tile`] (ADT): MCRF references in range, MMID/MWID offsets at the start
//!   of a name, MDDF/MODF name ids and MCLY texture ids in range.
//!
//! ```
//! use formats::mdx::Model;
//! use formats::validate::{self, Rule};
//!
//! let mut model = Model::from_bytes(&formats::sample::sample_mdx())?;
//! assert!(validate::model(&model).is_empty());
//! model.geosets_mut()[0].material_id = 3; // the sample has one material
//! let findings = validate::model(&model);
//! assert_eq!(findings.len(), 1);
//! assert_eq!(findings[0].rule, Rule::MaterialIndex);
//! assert_eq!(
//!     findings[0].to_string(),
//!     "chunks[5].GEOS.geosets[0].material_id: 3 is out of range: there are 1 materials"
//! );
//! # Ok::<(), format_core::Error>(())
//! ```

pub mod adt;
#[cfg(feature = "anim")]
pub mod extents;
pub mod mdx;

pub use adt::tile;
pub use mdx::model;

use core::fmt;

/// The rule a [`Finding`] breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Rule {
    /// An index into `TEXS` out of range.
    TextureIndex,
    /// An index into `MTLS` out of range.
    MaterialIndex,
    /// An index into `TXAN` out of range.
    TextureAnimationIndex,
    /// An index into `GEOS` out of range.
    GeosetIndex,
    /// An index into `GEOA` out of range.
    GeosetAnimationIndex,
    /// A `globalSequenceId` out of range of `GLBS`.
    GlobalSequenceIndex,
    /// A `parentId` that is no node's object id (or the node's own).
    ParentIndex,
    /// A face's vertex index out of range of its geoset.
    VertexIndex,
    /// `PIVT` has not one point per node.
    PivotCount,
    /// Object ids, in file order, are not 0, 1, 2, …
    ObjectIds,
    /// A sequence ending before it starts, or starting before the previous ends.
    SequenceOrder,
    /// A track's keys not in time order.
    KeyOrder,
    /// A key outside every sequence (or outside its global sequence, `0..=length`).
    /// A model without sequences has nothing to be outside of.
    KeyOutsideSequence,
    /// A vertex normal whose length is not 1.
    NormalLength,
    /// A stored extent that disagrees with the posed geometry (`extents::model`).
    Extent,
    /// An MCRF entry out of range of MDDF or MODF.
    McrfReference,
    /// An MMID/MWID offset not at the start of a name in MMDX/MWMO.
    NameOffset,
    /// An MDDF/MODF `nameId` out of range of MMID/MWID.
    NameId,
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
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// Collects findings.
#[derive(Default)]
struct Findings(Vec<Finding>);

impl Findings {
    fn push(&mut self, rule: Rule, path: impl Into<String>, message: impl Into<String>) {
        self.0.push(Finding {
            rule,
            path: path.into(),
            message: message.into(),
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
