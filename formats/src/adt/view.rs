//! A tile viewed in place ([`Adt::view`]): the derived [`AdtView`], whose
//! `chunks` is the walk over the tile's chunk headers; each chunk's content
//! is viewed (and checked) when it is reached. How views read the input is
//! `format_core::view`'s.
//!
//! The chunks whose definitions place parts by offset or keep what a file
//! wrote differently (`MCNK`, `MH2O`, `MHDR`) are viewed as
//! `format_core::view::Lazy`: their bytes, decoded on `get()`.

use format_core::Result;

use super::tile::{Adt, AdtView, read_view};

impl Adt {
    /// Views a tile in place, strictly: only the walk over its chunk
    /// headers runs (tags and sizes checked against the bytes left); a
    /// chunk's content is checked when it is viewed, with the errors
    /// (offset and path) of [`from_bytes`](Self::from_bytes).
    ///
    /// ```no_run
    /// use formats::adt::{Adt, AdtChunkView};
    ///
    /// let data = std::fs::read("Azeroth_32_48.adt")?;
    /// let view = Adt::view(&data)?;
    /// let mcnks = view.chunks.iter().filter(|c| matches!(c, Ok(AdtChunkView::Mcnk(_)))).count();
    /// println!("{} chunks, {mcnks} map chunks", view.chunks.len());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn view(data: &[u8]) -> Result<AdtView<'_>> {
        read_view::<Adt>(data, "an ADT file")
    }
}
