//! A texture viewed in place ([`Blp::view`]): the header, the mip table,
//! the palette or JPEG header and each level's bytes, borrowed from the
//! input; nothing is copied or decoded until asked for.
//!
//! [`Blp`]'s definition places its levels by offset and keeps what a file
//! wrote differently (gaps, tables that disagree with their levels), so its
//! derived view is a `format_core::view::Lazy`; this one is written by
//! hand over the same declared layout (`header`, `mip_offsets`,
//! `mip_sizes`, then `jpeg_header` or `palette`, then the levels where the
//! table points). Where its checks fail, the error is the strict owned
//! reader's ([`Blp::from_bytes`], run on that path only), so the two fail
//! the same way.

use format_core::view::PlainRun;
use format_core::{Decode, Error, Reader, Result, View};

use super::file::{Blp, is_blp};
use super::header::Header;
use super::layout::{MIP_SLOTS, MipTable};

/// A BLP texture viewed in place (see [`Blp::view`]).
#[derive(Clone, Copy, Debug)]
pub struct BlpView<'a> {
    data: &'a [u8],
    /// The header (`BLP1` or `BLP2` and its fields).
    pub header: Header,
    /// `mipOffsets[16]`, `mipSizes[16]` as the file wrote them.
    pub mip_table: MipTable,
    /// The JPEG header shared by the levels (JPEG textures).
    pub jpeg_header: Option<PlainRun<'a, u8>>,
    /// The 256-colour palette, BGRA (palette and DXT textures).
    pub palette: Option<PlainRun<'a, [u8; 4]>>,
    /// How many levels the table lists (up to the first empty entry).
    level_count: usize,
}

impl Blp {
    /// Views a texture in place, strictly: the header, table and palette
    /// read where they are, each level's range checked against the file.
    /// A damaged file gives the error of [`from_bytes`](Self::from_bytes).
    ///
    /// ```
    /// use formats::blp::Blp;
    ///
    /// let data = formats::sample::sample_blp();
    /// let view = Blp::view(&data)?;
    /// let owned = Blp::from_bytes(&data)?;
    /// assert_eq!(view.header.size(), owned.size());
    /// assert_eq!(view.levels().collect::<Vec<_>>(), owned.levels);
    /// assert_eq!(view.to_owned()?, owned);
    /// # Ok::<(), formats::Error>(())
    /// ```
    pub fn view(data: &[u8]) -> Result<BlpView<'_>> {
        is_blp(data)?;
        walk(data).map_err(|_| {
            // The owned reader names what is wrong, where.
            Blp::from_bytes(data).err().unwrap_or_else(|| {
                Error::invalid(0, "a texture the owned reader reads but its view does not")
            })
        })
    }
}

/// The view's own walk over the declared layout.
fn walk(data: &[u8]) -> Result<BlpView<'_>> {
    let mut r = Reader::new(data);
    let header = Header::decode(&mut r, ())?;
    let offsets: [u32; MIP_SLOTS] = r.plain()?;
    let sizes: [u32; MIP_SLOTS] = r.plain()?;
    let jpeg_header = match header.has_jpeg_header() {
        true => {
            let n = r.u32()?;
            Some(<u8 as View>::view_run(&mut r, Some(u64::from(n)), ())?)
        }
        false => None,
    };
    let palette = match header.has_jpeg_header() {
        false => Some(<[u8; 4] as View>::view_run(&mut r, Some(256), ())?),
        true => None,
    };
    let level_count = offsets
        .iter()
        .zip(&sizes)
        .take_while(|(offset, size)| **offset != 0 && **size != 0)
        .count();
    let view = BlpView {
        data,
        header,
        mip_table: MipTable { offsets, sizes },
        jpeg_header,
        palette,
        level_count,
    };
    // Every level lies in the file (real BLP1 files start level 0 inside
    // the palette: overlaps are not an error, as for the owned reader).
    for (offset, size) in offsets.iter().zip(&sizes).take(level_count) {
        let (start, len) = (*offset as usize, *size as usize);
        if data.get(start..start.saturating_add(len)).is_none() {
            return Err(Error::invalid(start, "a level outside the file"));
        }
    }
    Ok(view)
}

impl<'a> BlpView<'a> {
    /// The bytes of each level the table lists, largest first, as in the
    /// file (compressed: decode with [`Blp::decode_level`] on the owned
    /// texture, or read them as they are).
    pub fn levels(&self) -> impl Iterator<Item = &'a [u8]> + 'a {
        let (data, table) = (self.data, self.mip_table);
        (0..self.level_count).filter_map(move |i| {
            let start = *table.offsets.get(i)? as usize;
            let len = *table.sizes.get(i)? as usize;
            data.get(start..start.checked_add(len)?)
        })
    }

    /// The bytes of level `index`, if the table lists it.
    pub fn level(&self, index: usize) -> Option<&'a [u8]> {
        self.levels().nth(index)
    }

    /// The owned texture (read by [`Blp::from_bytes`]: what a file wrote
    /// differently from its layout is kept there).
    pub fn to_owned(&self) -> Result<Blp> {
        Blp::from_bytes(self.data)
    }
}
