//! The two traits every readable and writable type implements, and the
//! entry points that run them over a whole input.

use alloc::vec::Vec;
use core::mem::size_of;

use crate::{Context, Error, FourCC, Plain, Reader, Result, UnknownChunk, UnknownTail, Writer};

/// A type that can be read from a [`Reader`].
///
/// Implemented by `#[derive(Codec)]`, by every [`Plain`] type, and by hand where
/// a layout cannot be declared.
pub trait Decode: Sized {
    /// What the caller passes in (`()` for most types; a key track passes its
    /// interpolation type to each key).
    type Args: Clone;

    /// A lower bound on the encoded size, used to check a count against the bytes
    /// left before allocating for it.
    const MIN_SIZE: usize;

    /// Reads one value.
    fn decode(r: &mut Reader<'_>, args: Self::Args) -> Result<Self>;

    /// Reads `count` values. The count comes from the data, so an implementation
    /// must check it against the bytes left ([`Reader::check_count`]) before
    /// allocating: the default does, then reads the values one by one; plain
    /// types override it with one bulk copy (whose count is checked the same way).
    fn decode_many(r: &mut Reader<'_>, count: usize, args: Self::Args) -> Result<Vec<Self>> {
        decode_each(r, count, args)
    }

    /// Reads values until the enclosing region ends (`#[format(until_end)]`):
    /// one by one by default; plain types override it with one bulk copy.
    fn decode_rest(r: &mut Reader<'_>, args: Self::Args) -> Result<Vec<Self>> {
        decode_while(r, args, |r| !r.is_empty())
    }
}

/// Reads `count` values one by one, after checking the count against the
/// bytes left: the default [`Decode::decode_many`], public for a type whose
/// own bulk `decode_many` falls back to it (to name the element that failed).
///
/// ```
/// use format_core::{Reader, decode_each};
/// let mut r = Reader::new(&[1, 0, 2, 0]);
/// assert_eq!(decode_each::<u16>(&mut r, 2, ())?, [1, 2]);
/// // The count is checked against the bytes left before anything is allocated.
/// let err = decode_each::<u16>(&mut Reader::new(&[1, 0, 2]), 2, ()).unwrap_err();
/// assert!(err.to_string().starts_with("count 2 needs at least 4 bytes"), "{err}");
/// # Ok::<(), format_core::Error>(())
/// ```
pub fn decode_each<T: Decode>(r: &mut Reader<'_>, count: usize, args: T::Args) -> Result<Vec<T>> {
    let mut items = r.list_for::<T>(count as u64, T::MIN_SIZE)?;
    let mut empty = EmptyElements::default();
    for i in 0..count {
        let before = r.pos();
        items.push(T::decode(r, args.clone()).map_err(|e| e.at_index(i))?);
        empty.check::<T>(before, r.pos(), i)?;
    }
    Ok(items)
}

/// Memory that elements which read no bytes may take in one list (16 MiB):
/// their count is checked against the bytes left as if each read one, so
/// without this limit a count the input sets would allocate up to
/// `size_of::<T>()` bytes per byte of input (4 GiB for a 1 MB file of
/// 4 KiB elements whose fields are all absent).
pub const EMPTY_ELEMENTS_BUDGET: usize = 16 << 20;

/// Counts the elements of a list that read no bytes, against
/// [`EMPTY_ELEMENTS_BUDGET`].
#[derive(Default)]
#[doc(hidden)]
pub struct EmptyElements {
    count: usize,
}

impl EmptyElements {
    /// Notes element `index`, which read from `before` to `after`: an
    /// error once the elements that read nothing take more than the budget.
    #[inline]
    pub fn check<T>(&mut self, before: usize, after: usize, index: usize) -> Result<()> {
        if after != before {
            return Ok(());
        }
        self.count += 1;
        if self.count.saturating_mul(size_of::<T>()) <= EMPTY_ELEMENTS_BUDGET {
            return Ok(());
        }
        Err(Error::invalid(
            before,
            alloc::format!(
                "{} elements that read no bytes take more than {} MiB of memory \
                 ({} bytes each): refusing to allocate more for a count the input sets",
                self.count,
                EMPTY_ELEMENTS_BUDGET >> 20,
                size_of::<T>()
            ),
        )
        .at_index(index))
    }
}

/// A type that can be written to a [`Writer`].
pub trait Encode {
    /// What the caller passes in (mirrors [`Decode::Args`]).
    type Args: Clone;

    /// Writes one value. Offsets, sizes and counts derived from where things
    /// land are reserved and resolved by the writer (see
    /// [`Writer::scope`]); parts placed by offset go where their region lays
    /// them out: one call writes a value whole.
    fn encode(&self, w: &mut Writer, args: Self::Args) -> Result<()>;

    /// Writes all of `items`. Plain types override it with one bulk copy.
    fn encode_many(items: &[Self], w: &mut Writer, args: Self::Args) -> Result<()>
    where
        Self: Sized,
    {
        for (i, item) in items.iter().enumerate() {
            item.encode(w, args.clone()).map_err(|e| e.at_index(i))?;
        }
        Ok(())
    }
}

/// A tag-dispatched enum: says, from a peeked tag, whether one of its variants
/// reads what follows. Generated by `#[derive(Codec)]` for enums whose variants
/// have `tag`, `chunk` or tagged inner types; used by `#[format(tagged)]` lists.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tag-dispatched enum",
    label = "`#[format(tagged)]` needs a Vec of an enum whose variants carry `tag = \"...\"` or `chunk = \"...\"`"
)]
pub trait Tagged {
    /// Every tag a variant names, in declaration order, whatever its version
    /// gate; empty for a type that takes any tag (an `unknown` fallback adds
    /// nothing here).
    const TAGS: &'static [FourCC];

    /// True if a variant accepts `tag` in `ctx` (version gates included).
    fn accepts(tag: FourCC, ctx: &Context) -> bool;
}

/// A type that starts with a known tag (`#[format(chunk = "...")]` or
/// `#[format(magic = "...")]`), so an enum variant can dispatch on it.
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not start with a known tag",
    label = "give the variant `tag = \"...\"` or `chunk = \"...\"`, or the type `#[format(chunk = \"...\")]`"
)]
pub trait HasTag {
    /// The tag the encoding starts with.
    const TAG: FourCC;
}

/// The tag a value starts with, known from the value: the tag of the variant a
/// tag-dispatched enum holds (generated, with an inherent `tag()` method), of
/// an [`UnknownChunk`], or of a type with a fixed tag ([`HasTag`]).
pub trait ChunkTag {
    /// The tag, in spec order.
    fn tag(&self) -> FourCC;
}

impl<T: HasTag> ChunkTag for T {
    #[inline]
    fn tag(&self) -> FourCC {
        T::TAG
    }
}

impl ChunkTag for UnknownChunk {
    #[inline]
    fn tag(&self) -> FourCC {
        self.tag
    }
}

impl ChunkTag for UnknownTail {
    #[inline]
    fn tag(&self) -> FourCC {
        self.tag
    }
}

impl<T: Plain> Decode for T {
    type Args = ();
    const MIN_SIZE: usize = size_of::<T>();

    #[inline]
    fn decode(r: &mut Reader<'_>, _: ()) -> Result<Self> {
        r.plain()
    }

    #[inline]
    fn decode_many(r: &mut Reader<'_>, count: usize, _: ()) -> Result<Vec<Self>> {
        r.plain_vec(count)
    }

    /// One bulk copy of every whole element left; a partial element at the
    /// end is the error reading it one by one would give.
    fn decode_rest(r: &mut Reader<'_>, _: ()) -> Result<Vec<Self>> {
        let count = r.remaining() / size_of::<T>().max(1);
        let items = r.plain_vec(count)?;
        if !r.is_empty() {
            return Err(r.plain::<T>().err().map_or_else(
                || Error::invalid(r.pos(), "a partial element at the end"),
                |e| e.at_index(count),
            ));
        }
        Ok(items)
    }
}

impl<T: Plain> Encode for T {
    type Args = ();

    #[inline]
    fn encode(&self, w: &mut Writer, _: ()) -> Result<()> {
        w.plain(self);
        Ok(())
    }

    #[inline]
    fn encode_many(items: &[Self], w: &mut Writer, _: ()) -> Result<()> {
        w.plain_slice(items);
        Ok(())
    }
}

/// A tag is read and written in the context's [`TagOrder`](crate::TagOrder).
impl Decode for FourCC {
    type Args = ();
    const MIN_SIZE: usize = 4;

    #[inline]
    fn decode(r: &mut Reader<'_>, _: ()) -> Result<Self> {
        r.tag()
    }
}

impl Encode for FourCC {
    type Args = ();

    #[inline]
    fn encode(&self, w: &mut Writer, _: ()) -> Result<()> {
        w.tag(*self);
        Ok(())
    }
}

/// Reads a `T` from all of `data` in `ctx`; bytes left over are an error.
///
/// ```
/// use format_core::{decode, encode, Context};
/// let v: [u32; 2] = decode(&[1, 0, 0, 0, 2, 0, 0, 0], Context::new())?;
/// assert_eq!(v, [1, 2]);
/// assert_eq!(encode(&v, Context::new())?, [1, 0, 0, 0, 2, 0, 0, 0]);
/// # Ok::<(), format_core::Error>(())
/// ```
pub fn decode<T: Decode<Args = ()>>(data: &[u8], ctx: Context) -> Result<T> {
    let mut r = Reader::with_context(data, ctx);
    let value = T::decode(&mut r, ())?;
    r.finish()?;
    Ok(value)
}

/// Writes `value` in `ctx` into a new buffer.
pub fn encode<T: Encode<Args = ()> + ?Sized>(value: &T, ctx: Context) -> Result<Vec<u8>> {
    let mut w = Writer::with_context(ctx);
    value.encode(&mut w, ())?;
    Ok(w.into_bytes())
}

/// Reads elements while `more` says so. Every element must consume at least
/// one byte, so the loop (and the list) is bounded by the region's size.
fn decode_while<T: Decode>(
    r: &mut Reader<'_>,
    args: T::Args,
    more: impl Fn(&Reader<'_>) -> bool,
) -> Result<Vec<T>> {
    let mut items = Vec::new();
    while more(r) {
        let before = r.pos();
        let item = T::decode(r, args.clone()).map_err(|e| e.at_index(items.len()))?;
        if r.pos() == before {
            return Err(Error::invalid(
                before,
                "an element consumed no bytes; refusing to loop forever",
            )
            .at_index(items.len()));
        }
        items.push(item);
    }
    Ok(items)
}

/// Reads elements until the enclosing region ends: what `#[format(until_end)]`
/// generates, for hand-written (`read_with`) code that wraps such a list.
pub fn decode_until_end<T: Decode>(r: &mut Reader<'_>, args: T::Args) -> Result<Vec<T>> {
    T::decode_rest(r, args)
}

/// Reads tagged sub-chunks while the next tag is one `T` accepts: what
/// `#[format(tagged)]` generates, for hand-written (`read_with`) code that wraps
/// such a list. Elements keep their file order.
pub fn decode_tagged<T: Decode + Tagged>(r: &mut Reader<'_>, args: T::Args) -> Result<Vec<T>> {
    decode_while(r, args, |r| {
        r.peek_tag().is_some_and(|tag| T::accepts(tag, r.ctx()))
    })
}
