//! A writer into a `Vec<u8>` with back-patched sizes.

use alloc::format;
use alloc::vec::Vec;

use crate::placed_write::Layout;
use crate::{Context, Error, FourCC, Plain, Result};

/// Writes little-endian data into a growing `Vec<u8>`.
///
/// Sizes that precede what they measure are written as a placeholder
/// ([`reserve_u32`](Writer::reserve_u32)) and patched once the body is written
/// ([`chunk`](Writer::chunk), [`inclusive`](Writer::inclusive)); nesting works to
/// any depth because a slot is just an offset.
///
/// ```
/// use format_core::{FourCC, Writer};
/// let mut w = Writer::new();
/// w.tag(FourCC::new(*b"MDLX"));
/// w.chunk(FourCC::new(*b"VERS"), |w| {
///     w.u32(800);
///     Ok(())
/// })?;
/// assert_eq!(w.as_bytes(), b"MDLXVERS\x04\x00\x00\x00\x20\x03\x00\x00");
/// # Ok::<(), format_core::Error>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Writer {
    pub(crate) buf: Vec<u8>,
    ctx: Context,
    /// Derived values waiting for their targets, and what they wait for
    /// (reservations, resolved in one pass where their targets are known).
    pub(crate) layout: Layout,
}

/// A reserved `u32` in the output, to be patched later.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[must_use = "a reserved size must be patched"]
pub struct SizeSlot(usize);

impl SizeSlot {
    /// The output offset of the reserved bytes.
    pub fn offset(self) -> usize {
        self.0
    }
}

macro_rules! write_scalar {
    ($($name:ident: $t:ty),* $(,)?) => {$(
        #[doc = concat!("Writes a little-endian `", stringify!($t), "`.")]
        #[inline]
        pub fn $name(&mut self, value: $t) {
            self.buf.extend_from_slice(&value.to_le_bytes());
        }
    )*};
}

impl Writer {
    /// An empty writer with the default [`Context`].
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty writer with `ctx`.
    pub fn with_context(ctx: Context) -> Self {
        Self::with_capacity(ctx, 0)
    }

    /// An empty writer with `ctx` and room for `capacity` bytes.
    pub fn with_capacity(ctx: Context, capacity: usize) -> Self {
        Writer {
            buf: Vec::with_capacity(capacity),
            ctx,
            layout: Layout::default(),
        }
    }

    /// The context (version, tag order, flags).
    #[inline]
    pub fn ctx(&self) -> &Context {
        &self.ctx
    }

    /// The context, to change it.
    #[inline]
    pub fn ctx_mut(&mut self) -> &mut Context {
        &mut self.ctx
    }

    /// The output offset of the next byte.
    #[inline]
    pub fn pos(&self) -> usize {
        self.buf.len()
    }

    /// What has been written so far.
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf
    }

    /// The output.
    pub fn into_bytes(self) -> Vec<u8> {
        self.buf
    }

    write_scalar! {
        u8: u8, i8: i8, u16: u16, i16: i16, u32: u32, i32: i32,
        u64: u64, i64: i64, f32: f32, f64: f64,
    }

    /// Makes room for at least `additional` more bytes, so a run of small
    /// writes whose total is known up front does not reallocate on the way.
    #[inline]
    pub fn reserve(&mut self, additional: usize) {
        self.buf.reserve(additional);
    }

    /// Appends `len` bytes and lets `fill` write them in place (they start
    /// zeroed): one capacity check for a whole run of fixed-size records
    /// rather than one per field.
    ///
    /// ```
    /// use format_core::Writer;
    /// let mut w = Writer::new();
    /// w.fill(4, |out| out.copy_from_slice(&[1, 2, 3, 4]));
    /// assert_eq!(w.as_bytes(), [1, 2, 3, 4]);
    /// ```
    #[inline]
    pub fn fill<R>(&mut self, len: usize, fill: impl FnOnce(&mut [u8]) -> R) -> R {
        let start = self.buf.len();
        self.buf.resize(start + len, 0);
        let (_, new) = self.buf.split_at_mut(start);
        fill(new)
    }

    /// Writes raw bytes.
    #[inline]
    pub fn bytes(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// Writes a tag in the context's [`TagOrder`](crate::TagOrder).
    #[inline]
    pub fn tag(&mut self, tag: FourCC) {
        self.buf.extend_from_slice(&tag.to_disk(self.ctx.tag_order));
    }

    /// Writes one plain value.
    #[inline]
    pub fn plain<T: Plain>(&mut self, value: &T) {
        self.plain_slice(core::slice::from_ref(value));
    }

    /// Writes plain values in bulk (one copy on little-endian targets).
    #[inline]
    pub fn plain_slice<T: Plain>(&mut self, items: &[T]) {
        T::write_slice_le(items, &mut self.buf);
    }

    /// Writes `n` as a `u32` count or size, failing if it does not fit.
    pub fn count_u32(&mut self, n: usize, what: &'static str) -> Result<()> {
        let value = self.fit_u32(n, what)?;
        self.u32(value);
        Ok(())
    }

    fn fit_u32(&self, n: usize, what: &'static str) -> Result<u32> {
        u32::try_from(n).map_err(|_| {
            Error::inconsistent(self.pos(), format!("{what} {n} does not fit in a u32"))
        })
    }

    /// Reserves a `u32` to be patched later with [`patch_u32`](Writer::patch_u32).
    #[inline]
    pub fn reserve_u32(&mut self) -> SizeSlot {
        let slot = SizeSlot(self.buf.len());
        self.buf.extend_from_slice(&[0; 4]);
        slot
    }

    /// Writes `value` into a reserved slot.
    pub fn patch_u32(&mut self, slot: SizeSlot, value: u32) -> Result<()> {
        match self
            .buf
            .get_mut(slot.0..)
            .and_then(|b| b.first_chunk_mut::<4>())
        {
            Some(bytes) => {
                *bytes = value.to_le_bytes();
                Ok(())
            }
            None => Err(Error::inconsistent(
                slot.0,
                "size slot lies outside the output written so far",
            )),
        }
    }

    /// Patches `slot` with the number of bytes written after it (an exclusive
    /// size, as in a chunk header).
    pub fn patch_size_after(&mut self, slot: SizeSlot) -> Result<()> {
        let len = self.pos().saturating_sub(slot.0 + 4);
        let value = self.fit_u32(len, "chunk size")?;
        self.patch_u32(slot, value)
    }

    /// Patches `slot` with the number of bytes from the slot itself to here (an
    /// inclusive size).
    pub fn patch_size_from(&mut self, slot: SizeSlot) -> Result<()> {
        let len = self.pos().saturating_sub(slot.0);
        let value = self.fit_u32(len, "inclusive size")?;
        self.patch_u32(slot, value)
    }

    /// Writes `tag`, a `u32` size, then `body`, and patches the size to the body's
    /// length (the chunk header convention: the size excludes the 8-byte header).
    pub fn chunk(&mut self, tag: FourCC, body: impl FnOnce(&mut Self) -> Result<()>) -> Result<()> {
        self.tag(tag);
        self.sized(body)
    }

    /// Writes a `u32` size then `body`, and patches the size to the body's length.
    pub fn sized(&mut self, body: impl FnOnce(&mut Self) -> Result<()>) -> Result<()> {
        let slot = self.reserve_u32();
        body(self)?;
        self.patch_size_after(slot)
    }

    /// Writes a `u32` inclusive size then `body`, and patches the size to count
    /// itself and the body.
    pub fn inclusive(&mut self, body: impl FnOnce(&mut Self) -> Result<()>) -> Result<()> {
        let slot = self.reserve_u32();
        body(self)?;
        self.patch_size_from(slot)
    }
}
