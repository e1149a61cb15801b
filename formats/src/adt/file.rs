//! Reading and writing a whole ADT file: the chunk list, and the two tables
//! (MHDR, MCIN) that hold the positions of the other chunks.
//!
//! Hand-written because those positions are a property of the whole file: the
//! reader records which values differ from where the chunks really are (see
//! [`kept`](super::kept)); the writer writes every chunk, then fills MHDR and
//! MCIN in from the positions the chunks landed at.

use format_core::{
    Context, Decode, Diagnostic, Encode, Error, FourCC, Reader, Result, TagOrder, UnknownChunk,
    Writer,
};

use super::AdtChunk;
use super::header::{McinField, McinOffsets, MhdrField, MhdrOffsets};

/// The context ADT and WDT files are read and written in: tags reversed.
pub fn terrain_context() -> Context {
    Context::new().with_tag_order(TagOrder::Reversed)
}

/// Where each chunk is, and how long it is on disk.
struct Placement {
    tags: Vec<FourCC>,
    starts: Vec<usize>,
    lens: Vec<usize>,
}

impl Placement {
    /// Where the first chunk each MHDR field names starts (one pass).
    fn firsts(&self) -> [Option<usize>; 11] {
        let mut firsts = [None; 11];
        for (tag, &start) in self.tags.iter().zip(&self.starts).rev() {
            if let Some(i) = MhdrField::ALL.iter().position(|f| *tag == f.tag())
                && let Some(slot) = firsts.get_mut(i)
            {
                *slot = Some(start);
            }
        }
        firsts
    }

    /// `MHDR` offsets: relative to the MHDR data, `None` where a chunk is absent.
    fn mhdr_targets(&self, mhdr: usize, firsts: &[Option<usize>; 11]) -> [Option<u32>; 11] {
        let base = self.starts.get(mhdr).map_or(0, |s| s + 8);
        firsts.map(|start| {
            let start = start?;
            Some(
                u32::try_from(start)
                    .ok()?
                    .wrapping_sub(u32::try_from(base).ok()?),
            )
        })
    }

    /// `MCIN` entries: the absolute position and disk length of each MCNK.
    fn mcnks(&self) -> Vec<(u32, u32)> {
        self.tags
            .iter()
            .zip(self.starts.iter().zip(&self.lens))
            .filter(|(t, _)| **t == *b"MCNK")
            .map(|(_, (&s, &l))| {
                (
                    u32::try_from(s).unwrap_or(u32::MAX),
                    u32::try_from(l).unwrap_or(u32::MAX),
                )
            })
            .collect()
    }
}

/// Reads a whole file as a chunk list, and records the MHDR and MCIN values
/// that differ from where the chunks are. In lenient mode a known chunk whose
/// body does not decode is kept as bytes, with a diagnostic.
pub(super) fn read<M>(data: &[u8], ctx: Context) -> Result<(Vec<AdtChunk<M>>, Vec<Diagnostic>)>
where
    M: Decode<Args = ()>,
{
    let mut r = Reader::with_context(data, ctx);
    let mut chunks = Vec::new();
    let mut placement = Placement {
        tags: Vec::new(),
        starts: Vec::new(),
        lens: Vec::new(),
    };
    while !r.is_empty() {
        let start = r.pos();
        let tag = r.peek_tag().unwrap_or_default();
        let index = chunks.len();
        let before = r.ctx().is_lenient().then(|| r.clone());
        let chunk = match (AdtChunk::<M>::decode(&mut r, ()), before) {
            (Ok(chunk), _) => chunk,
            (Err(e), Some(mut before)) => {
                let header_fits = before.peek_bytes(8).is_some_and(|h| {
                    let size = h.get(4..8).and_then(|b| b.first_chunk::<4>());
                    size.is_some_and(|b| u32::from_le_bytes(*b) as usize <= before.remaining() - 8)
                });
                if !header_fits {
                    return Err(e.at_index(index));
                }
                before.recover(e.at_index(index), "kept the chunk as bytes")?;
                r = before;
                AdtChunk::Unknown(UnknownChunk::decode(&mut r, ()).map_err(|e| e.at_index(index))?)
            }
            (Err(e), None) => return Err(e.at_index(index)),
        };
        placement.tags.push(tag);
        placement.starts.push(start);
        placement.lens.push(r.pos() - start);
        chunks.push(chunk);
    }
    let mcnks = placement.mcnks();
    let firsts = placement.firsts();
    for (i, chunk) in chunks.iter_mut().enumerate() {
        let body = placement.starts.get(i).map_or(0, |s| s + 8);
        match chunk {
            AdtChunk::Mhdr(mhdr) => {
                let mut r = Reader::new(data);
                r.skip(body)?;
                let raw: [u32; 12] = r.plain()?;
                let targets = placement.mhdr_targets(i, &firsts);
                let offsets = raw.iter().skip(1);
                for ((field, target), raw) in MhdrField::ALL.into_iter().zip(targets).zip(offsets) {
                    mhdr.kept.capture(field, *raw, target);
                }
            }
            AdtChunk::Mcin(mcin) => {
                let mut r = Reader::new(data);
                r.skip(body)?;
                for n in 0..mcin.entries.len() {
                    let [offset, size]: [u32; 2] = r.plain()?;
                    r.skip(8)?;
                    let target = mcnks.get(n);
                    let n32 = u32::try_from(n).unwrap_or(u32::MAX);
                    mcin.kept
                        .capture(McinField::offset(n32), offset, target.map(|t| t.0));
                    mcin.kept
                        .capture(McinField::size(n32), size, target.map(|t| t.1));
                }
            }
            _ => {}
        }
    }
    Ok((chunks, r.take_diagnostics()))
}

/// Writes a chunk list, with MHDR and MCIN pointing where the chunks landed.
pub(super) fn write<M>(chunks: &[AdtChunk<M>], ctx: Context) -> Result<Vec<u8>>
where
    M: Encode<Args = ()>,
{
    let mut w = Writer::with_context(ctx);
    let mut placement = Placement {
        tags: Vec::with_capacity(chunks.len()),
        starts: Vec::with_capacity(chunks.len()),
        lens: Vec::with_capacity(chunks.len()),
    };
    let mut contexts = Vec::new();
    for (i, chunk) in chunks.iter().enumerate() {
        let start = w.pos();
        if matches!(chunk, AdtChunk::Mhdr(_) | AdtChunk::Mcin(_)) {
            contexts.push((i, *w.ctx()));
        }
        chunk.encode(&mut w, ()).map_err(|e| e.at_index(i))?;
        placement.tags.push(chunk.tag());
        placement.starts.push(start);
        placement.lens.push(w.pos() - start);
    }
    let mut out = w.into_bytes();
    // MHDR and MCIN were written with placeholder offsets; their sizes do not
    // depend on the offsets, so they are written again in place.
    let mcnks = placement.mcnks();
    let firsts = placement.firsts();
    for (i, ctx) in contexts {
        let mut w = Writer::with_context(ctx);
        match chunks.get(i) {
            Some(AdtChunk::Mhdr(mhdr)) => {
                let targets = placement.mhdr_targets(i, &firsts);
                let mut offsets = MhdrOffsets::default();
                for ((slot, field), target) in offsets.0.iter_mut().zip(MhdrField::ALL).zip(targets)
                {
                    *slot = mhdr.kept.resolve(field, target);
                }
                w.chunk(FourCC::new(*b"MHDR"), |w| mhdr.encode(w, (offsets,)))
            }
            Some(AdtChunk::Mcin(mcin)) => {
                let offsets = (0..mcin.entries.len())
                    .map(|n| {
                        let target = mcnks.get(n);
                        let n32 = u32::try_from(n).unwrap_or(u32::MAX);
                        (
                            mcin.kept
                                .resolve(McinField::offset(n32), target.map(|t| t.0)),
                            mcin.kept.resolve(McinField::size(n32), target.map(|t| t.1)),
                        )
                    })
                    .collect();
                w.chunk(FourCC::new(*b"MCIN"), |w| {
                    mcin.encode(w, (McinOffsets(offsets),))
                })
            }
            _ => Ok(()),
        }
        .map_err(|e| e.at_index(i))?;
        let start = placement.starts.get(i).copied().unwrap_or_default();
        let target = out
            .get_mut(start..start + w.pos())
            .filter(|t| Some(t.len()) == placement.lens.get(i).copied());
        match target {
            Some(target) => target.copy_from_slice(w.as_bytes()),
            None => {
                return Err(Error::inconsistent(
                    start,
                    "a navigation table changed size when its offsets were filled in",
                ));
            }
        }
    }
    Ok(out)
}
