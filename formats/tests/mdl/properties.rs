//! Property tests of `formats::mdl`: an arbitrary model of each version (the
//! strategies of `mdx_strategies`) -> MDL -> an equal model, writing the same
//! bytes and the same MDL again; and NaN payloads survive the text.

use crate::mdx::strategies;

use formats::mdx::{Chunk, Model};
use proptest::prelude::*;
use strategies::*;

/// `model` -> MDL -> an equal model, with the same bytes and the same text.
fn check_mdl_round_trip(model: &Model) -> Result<(), TestCaseError> {
    let text = formats::mdl::to_string(model);
    let back = formats::mdl::from_str(&text)
        .map_err(|e| TestCaseError::fail(format!("from_str: {e}\n{text}")))?;
    prop_assert_eq!(&back, model, "{}", text);
    prop_assert_eq!(back.to_bytes().ok(), model.to_bytes().ok());
    prop_assert_eq!(formats::mdl::to_string(&back), text);
    Ok(())
}

macro_rules! round_trip {
    ($($name:ident: $version:literal,)*) => {
        proptest! {
            $(
                /// An arbitrary model of this version -> MDL -> an equal model.
                #[test]
                fn $name(model in model($version)) {
                    check_mdl_round_trip(&model)?;
                }
            )*
        }
    };
}

round_trip! {
    mdl_round_trip_800: 800,
    mdl_round_trip_900: 900,
    mdl_round_trip_1000: 1000,
    mdl_round_trip_1100: 1100,
    mdl_round_trip_1200: 1200,
}

proptest! {
    /// Any NaN bits in the pivot points (a float list) come back bit for bit.
    #[test]
    fn nan_payloads_survive(model in any_model(), bits in any::<u32>()) {
        let nan = f32::from_bits(bits | 0x7f80_0001);
        let mut model = model;
        model.chunks.push(Chunk::PivotPoints(formats::mdx::PivotPointChunk {
            points: vec![[nan, -nan, 0.0]],
        }));
        let text = formats::mdl::to_string(&model);
        let back = formats::mdl::from_str(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let (Some(Chunk::PivotPoints(a)), Some(Chunk::PivotPoints(b))) = (model.chunks.last(), back.chunks.last()) else {
            return Err(TestCaseError::fail("no pivot chunk"));
        };
        let bits = |p: &[[f32; 3]]| p.iter().flatten().map(|f| f.to_bits()).collect::<Vec<_>>();
        prop_assert_eq!(bits(&a.points), bits(&b.points));
    }
}
