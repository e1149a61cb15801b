//! The progress bar of long runs (`check`, `export`): drawn on a terminal
//! only, so piped output and tests see none.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar of `len` steps on stderr, hidden when stderr is not a terminal.
pub fn bar(len: usize) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(
        Some(len as u64),
        if std::io::stderr().is_terminal() {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        },
    );
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} {wide_msg}") {
        bar.set_style(style);
    }
    bar
}
