//! The one layout mechanism of the writer: a list of reservations.
//!
//! Every offset, size or count that is derived on write from where things
//! land is a [`Reservation`]: a reserved `u32` in the output (the *slot*),
//! what its value is derived from (the *target*), the value a file said
//! (the *kept value*, see [`Kept`](crate::Kept)), and the *group* of values
//! kept or derived together. Reservations wait in one list until everything
//! their targets depend on is written, then are resolved in one pass, where
//! the single decision "are the kept values still true?" is made
//! ([`kept::group_holds`](crate::kept::group_holds)).
//!
//! What a target depends on decides when it is resolved:
//!
//! - offsets and sizes of what a value writes in sequence, and computed
//!   counts: at the end of the value's [`scope`](Writer::scope);
//! - an element of the enclosing list (`parent[...]`): at the end of that
//!   list ([`with_siblings`](Writer::with_siblings));
//! - a part placed by offset: at the end of its *region*. A placed part is
//!   written where the writer is when its field comes, as a node of the
//!   innermost region; when the region ends its bytes are laid out, each
//!   node's own bytes after its parent's (a fresh layout), or where a file had
//!   them while that still fits (a kept [`Placement`]), and the positions of
//!   every reservation made inside follow.
//!
//! A value whose target is known when it is reserved (a computed count, or
//! bytes no region will move) is written then: alone, or as its group's
//! verdict so far says, its group's list entries rewritten at the end of the
//! scope only if a later value of the group changed the verdict.
//!
//! A type without offsets, sizes or computed counts makes no reservation, and
//! its generated code calls none of this.

use alloc::vec;
use alloc::vec::Vec;

use crate::anchor::{Anchor, Siblings};
use crate::kept::{self, KeptValue, Placement};
use crate::{Error, FourCC, Result, SizeSlot, Writer};

/// What a `parent[...]` offset or size names in the enclosing list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SiblingTarget {
    /// The element's tag.
    pub tag: FourCC,
    /// Which element with that tag (`None`: the first).
    pub nth: Option<usize>,
    /// An offset from `base` (`Some`), or a length (`None`).
    pub base: Option<usize>,
    /// For a length: bytes not counted (8 for a chunk's body without its header).
    pub minus: usize,
}

impl SiblingTarget {
    /// The value the enclosing list's elements give (`None`: no such element,
    /// or no list).
    pub fn derive(&self, siblings: Option<&Siblings>) -> Option<u32> {
        let found = siblings?.nth(self.tag, self.nth.unwrap_or(0))?;
        let value = match self.base {
            Some(base) => found.start.checked_sub(base)?,
            None => found.len.checked_sub(self.minus)?,
        };
        u32::try_from(value).ok()
    }
}

/// A placed part: a node of the innermost region.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PartId(usize);

/// What a reserved value is derived from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// A value known when it is reserved (a computed count), or nothing
    /// (`None`: the target is absent, whose fresh value is 0).
    Value(Option<u32>),
    /// `len` bytes written from `start`: their offset from `base` (`Some`),
    /// or their length less `minus` (`None`).
    Span {
        /// Where the bytes start.
        start: usize,
        /// How many.
        len: usize,
        /// The offset's base, or `None` for a length.
        base: Option<usize>,
        /// Bytes not counted in a length.
        minus: usize,
    },
    /// An element of the enclosing list, known once the list is written.
    Sibling(SiblingTarget),
    /// A placed part of the innermost region: its offset from `base`
    /// (`Some`), or its length (`None`), known once the region is laid out.
    Part {
        /// The part.
        part: PartId,
        /// The offset's base, or `None` for a length.
        base: Option<usize>,
    },
}

/// The values of one struct kept or derived together, or `ALONE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Group(u32);

impl Group {
    /// A value decided on its own (an entry of a table of placed parts, a
    /// computed count of another width than `u32`).
    pub const ALONE: Group = Group(0);
}

/// One reserved value waiting for its target (see the [module](self) docs).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Reservation {
    /// The output offset of the reserved `u32` (`None`: a value not written,
    /// which still takes part in its group's decision).
    slot: Option<usize>,
    target: Target,
    kept: Option<KeptValue>,
    group: Group,
}

/// A list being written whose elements `parent[...]` values name.
#[derive(Debug, Clone, Copy)]
struct List {
    anchors: usize,
    reservations: usize,
}

/// A region whose parts are placed by offset, being written.
#[derive(Debug, Clone, Default)]
struct Region {
    start: usize,
    reservations: usize,
    anchors: usize,
    /// Node 0 is the region itself, then every part in the order it was
    /// opened; each node's write-order span and its parent.
    nodes: Vec<Node>,
    /// The nodes being written, innermost last.
    open: Vec<usize>,
}

#[derive(Debug, Clone, Copy)]
struct Node {
    parent: usize,
    start: usize,
    end: usize,
}

/// The layout state of a [`Writer`]: reservations, the anchors of the lists
/// being written, and the open lists and regions.
#[derive(Debug, Clone, Default)]
pub(crate) struct Layout {
    reservations: Vec<Reservation>,
    pub(crate) anchors: Vec<Anchor>,
    lists: Vec<List>,
    regions: Vec<Region>,
    groups: u32,
    /// The kept values of one group being reserved outside any region, each
    /// written as the group's verdict so far says as it comes: the last
    /// reservations of the list, from `first` to `end`.
    open: Option<OpenGroup>,
}

/// A group whose values are written as they come (see [`Layout::open`]).
#[derive(Debug, Clone, Copy)]
struct OpenGroup {
    group: Group,
    first: usize,
    end: usize,
    verdict: kept::Verdict,
}

impl Writer {
    /// Records that an element of a list being written starts at `start` and
    /// is `len` bytes long (see [`Reader::push_anchor`](crate::Reader::push_anchor)).
    #[inline]
    pub fn push_anchor(&mut self, tag: FourCC, start: usize, len: usize) {
        self.layout.anchors.push(Anchor { tag, start, len });
    }

    /// Runs `body` as a scope: the values it reserves are resolved once it
    /// ends (those waiting for an enclosing list or region wait on), and the
    /// anchors it records are forgotten.
    ///
    /// ```
    /// use format_core::{FourCC, Writer};
    /// let mut w = Writer::new();
    /// w.scope(|w| {
    ///     w.push_anchor(FourCC::new(*b"MVER"), 0, 12);
    ///     Ok(())
    /// })?;
    /// # Ok::<(), format_core::Error>(())
    /// ```
    #[inline]
    pub fn scope<T>(&mut self, body: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        let (anchors, reservations) = (self.layout.anchors.len(), self.layout.reservations.len());
        let value = body(self)?;
        self.settle(reservations)?;
        self.layout.anchors.truncate(anchors);
        Ok(value)
    }

    /// Writes a list with `body`, which records each element's anchor
    /// ([`push_anchor`](Self::push_anchor)); then resolves the `parent[...]`
    /// offsets and sizes its elements reserved against where the elements
    /// landed.
    pub fn with_siblings(&mut self, body: impl FnOnce(&mut Self) -> Result<()>) -> Result<()> {
        let list = List {
            anchors: self.layout.anchors.len(),
            reservations: self.layout.reservations.len(),
        };
        self.layout.lists.push(list);
        let written = body(self);
        self.layout.lists.pop();
        written?;
        let layout = &mut self.layout;
        let waiting = layout
            .reservations
            .get(list.reservations..)
            .unwrap_or_default();
        // Most lists (a chunk's sub-chunks) have nothing naming an element:
        // no index of their anchors to build.
        if waiting.iter().any(is_sibling) {
            let siblings = Siblings::new(
                layout
                    .anchors
                    .get(list.anchors..)
                    .unwrap_or_default()
                    .to_vec(),
            );
            for r in layout.reservations.iter_mut().skip(list.reservations) {
                if let Target::Sibling(t) = r.target {
                    r.target = Target::Value(t.derive(Some(&siblings)));
                }
            }
        }
        layout.anchors.truncate(list.anchors);
        self.settle(list.reservations)
    }

    /// Runs `body` as a region whose parts are placed by offset ([`part`](Self::part)):
    /// once it ends, each part's bytes come after the bytes of what placed it
    /// (its parent part, or the region's inline part), in the order the parts
    /// were written, unless `kept`, where a file had them, still fits them
    /// (the same parts with the same lengths, overlapping parts agreeing on
    /// their shared bytes). Then the offsets and sizes of the parts are
    /// resolved.
    pub(crate) fn region<T>(
        &mut self,
        kept: Option<&Placement>,
        body: impl FnOnce(&mut Self) -> Result<T>,
    ) -> Result<T> {
        let start = self.pos();
        self.layout.regions.push(Region {
            start,
            reservations: self.layout.reservations.len(),
            anchors: self.layout.anchors.len(),
            nodes: vec![Node {
                parent: 0,
                start,
                end: start,
            }],
            open: vec![0],
        });
        let depth = self.layout.regions.len();
        let written = body(self);
        if self.layout.regions.len() != depth {
            return Err(Error::inconsistent(
                self.pos(),
                "a region ended while an inner one was still open",
            ));
        }
        let Some(region) = self.layout.regions.pop() else {
            return Err(Error::inconsistent(self.pos(), "no region to end"));
        };
        let value = written?;
        self.end_region(region, kept)?;
        Ok(value)
    }

    /// [`region`](Self::region) if no region is open, else `body` alone: a
    /// value with placed parts inside a region places them there.
    #[inline]
    pub(crate) fn region_if_none<T>(
        &mut self,
        body: impl FnOnce(&mut Self) -> Result<T>,
    ) -> Result<T> {
        if self.layout.regions.is_empty() {
            self.region(None, body)
        } else {
            body(self)
        }
    }

    /// Writes a part placed by offset with `body`, as a node of the innermost
    /// region (its bytes are laid out when the region ends); the parts it
    /// places itself are its children.
    pub(crate) fn part(&mut self, body: impl FnOnce(&mut Self) -> Result<()>) -> Result<PartId> {
        let start = self.pos();
        let Some(region) = self.layout.regions.last_mut() else {
            return Err(Error::inconsistent(
                start,
                "a placed part written outside a region",
            ));
        };
        let parent = region.open.last().copied().unwrap_or(0);
        let id = region.nodes.len();
        region.nodes.push(Node {
            parent,
            start,
            end: start,
        });
        region.open.push(id);
        let written = body(self);
        let end = self.pos();
        if let Some(region) = self.layout.regions.last_mut() {
            region.open.pop();
            if let Some(node) = region.nodes.get_mut(id) {
                node.end = end;
            }
        }
        written.map(|()| PartId(id))
    }

    /// A new group: values of one struct, kept or derived together.
    #[inline]
    pub(crate) fn new_group(&mut self) -> Group {
        self.layout.groups = self.layout.groups.wrapping_add(1).max(1);
        Group(self.layout.groups)
    }

    /// Reserves a value: `slot` (the `u32` reserved for it, `None` for a value
    /// not written that still takes part in its group's decision) is written
    /// once `target` is known, with `kept` (what the file said) while every
    /// kept value of `group` still holds. Outside a list a `parent[...]`
    /// target is absent.
    #[inline(always)]
    pub(crate) fn reserve_value(
        &mut self,
        slot: Option<SizeSlot>,
        target: Target,
        kept: Option<KeptValue>,
        group: Group,
    ) {
        let target = match target {
            Target::Sibling(_) if self.layout.lists.is_empty() => Target::Value(None),
            other => other,
        };
        // A target known now: a value, or bytes no region will move (what
        // they give is kept in place of them).
        let known = match target {
            Target::Value(value) => Some(value),
            Target::Span { .. } if self.layout.regions.is_empty() => Some(now(&target)),
            _ => None,
        };
        if let Some(value) = known {
            // A value that takes part in no group's decision with others (it
            // keeps nothing, so it is written as its data gives it, or it is
            // decided alone) is resolved now rather than at the end of its
            // scope. Inside a region it moves with its bytes.
            if kept.is_none() || group == Group::ALONE {
                let Some(slot) = slot else {
                    return;
                };
                // (A slot outside the output waits, to be reported where the
                // scope ends.)
                if let Some(bytes) = self
                    .buf
                    .get_mut(slot.offset()..)
                    .and_then(|b| b.first_chunk_mut())
                {
                    let holds = kept::group_holds([(kept, value)]);
                    *bytes = kept::decide(kept, value, holds).to_le_bytes();
                    return;
                }
            } else if self.layout.regions.is_empty() {
                self.reserve_kept(slot, value, kept, group);
                return;
            }
        }
        let reservation = Reservation {
            slot: slot.map(SizeSlot::offset),
            target: known.map_or(target, Target::Value),
            kept,
            group,
        };
        self.layout.reservations.push(reservation);
    }

    /// Reserves a kept value of `group` whose target is known (`now`), outside
    /// any region: it is written now as the group's verdict so far says (as
    /// read while every kept value of the group taken so far holds), and
    /// recorded, so that the end of its scope has only to write again, as
    /// derived, what was written as read if a later value of the group
    /// changed (see [`settle`](Self::settle)).
    #[inline]
    fn reserve_kept(
        &mut self,
        slot: Option<SizeSlot>,
        now: Option<u32>,
        kept: Option<KeptValue>,
        group: Group,
    ) {
        let layout = &mut self.layout;
        let len = layout.reservations.len();
        let mut open = match layout.open {
            Some(open) if open.group == group && open.end == len => open,
            _ => OpenGroup {
                group,
                first: len,
                end: len,
                verdict: kept::Verdict::new(),
            },
        };
        open.verdict.add(kept, now);
        let written = match slot {
            None => true,
            Some(slot) => match self
                .buf
                .get_mut(slot.offset()..)
                .and_then(|b| b.first_chunk_mut())
            {
                Some(bytes) => {
                    *bytes = kept::decide(kept, now, !open.verdict.changed()).to_le_bytes();
                    true
                }
                // (Reported where the scope ends.)
                None => false,
            },
        };
        open.end = len + 1;
        layout.open = written.then_some(open);
        layout.reservations.push(Reservation {
            slot: slot.map(SizeSlot::offset),
            target: Target::Value(now),
            kept,
            group,
        });
    }

    /// Resolves the reservations made from `from` on that are ready: none
    /// while a region is open (its layout moves them), and none waiting for
    /// a list.
    fn settle(&mut self, from: usize) -> Result<()> {
        let layout = &mut self.layout;
        if !layout.regions.is_empty() || layout.reservations.len() <= from {
            return Ok(());
        }
        // One group written as it came ([`reserve_kept`](Self::reserve_kept)):
        // only what was written as read before one of its values changed is
        // written again.
        let open = layout.open.take();
        if let Some(open) = open
            && open.first == from
            && open.end == layout.reservations.len()
        {
            let ready = layout.reservations.get(from..).unwrap_or_default();
            if !open.verdict.holds() {
                for r in ready {
                    if let (Some(slot), Some(_)) = (r.slot, r.kept) {
                        write_at(
                            &mut self.buf,
                            0,
                            slot,
                            kept::decide(r.kept, now(&r.target), false),
                        )?;
                    }
                }
            }
            layout.reservations.truncate(from);
            return Ok(());
        }
        // What waits for a list stays, in its order, before what is ready.
        let waiting = wait_first(&mut layout.reservations, from, is_sibling);
        resolve(
            &mut self.buf,
            0,
            layout.reservations.get(waiting..).unwrap_or_default(),
            |t| *t,
        )?;
        layout.reservations.truncate(waiting);
        Ok(())
    }

    fn end_region(&mut self, region: Region, kept: Option<&Placement>) -> Result<()> {
        let start = region.start;
        let end = self.pos();
        let mut nodes = region.nodes;
        if let Some(root) = nodes.first_mut() {
            root.end = end;
        }
        let plan = Plan::new(&nodes);
        let outer = !self.layout.regions.is_empty();
        let from = region.reservations.min(self.layout.reservations.len());
        // What waits (a `parent[...]` value, or everything while an outer
        // region is open) goes first, in its order; with no region around, the
        // rest is written into the region's bytes as written (its slots stay
        // where they were written until the bytes are laid out), each target
        // taken at its laid-out place.
        let waiting = wait_first(&mut self.layout.reservations, from, |r| {
            outer || is_sibling(r)
        });
        let resolve_at = |buf: &mut Vec<u8>, ready: &[Reservation], finals: &[usize], total| {
            resolve(
                buf.get_mut(start..).unwrap_or_default(),
                start,
                ready,
                |t| plan.moved_target(t, start, end, finals, total),
            )
        };
        let ready = self.layout.reservations.get(waiting..).unwrap_or_default();
        // A kept layout is tried first. Its values are written in place: if
        // it does not fit after all, the fresh layout writes every one of them
        // again.
        let mut laid: Option<(Option<Vec<u8>>, Vec<usize>, usize)> = None;
        if let Some(kept) = kept
            && let Some(finals) = plan.kept_finals(kept)
        {
            let total = kept.len as usize;
            resolve_at(&mut self.buf, ready, &finals, total)?;
            let region_bytes = self.buf.get(start..).unwrap_or_default();
            if let Some(out) = plan.assemble_kept(region_bytes, start, &finals, kept) {
                laid = Some((Some(out), finals, total));
            }
        }
        let (bytes, finals, total) = match laid {
            Some(done) => done,
            None => {
                let finals = plan.fresh_finals();
                let total = plan.total();
                resolve_at(&mut self.buf, ready, &finals, total)?;
                (
                    plan.assemble_fresh(&self.buf, start, &finals),
                    finals,
                    total,
                )
            }
        };
        if let Some(bytes) = bytes {
            self.buf.truncate(start);
            self.buf.extend_from_slice(&bytes);
        }
        // What waits stays, its target and its slot at their laid-out place.
        let reservations = &mut self.layout.reservations;
        reservations.truncate(waiting);
        for r in reservations.iter_mut().skip(from) {
            r.target = plan.moved_target(&r.target, start, end, &finals, total);
            r.slot = r.slot.map(|p| plan.map(p, start, end, &finals, total));
        }
        self.layout.open = None;
        // Anchors recorded inside move with their bytes.
        for a in self.layout.anchors.iter_mut().skip(region.anchors) {
            a.start = plan.map(a.start, start, end, &finals, total);
        }
        Ok(())
    }
}

/// Writes every reservation of `ready` into `buf` (which holds the output
/// from `origin` on), its target as `target_at` gives it (where a region's
/// layout puts it), each group's kept values as read while they all still
/// hold ([`kept::group_holds`]), each value as [`kept::decide`] says.
fn resolve(
    buf: &mut [u8],
    origin: usize,
    ready: &[Reservation],
    target_at: impl Fn(&Target) -> Target,
) -> Result<()> {
    let Some(first) = ready.first() else {
        return Ok(());
    };
    let now_of = |r: &Reservation| now(&target_at(&r.target));
    // Most of the time the values of one struct come together: one group,
    // decided once, without allocating. (Only kept values take part in a
    // group's decision: a group without one does not hold.)
    if first.group != Group::ALONE && ready.iter().all(|r| r.group == first.group) {
        let holds = kept::group_holds(
            ready
                .iter()
                .filter(|r| r.kept.is_some())
                .map(|r| (r.kept, now_of(r))),
        );
        for r in ready {
            if let Some(slot) = r.slot {
                write_at(buf, origin, slot, kept::decide(r.kept, now_of(r), holds))?;
            }
        }
        return Ok(());
    }
    let mut pairs: Vec<(Group, Option<KeptValue>, Option<u32>)> = ready
        .iter()
        .filter(|r| r.group != Group::ALONE && r.kept.is_some())
        .map(|r| (r.group, r.kept, now_of(r)))
        .collect();
    pairs.sort_by_key(|(g, _, _)| *g);
    let verdicts: Vec<(Group, bool)> = pairs
        .chunk_by(|a, b| a.0 == b.0)
        .filter_map(|run| {
            let holds = kept::group_holds(run.iter().map(|(_, k, n)| (*k, *n)));
            run.first().map(|(group, _, _)| (*group, holds))
        })
        .collect();
    for r in ready {
        let Some(slot) = r.slot else { continue };
        let now = now_of(r);
        let holds = r.kept.is_some()
            && if r.group == Group::ALONE {
                kept::group_holds([(r.kept, now)])
            } else {
                verdicts
                    .binary_search_by_key(&r.group, |(g, _)| *g)
                    .ok()
                    .and_then(|i| verdicts.get(i))
                    .is_some_and(|(_, holds)| *holds)
            };
        write_at(buf, origin, slot, kept::decide(r.kept, now, holds))?;
    }
    Ok(())
}

/// Writes `value` at output offset `slot` of `buf` (which holds the output
/// from `origin` on).
#[inline]
fn write_at(buf: &mut [u8], origin: usize, slot: usize, value: u32) -> Result<()> {
    match slot
        .checked_sub(origin)
        .and_then(|at| buf.get_mut(at..))
        .and_then(|b| b.first_chunk_mut::<4>())
    {
        Some(bytes) => {
            *bytes = value.to_le_bytes();
            Ok(())
        }
        None => Err(Error::inconsistent(
            slot,
            "a reserved value lies outside the output written so far",
        )),
    }
}

/// Moves the reservations from `from` on that `waits` to the front of that
/// tail, in their order (those that do not, after them, in any order), and
/// returns where the others start.
#[inline]
fn wait_first(
    reservations: &mut [Reservation],
    from: usize,
    waits: impl Fn(&Reservation) -> bool,
) -> usize {
    let mut waiting = from;
    for i in from..reservations.len() {
        if reservations.get(i).is_some_and(&waits) {
            reservations.swap(waiting, i);
            waiting += 1;
        }
    }
    waiting
}

/// A value waiting for the enclosing list.
#[inline]
fn is_sibling(r: &Reservation) -> bool {
    matches!(r.target, Target::Sibling(_))
}

/// What a resolved target gives now.
fn now(target: &Target) -> Option<u32> {
    match *target {
        Target::Value(v) => v,
        Target::Span {
            start,
            len,
            base,
            minus,
        } => {
            let value = match base {
                Some(base) => start.checked_sub(base)?,
                None => len.checked_sub(minus)?,
            };
            u32::try_from(value).ok()
        }
        Target::Sibling(_) | Target::Part { .. } => None,
    }
}

/// A region's nodes, cut into the pieces of each node's own bytes (its span
/// without its children's), in the order of a fresh layout.
struct Plan {
    /// `(write start, write end, node, offset in the node's own bytes)`, by node.
    pieces: Vec<(usize, usize, usize, usize)>,
    /// Indices into `pieces`, by write start.
    by_start: Vec<usize>,
    /// Each node's own length.
    own: Vec<usize>,
    /// Each node's pieces, as a range of `pieces` (a node's pieces are
    /// consecutive).
    node_pieces: Vec<(usize, usize)>,
}

impl Plan {
    fn new(nodes: &[Node]) -> Plan {
        let mut pieces = Vec::with_capacity(nodes.len() * 2);
        let mut own = vec![0usize; nodes.len()];
        let mut node_pieces = vec![(0usize, 0usize); nodes.len()];
        for (n, node) in nodes.iter().enumerate() {
            let first = pieces.len();
            let mut cursor = node.start;
            let mut offset = 0;
            // Nodes are in pre-order: the children of `n` are the following
            // nodes whose parent is `n`, until one whose parent comes before it.
            let children = nodes
                .iter()
                .enumerate()
                .skip(n + 1)
                .take_while(|(_, c)| c.parent >= n)
                .filter(|(_, c)| c.parent == n);
            for (_, child) in children {
                if child.start > cursor {
                    pieces.push((cursor, child.start, n, offset));
                    offset += child.start - cursor;
                }
                cursor = cursor.max(child.end);
            }
            if node.end > cursor {
                pieces.push((cursor, node.end, n, offset));
                offset += node.end - cursor;
            }
            if let Some(o) = own.get_mut(n) {
                *o = offset;
            }
            if let Some(range) = node_pieces.get_mut(n) {
                *range = (first, pieces.len());
            }
        }
        let mut by_start: Vec<usize> = (0..pieces.len()).collect();
        by_start.sort_by_key(|&i| pieces.get(i).map_or(0, |p| p.0));
        Plan {
            pieces,
            by_start,
            own,
            node_pieces,
        }
    }

    fn total(&self) -> usize {
        self.own.iter().sum()
    }

    /// Each node's start in a fresh layout (relative to the region).
    fn fresh_finals(&self) -> Vec<usize> {
        let mut at = 0;
        self.own
            .iter()
            .map(|len| {
                let start = at;
                at += len;
                start
            })
            .collect()
    }

    /// Each node's start as `kept` says, if it has the same parts with the
    /// same lengths.
    fn kept_finals(&self, kept: &Placement) -> Option<Vec<usize>> {
        let (root, parts) = self.own.split_first()?;
        let same = kept.inline_len as usize == *root
            && kept.targets.len() == parts.len()
            && kept
                .targets
                .iter()
                .zip(parts)
                .all(|(k, len)| k.1 as usize == *len);
        same.then(|| {
            core::iter::once(0)
                .chain(kept.targets.iter().map(|k| k.0 as usize))
                .collect()
        })
    }

    /// Where write position `p` of a region written from `start` to `end`
    /// lands (absolute); positions outside the region stay.
    fn map(&self, p: usize, start: usize, end: usize, finals: &[usize], total: usize) -> usize {
        if p < start || p > end {
            return p;
        }
        if p == end {
            return start + total;
        }
        let i = self
            .by_start
            .partition_point(|&i| self.pieces.get(i).is_some_and(|piece| piece.0 <= p));
        let found = i
            .checked_sub(1)
            .and_then(|i| self.by_start.get(i))
            .and_then(|&i| self.pieces.get(i));
        match found {
            Some(&(from, to, node, offset)) if p < to => {
                start + finals.get(node).copied().unwrap_or(0) + offset + (p - from)
            }
            _ => p,
        }
    }

    /// The own bytes of the node holding `p`, from `p` on, within `len` bytes.
    fn own_len(&self, p: usize, len: usize) -> usize {
        let Some(&(_, _, node, _)) = self
            .by_start
            .partition_point(|&i| self.pieces.get(i).is_some_and(|piece| piece.0 <= p))
            .checked_sub(1)
            .and_then(|i| self.by_start.get(i))
            .and_then(|&i| self.pieces.get(i))
        else {
            return len;
        };
        let end = p.saturating_add(len);
        let (first, last) = self.node_pieces.get(node).copied().unwrap_or_default();
        self.pieces
            .get(first..last)
            .unwrap_or_default()
            .iter()
            .map(|&(from, to, _, _)| to.min(end).saturating_sub(from.max(p)))
            .sum()
    }

    /// `target` at the place the layout gives.
    fn moved_target(
        &self,
        target: &Target,
        start: usize,
        end: usize,
        finals: &[usize],
        total: usize,
    ) -> Target {
        let map = |p: usize| self.map(p, start, end, finals, total);
        match *target {
            Target::Part { part, base } => {
                let node = part.0;
                let at = start + finals.get(node).copied().unwrap_or(0);
                let len = self.own.get(node).copied().unwrap_or(0);
                Target::Span {
                    start: at,
                    len,
                    base: base.map(map),
                    minus: 0,
                }
            }
            Target::Span {
                start: s,
                len,
                base,
                minus,
            } => {
                let len = if (start..end).contains(&s) {
                    self.own_len(s, len)
                } else {
                    len
                };
                Target::Span {
                    start: map(s),
                    len,
                    base: base.map(map),
                    minus,
                }
            }
            other => other,
        }
    }

    /// The bytes laid out afresh, or `None` if they already are.
    fn assemble_fresh(&self, buf: &[u8], start: usize, finals: &[usize]) -> Option<Vec<u8>> {
        let in_place = self.pieces.iter().all(|&(from, _, node, offset)| {
            finals.get(node).is_some_and(|f| start + f + offset == from)
        });
        if in_place {
            return None;
        }
        let mut out = Vec::with_capacity(self.total());
        for &(from, to, _, _) in &self.pieces {
            out.extend_from_slice(buf.get(from..to).unwrap_or_default());
        }
        Some(out)
    }

    /// The bytes laid out as `kept` says, if overlapping parts agree and
    /// every byte is covered. The pieces and gaps are placed by where they
    /// go: each one's bytes already covered by an earlier one are compared
    /// with them, the rest appended (a byte left uncovered is a byte after
    /// the end of what is placed when the next piece starts).
    fn assemble_kept(
        &self,
        bytes: &[u8],
        start: usize,
        finals: &[usize],
        kept: &Placement,
    ) -> Option<Vec<u8>> {
        let len = kept.len as usize;
        let mut spans: Vec<(usize, &[u8])> =
            Vec::with_capacity(self.pieces.len() + kept.gaps.len());
        for &(from, to, node, offset) in &self.pieces {
            spans.push((
                *finals.get(node)? + offset,
                bytes.get(from.checked_sub(start)?..to.checked_sub(start)?)?,
            ));
        }
        spans.extend(kept.gaps.iter().map(|(at, b)| (*at as usize, b.as_slice())));
        spans.sort_by_key(|(at, _)| *at);
        let mut out = Vec::with_capacity(len);
        for (at, piece) in spans {
            if at.checked_add(piece.len())? > len {
                return None;
            }
            if piece.is_empty() {
                continue;
            }
            let shared = out.len().checked_sub(at)?.min(piece.len());
            if out.get(at..at + shared)? != piece.get(..shared)? {
                return None;
            }
            out.extend_from_slice(piece.get(shared..)?);
        }
        (out.len() == len).then_some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u32_at(bytes: &[u8], at: usize) -> u32 {
        u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
    }

    #[test]
    fn a_part_comes_after_the_inline_bytes_and_its_offset_follows() {
        let mut w = Writer::new();
        w.region(None, |w| {
            let slot = w.reserve_u32();
            let part = w.part(|w| {
                w.u8(7);
                Ok(())
            })?;
            w.u8(1); // inline: comes before the part
            w.reserve_value(
                Some(slot),
                Target::Part {
                    part,
                    base: Some(0),
                },
                None,
                Group::ALONE,
            );
            Ok(())
        })
        .unwrap();
        assert_eq!(w.as_bytes(), [5, 0, 0, 0, 1, 7]);
    }

    #[test]
    fn a_region_inside_a_region_is_laid_out_with_it() {
        // Outer: [slot a][inner region][1], part A = [9]. Inner: [slot b][2],
        // part B = [8], its offset from the outer start.
        let mut w = Writer::new();
        w.u8(0xEE); // before the regions: offsets count from 0, not 1
        w.region(None, |w| {
            let a = w.reserve_u32();
            let part_a = w.part(|w| {
                w.u8(9);
                Ok(())
            })?;
            w.reserve_value(
                Some(a),
                Target::Part {
                    part: part_a,
                    base: Some(0),
                },
                None,
                Group::ALONE,
            );
            w.region(None, |w| {
                let b = w.reserve_u32();
                let part_b = w.part(|w| {
                    w.u8(8);
                    Ok(())
                })?;
                w.u8(2);
                w.reserve_value(
                    Some(b),
                    Target::Part {
                        part: part_b,
                        base: Some(0),
                    },
                    None,
                    Group::ALONE,
                );
                Ok(())
            })?;
            w.u8(1);
            Ok(())
        })
        .unwrap();
        let out = w.as_bytes();
        // 0xEE, a, [b, 2, 8], 1, 9
        assert_eq!(out.len(), 1 + 4 + 4 + 1 + 1 + 1 + 1);
        assert_eq!(out[u32_at(out, 1) as usize], 9);
        assert_eq!(out[u32_at(out, 5) as usize], 8);
        assert_eq!(&out[9..11], [2, 8]);
    }

    #[test]
    fn a_group_is_written_as_kept_only_while_every_value_holds() {
        let kept = |slot, raw, derived| Some(KeptValue { slot, raw, derived });
        // What `b` and a value without a slot give now: the group holds, `b`
        // changed, or the value without a slot (after both) changed.
        for (now_b, now_hidden, expect) in [
            (Some(20), Some(3), [5, 6]),
            (Some(21), Some(3), [10, 21]),
            (Some(20), Some(4), [10, 20]),
        ] {
            let mut w = Writer::new();
            w.scope(|w| {
                let group = w.new_group();
                let a = w.reserve_u32();
                let b = w.reserve_u32();
                w.reserve_value(
                    Some(a),
                    Target::Value(Some(10)),
                    kept(0, 5, Some(10)),
                    group,
                );
                w.reserve_value(Some(b), Target::Value(now_b), kept(1, 6, Some(20)), group);
                w.reserve_value(None, Target::Value(now_hidden), kept(2, 9, Some(3)), group);
                Ok(())
            })
            .unwrap();
            assert_eq!([u32_at(w.as_bytes(), 0), u32_at(w.as_bytes(), 4)], expect);
        }
    }

    #[test]
    fn a_sibling_value_waits_for_its_list_and_is_absent_outside_one() {
        let target = SiblingTarget {
            tag: FourCC::new(*b"MCNK"),
            nth: None,
            base: Some(0),
            minus: 0,
        };
        let mut w = Writer::new();
        w.with_siblings(|w| {
            let slot = w.reserve_u32();
            w.scope(|w| {
                w.reserve_value(Some(slot), Target::Sibling(target), None, Group::ALONE);
                Ok(())
            })?;
            let start = w.pos();
            w.u32(0);
            w.push_anchor(FourCC::new(*b"MCNK"), start, 4);
            Ok(())
        })
        .unwrap();
        assert_eq!(u32_at(w.as_bytes(), 0), 4);
        let mut alone = Writer::new();
        let slot = alone.reserve_u32();
        alone.reserve_value(
            Some(slot),
            Target::Sibling(target),
            Some(KeptValue {
                slot: 0,
                raw: 77,
                derived: None,
            }),
            Group::ALONE,
        );
        alone.scope(|_| Ok(())).unwrap();
        alone.settle(0).unwrap();
        assert_eq!(u32_at(alone.as_bytes(), 0), 77, "kept while still absent");
    }

    #[test]
    fn a_part_outside_a_region_is_an_error() {
        let mut w = Writer::new();
        assert!(w.part(|_| Ok(())).is_err());
    }
}
