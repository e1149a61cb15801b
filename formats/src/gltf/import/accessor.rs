//! Accessors read with every size checked: elements of `N` components as
//! floats (normalized integers scaled, as glTF defines them) or as
//! integers, sparse substitutions applied.
//!
//! The glTF reader's own accessor iterators assume what validation does
//! not check (a stride at least an element, a count of at least one, a
//! view's type matching the use), so they are not used: a hostile file
//! must get an error, never a panic or an allocation past its size.
//!
//! Every read is counted against [`MAX_COMPONENTS`], before anything is
//! allocated: an accessor without a buffer view (all zeros, bar its sparse
//! values) declares its count freely, and one accessor may be read by any
//! number of primitives, skins and animation channels.

use std::cell::Cell;

use gltf::accessor::{DataType, Dimensions};

use super::error::{AccessorProblem, ImportError};
use super::source::view_bytes;

/// The most components (floats or integers, every read of every accessor
/// counted) one import may read: 128 MiB as `f32`.
pub(super) const MAX_COMPONENTS: u64 = 1 << 25;

/// A document's buffers, and the components read from them so far.
pub(super) struct Buffers<'b> {
    /// Each buffer's bytes.
    pub bytes: &'b [Vec<u8>],
    read: Cell<u64>,
}

impl<'b> Buffers<'b> {
    pub fn new(bytes: &'b [Vec<u8>]) -> Buffers<'b> {
        Buffers {
            bytes,
            read: Cell::new(0),
        }
    }

    /// Counts `components` more read, or fails past [`MAX_COMPONENTS`].
    fn spend(&self, components: u64) -> Result<(), ImportError> {
        let read = self.read.get().saturating_add(components);
        if read > MAX_COMPONENTS {
            return Err(ImportError::TooLarge {
                what: "accessor components read",
                needed: read,
                limit: MAX_COMPONENTS,
            });
        }
        self.read.set(read);
        Ok(())
    }
}

fn components(dimensions: Dimensions) -> usize {
    match dimensions {
        Dimensions::Scalar => 1,
        Dimensions::Vec2 => 2,
        Dimensions::Vec3 => 3,
        Dimensions::Vec4 | Dimensions::Mat2 => 4,
        Dimensions::Mat3 => 9,
        Dimensions::Mat4 => 16,
    }
}

fn type_name(accessor: &gltf::Accessor<'_>) -> String {
    format!("{:?} of {:?}", accessor.dimensions(), accessor.data_type())
}

/// One component's value: floats as they are, integers as numbers
/// (`normalized`: scaled to -1..1 or 0..1, as glTF defines it).
fn component(data_type: DataType, normalized: bool, bytes: &[u8]) -> f64 {
    let four = || -> [u8; 4] {
        bytes
            .get(..4)
            .and_then(|b| b.try_into().ok())
            .unwrap_or([0; 4])
    };
    let two = || -> [u8; 2] {
        bytes
            .get(..2)
            .and_then(|b| b.try_into().ok())
            .unwrap_or([0; 2])
    };
    let one = || bytes.first().copied().unwrap_or(0);
    match data_type {
        DataType::F32 => f64::from(f32::from_le_bytes(four())),
        DataType::U32 => f64::from(u32::from_le_bytes(four())),
        DataType::U16 => {
            let v = f64::from(u16::from_le_bytes(two()));
            if normalized { v / 65535.0 } else { v }
        }
        DataType::I16 => {
            let v = f64::from(i16::from_le_bytes(two()));
            if normalized {
                (v / 32767.0).max(-1.0)
            } else {
                v
            }
        }
        DataType::U8 => {
            let v = f64::from(one());
            if normalized { v / 255.0 } else { v }
        }
        DataType::I8 => {
            let v = f64::from(one() as i8);
            if normalized { (v / 127.0).max(-1.0) } else { v }
        }
    }
}

/// The elements of `accessor` at their bytes: `count` elements of
/// `per_element` bytes, `stride` apart, from `offset` in the view.
struct Run<'b> {
    bytes: &'b [u8],
    stride: usize,
    size: usize,
    count: usize,
}

impl<'b> Run<'b> {
    fn new(
        bytes: &'b [u8],
        offset: usize,
        stride: Option<usize>,
        size: usize,
        count: usize,
    ) -> Result<Run<'b>, AccessorProblem> {
        let stride = stride.unwrap_or(size);
        if stride < size {
            return Err(AccessorProblem::Stride { stride, size });
        }
        if count == 0 {
            return Ok(Run {
                bytes: &[],
                stride,
                size,
                count,
            });
        }
        let end = (count as u64 - 1)
            .checked_mul(stride as u64)
            .and_then(|e| e.checked_add(offset as u64))
            .and_then(|e| e.checked_add(size as u64))
            .unwrap_or(u64::MAX);
        match bytes.get(offset..usize::try_from(end).unwrap_or(usize::MAX)) {
            Some(bytes) => Ok(Run {
                bytes,
                stride,
                size,
                count,
            }),
            None => Err(AccessorProblem::OutOfBounds {
                count,
                stride,
                end,
                len: bytes.len(),
            }),
        }
    }

    fn element(&self, i: usize) -> &'b [u8] {
        let start = i.saturating_mul(self.stride);
        self.bytes
            .get(start..start.saturating_add(self.size))
            .unwrap_or(&[])
    }
}

/// An accessor's elements, `N` components each, every component converted
/// from its value (see [`component`]) by `convert`.
fn read<const N: usize, T: Copy + Default>(
    accessor: &gltf::Accessor<'_>,
    buffers: &[Vec<u8>],
    expected: &'static str,
    integers_only: bool,
    convert: impl Fn(f64) -> T,
) -> Result<Vec<[T; N]>, AccessorProblem> {
    let data_type = accessor.data_type();
    if components(accessor.dimensions()) != N
        || (integers_only && matches!(data_type, DataType::F32))
    {
        return Err(AccessorProblem::Type {
            got: type_name(accessor),
            expected,
        });
    }
    let width = data_type.size();
    let size = width * N;
    let normalized = accessor.normalized();
    let count = accessor.count();
    let decode = |bytes: &[u8]| -> [T; N] {
        core::array::from_fn(|c| {
            convert(component(
                data_type,
                normalized,
                bytes.get(c * width..).unwrap_or(&[]),
            ))
        })
    };
    let mut out: Vec<[T; N]> = match accessor.view() {
        Some(view) => {
            let bytes = view_bytes(&view, buffers).ok_or(AccessorProblem::OutOfBounds {
                count,
                stride: size,
                end: (view.offset() as u64).saturating_add(view.length() as u64),
                len: buffers.get(view.buffer().index()).map_or(0, Vec::len),
            })?;
            let run = Run::new(bytes, accessor.offset(), view.stride(), size, count)?;
            (0..run.count).map(|i| decode(run.element(i))).collect()
        }
        None => vec![decode(&[]); count],
    };
    if let Some(sparse) = accessor.sparse() {
        let n = sparse.count();
        let indices = sparse.indices();
        let index_type = indices.index_type();
        let index_bytes = view_bytes(&indices.view(), buffers).unwrap_or(&[]);
        let index_size = index_type.size();
        let index_run = Run::new(
            index_bytes,
            indices.offset(),
            indices.view().stride(),
            index_size,
            n,
        )?;
        let values = sparse.values();
        let value_bytes = view_bytes(&values.view(), buffers).unwrap_or(&[]);
        let value_run = Run::new(
            value_bytes,
            values.offset(),
            values.view().stride(),
            size,
            n,
        )?;
        for i in 0..n {
            let bytes = index_run.element(i);
            let index = match index_type {
                gltf::accessor::sparse::IndexType::U8 => {
                    u32::from(bytes.first().copied().unwrap_or(0))
                }
                gltf::accessor::sparse::IndexType::U16 => {
                    u32::from(u16::from_le_bytes(bytes.try_into().unwrap_or([0; 2])))
                }
                gltf::accessor::sparse::IndexType::U32 => {
                    u32::from_le_bytes(bytes.try_into().unwrap_or([0; 4]))
                }
            };
            let slot = out
                .get_mut(index as usize)
                .ok_or(AccessorProblem::SparseIndex { index, count })?;
            *slot = decode(value_run.element(i));
        }
    }
    Ok(out)
}

/// Reads an accessor for one use (`used_as`, named in errors): its
/// elements' `N` components as `f32`.
pub(super) fn floats<const N: usize>(
    accessor: &gltf::Accessor<'_>,
    buffers: &Buffers<'_>,
    used_as: &str,
    expected: &'static str,
) -> Result<Vec<[f32; N]>, ImportError> {
    converted(accessor, buffers, used_as, expected, false, |c| c as f32)
}

/// Reads an accessor of integers (indices, joints) for one use.
pub(super) fn integers<const N: usize>(
    accessor: &gltf::Accessor<'_>,
    buffers: &Buffers<'_>,
    used_as: &str,
    expected: &'static str,
) -> Result<Vec<[u32; N]>, ImportError> {
    converted(accessor, buffers, used_as, expected, true, |c| c as u32)
}

/// [`read`], counted against the budget of `buffers`, the error named by
/// its use.
fn converted<const N: usize, T: Copy + Default>(
    accessor: &gltf::Accessor<'_>,
    buffers: &Buffers<'_>,
    used_as: &str,
    expected: &'static str,
    integers_only: bool,
    convert: impl Fn(f64) -> T,
) -> Result<Vec<[T; N]>, ImportError> {
    let sparse = accessor.sparse().map_or(0, |s| s.count() as u64);
    let n = N as u64;
    buffers.spend((accessor.count() as u64).saturating_mul(n) + sparse.saturating_mul(n + 1))?;
    read::<N, T>(accessor, buffers.bytes, expected, integers_only, convert)
        .map_err(|why| error(accessor, used_as, why))
}

/// An accessor's error, named by its use.
pub(super) fn error(
    accessor: &gltf::Accessor<'_>,
    used_as: &str,
    why: AccessorProblem,
) -> ImportError {
    ImportError::Accessor {
        index: accessor.index(),
        used_as: used_as.to_owned(),
        why,
    }
}
