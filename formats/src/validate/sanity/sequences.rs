//! Sequences and global sequences: the standard ones a model needs, their
//! names, their lengths.

use super::names;
use crate::mdx::Model;
use crate::validate::{Findings, Rule};

/// The name a portrait model's `MODL` ends with.
const PORTRAIT_SUFFIX: &str = "_portrait";

pub(super) fn check(model: &Model, f: &mut Findings) {
    let at = super::chunk_at(model, "SEQS");
    let sequences = model.sequences();
    let mut words = Vec::with_capacity(sequences.len());
    for (s, sequence) in sequences.iter().enumerate() {
        let name = sequence.name.to_string_lossy();
        let path = format!("{at}.sequences[{s}]");
        if let Some(why) = names::unknown(&name) {
            f.push(
                Rule::SequenceName,
                format!("{path}.name"),
                format!("\"{name}\": {why}"),
            );
        }
        let [start, end] = sequence.interval;
        if start == end {
            f.push(
                Rule::ZeroLengthSequence,
                format!("{path}.interval"),
                format!("\"{name}\" starts and ends at {start}"),
            );
        }
        words.push(names::words(&name));
    }
    standard(model, &at, &words, f);
    let at = super::chunk_at(model, "GLBS");
    for (g, length) in model.global_sequences().iter().enumerate() {
        if *length == 0 {
            f.push(
                Rule::ZeroLengthGlobalSequence,
                format!("{at}.global_sequences[{g}]"),
                format!("global sequence {g} is 0 ms long"),
            );
        }
    }
}

/// `Stand` and `Death`, or for a portrait `Portrait` and `Portrait Talk`.
fn standard(model: &Model, at: &str, words: &[Vec<String>], f: &mut Findings) {
    let is = |w: &Vec<String>, action: &str| names::action(w) == Some(action);
    let has = |action: &str| words.iter().any(|w| is(w, action));
    let named_portrait = model.model_chunk().is_some_and(|m| {
        m.name
            .to_string_lossy()
            .to_ascii_lowercase()
            .ends_with(PORTRAIT_SUFFIX)
    });
    let portraits: Vec<&Vec<String>> = words.iter().filter(|w| is(w, "portrait")).collect();
    let only_portraits = !words.is_empty() && portraits.len() == words.len();
    if named_portrait || only_portraits {
        let talks = |w: &&Vec<String>| w.iter().any(|word| word == "talk");
        let missing = [
            ("Portrait", !portraits.iter().any(|w| !talks(w))),
            ("Portrait Talk", !portraits.iter().any(talks)),
        ];
        for (name, is_missing) in missing {
            if is_missing {
                f.push(
                    Rule::MissingPortraitSequence,
                    at,
                    format!("a portrait model without a \"{name}\" sequence"),
                );
            }
        }
        return;
    }
    if words.is_empty() {
        f.push(
            Rule::MissingStandSequence,
            at,
            "no sequences at all: the model stands still in its bind pose",
        );
        return;
    }
    // A one-shot effect (blood, an impact, an explosion: every sequence a
    // `Birth` or a `Death`) plays once and is gone; it needs neither. A
    // fifth of Blizzard's own models are such effects (issue 39's sweep:
    // 85 of runi95's 1,120 are spawn models with one `Birth`).
    let one_shot = words.iter().all(|w| is(w, "birth") || is(w, "death"));
    if one_shot {
        return;
    }
    if !has("stand") {
        f.push(Rule::MissingStandSequence, at, "no \"Stand\" sequence");
    }
    if !has("death") {
        f.push(Rule::MissingDeathSequence, at, "no \"Death\" sequence");
    }
}
