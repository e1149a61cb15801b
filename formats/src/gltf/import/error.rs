//! [`ImportError`]: why a glTF document could not be read or imported.

/// Why [`Source::from_slice`](super::Source::from_slice),
/// [`Source::from_path`](super::Source::from_path) or
/// [`import`](super::import) failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ImportError {
    /// The bytes are not a glTF document (JSON or GLB) that the glTF reader
    /// validates: a required field missing, an index out of range.
    #[error("not a valid glTF document: {source}")]
    Document {
        /// What the glTF reader found.
        #[source]
        source: gltf::Error,
    },
    /// A buffer could not be loaded.
    #[error("buffers[{index}]: {why}")]
    Buffer {
        /// The buffer's index.
        index: usize,
        /// Why.
        why: BufferProblem,
    },
    /// An accessor the import reads is not what its use needs, or its bytes
    /// are not in its buffer.
    #[error("accessors[{index}] ({used_as}): {why}")]
    Accessor {
        /// The accessor's index.
        index: usize,
        /// What the import read it as (`POSITION`, `indices`, an animation's
        /// input...).
        used_as: String,
        /// What is wrong with it.
        why: AccessorProblem,
    },
    /// The node hierarchy is not a forest: a node is the child of two nodes,
    /// or its own ancestor.
    #[error("nodes[{node}] has more than one parent, or is its own ancestor")]
    Hierarchy {
        /// The node.
        node: usize,
    },
    /// The scene instantiates no mesh with triangles.
    #[error("the scene has no mesh with triangles to import")]
    NoMesh,
    /// More joints than a Warcraft III model's skin can name (`SKIN` names
    /// bones by a byte).
    #[error("{bones} bones (joints and skinless meshes' nodes); SKIN names at most 256")]
    TooManyBones {
        /// The bones the model would need.
        bones: usize,
    },
    /// More than the import may make of a document (see the
    /// [`import`](super::import()#what-an-import-may-make)).
    #[error("the document would need {needed} {what} (at most {limit})")]
    TooLarge {
        /// What was counted.
        what: &'static str,
        /// How many.
        needed: u64,
        /// The most allowed.
        limit: u64,
    },
    /// The model made could not be converted to the version asked for.
    #[error("converting the imported model to version {version}: {source}")]
    Convert {
        /// The version asked for.
        version: u32,
        /// Why.
        #[source]
        source: crate::convert::ConvertError,
    },
    /// The model made could not be written (a name too long for its field,
    /// which the import shortens, should never get here).
    #[error("writing the imported model: {source}")]
    Model {
        /// Why.
        #[source]
        source: crate::Error,
    },
}

/// Why a buffer could not be loaded ([`ImportError::Buffer`]).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BufferProblem {
    /// A GLB's buffer without a `BIN` chunk, or a `.gltf` buffer without a
    /// URI.
    #[error("no data: no uri, and no GLB binary chunk")]
    Missing,
    /// A `data:` URI that is not base64.
    #[error("its data: URI is not base64: {0}")]
    DataUri(#[source] base64::DecodeError),
    /// The file a URI names could not be read.
    #[error("{uri}: {source}")]
    File {
        /// The URI.
        uri: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// Fewer bytes than the buffer's `byteLength`.
    #[error("{got} bytes, but byteLength is {declared}")]
    Short {
        /// The bytes loaded.
        got: usize,
        /// `byteLength`.
        declared: usize,
    },
}

/// What is wrong with an accessor ([`ImportError::Accessor`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AccessorProblem {
    /// Its type or component type is not one its use allows.
    #[error("{got}, where {expected} is needed")]
    Type {
        /// What it is (`VEC3 of FLOAT`).
        got: String,
        /// What the use needs.
        expected: &'static str,
    },
    /// Its elements reach past its buffer view or buffer.
    #[error("its {count} elements (stride {stride}) reach byte {end}, past the {len} bytes there")]
    OutOfBounds {
        /// Elements.
        count: usize,
        /// Bytes from one element to the next.
        stride: usize,
        /// The byte the last element ends at.
        end: u64,
        /// The bytes of the view (or buffer).
        len: usize,
    },
    /// A stride shorter than an element.
    #[error("byteStride {stride} is shorter than its {size}-byte elements")]
    Stride {
        /// `byteStride`.
        stride: usize,
        /// An element's bytes.
        size: usize,
    },
    /// A sparse accessor's index past its count.
    #[error("a sparse index {index} is past its {count} elements")]
    SparseIndex {
        /// The index.
        index: u32,
        /// The accessor's count.
        count: usize,
    },
    /// A count not the one its use needs (a vertex attribute shorter than
    /// `POSITION`, an animation's output not matching its input).
    #[error("{got} elements, where {expected} are needed")]
    Count {
        /// Its count.
        got: usize,
        /// The count needed.
        expected: usize,
    },
}
