//! The model-wide blocks: `Version`, `Model`, `Sequences`, `GlobalSequences`,
//! `Textures`, `TextureAnims`, `PivotPoints`, and the shared extent keywords
//! (`MinimumExtent`, `MaximumExtent`, `BoundsRadius`) and flag words.

use format_core::Result;
use format_core::mdl::Part;

use super::syntax::Stmt;
use super::tracks::mdl_tracks;
use super::value::{Cx, Out};
use crate::mdx::texture::TextureAnimationTrack;
use crate::mdx::{Chunk, Extent, Model, ModelChunk};

/// Writes the extent keywords (all three, so they read back exactly).
pub(crate) fn write_extent(out: &mut Out, extent: &Extent) {
    out.field("MinimumExtent", &extent.minimum);
    out.field("MaximumExtent", &extent.maximum);
    out.field("BoundsRadius", &extent.bounds_radius);
}

/// The extent keys in every block with an extent (`Anim`, `Geoset`, the
/// `Model` block): hand-written, as a part of the blocks that derive their
/// MDL, because its three keys are written in another order than its fields
/// are declared (`MinimumExtent`, `MaximumExtent`, `BoundsRadius` over
/// `bounds_radius`, `minimum`, `maximum`) inside another block, which only a
/// part can do.
impl Part for Extent {
    type Args = ();
    type Partial = Extent;

    fn begin(_: &Stmt, _: &mut Cx, (): ()) -> Result<Extent> {
        Ok(Extent::default())
    }

    fn read_stmt(extent: &mut Extent, stmt: &Stmt, cx: &mut Cx) -> Result<bool> {
        read_extent(stmt, cx, extent)
    }

    fn finish(extent: Extent, _: &mut Cx) -> Result<Extent> {
        Ok(extent)
    }

    fn write_head(&self, out: &mut Out, (): ()) {
        write_extent(out, self);
    }

    fn write_tail(&self, _: &mut Out) {}
}

/// Reads `stmt` into `extent` if it is an extent keyword.
pub(crate) fn read_extent(stmt: &Stmt, cx: &Cx, extent: &mut Extent) -> Result<bool> {
    match stmt.key().1 {
        "MinimumExtent" => extent.minimum = stmt.value(cx)?,
        "MaximumExtent" => extent.maximum = stmt.value(cx)?,
        "BoundsRadius" => extent.bounds_radius = stmt.value(cx)?,
        _ => return Ok(false),
    }
    Ok(true)
}

pub(crate) use format_core::mdl::{read_flag, write_flags};

/// The `Num*` keys of the `Model` block and how many objects of each kind
/// the model has.
pub(crate) fn object_counts(model: &Model) -> [(&'static str, usize); 10] {
    let mut counts = [
        ("NumGeosets", 0),
        ("NumGeosetAnims", 0),
        ("NumBones", 0),
        ("NumLights", 0),
        ("NumHelpers", 0),
        ("NumAttachments", 0),
        ("NumParticleEmitters", 0),
        ("NumParticleEmitters2", 0),
        ("NumRibbonEmitters", 0),
        ("NumEvents", 0),
    ];
    for chunk in &model.chunks {
        let (i, n) = match chunk {
            Chunk::Geosets(c) => (0, c.geosets.len()),
            Chunk::GeosetAnimations(c) => (1, c.animations.len()),
            Chunk::Bones(c) => (2, c.bones.len()),
            Chunk::Lights(c) => (3, c.lights.len()),
            Chunk::Helpers(c) => (4, c.helpers.len()),
            Chunk::Attachments(c) => (5, c.attachments.len()),
            Chunk::ParticleEmitters(c) => (6, c.emitters.len()),
            Chunk::ParticleEmitters2(c) => (7, c.emitters.len()),
            Chunk::RibbonEmitters(c) => (8, c.emitters.len()),
            Chunk::EventObjects(c) => (9, c.objects.len()),
            _ => continue,
        };
        if let Some((_, count)) = counts.get_mut(i) {
            *count += n;
        }
    }
    counts
}

/// Checks the `Num*` counts a `Model` block declared against the objects read.
pub(crate) fn check_object_counts(cx: &mut Cx, model: &Model) -> Result<()> {
    let counts = object_counts(model);
    let declared = std::mem::take(&mut cx.declared);
    cx.path.push("Model".into());
    for (pos, key, declared) in &declared {
        // Other `Num*` keys (`NumCameras`...) are informative.
        let found = counts.iter().find(|(k, _)| k == key).map(|(_, n)| *n);
        if let Some(found) = found.filter(|found| found != declared) {
            let message = format!("the Model block says {key} {declared}, the model has {found}");
            cx.quirk(*pos, message, "used the objects' count")?;
        }
    }
    cx.path.pop();
    Ok(())
}

/// `Model "name" { Num* counts, BlendTime, extent, AnimationFile }`
///
/// Hand-written: the `Num*` counts are not fields of the chunk but counts
/// of the whole model's objects, written from it and checked against it
/// once the whole file is read.
pub(crate) fn write_model(out: &mut Out, chunk: &ModelChunk, model: &Model) {
    out.open_named("Model", &chunk.name);
    for (key, count) in object_counts(model) {
        if count > 0 {
            out.field(key, &count);
        }
    }
    out.field("BlendTime", &chunk.blend_time);
    write_extent(out, &chunk.extent);
    out.optional_str("AnimationFile", &chunk.animation_file_name);
    out.close();
}

pub(crate) fn read_model(stmt: &Stmt, cx: &mut Cx) -> Result<ModelChunk> {
    let mut chunk = ModelChunk {
        name: stmt.name(cx)?,
        ..ModelChunk::default()
    };
    let (_, body) = stmt.block(cx)?;
    cx.within("Model".into(), |cx| {
        cx.once_each(body, &[])?;
        for s in body {
            match s.key().1 {
                "BlendTime" => chunk.blend_time = s.value(cx)?,
                "AnimationFile" => chunk.animation_file_name = s.value(cx)?,
                // Object counts, checked once every block is read.
                key if key.starts_with("Num") => {
                    let count: u32 = s.value(cx)?;
                    cx.declared.push((s.pos, key.to_owned(), count as usize));
                }
                _ if read_extent(s, cx, &mut chunk.extent)? => {}
                _ => cx.unknown(s)?,
            }
        }
        Ok(chunk)
    })
}

mdl_tracks!(TextureAnimationTrack {
    Translation => "Translation",
    Rotation => "Rotation",
    Scaling => "Scaling",
});
