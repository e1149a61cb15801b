//! Peak heap and allocation count while parsing, as a multiple of the file
//! size, measured with a counting global allocator (this binary only). Models
//! are read leniently so the two corpus files with the LITE quirk count too.
//!
//! `cargo bench -p benches --bench heap` prints one table row per input; the
//! issue's bound is a peak of at most 2x the file size plus 1 MiB. It is not a
//! timing benchmark, so `--quick` changes nothing.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// The system allocator, counting live bytes, the peak since the last reset,
/// and the number of allocations.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static CALLS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: defers to `System` for every call and only adds bookkeeping.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract, passed on as is.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let live = LIVE.fetch_add(layout.size(), Relaxed) + layout.size();
            PEAK.fetch_max(live, Relaxed);
            CALLS.fetch_add(1, Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(p, layout) };
        LIVE.fetch_sub(layout.size(), Relaxed);
    }

    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as above.
        let q = unsafe { System.realloc(p, layout, new_size) };
        if !q.is_null() {
            LIVE.fetch_sub(layout.size(), Relaxed);
            let live = LIVE.fetch_add(new_size, Relaxed) + new_size;
            PEAK.fetch_max(live, Relaxed);
            CALLS.fetch_add(1, Relaxed);
        }
        q
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Peak bytes above what was live before, and allocations, while `f` runs
/// (what `f` returns is dropped after the measurement).
fn measure<T>(f: impl FnOnce() -> T) -> (usize, usize, T) {
    let base = LIVE.load(Relaxed);
    PEAK.store(base, Relaxed);
    let calls = CALLS.load(Relaxed);
    let value = f();
    (
        PEAK.load(Relaxed) - base,
        CALLS.load(Relaxed) - calls,
        value,
    )
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument selects inputs by name.
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let mut inputs: Vec<(&str, String, Vec<u8>)> = Vec::new();
    inputs.push((
        "mdx",
        "generated (16 geosets, 120 bones)".into(),
        benches::generated_mdx(16, 120, 1500),
    ));
    for (name, data) in benches::largest_corpus_files("mdx", ".mdx", 4) {
        inputs.push(("mdx", name, data));
    }
    for (name, data) in benches::largest_corpus_files("adt", ".adt", 3) {
        inputs.push(("adt", name, data));
    }
    for (name, data) in benches::largest_corpus_files("wdt", ".wdt", 1) {
        inputs.push(("wdt", name, data));
    }
    println!(
        "| file | bytes | peak heap while parsing | peak / file | bound (2x + 1 MiB) | allocations |"
    );
    println!("|---|---|---|---|---|---|");
    let mut over = 0;
    for (kind, name, data) in &inputs {
        if filter.as_ref().is_some_and(|f| !name.contains(f.as_str())) {
            continue;
        }
        let (peak, calls, ok) = measure(|| match *kind {
            "mdx" => formats::mdx::Model::from_bytes_lenient(data).is_ok(),
            "adt" => formats::adt::Adt::from_bytes(data).is_ok(),
            _ => formats::wdt::Wdt::from_bytes(data).is_ok(),
        });
        if !ok {
            println!(
                "| `{name}` | {} | (not readable: left out) | | | |",
                data.len()
            );
            continue;
        }
        let bound = 2 * data.len() + (1 << 20);
        let verdict = if peak <= bound { "within" } else { "OVER" };
        over += usize::from(peak > bound);
        println!(
            "| `{name}` | {} | {} | {:.2} | {verdict} | {calls} |",
            data.len(),
            peak,
            peak as f64 / data.len() as f64
        );
    }
    if over > 0 {
        eprintln!("{over} input(s) over the bound");
    }
    views(&inputs, filter.as_deref());
}

/// The same inputs opened as views (strict: a file only the lenient reader
/// reads is left out): the bound is 64 KiB plus 1 % of the file (an index,
/// no copies).
fn views(inputs: &[(&str, String, Vec<u8>)], filter: Option<&str>) {
    println!();
    println!(
        "| file | bytes | peak heap while opening a view | bound (64 KiB + 1 %) | allocations |"
    );
    println!("|---|---|---|---|---|");
    let mut over = 0;
    for (kind, name, data) in inputs {
        if filter.is_some_and(|f| !name.contains(f)) {
            continue;
        }
        let (peak, calls, ok) = measure(|| match *kind {
            "mdx" => formats::mdx::Model::view(data).is_ok(),
            "adt" => formats::adt::Adt::view(data).is_ok(),
            _ => formats::wdt::Wdt::view(data).is_ok(),
        });
        if !ok {
            println!(
                "| `{name}` | {} | (not strictly readable: left out) | | |",
                data.len()
            );
            continue;
        }
        let bound = (64 << 10) + data.len() / 100;
        let verdict = if peak <= bound { "within" } else { "OVER" };
        over += usize::from(peak > bound);
        println!(
            "| `{name}` | {} | {peak} | {verdict} | {calls} |",
            data.len()
        );
    }
    if over > 0 {
        eprintln!("{over} view(s) over the bound");
    }
}
