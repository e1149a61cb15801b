//! Mip levels for encoding: each level a 2x2 box filter of the one before.

use super::image::RgbaImage;

/// The next smaller level: each side halved (at least 1), each pixel the
/// rounded mean of the 1, 2 or 4 pixels it covers.
pub fn half(image: &RgbaImage) -> RgbaImage {
    let (w, h) = (image.width as usize, image.height as usize);
    let (nw, nh) = ((w / 2).max(1), (h / 2).max(1));
    let (pixels, _) = image.data.as_chunks::<4>();
    let mut data = Vec::with_capacity(nw * nh * 4);
    for y in 0..nh {
        let rows = [2 * y, (2 * y + 1).min(h - 1)];
        for x in 0..nw {
            let cols = [2 * x, (2 * x + 1).min(w - 1)];
            let mut sum = [0u32; 4];
            for r in rows {
                for c in cols {
                    if let Some(px) = pixels.get(r * w + c) {
                        for (s, &v) in sum.iter_mut().zip(px) {
                            *s += u32::from(v);
                        }
                    }
                }
            }
            // Both indices coincide on a side of 1: that pixel counted twice is still its mean.
            data.extend(sum.map(|s| u8::try_from((s + 2) / 4).unwrap_or(u8::MAX)));
        }
    }
    RgbaImage {
        width: nw as u32,
        height: nh as u32,
        data,
    }
}

/// `image` and its smaller levels down to 1x1 (at most 16 levels in all).
pub fn chain(image: RgbaImage) -> Vec<RgbaImage> {
    let mut levels = vec![image];
    while let Some(last) = levels.last() {
        if (last.width == 1 && last.height == 1) || levels.len() == 16 {
            break;
        }
        let next = half(last);
        levels.push(next);
    }
    levels
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_to_one_by_one() {
        let image = RgbaImage::new(
            4,
            1,
            vec![0, 0, 0, 0, 4, 8, 12, 255, 2, 2, 2, 2, 2, 2, 2, 2],
        )
        .unwrap();
        let levels = chain(image);
        assert_eq!(levels.len(), 3);
        assert_eq!((levels[1].width, levels[1].height), (2, 1));
        assert_eq!(levels[1].data, [2, 4, 6, 128, 2, 2, 2, 2]);
        assert_eq!(levels[2].data, [2, 3, 4, 65]);
    }
}
