//! Progress bars (indicatif) for long runs. They draw on stderr and hide
//! themselves when stderr is not a terminal.

use asalto_tb::Variant;
use asalto_tb::build::{BuildObserver, FileReport};
use asalto_tb::solve::Progress;
use indicatif::{ProgressBar, ProgressStyle};
use std::sync::Mutex;

/// Shows one bar for the table file being built and a line per file done.
pub struct BuildBars {
    variant: String,
    bar: Mutex<Option<ProgressBar>>,
    quiet: bool,
}

impl BuildBars {
    /// Bars for a build of `variant`; `quiet` keeps stderr free of per-file lines.
    pub fn new(variant: &Variant, quiet: bool) -> BuildBars {
        BuildBars {
            variant: variant.to_string(),
            bar: Mutex::new(None),
            quiet,
        }
    }

    /// Remove the bar.
    pub fn finish(&self) {
        if let Some(b) = self.bar.lock().expect("bar lock").take() {
            b.finish_and_clear();
        }
    }
}

impl BuildObserver for BuildBars {
    fn file_start(&self, n: u8, k: u8, tiers: usize, positions: u64) {
        let bar = ProgressBar::new(positions);
        bar.set_style(
            ProgressStyle::with_template(
                "{msg} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} positions ({per_sec}, eta {eta})",
            )
            .expect("valid template"),
        );
        bar.set_message(format!("{} {n}o{k}s ({tiers} tiers)", self.variant));
        if let Some(old) = self.bar.lock().expect("bar lock").replace(bar) {
            old.finish_and_clear();
        }
    }

    fn progress(&self, p: &Progress) {
        if let Some(b) = self.bar.lock().expect("bar lock").as_ref() {
            b.set_position(p.positions_done);
        }
    }

    fn file_done(&self, r: &FileReport) {
        self.finish();
        if self.quiet {
            return;
        }
        let i = &r.info;
        if r.skipped {
            eprintln!(
                "{} {}o{}s: already built ({} positions), skipped",
                self.variant, r.n, r.k, i.positions
            );
        } else {
            eprintln!(
                "{} {}o{}s: {} positions in {:.1} s ({:.3e} positions/s), {:.3} bits/position",
                self.variant,
                r.n,
                r.k,
                i.positions,
                r.seconds,
                i.positions as f64 / r.seconds.max(1e-9),
                i.bits_per_position()
            );
        }
    }
}
