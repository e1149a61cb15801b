//! Chunks of the user's own, in a list of chunks that keeps the ones its
//! format does not know as [`UnknownChunk`]s in place: the logic behind
//! `chunk::<T>()` and `set_chunk(&T)` of [`adt::mcnk::Mcnk`](crate::adt::mcnk::Mcnk),
//! whose sub-chunks are walked by hand (`adt/mcnk/walk.rs`). The files'
//! own chunk lists (`Model`, `Adt`, `Wdt`, `SplitFile`) are derived and
//! have theirs from `format_core::chunk_list`.
//!
//! A user type derives `Codec` with `#[format(chunk = "MYCK")]` (so it has a
//! [`HasTag`]); its chunk is found by that tag, decoded from the kept bytes in
//! the context of the file (the MDX version, the reversed tags of ADT and
//! WDT), and set by encoding it in the same context. A tag the format reads
//! itself is not a chunk of the user's own: its typed variant is the way to
//! it, so both directions refuse it rather than guess.

use format_core::{
    ChunkTag, Context, Decode, Encode, Error, FourCC, HasTag, Result, Tagged, UnknownChunk, decode,
    encode,
};

/// A format's list of chunks whose fallback variant keeps an unknown chunk
/// in place (`Unknown(UnknownChunk)`).
pub(crate) trait UnknownSlot: ChunkTag + Tagged + Sized {
    /// The chunk kept as bytes, if this is one.
    fn as_unknown(&self) -> Option<&UnknownChunk>;
    /// The same, to replace its bytes.
    fn as_unknown_mut(&mut self) -> Option<&mut UnknownChunk>;
    /// A chunk kept as bytes.
    fn unknown(chunk: UnknownChunk) -> Self;
}

/// `UnknownSlot` for chunk enums whose fallback variant is `Unknown`.
macro_rules! unknown_slot {
    ($($ty:ty),* $(,)?) => {$(
        impl $crate::custom::UnknownSlot for $ty {
            fn as_unknown(&self) -> Option<&format_core::UnknownChunk> {
                match self {
                    Self::Unknown(chunk) => Some(chunk),
                    _ => None,
                }
            }

            fn as_unknown_mut(&mut self) -> Option<&mut format_core::UnknownChunk> {
                match self {
                    Self::Unknown(chunk) => Some(chunk),
                    _ => None,
                }
            }

            fn unknown(chunk: format_core::UnknownChunk) -> Self {
                Self::Unknown(chunk)
            }
        }
    )*};
}
pub(crate) use unknown_slot;

/// The error for a tag the format reads itself: `make` is [`Error::invalid`]
/// when reading, [`Error::inconsistent`] when writing.
fn known_tag(make: fn(usize, String) -> Error, tag: FourCC) -> Error {
    make(
        0,
        format!(
            "`{tag}` is a chunk the format reads itself (a typed variant), not one of the \
             user's own"
        ),
    )
    .in_tag(tag)
}

/// The first chunk of `chunks` with `T`'s tag, decoded as a `T` in `ctx`:
/// `None` if there is none, an error if it does not decode (offsets count
/// from the chunk's header) or if the format reads that tag itself.
pub(crate) fn chunk<T, C>(chunks: &[C], ctx: Context) -> Option<Result<T>>
where
    T: Decode<Args = ()> + HasTag,
    C: UnknownSlot,
{
    let (index, found) = chunks.iter().enumerate().find(|(_, c)| c.tag() == T::TAG)?;
    let decoded = match found.as_unknown() {
        Some(kept) => encode(kept, ctx).and_then(|bytes| decode::<T>(&bytes, ctx)),
        None => Err(known_tag(Error::invalid, T::TAG)),
    };
    Some(decoded.map_err(|e| e.at_index(index).in_field("chunks")))
}

/// Puts `value` in place of the first chunk with its tag, or after the last
/// chunk if there is none. `value` must encode as one chunk (`chunk = "..."`)
/// of a tag the format does not read itself.
pub(crate) fn set_chunk<T, C>(chunks: &mut Vec<C>, value: &T, ctx: Context) -> Result<()>
where
    T: Encode<Args = ()> + HasTag,
    C: UnknownSlot,
{
    let tag = T::TAG;
    let bytes = encode(value, ctx)?;
    let kept: UnknownChunk = decode(&bytes, ctx).map_err(|e| {
        Error::inconsistent(
            e.offset(),
            format!(
                "`{tag}` does not encode as one chunk (tag, size, body: derive it with \
                 `#[format(chunk = \"{tag}\")]`): {e}"
            ),
        )
    })?;
    match chunks.iter_mut().find(|c| c.tag() == tag) {
        Some(slot) => match slot.as_unknown_mut() {
            Some(unknown) => *unknown = kept,
            None => return Err(known_tag(Error::inconsistent, tag)),
        },
        None if C::TAGS.contains(&tag) => return Err(known_tag(Error::inconsistent, tag)),
        None => chunks.push(C::unknown(kept)),
    }
    Ok(())
}
