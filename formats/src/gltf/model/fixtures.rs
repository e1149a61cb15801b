//! Test fixtures shared by the animation modules' tests.

use crate::anim::{SequenceInfo, Timeline};

/// One sequence, "Walk", 1000 to 1600, and a global sequence of 250 ms.
pub(crate) fn timeline() -> Timeline {
    Timeline {
        sequences: vec![SequenceInfo {
            name: "Walk".into(),
            interval: [1000, 1600],
            looping: true,
        }],
        global_sequences: vec![250],
    }
}
