//! What nothing uses: textures, materials, texture animations, global
//! sequences, and bones no vertex is bound to.

use std::collections::HashSet;

use super::geosets::{Bound, bindings};
use crate::mdx::Model;
use crate::validate::walk::{self, NodeKind};
use crate::validate::{Findings, Rule};

pub(super) fn check(model: &Model, f: &mut Findings) {
    let mut textures: HashSet<i64> = HashSet::new();
    let mut animations: HashSet<i64> = HashSet::new();
    for layer in model.materials().iter().flat_map(|m| &m.layers) {
        textures.extend(super::layer_textures(layer).map(i64::from));
        for (_, track) in walk::texture_id_tracks("", layer) {
            textures.extend(track.keys.iter().map(|k| i64::from(k.value)));
        }
        animations.insert(layer.texture_animation_id.into());
    }
    let emitters = model.particle_emitters2().iter();
    textures.extend(emitters.map(|e| i64::from(e.texture_id)));
    let materials: HashSet<i64> = model
        .geosets()
        .iter()
        .map(|g| g.material_id)
        .chain(model.ribbon_emitters().iter().map(|e| e.material_id))
        .map(i64::from)
        .collect();
    let nodes = walk::nodes(model);
    // The global sequences tracks run on.
    let mut sequences: HashSet<i64> = HashSet::new();
    walk::tracks(model, &nodes, &mut |_, timing| {
        sequences.insert(timing.global_sequence_id.into());
    });

    let at = super::chunk_at(model, "TEXS");
    for (t, texture) in unused(model.textures(), &textures) {
        let file = texture.file_name.to_string_lossy();
        let texture = match file.as_ref() {
            "" => format!("texture {t}"),
            file => format!("\"{file}\""),
        };
        let message = format!("{texture} is used by no layer or particle emitter 2");
        let path = format!("{at}.textures[{t}]");
        f.push(Rule::UnusedTexture, path, message);
    }
    let at = super::chunk_at(model, "MTLS");
    for (m, _) in unused(model.materials(), &materials) {
        let message = format!("material {m} is used by no geoset or ribbon emitter");
        let path = format!("{at}.materials[{m}]");
        f.push(Rule::UnusedMaterial, path, message);
    }
    let at = super::chunk_at(model, "TXAN");
    for (a, _) in unused(model.texture_animations(), &animations) {
        let message = format!("texture animation {a} is used by no layer");
        let path = format!("{at}.animations[{a}]");
        f.push(Rule::UnusedTextureAnimation, path, message);
    }
    let at = super::chunk_at(model, "GLBS");
    for (g, _) in unused(model.global_sequences(), &sequences) {
        let message = format!("global sequence {g} is used by no track");
        let path = format!("{at}.global_sequences[{g}]");
        f.push(Rule::UnusedGlobalSequence, path, message);
    }

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

/// The elements of `list`, with their indices, that are not in `used`.
fn unused<'a, T>(list: &'a [T], used: &'a HashSet<i64>) -> impl Iterator<Item = (usize, &'a T)> {
    let used = |i: usize| i64::try_from(i).is_ok_and(|i| used.contains(&i));
    list.iter().enumerate().filter(move |(i, _)| !used(*i))
}
