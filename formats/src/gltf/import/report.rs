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
    /// included), and how many thinning kept.
    pub keys_sampled: usize,
    /// Keys after thinning.
    pub keys_kept: usize,
    /// The tolerance the tracks were fitted to: model units for
    /// translations, radians for rotations, a factor for scalings.
    pub tolerance: [f64; 3],
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

impl ImportReport {
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
        let [t, r, s] = self.tolerance;
        writeln!(
            f,
            "node tracks: {} keys sampled, {} kept (within {t:.2e} units, {r:.1e} rad, {s:.1e} scale)",
            self.keys_sampled, self.keys_kept
        )?;
        for (title, notes) in [
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
