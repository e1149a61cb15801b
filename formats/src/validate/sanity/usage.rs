//! What nothing uses: textures, materials, texture animations, global
//! sequences, and bones no vertex is bound to.

use std::collections::HashSet;

use super::geosets::{Bound, bindings};
use crate::mdx::{LayerTrack, Model};
use crate::validate::walk::{self, NodeKind};
use crate::validate::{Findings, Rule};

pub(super) fn check(model: &Model, f: &mut Findings) {
    let mut textures: HashSet<i64> = HashSet::new();
    let mut texture_animations: HashSet<i64> = HashSet::new();
    for layer in model.materials().iter().flat_map(|m| &m.layers) {
        textures.extend(super::layer_textures(layer).map(i64::from));
        let animated = layer
            .tracks
            .iter()
            .filter_map(|t| match t {
                LayerTrack::TextureId(track) => Some(track),
                _ => None,
            })
            .chain(
                layer
                    .textures
                    .iter()
                    .flatten()
                    .filter_map(|e| e.texture_id_track.as_ref()),
            );
        for track in animated {
            textures.extend(track.keys.iter().map(|k| i64::from(k.value)));
        }
        texture_animations.insert(layer.texture_animation_id.into());
    }
    textures.extend(
        model
            .particle_emitters2()
            .iter()
            .map(|e| i64::from(e.texture_id)),
    );
    let materials: HashSet<i64> = model
        .geosets()
        .iter()
        .map(|g| g.material_id)
        .chain(model.ribbon_emitters().iter().map(|e| e.material_id))
        .map(i64::from)
        .collect();
    let nodes = walk::nodes(model);
    let mut global_sequences: HashSet<i64> = HashSet::new();
    walk::tracks(model, &nodes, &mut |_, timing| {
        global_sequences.insert(timing.global_sequence_id.into());
    });

    let texs = super::chunk_at(model, "TEXS");
    let count = model.textures().len();
    unused(
        f,
        Rule::UnusedTexture,
        &texs,
        "textures",
        count,
        &textures,
        |t| {
            let path = model
                .textures()
                .get(t)
                .map(|t| t.file_name.to_string_lossy());
            match path.as_deref() {
                Some("") | None => format!("texture {t} is used by no layer or particle emitter 2"),
                Some(path) => format!("\"{path}\" is used by no layer or particle emitter 2"),
            }
        },
    );
    let count = model.materials().len();
    let at = super::chunk_at(model, "MTLS");
    unused(
        f,
        Rule::UnusedMaterial,
        &at,
        "materials",
        count,
        &materials,
        |m| format!("material {m} is used by no geoset or ribbon emitter"),
    );
    let count = model.texture_animations().len();
    let at = super::chunk_at(model, "TXAN");
    let rule = Rule::UnusedTextureAnimation;
    unused(
        f,
        rule,
        &at,
        "animations",
        count,
        &texture_animations,
        |a| format!("texture animation {a} is used by no layer"),
    );
    let count = model.global_sequences().len();
    let at = super::chunk_at(model, "GLBS");
    let rule = Rule::UnusedGlobalSequence;
    unused(
        f,
        rule,
        &at,
        "global_sequences",
        count,
        &global_sequences,
        |g| format!("global sequence {g} is used by no track"),
    );

    let mut bound: HashSet<u32> = HashSet::new();
    for geoset in model.geosets() {
        bindings(geoset, &mut |_, b| {
            if let Bound::Node(id) = b {
                bound.insert(id);
            }
        });
    }
    for node in nodes.iter().filter(|n| n.kind == NodeKind::Bone) {
        if !bound.contains(&node.object_id) {
            f.push(
                Rule::BoneWithoutVertex,
                node.at.trim_end_matches(".node"),
                format!("bone {} has no vertex bound to it", node.object_id),
            );
        }
    }
}

/// One finding of `rule` per element `0..count` of `{at}.{list}` not in `used`.
fn unused(
    f: &mut Findings,
    rule: Rule,
    at: &str,
    list: &str,
    count: usize,
    used: &HashSet<i64>,
    message: impl Fn(usize) -> String,
) {
    for i in (0..count).filter(|i| !used.contains(&(*i as i64))) {
        f.push(rule, format!("{at}.{list}[{i}]"), message(i));
    }
}
