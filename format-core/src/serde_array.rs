//! `#[serde(with = "format_core::serde_array")]` for arrays longer than the 32
//! elements serde's own impls cover (`[f32; 145]`, `[u64; 64]`): a sequence of
//! exactly `N` elements.

use alloc::vec::Vec;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Serializes the array as a sequence.
pub fn serialize<S: Serializer, T: Serialize, const N: usize>(
    array: &[T; N],
    s: S,
) -> Result<S::Ok, S::Error> {
    s.collect_seq(array.iter())
}

/// Deserializes a sequence of exactly `N` elements.
pub fn deserialize<'de, D: Deserializer<'de>, T: Deserialize<'de>, const N: usize>(
    d: D,
) -> Result<[T; N], D::Error> {
    let items = Vec::<T>::deserialize(d)?;
    let len = items.len();
    items
        .try_into()
        .map_err(|_| D::Error::invalid_length(len, &"an array of the declared length"))
}
