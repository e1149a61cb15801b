//! Palette levels: `width * height` indices into 256 BGRA colours, then the
//! alpha plane (8, 4 or 1 bits per pixel, low bits first; none for 0 bits).

use std::collections::HashMap;

use color_quant::NeuQuant;

use super::CodecError;

/// The byte size of a palette level of `pixels` pixels with `alpha_bits` of
/// alpha, or `None` for an alpha depth palette levels cannot have.
pub fn level_len(pixels: usize, alpha_bits: u32) -> Option<usize> {
    let plane = match alpha_bits {
        0 => 0,
        1 => pixels.div_ceil(8),
        4 => pixels.div_ceil(2),
        8 => pixels,
        _ => return None,
    };
    Some(pixels + plane)
}

/// RGBA pixels of a palette level. `level` may be longer than needed (real
/// files point small levels at larger data); the bytes past the alpha plane
/// are ignored.
pub fn decode(
    level: &[u8],
    palette: &[[u8; 4]],
    alpha_bits: u32,
    width: u32,
    height: u32,
) -> Result<Vec<u8>, CodecError> {
    let pixels = width as usize * height as usize;
    let needed =
        level_len(pixels, alpha_bits).ok_or(CodecError::AlphaDepth { bits: alpha_bits })?;
    if level.len() < needed {
        return Err(CodecError::PaletteShort {
            needed,
            pixels,
            alpha_bits,
            len: level.len(),
        });
    }
    let (indices, plane) = level.split_at(pixels);
    // BGRA entries as opaque RGBA; a missing entry is black.
    let mut table = [[0u8, 0, 0, 255]; 256];
    for (rgba, &[b, g, r, _]) in table.iter_mut().zip(palette) {
        *rgba = [r, g, b, 255];
    }
    let mut out = vec![0u8; pixels * 4];
    let (rows, _) = out.as_chunks_mut::<4>();
    for (px, &i) in rows.iter_mut().zip(indices) {
        if let Some(rgba) = table.get(usize::from(i)) {
            *px = *rgba;
        }
    }
    let alpha = |k: usize| -> u8 {
        let byte = |at: usize| plane.get(at).copied().unwrap_or(0);
        match alpha_bits {
            8 => byte(k),
            4 => ((byte(k / 2) >> (4 * (k % 2))) & 0xf) * 17,
            1 => ((byte(k / 8) >> (k % 8)) & 1) * 255,
            _ => 255,
        }
    };
    if alpha_bits == 8 {
        for (px, &a) in rows.iter_mut().zip(plane) {
            px[3] = a;
        }
    } else if alpha_bits != 0 {
        for (k, px) in rows.iter_mut().enumerate() {
            px[3] = alpha(k);
        }
    }
    Ok(out)
}

/// Chooses at most 256 colours for an image and maps pixels to them: the
/// image's own colours when there are few enough (lossless), NeuQuant's
/// otherwise. Alpha is not quantized (it goes to the alpha plane).
pub struct Quantizer {
    colors: Vec<[u8; 3]>,
    neuquant: Option<NeuQuant>,
    known: HashMap<[u8; 3], u8>,
}

impl Quantizer {
    /// A palette for `rgba` (R, G, B, A pixels).
    pub fn new(rgba: &[u8]) -> Quantizer {
        let (pixels, _) = rgba.as_chunks::<4>();
        let mut known: HashMap<[u8; 3], u8> = HashMap::new();
        let mut colors = Vec::new();
        for &[r, g, b, _] in pixels {
            if known.contains_key(&[r, g, b]) {
                continue;
            }
            let Ok(index) = u8::try_from(colors.len()) else {
                // More than 256 colours: quantize (on opaque copies of the pixels).
                let opaque: Vec<u8> = pixels
                    .iter()
                    .flat_map(|&[r, g, b, _]| [r, g, b, 255])
                    .collect();
                let neuquant = NeuQuant::new(10, 256, &opaque);
                let colors = neuquant
                    .color_map_rgba()
                    .as_chunks::<4>()
                    .0
                    .iter()
                    .map(|&[r, g, b, _]| [r, g, b])
                    .collect();
                return Quantizer {
                    colors,
                    neuquant: Some(neuquant),
                    known: HashMap::new(),
                };
            };
            known.insert([r, g, b], index);
            colors.push([r, g, b]);
        }
        Quantizer {
            colors,
            neuquant: None,
            known,
        }
    }

    /// The palette as 256 BGRA entries (A 255; unused entries black).
    pub fn palette(&self) -> Vec<[u8; 4]> {
        let mut palette: Vec<[u8; 4]> = self
            .colors
            .iter()
            .map(|&[r, g, b]| [b, g, r, 255])
            .collect();
        palette.resize(256, [0, 0, 0, 255]);
        palette
    }

    /// The palette index for a colour: exact when the colour is in the palette,
    /// the nearest entry otherwise (remembered).
    fn index_of(&mut self, rgb: [u8; 3]) -> u8 {
        if let Some(&i) = self.known.get(&rgb) {
            return i;
        }
        let index = match &self.neuquant {
            Some(nq) => nq.index_of(&[rgb[0], rgb[1], rgb[2], 255]),
            None => nearest(&self.colors, rgb),
        };
        let index = u8::try_from(index).unwrap_or(0);
        self.known.insert(rgb, index);
        index
    }

    /// A palette level: indices, then an 8-bit alpha plane if `alpha`.
    pub fn encode(&mut self, rgba: &[u8], alpha: bool) -> Vec<u8> {
        let (pixels, _) = rgba.as_chunks::<4>();
        let mut out: Vec<u8> = pixels
            .iter()
            .map(|&[r, g, b, _]| self.index_of([r, g, b]))
            .collect();
        if alpha {
            out.extend(pixels.iter().map(|&[.., a]| a));
        }
        out
    }
}

/// The index of the colour nearest to `rgb` (squared distance).
fn nearest(colors: &[[u8; 3]], rgb: [u8; 3]) -> usize {
    let distance = |c: &[u8; 3]| -> u32 {
        c.iter()
            .zip(rgb)
            .map(|(&a, b)| u32::from(a.abs_diff(b)).pow(2))
            .sum()
    };
    colors
        .iter()
        .enumerate()
        .min_by_key(|(_, c)| distance(c))
        .map_or(0, |(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alpha_planes_of_every_depth() {
        let palette = [[10, 20, 30, 0], [1, 2, 3, 0]];
        // 4 pixels: indices 0 1 1 0, then the alpha plane.
        let rgba = decode(&[0, 1, 1, 0, 0x5f, 0xa0], &palette, 4, 2, 2).unwrap();
        assert_eq!(&rgba[..8], [30, 20, 10, 255, 3, 2, 1, 85]);
        assert_eq!(rgba[11], 0);
        assert_eq!(rgba[15], 170);
        let rgba = decode(&[0, 1, 1, 0, 0b0101], &palette, 1, 2, 2).unwrap();
        let alphas: Vec<u8> = rgba.iter().skip(3).step_by(4).copied().collect();
        assert_eq!(alphas, [255, 0, 255, 0]);
        let rgba = decode(&[0, 1, 1, 0, 9, 8, 7, 6, 99], &palette, 8, 2, 2).unwrap();
        let alphas: Vec<u8> = rgba.iter().skip(3).step_by(4).copied().collect();
        assert_eq!(alphas, [9, 8, 7, 6]);
        assert!(decode(&[0, 1, 1], &palette, 0, 2, 2).is_err());
        assert!(decode(&[0; 16], &palette, 2, 2, 2).is_err());
    }

    #[test]
    fn few_colours_are_kept_exactly() {
        let rgba = [1, 2, 3, 255, 4, 5, 6, 7, 1, 2, 3, 0];
        let mut q = Quantizer::new(&rgba);
        assert_eq!(q.encode(&rgba, true), [0, 1, 0, 255, 7, 0]);
        assert_eq!(&q.palette()[..2], [[3, 2, 1, 255], [6, 5, 4, 255]]);
        assert_eq!(q.index_of([5, 5, 5]), 1);
    }
}
