//! Plain data: types whose on-disk bytes are their in-memory bytes (on a
//! little-endian machine), so arrays of them are read and written with one copy.

use bytemuck::Pod;

/// A type whose encoding is its little-endian memory image: integers, floats,
/// arrays of them, [`FixedStr`](crate::FixedStr), and `#[format(plain)]` structs.
///
/// Every `Plain` type is [`Decode`](crate::Decode) and [`Encode`](crate::Encode); a
/// `Vec` of it is read and written in bulk (one bounds check, one copy), which is
/// what makes vertex arrays fast.
pub trait Plain: Pod {
    /// Swaps every scalar inside between little-endian and native byte order.
    ///
    /// A no-op on little-endian targets (the compiler removes the calls); on
    /// big-endian targets it runs once per element after a bulk copy.
    fn swap_le(&mut self);

    /// Decodes one value from the first `size_of::<Self>()` bytes of `bytes`
    /// (any alignment), or `None` if there are fewer: for code that has
    /// already checked a whole run of records against the input.
    ///
    /// ```
    /// use format_core::Plain;
    /// assert_eq!(<[u16; 2]>::read_le(&[1, 0, 2, 0, 9]), Some([1, 2]));
    /// assert_eq!(u32::read_le(&[1, 0]), None);
    /// ```
    #[inline(always)]
    fn read_le(bytes: &[u8]) -> Option<Self> {
        let mut value: Self =
            bytemuck::pod_read_unaligned(bytes.get(..core::mem::size_of::<Self>())?);
        value.swap_le();
        Some(value)
    }

    /// Encodes this value into the first `size_of::<Self>()` bytes of `out`,
    /// or returns `None` (writing nothing) if `out` is shorter; the mirror of
    /// [`read_le`](Plain::read_le), for filling a run of records in place
    /// ([`Writer::fill`](crate::Writer::fill)).
    ///
    /// ```
    /// use format_core::Plain;
    /// let mut out = [0u8; 5];
    /// assert_eq!([1u16, 2].write_le(&mut out), Some(()));
    /// assert_eq!(out, [1, 0, 2, 0, 0]);
    /// assert_eq!(7u64.write_le(&mut out), None);
    /// ```
    #[inline(always)]
    fn write_le(&self, out: &mut [u8]) -> Option<()> {
        let mut le = *self;
        le.swap_le();
        out.get_mut(..core::mem::size_of::<Self>())?
            .copy_from_slice(bytemuck::bytes_of(&le));
        Some(())
    }
}

macro_rules! plain_scalar {
    ($($t:ty),*) => {$(
        impl Plain for $t {
            #[inline(always)]
            fn swap_le(&mut self) {
                *self = <$t>::from_le_bytes(self.to_ne_bytes());
            }
        }
    )*};
}

plain_scalar!(u8, i8, u16, i16, u32, i32, u64, i64, f32, f64);

impl<T: Plain, const N: usize> Plain for [T; N] {
    #[inline(always)]
    fn swap_le(&mut self) {
        if cfg!(target_endian = "big") {
            for x in self {
                x.swap_le();
            }
        }
    }
}

/// Converts a slice between little-endian and native order in place.
#[inline(always)]
pub(crate) fn swap_slice_le<T: Plain>(items: &mut [T]) {
    if cfg!(target_endian = "big") {
        for x in items {
            x.swap_le();
        }
    }
}
