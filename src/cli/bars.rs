//! Progress bars (indicatif) for long runs. They draw on stderr and hide
//! themselves when stderr is not a terminal.

use asalto_tb::Variant;
use asalto_tb::build::{BuildObserver, FileReport};
use asalto_tb::index::FileKey;
use asalto_tb::progress::{Observer, Progress};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Mutex;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// Shows one bar for the table file being built and a line per file done.
/// When stderr is not a terminal (a log file, a pipe), where the bar does
/// not show, prints a line when each file starts and a progress line every
/// [`LOG_EVERY`] seconds instead (positions/s and the time left).
pub struct BuildBars {
    variant: String,
    bar: Mutex<Option<ProgressBar>>,
    quiet: bool,
    /// The file under way, for the log lines.
    log: Mutex<LogLines>,
    /// Files started so far.
    files: std::sync::atomic::AtomicUsize,
}

/// Seconds between two progress lines when stderr is not a terminal.
pub const LOG_EVERY: u64 = 10;

/// Plain progress lines for a log, where no bar shows (stderr not a
/// terminal): one every [`LOG_EVERY`] seconds, with the positions done, the
/// rate of this run (the `resumed` positions, taken from an earlier run's
/// checkpoint or record, are not counted in it) and the time left; or,
/// for a step whose total is only a bound ([`LogLines::bounded`]), the
/// positions done against the bound, with no share and no time left.
pub struct LogLines {
    /// When this run started the step.
    start: Instant,
    /// When the last line was printed.
    last: Instant,
    /// What the lines are of (`file N: <variant> <n>o<k>s`, `verify`).
    label: String,
    /// Positions done by earlier runs.
    resumed: u64,
    /// The total is a bound the step may stop far below (a search), not
    /// the work to do: no share done, no time left.
    bounded: bool,
}

impl LogLines {
    /// Lines labelled `label` for a step `resumed` positions of which were
    /// done by earlier runs.
    pub fn new(label: String, resumed: u64) -> LogLines {
        LogLines {
            start: Instant::now(),
            last: Instant::now(),
            label,
            resumed,
            bounded: false,
        }
    }

    /// Lines labelled `label` for a step whose total is a bound, not the
    /// work to do (a search that stops when it finds what it looks for):
    /// the positions done against the bound, the rate, the time so far.
    pub fn bounded(label: String) -> LogLines {
        LogLines {
            bounded: true,
            ..LogLines::new(label, 0)
        }
    }

    /// Print a line for `p` if [`LOG_EVERY`] seconds have passed since the
    /// last one (or the start).
    pub fn tick(&mut self, p: &Progress<'_>) {
        if self.last.elapsed().as_secs() < LOG_EVERY {
            return;
        }
        self.last = Instant::now();
        errln!("{}", self.line(p, self.start.elapsed().as_secs_f64()));
    }

    /// The line for `p`, `secs` seconds into this run.
    fn line(&self, p: &Progress<'_>, secs: f64) -> String {
        let rate = p.done.saturating_sub(self.resumed) as f64 / secs.max(1e-9);
        if self.bounded {
            return format!(
                "{}: {} positions (bound {}), {rate:.3e} positions/s, {secs:.0} s so far",
                self.label, p.done, p.total
            );
        }
        let left = p.total.saturating_sub(p.done) as f64 / rate.max(1.0);
        let tiers = if p.tiers_total > 0 {
            format!("{}/{} tiers, ", p.tiers_done, p.tiers_total)
        } else {
            String::new()
        };
        format!(
            "{}: {tiers}{}/{} positions ({:.1}%), {rate:.3e} positions/s, {secs:.0} s so far, about {left:.0} s left",
            self.label,
            p.done,
            p.total,
            100.0 * p.done as f64 / p.total.max(1) as f64,
        )
    }
}

impl BuildBars {
    /// Bars for a build of `variant`; `quiet` keeps stderr free of per-file lines.
    pub fn new(variant: &Variant, quiet: bool) -> BuildBars {
        BuildBars {
            variant: variant.to_string(),
            bar: Mutex::new(None),
            quiet,
            log: Mutex::new(LogLines::new(String::new(), 0)),
            files: std::sync::atomic::AtomicUsize::new(0),
        }
    }

    /// Remove the bar.
    pub fn finish(&self) {
        if let Some(b) = self.bar.lock().expect("bar lock").take() {
            b.finish_and_clear();
        }
    }
}

impl Observer for BuildBars {
    fn progress(&self, p: &Progress<'_>) {
        // The build reports through a throttle (`progress::Throttle`): a
        // few times a second, not after each of its millions of tiers.
        if let Some(b) = self.bar.lock().expect("bar lock").as_ref() {
            b.set_position(p.done);
            let label = &self.log.lock().expect("log lock").label;
            b.set_message(format!("{label}, tiers {}/{}", p.tiers_done, p.tiers_total));
        }
        if self.quiet || std::io::stderr().is_terminal() {
            return;
        }
        self.log.lock().expect("log lock").tick(p);
    }
}

impl BuildObserver for BuildBars {
    fn file_start(&self, n: u8, k: u8, tiers: usize, positions: u64, resumed: u64) {
        let index = self.files.fetch_add(1, Ordering::Relaxed) + 1;
        let bar = ProgressBar::new(positions);
        bar.set_style(
            ProgressStyle::with_template(
                "{msg} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} positions ({per_sec}, eta {eta})",
            )
            .expect("valid template"),
        );
        let label = format!("file {index}: {} {}", self.variant, FileKey::new(n, k));
        bar.set_message(label.clone());
        // Start at the checkpoint, so that the rate and eta are this run's.
        bar.set_position(resumed);
        bar.reset_eta();
        if !self.quiet && !std::io::stderr().is_terminal() {
            errln!("{label}: {tiers} tiers, {positions} positions");
        }
        *self.log.lock().expect("log lock") = LogLines::new(label, resumed);
        if let Some(old) = self.bar.lock().expect("bar lock").replace(bar) {
            old.finish_and_clear();
        }
    }

    fn note(&self, message: &str) {
        match self.bar.lock().expect("bar lock").as_ref() {
            Some(b) => b.println(message),
            None => errln!("{message}"),
        }
    }

    fn file_done(&self, r: &FileReport) {
        self.finish();
        if self.quiet {
            return;
        }
        let i = &r.info;
        if r.skipped {
            errln!(
                "{} {}: already built ({} positions), skipped",
                self.variant,
                FileKey::new(r.n, r.k),
                i.positions
            );
        } else if r.resumed_positions > 0 {
            // The rate counts this run's positions only.
            errln!(
                "{} {}: {} positions, {} of them from a checkpoint; {} in {:.1} s this run ({:.3e} positions/s), {:.1} s over all runs, {:.3} bits/position",
                self.variant,
                FileKey::new(r.n, r.k),
                i.positions,
                r.resumed_positions,
                i.positions - r.resumed_positions,
                r.seconds,
                (i.positions - r.resumed_positions) as f64 / r.seconds.max(1e-9),
                r.earlier_seconds + r.seconds,
                i.bits_per_position()
            );
        } else {
            errln!(
                "{} {}: {} positions in {:.1} s ({:.3e} positions/s), {:.3} bits/position",
                self.variant,
                FileKey::new(r.n, r.k),
                i.positions,
                r.seconds,
                i.positions as f64 / r.seconds.max(1e-9),
                i.bits_per_position()
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn progress(done: u64, total: u64) -> Progress<'static> {
        Progress {
            step: "",
            done,
            total,
            tiers_done: 0,
            tiers_total: 0,
        }
    }

    #[test]
    fn a_line_counts_this_runs_rate_and_the_time_left() {
        // 600 of 1000 done, 200 of them by an earlier run: this run did
        // 400 in 10 s, 40/s, so the 400 left take 10 s more.
        let lines = LogLines::new("verify".into(), 200);
        assert_eq!(
            lines.line(&progress(600, 1000), 10.0),
            "verify: 600/1000 positions (60.0%), 4.000e1 positions/s, 10 s so far, about 10 s left"
        );
    }

    #[test]
    fn a_bounded_line_gives_no_share_and_no_time_left() {
        // A search that entered 500 positions of at most a million: the
        // bound is not the work left, so neither a share nor an end is
        // guessed from it.
        let lines = LogLines::bounded("line search".into());
        assert_eq!(
            lines.line(&progress(500, 1_000_000), 20.0),
            "line search: 500 positions (bound 1000000), 2.500e1 positions/s, 20 s so far"
        );
    }
}
