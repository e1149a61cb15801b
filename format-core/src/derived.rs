//! Fields whose value is computed on write.

use core::fmt;
use core::marker::PhantomData;

/// A field that exists on disk but not in memory: its value is computed from
/// other fields when writing (`#[format(calc = keys.len())]`), so an edited value
/// is always written consistently and can never go stale.
///
/// `T` is the on-disk type. While reading, the value read is visible to the
/// expressions of later fields (e.g. `#[format(count = tracks_count)]`).
///
/// ```
/// use format_core::{Codec, Derived, decode, encode, Context};
///
/// #[derive(Codec, Debug, PartialEq)]
/// struct Track {
///     #[format(calc = keys.len())]
///     count: Derived<u32>,
///     global_sequence_id: i32,
///     #[format(count = count)]
///     keys: Vec<u32>,
/// }
///
/// let track = Track { count: Derived::new(), global_sequence_id: -1, keys: vec![10, 20] };
/// let bytes = encode(&track, Context::new())?;
/// assert_eq!(&bytes[..4], &2u32.to_le_bytes());
/// assert_eq!(decode::<Track>(&bytes, Context::new())?, track);
/// # Ok::<(), format_core::Error>(())
/// ```
pub struct Derived<T>(PhantomData<T>);

impl<T> Derived<T> {
    /// The (only) value.
    pub const fn new() -> Self {
        Derived(PhantomData)
    }
}

impl<T> Default for Derived<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> Clone for Derived<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Derived<T> {}

impl<T> PartialEq for Derived<T> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl<T> Eq for Derived<T> {}

impl<T> core::hash::Hash for Derived<T> {
    fn hash<H: core::hash::Hasher>(&self, _: &mut H) {}
}

impl<T> fmt::Debug for Derived<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Derived")
    }
}

#[cfg(feature = "serde")]
impl<T> serde::Serialize for Derived<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_unit()
    }
}

#[cfg(feature = "serde")]
impl<'de, T> serde::Deserialize<'de> for Derived<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        <()>::deserialize(d).map(|()| Derived::new())
    }
}
