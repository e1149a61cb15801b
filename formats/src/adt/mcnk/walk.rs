//! The walk over an MCNK's sub-chunks, with the size quirks of real files.
//!
//! A sub-chunk's length is its size field, except for three kinds whose size
//! field real writers get wrong (`ADT_MANIFEST.md`, quirks 1–3):
//!
//! | sub-chunk | size field | real length |
//! |---|---|---|
//! | MCNR | 435 (≤ WotLK) | 448: 13 bytes of padding follow the normals |
//! | MCLQ | 0 (≤ BC) | the header's `sizeLiquid` − 8 |
//! | MCAL | 512 etc. (Northrend) | the header's `sizeAlpha` − 8 |
//!
//! For those, the candidates (the size field and the length the quirk gives)
//! are tried in turn; the first one after which the MCNK ends or a known
//! sub-chunk tag follows is taken. If neither does (a sub-chunk of the user's
//! own follows), the one after which the rest of the MCNK is whole chunks.
//! The size field is then kept in the body's `declared_size` and written back
//! as it was. This holds in strict mode too: these are how the format is
//! written, not damage.

use format_core::{Decode, Encode, Error, FourCC, Reader, Result, Tagged, UnknownChunk, Writer};

use super::sub::{Mcal, Mccv, Mclq, Mclv, Mcnr, Mcsh, Mcvt, VERTICES};
use super::sub_chunk::{McnkChunk, SubArgs};

/// True if the MCNK ends after `len` bytes of `body` or a tag of a sub-chunk
/// [`McnkChunk`] knows follows.
fn lands(r: &Reader<'_>, body: &[u8], len: usize) -> bool {
    match body.get(len..) {
        Some([]) => true,
        Some(rest) => rest.first_chunk::<4>().is_some_and(|bytes| {
            let tag = FourCC::from_disk(*bytes, r.ctx().tag_order);
            McnkChunk::TAGS.contains(&tag)
        }),
        None => false,
    }
}

/// The real length of the sub-chunk whose header is at the reader.
fn real_len(r: &Reader<'_>, tag: FourCC, declared: u32, size_alpha: u32, size_liquid: u32) -> u32 {
    let quirk = if tag == *b"MCNR" && declared == 435 {
        Some(448)
    } else if tag == *b"MCLQ" && declared == 0 && size_liquid > 8 {
        Some(size_liquid - 8)
    } else if tag == *b"MCAL" && size_alpha >= 8 && size_alpha - 8 != declared {
        Some(size_alpha - 8)
    } else {
        None
    };
    let Some(quirk) = quirk else { return declared };
    let body = r.rest().get(8..).unwrap_or_default();
    // MCNR: the padding is the rule, so it is tried first.
    let candidates = if tag == *b"MCNR" {
        [quirk, declared]
    } else {
        [declared, quirk]
    };
    let [first, second] = candidates;
    if lands(r, body, first as usize) {
        first
    } else if lands(r, body, second as usize) {
        second
    } else if !walks_to_end(body, first as usize) && walks_to_end(body, second as usize) {
        // Neither lands on a sub-chunk McnkChunk knows: a sub-chunk of the
        // user's own follows (`Mcnk::set_chunk`). The length after which
        // the rest of the MCNK is whole chunks is the real one.
        second
    } else {
        first
    }
}

/// True if the rest of the MCNK from `len` bytes into `body` is chunk
/// headers and bodies ending exactly at its end, whatever their tags: at most
/// [`WALK_LIMIT`] of them, so that a hostile MCNK of many misdeclared
/// sub-chunks is not walked to its end for each one.
fn walks_to_end(body: &[u8], len: usize) -> bool {
    let mut at = len;
    for _ in 0..WALK_LIMIT {
        match body.get(at..) {
            Some([]) => return true,
            Some(rest) => {
                let Some(size) = rest.get(4..8).and_then(|b| b.first_chunk::<4>()) else {
                    return false;
                };
                at = at
                    .saturating_add(8)
                    .saturating_add(u32::from_le_bytes(*size) as usize);
            }
            None => return false,
        }
    }
    false
}

/// The sub-chunks of a fixed size (their bodies are inline arrays).
const FIXED: [&[u8; 4]; 5] = [b"MCVT", b"MCCV", b"MCLV", b"MCSH", b"MCNR"];

/// How many sub-chunks [`walks_to_end`] follows (real MCNKs have up to 12).
const WALK_LIMIT: usize = 32;

/// Reads the sub-chunks to the end of the MCNK, recording each one's anchor
/// (its real extent, for the header's offsets and sizes).
///
/// Beyond the size quirks: MCRF is split at `nDoodadRefs` or its end, whichever
/// comes first (a larger count is kept as a header value); an MCSE whose size
/// fits `nSndEmitters` 52-byte emitters (≤ BC) but not 28-byte ones is kept as
/// bytes; so is a fixed-size sub-chunk (MCVT, MCCV, MCLV, MCSH, MCNR) of size
/// 0, a header with nothing after it (every MCNK's MCSH in three public
/// Gilneas tiles, `Helias/mod-bg-battle-for-gilneas`, with `sizeShadow` 0:
/// "no shadow map"), in strict mode too. In lenient mode a known sub-chunk whose body does not decode is kept
/// as bytes too, with a diagnostic; in strict mode that is an error.
pub(super) fn read(
    r: &mut Reader<'_>,
    size_alpha: u32,
    size_liquid: u32,
    n_doodad_refs: u32,
    n_snd_emitters: u32,
) -> Result<Vec<McnkChunk>> {
    // Real MCNKs have 5 to 10 sub-chunks: one allocation, no regrowth.
    let mut chunks = Vec::with_capacity(12);
    while !r.is_empty() {
        let index = chunks.len();
        let start = r.pos();
        let header = r.peek_bytes(8).ok_or_else(|| {
            Error::new(format_core::ErrorKind::UnexpectedEnd {
                offset: r.pos(),
                needed: 8,
                available: r.remaining(),
            })
            .at_index(index)
        })?;
        let tag_bytes: [u8; 4] = header.first_chunk::<4>().copied().unwrap_or_default();
        let tag = FourCC::from_disk(tag_bytes, r.ctx().tag_order);
        let declared = header
            .get(4..8)
            .and_then(|b| b.first_chunk::<4>())
            .map_or(0, |b| u32::from_le_bytes(*b));
        let real = real_len(r, tag, declared, size_alpha, size_liquid);
        let classic_emitters = tag == *b"MCSE"
            && (declared % 28 != 0
                || (u64::from(n_snd_emitters) * 28 != u64::from(declared)
                    && u64::from(n_snd_emitters) * 52 == u64::from(declared)));
        // An empty fixed-size sub-chunk: a header that says "none here".
        let empty = declared == 0 && FIXED.iter().any(|t| **t == tag.bytes());
        let args = (SubArgs {
            n_doodad_refs: n_doodad_refs.min(declared / 4),
        },);
        if !classic_emitters && read_in_place(r, &mut chunks, tag, declared, real)? {
            r.push_anchor(tag, start, r.pos() - start);
            continue;
        }
        let decoded = if classic_emitters || empty {
            UnknownChunk::decode(r, ()).map(McnkChunk::Unknown)
        } else if real == declared {
            McnkChunk::decode(r, args)
        } else {
            read_quirk(r, tag, declared, real)
        };
        // Pushed where it was decoded: a sub-chunk is up to 600 bytes inline.
        match decoded {
            Ok(chunk) => chunks.push(chunk),
            Err(e) => {
                let fits = declared as usize <= r.end().saturating_sub(start).saturating_sub(8);
                if !(r.ctx().is_lenient() && fits) {
                    return Err(e.at_index(index));
                }
                r.rewind(start)?;
                // The path from the MCNK on; the tile's reader puts the
                // MCNK's place in front (`chunks[11].MCNK.chunks[0].MCVT`).
                let e = e
                    .at_index(index)
                    .in_field("chunks")
                    .in_tag(FourCC::new(*b"MCNK"));
                r.recover(e, "kept the sub-chunk as bytes")?;
                let unknown = UnknownChunk::decode(r, ()).map_err(|e| e.at_index(index))?;
                chunks.push(McnkChunk::Unknown(unknown));
            }
        }
        r.push_anchor(tag, start, r.pos() - start);
    }
    // Shrunk in place (glibc splits the block): a tile keeps about 4 KB of
    // sub-chunks per MCNK rather than the 7 KB reserved.
    chunks.shrink_to_fit();
    Ok(chunks)
}

/// Reads a fixed-size sub-chunk (MCVT, MCCV, MCLV, MCSH, MCNR: 448 to 580
/// bytes inline) straight into a new last element of `chunks`, if it is one
/// and whole; false (nothing read) otherwise, for the general path, which
/// also gives the errors. Decoded through [`McnkChunk`] the value is copied
/// again at every step on its way into the list (out of the body's decode,
/// the chunk's region and the enum's decode, then into the `Vec`); here it is
/// copied once, from the input. The result is what the general path gives.
///
/// Why not in the derive: a derived enum decode returns its value, and an
/// in-place one would need a placeholder of every variant's type (a
/// `Default` most do not have) or unsafe code; marking the generated decode
/// `#[inline]` does not let the compiler drop the copies (callgrind, a
/// twinpeaks parse: 2.67M instructions without this path, 2.66M inlined,
/// 2.55M with it). What removes the copies for every sub-chunk is the
/// storage change of BENCHMARKS.md (sub-chunks in one arena per tile).
fn read_in_place(
    r: &mut Reader<'_>,
    chunks: &mut Vec<McnkChunk>,
    tag: FourCC,
    declared: u32,
    real: u32,
) -> Result<bool> {
    let whole = |len: usize| real as usize == len && r.remaining() >= len + 8;
    macro_rules! plain {
        ($variant:ident, $ty:ty) => {{
            if !whole(size_of::<$ty>()) || real != declared {
                return Ok(false);
            }
            r.skip(8)?;
            chunks.push(McnkChunk::$variant(<$ty>::default()));
            if let Some(McnkChunk::$variant(m)) = chunks.last_mut() {
                r.plain_into(m)?;
            }
        }};
    }
    match &tag.bytes() {
        b"MCVT" => plain!(Mcvt, Mcvt),
        b"MCCV" => plain!(Mccv, Mccv),
        b"MCLV" => plain!(Mclv, Mclv),
        b"MCSH" => plain!(Mcsh, Mcsh),
        // The normals and their 13 bytes of padding, with a size field of 448
        // or (quirk) 435.
        b"MCNR" => {
            if !whole(NORMALS + 13) {
                return Ok(false);
            }
            r.skip(8)?;
            chunks.push(McnkChunk::Mcnr(Mcnr::default()));
            if let Some(McnkChunk::Mcnr(m)) = chunks.last_mut() {
                r.plain_into(&mut m.entries)?;
                m.padding = Some(r.array()?);
                m.declared_size = (declared != real).then_some(declared);
            }
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// The size of MCNR's normals.
const NORMALS: usize = 3 * VERTICES;

/// Reads a sub-chunk whose real length is not its size field.
fn read_quirk(r: &mut Reader<'_>, tag: FourCC, declared: u32, real: u32) -> Result<McnkChunk> {
    r.skip(8)?;
    let chunk = r.with_limit(u64::from(real), |r| {
        Ok(if tag == *b"MCNR" {
            let mut m = Mcnr::decode(r, ())?;
            m.declared_size = Some(declared);
            McnkChunk::Mcnr(m)
        } else if tag == *b"MCLQ" {
            let mut m = Mclq::decode(r, ())?;
            m.declared_size = Some(declared);
            McnkChunk::Mclq(m)
        } else {
            let mut m = Mcal::decode(r, ())?;
            m.declared_size = Some(declared);
            McnkChunk::Mcal(m)
        })
    });
    chunk.map_err(|e| e.in_tag(tag))
}

/// Writes the sub-chunks, recording each one's anchor, with kept size fields
/// written as they were.
pub(super) fn write(chunks: &[McnkChunk], w: &mut Writer) -> Result<()> {
    for (index, chunk) in chunks.iter().enumerate() {
        let start = w.pos();
        let tag = chunk.tag();
        let written = match chunk {
            McnkChunk::Mcnr(m) if m.declared_size.is_some() => {
                declared(w, tag, m.declared_size, |w| m.encode(w, ()))
            }
            McnkChunk::Mclq(m) if m.declared_size.is_some() => {
                declared(w, tag, m.declared_size, |w| m.encode(w, ()))
            }
            McnkChunk::Mcal(m) if m.declared_size.is_some() => {
                declared(w, tag, m.declared_size, |w| m.encode(w, ()))
            }
            McnkChunk::Mcrf(m) => {
                let n = u32::try_from(m.doodad_refs.len()).unwrap_or(u32::MAX);
                chunk.encode(w, (SubArgs { n_doodad_refs: n },))
            }
            _ => chunk.encode(w, (SubArgs::default(),)),
        };
        written.map_err(|e| e.at_index(index))?;
        let len = w.pos() - start;
        w.push_anchor(tag, start, len);
    }
    Ok(())
}

/// Writes a sub-chunk with a kept size field.
fn declared(
    w: &mut Writer,
    tag: FourCC,
    size: Option<u32>,
    body: impl FnOnce(&mut Writer) -> Result<()>,
) -> Result<()> {
    w.tag(tag);
    w.u32(size.unwrap_or_default());
    body(w).map_err(|e| e.in_tag(tag))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adt::tile::terrain_context;

    /// The fixed-size sub-chunks read in place come out as the general path
    /// (the enum's decode, or the quirk path for MCNR's 435) gives them.
    #[test]
    fn in_place_agrees_with_the_general_path() -> Result<()> {
        let ctx = terrain_context();
        let cases: [(&[u8; 4], u32, u32); 6] = [
            (b"MCVT", 580, 580),
            (b"MCCV", 580, 580),
            (b"MCLV", 580, 580),
            (b"MCSH", 512, 512),
            (b"MCNR", 448, 448),
            (b"MCNR", 435, 448),
        ];
        for (tag, declared, real) in cases {
            let tag = FourCC::new(*tag);
            let mut bytes = tag.to_disk(ctx.tag_order).to_vec();
            bytes.extend(declared.to_le_bytes());
            bytes.extend((0..real).map(|i| (i * 7 + 3) as u8));
            let mut r = Reader::with_context(&bytes, ctx);
            let mut fast = Vec::new();
            assert!(read_in_place(&mut r, &mut fast, tag, declared, real)?);
            assert!(r.is_empty(), "{tag}");
            let mut r = Reader::with_context(&bytes, ctx);
            let general = if declared == real {
                McnkChunk::decode(&mut r, (SubArgs::default(),))?
            } else {
                read_quirk(&mut r, tag, declared, real)?
            };
            assert_eq!(fast, [general], "{tag}");
            // Cut short: left to the general path (and its errors).
            let mut r = Reader::with_context(&bytes[..bytes.len() - 1], ctx);
            assert!(!read_in_place(&mut r, &mut fast, tag, declared, real)?);
            assert_eq!((r.pos(), fast.len()), (0, 1));
        }
        Ok(())
    }
}
