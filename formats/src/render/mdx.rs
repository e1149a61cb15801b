//! A model's wireframe: every triangle edge of every geoset, seen from the
//! front, orthographic; in the bind pose or posed and skinned at a moment of
//! an animation ([`formats::anim`](crate::anim)).
//!
//! Reforged models hold each geoset at several levels of detail, all at
//! the same place: the wireframe is the full model the game shows up close,
//! the geosets of level 0 and those of every level (-1), as `formats
//! export` writes by default, not every level drawn over each other.

use super::{Color, Image};
use crate::anim::{Mesh, Moment, Sampler, Skeleton, Timeline, geoset_state, meshes};
use crate::mdx::Model;

/// The triangles of every full-detail geoset as vertex positions, in the
/// bind pose.
fn triangles(model: &Model) -> Vec<[[f32; 3]; 3]> {
    let skeleton = Skeleton::from_model(model);
    let meshes: Vec<Mesh> = full_detail(meshes(model, &skeleton)).collect();
    meshes
        .iter()
        .flat_map(|mesh| corners(&mesh.triangles, &mesh.positions))
        .collect()
}

/// The meshes of level of detail 0 and of every level (-1): the model up
/// close (classic and alpha geosets are all level 0).
fn full_detail(meshes: Vec<Mesh>) -> impl Iterator<Item = Mesh> {
    meshes.into_iter().filter(|mesh| mesh.lod <= 0)
}

/// The corners of `triangles` over `positions` (indices are in range).
fn corners<'a>(
    triangles: &'a [[u16; 3]],
    positions: &'a [[f32; 3]],
) -> impl Iterator<Item = [[f32; 3]; 3]> + 'a {
    triangles.iter().filter_map(|t| {
        let [a, b, c] = t.map(|i| positions.get(usize::from(i)).copied());
        Some([a?, b?, c?])
    })
}

/// The wireframe of the model posed at `moment` (see [`Timeline::at`]):
/// every vertex skinned to its bones' world transforms, geosets whose
/// geoset animation alpha is zero then left out.
///
/// ```
/// use formats::anim::Timeline;
///
/// let model = formats::mdx::Model::from_bytes(&formats::sample::sample_mdx())?;
/// let timeline = Timeline::from_model(&model);
/// let risen = formats::render::posed_wireframe(&model, timeline.at(0, 500.0).unwrap(), 64);
/// assert_eq!(risen.width, 64);
/// # Ok::<(), formats::Error>(())
/// ```
pub fn posed_wireframe(model: &Model, moment: Moment, size: usize) -> Image {
    let skeleton = Skeleton::from_model(model);
    let timeline = Timeline::from_model(model);
    let sampler = Sampler::new(&timeline, moment);
    let pose = skeleton.pose(&sampler);
    let mut triangles = Vec::new();
    for mesh in full_detail(meshes(model, &skeleton)) {
        if geoset_state(model, mesh.geoset, &sampler).alpha <= 0.0 {
            continue;
        }
        let posed = mesh.posed_positions(&pose);
        triangles.extend(corners(&mesh.triangles, &posed));
    }
    draw(&triangles, size)
}

/// The model seen from the front (from +X, the way models face: Y to the
/// right, Z up), scaled to fit a `size` by `size` gray image with a margin:
/// white edges on black. A model without triangles gives a black image.
///
/// ```
/// let model = formats::mdx::Model::from_bytes(&formats::sample::sample_mdx())?;
/// let image = formats::render::wireframe(&model, 64);
/// assert_eq!((image.width, image.height), (64, 64));
/// # Ok::<(), formats::Error>(())
/// ```
pub fn wireframe(model: &Model, size: usize) -> Image {
    draw(&triangles(model), size)
}

/// `triangles` seen from +X, fit to a `size` by `size` image.
fn draw(triangles: &[[[f32; 3]; 3]], size: usize) -> Image {
    let mut image = Image::new(size, size, Color::Gray8);
    let points = || {
        triangles
            .iter()
            .flatten()
            .filter(|p| p.iter().all(|v| v.is_finite()))
    };
    let (mut lo, mut hi) = ([f32::INFINITY; 2], [f32::NEG_INFINITY; 2]);
    for [_, y, z] in points() {
        lo = [lo[0].min(*y), lo[1].min(*z)];
        hi = [hi[0].max(*y), hi[1].max(*z)];
    }
    if lo[0] > hi[0] || size < 2 {
        return image;
    }
    let extent = (hi[0] - lo[0]).max(hi[1] - lo[1]).max(f32::MIN_POSITIVE);
    let margin = size as f32 * 0.05;
    let scale = (size as f32 - 1.0 - 2.0 * margin) / extent;
    // Centre the model: the shorter side gets equal space on both sides.
    let offset = [
        margin + ((extent - (hi[0] - lo[0])) * scale) / 2.0,
        margin + ((extent - (hi[1] - lo[1])) * scale) / 2.0,
    ];
    let project = |p: [f32; 3]| {
        let x = offset[0] + (p[1] - lo[0]) * scale;
        let y = size as f32 - 1.0 - (offset[1] + (p[2] - lo[1]) * scale);
        (x.round() as i64, y.round() as i64)
    };
    for t in triangles {
        if !t.iter().flatten().all(|v| v.is_finite()) {
            continue;
        }
        let [a, b, c] = t.map(project);
        for (from, to) in [(a, b), (b, c), (c, a)] {
            line(&mut image, from, to);
        }
    }
    image
}

/// Bresenham's line, white, clipped to the image. Projected points are inside
/// the image; the ends are clamped to one pixel around it anyway, so a line
/// is never longer than the image is wide and high.
fn line(image: &mut Image, from: (i64, i64), to: (i64, i64)) {
    let clamp = |(x, y): (i64, i64)| {
        (
            x.clamp(-1, image.width as i64),
            y.clamp(-1, image.height as i64),
        )
    };
    let ((mut x0, mut y0), (x1, y1)) = (clamp(from), clamp(to));
    let (dx, dy) = ((x1 - x0).abs(), -(y1 - y0).abs());
    let (sx, sy) = (if x0 < x1 { 1 } else { -1 }, if y0 < y1 { 1 } else { -1 });
    let mut err = dx + dy;
    loop {
        if let (Ok(x), Ok(y)) = (usize::try_from(x0), usize::try_from(y0)) {
            image.set_gray(x, y, 255);
        }
        if x0 == x1 && y0 == y1 {
            break;
        }
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            x0 += sx;
        }
        if e2 <= dx {
            err += dx;
            y0 += sy;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::Timeline;

    /// The sample cube as a Reforged model, with a copy of its geoset far
    /// to the side (+1000 along Y) at level of detail `lod`.
    fn cube_with_a_copy_at(lod: i32) -> Model {
        let mut model = Model::from_bytes(&crate::sample::sample_mdx()).unwrap();
        assert!(model.force_version(1000).is_empty());
        let mut copy = model.geosets()[0].clone();
        for p in &mut copy.vertex_positions {
            p[1] += 1000.0;
        }
        copy.lod = Some(lod);
        model.geosets_mut().push(copy);
        model
    }

    /// A copy at level 1 (a lower-detail stand-in the game shows from
    /// afar) is not drawn: the picture is the cube's alone, at rest and
    /// posed. A copy at level -1 (every level) is drawn, so the picture
    /// changes.
    #[test]
    fn only_the_full_detail_geosets_are_drawn() {
        let mut cube = Model::from_bytes(&crate::sample::sample_mdx()).unwrap();
        assert!(cube.force_version(1000).is_empty());
        let far = cube_with_a_copy_at(1);
        let timeline = Timeline::from_model(&cube);
        let moment = timeline.at(0, 500.0).unwrap();
        let same = |a: Image, b: Image| a.data == b.data;
        assert!(same(wireframe(&far, 64), wireframe(&cube, 64)), "at rest");
        assert!(
            same(
                posed_wireframe(&far, moment, 64),
                posed_wireframe(&cube, moment, 64)
            ),
            "posed"
        );
        let every = cube_with_a_copy_at(-1);
        assert!(!same(wireframe(&every, 64), wireframe(&cube, 64)));
    }
}
