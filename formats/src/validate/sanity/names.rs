//! The words sequence names are made of: the game picks a sequence by its
//! action (`Stand`, `Attack`, ...) and qualifiers (`Alternate`, `Gold`,
//! `Slam`, ...), ignoring case, numbers and anything after a `-`.

/// The actions a sequence name starts with (after `Alternate`), lower-case:
/// what the game asks a model to play.
pub const SEQUENCE_ACTIONS: &[&str] = &[
    "attack",
    "birth",
    "cinematic",
    "death",
    "decay",
    "dissipate",
    "morph",
    "portrait",
    "sleep",
    "spell",
    "stand",
    "walk",
];

/// The qualifiers that follow an action, lower-case: the game's animation
/// tags (`Stand Work Gold`, `Attack Slam`, `Spell Throw`, `Decay Flesh`,
/// `Portrait Talk`, `Stand - 2`'s variations aside).
pub const SEQUENCE_QUALIFIERS: &[&str] = &[
    "alternate",
    "alternateex",
    "bone",
    "chain",
    "channel",
    "complete",
    "critical",
    "defend",
    "drain",
    "eattree",
    "fast",
    "fifth",
    "fill",
    "fire",
    "first",
    "five",
    "flail",
    "flesh",
    "four",
    "fourth",
    "gold",
    "hit",
    "large",
    "left",
    "light",
    "looping",
    "lumber",
    "medium",
    "moderate",
    "off",
    "one",
    "puke",
    "ready",
    "right",
    "second",
    "severe",
    "slam",
    "small",
    "spiked",
    "spin",
    "swim",
    "talk",
    "third",
    "three",
    "throw",
    "too",
    "turn",
    "two",
    "upgrade",
    "victory",
    "work",
    "wounded",
];

/// The words of a sequence name, lower-case: before the first `-`, numbers
/// (variation marks: `Attack 2`, `Stand - 1`) left out.
pub(super) fn words(name: &str) -> Vec<String> {
    let name = name.split('-').next().unwrap_or_default();
    name.split_whitespace()
        .filter(|w| !w.chars().all(|c| c.is_ascii_digit()))
        .map(str::to_ascii_lowercase)
        .collect()
}

/// The action of a name's words: the first word, or the second after
/// `Alternate` (as mdx-m3-viewer reads them).
pub(super) fn action(words: &[String]) -> Option<&str> {
    match words {
        [first, second, ..] if first == "alternate" => Some(second),
        [first, ..] => Some(first),
        [] => None,
    }
}

/// Whether the game plays sequences of this action: one of
/// [`SEQUENCE_ACTIONS`], or `ready` (Blizzard's own HeroMountainKing has
/// "Alternate Ready", and mdx-m3-viewer accepts it too).
fn played_action(action: &str) -> bool {
    SEQUENCE_ACTIONS.contains(&action) || action == "ready"
}

/// Whether the game plays a sequence of this name: its action is one it
/// plays (whatever the other words).
#[cfg(feature = "gltf")]
pub(crate) fn played(name: &str) -> bool {
    action(&words(name)).is_some_and(played_action)
}

/// Why a sequence name is outside the game's vocabulary, if it is.
pub(super) fn unknown(name: &str) -> Option<String> {
    let words = words(name);
    let Some(action) = action(&words) else {
        return Some("no action word (Stand, Walk, Attack, Death, ...)".into());
    };
    if !played_action(action) {
        return Some(format!(
            "\"{action}\" is not an action the game plays (Stand, Walk, Attack, Spell, Death, ...)"
        ));
    }
    let known = |w: &String| {
        SEQUENCE_ACTIONS.contains(&w.as_str()) || SEQUENCE_QUALIFIERS.contains(&w.as_str())
    };
    words
        .iter()
        .find(|w| !known(w))
        .map(|w| format!("\"{w}\" is not a word the game knows in sequence names"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blizzard_names_are_known_and_others_are_not() {
        for name in [
            "Stand",
            "Stand - 2",
            "Stand -1",
            "Attack 01",
            "Stand Work Gold",
            "Attack Walk Stand Spin",
            "Alternate Ready",
            "Morph Alternate",
            "Decay Flesh",
            "Portrait Talk 1",
            "Death Alternate 1",
            "Spell Throw",
            "stand",
        ] {
            assert_eq!(unknown(name), None, "{name}");
        }
        for (name, why) in [
            (
                "Walk Slow",
                "\"slow\" is not a word the game knows in sequence names",
            ),
            ("TempWalk", "\"tempwalk\" is not an action the game plays"),
            ("spell2", "\"spell2\" is not an action the game plays"),
            ("0", "no action word"),
            ("Stand AZ", "\"az\" is not a word the game knows"),
        ] {
            let found = unknown(name).unwrap_or_default();
            assert!(found.starts_with(why), "{name}: {found}");
        }
    }

    #[cfg(feature = "gltf")]
    #[test]
    fn a_name_is_played_by_its_action_whatever_the_other_words() {
        assert!(played("Walk Slow") && played("alternate ready") && played("Stand - 2"));
        assert!(!played("Spin") && !played("TempWalk") && !played("Gem Glow") && !played(""));
    }

    #[test]
    fn the_action_comes_first_or_after_alternate() {
        let action_of = |name: &str| action(&words(name)).map(str::to_string);
        assert_eq!(action_of("Stand Ready"), Some("stand".into()));
        assert_eq!(action_of("Alternate Death"), Some("death".into()));
        assert_eq!(action_of("Death - 2"), Some("death".into()));
        assert_eq!(action_of("12"), None);
    }
}
