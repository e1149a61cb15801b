//! Babylon.js's own glTF loader posing skinned meshes on the CPU
//! (`harness/babylon/pose.mjs`, npm `@babylonjs/core` and
//! `@babylonjs/loaders`, installed on first use): where every vertex of
//! every mesh primitive of a glTF file stands once loaded, and at given
//! times into each of its animations, as a player nobody here wrote shows
//! it. What a glTF writer or reader of this workspace poses can be checked
//! against it vertex by vertex.
//!
//! How Babylon is read (the script's header says it in full):
//! - each file is a `.glb` (Babylon in node cannot fetch the buffers of a
//!   `.gltf` from files); it loads in a `NullEngine` with nothing playing
//!   (the loader's `animationStartMode` off) and no instancing
//!   (`createInstances` off: each node has its own mesh);
//! - a vertex is `getPositionData(true, true)` of its mesh (Babylon's CPU
//!   skinning, `computeBonesUsingShaders` off, with the morph targets),
//!   times the mesh's world matrix, times the inverse of the world matrix
//!   of the loader's `__root__` node, which flips glTF's right-handed space
//!   into Babylon's left-handed one: positions are in glTF's own
//!   coordinates (Y up, as the file has them);
//! - primitives are identified by the glTF node that instantiates them and
//!   the glTF mesh and primitive index they were loaded from: the loader's
//!   own JSON (captured with its `onParsed` option) lists the Babylon
//!   meshes each node made, each of which carries its JSON pointer
//!   (`/meshes/M/primitives/P`) in its metadata;
//! - each animation group is the one the loader made for that glTF
//!   animation (in the file's order), sent to each probe time with
//!   `goToFrame` after every node was put back at rest.
//!
//! Babylon must keep the glTF's vertices as they are: the script fails if
//! a primitive's vertex count differs from its `POSITION` accessor's, and
//! [`pose`] fails unless every primitive's unskinned positions in Babylon
//! are its accessor's (read with the `gltf` crate), exactly and in order,
//! and unless Babylon made exactly one mesh for each primitive of each node
//! with a mesh. A merged, split or reordered vertex is a failure, never a
//! silent comparison of the wrong vertices.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::{node_probes, npm_harness, temp_dir};

/// One mesh primitive of a glTF file, as Babylon drew it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct PrimitiveId {
    /// The glTF node that instantiates the mesh.
    pub node: usize,
    /// The glTF mesh.
    pub mesh: usize,
    /// The primitive's index in that mesh.
    pub primitive: usize,
}

/// Positions of a primitive's vertices, in the order of its accessors.
pub type Vertices = Vec<[f64; 3]>;

/// Where Babylon.js put every vertex of one file, in glTF's coordinates.
#[derive(Clone, Debug)]
pub struct Posed {
    /// The primitives, by node index, then primitive index: every primitive
    /// of every node that has a mesh, once per node.
    pub primitives: Vec<PrimitiveId>,
    /// The glTF animations' names (`animationN` for one without), in the
    /// file's order.
    pub animation_names: Vec<String>,
    /// Each primitive's vertices once loaded, no animation applied: the
    /// nodes where the file puts them, skinned.
    pub rest: Vec<Vertices>,
    /// By animation, then probe time, then primitive: the vertices once
    /// Babylon's animation group went to that time.
    pub animations: Vec<Vec<Vec<Vertices>>>,
}

/// Loads each of `files` (`.glb` files: Babylon in node cannot fetch a
/// `.gltf`'s buffers) in Babylon.js, and gives where it puts every vertex
/// at rest and at each probe time (seconds) of each animation (the file's
/// order; an animation left out of the list is not probed); by file.
/// `None` (loudly; a panic under `CI=true`, where `.ci/run` installs the
/// npm packages) when node or the packages are missing. Panics if Babylon
/// fails to load a file or changed a primitive's vertices (count, order or
/// values: the module docs).
pub fn pose(files: &[(PathBuf, Vec<Vec<f64>>)]) -> Option<BTreeMap<PathBuf, Posed>> {
    let babylon = npm_harness(
        "babylon",
        "@babylonjs/loaders",
        "Babylon.js's CPU skinning (pose.mjs)",
    )?;
    let dir = temp_dir("babylon-pose");
    let results = node_probes(&dir, &babylon.join("pose.mjs"), files);
    let mut posed = BTreeMap::new();
    for (file, probes) in files {
        let result = results
            .get(file.to_str().unwrap())
            .unwrap_or_else(|| panic!("pose.mjs gave nothing for {}", file.display()));
        let one = read_result(result, file);
        assert_eq!(one.animations.len(), one.animation_names.len());
        for (k, probed) in one.animations.iter().enumerate() {
            let asked = probes.get(k).map_or(0, Vec::len);
            assert_eq!(probed.len(), asked, "{}: animation {k}", file.display());
        }
        posed.insert(file.clone(), one);
    }
    Some(posed)
}

/// Flattened `[x, y, z, x, ...]` as vertices.
fn vertices(flat: &Value) -> Vertices {
    let values: Vec<f64> = flat
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert_eq!(values.len() % 3, 0);
    values.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect()
}

fn index(value: &Value) -> usize {
    usize::try_from(value.as_u64().unwrap()).unwrap()
}

/// One file's line of `pose.mjs`, checked against the file itself.
fn read_result(result: &Value, file: &Path) -> Posed {
    let primitives: Vec<PrimitiveId> = result["primitives"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| PrimitiveId {
            node: index(&p["node"]),
            mesh: index(&p["mesh"]),
            primitive: index(&p["primitive"]),
        })
        .collect();
    let per_primitive =
        |list: &Value| -> Vec<Vertices> { list.as_array().unwrap().iter().map(vertices).collect() };
    let local = per_primitive(&result["local"]);
    let accessors = accessor_positions(file);
    let want: Vec<PrimitiveId> = accessors.iter().map(|(id, _)| *id).collect();
    assert_eq!(
        primitives,
        want,
        "{}: Babylon made other meshes than the file's primitives",
        file.display()
    );
    for ((id, positions), babylon) in accessors.iter().zip(&local) {
        assert_eq!(
            babylon.len(),
            positions.len(),
            "{}: {id:?}: Babylon holds another number of vertices than the POSITION accessor",
            file.display()
        );
        for (v, (b, p)) in babylon.iter().zip(positions).enumerate() {
            let b = b.map(|x| x as f32);
            assert_eq!(
                b,
                *p,
                "{}: {id:?}: Babylon's vertex {v} is not the accessor's (merged or reordered vertices)",
                file.display()
            );
        }
    }
    let rest = per_primitive(&result["rest"]);
    let animations: Vec<Vec<Vec<Vertices>>> = result["posed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|probes| {
            probes
                .as_array()
                .unwrap()
                .iter()
                .map(per_primitive)
                .collect()
        })
        .collect();
    let counts: Vec<usize> = local.iter().map(Vec::len).collect();
    let counted = |set: &[Vertices]| set.iter().map(Vec::len).collect::<Vec<_>>();
    assert_eq!(counted(&rest), counts, "{}", file.display());
    for probe in animations.iter().flatten() {
        assert_eq!(counted(probe), counts, "{}", file.display());
    }
    Posed {
        primitives,
        animation_names: result["animations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap().to_string())
            .collect(),
        rest,
        animations,
    }
}

/// Every primitive of every node with a mesh (by node index, then
/// primitive index), with its `POSITION` accessor's values, read from a
/// `.glb` with the `gltf` crate.
pub fn accessor_positions(file: &Path) -> Vec<(PrimitiveId, Vec<[f32; 3]>)> {
    let bytes = std::fs::read(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let gltf = gltf::Gltf::from_slice(&bytes).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let blob = gltf.blob.as_deref();
    let mut out = Vec::new();
    for node in gltf.document.nodes() {
        let Some(mesh) = node.mesh() else { continue };
        for primitive in mesh.primitives() {
            let reader = primitive.reader(|b| match b.source() {
                gltf::buffer::Source::Bin => blob,
                gltf::buffer::Source::Uri(uri) => panic!(
                    "{}: a buffer outside the GLB ({uri}): Babylon could not load it",
                    file.display()
                ),
            });
            let positions = reader
                .read_positions()
                .unwrap_or_else(|| panic!("{}: a primitive without POSITION", file.display()))
                .collect();
            let id = PrimitiveId {
                node: node.index(),
                mesh: mesh.index(),
                primitive: primitive.index(),
            };
            out.push((id, positions));
        }
    }
    out
}

/// The diagonal of the box around `vertices` (every primitive's), or 0
/// for none: a model's size, to scale tolerances by.
pub fn diagonal<'v>(vertices: impl IntoIterator<Item = &'v [f64; 3]>) -> f64 {
    let mut low = [f64::INFINITY; 3];
    let mut high = [f64::NEG_INFINITY; 3];
    for v in vertices {
        for i in 0..3 {
            low[i] = low[i].min(v[i]);
            high[i] = high[i].max(v[i]);
        }
    }
    if low[0] > high[0] {
        return 0.0;
    }
    (0..3)
        .map(|i| (high[i] - low[i]).powi(2))
        .sum::<f64>()
        .sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// What `pose.mjs` prints for the Blender fixture if Babylon kept its
    /// vertices, each at its place (`local`, and the same at rest).
    fn kept() -> (PathBuf, Value) {
        let file = crate::blender_rigged_glb();
        let accessors = accessor_positions(&file);
        let primitives: Vec<Value> = accessors
            .iter()
            .map(|(id, p)| {
                json!({ "node": id.node, "mesh": id.mesh, "primitive": id.primitive, "count": p.len() })
            })
            .collect();
        let flat: Vec<Vec<f64>> = accessors
            .iter()
            .map(|(_, p)| p.iter().flatten().map(|&x| f64::from(x)).collect())
            .collect();
        let result = json!({
            "file": file,
            "primitives": primitives,
            "animations": ["Attack", "Stand"],
            "local": flat,
            "rest": flat,
            "posed": [[flat], []],
        });
        (file, result)
    }

    #[test]
    fn vertices_babylon_kept_are_read() {
        let (file, result) = kept();
        let posed = read_result(&result, &file);
        assert_eq!(posed.primitives.len(), 2);
        assert_eq!(posed.rest[0].len(), 646);
        assert_eq!(posed.animations.len(), 2);
        assert_eq!(posed.animations[0][0][1].len(), 86);
    }

    #[test]
    #[should_panic(expected = "merged or reordered")]
    fn two_vertices_swapped_fail() {
        let (file, mut result) = kept();
        // The first vertex and the last, which stand apart.
        let local = result["local"][0].as_array_mut().unwrap();
        let last = local.len() - 3;
        for i in 0..3 {
            local.swap(i, last + i);
        }
        read_result(&result, &file);
    }

    #[test]
    #[should_panic(expected = "another number of vertices")]
    fn a_vertex_merged_away_fails() {
        let (file, mut result) = kept();
        let local = result["local"][1].as_array_mut().unwrap();
        local.truncate(local.len() - 3);
        read_result(&result, &file);
    }

    #[test]
    #[should_panic(expected = "other meshes than the file's primitives")]
    fn a_primitive_left_out_fails() {
        let (file, mut result) = kept();
        result["primitives"].as_array_mut().unwrap().pop();
        result["local"].as_array_mut().unwrap().pop();
        read_result(&result, &file);
    }

    #[test]
    fn the_diagonal_is_the_boxs() {
        assert_eq!(diagonal(&[[0.0, 0.0, 0.0], [3.0, -4.0, 12.0]]), 13.0);
        assert_eq!(diagonal(&[]), 0.0);
    }
}
