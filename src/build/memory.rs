//! What a build used: the peak memory of each file, measured while it
//! builds, and the trims that hand what the build freed back to the system
//! (what it may use is [`crate::budget`]'s).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

/// How far a build's anonymous memory may grow before the freed part of
/// it is handed back ([`Trimmer`]): 256 MiB, within
/// [`crate::budget::FIXED_BYTES`]' allocator slack.
pub(crate) const TRIM_SLACK_BYTES: u64 = 256 << 20;

/// A field of `/proc/self/status` (`VmHWM:`, `RssAnon:`), in bytes.
fn status(field: &str) -> Option<u64> {
    crate::budget::proc_kb("/proc/self/status", field)
}

/// Peak resident memory of this process in bytes (Linux `VmHWM`: mapped
/// table pages included; `None` elsewhere).
pub fn peak_rss_bytes() -> Option<u64> {
    status("VmHWM:")
}

/// Hands the allocator's freed memory back to the system whenever the
/// process's anonymous memory has grown by more than `slack` since the last
/// time (checked between chunks of a build).
///
/// glibc keeps what a program frees in its arenas, resident, and a build
/// frees a lot: each chunk's values (128 MiB) and, level after level, the
/// window's tiers, in pieces of a few kB between others still held. That
/// memory is reused only in part, so without this a build's anonymous
/// memory grew past its window by several GB (2o12s passed a 12 GiB budget
/// at 13.25e9 bytes with an 8.3e9-byte window), and the next file began
/// with the last one's leftovers. `malloc_trim` gives back every whole free
/// page of every arena (on other systems this does nothing).
pub struct Trimmer {
    slack: u64,
    /// Anonymous memory after the last trim.
    last: u64,
    /// Trims so far.
    pub trims: u32,
}

impl Trimmer {
    /// A trimmer that trims now (what the run before left over) and then
    /// whenever anonymous memory grows by more than `slack` bytes.
    pub fn new(slack: u64) -> Trimmer {
        let mut t = Trimmer {
            slack,
            last: 0,
            trims: 0,
        };
        t.trim();
        t
    }

    /// Trim if anonymous memory grew by more than the slack since the last
    /// trim; whether it trimmed.
    pub fn check(&mut self) -> bool {
        match anon_bytes() {
            Some(anon) if anon > self.last + self.slack => {
                self.trim();
                true
            }
            _ => false,
        }
    }

    /// Give the free memory back now.
    pub(crate) fn trim(&mut self) {
        release_free_memory();
        self.trims += 1;
        self.last = anon_bytes().unwrap_or(0);
    }
}

/// Give the allocator's whole free pages back to the system (glibc's
/// `malloc_trim`; nothing elsewhere).
fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only walks the allocator's own free lists, under
    // its locks; it is safe to call at any time from any thread.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Anonymous memory of this process in bytes (Linux `RssAnon`; `None`
/// elsewhere).
pub fn anon_bytes() -> Option<u64> {
    status("RssAnon:")
}

/// The peak memory of one stretch of a build (one file), sampled every
/// 200 ms by a thread: anonymous memory (`RssAnon`: what the budget
/// bounds) and resident memory with mapped tables (`VmRSS`).
pub(crate) struct Watch {
    stop: Arc<AtomicBool>,
    anon: Arc<AtomicU64>,
    rss: Arc<AtomicU64>,
    thread: Option<JoinHandle<()>>,
}

impl Watch {
    /// Start watching.
    pub(crate) fn start() -> Watch {
        let stop = Arc::new(AtomicBool::new(false));
        let anon = Arc::new(AtomicU64::new(0));
        let rss = Arc::new(AtomicU64::new(0));
        let sample = {
            let (anon, rss) = (anon.clone(), rss.clone());
            move || {
                anon.fetch_max(status("RssAnon:").unwrap_or(0), Ordering::Relaxed);
                rss.fetch_max(status("VmRSS:").unwrap_or(0), Ordering::Relaxed);
            }
        };
        sample();
        let thread = {
            let stop = stop.clone();
            std::thread::Builder::new()
                .name("memory-watch".into())
                .spawn(move || {
                    while !stop.load(Ordering::Relaxed) {
                        std::thread::sleep(Duration::from_millis(200));
                        sample();
                    }
                })
                .ok()
        };
        Watch {
            stop,
            anon,
            rss,
            thread,
        }
    }

    /// The peaks `(anonymous, resident)` in bytes so far (0 where the
    /// system does not tell).
    pub(crate) fn peaks(&self) -> (u64, u64) {
        (
            self.anon.load(Ordering::Relaxed),
            self.rss.load(Ordering::Relaxed),
        )
    }

    /// Stop; the peaks `(anonymous, resident)` in bytes (0 where the
    /// system does not tell).
    pub(crate) fn finish(mut self) -> (u64, u64) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        self.anon
            .fetch_max(status("RssAnon:").unwrap_or(0), Ordering::Relaxed);
        (
            self.anon.load(Ordering::Relaxed),
            self.rss.load(Ordering::Relaxed),
        )
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}
