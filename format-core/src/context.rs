//! The state every nested type can see while reading or writing, without it
//! being passed through each level: the format version, the read mode, the
//! on-disk tag byte order and format-specific flags.

use alloc::string::String;
use core::fmt;

/// How strictly a reader treats data that breaks the spec.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Mode {
    /// Out-of-spec data is an error.
    #[default]
    Strict,
    /// Known out-of-spec layouts are recovered and reported as [`Diagnostic`]s.
    Lenient,
}

/// The order in which a format stores the four bytes of a tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TagOrder {
    /// As written in the spec: `MDLX` is the bytes `M D L X` (MDX).
    #[default]
    AsSpecified,
    /// Reversed: `MVER` is the bytes `R E V M` (ADT, WDT: tags are little-endian integers).
    Reversed,
}

/// The context of one read or write.
///
/// A [`Reader`](crate::Reader) and a [`Writer`](crate::Writer) each own one; generated
/// code reads it (`version` in `#[format(if = version > 800)]`), and a field marked
/// `#[format(sets_version)]` updates it for everything that follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub struct Context {
    /// The format version (MDX `VERS`, ADT `MVER`); 0 until known.
    pub version: u32,
    /// Strict or lenient reading.
    pub mode: Mode,
    /// On-disk byte order of tags.
    pub tag_order: TagOrder,
    /// Format-specific flags a reader needs from elsewhere (e.g. the WDT `MPHD`
    /// big-alpha flags when reading an ADT).
    pub flags: u64,
}

impl Context {
    /// The default context: version 0, strict, tags as specified, no flags.
    pub const fn new() -> Self {
        Context {
            version: 0,
            mode: Mode::Strict,
            tag_order: TagOrder::AsSpecified,
            flags: 0,
        }
    }

    /// With this format version.
    #[must_use]
    pub const fn with_version(mut self, version: u32) -> Self {
        self.version = version;
        self
    }

    /// With this read mode.
    #[must_use]
    pub const fn with_mode(mut self, mode: Mode) -> Self {
        self.mode = mode;
        self
    }

    /// With this tag byte order.
    #[must_use]
    pub const fn with_tag_order(mut self, tag_order: TagOrder) -> Self {
        self.tag_order = tag_order;
        self
    }

    /// With these format flags.
    #[must_use]
    pub const fn with_flags(mut self, flags: u64) -> Self {
        self.flags = flags;
        self
    }

    /// True in [`Mode::Lenient`].
    pub const fn is_lenient(&self) -> bool {
        matches!(self.mode, Mode::Lenient)
    }
}

/// A note from a lenient read: what was out of spec, where, and what was done about it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    /// Absolute byte offset of the out-of-spec data.
    pub offset: usize,
    /// What was found and what the reader did.
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at {:#x}: {}", self.offset, self.message)
    }
}
