//! Borrowed views: a parse that builds nothing.
//!
//! `#[derive(Codec)]` also derives [`View`] for every definition: a view
//! type (`GeosetView<'a>` for `Geoset`) that borrows the input, is `Copy`,
//! and has the owned type's fields under the same names, each as its view:
//!
//! | owned field | view field |
//! |---|---|
//! | a [`Plain`](crate::Plain) value (integers, floats, arrays, [`FixedStr`](crate::FixedStr), `#[format(plain)]` structs), a value enum | the value itself |
//! | `Vec<T>` of a `Plain` `T` (vertices, faces, sequences) | a [`PlainRun`]: the checked bytes, each element decoded on access (unaligned little-endian, no alignment assumed, nothing copied) |
//! | `Vec<T>` of a derived `T` (counted, `until_end`, `tagged`) | a [`ListView`]: where the run is and how many, each element viewed on access |
//! | the records of a `split` list and its tails | two [`RecordRun`]s over the one run |
//! | `Option<T>` | `Option` of its view |
//! | a `chunk_list` (`Vec<Chunk>` of a file) | a [`ChunkListView`]: the chunk walk, each chunk's content viewed (checked) on access |
//! | a type with parts placed by offset, kept values or a hand-written reader | a [`Lazy`]: its bytes, decoded on [`Lazy::get`] |
//!
//! Derived fields (counts, offsets, sizes) are not fields of the view, as
//! they are not of the owned type; `skip` fields neither.
//!
//! # When the input is checked
//!
//! A view is made by the same walk as the owned reader, with the same
//! checks, in the same order, so a damaged input gives the same error, at
//! the same offset and path of fields, as the strict owned reader. Opening
//! a file's view ([`View::view`] at the top) runs only its chunk walk: the
//! tags and sizes of the chunks, checked against the bytes left. A chunk's
//! content is checked when it is first viewed ([`ChunkListView::iter`],
//! [`ChunkListView::find`]), in one walk that allocates nothing; its runs
//! of elements are then walked again, without checks that could fail, each
//! time they are iterated. Views are strict: what the lenient owned reader
//! recovers is an error here.
//!
//! `to_owned()` on a view builds the owned value from the view's fields,
//! field by field: it equals the owned parse of the same bytes (the tests
//! check it on every corpus file).
//!
//! ```
//! use format_core::{Codec, Context, View, Reader};
//!
//! /// `VRTS { uint32 count; float[count * 3] positions; uint32 flags }`
//! #[derive(Codec, Debug, PartialEq)]
//! #[format(chunk = "VRTS")]
//! struct Vertices {
//!     #[format(count = u32)]
//!     positions: Vec<[f32; 3]>,
//!     flags: u32,
//! }
//!
//! let owned = Vertices { positions: vec![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], flags: 7 };
//! let bytes = format_core::encode(&owned, Context::new())?;
//! let view = <Vertices as View>::view(&mut Reader::new(&bytes), ())?;
//! assert_eq!(view.flags, 7);
//! assert_eq!(view.positions.len(), 2);
//! assert_eq!(view.positions.get(1), Some([4.0, 5.0, 6.0]));
//! assert_eq!(view.to_owned()?, owned);
//! # Ok::<(), format_core::Error>(())
//! ```

mod chunks;
mod lazy;
mod list;
mod plain;
mod runtime;
mod traits;

pub use chunks::{ChunkEntry, ChunkListView, ChunkWalk};
pub use lazy::Lazy;
pub use list::{ListIter, ListView};
pub use plain::{PlainIter, PlainRun, RecordRun};
pub use traits::View;

use crate::{Context, Reader, Result};

/// Views all of `data` as a `T` in `ctx`: the view of [`decode`](crate::decode),
/// with its checks (the input must be consumed exactly).
///
/// ```
/// use format_core::{Codec, Context, FixedStr, view};
///
/// #[derive(Codec, Debug, PartialEq)]
/// #[format(magic = "NAME")]
/// struct Named {
///     name: FixedStr<8>,
///     #[format(count = u16)]
///     values: Vec<u32>,
/// }
///
/// let data = b"NAMEabc\0\0\0\0\0\x02\x00\x07\x00\x00\x00\x09\x00\x00\x00";
/// let named = view::open::<Named>(data, Context::new())?;
/// assert_eq!(named.name.to_str(), Ok("abc"));
/// assert_eq!(named.values.iter().collect::<Vec<_>>(), [7, 9]);
/// assert!(view::open::<Named>(&data[..20], Context::new()).is_err());
/// # Ok::<(), format_core::Error>(())
/// ```
pub fn open<T: View<Args = ()>>(data: &[u8], ctx: Context) -> Result<T::View<'_>> {
    let mut r = Reader::with_context(data, ctx);
    let view = T::view(&mut r, ())?;
    r.finish()?;
    Ok(view)
}

#[doc(hidden)]
pub mod __private {
    pub use super::chunks::{skip_chunk, skip_inner_chunk};
    pub use super::list::{view_run, view_stride, view_tagged};
    pub use super::plain::view_split;
}
