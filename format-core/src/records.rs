//! Fixed-size records and the struct-of-arrays layout
//! (`#[format(split(...))]`): one run of records on disk, each a head part
//! and (when a condition holds) a tail part, read into two arrays so that
//! each takes in memory exactly its bytes on disk (an MDX track's keys and
//! tangents).

use alloc::format;
use alloc::vec::Vec;

use crate::{Decode, Error, Plain, Reader, Result, Writer};

/// A value of a fixed size on disk, read from and written to a run of
/// records whose length was checked once for the whole run: every [`Plain`]
/// type, and structs derived with `#[format(record)]` (each field a
/// `Record`, the size their sum).
///
/// ```
/// use format_core::Record;
/// assert_eq!(<[f32; 3] as Record>::SIZE, 12);
/// assert_eq!(u16::read_record(&[1, 0, 9]), 1);
/// let mut out = [0u8; 4];
/// assert_eq!(7u32.write_record(&mut out), Some(()));
/// assert_eq!(out, [7, 0, 0, 0]);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a fixed-size record",
    label = "a field of a `#[format(record)]` struct, or an element of a `split` list, is a \
             `Plain` type or a `#[format(record)]` struct"
)]
pub trait Record: Sized {
    /// The encoded size in bytes.
    const SIZE: usize;

    /// Decodes one value from the first [`SIZE`](Record::SIZE) bytes of
    /// `bytes`. The caller has checked the run, so `bytes` holds them; bytes
    /// that are missing all the same read as zeros (never a panic), which
    /// keeps the bulk loop free of error paths.
    fn read_record(bytes: &[u8]) -> Self;

    /// Encodes this value into the first [`SIZE`](Record::SIZE) bytes of
    /// `out`, or returns `None` (having written a prefix at most) if `out`
    /// is shorter.
    fn write_record(&self, out: &mut [u8]) -> Option<()>;
}

impl<T: Plain> Record for T {
    const SIZE: usize = core::mem::size_of::<T>();

    #[inline(always)]
    fn read_record(bytes: &[u8]) -> Self {
        T::read_le(bytes).unwrap_or_else(T::zeroed)
    }

    #[inline(always)]
    fn write_record(&self, out: &mut [u8]) -> Option<()> {
        self.write_le(out)
    }
}

/// The bytes from `at` on (empty past the end): how a derived record reads
/// its fields at their offsets.
#[doc(hidden)]
#[inline(always)]
pub fn from(bytes: &[u8], at: usize) -> &[u8] {
    bytes.get(at..).unwrap_or(&[])
}

/// The same, for writing.
#[doc(hidden)]
#[inline(always)]
pub fn from_mut(out: &mut [u8], at: usize) -> Option<&mut [u8]> {
    out.get_mut(at..)
}

/// `count` records, each an `H` followed by a `T` when `tails` holds, read
/// into two arrays (the second empty without tails). The count is checked
/// against the bytes left before anything is allocated; then the records
/// are decoded from one slice. Input that ends inside the records is read
/// one record and field at a time, so the error names the element and field
/// that ran out (`[2].in_tan`).
///
/// ```
/// use format_core::{Reader, records::decode_split};
/// let data = [1u8, 0, 10, 0, 2, 0, 20, 0];
/// let (heads, tails) = decode_split::<u16, u16>(&mut Reader::new(&data), 2, true)?;
/// assert_eq!((heads, tails), (vec![1, 2], vec![10, 20]));
/// let (heads, tails) = decode_split::<u16, u16>(&mut Reader::new(&data), 4, false)?;
/// assert_eq!((heads.len(), tails.len()), (4, 0));
/// assert!(decode_split::<u16, u16>(&mut Reader::new(&data), 3, true).is_err());
/// # Ok::<(), format_core::Error>(())
/// ```
pub fn decode_split<H, T>(r: &mut Reader<'_>, count: u64, tails: bool) -> Result<(Vec<H>, Vec<T>)>
where
    H: Record + Decode<Args = ()>,
    T: Record + Decode<Args = ()>,
{
    let size = H::SIZE + if tails { T::SIZE } else { 0 };
    let Ok(bytes) = r.records(usize::try_from(count).unwrap_or(usize::MAX), size) else {
        return decode_split_each(r, count, tails);
    };
    // Every record has exactly `size` bytes: `collect` allocates once and
    // the reads have no error path.
    let records = bytes.chunks_exact(size.max(1));
    let heads = records.clone().map(H::read_record).collect();
    let rest = match tails {
        true => records
            .map(|rec| T::read_record(from(rec, H::SIZE)))
            .collect(),
        false => Vec::new(),
    };
    Ok((heads, rest))
}

/// The records one at a time, for input that ends inside them: a count the
/// bytes cannot hold even without tails is refused before anything is
/// allocated; otherwise the element and field that ran out are named.
#[cold]
fn decode_split_each<H, T>(r: &mut Reader<'_>, count: u64, tails: bool) -> Result<(Vec<H>, Vec<T>)>
where
    H: Record + Decode<Args = ()>,
    T: Record + Decode<Args = ()>,
{
    let count = r.check_count(count, H::SIZE)?;
    let mut heads = Vec::with_capacity(count);
    let mut rest = Vec::new();
    for i in 0..count {
        heads.push(H::decode(r, ()).map_err(|e| e.at_index(i))?);
        if tails {
            rest.push(T::decode(r, ()).map_err(|e| e.at_index(i))?);
        }
    }
    Ok((heads, rest))
}

/// Writes `heads` as a run of records, each followed by its element of
/// `tails` when `with_tails` holds: `tails` must then have one element per
/// head, and be empty otherwise (an error naming `tails_field`, which says
/// what `condition` decided). The run is filled in place after one capacity
/// check.
///
/// ```
/// use format_core::{Writer, records::encode_split};
/// let mut w = Writer::new();
/// encode_split(&mut w, &[1u16, 2], &[10u16, 20], true, "tails", "with tails")?;
/// assert_eq!(w.as_bytes(), [1, 0, 10, 0, 2, 0, 20, 0]);
/// let err = encode_split::<u16, u16>(&mut w, &[1], &[], true, "tails", "with tails").unwrap_err();
/// assert!(err.to_string().contains("0 elements for 1 records"), "{err}");
/// encode_split::<u16, u16>(&mut w, &[3], &[], false, "tails", "with tails")?;
/// assert_eq!(w.as_bytes(), [1, 0, 10, 0, 2, 0, 20, 0, 3, 0]);
/// # Ok::<(), format_core::Error>(())
/// ```
pub fn encode_split<H, T>(
    w: &mut Writer,
    heads: &[H],
    tails: &[T],
    with_tails: bool,
    tails_field: &'static str,
    condition: &'static str,
) -> Result<()>
where
    H: Record,
    T: Record,
{
    check_split(
        w,
        heads.len(),
        tails.len(),
        with_tails,
        tails_field,
        condition,
    )?;
    let size = H::SIZE + if with_tails { T::SIZE } else { 0 };
    let filled = w.fill(heads.len() * size, |out| {
        let records = out.chunks_exact_mut(size.max(1));
        if with_tails {
            records.zip(heads.iter().zip(tails)).all(|(rec, (h, t))| {
                h.write_record(rec).is_some()
                    && from_mut(rec, H::SIZE)
                        .and_then(|rest| t.write_record(rest))
                        .is_some()
            })
        } else {
            records
                .zip(heads)
                .all(|(rec, h)| h.write_record(rec).is_some())
        }
    });
    if filled {
        Ok(())
    } else {
        Err(Error::inconsistent(
            w.pos(),
            "records shorter than their size",
        ))
    }
}

/// Checks that a split list's tails agree with its heads: one per head
/// when `with_tails` holds, none otherwise; the error names `tails_field`
/// and says what `condition` decided.
///
/// ```
/// use format_core::{Writer, records::check_split};
/// let w = Writer::new();
/// assert!(check_split(&w, 2, 2, true, "tangents", "has_tangents").is_ok());
/// let err = check_split(&w, 2, 1, false, "tangents", "has_tangents").unwrap_err();
/// assert!(err.to_string().starts_with("tangents: "), "{err}");
/// ```
#[inline]
pub fn check_split(
    w: &Writer,
    heads: usize,
    tails: usize,
    with_tails: bool,
    tails_field: &'static str,
    condition: &'static str,
) -> Result<()> {
    let expected = if with_tails { heads } else { 0 };
    if tails == expected {
        return Ok(());
    }
    Err(split_error(
        w.pos(),
        [heads, tails],
        with_tails,
        [tails_field, condition],
    ))
}

/// [`check_split`]'s error, out of the way of every track's write.
#[cold]
#[inline(never)]
fn split_error(
    at: usize,
    [heads, tails]: [usize; 2],
    with_tails: bool,
    [tails_field, condition]: [&'static str; 2],
) -> Error {
    let message = if with_tails {
        format!(
            "{tails} elements for {heads} records: `{condition}` holds, so each record needs one"
        )
    } else {
        format!("{tails} elements, but `{condition}` does not hold: the records have none")
    };
    Error::inconsistent(at, message).in_field(tails_field)
}

/// The length of a list whose count may claim more elements than the
/// bytes left hold (`#[format(count = ..., clamp)]`): the count if they hold
/// it; otherwise, in lenient mode, the whole elements of `element_size`
/// bytes that are there, with a diagnostic at `count_at` (where the count is
/// stored), and in strict mode the error the diagnostic reports; `path`
/// places it (`BPOS.bind_pose`), since a diagnostic is not placed by the
/// fields and chunks around it as an error is.
///
/// ```
/// use format_core::{Context, Mode, Reader, records::clamp_count};
/// let data = [0u8; 10];
/// let path = |e: format_core::Error| e.in_field("values");
/// assert!(clamp_count(&mut Reader::new(&data), 3, 4, 0, path).is_err());
/// let mut r = Reader::with_context(&data, Context::new().with_mode(Mode::Lenient));
/// assert_eq!(clamp_count(&mut r, 3, 4, 0, path)?, 2);
/// let message = &r.take_diagnostics()[0].message;
/// assert!(message.starts_with("values: ") && message.contains("read 2"), "{message}");
/// # Ok::<(), format_core::Error>(())
/// ```
pub fn clamp_count(
    r: &mut Reader<'_>,
    count: u64,
    element_size: usize,
    count_at: usize,
    path: impl FnOnce(Error) -> Error,
) -> Result<u64> {
    let available = (r.remaining() / element_size.max(1)) as u64;
    if count <= available {
        return Ok(count);
    }
    let error = path(Error::invalid(
        count_at,
        format!(
            "count {count} is more than the {available} elements of {element_size} bytes \
             the bytes left hold"
        ),
    ));
    r.recover(
        error,
        format!("read {available} elements; the count will be written as {available}"),
    )?;
    Ok(available)
}
