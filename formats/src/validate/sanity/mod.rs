//! The map makers' checks ([`sanity`]): the categories of the sanity test
//! mdx-m3-viewer ships (used by the Hive Workshop), one file per category
//! group. The rules are documented in the [validate](super) module.

mod emitters;
mod geosets;
mod header;
mod materials;
mod names;
mod nodes;
mod objects;
mod reforged;
mod sequences;
mod textures;
mod tracks;
mod usage;

#[cfg(feature = "gltf")]
pub(crate) use names::played;
pub use names::{SEQUENCE_ACTIONS, SEQUENCE_QUALIFIERS};

use super::{Finding, Findings, chunk_at};
use crate::mdx::{Layer, Model, alpha};

/// One check: what it finds goes into the findings.
type Check = fn(&Model, &mut Findings);

/// Every check [`sanity`] runs, in the order its findings are listed. A new
/// check (a file of its own) is one more entry.
const CHECKS: &[Check] = &[
    header::check,
    sequences::check,
    textures::check,
    materials::check,
    geosets::check,
    nodes::check,
    objects::check,
    emitters::check,
    tracks::check,
    reforged::check,
    usage::check,
];

/// What map makers check before they upload a model (see the [module](super)
/// docs for the rules). WoW alpha models (version 1300 and later) are no
/// Warcraft III models: they have no findings here.
///
/// ```
/// use formats::mdx::Model;
/// use formats::validate::{self, Rule};
///
/// let mut model = Model::from_bytes(&formats::sample::sample_mdx())?;
/// model.sequences_mut()[1].name.set("Death")?; // was Birth
/// // Nothing is left: the sample is no unit, so it needs no "Origin Ref".
/// assert!(validate::sanity(&model).is_empty());
/// model.textures_mut()[0].file_name.set("Textures\\Sample.png")?;
/// let findings = validate::sanity(&model);
/// assert_eq!(findings[0].rule, Rule::TexturePath);
/// assert_eq!(findings[0].path, "chunks[3].TEXS.textures[0].file_name");
/// model.sequences_mut()[1].name.set("Walk")?; // a unit, without one
/// let rules: Vec<Rule> = validate::sanity(&model).iter().map(|f| f.rule).collect();
/// assert_eq!(
///     rules,
///     [Rule::MissingDeathSequence, Rule::TexturePath, Rule::MissingOriginRef]
/// );
/// # Ok::<(), formats::Error>(())
/// ```
pub fn sanity(model: &Model) -> Vec<Finding> {
    if model.version() >= alpha::FIRST_VERSION {
        return Vec::new();
    }
    let mut f = Findings::of(model);
    for check in CHECKS {
        check(model, &mut f);
    }
    f.found
}

/// True when `path`'s file name ends with one of `extensions` (any case).
fn has_extension(path: &str, extensions: &[&str]) -> bool {
    let file = path.rsplit(['\\', '/']).next().unwrap_or(path);
    file.rsplit_once('.')
        .is_some_and(|(_, e)| extensions.iter().any(|x| e.eq_ignore_ascii_case(x)))
}

/// The textures a layer draws with: from version 1100 its texture list
/// (the layer's own `texture_id` is vestigial there), before it its
/// `texture_id`. Animated ids (`KMTF`) are not included.
fn layer_textures(layer: &Layer) -> impl Iterator<Item = i32> + '_ {
    let own = layer.textures.is_none().then_some(layer.texture_id);
    own.into_iter().chain(
        layer
            .textures
            .iter()
            .flatten()
            .map(|entry| entry.texture_id),
    )
}
