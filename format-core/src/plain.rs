//! Plain data: types whose on-disk bytes are their in-memory bytes (on a
//! little-endian machine), so arrays of them are read and written with one copy.
//!
//! Nothing here casts bytes into a type: every value is decoded by its own
//! [`Plain::read_le`], field by field for a derived struct (at offsets the
//! derive computes from the fields' sizes, which its layout assertion makes
//! their places in memory; [`records::from`](crate::records::from) gives
//! each field its bytes, as for a derived record). The bulk copies of scalars and arrays of them
//! go through bytemuck's safe casts between `u8` and the primitive types
//! only. A `Plain` implemented by hand, right or wrong, can therefore give
//! wrong values, never undefined behaviour: the trait is safe to implement,
//! and neither this crate nor the code `#[derive(Codec)]` generates holds
//! any `unsafe`.

use alloc::vec::Vec;
use core::mem::size_of;

/// A type whose encoding is its little-endian memory image: integers, floats,
/// arrays of them, [`FixedStr`](crate::FixedStr), and `#[format(plain)]` structs.
///
/// Every `Plain` type is [`Decode`](crate::Decode) and [`Encode`](crate::Encode); a
/// `Vec` of it is read and written in bulk (one bounds check; one copy for
/// scalars and arrays of them), which is what makes vertex arrays fast.
/// Its encoded size is `size_of::<Self>()`.
pub trait Plain: Copy + 'static {
    /// Decodes one value from the first `size_of::<Self>()` bytes of `bytes`
    /// (any alignment), or `None` if there are fewer: for code that has
    /// already checked a whole run of records against the input.
    ///
    /// ```
    /// use format_core::Plain;
    /// assert_eq!(<[u16; 2]>::read_le(&[1, 0, 2, 0, 9]), Some([1, 2]));
    /// assert_eq!(u32::read_le(&[1, 0]), None);
    /// ```
    fn read_le(bytes: &[u8]) -> Option<Self>;

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
    fn write_le(&self, out: &mut [u8]) -> Option<()>;

    /// The value of all-zero bytes (what a record's missing bytes read as).
    fn zeroed() -> Self;

    /// Decodes `dst.len()` values from `bytes`, one after another; a value
    /// whose bytes are missing is left as it was. One copy for scalars and
    /// arrays of them (on little-endian targets), else value by value.
    #[doc(hidden)]
    #[inline]
    fn read_slice_le(dst: &mut [Self], bytes: &[u8]) {
        for (value, chunk) in dst.iter_mut().zip(bytes.chunks(size_of::<Self>().max(1))) {
            if let Some(v) = Self::read_le(chunk) {
                *value = v;
            }
        }
    }

    /// Decodes the values `bytes` holds (its length a multiple of the
    /// size), into a vector allocated once and written once: one copy for
    /// scalars when `bytes` is aligned for them (on little-endian targets),
    /// else value by value, never zeroing the memory first.
    #[doc(hidden)]
    #[inline]
    fn read_vec_le(bytes: &[u8]) -> Vec<Self> {
        each(bytes)
    }

    /// [`read_vec_le`](Plain::read_vec_le) for arrays of this type: one copy
    /// for arrays of scalars when `bytes` is aligned for them.
    #[doc(hidden)]
    #[inline]
    fn read_array_vec_le<const N: usize>(bytes: &[u8]) -> Vec<[Self; N]> {
        each(bytes)
    }

    /// Appends the encoding of `items` to `out`: one copy for scalars and
    /// arrays of them (on little-endian targets), else value by value.
    #[doc(hidden)]
    #[inline]
    fn write_slice_le(items: &[Self], out: &mut Vec<u8>) {
        let size = size_of::<Self>();
        let at = out.len();
        out.resize(at + core::mem::size_of_val(items), 0);
        let places = out.get_mut(at..).unwrap_or_default();
        for (item, place) in items.iter().zip(places.chunks_exact_mut(size.max(1))) {
            item.write_le(place);
        }
    }
}

/// Value by value, into a vector allocated once (the records' count is
/// exact) and never zeroed first.
#[inline]
fn each<T: Plain>(bytes: &[u8]) -> Vec<T> {
    bytes
        .chunks_exact(size_of::<T>().max(1))
        .map(|chunk| T::read_le(chunk).unwrap_or_else(T::zeroed))
        .collect()
}

macro_rules! plain_scalar {
    ($($t:ty),*) => {$(
        impl Plain for $t {
            #[inline(always)]
            fn read_le(bytes: &[u8]) -> Option<Self> {
                Some(<$t>::from_le_bytes(bytes.get(..size_of::<$t>())?.try_into().ok()?))
            }

            #[inline(always)]
            fn write_le(&self, out: &mut [u8]) -> Option<()> {
                out.get_mut(..size_of::<$t>())?.copy_from_slice(&self.to_le_bytes());
                Some(())
            }

            #[inline(always)]
            fn zeroed() -> Self {
                0 as $t
            }

            #[inline]
            fn read_slice_le(dst: &mut [Self], bytes: &[u8]) {
                let n = dst.len().min(bytes.len() / size_of::<$t>());
                let (Some(dst), Some(bytes)) = (dst.get_mut(..n), bytes.get(..n * size_of::<$t>()))
                else {
                    return;
                };
                bytemuck::cast_slice_mut::<$t, u8>(dst).copy_from_slice(bytes);
                if cfg!(target_endian = "big") {
                    for x in dst {
                        *x = <$t>::from_le_bytes(x.to_ne_bytes());
                    }
                }
            }

            #[inline]
            fn read_vec_le(bytes: &[u8]) -> Vec<Self> {
                match bytemuck::try_cast_slice::<u8, $t>(bytes) {
                    Ok(items) if cfg!(target_endian = "little") => items.to_vec(),
                    _ => each(bytes),
                }
            }

            #[inline]
            fn read_array_vec_le<const N: usize>(bytes: &[u8]) -> Vec<[Self; N]> {
                match bytemuck::try_cast_slice::<u8, [$t; N]>(bytes) {
                    Ok(items) if cfg!(target_endian = "little") => items.to_vec(),
                    _ => each(bytes),
                }
            }

            #[inline]
            fn write_slice_le(items: &[Self], out: &mut Vec<u8>) {
                if cfg!(target_endian = "little") {
                    out.extend_from_slice(bytemuck::cast_slice(items));
                } else {
                    out.reserve(core::mem::size_of_val(items));
                    for x in items {
                        out.extend_from_slice(&x.to_le_bytes());
                    }
                }
            }
        }
    )*};
}

plain_scalar!(u8, i8, u16, i16, u32, i32, u64, i64, f32, f64);

impl<T: Plain, const N: usize> Plain for [T; N] {
    #[inline(always)]
    fn read_le(bytes: &[u8]) -> Option<Self> {
        let bytes = bytes.get(..size_of::<Self>())?;
        let mut value = [T::zeroed(); N];
        T::read_slice_le(&mut value, bytes);
        Some(value)
    }

    #[inline(always)]
    fn write_le(&self, out: &mut [u8]) -> Option<()> {
        let out = out.get_mut(..size_of::<Self>())?;
        for (item, place) in self.iter().zip(out.chunks_mut(size_of::<T>().max(1))) {
            item.write_le(place)?;
        }
        Some(())
    }

    #[inline(always)]
    fn zeroed() -> Self {
        [T::zeroed(); N]
    }

    #[inline]
    fn read_slice_le(dst: &mut [Self], bytes: &[u8]) {
        T::read_slice_le(dst.as_flattened_mut(), bytes);
    }

    #[inline]
    fn read_vec_le(bytes: &[u8]) -> Vec<Self> {
        T::read_array_vec_le::<N>(bytes)
    }

    #[inline]
    fn write_slice_le(items: &[Self], out: &mut Vec<u8>) {
        T::write_slice_le(items.as_flattened(), out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Scalars and arrays of them in bulk read and write what they do one
    /// by one; a short input leaves the values it lacks.
    #[test]
    fn bulk_and_one_by_one_agree() {
        let bytes: Vec<u8> = (0..=23).collect();
        let mut bulk = [[0u16; 3]; 4];
        <[u16; 3]>::read_slice_le(&mut bulk, &bytes);
        let one: Vec<[u16; 3]> = bytes
            .chunks(6)
            .map(|c| Plain::read_le(c).unwrap())
            .collect();
        assert_eq!(bulk.to_vec(), one);
        let mut out = Vec::new();
        <[u16; 3]>::write_slice_le(&bulk, &mut out);
        assert_eq!(out, bytes);
        let mut short = [7u32; 3];
        u32::read_slice_le(&mut short, &bytes[..9]);
        assert_eq!(short, [0x0302_0100, 0x0706_0504, 7]);
    }
}
