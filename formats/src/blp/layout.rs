//! The mip table (`mipOffsets[16]`, `mipSizes[16]`): reading each level at its
//! absolute offset, and placing the levels on write.
//!
//! This file is the hand-written stand-in for the derive's planned offset
//! support (`#[format(offsets(of = levels, from = file))]`,
//! `#[format(sizes(of = levels))]`, `#[format(at = mip_offsets, len = mip_sizes)]`
//! and `format_core::Kept`); it will be replaced by it, and nothing outside
//! [`Blp`](super::Blp)'s field attributes calls it.
//!
//! The semantics it gives:
//! - Reading: the levels are the table's entries up to the first size of 0,
//!   each `sizes[i]` bytes at `offsets[i]` (offsets are authoritative: data may
//!   overlap the palette or another level).
//! - A *fresh layout* puts the levels one after the other right after the header.
//!   [`Kept`] records only what the file said that the fresh layout would not
//!   give: the table as read (when it differs) and every byte after the header
//!   that no level covers ([`Gap`]s). A freshly built [`Blp`](super::Blp) has an
//!   empty `Kept` and reads back equal to itself.
//! - Writing: the kept table and gaps are used when they still describe the
//!   levels (same count and sizes, no hole, overlapping bytes equal), so an
//!   unedited file writes back byte for byte; otherwise (a level replaced with
//!   another length, levels regenerated) every offset and size is recomputed
//!   and the gaps are dropped.

use format_core::{Error, Reader, Result, Writer};

use super::header::Header;

/// Entries in each of the two tables.
pub const MIP_SLOTS: usize = 16;

/// One `mipOffsets`/`mipSizes` pair of tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MipTable {
    /// `mipOffsets[16]`: absolute file offsets.
    pub offsets: [u32; MIP_SLOTS],
    /// `mipSizes[16]`: byte sizes; the first 0 ends the list of levels.
    pub sizes: [u32; MIP_SLOTS],
}

/// Bytes after the header that no level covers, at their offset.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Gap {
    /// Absolute file offset of the first byte.
    pub offset: u32,
    /// The bytes.
    #[cfg_attr(feature = "serde", serde(with = "format_core::serde_bytes"))]
    pub bytes: Vec<u8>,
}

/// What the file said about its layout that a fresh layout would not give.
/// `Kept::default()` asks for a fresh layout.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Kept {
    /// The table as read, where it differs from the fresh layout of the levels.
    pub table: Option<MipTable>,
    /// Bytes between or after the levels (gaps a tool left, trailing data).
    pub gaps: Vec<Gap>,
}

/// Where the levels go on write, and the bytes after the header in file order.
pub struct Placement<'a> {
    /// The table to write.
    pub table: MipTable,
    /// The bytes after the header, in order (parts of levels and gaps).
    tail: Vec<&'a [u8]>,
}

/// The byte size of the header with its table and palette or JPEG header.
pub fn header_len(
    header: &Header,
    jpeg_header: &Option<Vec<u8>>,
    palette: &Option<Vec<[u8; 4]>>,
) -> usize {
    let shared = jpeg_header.as_ref().map_or(0, |j| 4 + j.len())
        + palette.as_ref().map_or(0, |p| 4 * p.len());
    header.table_offset() + 8 * MIP_SLOTS + shared
}

/// The fresh layout of levels of these lengths after a header of `start`
/// bytes; `None` if it does not fit the table (more than 16 levels, or past
/// 4 GiB).
fn fresh(start: usize, lengths: impl ExactSizeIterator<Item = usize>) -> Option<MipTable> {
    if lengths.len() > MIP_SLOTS {
        return None;
    }
    let mut table = MipTable::default();
    let mut at = start;
    for ((offset, size), len) in table.offsets.iter_mut().zip(&mut table.sizes).zip(lengths) {
        *offset = u32::try_from(at).ok()?;
        *size = u32::try_from(len).ok().filter(|&s| s > 0)?;
        at = at.checked_add(len)?;
    }
    u32::try_from(at).ok()?;
    Some(table)
}

/// `read_with` of `levels`: the table's entries up to the first size of 0,
/// each read at its offset (nothing is consumed).
pub fn read_levels(
    r: &mut Reader<'_>,
    table_offset: usize,
    offsets: [u32; MIP_SLOTS],
    sizes: [u32; MIP_SLOTS],
) -> Result<Vec<Vec<u8>>> {
    let input = r.input();
    let mut levels = Vec::new();
    for (i, (&offset, &size)) in offsets.iter().zip(&sizes).enumerate() {
        if size == 0 {
            break;
        }
        let start = offset as usize;
        let bytes = start
            .checked_add(size as usize)
            .and_then(|end| input.get(start..end))
            .ok_or_else(|| {
                Error::invalid(
                    table_offset + 4 * i,
                    format!(
                        "level {i}: {size} bytes at {start:#x} go past the end of the file ({} bytes)",
                        input.len()
                    ),
                )
                .at_index(i)
            })?;
        levels.push(bytes.to_vec());
    }
    Ok(levels)
}

/// `write_with` of `levels`: they are written by `kept`'s writer, after the
/// palette or JPEG header.
pub fn write_nothing(
    _: &Vec<Vec<u8>>,
    _: &mut Writer,
    _table_offset: usize,
    _offsets: [u32; MIP_SLOTS],
    _sizes: [u32; MIP_SLOTS],
) -> Result<()> {
    Ok(())
}

/// `read_with` of `kept`: what the file says beyond the fresh layout of the
/// levels read; consumes the rest of the file.
pub fn read_kept(
    r: &mut Reader<'_>,
    _header: &Header,
    _jpeg_header: &Option<Vec<u8>>,
    _palette: &Option<Vec<[u8; 4]>>,
    levels: &[Vec<u8>],
    read: MipTable,
) -> Result<Kept> {
    let start = r.pos();
    let input = r.input();
    let table = match fresh(start, levels.iter().map(Vec::len)) {
        Some(fresh) if fresh == read => None,
        _ => Some(read),
    };
    // Level ranges, sorted; what lies between and after them is a gap.
    let mut covered: Vec<(usize, usize)> = read
        .offsets
        .iter()
        .zip(levels)
        .map(|(&o, l)| (o as usize, o as usize + l.len()))
        .collect();
    covered.sort_unstable();
    let mut gaps = Vec::new();
    let mut at = start;
    let mut push_gap = |from: usize, to: usize| -> Result<()> {
        if let (Some(bytes), Ok(offset)) = (input.get(from..to), u32::try_from(from)) {
            gaps.push(Gap {
                offset,
                bytes: bytes.to_vec(),
            });
            Ok(())
        } else {
            Err(Error::invalid(from, "a gap past 4 GiB"))
        }
    };
    for (from, to) in covered {
        if from > at {
            push_gap(at, from)?;
        }
        at = at.max(to);
    }
    if input.len() > at {
        push_gap(at, input.len())?;
    }
    r.skip(r.remaining())?;
    Ok(Kept { table, gaps })
}

/// Where the levels go: the kept table and gaps if they still describe the
/// levels, the fresh layout otherwise.
pub fn place<'a>(
    header: &Header,
    jpeg_header: &Option<Vec<u8>>,
    palette: &Option<Vec<[u8; 4]>>,
    levels: &'a [Vec<u8>],
    kept: &'a Kept,
) -> Result<Placement<'a>> {
    let start = header_len(header, jpeg_header, palette);
    let fresh = fresh(start, levels.iter().map(Vec::len));
    if let Some(placement) = kept_placement(start, fresh, levels, kept, || {
        header_image(header, jpeg_header, palette, kept.table.or(fresh))
    }) {
        return Ok(placement);
    }
    let table = fresh.ok_or_else(|| {
        Error::inconsistent(
            0,
            format!(
                "{} levels of {} bytes do not fit the mip table (at most 16 levels, 4 GiB)",
                levels.len(),
                levels.iter().map(Vec::len).sum::<usize>()
            ),
        )
    })?;
    Ok(Placement {
        table,
        tail: levels.iter().map(Vec::as_slice).collect(),
    })
}

/// The header's bytes with `table` (to compare with a level that overlaps it).
fn header_image(
    header: &Header,
    jpeg_header: &Option<Vec<u8>>,
    palette: &Option<Vec<[u8; 4]>>,
    table: Option<MipTable>,
) -> Vec<u8> {
    let mut w = Writer::new();
    let table = table.unwrap_or_default();
    // Writing plain values into memory cannot fail.
    let _ = format_core::Encode::encode(header, &mut w, ());
    w.plain(&table.offsets);
    w.plain(&table.sizes);
    if let Some(j) = jpeg_header {
        w.u32(u32::try_from(j.len()).unwrap_or(u32::MAX));
        w.bytes(j);
    }
    if let Some(p) = palette {
        w.plain_slice(p);
    }
    w.into_bytes()
}

/// The kept layout, if it still holds for `levels`.
fn kept_placement<'a>(
    start: usize,
    fresh: Option<MipTable>,
    levels: &'a [Vec<u8>],
    kept: &'a Kept,
    header_image: impl FnOnce() -> Vec<u8>,
) -> Option<Placement<'a>> {
    let table = kept.table.or(fresh)?;
    let count = table.sizes.iter().take_while(|&&s| s != 0).count();
    let sizes_agree = count == levels.len()
        && table
            .sizes
            .iter()
            .zip(levels)
            .all(|(&s, l)| s as usize == l.len());
    if !sizes_agree {
        return None;
    }
    let mut segments: Vec<(usize, &'a [u8])> = table
        .offsets
        .iter()
        .zip(levels)
        .map(|(&o, l)| (o as usize, l.as_slice()))
        .chain(
            kept.gaps
                .iter()
                .map(|g| (g.offset as usize, g.bytes.as_slice())),
        )
        .collect();
    segments.sort_by_key(|&(offset, _)| offset);
    let header = segments
        .iter()
        .any(|&(offset, _)| offset < start)
        .then(header_image);
    if header.as_ref().is_some_and(|h| h.len() != start) {
        return None;
    }
    // Written runs after the header: (offset, bytes).
    let mut runs: Vec<(usize, &'a [u8])> = Vec::new();
    let mut at = start;
    for (offset, bytes) in segments {
        if offset > at {
            return None; // a hole nothing would fill
        }
        let end = offset + bytes.len();
        let overlap = bytes.get(..at.min(end) - offset)?;
        if !agrees(header.as_deref(), &runs, offset, overlap) {
            return None;
        }
        if end > at {
            runs.push((at, bytes.get(at - offset..)?));
            at = end;
        }
    }
    Some(Placement {
        table,
        tail: runs.into_iter().map(|(_, b)| b).collect(),
    })
}

/// True if `bytes` at `offset` equal what the header and the runs already put there.
fn agrees(header: Option<&[u8]>, runs: &[(usize, &[u8])], offset: usize, bytes: &[u8]) -> bool {
    let end = offset + bytes.len();
    let sources = header
        .map(|h| (0, h))
        .into_iter()
        .chain(runs.iter().copied());
    sources.into_iter().all(|(from, run)| {
        let lo = offset.max(from);
        let hi = end.min(from + run.len());
        lo >= hi || run.get(lo - from..hi - from) == bytes.get(lo - offset..hi - offset)
    })
}

/// `write_with` of `kept`: the levels and gaps after the header, as
/// [`place`] lays them out (the table written before agrees with it).
pub fn write_tail(
    kept: &Kept,
    w: &mut Writer,
    header: &Header,
    jpeg_header: &Option<Vec<u8>>,
    palette: &Option<Vec<[u8; 4]>>,
    levels: &[Vec<u8>],
    written: MipTable,
) -> Result<()> {
    let placement = place(header, jpeg_header, palette, levels, kept)?;
    if placement.table != written {
        return Err(Error::inconsistent(
            w.pos(),
            "the mip table written disagrees with the levels' placement",
        ));
    }
    if w.pos() != header_len(header, jpeg_header, palette) {
        return Err(Error::inconsistent(
            w.pos(),
            "the levels must follow the header directly",
        ));
    }
    w.reserve(placement.tail.iter().map(|b| b.len()).sum());
    for bytes in placement.tail {
        w.bytes(bytes);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fresh_layout_is_consecutive_and_bounded() {
        let t = fresh(1172, [10usize, 4, 1].into_iter()).unwrap();
        assert_eq!(&t.offsets[..4], [1172, 1182, 1186, 0]);
        assert_eq!(&t.sizes[..4], [10, 4, 1, 0]);
        assert!(fresh(0, [1usize; 17].into_iter()).is_none());
        assert!(fresh(0, [0usize].into_iter()).is_none());
        assert!(fresh(u32::MAX as usize, [1usize].into_iter()).is_none());
    }

    #[test]
    fn overlaps_must_agree_with_what_is_there() {
        let header = [1u8, 2, 3, 4];
        let runs: [(usize, &[u8]); 1] = [(4, &[5, 6])];
        assert!(agrees(Some(&header), &runs, 2, &[3, 4, 5]));
        assert!(!agrees(Some(&header), &runs, 2, &[3, 4, 6]));
        assert!(agrees(None, &runs, 5, &[6]));
        assert!(agrees(None, &runs, 9, &[0]));
    }
}
