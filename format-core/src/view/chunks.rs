//! A file's chunks as one walk over their headers.

use alloc::vec::Vec;
use core::fmt;

use crate::chunk_list::ChunkList;
use crate::{Context, Error, FourCC, HasTag, Reader, Result};

use super::View;

/// A chunk list's steps over one chunk without viewing its content:
/// derived for a `#[format(chunk_list)]` enum.
pub trait ChunkWalk: ChunkList + View {
    /// Moves the reader past the chunk at it (and what the list reads after
    /// it), checking its tag and size against the bytes left, with the
    /// errors of the owned reader. A chunk that changes the context (`VERS`)
    /// is viewed, so the chunks after it see its version.
    fn skip(r: &mut Reader<'_>) -> Result<()>;
}

/// Moves past a chunk `tag` whose tag is next: its size checked against
/// the bytes left, as the owned reader's `chunk` header is.
pub fn skip_chunk(r: &mut Reader<'_>, tag: FourCC) -> Result<()> {
    r.skip(4)?;
    r.chunk(|r| r.skip(r.remaining()))
        .map_err(|e| e.in_tag(tag))
}

/// [`skip_chunk`], for the variant of a type that is a chunk of its own
/// (`T::CHUNK`); any other type is viewed whole.
pub fn skip_inner_chunk<T: View<Args = ()>>(r: &mut Reader<'_>, tag: FourCC) -> Result<()> {
    if <T as View>::CHUNK {
        skip_chunk(r, tag)
    } else {
        T::view(r, ()).map(|_| ())
    }
}

/// Runs `body` at `pos` (in a region to `end`) with the chunks of the
/// list at `r.sibling_span` installed as the siblings offsets resolve in.
pub(crate) fn with_siblings<'a, T>(
    r: &mut Reader<'a>,
    pos: usize,
    end: usize,
    body: impl FnOnce(&mut Reader<'a>) -> Result<T>,
) -> Result<T> {
    let Some((start, list_end)) = r.sibling_span else {
        r.set_bounds(pos, end);
        return body(r);
    };
    r.set_bounds(start, list_end);
    let siblings = crate::anchor::scan_chunks(r);
    r.set_bounds(pos, end);
    r.with_siblings(siblings, body)
}

/// A file's chunks (`#[format(chunk_list)]`), found by one walk over their
/// headers when the file was viewed: each tag and size checked against the
/// bytes left, nothing allocated. A chunk's content is viewed, with every
/// check, when the chunk is reached ([`iter`](Self::iter),
/// [`find`](Self::find), [`chunk`](Self::chunk)); its errors name it as the
/// owned reader does (`chunks[5].GEOS.geosets[2]…`). Each of these walks
/// the headers again from the first chunk (a model has a few dozen; a
/// terrain tile a few hundred): [`entries`](Self::entries) collected
/// into a `Vec` is an index for random access.
pub struct ChunkListView<'a, C> {
    data: &'a [u8],
    start: usize,
    end: usize,
    count: usize,
    ctx: Context,
    field: &'static str,
    _chunks: core::marker::PhantomData<C>,
}

impl<C> Clone for ChunkListView<'_, C> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<C> Copy for ChunkListView<'_, C> {}

/// Where a chunk is: its index in the list, tag, and bytes (from its tag
/// to the end of what the list reads for it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkEntry {
    /// Its index in the list (`chunks[index]`).
    pub index: usize,
    /// Its tag, in spec order.
    pub tag: FourCC,
    /// Where its tag starts.
    pub start: usize,
    /// Where the next chunk starts.
    pub end: usize,
    /// The context it is read in (the version a `VERS` before it set).
    pub ctx: Context,
}

impl<'a, C: ChunkWalk> ChunkListView<'a, C> {
    /// Walks the chunks to the end of the region (what `Vec<C>` with
    /// `until_end` views as).
    pub fn walk(r: &mut Reader<'a>) -> Result<Self> {
        let (start, ctx) = (r.pos(), *r.ctx());
        let mut count = 0;
        while !r.is_empty() {
            if let Err(e) = C::skip(r) {
                return Err(Self::first_error(
                    r.input(),
                    (start, r.end()),
                    count,
                    ctx,
                    e.at_index(count),
                ));
            }
            count += 1;
        }
        Ok(ChunkListView {
            data: r.input(),
            start,
            end: r.pos(),
            count,
            ctx,
            field: "chunks",
            _chunks: core::marker::PhantomData,
        })
    }

    /// The error the owned reader gives for a list whose walk failed at
    /// chunk `failed` with `error`: the first chunk before it whose content
    /// does not view (the owned reader reads each chunk's content before
    /// the next header, so a wrong size shows there first), else `error`.
    #[cold]
    fn first_error(
        data: &'a [u8],
        (start, end): (usize, usize),
        failed: usize,
        ctx: Context,
        error: Error,
    ) -> Error {
        let mut r = Reader::with_context(data, ctx);
        r.set_bounds(start, end);
        for index in 0..failed {
            let at = r.pos();
            let mut one = Reader::with_context(data, *r.ctx());
            one.set_bounds(at, end);
            if let Err(e) = C::view(&mut one, ()) {
                return e.at_index(index);
            }
            if C::skip(&mut r).is_err() {
                break;
            }
        }
        error
    }

    /// The same list, its errors naming it `field` (the `Vec` field it is).
    pub fn named(mut self, field: &'static str) -> Self {
        self.field = field;
        self
    }

    /// How many chunks.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
}

impl<'a, C: ChunkWalk + 'a> ChunkListView<'a, C> {
    /// Where each chunk is, in file order (no content is viewed).
    pub fn entries(&self) -> impl Iterator<Item = ChunkEntry> + 'a {
        let mut r = Reader::with_context(self.data, self.ctx);
        r.set_bounds(self.start, self.end);
        let mut index = 0;
        core::iter::from_fn(move || {
            if r.is_empty() {
                return None;
            }
            let (start, ctx) = (r.pos(), *r.ctx());
            let tag = r.peek_tag()?;
            // The walk that made the list checked these steps.
            C::skip(&mut r).ok()?;
            index += 1;
            Some(ChunkEntry {
                index: index - 1,
                tag,
                start,
                end: r.pos(),
                ctx,
            })
        })
    }

    /// The chunk at `entry` viewed (its content checked): errors name it
    /// `chunks[i]`.
    pub fn view_entry(&self, entry: &ChunkEntry) -> Result<C::View<'a>> {
        self.view_at::<C>(entry)
    }

    fn view_at<T: View<Args = ()>>(&self, entry: &ChunkEntry) -> Result<T::View<'a>> {
        let mut r = Reader::with_context(self.data, entry.ctx);
        if C::PARENT {
            // Offsets in the chunks name other chunks of the list: they are
            // installed as the siblings those resolve in, as the owned list
            // reader installs them.
            r.sibling_span = Some((self.start, self.end));
        }
        with_siblings(&mut r, entry.start, self.end, |r| T::view(r, ()))
            .map_err(|e: Error| e.at_index(entry.index).in_field(self.field))
    }

    /// Each chunk viewed in turn, its content checked when it is reached.
    pub fn iter(&self) -> impl Iterator<Item = Result<C::View<'a>>> + 'a {
        let list = *self;
        self.entries().map(move |entry| list.view_at::<C>(&entry))
    }

    /// The first chunk with `tag`, viewed.
    pub fn find(&self, tag: FourCC) -> Option<Result<C::View<'a>>> {
        let entry = self.entries().find(|entry| entry.tag == tag)?;
        Some(self.view_at::<C>(&entry))
    }

    /// The first chunk with `T`'s tag viewed as a `T`: a chunk of the
    /// user's own, which the list keeps as unknown (`T` derives `Codec`
    /// with `#[format(chunk = "....")]`), or any chunk read as a type of
    /// the caller's choosing. Errors name it as its chunk (`chunks[12].MYCK.…`).
    pub fn chunk<T: View<Args = ()> + HasTag>(&self) -> Option<Result<T::View<'a>>> {
        let entry = self.entries().find(|entry| entry.tag == T::TAG)?;
        Some(self.view_at::<T>(&entry))
    }

    /// The owned chunks.
    pub fn to_vec(&self) -> Result<Vec<C>> {
        self.iter().map(|view| C::from_view(&view?)).collect()
    }
}

impl<C: ChunkWalk> fmt::Debug for ChunkListView<'_, C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.entries().map(|e| e.tag))
            .finish()
    }
}
