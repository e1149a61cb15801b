//! Tracks: keys a sequence needs or does not, keys at one frame, tracks
//! nothing plays, visibility that interpolates, tracks Magos does not read,
//! and event objects that never fire.

use format_core::FourCC;

use crate::mdx::{Interpolation, Model};
use crate::validate::walk::{self, Timing};
use crate::validate::{Findings, Rule};

/// How close two values are taken as the same (mdx-m3-viewer's epsilon).
const SAME: f32 = 0.001;

/// The visibility tracks: attachment, light, particle emitter (1, 2,
/// popcorn), ribbon emitter.
const VISIBILITY: [&str; 6] = ["KATV", "KLAV", "KPEV", "KP2V", "KPPV", "KRVS"];

/// The particle emitter 2 tracks Magos does not implement for MDX: variation
/// and gravity.
const NOT_IN_MAGOS: [&str; 2] = ["KP2R", "KP2G"];

/// The rotation tracks (quaternions): their hermite and bezier tangents are
/// control quaternions.
const ROTATIONS: [&str; 2] = ["KGRT", "KTAR"];

/// An event object's track.
const EVENTS: FourCC = FourCC::of("KEVT");

pub(super) fn check(model: &Model, f: &mut Findings) {
    let at = super::chunk_at(model, "EVTS");
    for (e, event) in model.event_objects().iter().enumerate() {
        let (path, message) = match &event.track {
            None => (
                format!("{at}.objects[{e}]"),
                "no KEVT track: it never fires",
            ),
            Some(t) if t.tracks.is_empty() => (
                format!("{at}.objects[{e}].track"),
                "a KEVT track without keys: it never fires",
            ),
            Some(_) => continue,
        };
        f.push(Rule::EventWithoutKeys, path, message);
    }
    let nodes = walk::nodes(model);
    walk::tracks(model, &nodes, &mut |at, timing| track(model, at, timing, f));
}

/// The rules of one track at `at`.
fn track(model: &Model, at: &str, t: &Timing, f: &mut Findings) {
    let tag = t.tag.to_string();
    let events = t.tag == EVENTS;
    if t.frames.is_empty() && !events {
        f.push(Rule::EmptyTrack, at, format!("a {tag} track without keys"));
    }
    if t.global_sequence_id == -1 && model.sequences().is_empty() {
        f.push(
            Rule::TrackWithoutSequence,
            format!("{at}.global_sequence_id"),
            format!("a {tag} track on the sequences' clock, in a model without sequences"),
        );
    }
    // (key, frame) of each key at the frame of the key before it.
    let same: Vec<(usize, i32)> = t
        .frames
        .windows(2)
        .enumerate()
        .filter_map(|(k, pair)| match pair {
            [before, frame] if before == frame => Some((k + 1, *frame)),
            _ => None,
        })
        .collect();
    if let Some(&(k, frame)) = same.first() {
        f.push(
            Rule::DuplicateKeyFrame,
            format!("{at}.keys[{k}]"),
            format!(
                "{} of {} keys are at the frame of the key before them (first: keys {} and {k} \
                 at frame {frame})",
                same.len(),
                t.frames.len(),
                k - 1,
            ),
        );
    }
    if VISIBILITY.contains(&tag.as_str()) && t.interpolation != Interpolation::None {
        f.push(
            Rule::VisibilityInterpolation,
            format!("{at}.interpolation_type"),
            format!(
                "a {tag} visibility track with interpolation {:?}: the game steps it",
                t.interpolation
            ),
        );
    }
    if NOT_IN_MAGOS.contains(&tag.as_str()) {
        let what = if tag == "KP2R" {
            "variation"
        } else {
            "gravity"
        };
        f.push(
            Rule::MagosEmitterTrack,
            at,
            format!("a {what} track ({tag}), which Magos does not read in MDX"),
        );
    }
    if !events {
        by_sequence(model, at, t, f);
    }
}

/// The keys of each sequence (or of its global sequence): an opening key
/// where one is needed, and keys with their neighbours' value.
fn by_sequence(model: &Model, at: &str, t: &Timing, f: &mut Findings) {
    let sequences = model.sequences();
    // (name, start) and the keys of each clock the track runs on.
    let mut clocks: Vec<(String, i64, Vec<usize>)> = Vec::new();
    if t.global_sequence_id == -1 {
        let mut keys: Vec<Vec<usize>> = vec![Vec::new(); sequences.len()];
        for (k, &frame) in t.frames.iter().enumerate() {
            let frame = i64::from(frame);
            let inside = |[s, e]: [u32; 2]| i64::from(s) <= frame && frame <= i64::from(e);
            // A key goes to the first sequence it is in.
            let first = sequences.iter().position(|s| inside(s.interval));
            if let Some(keys) = first.and_then(|s| keys.get_mut(s)) {
                keys.push(k);
            }
        }
        for (sequence, keys) in sequences.iter().zip(keys) {
            let name = format!("\"{}\"", sequence.name.to_string_lossy());
            clocks.push((name, i64::from(sequence.interval[0]), keys));
        }
    } else {
        // Out of range is `global-sequence-index`.
        let Some(&length) = usize::try_from(t.global_sequence_id)
            .ok()
            .and_then(|g| model.global_sequences().get(g))
        else {
            return;
        };
        let inside = |frame: &i32| (0..=i64::from(length)).contains(&i64::from(*frame));
        let keys = t.frames.iter().enumerate();
        let keys = keys.filter(|(_, frame)| inside(frame)).map(|(k, _)| k);
        let keys = keys.collect();
        let name = format!("global sequence {}", t.global_sequence_id);
        clocks.push((name, 0, keys));
    }
    let mut opening: Vec<(&str, i64)> = Vec::new();
    let mut redundant: Vec<usize> = Vec::new();
    for (name, start, keys) in &clocks {
        let (&[first, ..], &[.., last]) = (keys.as_slice(), keys.as_slice()) else {
            continue;
        };
        if first == last {
            continue; // one key: nothing to interpolate from
        }
        // Without a key at the start, the value there comes from the keys
        // before it: unless the sequence's keys all start and end alike.
        let first_frame = t.frames.get(first).copied().map(i64::from);
        if t.interpolation != Interpolation::None
            && first_frame != Some(*start)
            && t.value(first) != t.value(last)
        {
            opening.push((name, *start));
        }
        // As mdx-m3-viewer measures it: the key before against the key and
        // the key after.
        let close = |a: &[f32], b: &[f32]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < SAME);
        for window in keys.windows(3) {
            let &[before, key, after] = window else {
                continue;
            };
            let value = t.value(before);
            if close(value, t.value(key)) && close(value, t.value(after)) && flat(t, key) {
                redundant.push(key);
            }
        }
    }
    if let Some((name, start)) = opening.first() {
        let more = match opening.len() {
            1 => String::new(),
            n => format!(" (and {} more)", n - 1),
        };
        f.push(
            Rule::MissingOpeningKey,
            at,
            format!(
                "no key at the start of {name} (frame {start}), where its first and last keys \
                 differ{more}"
            ),
        );
    }
    if let Some(&key) = redundant.iter().min() {
        f.push(
            Rule::RedundantKey,
            format!("{at}.keys[{key}]"),
            format!(
                "{} of {} keys have the value of the keys before and after them (first: key \
                 {key} at frame {})",
                redundant.len(),
                t.frames.len(),
                t.frames.get(key).copied().unwrap_or_default()
            ),
        );
    }
}

/// True when key `k`'s tangents leave the curve flat at its value: none
/// (interpolation none or linear), hermite tangents of 0, bezier control
/// points (and rotations' control quaternions) at the value.
fn flat(t: &Timing, k: usize) -> bool {
    let Some((in_tan, out_tan)) = t.tangents(k) else {
        return true;
    };
    let tag = t.tag.to_string();
    let control_points =
        t.interpolation != Interpolation::Hermite || ROTATIONS.contains(&tag.as_str());
    let value = t.value(k);
    let at_rest = |tangent: &[f32]| {
        tangent.iter().zip(value).all(|(x, v)| {
            let rest = if control_points { *v } else { 0.0 };
            (x - rest).abs() < SAME
        })
    };
    at_rest(in_tan) && at_rest(out_tan)
}
