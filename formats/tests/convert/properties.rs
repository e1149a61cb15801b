//! Property tests of `formats::convert` on arbitrary models of every
//! Warcraft III version (the strategies of `mdx_proptest`): converting to
//! any version never panics; it either gives a model of the target version
//! that writes and reads back as itself, or refuses (only for skinning the
//! target cannot hold) and leaves the model as it was. Classic models with
//! sound matrix groups come back unchanged from every Reforged version.
//! The skinning error is not measured here (arbitrary sequences last up to
//! 4 billion ms); the corpus tests measure it.

use crate::mdx::strategies;

use formats::convert::{ConvertError, Options, convert};
use formats::mdx::{Chunk, Model};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use strategies::*;

fn options() -> Options {
    Options {
        error_step: 0,
        ..Options::default()
    }
}

/// A classic model whose geosets' vertices are each in a group of 1 to 4
/// bones (object ids below 40, some repeated), the groups distinct: what
/// `SKIN` can say exactly.
fn with_sound_groups() -> impl Strategy<Value = Model> {
    (model(800), vec(vec(0u32..40, 1..=4), 1..6), any::<usize>()).prop_map(
        |(mut model, groups, seed)| {
            let mut distinct: Vec<Vec<u32>> = Vec::new();
            for group in groups {
                if !distinct.contains(&group) {
                    distinct.push(group);
                }
            }
            for chunk in &mut model.chunks {
                let Chunk::Geosets(c) = chunk else {
                    continue;
                };
                for geoset in &mut c.geosets {
                    let n = geoset.vertex_count();
                    geoset.matrix_groups = distinct.iter().map(|g| g.len() as u32).collect();
                    geoset.matrix_indices = distinct.concat();
                    geoset.vertex_groups = (0..n)
                        .map(|v| (v.wrapping_add(seed) % distinct.len()) as u8)
                        .collect();
                }
            }
            model
        },
    )
}

proptest! {
    #[test]
    fn convert_gives_a_sound_model_or_refuses_and_changes_nothing(
        model in any_model(),
        target in select(&VERSIONS[..]),
    ) {
        let original = model.clone();
        let mut model = model;
        match convert(&mut model, target, &options()) {
            Ok(report) => {
                prop_assert_eq!(model.version(), target);
                prop_assert_eq!((report.from, report.to), (original.version(), target));
                let bytes = model.to_bytes();
                prop_assert!(bytes.is_ok(), "{:?}\n{}", bytes.err(), report);
                let back = Model::from_bytes(&bytes.unwrap_or_default());
                prop_assert!(back.is_ok(), "{:?}\n{}", back.err(), report);
                if target > 800 && original.version() <= 800 {
                    for geoset in model.geosets() {
                        let skin = geoset.skin.as_ref().map_or(0, Vec::len);
                        prop_assert_eq!(skin, 8 * geoset.vertex_count());
                    }
                }
                if target <= 800 {
                    prop_assert!(model.geosets().iter().all(|g| g.skin.is_none()));
                }
            }
            Err(ConvertError::Skin { .. }) => prop_assert_eq!(&model, &original),
            Err(e) => prop_assert!(false, "{e}"),
        }
    }

    #[test]
    fn sound_classic_groups_come_back_from_every_reforged_version(
        model in with_sound_groups(),
        target in select(&[900u32, 1000, 1100, 1200][..]),
    ) {
        // Light tracks after LITE are moved inside on the way: compare with
        // that done.
        let mut original = model.clone();
        original.repair_sizes();
        let mut model = model;
        let up = convert(&mut model, target, &options());
        prop_assert!(up.is_ok(), "{:?}", up.err());
        let down = convert(&mut model, 800, &options());
        prop_assert!(down.is_ok(), "{:?}", down.err());
        for (a, b) in model.geosets().iter().zip(original.geosets()) {
            prop_assert_eq!(&a.vertex_groups, &b.vertex_groups);
            prop_assert_eq!(&a.matrix_groups, &b.matrix_groups);
            prop_assert_eq!(&a.matrix_indices, &b.matrix_indices);
        }
    }
}
