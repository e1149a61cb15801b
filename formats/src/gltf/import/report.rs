//! [`ImportReport`]: what an import approximated, dropped and renamed.

use core::fmt;

use crate::convert::Note;
use crate::convert::write_notes;

/// What [`import`](super::import) made, and everything it could not carry
/// over exactly.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ImportReport {
    /// The version written.
    pub version: u32,
    /// Geosets, bones, helpers and attachments made.
    pub geosets: usize,
    /// Bones (joints, and the nodes of meshes without skin).
    pub bones: usize,
    /// Helpers (nodes on the way to a bone).
    pub helpers: usize,
    /// Attachment points (nodes named `... Ref`).
    pub attachments: usize,
    /// Lights (`KHR_lights_punctual`).
    pub lights: usize,
    /// Cameras.
    pub cameras: usize,
    /// Each sequence made: its name, interval and whether it loops.
    pub sequences: Vec<SequenceMade>,
    /// The node tracks' keys sampled from glTF's curves (fitted keys
    /// included, and the keys of tracks kept exact as hermite), and how
    /// many thinning kept.
    pub keys_sampled: usize,
    /// Keys after thinning.
    pub keys_kept: usize,
    /// The tolerance the tracks were fitted to: model units for
    /// translations, radians for rotations, a factor for scalings.
    pub tolerance: [f64; 3],
    /// Each node track kept as glTF's `CUBICSPLINE` curve, exactly, as
    /// hermite (the [`import`](super::import()) docs' "Motion").
    pub hermite: Vec<HermiteTrack>,
    /// Each animation packed as a global sequence
    /// ([`ImportOptions::global_sequences`](super::ImportOptions::global_sequences)).
    pub global_sequences: Vec<GlobalSequenceMade>,
    /// Animations that qualified as global sequences but stay sequences:
    /// another animation moves a node they move (an MDX track follows
    /// either the sequences or one global sequence).
    pub kept_sequences: Vec<Note>,
    /// What the model holds only approximately (weights past the four
    /// `SKIN` holds, at 900 and later; shear, a material's colour factor).
    pub approximated: Vec<Note>,
    /// What the model cannot hold, left out (morph targets, lines and
    /// points, texture slots past the base colour, unsupported extensions).
    pub dropped: Vec<Note>,
    /// Names changed to fit their fields.
    pub renamed: Vec<Note>,
    /// What [`validate`](crate::validate) finds in the model made, above
    /// info (a name the game does not play, no `Death`, no `Origin Ref`):
    /// what the glTF did not say, for the user to add.
    pub findings: Vec<Note>,
    /// What converting the imported Reforged model to the version asked
    /// for did (matrix groups, geosets cut, the skinning error); `None`
    /// for version 1000.
    pub conversion: Option<crate::convert::Report>,
}

/// A sequence an animation became.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SequenceMade {
    /// The glTF animation's name.
    pub animation: String,
    /// The sequence's name.
    pub name: String,
    /// Its interval on the model's timeline, in ms.
    pub interval: [u32; 2],
    /// Whether it loops.
    pub looping: bool,
}

/// Which track of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum HermitePart {
    /// The translation track (`KGTR`).
    Translation,
    /// The scaling track (`KGSC`).
    Scaling,
}

impl fmt::Display for HermitePart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            HermitePart::Translation => "translation",
            HermitePart::Scaling => "scaling",
        })
    }
}

/// A node track made hermite: glTF's `CUBICSPLINE` curves as they are.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct HermiteTrack {
    /// The node's name.
    pub node: String,
    /// Which of its tracks.
    pub part: HermitePart,
    /// The animations whose curves it holds exactly (by glTF name); in its
    /// other sequences its keys are those sampling made, their tangents
    /// the chords (linear, exactly).
    pub animations: Vec<String>,
}

/// An animation packed as a global sequence.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct GlobalSequenceMade {
    /// The glTF animation's name.
    pub animation: String,
    /// Its name as a sequence would have been (after renaming).
    pub name: String,
    /// Its index in `GLBS` (the tracks' `global_sequence_id`).
    pub id: u32,
    /// Its length in ms.
    pub length: u32,
}

impl ImportReport {
    pub(super) fn keep_sequence(&mut self, path: impl Into<String>, what: impl Into<String>) {
        self.kept_sequences.push(Note::new(path, what));
    }

    pub(super) fn approximate(&mut self, path: impl Into<String>, what: impl Into<String>) {
        self.approximated.push(Note::new(path, what));
    }

    pub(super) fn drop(&mut self, path: impl Into<String>, what: impl Into<String>) {
        self.dropped.push(Note::new(path, what));
    }

    pub(super) fn rename(&mut self, path: impl Into<String>, what: impl Into<String>) {
        self.renamed.push(Note::new(path, what));
    }
}

impl fmt::Display for ImportReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "version {}: {} geosets, {} bones, {} helpers, {} attachments, {} lights, {} cameras, {} sequences",
            self.version,
            self.geosets,
            self.bones,
            self.helpers,
            self.attachments,
            self.lights,
            self.cameras,
            self.sequences.len()
        )?;
        for s in &self.sequences {
            writeln!(
                f,
                "  \"{}\" from \"{}\": {}..{} ms{}",
                s.name,
                s.animation,
                s.interval[0],
                s.interval[1],
                if s.looping { "" } else { ", non-looping" }
            )?;
        }
        for g in &self.global_sequences {
            writeln!(
                f,
                "  global sequence {} from \"{}\": {} ms",
                g.id, g.animation, g.length
            )?;
        }
        let [t, r, s] = self.tolerance;
        writeln!(
            f,
            "node tracks: {} keys sampled, {} kept (within {t:.2e} units, {r:.1e} rad, {s:.1e} scale)",
            self.keys_sampled, self.keys_kept
        )?;
        for h in &self.hermite {
            writeln!(
                f,
                "  \"{}\" {}: hermite, exact in {}",
                h.node,
                h.part,
                h.animations.join(", ")
            )?;
        }
        for (title, notes) in [
            ("kept as sequences", &self.kept_sequences),
            ("approximated", &self.approximated),
            ("dropped", &self.dropped),
            ("renamed", &self.renamed),
            ("validate finds", &self.findings),
        ] {
            write_notes(f, title, notes)?;
        }
        if let Some(conversion) = &self.conversion {
            write!(f, "to version {}: {conversion}", conversion.to)?;
        }
        Ok(())
    }
}
