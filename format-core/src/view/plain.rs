//! Runs of plain values and of fixed-size records, in place.

use alloc::vec::Vec;
use core::fmt;
use core::iter::FusedIterator;
use core::marker::PhantomData;
use core::mem::size_of;

use crate::records::{self, Record};
use crate::{Decode, Error, Plain, Reader, Result};

use super::View;

/// Every plain value is its own view, and a run of them a [`PlainRun`].
impl<T: Plain> View for T {
    type View<'a> = T;
    type Run<'a> = PlainRun<'a, T>;

    #[inline]
    fn view<'a>(r: &mut Reader<'a>, _: ()) -> Result<T> {
        r.plain()
    }

    /// The same checks as [`Decode::decode_many`] and
    /// [`Decode::decode_rest`] for plain types (a partial element at the
    /// end of the region is the error reading it would give).
    fn view_run<'a>(r: &mut Reader<'a>, count: Option<u64>, _: ()) -> Result<PlainRun<'a, T>> {
        let size = size_of::<T>();
        let Some(count) = count else {
            let count = r.remaining() / size.max(1);
            let bytes = r.records(count, size)?;
            if !r.is_empty() {
                return Err(r.plain::<T>().err().map_or_else(
                    || Error::invalid(r.pos(), "a partial element at the end"),
                    |e| e.at_index(count),
                ));
            }
            return Ok(PlainRun::new(bytes));
        };
        let bytes = r.records(usize::try_from(count).unwrap_or(usize::MAX), size)?;
        Ok(PlainRun::new(bytes))
    }

    #[inline]
    fn from_view(view: &T) -> Result<T> {
        Ok(*view)
    }

    fn from_run(run: &PlainRun<'_, T>) -> Result<Vec<T>> {
        Ok(run.to_vec())
    }
}

/// A run of plain values in the input (vertex positions, faces,
/// sequences): the bytes, checked once, each value decoded where it is
/// when asked for (little-endian, at any alignment). Nothing is copied
/// until [`to_vec`](Self::to_vec).
pub struct PlainRun<'a, T> {
    bytes: &'a [u8],
    _values: PhantomData<T>,
}

impl<T> Clone for PlainRun<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for PlainRun<'_, T> {}

impl<T> Default for PlainRun<'_, T> {
    fn default() -> Self {
        PlainRun {
            bytes: &[],
            _values: PhantomData,
        }
    }
}

impl<'a, T: Plain> PlainRun<'a, T> {
    /// The run `bytes` holds (a partial value at the end is left out).
    pub fn new(bytes: &'a [u8]) -> Self {
        let whole = bytes.len() - bytes.len() % size_of::<T>().max(1);
        PlainRun {
            bytes: bytes.get(..whole).unwrap_or_default(),
            _values: PhantomData,
        }
    }

    /// How many values.
    #[inline]
    pub fn len(&self) -> usize {
        self.bytes.len() / size_of::<T>().max(1)
    }

    /// Whether there are none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The `index`th value.
    #[inline]
    pub fn get(&self, index: usize) -> Option<T> {
        let size = size_of::<T>();
        T::read_le(self.bytes.get(index.checked_mul(size)?..)?)
    }

    /// The values in order.
    #[inline]
    pub fn iter(&self) -> PlainIter<'a, T> {
        PlainIter {
            chunks: self.bytes.chunks_exact(size_of::<T>().max(1)),
            _values: PhantomData,
        }
    }

    /// The values, copied out (one copy for scalars and arrays of them).
    pub fn to_vec(&self) -> Vec<T> {
        T::read_vec_le(self.bytes)
    }

    /// The bytes of the run, as in the input.
    #[inline]
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }
}

impl<T: Plain + fmt::Debug> fmt::Debug for PlainRun<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a, T: Plain> IntoIterator for PlainRun<'a, T> {
    type Item = T;
    type IntoIter = PlainIter<'a, T>;
    fn into_iter(self) -> PlainIter<'a, T> {
        self.iter()
    }
}

/// The values of a [`PlainRun`].
#[derive(Clone)]
pub struct PlainIter<'a, T> {
    chunks: core::slice::ChunksExact<'a, u8>,
    _values: PhantomData<T>,
}

impl<T: Plain> Iterator for PlainIter<'_, T> {
    type Item = T;
    #[inline]
    fn next(&mut self) -> Option<T> {
        T::read_le(self.chunks.next()?)
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.chunks.size_hint()
    }
}

impl<T: Plain> DoubleEndedIterator for PlainIter<'_, T> {
    #[inline]
    fn next_back(&mut self) -> Option<T> {
        T::read_le(self.chunks.next_back()?)
    }
}

impl<T: Plain> ExactSizeIterator for PlainIter<'_, T> {}
impl<T: Plain> FusedIterator for PlainIter<'_, T> {}

/// One part of each record of a run of fixed-size records (the keys or
/// the tangents of an MDX track, `#[format(split(..))]`): record `i`'s
/// part is at `i * stride + offset`, decoded when asked for.
pub struct RecordRun<'a, R> {
    bytes: &'a [u8],
    stride: usize,
    offset: usize,
    count: usize,
    _records: PhantomData<R>,
}

impl<R> Clone for RecordRun<'_, R> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<R> Copy for RecordRun<'_, R> {}

impl<R> Default for RecordRun<'_, R> {
    fn default() -> Self {
        RecordRun {
            bytes: &[],
            stride: 0,
            offset: 0,
            count: 0,
            _records: PhantomData,
        }
    }
}

impl<'a, R: Record> RecordRun<'a, R> {
    /// How many.
    #[inline]
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether there are none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The `index`th one.
    #[inline]
    pub fn get(&self, index: usize) -> Option<R> {
        if index >= self.count {
            return None;
        }
        let at = index.checked_mul(self.stride)?.checked_add(self.offset)?;
        Some(R::read_record(records::from(self.bytes, at)))
    }

    /// All of them, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = R> + DoubleEndedIterator + 'a {
        let run = *self;
        (0..self.count).map(move |i| {
            let at = i * run.stride + run.offset;
            R::read_record(records::from(run.bytes, at))
        })
    }

    /// All of them, copied out.
    pub fn to_vec(&self) -> Vec<R> {
        self.iter().collect()
    }
}

impl<R: Record + fmt::Debug> fmt::Debug for RecordRun<'_, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// `count` records, each an `H` and (when `tails` holds) a `T`, viewed in
/// place as two runs (the second empty without tails), with the checks and
/// errors of [`records::decode_split`].
pub fn view_split<'a, H, T>(
    r: &mut Reader<'a>,
    count: u64,
    tails: bool,
) -> Result<(RecordRun<'a, H>, RecordRun<'a, T>)>
where
    H: Record + Decode<Args = ()>,
    T: Record + Decode<Args = ()>,
{
    let stride = H::SIZE + if tails { T::SIZE } else { 0 };
    let at = r.pos();
    let n = usize::try_from(count).unwrap_or(usize::MAX);
    let Ok(bytes) = r.records(n, stride) else {
        // The records do not fit: the owned reader's walk names the
        // element and field that ran out.
        return match records::decode_split::<H, T>(r, count, tails) {
            Err(e) => Err(e),
            Ok(_) => Err(Error::invalid(at, "records that do not fit were read")),
        };
    };
    let count = n;
    let heads = RecordRun {
        bytes,
        stride,
        offset: 0,
        count,
        _records: PhantomData,
    };
    let rest = RecordRun {
        bytes,
        stride,
        offset: H::SIZE,
        count: if tails { count } else { 0 },
        _records: PhantomData,
    };
    Ok((heads, rest))
}
