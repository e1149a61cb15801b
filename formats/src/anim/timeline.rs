//! A model's clock: its sequences (named intervals of one timeline, looping
//! or not), its global sequences (loops of their own length), and the
//! [`Moment`] a pose is taken at.

use crate::mdx::Model;

/// One animation of a model: a named interval of the model's timeline.
#[derive(Clone, Debug, PartialEq)]
pub struct SequenceInfo {
    /// The sequence's name (`Stand`, `Walk`, ...).
    pub name: String,
    /// Start and end frame, in milliseconds.
    pub interval: [u32; 2],
    /// Whether it loops (flag bit 0x1 clear, in Warcraft III and alpha files).
    pub looping: bool,
}

impl SequenceInfo {
    /// Length in milliseconds (0 when the interval is reversed).
    pub fn duration(&self) -> u32 {
        self.interval[1].saturating_sub(self.interval[0])
    }
}

/// The timing of a model: what [`Sampler`](super::Sampler)s need besides the
/// tracks.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Timeline {
    /// `SEQS`, in file order.
    pub sequences: Vec<SequenceInfo>,
    /// `GLBS`: the duration of each global sequence, in milliseconds.
    pub global_sequences: Vec<u32>,
}

/// The time a pose is taken at.
///
/// Tracks that follow the sequences read `frame` inside `interval`; tracks of
/// a global sequence read `counter` modulo their duration (the game runs one
/// counter from when the model starts animating). No interval is the model
/// outside every sequence, no counter global sequences at rest: such tracks
/// give their default values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Moment {
    /// The playing sequence's `[start, end]`, or `None` for no sequence.
    pub interval: Option<[u32; 2]>,
    /// The frame in the model's timeline, in milliseconds (fractions allowed).
    pub frame: f64,
    /// Milliseconds since the animation started, for global sequences
    /// (`None`: they do not run).
    pub counter: Option<f64>,
}

impl Moment {
    /// The bind pose: no sequence, no global sequence, every track at its
    /// default value.
    pub const BIND: Moment = Moment {
        interval: None,
        frame: 0.0,
        counter: None,
    };
}

impl Timeline {
    /// The sequences and global sequences of a model of any version (the
    /// alpha `SEQS` of 1300 and later too).
    ///
    /// ```
    /// let model = formats::mdx::Model::from_bytes(&formats::sample::sample_mdx())?;
    /// let timeline = formats::anim::Timeline::from_model(&model);
    /// assert_eq!(timeline.sequences[0].name, "Stand");
    /// # Ok::<(), formats::Error>(())
    /// ```
    pub fn from_model(model: &Model) -> Timeline {
        let mut sequences: Vec<SequenceInfo> = model
            .sequences()
            .iter()
            .map(|s| SequenceInfo {
                name: s.name.to_string_lossy().into_owned(),
                interval: s.interval,
                looping: s.flags & 1 == 0,
            })
            .collect();
        sequences.extend(model.alpha_sequences().iter().map(|s| SequenceInfo {
            name: s.name.to_string_lossy().into_owned(),
            interval: s.time,
            looping: s.flags & 1 == 0,
        }));
        Timeline {
            sequences,
            global_sequences: model.global_sequences().to_vec(),
        }
    }

    /// The index of the first sequence named `name` (ASCII case ignored).
    pub fn sequence(&self, name: &str) -> Option<usize> {
        self.sequences
            .iter()
            .position(|s| s.name.eq_ignore_ascii_case(name))
    }

    /// The index of the first sequence named `name`, as
    /// [`sequence`](Timeline::sequence), or [`NoSequence`].
    ///
    /// ```
    /// use formats::anim::Timeline;
    /// let model = formats::mdx::Model::from_bytes(&formats::sample::sample_mdx())?;
    /// let timeline = Timeline::from_model(&model);
    /// let error = timeline.sequence_named("Fly").unwrap_err();
    /// assert_eq!(error.name, "Fly");
    /// assert!(error.to_string().starts_with("no sequence \"Fly\"; the model has "));
    /// # Ok::<(), formats::Error>(())
    /// ```
    pub fn sequence_named(&self, name: &str) -> Result<usize, NoSequence> {
        self.sequence(name).ok_or_else(|| NoSequence {
            name: name.to_owned(),
            names: self.sequences.iter().map(|s| s.name.clone()).collect(),
        })
    }

    /// The moment `ms` milliseconds after sequence `index` started: a looping
    /// sequence wraps around, another holds its last frame; a negative or NaN
    /// `ms` is the sequence's start, and so is an infinite one in a looping
    /// sequence (it has no place in the loop). `None` if there is no such
    /// sequence.
    ///
    /// ```
    /// use formats::anim::Timeline;
    /// let model = formats::mdx::Model::from_bytes(&formats::sample::sample_mdx())?;
    /// let timeline = Timeline::from_model(&model);
    /// let stand = timeline.sequence_named("Stand")?; // 0 to 1000 ms, looping
    /// assert_eq!(timeline.at(stand, 250.0).unwrap().frame, 250.0);
    /// assert_eq!(timeline.at(stand, 1250.0).unwrap().frame, 250.0);
    /// assert_eq!(timeline.at(stand, -5.0).unwrap().frame, 0.0);
    /// assert_eq!(timeline.at(stand, f64::INFINITY).unwrap().frame, 0.0);
    /// assert!(timeline.at(7, 0.0).is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn at(&self, index: usize, ms: f64) -> Option<Moment> {
        let sequence = self.sequences.get(index)?;
        let duration = f64::from(sequence.duration());
        let ms = if ms.is_finite() {
            ms.max(0.0)
        } else if ms > 0.0 && !sequence.looping {
            duration
        } else {
            // NaN, minus infinity, or infinity in a loop (`inf % d` is NaN).
            0.0
        };
        let into = if duration <= 0.0 {
            0.0
        } else if sequence.looping {
            ms % duration
        } else {
            ms.min(duration)
        };
        Some(Moment {
            interval: Some(sequence.interval),
            frame: f64::from(sequence.interval[0]) + into,
            counter: Some(ms),
        })
    }

    /// The duration of global sequence `id` (a track's `globalSequenceId`);
    /// `None` for -1 and for ids past `GLBS`.
    pub fn global_duration(&self, id: i32) -> Option<u32> {
        usize::try_from(id)
            .ok()
            .and_then(|i| self.global_sequences.get(i).copied())
    }
}

/// No sequence has the name asked for ([`Timeline::sequence_named`]); its
/// message lists the names there are, each quoted (a name may be empty or
/// hold a comma).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoSequence {
    /// The name asked for.
    pub name: String,
    /// The model's sequences' names, in order.
    pub names: Vec<String>,
}

impl std::fmt::Display for NoSequence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = &self.name;
        if self.names.is_empty() {
            return write!(f, "no sequence {name:?}: the model has none");
        }
        write!(f, "no sequence {name:?}; the model has ")?;
        for (i, n) in self.names.iter().enumerate() {
            let comma = if i == 0 { "" } else { ", " };
            write!(f, "{comma}{n:?}")?;
        }
        Ok(())
    }
}

impl std::error::Error for NoSequence {}

#[cfg(test)]
mod tests {
    use super::*;

    fn timeline() -> Timeline {
        let seq = |name: &str, interval, looping| SequenceInfo {
            name: name.into(),
            interval,
            looping,
        };
        Timeline {
            sequences: vec![
                seq("Stand", [0, 1000], true),
                seq("Death", [2000, 2500], false),
            ],
            global_sequences: vec![300],
        }
    }

    #[test]
    fn looping_sequences_wrap_and_others_hold_their_end() {
        let t = timeline();
        assert_eq!(t.at(0, 1250.0).unwrap().frame, 250.0);
        assert_eq!(t.at(0, 1250.0).unwrap().counter, Some(1250.0));
        assert_eq!(t.at(1, 9000.0).unwrap().frame, 2500.0);
        assert_eq!(t.at(1, -5.0).unwrap().frame, 2000.0);
        assert_eq!(t.at(2, 0.0), None);
        assert_eq!(t.sequence("death"), Some(1));
        assert_eq!(t.global_duration(0), Some(300));
        assert_eq!(t.global_duration(-1), None);
        assert_eq!(t.global_duration(1), None);
    }

    /// The names listed when a sequence is not found are quoted: a model
    /// whose sequences are named "" and "1" (war3mdlx's test model) was
    /// said to have ", 1", and a name holding a comma read as two.
    #[test]
    fn a_missing_sequence_lists_the_names_quoted() {
        let mut t = timeline();
        t.sequences[0].name = String::new();
        t.sequences[1].name = "Stand, Ready".into();
        let error = t.sequence_named("Walk").unwrap_err();
        assert_eq!(error.names, ["", "Stand, Ready"]);
        assert_eq!(
            error.to_string(),
            r#"no sequence "Walk"; the model has "", "Stand, Ready""#
        );
        t.sequences.clear();
        let error = t.sequence_named("Walk").unwrap_err();
        assert_eq!((error.name.as_str(), error.names.len()), ("Walk", 0));
        assert_eq!(
            error.to_string(),
            r#"no sequence "Walk": the model has none"#
        );
    }
}
