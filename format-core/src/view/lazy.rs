//! Values no declaration lets a view read in place.

use core::fmt;
use core::marker::PhantomData;

use crate::{Context, Decode, Reader, Result};

/// A value whose view is its bytes, decoded by the owned reader on
/// [`get`](Self::get): the view of a type whose parts are placed by offset,
/// that keeps what a file wrote differently, or that is read by hand
/// (`read_with`, a hand-written [`Decode`]), whose layout only its reader
/// knows. Where such a value ends is found by reading it once when it is
/// viewed (its errors are the owned reader's).
pub struct Lazy<'a, T: Decode> {
    data: &'a [u8],
    start: usize,
    end: usize,
    region_end: usize,
    ctx: Context,
    args: T::Args,
    /// The list whose chunks offsets in it resolve in (`parent[...]`).
    siblings: Option<(usize, usize)>,
    _value: PhantomData<T>,
}

impl<T: Decode> Clone for Lazy<'_, T>
where
    T::Args: Copy,
{
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: Decode> Copy for Lazy<'_, T> where T::Args: Copy {}

impl<'a, T: Decode> Lazy<'a, T>
where
    T::Args: Copy,
{
    /// Reads the value at the reader (which moves past it) to find its
    /// end, and keeps where it is.
    pub fn read(r: &mut Reader<'a>, args: T::Args) -> Result<Self> {
        let (start, region_end, ctx) = (r.pos(), r.end(), *r.ctx());
        T::decode(r, args)?;
        let mut lazy = Self::at(r.input(), start, r.pos(), region_end, ctx, args);
        lazy.siblings = r.sibling_span;
        Ok(lazy)
    }

    /// The value from `start` to `end` of `data`, read in a region ending
    /// at `region_end`, with `ctx`.
    pub fn at(
        data: &'a [u8],
        start: usize,
        end: usize,
        region_end: usize,
        ctx: Context,
        args: T::Args,
    ) -> Self {
        Lazy {
            data,
            start,
            end,
            region_end,
            ctx,
            args,
            siblings: None,
            _value: PhantomData,
        }
    }

    /// The value, decoded.
    pub fn get(&self) -> Result<T> {
        let mut r = Reader::with_context(self.data, self.ctx);
        r.sibling_span = self.siblings;
        super::chunks::with_siblings(&mut r, self.start, self.region_end, |r| {
            T::decode(r, self.args)
        })
    }

    /// Its bytes, as in the input.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.data.get(self.start..self.end).unwrap_or_default()
    }

    /// Where it starts in the input.
    pub fn offset(&self) -> usize {
        self.start
    }
}

impl<T: Decode> fmt::Debug for Lazy<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Lazy<{}>({:#x}..{:#x})",
            core::any::type_name::<T>(),
            self.start,
            self.end
        )
    }
}
