//! Running the tools: one job per file on each of the worker threads (the
//! largest files first, so that no core waits on one big file at the end),
//! every tool timed, its peak memory measured and its panic caught, behind
//! one progress bar; a watchdog names a tool that runs past the time budget
//! while it runs, so that a file that hangs is known before the sweep ends.

use std::cell::RefCell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

use crate::alloc;
use crate::discover::Found;
use crate::record::{Budget, FileResult, Outcome, Run};

thread_local! {
    /// The last panic's message and place on this thread.
    static PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Panics are recorded (message and place) for the run that caught them,
/// not printed: a sweep over thousands of files prints its table.
pub fn quiet_panics() {
    std::panic::set_hook(Box::new(|info| {
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "(a panic without a message)".into());
        let place = info
            .location()
            .map_or(String::new(), |l| format!(" at {}:{}", l.file(), l.line()));
        let _ = PANIC.try_with(|p| *p.borrow_mut() = Some(format!("{message}{place}")));
    }));
}

/// What a worker is running now, for the watchdog.
#[derive(Default)]
struct Slot {
    now: Option<(String, &'static str, Instant)>,
    /// The tool and file already named as over time.
    warned: Option<(String, &'static str)>,
}

/// The tools run on one file.
pub struct Job<'a> {
    slot: &'a Mutex<Slot>,
    path: String,
    /// The runs so far.
    pub runs: Vec<Run>,
}

impl Job<'_> {
    /// Runs `tool`: `Ok` is its result, `Err` how it failed otherwise (or
    /// its warning); a panic is caught and recorded. `None` unless it
    /// succeeded without a warning.
    pub fn tool<T>(
        &mut self,
        tool: &'static str,
        work: impl FnOnce() -> Result<T, Outcome>,
    ) -> Option<T> {
        if let Ok(mut slot) = self.slot.lock() {
            slot.now = Some((self.path.clone(), tool, Instant::now()));
        }
        let mark = alloc::start();
        let started = Instant::now();
        let result = catch_unwind(AssertUnwindSafe(work));
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        let peak_bytes = mark.peak();
        if let Ok(mut slot) = self.slot.lock() {
            slot.now = None;
        }
        let (outcome, value) = match result {
            Ok(Ok(value)) => (Outcome::Ok, Some(value)),
            Ok(Err(outcome)) => (outcome, None),
            Err(_) => {
                let message = PANIC
                    .with(|p| p.borrow_mut().take())
                    .unwrap_or_else(|| "(no message)".into());
                (Outcome::Panic(message), None)
            }
        };
        self.runs.push(Run {
            tool: tool.to_string(),
            outcome,
            ms,
            peak_bytes,
        });
        value
    }

    /// Records `tool` as not run, and why.
    pub fn skip(&mut self, tool: &'static str, why: &str) {
        self.runs.push(Run {
            tool: tool.to_string(),
            outcome: Outcome::Skipped(why.to_string()),
            ms: 0.0,
            peak_bytes: 0,
        });
    }
}

/// Runs `sweep` on every file on `workers` threads; results in the files'
/// order.
pub fn run_all(
    files: &[Found],
    workers: usize,
    budget: Budget,
    sweep: impl Fn(&Found, &mut Job<'_>) -> FileResult + Sync,
) -> Vec<FileResult> {
    let bar = ProgressBar::new(files.len() as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {pos}/{len} files, {per_sec}, {eta} left",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    // The largest first.
    let mut order: Vec<usize> = (0..files.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(files[i].size));
    let next = AtomicUsize::new(0);
    let slots: Vec<Mutex<Slot>> = (0..workers).map(|_| Mutex::default()).collect();
    let results: Vec<Mutex<Option<FileResult>>> = files.iter().map(|_| Mutex::default()).collect();
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| watchdog(&slots, &done, budget, &bar));
        let workers: Vec<_> = slots
            .iter()
            .map(|slot| {
                scope.spawn(|| {
                    while let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
                        let found = &files[i];
                        let mut job = Job {
                            slot,
                            path: found.path.display().to_string(),
                            runs: Vec::new(),
                        };
                        let result = sweep(found, &mut job);
                        if let Ok(mut cell) = results[i].lock() {
                            *cell = Some(result);
                        }
                        bar.inc(1);
                    }
                })
            })
            .collect();
        for worker in workers {
            let _ = worker.join();
        }
        done.store(true, Ordering::Relaxed);
    });
    bar.finish_and_clear();
    results
        .into_iter()
        .filter_map(|cell| cell.into_inner().ok().flatten())
        .collect()
}

/// Every second, names each tool that has run past the time budget (once).
fn watchdog(slots: &[Mutex<Slot>], done: &AtomicBool, budget: Budget, bar: &ProgressBar) {
    while !done.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(250));
        for slot in slots {
            let Ok(mut slot) = slot.lock() else { continue };
            let Some((path, tool, since)) = slot.now.clone() else {
                continue;
            };
            let key = Some((path.clone(), tool));
            if since.elapsed().as_secs_f64() > budget.seconds && slot.warned != key {
                bar.println(format!(
                    "still running after {:.0} s (over the budget): {tool} {path}",
                    since.elapsed().as_secs_f64()
                ));
                slot.warned = key;
            }
        }
    }
}
