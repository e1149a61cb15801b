//! Keyframe tracks (seed 000, "TracksChunk"): everything that changes while an
//! animation runs. A track is `tag, tracksCount, interpolationType,
//! globalSequenceId, Track[tracksCount]`; the tag says what is animated and the
//! type of its values (the table at the end of the seed).

use format_core::{Codec, Derived, Plain};

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

/// `Track { int32 frame; X value; if (interpolationType > 1) { X inTan; X outTan } }`:
/// the part of a key record every key has (its tangents are in
/// [`Track::tangents`]).
///
/// `frame` is signed: "Probably should be uint32, but I saw a model with
/// negative values" (seed 000).
///
/// A key in memory is exactly its bytes on disk (8 bytes for an `f32`
/// value, 20 for a quaternion): keys are most of an animated model, and
/// holding the tangents beside each key (as `Option`s) made a parse write
/// two to three times the bytes it read.
#[derive(Codec, Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(record, bound = "T: Plain")]
pub struct Key<T> {
    /// Time in milliseconds.
    pub frame: i32,
    /// The value at `frame`.
    pub value: T,
}

impl<T> Key<T> {
    /// A key (its tangents, if its track has them, go in [`Track::tangents`]).
    pub fn new(frame: i32, value: T) -> Self {
        Key { frame, value }
    }
}

/// `X inTan; X outTan`: the tangents of one key of a hermite or bezier track.
#[derive(Codec, Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(record, bound = "T: Plain")]
pub struct Tangents<T> {
    /// Incoming tangent.
    pub in_tan: T,
    /// Outgoing tangent.
    pub out_tan: T,
}

impl<T> Tangents<T> {
    /// Both tangents mapped by `f`.
    pub fn map<U>(&self, f: impl Fn(&T) -> U) -> Tangents<U> {
        Tangents {
            in_tan: f(&self.in_tan),
            out_tan: f(&self.out_tan),
        }
    }
}

impl<T: Copy> Tangents<T> {
    /// Tangents equal to the key's value: what a hermite or bezier key
    /// built without tangents is given.
    pub fn flat(value: T) -> Self {
        Tangents {
            in_tan: value,
            out_tan: value,
        }
    }
}

/// A key with its tangents (if its track has them): the whole record, as
/// interpolation, the MDL text and editors see it. [`Track::key_frames`]
/// and [`Track::from_key_frames`] convert.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct KeyFrame<T> {
    /// Time in milliseconds.
    pub frame: i32,
    /// The value at `frame`.
    pub value: T,
    /// The key's tangents (hermite and bezier tracks only).
    pub tangents: Option<Tangents<T>>,
}

impl<T> KeyFrame<T> {
    /// A key without tangents.
    pub fn new(frame: i32, value: T) -> Self {
        KeyFrame {
            frame,
            value,
            tangents: None,
        }
    }

    /// A key with tangents.
    pub fn with_tangents(frame: i32, value: T, in_tan: T, out_tan: T) -> Self {
        KeyFrame {
            frame,
            value,
            tangents: Some(Tangents { in_tan, out_tan }),
        }
    }

    /// The value and tangents mapped by `f`.
    pub fn map<U>(&self, f: impl Fn(&T) -> U) -> KeyFrame<U> {
        KeyFrame {
            frame: self.frame,
            value: f(&self.value),
            tangents: self.tangents.as_ref().map(|t| t.map(&f)),
        }
    }
}

impl<T: Copy> KeyFrame<T> {
    /// A key of a track and its tangents, as one record.
    pub fn of(key: &Key<T>, tangents: Option<&Tangents<T>>) -> Self {
        KeyFrame {
            frame: key.frame,
            value: key.value,
            tangents: tangents.copied(),
        }
    }
}

/// `TracksChunk { uint32 tracksCount; uint32 interpolationType; uint32 globalSequenceId; Track[tracksCount] tracks }`
/// (the tag in front is read by the enum of the object's tracks).
///
/// The key records are split on read (`#[format(split(..))]`, a
/// struct-of-arrays layout): `frame` and `value` into [`keys`], `inTan` and
/// `outTan` (present when `interpolationType > 1`) into [`tangents`], one
/// per key, so each takes in memory exactly its bytes on disk. The run is
/// checked once and decoded from one slice, and the write fills the records
/// in place after one capacity check.
///
/// [`keys`]: Track::keys
/// [`tangents`]: Track::tangents
///
/// ```
/// use formats::mdx::{Interpolation, KeyFrame, Track};
/// use formats::core::{Decode, Encode, Reader, Writer};
///
/// let track = Track::from_key_frames(
///     Interpolation::Hermite,
///     vec![KeyFrame::with_tangents(0, 1.0f32, 0.5, -0.5), KeyFrame::with_tangents(100, 2.0, 0.0, 0.0)],
/// );
/// assert_eq!((track.keys.len(), track.tangents.len()), (2, 2));
/// let mut w = Writer::new();
/// track.encode(&mut w, ())?;
/// let bytes = w.into_bytes();
/// assert_eq!(bytes.len(), 12 + 2 * 16); // count, type, global sequence; 2 x (frame, value, in, out)
/// assert_eq!(Track::<f32>::decode(&mut Reader::new(&bytes), ())?, track);
/// # Ok::<(), formats::Error>(())
/// ```
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
    /// The keys (`frame`, `value`), in file order.
    #[format(count = tracks_count, split(tangents, if = interpolation_type.has_tangents()))]
    pub keys: Vec<Key<T>>,
    /// `inTan`, `outTan` of each key when `interpolation_type` has tangents
    /// (as many as `keys`), empty otherwise; checked on write.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub tangents: Vec<Tangents<T>>,
}

impl<T> Track<T> {
    /// A track with these keys, not tied to a global sequence (and without
    /// tangents: for `None` and `Linear` tracks, or fill [`Track::tangents`]).
    pub fn new(interpolation_type: Interpolation, keys: Vec<Key<T>>) -> Self {
        Track {
            tracks_count: Derived::default(),
            interpolation_type,
            global_sequence_id: -1,
            keys,
            tangents: Vec::new(),
        }
    }

    /// The same track with every value and tangent mapped by `f` (a colour's
    /// channels reordered, a compressed quaternion unpacked).
    pub fn map<U>(&self, f: impl Fn(&T) -> U) -> Track<U> {
        Track {
            tracks_count: Derived::default(),
            interpolation_type: self.interpolation_type,
            global_sequence_id: self.global_sequence_id,
            keys: self
                .keys
                .iter()
                .map(|k| Key::new(k.frame, f(&k.value)))
                .collect(),
            tangents: self.tangents.iter().map(|t| t.map(&f)).collect(),
        }
    }
}

impl<T: Copy> Track<T> {
    /// The keys with their tangents, in file order.
    pub fn key_frames(&self) -> impl ExactSizeIterator<Item = KeyFrame<T>> + '_ {
        (self.keys.iter().enumerate()).map(|(i, key)| KeyFrame::of(key, self.tangents.get(i)))
    }

    /// A track of these keys, not tied to a global sequence. When the
    /// interpolation has tangents, a key without them gets its value as both
    /// (a flat tangent); otherwise the keys' tangents are dropped.
    pub fn from_key_frames(interpolation_type: Interpolation, frames: Vec<KeyFrame<T>>) -> Self {
        let mut track = Track::new(interpolation_type, Vec::new());
        track.set_key_frames(frames);
        track
    }

    /// Replaces the keys and tangents, as [`from_key_frames`](Self::from_key_frames) builds them.
    pub fn set_key_frames(&mut self, frames: impl IntoIterator<Item = KeyFrame<T>>) {
        let tangents = self.interpolation_type.has_tangents();
        self.keys.clear();
        self.tangents.clear();
        for frame in frames {
            self.keys.push(Key::new(frame.frame, frame.value));
            if tangents {
                (self.tangents).push(frame.tangents.unwrap_or(Tangents::flat(frame.value)));
            }
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
    use format_core::{Decode, Encode, Reader, Writer};

    fn hermite_track() -> Track<[f32; 3]> {
        let frames = (0..5)
            .map(|i| {
                KeyFrame::with_tangents(
                    i * 100 - 1,
                    [i as f32, -0.0, f32::from_bits(0x7fc0_0001)],
                    [1.5; 3],
                    [-2.5, 0.0, 3.0],
                )
            })
            .collect();
        Track::from_key_frames(Interpolation::Hermite, frames)
    }

    fn bits(track: &Track<[f32; 3]>) -> Vec<u8> {
        let mut w = Writer::new();
        track.encode(&mut w, ()).unwrap();
        w.into_bytes()
    }

    /// The track's header followed by `keys` records of its body.
    fn with_header(count: u32, interpolation: u32, body: &[u8]) -> Vec<u8> {
        [count, interpolation, u32::MAX]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .chain(body.iter().copied())
            .collect()
    }

    #[test]
    fn bulk_keys_read_as_key_by_key_and_write_back() {
        let track = hermite_track();
        let bytes = bits(&track);
        assert_eq!(bytes.len(), 12 + 5 * 40);
        let bulk = Track::<[f32; 3]>::decode(&mut Reader::new(&bytes), ()).unwrap();
        // Record by record, through each part's own decoder.
        let mut r = Reader::new(&bytes[12..]);
        let (mut keys, mut tangents) = (Vec::new(), Vec::new());
        for _ in 0..5 {
            keys.push(Key::<[f32; 3]>::decode(&mut r, ()).unwrap());
            tangents.push(Tangents::<[f32; 3]>::decode(&mut r, ()).unwrap());
        }
        assert!(r.is_empty());
        let single = Track {
            keys,
            tangents,
            ..bulk.clone()
        };
        // NaN payloads compare by bits: compare the encodings.
        assert_eq!(bits(&bulk), bytes);
        assert_eq!(bits(&single), bytes);
        assert_eq!(bulk.keys[4].frame, 399);
        assert_eq!(
            bulk.tangents.get(4).map(|t| t.out_tan),
            Some([-2.5, 0.0, 3.0])
        );
        // Without tangents a key is 16 bytes: the same bytes hold 12 linear keys.
        let linear = with_header(12, 1, &bytes[12..]);
        let linear = Track::<[f32; 3]>::decode(&mut Reader::new(&linear), ()).unwrap();
        assert_eq!(
            (
                linear.keys.len(),
                linear.tangents.len(),
                linear.keys[1].frame
            ),
            (12, 0, f32::to_bits(1.5) as i32)
        );
        // Key frames give back the records whole.
        let frames: Vec<_> = track.key_frames().collect();
        assert_eq!(frames[2].tangents.map(|t| t.in_tan), Some([1.5; 3]));
        assert_eq!(
            bits(&Track::from_key_frames(Interpolation::Hermite, frames)),
            bytes
        );
    }

    #[test]
    fn short_keys_name_the_key_and_field_that_ran_out() {
        let bytes = bits(&hermite_track());
        let short = with_header(3, 2, &bytes[12..12 + 95]);
        let err = Track::<[f32; 3]>::decode(&mut Reader::new(&short), ()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "keys[2].value: need 12 bytes at 0x60, 11 left"
        );
        let short = with_header(3, 2, &bytes[12..12 + 100]);
        let err = Track::<[f32; 3]>::decode(&mut Reader::new(&short), ()).unwrap_err();
        assert!(err.to_string().starts_with("keys[2].in_tan: "), "{err}");
        // A count the bytes cannot hold is refused before anything is allocated.
        let huge = with_header(u32::MAX, 2, &bytes[12..]);
        let err = Track::<[f32; 3]>::decode(&mut Reader::new(&huge), ()).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("keys: count 4294967295 needs at least"),
            "{err}"
        );
    }

    #[test]
    fn tangents_must_match_the_interpolation() {
        let mut w = Writer::new();
        let err = Track::new(Interpolation::Bezier, vec![Key::new(0, 1.0f32)])
            .encode(&mut w, ())
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "tangents: cannot write at output offset 0x0: 0 elements for 1 records: \
             `interpolation_type.has_tangents()` holds, so each record needs one"
        );
        let mut track = hermite_track();
        track.interpolation_type = Interpolation::Linear;
        let err = track.encode(&mut w, ()).unwrap_err();
        assert!(err.to_string().contains("5 elements, but"), "{err}");
        // A hermite track built from keys without tangents gets flat ones.
        let flat = Track::from_key_frames(Interpolation::Hermite, vec![KeyFrame::new(0, 2.0f32)]);
        assert_eq!(
            flat.tangents,
            [Tangents {
                in_tan: 2.0,
                out_tan: 2.0
            }]
        );
    }
}
