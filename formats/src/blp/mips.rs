//! Mip levels for encoding: each level a 2x2 box filter of the one before,
//! weighted by alpha so that the colour of transparent texels does not bleed
//! into the visible ones.

use super::image::RgbaImage;

/// The next smaller level: each side halved (at least 1), each pixel the
/// filtered 1, 2 or 4 pixels it covers (see `filter`).
pub fn half(image: &RgbaImage) -> RgbaImage {
    let (w, h) = (image.width as usize, image.height as usize);
    let (nw, nh) = ((w / 2).max(1), (h / 2).max(1));
    let (pixels, _) = image.data.as_chunks::<4>();
    let at = |r: usize, c: usize| pixels.get(r * w + c).copied().unwrap_or_default();
    let mut data = Vec::with_capacity(nw * nh * 4);
    for y in 0..nh {
        let rows = [2 * y, (2 * y + 1).min(h - 1)];
        for x in 0..nw {
            let cols = [2 * x, (2 * x + 1).min(w - 1)];
            // On a side of 1 both indices coincide: that pixel counts twice,
            // which leaves every mean unchanged.
            let quad = [
                at(rows[0], cols[0]),
                at(rows[0], cols[1]),
                at(rows[1], cols[0]),
                at(rows[1], cols[1]),
            ];
            data.extend(filter(&quad));
        }
    }
    RgbaImage {
        width: nw as u32,
        height: nh as u32,
        data,
    }
}

/// One pixel of four: alpha their rounded mean; each colour channel the
/// rounded alpha-weighted mean `sum(c * a) / sum(a)`, so a transparent
/// pixel's colour counts for nothing. Where the four alphas are equal (an
/// opaque image, or four transparent pixels) the weights cancel and this is
/// the plain mean, computed without them.
fn filter(quad: &[[u8; 4]; 4]) -> [u8; 4] {
    let [a0, a1, a2, a3] = quad.map(|[.., a]| u32::from(a));
    if a0 == a1 && a1 == a2 && a2 == a3 {
        return mean(quad);
    }
    // Not all equal, so not all 0.
    let alpha_sum = a0 + a1 + a2 + a3;
    let mut sums = [0u32; 3];
    for &[r, g, b, a] in quad {
        for (sum, c) in sums.iter_mut().zip([r, g, b]) {
            *sum += u32::from(c) * u32::from(a);
        }
    }
    let [r, g, b] = sums.map(|sum| rounded(sum, alpha_sum));
    [r, g, b, rounded(alpha_sum, 4)]
}

/// The rounded mean of four pixels, channel by channel.
fn mean(quad: &[[u8; 4]; 4]) -> [u8; 4] {
    let mut sums = [0u32; 4];
    for pixel in quad {
        for (sum, &c) in sums.iter_mut().zip(pixel) {
            *sum += u32::from(c);
        }
    }
    sums.map(|sum| rounded(sum, 4))
}

/// `sum / count` rounded half up, for a mean of bytes (so at most 255);
/// `count` is not 0.
fn rounded(sum: u32, count: u32) -> u8 {
    u8::try_from((sum + count / 2) / count.max(1)).unwrap_or(u8::MAX)
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
pub(super) mod tests {
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
        // The transparent black pixel adds no colour, only its alpha.
        assert_eq!(levels[1].data, [4, 8, 12, 128, 2, 2, 2, 2]);
        assert_eq!(levels[2].data, [4, 8, 12, 65]);
    }

    /// An 8x8 checker of opaque red and fully transparent blue (a foliage
    /// cutout's edge, in small).
    pub(in crate::blp) fn red_blue_checker() -> RgbaImage {
        let data = (0..64)
            .flat_map(|i| match (i % 8 + i / 8) % 2 {
                0 => [255, 0, 0, 255],
                _ => [0, 0, 255, 0],
            })
            .collect();
        RgbaImage::new(8, 8, data).unwrap()
    }

    #[test]
    fn transparent_colour_does_not_bleed_into_mips() {
        let levels = chain(red_blue_checker());
        assert_eq!(levels.len(), 4);
        for level in &levels[1..] {
            let (pixels, _) = level.data.as_chunks::<4>();
            assert!(
                pixels.iter().all(|&px| px == [255, 0, 0, 128]),
                "{}x{}: {:?}",
                level.width,
                level.height,
                level.data
            );
        }
    }

    #[test]
    fn all_transparent_pixels_take_the_plain_mean() {
        let quad = [
            [10, 20, 30, 0],
            [20, 30, 40, 0],
            [30, 40, 50, 0],
            [41, 50, 60, 0],
        ];
        assert_eq!(filter(&quad), [25, 35, 45, 0]);
    }

    #[test]
    fn opaque_and_uniform_alpha_levels_are_the_plain_mean() {
        // Every pixel a different colour; the alpha the same everywhere.
        for alpha in [255, 128, 1] {
            let data: Vec<u8> = (0..16u32 * 16)
                .flat_map(|i| [(i * 7) as u8, (i * 13 + 5) as u8, (i * 31) as u8, alpha])
                .collect();
            let image = RgbaImage::new(16, 16, data).unwrap();
            let next = half(&image);
            let (pixels, _) = image.data.as_chunks::<4>();
            for (i, px) in next.data.as_chunks::<4>().0.iter().enumerate() {
                let (x, y) = (2 * (i % 8), 2 * (i / 8));
                let quad = [
                    y * 16 + x,
                    y * 16 + x + 1,
                    (y + 1) * 16 + x,
                    (y + 1) * 16 + x + 1,
                ]
                .map(|j| pixels[j]);
                let plain: [u8; 4] = std::array::from_fn(|c| {
                    let sum: u32 = quad.iter().map(|q| u32::from(q[c])).sum();
                    ((sum + 2) / 4) as u8
                });
                assert_eq!(*px, plain, "alpha {alpha}, pixel {i}");
            }
        }
        // The weighted mean agrees with the plain one when the weights are
        // equal but not taken as equal (the shortcut is only a shortcut).
        let quad = [
            [1, 2, 3, 200],
            [4, 5, 6, 200],
            [7, 8, 9, 200],
            [10, 11, 13, 200],
        ];
        let mut uneven = quad;
        uneven[3][3] = 201;
        assert_eq!(filter(&quad), [6, 7, 8, 200]);
        assert_eq!(filter(&uneven), [6, 7, 8, 200]);
    }
}
