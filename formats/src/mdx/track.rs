//! Keyframe tracks (seed 000, "TracksChunk"): everything that changes while an
//! animation runs. A track is `tag, tracksCount, interpolationType,
//! globalSequenceId, Track[tracksCount]`; the tag says what is animated and the
//! type of its values (the table at the end of the seed).

use format_core::{Codec, Derived};

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
#[derive(Codec, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(args(interpolation: Interpolation))]
pub struct Key<T> {
    /// Time in milliseconds.
    pub frame: i32,
    /// The value at `frame`.
    pub value: T,
    /// Incoming tangent (hermite and bezier only).
    #[format(if = interpolation.has_tangents())]
    pub in_tan: Option<T>,
    /// Outgoing tangent (hermite and bezier only).
    #[format(if = interpolation.has_tangents())]
    pub out_tan: Option<T>,
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

        impl $name {
            /// The tag this track is stored under.
            pub fn tag(&self) -> format_core::FourCC {
                match self {
                    $( $name::$variant(_) => const { format_core::FourCC::of($tag) }, )*
                    $name::Unknown(tail) => tail.tag,
                }
            }
        }
    };
}
pub(crate) use tracks;
