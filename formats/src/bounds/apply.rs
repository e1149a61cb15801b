//! [`Model::recompute_extents`]: the measured extents written where the
//! model keeps them, with a record of each one that changed.

use super::aabb::Aabb;
use super::measure::{ExtentOptions, Extents, measure};
use crate::mdx::{Chunk, Extent, Model};

/// One extent that [`Model::recompute_extents`] changed.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ExtentChange {
    /// Where (`chunks[1].MODL.extent`, `chunks[6].GEOS.geosets[0].sequence_extents[2]`).
    pub path: String,
    /// The stored extent (`None`: there was none, the list was shorter).
    pub before: Option<Extent>,
    /// The new one (`None`: removed, the list was longer than the sequences).
    pub after: Option<Extent>,
}

impl ExtentChange {
    /// How far the extent moved: the largest change of a corner coordinate
    /// or of the radius (infinite when one side is missing or empty, its
    /// minimum past its maximum, or a change is not finite).
    pub fn distance(&self) -> f32 {
        let (Some(a), Some(b)) = (self.before, self.after) else {
            return f32::INFINITY;
        };
        if Aabb::of(&a).is_empty() || Aabb::of(&b).is_empty() {
            return f32::INFINITY;
        }
        numbers(&a)
            .iter()
            .zip(&numbers(&b))
            .map(|(x, y)| if x == y { 0.0 } else { (x - y).abs() })
            .fold(
                0.0,
                |m: f32, d| if d.is_nan() { f32::INFINITY } else { m.max(d) },
            )
    }
}

/// An extent's corners, then its radius.
fn numbers(extent: &Extent) -> [f32; 7] {
    let ([a, b, c], [d, e, f]) = (extent.minimum, extent.maximum);
    [a, b, c, d, e, f, extent.bounds_radius]
}

/// Whether two extents hold the same bits (so `-inf` equals `-inf` and a
/// NaN its own copy).
fn same(a: &Extent, b: &Extent) -> bool {
    numbers(a).map(f32::to_bits) == numbers(b).map(f32::to_bits)
}

/// Collects changes while writing.
struct Writer<'c> {
    changes: &'c mut Vec<ExtentChange>,
    /// The model has emitters: the boxes of the whole model and of its
    /// sequences only grow ([`grown`]).
    emitters: bool,
}

/// `measured` grown to hold the box `stored` has, where that is a box (not
/// empty, finite), with the larger radius: what a model with emitters keeps
/// ([`has_emitters`](super::has_emitters)).
fn grown(stored: &Extent, measured: Extent) -> Extent {
    let finite = numbers(stored).iter().all(|v| v.is_finite());
    let old = Aabb::of(stored);
    let mut new = Aabb::of(&measured);
    if !finite || old.is_empty() || new.is_empty() {
        return measured;
    }
    new.union(&old);
    new.extent(measured.bounds_radius.max(stored.bounds_radius))
}

impl Writer<'_> {
    fn set(&mut self, path: String, slot: &mut Extent, value: Extent) {
        if !same(slot, &value) {
            self.changes.push(ExtentChange {
                path,
                before: Some(*slot),
                after: Some(value),
            });
            *slot = value;
        }
    }

    /// A box of the whole model or of a sequence: `value`, or with
    /// emitters, `value` grown to hold the box stored.
    fn set_whole(&mut self, path: String, slot: &mut Extent, value: Extent) {
        let value = match self.emitters {
            true => grown(slot, value),
            false => value,
        };
        self.set(path, slot, value);
    }

    /// Each sequence's box ([`set_whole`](Self::set_whole)) from the value at
    /// its place in `values` (`path`: where the slot at an index is).
    fn sequences<'e>(
        &mut self,
        path: impl Fn(usize) -> String,
        slots: impl Iterator<Item = &'e mut Extent>,
        values: &[Extent],
    ) {
        for (i, (slot, value)) in slots.zip(values).enumerate() {
            self.set_whole(path(i), slot, *value);
        }
    }

    /// A geoset's list of per-sequence extents made `values`.
    fn list(&mut self, path: &str, list: &mut Vec<Extent>, values: &[Extent]) {
        for (i, value) in values.iter().enumerate() {
            match list.get_mut(i) {
                Some(slot) => self.set(format!("{path}[{i}]"), slot, *value),
                None => {
                    self.changes.push(ExtentChange {
                        path: format!("{path}[{i}]"),
                        before: None,
                        after: Some(*value),
                    });
                    list.push(*value);
                }
            }
        }
        for (i, extra) in list.iter().enumerate().skip(values.len()) {
            self.changes.push(ExtentChange {
                path: format!("{path}[{i}]"),
                before: Some(*extra),
                after: None,
            });
        }
        list.truncate(values.len());
    }
}

impl Model {
    /// Measures the extents from the geometry ([`measure`] with the default
    /// [`ExtentOptions`]) and stores them: `MODL`, every sequence's, every
    /// geoset's and every geoset's per-sequence list (made one per
    /// sequence); alpha models too (v1500 geosets keep a centre and a
    /// radius). Returns what changed, empty when the model has no vertices
    /// (nothing is measured: its extents are left alone).
    ///
    /// ```
    /// use formats::mdx::Model;
    ///
    /// let mut model = Model::from_bytes(&formats::sample::sample_mdx())?;
    /// assert!(model.recompute_extents().is_empty()); // the sample's are right
    /// // Store the cube's box at rest for "Stand", in which it rises.
    /// model.sequences_mut()[0].extent.maximum[2] = 0.5;
    /// let changes = model.recompute_extents();
    /// assert_eq!(changes.len(), 1);
    /// assert_eq!(changes[0].path, "chunks[2].SEQS.sequences[0].extent");
    /// assert_eq!(model.sequences()[0].extent.maximum, [0.5, 0.5, 1.0]);
    /// assert!(model.recompute_extents().is_empty()); // now up to date
    /// # Ok::<(), formats::Error>(())
    /// ```
    pub fn recompute_extents(&mut self) -> Vec<ExtentChange> {
        self.recompute_extents_with(&ExtentOptions::default())
    }

    /// [`recompute_extents`](Model::recompute_extents), sampling as `options` says.
    pub fn recompute_extents_with(&mut self, options: &ExtentOptions) -> Vec<ExtentChange> {
        match measure(self, options) {
            Some(extents) => self.store_extents(&extents),
            None => Vec::new(),
        }
    }

    /// Writes `extents` into the chunks that keep them (the first chunk of
    /// each kind, as the accessors read them; v1500 geoset sections in order).
    pub fn store_extents(&mut self, extents: &Extents) -> Vec<ExtentChange> {
        let mut changes = Vec::new();
        let mut w = Writer {
            changes: &mut changes,
            // The model's and the sequences' boxes only grow where emitters
            // throw particles past the vertices.
            emitters: super::has_emitters(self),
        };
        // Which kinds of chunk were met (MODL, SEQS, GEOS, alpha GEOS).
        let mut seen = [false; 4];
        let mut first = |kind: usize| {
            seen.get_mut(kind)
                .is_some_and(|seen| !core::mem::replace(seen, true))
        };
        let mut batched = 0;
        // Alpha geosets come after the Warcraft III ones in `meshes`, v1500
        // sections after both.
        let wc3_geosets = self.geosets().len();
        let batched_from = wc3_geosets + self.alpha_geosets().len();
        for (c, chunk) in self.chunks.iter_mut().enumerate() {
            match chunk {
                Chunk::Model(m) if first(0) => {
                    let path = format!("chunks[{c}].MODL.extent");
                    w.set_whole(path, &mut m.extent, extents.model);
                }
                Chunk::AlphaModel(m) if first(0) => {
                    let path = format!("chunks[{c}].MODL.bounds");
                    w.set_whole(path, &mut m.bounds, extents.model);
                }
                Chunk::Sequences(seqs) if first(1) => w.sequences(
                    |s| format!("chunks[{c}].SEQS.sequences[{s}].extent"),
                    seqs.sequences.iter_mut().map(|s| &mut s.extent),
                    &extents.sequences,
                ),
                Chunk::AlphaSequences(seqs) if first(1) => w.sequences(
                    |s| format!("chunks[{c}].SEQS.sequences[{s}].bounds"),
                    seqs.sequences.iter_mut().map(|s| &mut s.bounds),
                    &extents.sequences,
                ),
                Chunk::Geosets(geos) if first(2) => {
                    for (g, (geoset, e)) in
                        geos.geosets.iter_mut().zip(&extents.geosets).enumerate()
                    {
                        let at = format!("chunks[{c}].GEOS.geosets[{g}]");
                        w.set(format!("{at}.extent"), &mut geoset.extent, e.extent);
                        let path = format!("{at}.sequence_extents");
                        w.list(&path, &mut geoset.sequence_extents, &e.sequences);
                    }
                }
                Chunk::AlphaGeosets(geos) if first(3) => {
                    let measured = extents.geosets.get(wc3_geosets..).unwrap_or_default();
                    for (g, (geoset, e)) in geos.geosets.iter_mut().zip(measured).enumerate() {
                        let at = format!("chunks[{c}].GEOS.geosets[{g}]");
                        w.set(format!("{at}.bounds"), &mut geoset.bounds, e.extent);
                        w.list(
                            &format!("{at}.seq_bounds"),
                            &mut geoset.seq_bounds,
                            &e.sequences,
                        );
                    }
                }
                Chunk::AlphaBatchedGeosets(geos) => {
                    let measured = extents.geosets.get(batched_from..).unwrap_or_default();
                    for (g, header) in geos.geosets.iter_mut().enumerate() {
                        let Some(e) = measured.get(batched) else {
                            break;
                        };
                        batched += 1;
                        let centre = Aabb::of(&e.extent).centre();
                        let mut before = Extent {
                            bounds_radius: header.bounds_radius,
                            minimum: header.bounds_centre,
                            maximum: header.bounds_centre,
                        };
                        let after = Extent {
                            bounds_radius: e.extent.bounds_radius,
                            minimum: centre,
                            maximum: centre,
                        };
                        w.set(
                            format!("chunks[{c}].GEOS.geosets[{g}].bounds"),
                            &mut before,
                            after,
                        );
                        header.bounds_centre = before.minimum;
                        header.bounds_radius = before.bounds_radius;
                    }
                }
                _ => {}
            }
        }
        changes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mdx::alpha::{Batch, BatchedGeosetChunk, GeosetSection, Vertex};

    /// A change's distance is the largest corner or radius change; a
    /// missing or empty side is infinitely far.
    #[test]
    fn how_far_an_extent_moved() {
        let extent = |radius, maximum| Extent {
            bounds_radius: radius,
            minimum: [0.0; 3],
            maximum,
        };
        let change = |before, after| ExtentChange {
            path: String::new(),
            before,
            after,
        };
        let moved = |radius| {
            change(
                Some(extent(0.0, [1.0, 1.0, 1.0])),
                Some(extent(radius, [1.0, 3.5, 1.0])),
            )
        };
        assert_eq!((moved(0.0).distance(), moved(9.0).distance()), (2.5, 9.0));
        let empty = Aabb::EMPTY.extent(0.0);
        for far in [
            change(Some(empty), Some(extent(1.0, [1.0; 3]))),
            change(None, Some(extent(1.0, [1.0; 3]))),
        ] {
            assert_eq!(far.distance(), f32::INFINITY);
        }
    }

    /// A v1500 geoset section keeps a centre and a radius: they are set from
    /// the measured extent (no sequences: the bind pose), and the model
    /// writes and reads back.
    #[test]
    fn v1500_sections_get_a_centre_and_a_radius() {
        let mut model = Model::new(1500);
        let vertex = |position| Vertex {
            position,
            ..Vertex::default()
        };
        model
            .chunks
            .push(Chunk::AlphaBatchedGeosets(BatchedGeosetChunk {
                geosets: vec![GeosetSection {
                    vertex_count: 3,
                    ..GeosetSection::default()
                }],
                batches: vec![Batch {
                    vertices: vec![
                        vertex([0.0, 0.0, 0.0]),
                        vertex([4.0, 0.0, 0.0]),
                        vertex([0.0, 0.0, 6.0]),
                    ],
                    primitive_type: Batch::TRIANGLES,
                    primitive_vertices: vec![0, 1, 2],
                    padding: vec![0; 5],
                    ..Batch::default()
                }],
                ..BatchedGeosetChunk::default()
            }));
        let changes = model.recompute_extents();
        let paths: Vec<&str> = changes.iter().map(|c| c.path.as_str()).collect();
        assert_eq!(
            paths,
            ["chunks[1].MODL.bounds", "chunks[2].GEOS.geosets[0].bounds"]
        );
        let Some(Chunk::AlphaBatchedGeosets(geos)) = model.chunks.get(2) else {
            panic!("no GEOS");
        };
        assert_eq!(geos.geosets[0].bounds_centre, [2.0, 0.0, 3.0]);
        assert_eq!(geos.geosets[0].bounds_radius, 13f32.sqrt());
        let back = Model::from_bytes(&model.to_bytes().unwrap()).unwrap();
        assert_eq!(back, model);
    }
}
