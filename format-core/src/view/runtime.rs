//! Views of the runtime's own types, and of hand-written ones.

use alloc::vec::Vec;

use crate::{CutChunk, FourCC, Reader, Result, UndecodedChunk, UnknownChunk, UnknownTail};

use super::{ListView, View};

/// Gives hand-written [`Decode`](crate::Decode) types (whose layout only
/// their reader knows) the view [`Lazy`](crate::view::Lazy): their bytes, found by reading
/// them once, decoded on [`Lazy::get`](crate::view::Lazy::get); a run of them is a [`ListView`].
/// `chunk` marks a type that is a whole chunk (tag, size and body), which
/// a chunk walk steps over by its header without reading it.
///
/// ```
/// use format_core::{Decode, Reader, Result, View, decoded_view};
///
/// /// Read by hand: a `u8` length, then that many bytes.
/// #[derive(Debug, PartialEq)]
/// struct Name(Vec<u8>);
///
/// impl Decode for Name {
///     type Args = ();
///     const MIN_SIZE: usize = 1;
///     fn decode(r: &mut Reader<'_>, _: ()) -> Result<Self> {
///         let n = r.u8()?;
///         Ok(Name(r.bytes(usize::from(n))?.to_vec()))
///     }
/// }
/// decoded_view!(Name);
///
/// let view = Name::view(&mut Reader::new(b"\x02hi"), ())?;
/// assert_eq!(view.as_bytes(), b"\x02hi");
/// assert_eq!(view.get()?, Name(b"hi".to_vec()));
/// # Ok::<(), format_core::Error>(())
/// ```
#[macro_export]
macro_rules! decoded_view {
    ($($t:ty),* $(,)?) => {$(
        $crate::decoded_view!(@impl $t, false);
    )*};
    (chunk: $($t:ty),* $(,)?) => {$(
        $crate::decoded_view!(@impl $t, true);
    )*};
    (@impl $t:ty, $chunk:expr) => {
        impl $crate::View for $t {
            type View<'a> = $crate::view::Lazy<'a, $t>;
            type Run<'a> = $crate::view::ListView<'a, $t>;
            const CHUNK: bool = $chunk;

            fn view<'a>(
                r: &mut $crate::Reader<'a>,
                args: <$t as $crate::Decode>::Args,
            ) -> $crate::Result<Self::View<'a>> {
                $crate::view::Lazy::read(r, args)
            }

            fn view_run<'a>(
                r: &mut $crate::Reader<'a>,
                count: ::core::option::Option<u64>,
                args: <$t as $crate::Decode>::Args,
            ) -> $crate::Result<Self::Run<'a>> {
                $crate::view::ListView::walk(r, count, args)
            }

            fn from_view(view: &Self::View<'_>) -> $crate::Result<Self> {
                view.get()
            }

            fn from_run(run: &Self::Run<'_>) -> $crate::Result<$crate::__private::Vec<Self>> {
                run.to_vec()
            }
        }
    };
}

decoded_view!(chunk: UnknownChunk, CutChunk, UndecodedChunk);
decoded_view!(UnknownTail);

/// A tag is its own view.
impl View for FourCC {
    type View<'a> = FourCC;
    type Run<'a> = ListView<'a, FourCC>;

    fn view<'a>(r: &mut Reader<'a>, args: ()) -> Result<FourCC> {
        <FourCC as crate::Decode>::decode(r, args)
    }

    fn view_run<'a>(
        r: &mut Reader<'a>,
        count: Option<u64>,
        args: (),
    ) -> Result<ListView<'a, FourCC>> {
        ListView::walk(r, count, args)
    }

    fn from_view(view: &FourCC) -> Result<FourCC> {
        Ok(*view)
    }

    fn from_run(run: &ListView<'_, FourCC>) -> Result<Vec<FourCC>> {
        run.to_vec()
    }
}
