//! Keyframe tracks (seed 000, "TracksChunk"): everything that changes while an
//! animation runs. A track is `tag, tracksCount, interpolationType,
//! globalSequenceId, Track[tracksCount]`; the tag says what is animated and the
//! type of its values (the table at the end of the seed).

use core::mem::size_of;

use format_core::{Codec, Decode, Derived, Encode, Error, Plain, Reader, Result, Writer};

/// `uint32 interpolationType // 0: none 1: linear 2: hermite 3: bezier`
#[derive(Codec, Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(u32)]
pub enum Interpolation {
    /// 0: the value jumps at each key.
    #[default]
    None = 0,
    /// 1: linear.
    Linear = 1,
    /// 2: hermite (keys carry tangents).
    Hermite = 2,
    /// 3: bezier (keys carry tangents).
    Bezier = 3,
    /// A value the spec does not name, kept as read.
    #[format(unknown)]
    Other(u32),
}

impl Interpolation {
    /// `if (interpolationType > 1) { X inTan; X outTan }`: the rule is on the
    /// number, so an unnamed value above 3 has tangents too.
    pub fn has_tangents(self) -> bool {
        match self {
            Interpolation::None | Interpolation::Linear => false,
            Interpolation::Hermite | Interpolation::Bezier => true,
            Interpolation::Other(value) => value > 1,
        }
    }
}

/// `Track { int32 frame; X value; if (interpolationType > 1) { X inTan; X outTan } }`
///
/// `frame` is signed: "Probably should be uint32, but I saw a model with
/// negative values" (seed 000).
///
/// The codec is written by hand rather than derived: a track's keys are
/// fixed-size records of plain data, so [`Decode::decode_many`] checks the
/// whole run once and decodes it from one slice, and [`Encode::encode_many`]
/// reserves once, with no per-key calls or per-field bounds checks. Keys are
/// most of an animated model, so this is most of the parse time.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Key<T> {
    /// Time in milliseconds.
    pub frame: i32,
    /// The value at `frame`.
    pub value: T,
    /// Incoming tangent (hermite and bezier only).
    pub in_tan: Option<T>,
    /// Outgoing tangent (hermite and bezier only).
    pub out_tan: Option<T>,
}

impl<T: Plain> Key<T> {
    /// The size of one key record with or without tangents.
    const fn record_size(tangents: bool) -> usize {
        4 + size_of::<T>() * if tangents { 3 } else { 1 }
    }

    /// One key from a record of [`Self::record_size`] bytes (`None` if shorter).
    #[inline(always)]
    fn from_record(record: &[u8], tangents: bool) -> Option<Self> {
        let (frame, values) = record.split_first_chunk::<4>()?;
        let value_at = |i: usize| values.get(i * size_of::<T>()..).and_then(T::read_le);
        Some(Key {
            frame: i32::from_le_bytes(*frame),
            value: value_at(0)?,
            in_tan: if tangents { Some(value_at(1)?) } else { None },
            out_tan: if tangents { Some(value_at(2)?) } else { None },
        })
    }
}

impl<T: Plain> Decode for Key<T> {
    type Args = (Interpolation,);
    const MIN_SIZE: usize = Self::record_size(false);

    fn decode(r: &mut Reader<'_>, (interpolation,): (Interpolation,)) -> Result<Self> {
        let frame = r.i32().map_err(|e| e.in_field("frame"))?;
        let value = r.plain::<T>().map_err(|e| e.in_field("value"))?;
        let (in_tan, out_tan) = if interpolation.has_tangents() {
            let in_tan = r.plain::<T>().map_err(|e| e.in_field("in_tan"))?;
            let out_tan = r.plain::<T>().map_err(|e| e.in_field("out_tan"))?;
            (Some(in_tan), Some(out_tan))
        } else {
            (None, None)
        };
        Ok(Key {
            frame,
            value,
            in_tan,
            out_tan,
        })
    }

    fn decode_many(
        r: &mut Reader<'_>,
        count: usize,
        (interpolation,): (Interpolation,),
    ) -> Result<Vec<Self>> {
        // Two loops with constant record sizes, so the compiler drops the
        // per-field bounds checks.
        fn run<T: Plain, const TANGENTS: bool>(bytes: &[u8]) -> Option<Vec<Key<T>>> {
            let records = bytes.chunks_exact(Key::<T>::record_size(TANGENTS));
            let mut keys = Vec::with_capacity(records.len());
            for record in records {
                keys.push(Key::from_record(record, TANGENTS)?);
            }
            Some(keys)
        }
        let tangents = interpolation.has_tangents();
        let offset = r.pos();
        let Ok(bytes) = r.records(count, Self::record_size(tangents)) else {
            // Short input: the key-by-key reader names the key and field that ran out.
            return format_core::decode_each(r, count, (interpolation,));
        };
        let keys = if tangents {
            run::<T, true>(bytes)
        } else {
            run::<T, false>(bytes)
        };
        // Every record has exactly the size `from_record` reads.
        keys.ok_or_else(|| Error::inconsistent(offset, "key records shorter than their size"))
    }
}

impl<T: Plain> Encode for Key<T> {
    type Args = (Interpolation,);

    fn encode(&self, w: &mut Writer, (interpolation,): (Interpolation,)) -> Result<()> {
        self.check_tangents(w, interpolation)?;
        Self::write_records(core::slice::from_ref(self), w, interpolation)
    }

    fn encode_many(
        keys: &[Self],
        w: &mut Writer,
        (interpolation,): (Interpolation,),
    ) -> Result<()> {
        for (i, key) in keys.iter().enumerate() {
            key.check_tangents(w, interpolation)
                .map_err(|e| e.at_index(i))?;
        }
        Self::write_records(keys, w, interpolation)
    }
}

impl<T: Plain> Key<T> {
    /// The tangents are there exactly when the interpolation has them.
    #[inline]
    fn check_tangents(&self, w: &Writer, interpolation: Interpolation) -> Result<()> {
        let (in_tan, out_tan) = (self.in_tan.is_some(), self.out_tan.is_some());
        let tangents = interpolation.has_tangents();
        if in_tan == tangents && out_tan == tangents {
            Ok(())
        } else {
            Err(tangent_mismatch(w, interpolation, in_tan, out_tan))
        }
    }

    /// Writes keys already checked against the interpolation, filling their
    /// records in place (one capacity check for the run).
    fn write_records(keys: &[Self], w: &mut Writer, interpolation: Interpolation) -> Result<()> {
        let size = Self::record_size(interpolation.has_tangents());
        let filled = w.fill(keys.len() * size, |out| {
            out.chunks_exact_mut(size)
                .zip(keys)
                .all(|(record, key)| key.to_record(record).is_some())
        });
        if filled {
            Ok(())
        } else {
            Err(Error::inconsistent(
                w.pos(),
                "key records shorter than their size",
            ))
        }
    }

    /// Writes this key into `record` (the mirror of `from_record`).
    #[inline(always)]
    fn to_record(&self, record: &mut [u8]) -> Option<()> {
        let (frame, values) = record.split_first_chunk_mut::<4>()?;
        *frame = self.frame.to_le_bytes();
        let mut values = values.chunks_exact_mut(size_of::<T>());
        self.value.write_le(values.next()?)?;
        if let (Some(in_tan), Some(out_tan)) = (&self.in_tan, &self.out_tan) {
            in_tan.write_le(values.next()?)?;
            out_tan.write_le(values.next()?)?;
        }
        Some(())
    }
}

/// The error for a key whose tangents disagree with its track's interpolation.
#[cold]
fn tangent_mismatch(
    w: &Writer,
    interpolation: Interpolation,
    in_tan: bool,
    out_tan: bool,
) -> Error {
    let (field, present) = if in_tan != interpolation.has_tangents() {
        ("in_tan", in_tan)
    } else {
        ("out_tan", out_tan)
    };
    let condition = "interpolation.has_tangents()";
    let message = if present {
        format!("`{field}` is present but `{condition}` is false ({interpolation:?})")
    } else {
        format!("`{field}` is missing but `{condition}` requires it ({interpolation:?})")
    };
    Error::inconsistent(w.pos(), message).in_field(field)
}

impl<T> Key<T> {
    /// A key without tangents (for `None` and `Linear` tracks).
    pub fn new(frame: i32, value: T) -> Self {
        Key {
            frame,
            value,
            in_tan: None,
            out_tan: None,
        }
    }
}

/// `TracksChunk { uint32 tracksCount; uint32 interpolationType; uint32 globalSequenceId; Track[tracksCount] tracks }`
/// (the tag in front is read by the enum of the object's tracks).
#[derive(Codec, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(bound = "T: Plain")]
pub struct Track<T> {
    /// `tracksCount`, computed from `keys` on write.
    #[format(calc = keys.len())]
    #[cfg_attr(feature = "serde", serde(skip))]
    pub tracks_count: Derived<u32>,
    /// How values between keys are found.
    pub interpolation_type: Interpolation,
    /// Index into `GLBS`, or -1 when the track follows the sequences.
    pub global_sequence_id: i32,
    /// The keys, in file order.
    #[format(count = tracks_count, args(interpolation_type))]
    pub keys: Vec<Key<T>>,
}

impl<T> Track<T> {
    /// A track with these keys, not tied to a global sequence.
    pub fn new(interpolation_type: Interpolation, keys: Vec<Key<T>>) -> Self {
        Track {
            tracks_count: Derived::default(),
            interpolation_type,
            global_sequence_id: -1,
            keys,
        }
    }
}

/// Declares the enum of the keyframe tracks an object may carry: one variant
/// per tag of the seed's table, with its value type, plus `Unknown` for tags
/// the spec does not list (kept verbatim to the end of the object, see
/// [`UnknownTail`](format_core::UnknownTail)).
macro_rules! tracks {
    (
        $(#[$meta:meta])*
        $name:ident {
            $( $(#[$vmeta:meta])* $tag:literal => $variant:ident($ty:ty), )*
        }
    ) => {
        $(#[$meta])*
        #[derive(format_core::Codec, Clone, Debug, PartialEq)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        pub enum $name {
            $(
                $(#[$vmeta])*
                #[format(tag = $tag)]
                $variant($crate::mdx::track::Track<$ty>),
            )*
            /// A tag the spec does not list: it and the rest of the object, verbatim.
            #[format(unknown)]
            Unknown(format_core::UnknownTail),
        }
    };
}
pub(crate) use tracks;

#[cfg(test)]
mod tests {
    use super::*;

    fn hermite_keys() -> Vec<Key<[f32; 3]>> {
        (0..5)
            .map(|i| Key {
                frame: i * 100 - 1,
                value: [i as f32, -0.0, f32::from_bits(0x7fc0_0001)],
                in_tan: Some([1.5; 3]),
                out_tan: Some([-2.5, 0.0, 3.0]),
            })
            .collect()
    }

    fn bits(keys: &[Key<[f32; 3]>]) -> Vec<u8> {
        let mut w = Writer::new();
        Key::encode_many(keys, &mut w, (Interpolation::Hermite,)).unwrap();
        w.into_bytes()
    }

    #[test]
    fn bulk_keys_read_as_key_by_key_and_write_back() {
        let keys = hermite_keys();
        let bytes = bits(&keys);
        assert_eq!(bytes.len(), 5 * 40);
        let bulk =
            Key::<[f32; 3]>::decode_many(&mut Reader::new(&bytes), 5, (Interpolation::Hermite,))
                .unwrap();
        let mut r = Reader::new(&bytes);
        let single: Vec<_> = (0..5)
            .map(|_| Key::<[f32; 3]>::decode(&mut r, (Interpolation::Hermite,)).unwrap())
            .collect();
        // NaN payloads compare by bits: compare the encodings.
        assert_eq!(bits(&bulk), bytes);
        assert_eq!(bits(&single), bytes);
        assert_eq!(bulk[4].frame, 399);
        // Without tangents a key is 16 bytes.
        let linear =
            Key::<[f32; 3]>::decode_many(&mut Reader::new(&bytes), 12, (Interpolation::Linear,))
                .unwrap();
        assert_eq!(
            (linear.len(), linear[1].frame),
            (12, f32::to_bits(1.5) as i32)
        );
    }

    #[test]
    fn short_keys_name_the_key_and_field_that_ran_out() {
        let bytes = bits(&hermite_keys());
        let err = Key::<[f32; 3]>::decode_many(
            &mut Reader::new(&bytes[..95]),
            3,
            (Interpolation::Hermite,),
        )
        .unwrap_err();
        assert_eq!(err.to_string(), "[2].value: need 12 bytes at 0x54, 11 left");
        // A count the bytes cannot hold is refused before anything is allocated.
        let err = Key::<[f32; 3]>::decode_many(
            &mut Reader::new(&bytes),
            1 << 40,
            (Interpolation::Hermite,),
        )
        .unwrap_err();
        assert!(
            err.to_string()
                .starts_with("count 1099511627776 needs at least"),
            "{err}"
        );
    }

    #[test]
    fn tangents_must_match_the_interpolation() {
        let mut w = Writer::new();
        let err = Key::new(0, 1.0f32)
            .encode(&mut w, (Interpolation::Bezier,))
            .unwrap_err();
        assert!(err.to_string().contains("`in_tan` is missing"), "{err}");
        let err = hermite_keys()[0]
            .encode(&mut w, (Interpolation::None,))
            .unwrap_err();
        assert!(err.to_string().contains("`in_tan` is present"), "{err}");
        // In a run of keys, the error names the key.
        let mut keys = hermite_keys();
        keys[3].out_tan = None;
        let err = Key::encode_many(&keys, &mut w, (Interpolation::Hermite,)).unwrap_err();
        assert!(err.to_string().starts_with("[3].out_tan: "), "{err}");
    }
}
