//! Shared inputs for the benchmarks: corpus files when `../shared/corpus` is
//! present, generated data otherwise.
#![warn(missing_docs)]

use std::path::{Path, PathBuf};

/// The corpus folder beside the repository, if present.
pub fn corpus_root() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    root.is_dir().then_some(root)
}

/// Whether a test that needs the corpus can run: in CI a missing corpus fails
/// the test; elsewhere it is said loudly on stderr that `what` did not run.
pub fn corpus_expected(what: &str) -> bool {
    if corpus_root().is_some() {
        return true;
    }
    assert!(
        !std::env::var("CI").is_ok_and(|v| v == "true"),
        "corpus missing: CI must have ../shared beside the repository"
    );
    eprintln!("\n!!! corpus missing: {what} did NOT run !!!\n");
    false
}

/// The start of an FNV-1a hash ([`fnv`]).
pub const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a over the bits of `floats`, continuing `hash`: the checksums of
/// vertices and heights that the peer tests compare.
pub fn fnv(hash: u64, floats: impl IntoIterator<Item = f32>) -> u64 {
    floats.into_iter().fold(hash, |h, f| {
        f.to_bits().to_le_bytes().iter().fold(h, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        })
    })
}

/// One geoset's arrays as a reader holds them: the peer tests compare what
/// two readers read through it.
pub struct Mesh<'a> {
    /// Vertex positions.
    pub positions: &'a [[f32; 3]],
    /// Vertex normals.
    pub normals: &'a [[f32; 3]],
    /// Number of face indices.
    pub faces: usize,
    /// Each texture coordinate set.
    pub uv_sets: Vec<&'a [[f32; 2]]>,
}

/// The [`Mesh`] of a geoset whose fields are named after the spec
/// (`vertex_positions`, `vertex_normals`, `faces`, `texture_coordinate_sets`):
/// ours, and the binrw peer's, so one macro fits both.
#[macro_export]
macro_rules! mesh_of {
    ($g:expr) => {
        $crate::Mesh {
            positions: &$g.vertex_positions,
            normals: &$g.vertex_normals,
            faces: $g.faces.len(),
            uv_sets: $g
                .texture_coordinate_sets
                .iter()
                .map(|s| &s.texture_coordinates[..])
                .collect(),
        }
    };
}

/// What two readers must agree on about a model's geosets.
#[derive(Debug, PartialEq)]
pub struct Meshes {
    /// Number of geosets.
    pub geosets: usize,
    /// Vertices, summed over the geosets.
    pub vertices: usize,
    /// Face indices, summed.
    pub faces: usize,
    /// Texture coordinate sets, summed.
    pub uv_sets: usize,
    /// FNV-1a over the bits of every position, normal and texture coordinate.
    pub vertex_checksum: u64,
}

impl Meshes {
    /// The counts and checksum of `meshes`, in order.
    pub fn of(meshes: &[Mesh<'_>]) -> Meshes {
        let mut checksum = FNV_OFFSET;
        for m in meshes {
            checksum = fnv(checksum, m.positions.iter().flatten().copied());
            checksum = fnv(checksum, m.normals.iter().flatten().copied());
            for set in &m.uv_sets {
                checksum = fnv(checksum, set.iter().flatten().copied());
            }
        }
        Meshes {
            geosets: meshes.len(),
            vertices: meshes.iter().map(|m| m.positions.len()).sum(),
            faces: meshes.iter().map(|m| m.faces).sum(),
            uv_sets: meshes.iter().map(|m| m.uv_sets.len()).sum(),
            vertex_checksum: checksum,
        }
    }
}

/// Every file with `extension` in `folder` of the corpus, as (name, bytes),
/// largest first.
pub fn corpus_files(folder: &str, extension: &str) -> Vec<(String, Vec<u8>)> {
    let Some(root) = corpus_root() else {
        return Vec::new();
    };
    let Ok(entries) = std::fs::read_dir(root.join(folder)) else {
        return Vec::new();
    };
    let mut files: Vec<(String, Vec<u8>)> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().ends_with(extension))
        .filter_map(|e| {
            let data = std::fs::read(e.path()).ok()?;
            Some((e.file_name().to_string_lossy().into_owned(), data))
        })
        .collect();
    files.sort_by(|(a, x), (b, y)| y.len().cmp(&x.len()).then(a.cmp(b)));
    files
}

/// Every BLP texture of the corpus (`blp/` and the models' textures under
/// `textures/`, any case of `.blp`), as (path relative to the corpus, bytes),
/// sorted by path.
pub fn blp_corpus_files() -> Vec<(String, Vec<u8>)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("blp"))
            {
                out.push(path);
            }
        }
    }
    let Some(root) = corpus_root() else {
        return Vec::new();
    };
    let mut paths = Vec::new();
    walk(&root.join("blp"), &mut paths);
    walk(&root.join("textures"), &mut paths);
    paths.sort();
    paths
        .into_iter()
        .filter_map(|p| {
            let data = std::fs::read(&p).ok()?;
            let name = p
                .strip_prefix(&root)
                .ok()?
                .to_string_lossy()
                .replace('\\', "/");
            Some((name, data))
        })
        .collect()
}

/// The `n` largest files with `extension` in `folder` of the corpus, as (name, bytes).
pub fn largest_corpus_files(folder: &str, extension: &str, n: usize) -> Vec<(String, Vec<u8>)> {
    let mut files = corpus_files(folder, extension);
    files.truncate(n);
    files
}

/// The large generated model of the benchmarks, written by our own writer:
/// version 800, `geosets` geosets of 256 x 256 vertices (a grid of triangles
/// with normals, one UV set and matrix groups, 65 536 vertices each, the most
/// 16-bit face indices can address), `bones` bones with hermite translation,
/// rotation and scaling tracks of `keys` keys each, and two sequences.
///
/// `generated_mdx(16, 120, 1500)` has 1 048 576 vertices, 540 000 keys and is
/// about 68 MB.
pub fn generated_mdx(geosets: usize, bones: usize, keys: usize) -> Vec<u8> {
    use format_core::FixedStr;
    use formats::mdx::{
        Bone, Extent, Geoset, Interpolation, KeyFrame, Model, Node, NodeTrack, Sequence,
        TextureCoordinateSet, Track,
    };

    const SIDE: u16 = 256;
    let extent = Extent {
        bounds_radius: 300.0,
        minimum: [-256.0, -256.0, 0.0],
        maximum: [256.0, 256.0, 10.0],
    };
    let mut model = Model::new(800);
    for (i, name) in ["Stand", "Walk"].into_iter().enumerate() {
        let start = (i * keys * 20) as u32;
        model.sequences_mut().push(Sequence {
            name: FixedStr::try_from(name).unwrap_or_default(),
            interval: [start, start + (keys * 20) as u32 - 1],
            move_speed: 0.0,
            flags: 0,
            rarity: 0.0,
            sync_point: 0,
            extent,
        });
    }
    for g in 0..geosets {
        let mut faces = Vec::new();
        for y in 0..SIDE - 1 {
            for x in 0..SIDE - 1 {
                let v = y * SIDE + x;
                faces.extend_from_slice(&[v, v + 1, v + SIDE, v + 1, v + SIDE + 1, v + SIDE]);
            }
        }
        let grid = |x: u16, y: u16| {
            [
                f32::from(x),
                f32::from(y),
                g as f32 + f32::from(x ^ y) / 256.0,
            ]
        };
        let positions: Vec<[f32; 3]> = (0..SIDE)
            .flat_map(|y| (0..SIDE).map(move |x| grid(x, y)))
            .collect();
        let uvs = positions
            .iter()
            .map(|p| [p[0] / 256.0, p[1] / 256.0])
            .collect();
        model.geosets_mut().push(Geoset {
            vertex_normals: vec![[0.0, 0.0, 1.0]; positions.len()],
            face_type_groups: vec![4],
            face_groups: vec![faces.len() as u32],
            vertex_groups: vec![0; positions.len()],
            matrix_groups: vec![1],
            matrix_indices: vec![(g % bones.max(1)) as u32],
            texture_coordinate_sets: vec![TextureCoordinateSet {
                texture_coordinates: uvs,
            }],
            vertex_positions: positions,
            faces,
            extent,
            sequence_extents: vec![extent; 2],
            ..Geoset::default()
        });
    }
    let frames = |i: usize| (i * 20) as i32;
    for b in 0..bones {
        let v3 = |i: usize| {
            KeyFrame::with_tangents(frames(i), [b as f32, i as f32, 1.0], [0.5; 3], [0.25; 3])
        };
        let q = |i: usize| {
            let angle = i as f32 / keys as f32;
            let identity = [0.0, 0.0, 0.0, 1.0];
            let value = [0.0, 0.0, angle.sin(), angle.cos()];
            KeyFrame::with_tangents(frames(i), value, identity, identity)
        };
        let name = format!("Bone_{b}");
        model.bones_mut().push(Bone {
            node: Node {
                name: FixedStr::try_from(name.as_str()).unwrap_or_default(),
                object_id: b as u32,
                parent_id: if b == 0 { u32::MAX } else { b as u32 - 1 },
                flags: 0x100,
                tracks: vec![
                    NodeTrack::Translation(Track::from_key_frames(
                        Interpolation::Hermite,
                        (0..keys).map(v3).collect(),
                    )),
                    NodeTrack::Rotation(Track::from_key_frames(
                        Interpolation::Hermite,
                        (0..keys).map(q).collect(),
                    )),
                    NodeTrack::Scaling(Track::from_key_frames(
                        Interpolation::Hermite,
                        (0..keys).map(v3).collect(),
                    )),
                ],
            },
            geoset_id: u32::MAX,
            geoset_animation_id: u32::MAX,
        });
        model.pivot_points_mut().push([0.0, 0.0, b as f32]);
    }
    model.to_bytes().unwrap_or_default()
}

/// The part of a version-800 model that the binrw peer reads (`VERS`, `SEQS`,
/// `GEOS`, `BONE`), written as a file of its own so both readers get exactly
/// the same bytes; `None` for other versions or unreadable files.
pub fn geometry_subset(bytes: &[u8]) -> Option<Vec<u8>> {
    use formats::mdx::{Chunk, Model};
    let mut model = Model::from_bytes(bytes).ok()?;
    if model.version() != 800 {
        return None;
    }
    model.chunks.retain(|chunk| {
        matches!(
            chunk,
            Chunk::Version(_) | Chunk::Sequences(_) | Chunk::Geosets(_) | Chunk::Bones(_)
        )
    });
    model.to_bytes().ok()
}

#[cfg(test)]
mod tests {
    use formats::mdx::Model;

    #[test]
    fn the_generated_model_reads_back_strictly() {
        let bytes = super::generated_mdx(2, 3, 10);
        let model = Model::from_bytes(&bytes).expect("strict read");
        assert_eq!(model.to_bytes().expect("write"), bytes);
        let vertices: usize = model.geosets().iter().map(|g| g.vertex_count()).sum();
        assert_eq!(vertices, 2 * 65_536);
        assert_eq!(model.geosets()[1].triangle_count(), 255 * 255 * 2);
        assert_eq!(model.bones().len(), 3);
        assert_eq!(model.pivot_points().len(), 3);

        let subset = super::geometry_subset(&bytes).expect("a v800 model");
        Model::from_bytes(&subset).expect("strict read");
        let walk = formats::chunks::ChunkFile::from_bytes(&subset).expect("chunk walk");
        let tags: Vec<String> = walk.chunks().iter().map(|c| c.tag.to_string()).collect();
        assert_eq!(tags, ["VERS", "SEQS", "GEOS", "BONE"]);
    }
}
