//! The [`View`] trait.

use alloc::vec::Vec;

use crate::{Decode, Reader, Result};

/// A type that can be viewed in place: derived by `#[derive(Codec)]` for
/// every definition, implemented for every [`Plain`](crate::Plain) type
/// (its view is the value) and by the runtime's own types (see the
/// [module](crate::view) docs for which view each field gets).
pub trait View: Decode {
    /// The view: borrows the input, `Copy`, the owned type's fields under
    /// the same names.
    type View<'a>: Copy;

    /// How a run of these is viewed (`Vec<Self>` in a definition): a
    /// [`PlainRun`](crate::view::PlainRun) for plain types, a
    /// [`ListView`](crate::view::ListView) for derived ones, a
    /// [`ChunkListView`](crate::view::ChunkListView) for a file's chunks.
    type Run<'a>: Copy;

    /// Viewing it changes the reader's context (a `sets_version` field): a
    /// chunk walk views it even where it only skips chunks.
    const SETS_CONTEXT: bool = false;

    /// It is a chunk (`#[format(chunk = "....")]`: a tag and a size that
    /// covers it): a chunk walk can step over it by its header.
    const CHUNK: bool = false;

    /// Views one value at the reader, which moves past it, with the checks
    /// (and errors) of [`Decode::decode`].
    fn view<'a>(r: &mut Reader<'a>, args: Self::Args) -> Result<Self::View<'a>>;

    /// Views a run of `count` values (`None`: to the end of the region),
    /// with the checks (and errors) of [`Decode::decode_many`] and
    /// [`Decode::decode_rest`].
    fn view_run<'a>(
        r: &mut Reader<'a>,
        count: Option<u64>,
        args: Self::Args,
    ) -> Result<Self::Run<'a>>;

    /// The owned value a view shows, built from its fields.
    fn from_view(view: &Self::View<'_>) -> Result<Self>;

    /// The owned values a run shows.
    fn from_run(run: &Self::Run<'_>) -> Result<Vec<Self>>;
}
