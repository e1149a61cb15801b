//! How far a model's geometry reaches beyond the extents it stores, posed
//! as Blizzard's exporter posed it: what
//! `validate::extents` calls stale.

use super::aabb::Aabb;
use super::measure::{Extents, MAX_POSE_WORK};
use super::pose::{At, Posed, Posing, frame_count, grow_at_rest, pose_work, thin};
use crate::anim::{Skeleton, Timeline, meshes};
use crate::mdx::{Extent, Model};

/// The milliseconds between the poses of a sequence from which Blizzard's
/// exporter took its extents (from the sequence's start).
/// Its boxes and radii are what the geometry gives at these frames: on
/// the 1,120 classic models of runi95/wc3-slk-edit-electron-resources,
/// twice as many sequence boxes agree with the geometry to 0.05 % of the
/// model's size posed so as every 10 ms, and a sword that sweeps between
/// two of them (the footman's "Attack - 2") reaches 30 units past the box.
pub const BLIZZARD_STEP: u32 = 100;

/// Whether `extent` holds a box: neither empty (the inverted ±`FLT_MAX` of
/// Blizzard's files, for a geoset hidden throughout a sequence) nor a
/// single point (all 0: left unset, as in many of Blizzard's spell
/// effects). An extent that is not set bounds nothing: mdx-m3-viewer then
/// takes the model's (`MODL`) for a sequence's.
pub fn is_set(extent: &Extent) -> bool {
    !Aabb::of(extent).is_empty() && extent.minimum != extent.maximum
}

/// How far the geometry reaches beyond each stored extent (in model units;
/// negative when it stays inside by that much, [`f32::NEG_INFINITY`] when
/// there is none for it to hold). A point is held when inside the extent's
/// box or inside its sphere (the box's centre, the bounds radius, when that
/// is not 0): Blizzard's radii hold geometry its boxes leave out.
#[derive(Clone, Debug, PartialEq)]
pub struct Escapes {
    /// `MODL`'s, holding what the model shows where it stores no extent of
    /// its own: the sequences whose extent [is not set](is_set), and the
    /// bind pose when there are no sequences.
    pub model: f32,
    /// Each sequence's, holding the geosets showing in it.
    pub sequences: Vec<f32>,
    /// Each geoset's, in the order of [`meshes`].
    pub geosets: Vec<GeosetEscapes>,
}

/// How far one geoset reaches beyond its extents. A geoset's extent holds
/// a vertex that is inside where the sequence puts it or at rest: Blizzard's
/// exporter stored the rest pose for pieces a single bone carries (the
/// footman's thrown helmet, a building's falling debris), and the game
/// draws those pieces wherever they fly.
#[derive(Clone, Debug, PartialEq)]
pub struct GeosetEscapes {
    /// Its extent's, over the sequences it shows in (its rest pose when it
    /// shows in none).
    pub extent: f32,
    /// Each of its per-sequence extents', over that sequence.
    pub sequences: Vec<f32>,
    /// Its vertices at rest (the bind pose), which its extents may hold
    /// instead of the posed ones.
    pub at_rest: Aabb,
}

/// An extent as a volume: its box, and its sphere where it has a radius.
struct Volume {
    minimum: [f32; 3],
    maximum: [f32; 3],
    centre: [f32; 3],
    radius: Option<f32>,
}

impl Volume {
    fn of(extent: &Extent) -> Volume {
        let r = extent.bounds_radius;
        Volume {
            minimum: extent.minimum,
            maximum: extent.maximum,
            // In f64: the empty extent's corners add up to 0, not infinity.
            centre: {
                let [lx, ly, lz] = extent.minimum.map(f64::from);
                let [hx, hy, hz] = extent.maximum.map(f64::from);
                [(lx + hx) / 2.0, (ly + hy) / 2.0, (lz + hz) / 2.0].map(|c| c as f32)
            },
            radius: (r > 0.0 && r.is_finite()).then_some(r),
        }
    }

    /// How far `p` is outside both the box and the sphere.
    #[inline(always)]
    fn escape(&self, [x, y, z]: [f32; 3]) -> f32 {
        let ([lx, ly, lz], [hx, hy, hz]) = (self.minimum, self.maximum);
        let outside = (lx - x)
            .max(x - hx)
            .max(ly - y)
            .max(y - hy)
            .max(lz - z)
            .max(z - hz);
        match self.radius {
            Some(r) => {
                let [cx, cy, cz] = self.centre;
                let d = ((x - cx) * (x - cx) + (y - cy) * (y - cy) + (z - cz) * (z - cz)).sqrt();
                outside.min(d - r)
            }
            None => outside,
        }
    }
}

/// The poses of a sequence from `interval[0]` every `step` ms, short of its
/// end (its start alone if it is 0 ms long). The exporter did not pose the
/// end: there [`anim`](crate::anim) closes a loop with the first key's
/// value (its rule 3), which shows again a geoset a `DontInterp` track hid
/// (a geoset of Blizzard's headhunter, hidden 234 ms into its 1000 ms
/// `Morph`, shows at 1000 far from where it was), a pose the exporter did
/// not see: posed at their ends too, twice as many of Blizzard's models
/// have a sequence whose geometry escapes its extent by a tenth of the
/// model's size.
fn exporter_poses(interval: [u32; 2], step: u32) -> Vec<At> {
    let [start, end] = interval.map(i64::from);
    let step = i64::from(step.max(1)).max((end - start) / i64::from(super::pose::MAX_STEPS));
    let mut frames: Vec<i64> = (0..)
        .map(|k| start + k * step)
        .take_while(|&f| f < end)
        .collect();
    if frames.is_empty() {
        frames.push(start);
    }
    frames
        .into_iter()
        .map(|frame| At {
            frame,
            counter: frame - start,
        })
        .collect()
}

/// The farthest escape seen, in place.
fn farther(escape: &mut f32, by: f32) {
    if by > *escape {
        *escape = by;
    }
}

/// How far `model`'s geometry, posed every [`BLIZZARD_STEP`] ms of each
/// sequence from its start, short of its end (as its tracks put it:
/// billboards not turned),
/// reaches beyond the extents in `stored` (what the model stores, in the
/// shape [`measure`](super::measure) gives; [`Escapes`] says what each
/// holds). `None` for a model without vertices. Like `measure`, a model
/// whose sequences would take more than [`MAX_POSE_WORK`] is posed less
/// often.
///
/// ```
/// use formats::bounds::{ExtentOptions, escapes, measure};
///
/// let model = formats::mdx::Model::from_bytes(&formats::sample::sample_mdx())?;
/// let mut stored = measure(&model, &ExtentOptions::default()).unwrap();
/// // "Stand" lifts the cube by 0.5: a box at rest leaves its top out, by
/// // 0.5 (its sphere too: it is the box's own).
/// stored.sequences[0].maximum[2] = 0.5;
/// stored.sequences[0].bounds_radius = 0.0;
/// let escapes = escapes(&model, &stored).unwrap();
/// assert_eq!(escapes.sequences[0], 0.5);
/// // "Birth" holds its geometry: it touches the box.
/// assert!(escapes.sequences[1].abs() < 1e-6);
/// # Ok::<(), formats::Error>(())
/// ```
pub fn escapes(model: &Model, stored: &Extents) -> Option<Escapes> {
    let skeleton = Skeleton::from_model(model);
    let timeline = Timeline::from_model(model);
    let meshes = meshes(model, &skeleton);
    if meshes.iter().all(|m| m.positions.is_empty()) {
        return None;
    }
    let per_pose = pose_work(model, &skeleton, &meshes);
    let work = |step: u32| {
        let each = timeline.sequences.iter();
        let poses = each.map(|s| frame_count(s.interval, step, &[]));
        poses
            .fold(0u64, u64::saturating_add)
            .saturating_mul(per_pose)
    };
    let stretch = work(BLIZZARD_STEP).div_ceil(MAX_POSE_WORK).max(1);
    let step = BLIZZARD_STEP.saturating_mul(u32::try_from(stretch).unwrap_or(u32::MAX));
    let every = usize::try_from(work(step).div_ceil(MAX_POSE_WORK).max(1)).unwrap_or(usize::MAX);
    let poses = timeline
        .sequences
        .iter()
        .map(|s| thin(exporter_poses(s.interval, step), every))
        .collect();
    let posing = Posing::new(model, skeleton, timeline, meshes, poses);

    let sequences = posing.timeline.sequences.len();
    let volume = |e: Option<&Extent>| e.map(Volume::of);
    let sequence_volumes: Vec<Option<Volume>> = (0..sequences)
        .map(|s| volume(stored.sequences.get(s)))
        .collect();
    // The sequences whose own extent is not set: MODL's stands for theirs.
    let modl_holds: Vec<bool> = (0..sequences)
        .map(|s| !stored.sequences.get(s).is_some_and(is_set))
        .collect();
    let modl = Volume::of(&stored.model);
    let geoset_volumes: Vec<Option<(Volume, Vec<Volume>)>> = (0..posing.meshes.len())
        .map(|m| {
            let g = stored.geosets.get(m)?;
            Some((
                Volume::of(&g.extent),
                g.sequences.iter().map(Volume::of).collect(),
            ))
        })
        .collect();

    let none = f32::NEG_INFINITY;
    let mut escapes = Escapes {
        model: none,
        sequences: vec![none; sequences],
        geosets: posing
            .meshes
            .iter()
            .map(|mesh| {
                let mut at_rest = Aabb::EMPTY;
                grow_at_rest(&mut at_rest, &mesh.positions);
                GeosetEscapes {
                    extent: none,
                    sequences: vec![none; sequences],
                    at_rest,
                }
            })
            .collect(),
    };
    let mut shown = vec![false; posing.meshes.len()];
    posing.each_posed_group(None, |group: Posed<'_>| {
        let (m, s) = (group.mesh, group.sequence);
        if let Some(shows) = shown.get_mut(m) {
            *shows = true;
        }
        let sequence = sequence_volumes.get(s).and_then(Option::as_ref);
        let for_modl = modl_holds.get(s) == Some(&true);
        let geoset = geoset_volumes.get(m).and_then(Option::as_ref);
        let listed = geoset.and_then(|(_, list)| list.get(s));
        let (mut by_sequence, mut by_modl, mut by_geoset, mut by_listed) = (none, none, none, none);
        group.moved.each_with_rest(group.positions, |posed, rest| {
            if let Some(v) = sequence {
                farther(&mut by_sequence, v.escape(posed));
            }
            if for_modl {
                farther(&mut by_modl, modl.escape(posed));
            }
            if let Some((v, _)) = geoset {
                farther(&mut by_geoset, v.escape(posed).min(v.escape(rest)));
            }
            if let Some(v) = listed {
                farther(&mut by_listed, v.escape(posed).min(v.escape(rest)));
            }
        });
        if let Some(e) = escapes.sequences.get_mut(s) {
            farther(e, by_sequence);
        }
        farther(&mut escapes.model, by_modl);
        if let Some(g) = escapes.geosets.get_mut(m) {
            farther(&mut g.extent, by_geoset);
            if let Some(e) = g.sequences.get_mut(s) {
                farther(e, by_listed);
            }
        }
    });
    // A geoset that never shows, at rest; a model without sequences, too.
    for (m, mesh) in posing.meshes.iter().enumerate() {
        let (never, nothing) = (shown.get(m) != Some(&true), sequences == 0);
        for &p in &mesh.positions {
            if !p.iter().all(|v| v.is_finite()) {
                continue;
            }
            if let (true, Some((v, _)), Some(g)) = (
                never,
                geoset_volumes.get(m).and_then(Option::as_ref),
                escapes.geosets.get_mut(m),
            ) {
                farther(&mut g.extent, v.escape(p));
            }
            if nothing {
                farther(&mut escapes.model, modl.escape(p));
            }
        }
    }
    Some(escapes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_point_is_held_by_the_box_or_the_sphere() {
        let extent = |radius| Extent {
            bounds_radius: radius,
            minimum: [-1.0; 3],
            maximum: [1.0; 3],
        };
        let boxed = Volume::of(&extent(0.0));
        assert_eq!(boxed.escape([0.0; 3]), -1.0);
        assert_eq!(boxed.escape([3.0, 0.0, 0.0]), 2.0);
        // A sphere of radius 5 about the box's centre holds (3, 0, 0), not
        // (6, 0, 0) (1 beyond the sphere, 5 beyond the box).
        let sphered = Volume::of(&extent(5.0));
        assert_eq!(sphered.escape([3.0, 0.0, 0.0]), -2.0);
        assert_eq!(sphered.escape([6.0, 0.0, 0.0]), 1.0);
        // The empty extent's centre is 0, its radius (0) none.
        let empty = Volume::of(&Aabb::EMPTY.extent(0.0));
        assert_eq!((empty.centre, empty.radius), ([0.0; 3], None));
    }

    #[test]
    fn extents_are_set_when_they_are_boxes() {
        let empty = Aabb::EMPTY.extent(0.0);
        let point = Extent {
            bounds_radius: 0.0,
            minimum: [0.0; 3],
            maximum: [0.0; 3],
        };
        let flat = Extent {
            maximum: [1.0, 1.0, 0.0],
            ..point
        };
        assert_eq!(
            [empty, point, flat].map(|e| is_set(&e)),
            [false, false, true]
        );
    }
}
