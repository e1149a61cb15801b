//! The one error type of the runtime: what went wrong, at which byte offset,
//! and through which fields the reader or writer got there.

use alloc::borrow::Cow;
use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::FourCC;

/// Shorthand for `Result<T, format_core::Error>`.
pub type Result<T, E = Error> = core::result::Result<T, E>;

/// Which kind of declared size an over- or under-run refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SizeKind {
    /// The `u32` after a chunk tag: the byte size of the body, excluding the 8-byte header.
    Chunk,
    /// A leading `u32` that counts the object including itself (the MDX `inclusiveSize`).
    Inclusive,
    /// A size given elsewhere (a header field, an offset table) for a hand-bounded region.
    Declared,
}

impl fmt::Display for SizeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SizeKind::Chunk => "chunk size",
            SizeKind::Inclusive => "inclusive size",
            SizeKind::Declared => "declared size",
        })
    }
}

/// The tag (or tags) a reader was prepared to accept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Expected {
    /// Exactly this tag.
    Tag(FourCC),
    /// Any of these tags (a tag-dispatched enum without an unknown fallback).
    AnyOf(&'static [FourCC]),
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expected::Tag(tag) => write!(f, "`{tag}`"),
            Expected::AnyOf(tags) => {
                f.write_str("one of ")?;
                for (i, tag) in tags.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "`{tag}`")?;
                }
                Ok(())
            }
        }
    }
}

/// What went wrong. Every kind but [`Other`](ErrorKind::Other) carries the
/// absolute byte offset it refers to (in the input when reading, in the
/// output when writing).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The data ended (or the enclosing bounded region ended) before a read completed.
    #[error("need {needed} bytes at {offset:#x}, {available} left")]
    UnexpectedEnd {
        /// Where the read started.
        offset: usize,
        /// How many bytes the read needed.
        needed: usize,
        /// How many bytes were left.
        available: usize,
    },
    /// A tag other than the expected one.
    #[error("expected tag {expected} at {offset:#x}, found `{found}`")]
    WrongTag {
        /// Where the tag starts.
        offset: usize,
        /// What was expected.
        expected: Expected,
        /// What the data holds.
        found: FourCC,
    },
    /// The contents of a sized region need more bytes than its size declares.
    #[error(
        "need {needed} bytes at {offset:#x}, {available} left before the end set by the {kind} {declared} at {size_offset:#x}"
    )]
    SizeOverrun {
        /// Where the read that crossed the end started.
        offset: usize,
        /// How many bytes that read needed.
        needed: usize,
        /// How many bytes were left in the region.
        available: usize,
        /// Which kind of size it was.
        kind: SizeKind,
        /// Where the size field is (or the region starts, for hand-bounded regions).
        size_offset: usize,
        /// The declared value.
        declared: u64,
    },
    /// A declared size larger than the data that is left.
    #[error("{kind} {declared} at {size_offset:#x} exceeds the {available} bytes left")]
    SizeExceedsData {
        /// Which kind of size it was.
        kind: SizeKind,
        /// Where the size field is.
        size_offset: usize,
        /// The declared value.
        declared: u64,
        /// How many bytes were left after the size field.
        available: usize,
    },
    /// The contents of a sized region ended before its declared size.
    #[error(
        "{kind} {declared} at {size_offset:#x} is larger than its contents: {consumed} bytes read, {unread} unread at {offset:#x}"
    )]
    SizeUnderrun {
        /// Where the unread bytes start.
        offset: usize,
        /// Which kind of size it was.
        kind: SizeKind,
        /// Where the size field is.
        size_offset: usize,
        /// The declared value.
        declared: u64,
        /// How many bytes of the region the contents used.
        consumed: usize,
        /// How many bytes were left over.
        unread: usize,
    },
    /// A count that cannot fit in the bytes that remain (checked before allocating).
    #[error(
        "count {count} needs at least {needed} bytes ({element_size} each) at {offset:#x}, {available} left"
    )]
    CountTooLarge {
        /// Where the counted elements start.
        offset: usize,
        /// The count found in the data.
        count: u64,
        /// The minimum encoded size of one element.
        element_size: usize,
        /// `count * element_size`, saturated.
        needed: u64,
        /// How many bytes were left.
        available: usize,
    },
    /// Bytes left over after a complete read of the whole input.
    #[error("{count} trailing bytes at {offset:#x}")]
    TrailingBytes {
        /// Where the unread bytes start.
        offset: usize,
        /// How many there are.
        count: usize,
    },
    /// A value the format does not allow.
    #[error("invalid value at {offset:#x}: {message}")]
    InvalidValue {
        /// Where the value is.
        offset: usize,
        /// What is wrong with it.
        message: Cow<'static, str>,
    },
    /// On write: the data cannot be written consistently (a field's presence
    /// disagrees with the version, a count disagrees with its array, a size overflows).
    #[error("cannot write at output offset {offset:#x}: {message}")]
    Inconsistent {
        /// The output offset the writer had reached.
        offset: usize,
        /// What disagrees with what.
        message: Cow<'static, str>,
    },
    /// Not about any byte of the input or output, so without an offset: what
    /// was asked of valid data that it cannot do (a sequence, level or layer
    /// it does not have, an edit of a chunk it lacks, an output too large for
    /// its format), or an encoder's own failure. Displays as its message alone.
    #[error("{message}")]
    Other {
        /// What cannot be done, and why.
        message: Cow<'static, str>,
    },
    /// A text format (MDL) that does not parse: where, in which block, and why.
    /// Displays as one line, e.g.
    /// `Geoset 3 > Vertices: line 120, column 7: expected a number, found "}"`.
    #[error("{}line {line}, column {column}: {message}", block_prefix(.block))]
    Text {
        /// Byte offset in the text.
        offset: usize,
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
        /// The path of blocks, outermost first (`Geoset 3 > Vertices`); may be empty.
        block: String,
        /// What is wrong.
        message: Cow<'static, str>,
    },
}

/// `"Geoset 3 > Vertices: "`, or nothing for an empty block path.
fn block_prefix(block: &str) -> String {
    if block.is_empty() {
        String::new()
    } else {
        alloc::format!("{block}: ")
    }
}

impl ErrorKind {
    /// The absolute byte offset the error refers to (0 for
    /// [`Other`](ErrorKind::Other), which refers to none).
    pub fn offset(&self) -> usize {
        match self {
            ErrorKind::UnexpectedEnd { offset, .. }
            | ErrorKind::WrongTag { offset, .. }
            | ErrorKind::SizeOverrun { offset, .. }
            | ErrorKind::SizeExceedsData {
                size_offset: offset,
                ..
            }
            | ErrorKind::SizeUnderrun { offset, .. }
            | ErrorKind::CountTooLarge { offset, .. }
            | ErrorKind::TrailingBytes { offset, .. }
            | ErrorKind::InvalidValue { offset, .. }
            | ErrorKind::Inconsistent { offset, .. }
            | ErrorKind::Text { offset, .. } => *offset,
            ErrorKind::Other { .. } => 0,
        }
    }
}

/// One step of the path from the outermost value to the place an error happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Segment {
    /// A named field (`vertices`).
    Field(&'static str),
    /// An element of an array or list (`[17]`).
    Index(usize),
    /// A tagged chunk or sub-chunk (`GEOS`, `KGTR`).
    Tag(FourCC),
}

/// A read or write error: a [`kind`](Error::kind) with its byte offset, and the
/// [`path`](Error::path) of fields that led there.
///
/// The path is collected while the error travels outwards, so a successful read
/// never pays for it. `Display` gives one line for a person:
///
/// ```
/// use format_core::{Error, ErrorKind, FourCC};
/// let e = Error::new(ErrorKind::UnexpectedEnd { offset: 0x1a2c, needed: 12, available: 4 })
///     .at_index(17)
///     .in_field("vertices")
///     .at_index(2)
///     .in_tag(FourCC::new(*b"GEOS"));
/// assert_eq!(e.to_string(), "GEOS[2].vertices[17]: need 12 bytes at 0x1a2c, 4 left");
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Error {
    inner: Box<Inner>,
}

#[derive(Clone, PartialEq, Eq)]
struct Inner {
    kind: ErrorKind,
    /// Innermost segment first (segments are pushed while unwinding).
    path: Vec<Segment>,
}

impl Error {
    /// An error of this kind with an empty path.
    #[cold]
    pub fn new(kind: ErrorKind) -> Self {
        Error {
            inner: Box::new(Inner {
                kind,
                path: Vec::new(),
            }),
        }
    }

    /// An [`ErrorKind::InvalidValue`] at `offset`.
    #[cold]
    pub fn invalid(offset: usize, message: impl Into<Cow<'static, str>>) -> Self {
        Error::new(ErrorKind::InvalidValue {
            offset,
            message: message.into(),
        })
    }

    /// An [`ErrorKind::Other`]: not about any byte (no such sequence, an
    /// edit of a missing chunk, an encoder's failure).
    ///
    /// ```
    /// use format_core::Error;
    /// let e = Error::other("no sequence \"Fly\"").in_field("sequences");
    /// assert_eq!(e.to_string(), "sequences: no sequence \"Fly\"");
    /// ```
    #[cold]
    pub fn other(message: impl Into<Cow<'static, str>>) -> Self {
        Error::new(ErrorKind::Other {
            message: message.into(),
        })
    }

    /// An [`ErrorKind::Inconsistent`] (write-side) error at output `offset`.
    #[cold]
    pub fn inconsistent(offset: usize, message: impl Into<Cow<'static, str>>) -> Self {
        Error::new(ErrorKind::Inconsistent {
            offset,
            message: message.into(),
        })
    }

    /// An [`ErrorKind::Text`]: a text format error at `line`, `column` (both
    /// 1-based, byte `offset`) inside the blocks `block` (`Geoset 3 > Vertices`).
    ///
    /// ```
    /// use format_core::Error;
    /// let e = Error::text(2301, 120, 7, "Geoset 3 > Vertices", "expected a number, found \"}\"");
    /// assert_eq!(
    ///     e.to_string(),
    ///     "Geoset 3 > Vertices: line 120, column 7: expected a number, found \"}\""
    /// );
    /// ```
    #[cold]
    pub fn text(
        offset: usize,
        line: usize,
        column: usize,
        block: impl Into<String>,
        message: impl Into<Cow<'static, str>>,
    ) -> Self {
        Error::new(ErrorKind::Text {
            offset,
            line,
            column,
            block: block.into(),
            message: message.into(),
        })
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.inner.kind
    }

    /// The absolute byte offset the error refers to (0 for
    /// [`Other`](ErrorKind::Other), which refers to none).
    pub fn offset(&self) -> usize {
        self.inner.kind.offset()
    }

    /// The path from the outermost value inwards.
    pub fn path(&self) -> impl DoubleEndedIterator<Item = Segment> + '_ {
        self.inner.path.iter().rev().copied()
    }

    /// The path as text, e.g. `GEOS[2].vertices[17]` (empty for a top-level error).
    pub fn path_string(&self) -> String {
        let mut s = String::new();
        // Writing into a String cannot fail.
        let _ = fmt::write(&mut s, format_args!("{}", PathDisplay(&self.inner.path)));
        s
    }

    /// Adds a field name in front of the path (called while the error travels outwards).
    #[cold]
    #[must_use]
    pub fn in_field(mut self, name: &'static str) -> Self {
        self.inner.path.push(Segment::Field(name));
        self
    }

    /// Adds an element index in front of the path.
    #[cold]
    #[must_use]
    pub fn at_index(mut self, index: usize) -> Self {
        self.inner.path.push(Segment::Index(index));
        self
    }

    /// Adds a chunk tag in front of the path.
    #[cold]
    #[must_use]
    pub fn in_tag(mut self, tag: FourCC) -> Self {
        self.inner.path.push(Segment::Tag(tag));
        self
    }

    /// Replaces the kind, keeping the path (used when a bounded region turns an
    /// end-of-data into a size over-run).
    #[cold]
    pub(crate) fn with_kind(mut self, kind: ErrorKind) -> Self {
        self.inner.kind = kind;
        self
    }
}

struct PathDisplay<'a>(&'a [Segment]);

impl fmt::Display for PathDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, seg) in self.0.iter().rev().enumerate() {
            match seg {
                Segment::Index(n) => write!(f, "[{n}]")?,
                Segment::Field(name) if i == 0 => f.write_str(name)?,
                Segment::Field(name) => write!(f, ".{name}")?,
                Segment::Tag(tag) if i == 0 => write!(f, "{tag}")?,
                Segment::Tag(tag) => write!(f, ".{tag}")?,
            }
        }
        Ok(())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.inner.path.is_empty() {
            write!(f, "{}", self.inner.kind)
        } else {
            write!(f, "{}: {}", PathDisplay(&self.inner.path), self.inner.kind)
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("path", &self.path_string())
            .field("kind", &self.inner.kind)
            .finish()
    }
}

impl core::error::Error for Error {}

impl From<ErrorKind> for Error {
    fn from(kind: ErrorKind) -> Self {
        Error::new(kind)
    }
}
