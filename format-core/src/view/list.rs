//! Runs of derived values: walked once with every check, viewed again on
//! each iteration.

use alloc::vec::Vec;
use core::fmt;
use core::iter::FusedIterator;

use crate::codec::EmptyElements;
use crate::{Context, Error, Reader, Result, Tagged};

use super::View;

/// A run of derived values in the input (geosets, nodes, a model's
/// tracks): where it is and how many, checked by one walk when it was
/// viewed; each element is viewed again, in place, when iterated.
pub struct ListView<'a, T: View> {
    data: &'a [u8],
    start: usize,
    /// The end of the region the elements were read in (what they see as
    /// the bytes left), not where the run ends.
    region_end: usize,
    count: usize,
    ctx: Context,
    args: T::Args,
}

impl<T: View> Clone for ListView<'_, T>
where
    T::Args: Copy,
{
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: View> Copy for ListView<'_, T> where T::Args: Copy {}

impl<'a, T: View> ListView<'a, T>
where
    T::Args: Copy,
{
    /// A list of no elements.
    pub fn empty(args: T::Args) -> Self {
        ListView {
            data: &[],
            start: 0,
            region_end: 0,
            count: 0,
            ctx: Context::new(),
            args,
        }
    }

    /// How many elements.
    #[inline]
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether there are none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The elements' views, in order.
    pub fn iter(&self) -> ListIter<'a, T> {
        let mut r = Reader::with_context(self.data, self.ctx);
        r.set_bounds(self.start, self.region_end);
        ListIter {
            r,
            left: self.count,
            args: self.args,
        }
    }

    /// The `index`th element's view (the ones before it are walked).
    pub fn get(&self, index: usize) -> Option<T::View<'a>> {
        self.iter().nth(index)
    }

    /// The owned elements.
    pub fn to_vec(&self) -> Result<Vec<T>> {
        self.iter().map(|view| T::from_view(&view)).collect()
    }

    /// Walks `count` elements (`None`: to the end of the region) with the
    /// checks and errors of [`Decode::decode_many`](crate::Decode::decode_many)
    /// and [`Decode::decode_rest`](crate::Decode::decode_rest).
    pub fn walk(r: &mut Reader<'a>, count: Option<u64>, args: T::Args) -> Result<Self> {
        let (start, region_end, ctx) = (r.pos(), r.end(), *r.ctx());
        let count = match count {
            Some(count) => {
                let count = r.check_count(count, T::MIN_SIZE)?;
                let mut empty = EmptyElements::default();
                for i in 0..count {
                    let before = r.pos();
                    T::view(r, args).map_err(|e| e.at_index(i))?;
                    empty.check::<T>(before, r.pos(), i)?;
                }
                count
            }
            None => walk_while::<T>(r, args, |r| !r.is_empty())?,
        };
        Ok(ListView {
            data: r.input(),
            start,
            region_end,
            count,
            ctx,
            args,
        })
    }
}

/// Views elements while `more` says so, as the owned reader's loop reads
/// them: every element must consume a byte.
fn walk_while<'a, T: View>(
    r: &mut Reader<'a>,
    args: T::Args,
    more: impl Fn(&Reader<'_>) -> bool,
) -> Result<usize>
where
    T::Args: Copy,
{
    let mut count = 0;
    while more(r) {
        let before = r.pos();
        T::view(r, args).map_err(|e| e.at_index(count))?;
        if r.pos() == before {
            return Err(Error::invalid(
                before,
                "an element consumed no bytes; refusing to loop forever",
            )
            .at_index(count));
        }
        count += 1;
    }
    Ok(count)
}

impl<T: View> fmt::Debug for ListView<'_, T>
where
    T::Args: Copy,
    for<'b> T::View<'b>: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a, T: View> IntoIterator for ListView<'a, T>
where
    T::Args: Copy,
{
    type Item = T::View<'a>;
    type IntoIter = ListIter<'a, T>;
    fn into_iter(self) -> ListIter<'a, T> {
        self.iter()
    }
}

/// The elements of a [`ListView`], each viewed as it is reached.
pub struct ListIter<'a, T: View> {
    r: Reader<'a>,
    left: usize,
    args: T::Args,
}

impl<'a, T: View> Iterator for ListIter<'a, T>
where
    T::Args: Copy,
{
    type Item = T::View<'a>;

    fn next(&mut self) -> Option<T::View<'a>> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        // The walk that made the list viewed these bytes with these checks;
        // a second view of them cannot fail. Were it to, the list ends.
        match T::view(&mut self.r, self.args) {
            Ok(view) => Some(view),
            Err(_) => {
                self.left = 0;
                None
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(self.left))
    }
}

impl<T: View> FusedIterator for ListIter<'_, T> where T::Args: Copy {}

/// `count` values (`None`: to the end of the region): `Vec` fields of
/// views call this.
#[inline]
pub fn view_run<'a, T: View>(
    r: &mut Reader<'a>,
    count: Option<u64>,
    args: T::Args,
) -> Result<T::Run<'a>> {
    T::view_run(r, count, args)
}

/// Values while the next tag is one `T` accepts (`#[format(tagged)]`),
/// with the checks and errors of [`decode_tagged`](crate::decode_tagged).
pub fn view_tagged<'a, T: View + Tagged>(
    r: &mut Reader<'a>,
    args: T::Args,
) -> Result<ListView<'a, T>>
where
    T::Args: Copy,
{
    let (start, region_end, ctx) = (r.pos(), r.end(), *r.ctx());
    let count = walk_while::<T>(r, args, |r| {
        r.peek_tag().is_some_and(|tag| T::accepts(tag, r.ctx()))
    })?;
    Ok(ListView {
        data: r.input(),
        start,
        region_end,
        count,
        ctx,
        args,
    })
}

/// Values of exactly `stride` bytes to the end of the region (`count =
/// size / N`), with the checks and errors of the owned reader.
pub fn view_stride<'a, T: View>(
    r: &mut Reader<'a>,
    stride: usize,
    args: T::Args,
) -> Result<T::Run<'a>> {
    let start = r.pos();
    let size = r.remaining();
    let count = crate::__private::stride_count(r, stride)?;
    let run = T::view_run(r, Some(count), args)?;
    if r.pos() - start != size {
        return Err(Error::invalid(
            start,
            alloc::format!(
                "{count} elements of {stride} bytes used {} of {size} bytes",
                r.pos() - start
            ),
        ));
    }
    Ok(run)
}
