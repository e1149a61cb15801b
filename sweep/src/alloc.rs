//! The memory a tool takes: the system allocator, counting on each thread
//! the bytes it holds and the most it held since [`start`].
//!
//! A tool runs on one worker thread, so the peak of that thread is the
//! tool's. Two things escape it: memory the library allocates on rayon's
//! threads (the parallel DXT and JPEG work of textures; the image those
//! threads fill is allocated by the worker), and memory freed on another
//! thread than the one that allocated it (counted as freed where it is).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The allocator of the `sweep` binary.
pub struct Counting;

thread_local! {
    /// Bytes this thread holds (can go below 0: frees of others' memory).
    static HELD: Cell<i64> = const { Cell::new(0) };
    /// The most it held since the last [`start`].
    static PEAK: Cell<i64> = const { Cell::new(0) };
}

fn add(bytes: i64) {
    // `try_with`: a thread being torn down has no counters any more.
    let _ = HELD.try_with(|held| {
        let now = held.get() + bytes;
        held.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

// SAFETY: every call is passed to `System` unchanged; the counters are
// plain thread-local cells that never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            add(layout.size() as i64);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            add(layout.size() as i64);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) };
        add(-(layout.size() as i64));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            add(new_size as i64 - layout.size() as i64);
        }
        p
    }
}

/// A measurement started on this thread.
pub struct Mark {
    held: i64,
}

/// Starts measuring this thread's peak from what it holds now.
pub fn start() -> Mark {
    let held = HELD.with(Cell::get);
    PEAK.with(|peak| peak.set(held));
    Mark { held }
}

impl Mark {
    /// The most this thread held beyond what it held at [`start`].
    pub fn peak(&self) -> u64 {
        let peak = PEAK.with(Cell::get);
        u64::try_from(peak - self.held).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_peak_counts_what_was_held_at_once() {
        let mark = start();
        // black_box: an allocation nothing reads may be optimised away.
        let a = std::hint::black_box(vec![0u8; 1 << 20]);
        let b = std::hint::black_box(vec![0u8; 1 << 20]);
        drop((a, b));
        drop(std::hint::black_box(vec![0u8; 1 << 19]));
        let peak = mark.peak();
        assert!((2 << 20..3 << 20).contains(&peak), "{peak}");
    }
}
