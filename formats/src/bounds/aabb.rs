//! A box grown point by point, and the extent it makes.

use crate::mdx::Extent;

/// The corner value of the empty extent in Blizzard's files: `FLT_MAX`
/// printed to six digits and read back (3.40282e38, a little below
/// `f32::MAX`); the minimum holds it, the maximum its negative.
pub const EMPTY_CORNER: f32 = 3.40282e38;

/// An axis-aligned box grown by points; empty until the first one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    /// The smallest coordinates seen (`+inf` while empty).
    pub minimum: [f32; 3],
    /// The largest coordinates seen (`-inf` while empty).
    pub maximum: [f32; 3],
}

impl Default for Aabb {
    fn default() -> Self {
        Aabb::EMPTY
    }
}

impl Aabb {
    /// No point yet.
    pub const EMPTY: Aabb = Aabb {
        minimum: [f32::INFINITY; 3],
        maximum: [f32::NEG_INFINITY; 3],
    };

    /// The box of an extent (its radius left out).
    pub fn of(extent: &Extent) -> Aabb {
        Aabb {
            minimum: extent.minimum,
            maximum: extent.maximum,
        }
    }

    /// Whether no point was added.
    pub fn is_empty(&self) -> bool {
        self.minimum
            .iter()
            .zip(&self.maximum)
            .any(|(lo, hi)| lo > hi)
    }

    /// Grows the box to hold `point` (non-finite coordinates are left out).
    pub fn add(&mut self, point: [f32; 3]) {
        let [x, y, z] = point;
        if !(x.is_finite() && y.is_finite() && z.is_finite()) {
            return;
        }
        let [lx, ly, lz] = &mut self.minimum;
        let [hx, hy, hz] = &mut self.maximum;
        *lx = lx.min(x);
        *ly = ly.min(y);
        *lz = lz.min(z);
        *hx = hx.max(x);
        *hy = hy.max(y);
        *hz = hz.max(z);
    }

    /// Grows the box to hold `other`.
    pub fn union(&mut self, other: &Aabb) {
        if !other.is_empty() {
            self.add(other.minimum);
            self.add(other.maximum);
        }
    }

    /// The length of the box's diagonal (0 when empty).
    pub fn diagonal(&self) -> f32 {
        if self.is_empty() {
            return 0.0;
        }
        let ([lx, ly, lz], [hx, hy, hz]) = (self.minimum, self.maximum);
        ((hx - lx) * (hx - lx) + (hy - ly) * (hy - ly) + (hz - lz) * (hz - lz)).sqrt()
    }

    /// The box's centre (NaN-free only when not empty).
    pub fn centre(&self) -> [f32; 3] {
        core::array::from_fn(|i| {
            let (lo, hi) = (self.minimum.get(i), self.maximum.get(i));
            lo.zip(hi).map_or(0.0, |(lo, hi)| (lo + hi) / 2.0)
        })
    }

    /// The extent of this box with `radius`; an empty box is the "nothing
    /// there" extent Blizzard's files use (minimum [`EMPTY_CORNER`],
    /// maximum its negative, radius 0).
    pub fn extent(&self, radius: f32) -> Extent {
        if self.is_empty() {
            return Extent {
                bounds_radius: 0.0,
                minimum: [EMPTY_CORNER; 3],
                maximum: [-EMPTY_CORNER; 3],
            };
        }
        Extent {
            bounds_radius: radius,
            minimum: self.minimum,
            maximum: self.maximum,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_box_grows_by_finite_points() {
        let mut aabb = Aabb::EMPTY;
        assert!(aabb.is_empty());
        assert_eq!(aabb.extent(5.0).bounds_radius, 0.0);
        assert_eq!(aabb.extent(5.0).maximum, [-EMPTY_CORNER; 3]);
        for p in [[0.0, 0.0, 0.0], [2.0, 4.0, -2.0], [f32::NAN, 9.0, 9.0]] {
            aabb.add(p);
        }
        assert_eq!(
            (aabb.minimum, aabb.maximum),
            ([0.0, 0.0, -2.0], [2.0, 4.0, 0.0])
        );
        assert_eq!(
            (aabb.diagonal(), Aabb::EMPTY.diagonal()),
            (24f32.sqrt(), 0.0)
        );
        assert_eq!(aabb.centre(), [1.0, 2.0, -1.0]);
        let mut other = Aabb::EMPTY;
        other.union(&aabb);
        other.union(&Aabb::EMPTY);
        assert_eq!(other, aabb);
    }
}
