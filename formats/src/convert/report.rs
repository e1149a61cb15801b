//! What a conversion did beyond changing layouts: what the target holds only
//! approximately, what it cannot hold, what was added, the extents measured
//! again, and the largest position error the skinning approximation causes.

use core::fmt;

/// One thing a conversion approximated, dropped or added, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Note {
    /// Where (`materials[2].layers[1]`, `geosets[0].skin`).
    pub path: String,
    /// What, with the values involved.
    pub what: String,
}

impl Note {
    pub(crate) fn new(path: impl Into<String>, what: impl Into<String>) -> Note {
        Note {
            path: path.into(),
            what: what.into(),
        }
    }
}

/// `title (n):` then each note on its own line, indented; nothing when
/// there are none (the reports' sections).
pub(crate) fn write_notes(f: &mut fmt::Formatter<'_>, title: &str, notes: &[Note]) -> fmt::Result {
    if notes.is_empty() {
        return Ok(());
    }
    writeln!(f, "{title} ({}):", notes.len())?;
    for note in notes {
        writeln!(f, "  {note}")?;
    }
    Ok(())
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.what)
    }
}

/// The largest distance between a vertex posed as the source model skins it
/// and as the converted model skins it, over the frames measured.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SkinError {
    /// The distance, in model units.
    pub distance: f32,
    /// The geoset (index in the source model) of the vertex where it is largest.
    pub geoset: usize,
    /// That vertex.
    pub vertex: usize,
    /// The sequence it is largest in (`None`: the bind pose).
    pub sequence: Option<String>,
    /// Milliseconds into that sequence.
    pub at: u32,
    /// The vertices whose skinning changed.
    pub vertices: usize,
    /// The poses measured (every `step` milliseconds of every sequence, and the bind pose).
    pub poses: usize,
    /// Milliseconds between the frames measured (1: every frame).
    pub step: u32,
}

impl fmt::Display for SkinError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let when = match &self.sequence {
            Some(name) => format!("\"{name}\" at {} ms", self.at),
            None => "the bind pose".to_string(),
        };
        let every = if self.step == 1 {
            "every frame".to_string()
        } else {
            format!("every {} ms", self.step)
        };
        write!(
            f,
            "{} vertices skinned differently; largest position error {} (geoset {}, vertex {}, {when}) \
             over {} poses ({every} of every sequence)",
            self.vertices, self.distance, self.geoset, self.vertex, self.poses
        )
    }
}

/// What [`convert`](super::convert) did.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Report {
    /// The source version.
    pub from: u32,
    /// The target version.
    pub to: u32,
    /// What the target holds only approximately.
    pub approximated: Vec<Note>,
    /// What the target cannot hold, left out.
    pub dropped: Vec<Note>,
    /// What was added (placeholder textures, skin weights, tangents).
    pub added: Vec<Note>,
    /// What was out of spec in the source and was put right so the result
    /// is a valid file (a light track stored after its `LITE` chunk).
    pub repaired: Vec<Note>,
    /// Extents the conversion left stale (a geoset cut, levels of detail
    /// dropped, vertices skinned otherwise), measured again from the
    /// converted geometry; the paths are the converted model's, as
    /// `formats validate` names them.
    pub recomputed: Vec<Note>,
    /// Sequences moved on the timeline so that each starts after the one
    /// before it ends (to classic: the classic game plays overlapping
    /// sequences wrongly), each with every key of its tracks: what plays
    /// is unchanged, so [`Report::is_exact`] does not count them.
    pub moved: Vec<Note>,
    /// The skinning error, when skinning changed and it was measured.
    pub skin_error: Option<SkinError>,
    /// Chunks a damaged source file ends inside ([`Chunk::Cut`], from a
    /// lenient read), kept as the bytes there are, where they were (the
    /// end), and chunks whose content does not decode ([`Chunk::Undecoded`]),
    /// kept in their place: not converted, as nothing can read them. Not counted by
    /// [`Report::is_exact`]: the conversion changes nothing of them, and
    /// they were unreadable before it too.
    ///
    /// [`Chunk::Cut`]: crate::mdx::Chunk::Cut
    /// [`Chunk::Undecoded`]: crate::mdx::Chunk::Undecoded
    pub kept: Vec<Note>,
}

impl Report {
    pub(super) fn approximate(&mut self, path: impl Into<String>, what: impl Into<String>) {
        self.approximated.push(Note::new(path, what));
    }

    pub(super) fn drop(&mut self, path: impl Into<String>, what: impl Into<String>) {
        self.dropped.push(Note::new(path, what));
    }

    pub(super) fn add(&mut self, path: impl Into<String>, what: impl Into<String>) {
        self.added.push(Note::new(path, what));
    }

    pub(super) fn retime(&mut self, path: impl Into<String>, what: impl Into<String>) {
        self.moved.push(Note::new(path, what));
    }

    pub(super) fn recompute(&mut self, path: impl Into<String>, what: impl Into<String>) {
        self.recomputed.push(Note::new(path, what));
    }

    pub(super) fn keep(&mut self, path: impl Into<String>, what: impl Into<String>) {
        self.kept.push(Note::new(path, what));
    }

    /// Whether the conversion changed nothing but layouts.
    pub fn is_exact(&self) -> bool {
        self.approximated.is_empty()
            && self.dropped.is_empty()
            && self.recomputed.is_empty()
            && self.skin_error.as_ref().is_none_or(|e| e.distance == 0.0)
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "version {} -> {}", self.from, self.to)?;
        for (title, notes) in [
            ("approximated", &self.approximated),
            ("dropped", &self.dropped),
            ("added", &self.added),
            ("repaired", &self.repaired),
            ("moved on the timeline", &self.moved),
            ("recomputed", &self.recomputed),
            ("kept as read from a damaged file", &self.kept),
        ] {
            write_notes(f, title, notes)?;
        }
        if let Some(error) = &self.skin_error {
            writeln!(f, "skinning: {error}")?;
        }
        Ok(())
    }
}
