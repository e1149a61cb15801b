//! A small model generated in code, so `formats info` has something to show on
//! a fresh machine with no files at hand.

use format_core::{Error, FixedStr, FourCC, Writer};

fn tag(t: &[u8; 4]) -> FourCC {
    FourCC::new(*t)
}

fn fixed<const N: usize>(w: &mut Writer, text: &str) -> Result<(), Error> {
    w.plain(&FixedStr::<N>::try_from(text)?);
    Ok(())
}

/// `Extent { float boundsRadius; float[3] minimum; float[3] maximum }` of a unit cube.
fn extent(w: &mut Writer) {
    w.plain(&[3f32.sqrt() / 2.0]);
    w.plain(&[[-0.5f32; 3], [0.5; 3]]);
}

/// A version 800 MDX: `VERS`, `MODL`, two `SEQS` sequences and one pivot point.
///
/// ```
/// let bytes = formats::sample::sample_mdx();
/// let file = formats::chunks::ChunkFile::from_bytes(&bytes).unwrap();
/// let tags: Vec<String> = file.chunks().iter().map(|c| c.tag.to_string()).collect();
/// assert_eq!(tags, ["VERS", "MODL", "SEQS", "PIVT"]);
/// ```
pub fn sample_mdx() -> Vec<u8> {
    build().unwrap_or_default()
}

fn build() -> Result<Vec<u8>, Error> {
    let mut w = Writer::new();
    w.tag(tag(b"MDLX"));
    w.chunk(tag(b"VERS"), |w| {
        w.u32(800);
        Ok(())
    })?;
    w.chunk(tag(b"MODL"), |w| {
        fixed::<80>(w, "Sample")?;
        fixed::<260>(w, "")?;
        extent(w);
        w.u32(150); // blendTime
        Ok(())
    })?;
    w.chunk(tag(b"SEQS"), |w| {
        for (name, interval, flags) in [("Stand", [0u32, 1000], 0u32), ("Birth", [2000, 3000], 1)] {
            fixed::<80>(w, name)?;
            w.plain(&interval);
            w.f32(0.0); // moveSpeed
            w.u32(flags); // 0: looping, 1: non looping
            w.f32(0.0); // rarity
            w.u32(0); // syncPoint
            extent(w);
        }
        Ok(())
    })?;
    w.chunk(tag(b"PIVT"), |w| {
        w.plain(&[0f32; 3]);
        Ok(())
    })?;
    Ok(w.into_bytes())
}
