//! The alpha track types (seed 003, "Common Types", `MDLKEYTRACK`,
//! `MDLSIMPLEKEYTRACK`): compressed quaternions, the simple key track without
//! an interpolation field, and the flipbook track (`KMTF`, `KRTX`) whose form
//! the sources disagree on (`MDX_VERSIONS.md` §6.4).
//!
//! `MDLKEYTRACK<T>` itself is the WC3 key track ([`Track`]): `count, type,
//! globalSeqId, keys` with tangents when the type is hermite or bezier.

use format_core::{Codec, Derived, FourCC, Reader};

use crate::mdx::track::{Interpolation, Track};

/// `C4QuaternionCompressed { int64_t m_data }`: "For the WoW variant of MDX,
/// all C4Quaternions are packed in int64_ts" (seed 003).
///
/// The raw 64-bit value is kept, so writing is exact; [`to_quaternion`] and
/// [`from_quaternion`] convert. x has 22 signed bits (steps of 2⁻²¹), y and z
/// 21 signed bits each (steps of 2⁻²⁰), w is not stored: it is
/// √(1 − x² − y² − z²), 0 when that is below 2⁻²⁰.
///
/// ```
/// use formats::mdx::alpha::CompressedQuaternion;
///
/// let q = CompressedQuaternion::from_quaternion([0.0, 0.0, 0.6, 0.8]);
/// let [x, y, z, w] = q.to_quaternion();
/// assert_eq!([x, y], [0.0, 0.0]);
/// assert!((z - 0.6).abs() < 1e-6 && (w - 0.8).abs() < 1e-5);
/// // Every raw value survives a decode and encode.
/// let raw = CompressedQuaternion { m_data: 0x8000_0123_4567_89ab };
/// assert_eq!(CompressedQuaternion::from_quaternion(raw.to_quaternion()), raw);
/// ```
///
/// [`to_quaternion`]: CompressedQuaternion::to_quaternion
/// [`from_quaternion`]: CompressedQuaternion::from_quaternion
#[derive(Codec, Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct CompressedQuaternion {
    /// The packed value: x in bits 42..63, y in 21..41, z in 0..20.
    pub m_data: u64,
}

/// `0.00000047683716`: the step of x.
const X_STEP: f32 = 1.0 / 2_097_152.0;
/// `0.00000095367432`: the step of y and z, and the smallest `1 - |xyz|²` with a w.
const YZ_STEP: f32 = 1.0 / 1_048_576.0;

impl CompressedQuaternion {
    /// `Get()` (seed 003): the quaternion `[x, y, z, w]`, with `w ≥ 0`.
    ///
    /// y and z are sign-extended: `MDX_VERSIONS.md` §6.1 checked this on all
    /// 8 478 rotation keys of the real v1300 file (treating z as unsigned breaks
    /// 3 861 of them).
    pub fn to_quaternion(self) -> [f32; 4] {
        let m = self.m_data as i64;
        // `m_data >> 42`: the top 22 bits, sign-extended.
        let x = (m >> 42) as f32 * X_STEP;
        // `(m_data << 22) >> 43`: bits 21..41, sign-extended.
        let y = ((m << 22) >> 43) as f32 * YZ_STEP;
        // `(int32_t)(m_data << 11) >> 11`: bits 0..20, sign-extended.
        let z = (((m << 11) as i32) >> 11) as f32 * YZ_STEP;
        [x, y, z, w_of(x, y, z)]
    }

    /// `Set()` (seed 003): packs `[x, y, z, w]`, negating the quaternion first
    /// when `w < 0` (the same rotation), truncating each component toward zero
    /// to its step. Components out of range are clamped to the nearest packable
    /// value (the seed would wrap x = 1.0 around to -2.0).
    pub fn from_quaternion(q: [f32; 4]) -> Self {
        let [x, y, z, w] = q.map(f64::from);
        let sign = if w >= 0.0 { 1.0 } else { -1.0 };
        let pack = |value: f64, scale: f64, bits: u32| -> i64 {
            let max = (1_i64 << (bits - 1)) - 1;
            // `as` truncates toward zero (like the seed's cast) and saturates.
            ((sign * value * scale) as i64).clamp(-max - 1, max)
        };
        let x = pack(x, 2_097_152.0, 22) << 21;
        let y = pack(y, 1_048_576.0, 21) & 0x1F_FFFF;
        let z = pack(z, 1_048_576.0, 21) & 0x1F_FFFF;
        CompressedQuaternion {
            m_data: (z | ((y | x) << 21)) as u64,
        }
    }
}

/// `GetW`: `1 - (x² + y² + z²)` in double precision from float squares.
fn w_of(x: f32, y: f32, z: f32) -> f32 {
    let len = 1.0 - f64::from(x * x + y * y + z * z);
    if len >= f64::from(YZ_STEP) {
        len.sqrt() as f32
    } else {
        0.0
    }
}

/// `MDLINTKEY { uint32_t time; uint32_t value; }`
#[derive(Codec, Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct IntKey {
    /// Time in milliseconds.
    pub time: u32,
    /// The value from `time` on.
    pub value: u32,
}

/// `MDLSIMPLEKEYTRACK<T> { uint32_t count; uint32_t globalSeqId; T keys[count]; }`
/// (no interpolation field). `T` is [`IntKey`], or `i32` (`MDLEVENTKEY`) for `KEVT`.
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SimpleTrack<T> {
    /// `count`, computed from `keys` on write.
    #[format(calc = keys.len())]
    #[cfg_attr(feature = "serde", serde(skip))]
    pub count: Derived<u32>,
    /// GLBS index or -1 (`0xFFFFFFFF`) if none.
    pub global_seq_id: i32,
    /// The keys.
    #[format(count = count)]
    pub keys: Vec<T>,
}

impl<T> SimpleTrack<T> {
    /// A track with these keys, not tied to a global sequence.
    pub fn new(keys: Vec<T>) -> Self {
        SimpleTrack {
            count: Derived::default(),
            global_seq_id: -1,
            keys,
        }
    }
}

/// A flipbook track, `KMTF` (texture id) or `KRTX` (texture slot), in the form
/// the file uses.
///
/// CONFLICT (`MDX_VERSIONS.md` §6.4): seed 003 and GMP read it as a
/// `MDLSIMPLEKEYTRACK<MDLINTKEY>`, WMV and WEX as a key track with an
/// interpolation field. No real file has one, so the form is decided from the
/// data (`read_when`): the one that ends exactly at the end of the object, or
/// at the next tag of the object's tracks (the argument), is taken (the
/// simple form when both fit), and it is written back in the same form.
#[derive(Codec, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(args(next_tags: &'static [FourCC]))]
pub enum FlipTrack {
    /// `uint32_t count; uint32_t globalSeqId; MDLINTKEY keys[count]` (seed 003, GMP).
    #[format(read_when = flip_form_fits(reader, next_tags, FlipForm::Simple))]
    Simple(SimpleTrack<IntKey>),
    /// `uint32_t count; MDLTRACKTYPE type; uint32_t globalSeqId; keys` (WMV, WEX).
    #[format(read_when = flip_form_fits(reader, next_tags, FlipForm::Key))]
    Key(Track<u32>),
}

/// The two forms of a flipbook track.
#[derive(Clone, Copy)]
enum FlipForm {
    Simple,
    Key,
}

/// Where a flipbook track in `form` would end (bytes after its tag), if its
/// counts are plausible.
fn flip_form_end(r: &Reader<'_>, form: FlipForm) -> Option<u64> {
    let word = |at: usize| {
        r.peek_bytes(at + 4)
            .and_then(|b| b.get(at..at + 4))
            .and_then(|b| b.try_into().ok())
            .map(u32::from_le_bytes)
    };
    let count = word(0).map(u64::from)?;
    match form {
        FlipForm::Simple => Some(8 + 8 * count),
        FlipForm::Key => word(4).filter(|t| *t <= 3).map(|interpolation| {
            let values = if interpolation > 1 { 3 } else { 1 };
            12 + count * (4 + 4 * values)
        }),
    }
}

/// True if a flipbook track in `form` ends exactly at the end of the
/// object, or where one of `next_tags` (the object's track tags) follows.
fn flip_form_fits(r: &Reader<'_>, next_tags: &[FourCC], form: FlipForm) -> bool {
    let remaining = r.remaining() as u64;
    flip_form_end(r, form).is_some_and(|end| {
        end == remaining
            || (end < remaining
                && usize::try_from(end)
                    .ok()
                    .and_then(|end| {
                        r.peek_bytes(end + 4)
                            .and_then(|b| b.get(end..end + 4))
                            .and_then(|b| <[u8; 4]>::try_from(b).ok())
                    })
                    .is_some_and(|tag| next_tags.contains(&FourCC::new(tag))))
    })
}

impl FlipTrack {
    /// The keys as `(time, value)` pairs, whatever the form.
    pub fn keys(&self) -> Vec<(i64, u32)> {
        match self {
            FlipTrack::Simple(t) => t
                .keys
                .iter()
                .map(|k| (i64::from(k.time), k.value))
                .collect(),
            FlipTrack::Key(t) => t
                .keys
                .iter()
                .map(|k| (i64::from(k.frame), k.value))
                .collect(),
        }
    }

    /// The interpolation of the key form; `None` for the simple form.
    pub fn interpolation(&self) -> Option<Interpolation> {
        match self {
            FlipTrack::Simple(_) => None,
            FlipTrack::Key(t) => Some(t.interpolation_type),
        }
    }
}
