//! What a sweep records of each file: every tool's outcome, time and peak
//! memory; and of a whole run, the budgets and throughput. The `--json`
//! file is a [`Sweep`], which `--compare` reads back.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::discover::Kind;

/// How one tool did on one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "outcome", content = "message", rename_all = "kebab-case")]
pub enum Outcome {
    /// It did its job.
    Ok,
    /// It did its job, and warned of something in the file it could not
    /// use (a texture's smaller level that does not decode, where level 0,
    /// what the game shows, does).
    Warned(String),
    /// It refused the file with an error (the message).
    Refused(String),
    /// It finished, but what it made fails a check (not byte-exact, not the
    /// same model back, glTF the validator rejects, errors a conversion added).
    Wrong(String),
    /// It panicked (the message and where).
    Panic(String),
    /// It did not run (why: nothing to run it on).
    Skipped(String),
}

impl Outcome {
    /// `ok`, `warned`, `refused`, `wrong`, `panic` or `skipped`.
    pub fn name(&self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Warned(_) => "warned",
            Outcome::Refused(_) => "refused",
            Outcome::Wrong(_) => "wrong",
            Outcome::Panic(_) => "panic",
            Outcome::Skipped(_) => "skipped",
        }
    }

    /// A refusal with `error`'s message.
    pub fn refused(error: impl std::fmt::Display) -> Outcome {
        Outcome::Refused(error.to_string())
    }
}

/// One tool run on one file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Run {
    /// The tool (`read`, `export`, ...).
    pub tool: String,
    /// How it went.
    #[serde(flatten)]
    pub outcome: Outcome,
    /// Wall-clock milliseconds.
    pub ms: f64,
    /// The most memory it held at once beyond what the file's job held
    /// before it started (see `alloc`).
    pub peak_bytes: u64,
}

/// How often one validation rule fired on one file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RuleCount {
    /// The rule's id.
    pub rule: String,
    /// Its severity for this file (`error`, `warning`, `info`).
    pub severity: String,
    /// How many findings.
    pub findings: u32,
}

/// Everything the sweep learned of one file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FileResult {
    /// The path as walked.
    pub path: String,
    /// Its kind.
    pub kind: Kind,
    /// Its size in bytes.
    pub size: u64,
    /// A model's version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<u32>,
    /// Each tool, in the order they ran.
    pub runs: Vec<Run>,
    /// A model's validation findings by rule (`validate`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<RuleCount>,
}

impl FileResult {
    /// The run of `tool`, if it ran.
    pub fn run(&self, tool: &str) -> Option<&Run> {
        self.runs.iter().find(|r| r.tool == tool)
    }
}

/// The limits beyond which a run counts as over budget.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct Budget {
    /// Seconds one tool may take on one file.
    pub seconds: f64,
    /// Bytes one tool may hold at once on one file.
    pub bytes: u64,
}

impl Budget {
    /// Whether `run` went over it.
    pub fn exceeded(&self, run: &Run) -> bool {
        run.ms > self.seconds * 1000.0 || run.peak_bytes > self.bytes
    }
}

/// A whole sweep, as `--json` writes it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Sweep {
    /// The folders and files given.
    pub roots: Vec<String>,
    /// Worker threads.
    pub workers: usize,
    /// Wall-clock seconds for the whole sweep.
    pub seconds: f64,
    /// The budgets.
    pub budget: Budget,
    /// Links and folders that could not be followed.
    #[serde(default)]
    pub skipped: Vec<String>,
    /// Every file.
    pub files: Vec<FileResult>,
    /// Tools switched off (`--skip`).
    #[serde(default)]
    pub tools_off: Vec<String>,
    /// Anything else measured, by name (the glTF validator's totals).
    #[serde(default)]
    pub extra: BTreeMap<String, String>,
}
