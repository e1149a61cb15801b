//! A model's wireframe: every triangle edge of every geoset, seen from the
//! front, orthographic.

use super::{Color, Image};
use crate::mdx::alpha::Batch;
use crate::mdx::{Chunk, Model};

/// `faceTypeGroups` value of a triangle list.
const TRIANGLES: u32 = 4;

/// The triangles of every geoset as vertex positions (indices out of range skipped).
fn triangles(model: &Model) -> Vec<[[f32; 3]; 3]> {
    let mut out = Vec::new();
    for geoset in model.geosets() {
        let groups = geoset
            .face_type_groups
            .iter()
            .copied()
            .zip(geoset.face_groups.iter().copied());
        push_triangles(&mut out, &geoset.vertex_positions, groups, &geoset.faces);
    }
    // WoW alpha v1300/1400 geosets: the same primitive groups, byte-sized types.
    for geoset in model.alpha_geosets() {
        let types = geoset.primitive_types.iter().map(|t| u32::from(*t));
        let groups = types.zip(geoset.primitive_counts.iter().copied());
        push_triangles(
            &mut out,
            &geoset.vertices,
            groups,
            &geoset.primitive_vertices,
        );
    }
    // WoW alpha v1500: one primitive group per batch.
    for chunk in &model.chunks {
        if let Chunk::AlphaBatchedGeosets(c) = chunk {
            for batch in &c.batches {
                let positions: Vec<[f32; 3]> = batch.vertices.iter().map(|v| v.position).collect();
                let count = u32::try_from(batch.primitive_vertices.len()).unwrap_or(u32::MAX);
                // v1500 numbers a triangle list 3 (`Batch::TRIANGLES`), PTYP 4.
                let kind = if batch.primitive_type == Batch::TRIANGLES {
                    TRIANGLES
                } else {
                    0
                };
                let groups = std::iter::once((kind, count));
                push_triangles(&mut out, &positions, groups, &batch.primitive_vertices);
            }
        }
    }
    out
}

/// The triangles of the groups `(type, index count)` over `faces`, with
/// indices into `positions` (out-of-range ones are skipped).
fn push_triangles(
    out: &mut Vec<[[f32; 3]; 3]>,
    positions: &[[f32; 3]],
    groups: impl Iterator<Item = (u32, u32)>,
    faces: &[u16],
) {
    let mut faces = faces;
    for (face_type, count) in groups {
        let count = (count as usize).min(faces.len());
        let (group, rest) = faces.split_at(count);
        faces = rest;
        if face_type != TRIANGLES {
            continue;
        }
        let vertex = |i: &u16| positions.get(usize::from(*i)).copied();
        for t in group.chunks_exact(3) {
            if let [Some(a), Some(b), Some(c)] =
                [t.first(), t.get(1), t.get(2)].map(|i| i.and_then(vertex))
            {
                out.push([a, b, c]);
            }
        }
    }
}

/// The model seen from the front (from +X, the way models face: Y to the
/// right, Z up), scaled to fit a `size` by `size` gray image with a margin:
/// white edges on black. A model without triangles gives a black image.
///
/// ```
/// let model = formats::mdx::Model::from_bytes(&formats::sample::sample_mdx())?;
/// let image = formats::render::wireframe(&model, 64);
/// assert_eq!((image.width, image.height), (64, 64));
/// # Ok::<(), format_core::Error>(())
/// ```
pub fn wireframe(model: &Model, size: usize) -> Image {
    let mut image = Image::new(size, size, Color::Gray8);
    let triangles = triangles(model);
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
    for t in &triangles {
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
