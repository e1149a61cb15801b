//! The model-wide blocks: `Version`, `Model`, `Sequences`, `GlobalSequences`,
//! `Textures`, `TextureAnims`, `PivotPoints`, and the shared extent keywords
//! (`MinimumExtent`, `MaximumExtent`, `BoundsRadius`) and flag words.

use format_core::{FixedStr, Result};

use super::syntax::Stmt;
use super::tracks::{mdl_tracks, read_into, write_tracks};
use super::value::{Cx, Out, Value, items, list, write_list};
use crate::mdx::texture::TextureAnimationTrack;
use crate::mdx::{
    Chunk, Extent, GlobalSequenceChunk, Model, ModelChunk, PivotPointChunk, Sequence,
    SequenceChunk, Texture, TextureAnimation, TextureAnimationChunk, TextureChunk, VersionChunk,
};

/// Writes the extent keywords (all three, so they read back exactly).
pub(crate) fn write_extent(out: &mut Out, extent: &Extent) {
    out.field("MinimumExtent", &extent.minimum);
    out.field("MaximumExtent", &extent.maximum);
    out.field("BoundsRadius", &extent.bounds_radius);
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

/// Writes a float unless it is `+0` (the default a reader assumes).
pub(crate) fn nonzero(out: &mut Out, key: &str, value: f32) {
    if value.to_bits() != 0 {
        out.field(key, &value);
    }
}

/// Writes the flag words for the bits of `flags` that `table` names, then
/// `ExtFlags n` with every bit if any bit is left unnamed.
pub(crate) fn write_flags(out: &mut Out, flags: u32, table: &[(u32, &str)]) {
    let mut named = 0;
    for &(bit, word) in table {
        if flags & bit == bit && bit != 0 {
            out.flag(word);
            named |= bit;
        }
    }
    if named != flags {
        out.field("ExtFlags", &flags);
    }
}

/// Reads a flag word of `table` (or `ExtFlags`, which sets all flags) into `flags`.
pub(crate) fn read_flag(
    stmt: &Stmt,
    cx: &Cx,
    flags: &mut u32,
    table: &[(u32, &str)],
) -> Result<bool> {
    let key = stmt.key().1;
    if key == "ExtFlags" {
        *flags = stmt.value(cx)?;
        return Ok(true);
    }
    match table.iter().find(|(_, word)| *word == key) {
        Some((bit, _)) => {
            stmt.bare(cx)?;
            *flags |= bit;
            Ok(true)
        }
        None => Ok(false),
    }
}

/// `Version { FormatVersion 800 }`
pub(crate) fn write_version(out: &mut Out, chunk: &VersionChunk) {
    out.open("Version");
    out.field("FormatVersion", &chunk.version);
    out.close();
}

pub(crate) fn read_version(stmt: &Stmt, cx: &mut Cx) -> Result<VersionChunk> {
    let (_, body) = stmt.block(cx)?;
    let mut version = None;
    cx.within("Version".into(), |cx| {
        cx.once_each(body, &[])?;
        for s in body {
            match s.key().1 {
                "FormatVersion" => version = Some(s.value(cx)?),
                _ => cx.unknown(s)?,
            }
        }
        Ok(())
    })?;
    let version = version.ok_or_else(|| cx.error(stmt.pos, "Version has no FormatVersion"))?;
    cx.version = version;
    cx.binary_version = version;
    Ok(VersionChunk { version })
}

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

/// `Sequences n { Anim "name" { ... } }`
pub(crate) fn write_sequences(out: &mut Out, chunk: &SequenceChunk) {
    out.open(&format!("Sequences {}", chunk.sequences.len()));
    for s in &chunk.sequences {
        out.open_named("Anim", &s.name);
        out.field("Interval", &s.interval);
        write_flags(out, s.flags, &[(1, "NonLooping")]);
        nonzero(out, "MoveSpeed", s.move_speed);
        nonzero(out, "Rarity", s.rarity);
        if s.sync_point != 0 {
            out.field("SyncPoint", &s.sync_point);
        }
        write_extent(out, &s.extent);
        out.close();
    }
    out.close();
}

pub(crate) fn read_sequences(stmt: &Stmt, cx: &mut Cx) -> Result<SequenceChunk> {
    let sequences = items(stmt, cx, ("Sequences", "Anim", "sequences"), |s, cx| {
        let mut sequence = Sequence {
            name: s.name(cx)?,
            interval: [0, 0],
            move_speed: 0.0,
            flags: 0,
            rarity: 0.0,
            sync_point: 0,
            extent: Extent::default(),
        };
        let body = s.block(cx)?.1;
        cx.once_each(body, &[])?;
        for f in body {
            match f.key().1 {
                "Interval" => sequence.interval = f.value(cx)?,
                "MoveSpeed" => sequence.move_speed = f.value(cx)?,
                "Rarity" => sequence.rarity = f.value(cx)?,
                "SyncPoint" => sequence.sync_point = f.value(cx)?,
                _ if read_flag(f, cx, &mut sequence.flags, &[(1, "NonLooping")])? => {}
                _ if read_extent(f, cx, &mut sequence.extent)? => {}
                _ => cx.unknown(f)?,
            }
        }
        Ok(sequence)
    })?;
    Ok(SequenceChunk { sequences })
}

/// `GlobalSequences n { Duration d, }`
pub(crate) fn write_global_sequences(out: &mut Out, chunk: &GlobalSequenceChunk) {
    out.open(&format!("GlobalSequences {}", chunk.global_sequences.len()));
    for d in &chunk.global_sequences {
        out.field("Duration", d);
    }
    out.close();
}

pub(crate) fn read_global_sequences(stmt: &Stmt, cx: &mut Cx) -> Result<GlobalSequenceChunk> {
    let (count, body) = stmt.block(cx)?;
    cx.within("GlobalSequences".into(), |cx| {
        let mut global_sequences = Vec::new();
        for s in body {
            match s.key().1 {
                "Duration" => global_sequences.push(s.value(cx)?),
                _ => cx.unknown(s)?,
            }
        }
        if let Some((pos, declared)) = count {
            cx.count(pos, "global sequences", declared, global_sequences.len())?;
        }
        Ok(GlobalSequenceChunk { global_sequences })
    })
}

const TEXTURE_FLAGS: &[(u32, &str)] = &[(1, "WrapWidth"), (2, "WrapHeight")];

/// `Textures n { Bitmap { Image, ReplaceableId, WrapWidth, WrapHeight } }`
pub(crate) fn write_textures(out: &mut Out, chunk: &TextureChunk) {
    out.open(&format!("Textures {}", chunk.textures.len()));
    for t in &chunk.textures {
        out.open("Bitmap");
        out.field("Image", &t.file_name);
        if t.replaceable_id != 0 {
            out.field("ReplaceableId", &t.replaceable_id);
        }
        write_flags(out, t.flags, TEXTURE_FLAGS);
        out.close();
    }
    out.close();
}

pub(crate) fn read_textures(stmt: &Stmt, cx: &mut Cx) -> Result<TextureChunk> {
    let textures = items(stmt, cx, ("Textures", "Bitmap", "textures"), |s, cx| {
        let mut texture = Texture {
            replaceable_id: 0,
            file_name: FixedStr::default(),
            flags: 0,
        };
        let body = s.block(cx)?.1;
        cx.once_each(body, &[])?;
        for f in body {
            match f.key().1 {
                "Image" | "Path" => texture.file_name = f.value(cx)?,
                "ReplaceableId" => texture.replaceable_id = f.value(cx)?,
                _ if read_flag(f, cx, &mut texture.flags, TEXTURE_FLAGS)? => {}
                _ => cx.unknown(f)?,
            }
        }
        Ok(texture)
    })?;
    Ok(TextureChunk { textures })
}

mdl_tracks!(TextureAnimationTrack {
    Translation => "Translation",
    Rotation => "Rotation",
    Scaling => "Scaling",
});

/// `TextureAnims n { TVertexAnim { tracks } }`
pub(crate) fn write_texture_anims(out: &mut Out, chunk: &TextureAnimationChunk) {
    out.open(&format!("TextureAnims {}", chunk.animations.len()));
    for a in &chunk.animations {
        out.open("TVertexAnim");
        write_tracks(out, &a.tracks);
        out.close();
    }
    out.close();
}

pub(crate) fn read_texture_anims(stmt: &Stmt, cx: &mut Cx) -> Result<TextureAnimationChunk> {
    let what = ("TextureAnims", "TVertexAnim", "texture animations");
    let animations = items(stmt, cx, what, |s, cx| {
        let mut animation = TextureAnimation::default();
        for f in s.block(cx)?.1 {
            if !read_into(f, cx, &mut animation.tracks)? {
                cx.unknown(f)?;
            }
        }
        Ok(animation)
    })?;
    Ok(TextureAnimationChunk { animations })
}

/// `PivotPoints n { { x, y, z }, }`
pub(crate) fn write_pivots(out: &mut Out, chunk: &PivotPointChunk) {
    write_list(out, "PivotPoints", &chunk.points);
}

pub(crate) fn read_pivots(stmt: &Stmt, cx: &mut Cx) -> Result<PivotPointChunk> {
    cx.within("PivotPoints".into(), |cx| {
        Ok(PivotPointChunk {
            points: list(stmt, cx, "pivot points")?,
        })
    })
}

/// Reads a value that may also be written as a word meaning `0xffffffff`
/// (`GeosetId Multiple`, `GeosetAnimId None`).
pub(crate) fn id_or_none(stmt: &Stmt, cx: &Cx) -> Result<u32> {
    match stmt.single(cx)?.kind {
        super::syntax::Kind::Word(ref w) if w == "None" || w == "Multiple" => Ok(u32::MAX),
        _ => stmt.value(cx),
    }
}

/// Writes `key value`, or `key word` for `0xffffffff`.
pub(crate) fn write_id(out: &mut Out, key: &str, value: u32, none: &str) {
    if value == u32::MAX {
        out.field(key, &Word(none));
    } else {
        out.field(key, &value);
    }
}

/// A bare word as a value.
pub(crate) struct Word<'a>(pub &'a str);

impl Value for Word<'_> {
    fn read(item: &super::syntax::Item, cx: &Cx) -> Result<Self> {
        Err(cx.error(item.pos, "a word is only written"))
    }

    fn write(&self, out: &mut String) {
        out.push_str(self.0);
    }
}
