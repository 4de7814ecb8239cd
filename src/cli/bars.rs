//! Progress bars (indicatif) for long runs. They draw on stderr and hide
//! themselves when stderr is not a terminal.

use asalto_tb::Variant;
use asalto_tb::build::{BuildObserver, FileReport};
use asalto_tb::index::FileKey;
use asalto_tb::progress::{Observer, Progress};
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::VecDeque;
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

/// Seconds of progress a log line's rate is measured over: the last ten
/// minutes, so that a pause (a stopped process) or a slow stretch leaves
/// the rate and the time left once it is ten minutes behind.
pub const RATE_WINDOW: u64 = 600;

/// Plain progress lines for a log, where no bar shows (stderr not a
/// terminal): one every [`LOG_EVERY`] seconds, with the positions done, the
/// rate and the time left; or, for a step whose total is only a bound
/// ([`LogLines::bounded`]), the positions done against the bound, with no
/// share and no time left. The rate counts this run's progress over the
/// last [`RATE_WINDOW`] seconds (from the step's first progress in this
/// run while the step is younger), and the line says over how long:
/// positions an earlier run did (a checkpoint, a record) are not in it,
/// nor is the time a resumed run takes to get going (a build reading its
/// window back), which made the first lines of a resumed 2o13s promise
/// 112 days for an hour's work; nor, past one line, a pause (a verify
/// stopped by SIGSTOP for four hours promised 430,166 s for two hours'
/// work, its rate taken over the whole run).
pub struct LogLines {
    /// When this run started the step.
    start: Instant,
    /// When the last line was printed.
    last: Instant,
    /// What the lines are of (`file N: <variant> <n>o<k>s`, `verify`).
    label: String,
    /// The progress at this run's lines (and at the step's first
    /// progress): when, and the positions done then. At each line the
    /// ones older than [`RATE_WINDOW`] seconds go but the newest of them
    /// when none is younger; the oldest left is the base of the rate.
    samples: VecDeque<(Instant, u64)>,
    /// The total is a bound the step may stop far below (a search), not
    /// the work to do: no share done, no time left.
    bounded: bool,
}

impl LogLines {
    /// Lines labelled `label`.
    pub fn new(label: String) -> LogLines {
        LogLines {
            start: Instant::now(),
            last: Instant::now(),
            label,
            samples: VecDeque::new(),
            bounded: false,
        }
    }

    /// Lines labelled `label` for a step whose total is a bound, not the
    /// work to do (a search that stops when it finds what it looks for):
    /// the positions done against the bound, the rate, the time so far.
    pub fn bounded(label: String) -> LogLines {
        LogLines {
            bounded: true,
            ..LogLines::new(label)
        }
    }

    /// Print a line for `p` if [`LOG_EVERY`] seconds have passed since the
    /// last one (or the start).
    pub fn tick(&mut self, p: &Progress<'_>) {
        if let Some(line) = self.next_line(p, Instant::now()) {
            errln!("{line}");
        }
    }

    /// The line to print for `p` at `now`, if one is due.
    fn next_line(&mut self, p: &Progress<'_>, now: Instant) -> Option<String> {
        if self.samples.is_empty() {
            self.samples.push_back((now, p.done));
        }
        if now.duration_since(self.last).as_secs() < LOG_EVERY {
            return None;
        }
        self.last = now;
        // The base: the first sample within the window, or the last one
        // before it where none is within (a long pause or a long silence,
        // measured for this one line).
        while self.samples.len() > 1
            && now.duration_since(self.samples[0].0).as_secs() > RATE_WINDOW
        {
            self.samples.pop_front();
        }
        let (since, base) = self.samples[0];
        self.samples.push_back((now, p.done));
        let measured = now.duration_since(since).as_secs_f64();
        // Under a second of progress: no rate yet.
        let rate =
            (measured >= 1.0).then(|| (p.done.saturating_sub(base) as f64 / measured, measured));
        Some(self.line(p, now.duration_since(self.start).as_secs_f64(), rate))
    }

    /// The line for `p`, `secs` seconds into this run, at `rate` = (positions
    /// a second, over how many seconds) (`None`: not measured yet).
    fn line(&self, p: &Progress<'_>, secs: f64, rate: Option<(f64, f64)>) -> String {
        let rate_text = rate.map_or("rate not measured yet".to_string(), |(r, over)| {
            format!("{r:.3e} positions/s over the last {over:.0} s")
        });
        let rate = rate.map(|(r, _)| r);
        if self.bounded {
            return format!(
                "{}: {} positions (bound {}), {rate_text}, {secs:.0} s so far",
                self.label, p.done, p.total
            );
        }
        let left = rate.map_or(String::new(), |r| {
            let left = p.total.saturating_sub(p.done) as f64 / r.max(1.0);
            format!(", about {left:.0} s left")
        });
        let tiers = if p.tiers_total > 0 {
            format!("{}/{} tiers, ", p.tiers_done, p.tiers_total)
        } else {
            String::new()
        };
        format!(
            "{}: {tiers}{}/{} positions ({:.1}%), {rate_text}, {secs:.0} s so far{left}",
            self.label,
            p.done,
            p.total,
            100.0 * p.done as f64 / p.total.max(1) as f64,
        )
    }
}

/// The log lines of a verification (stderr not a terminal): a line when
/// a file is done (its positions checked and time in this run), and the
/// progress lines of [`LogLines`], which name the file under way. A
/// verification of the whole game runs for days in sittings: its log says
/// which file each sitting checked, and how fast. Nothing is printed when
/// a file is taken up, so that a verification refused at its first file
/// (a damaged block) prints its one-line error alone.
pub struct VerifyLines {
    lines: LogLines,
    /// The file being checked: its step (`assaut 2o12s`), when this run
    /// took it up and the positions done then.
    file: Option<(String, Instant, u64)>,
    /// The positions done at the last progress.
    done: u64,
}

impl Default for VerifyLines {
    fn default() -> VerifyLines {
        VerifyLines {
            lines: LogLines::new("verify".into()),
            file: None,
            done: 0,
        }
    }
}

impl VerifyLines {
    /// Print the lines due at `p`.
    pub fn tick(&mut self, p: &Progress<'_>) {
        for line in self.lines_at(p, Instant::now()) {
            errln!("{line}");
        }
    }

    /// Print the line of the last file: done, or `stopped` in it.
    pub fn finish(&mut self, stopped: bool) {
        if let Some(line) = self.file_done(Instant::now(), stopped) {
            errln!("{line}");
        }
    }

    /// The lines due at `p`, at `now`.
    fn lines_at(&mut self, p: &Progress<'_>, now: Instant) -> Vec<String> {
        let mut out = Vec::new();
        // The file under way cannot be checked: said so, not "done".
        if let Some(step) = p.step.strip_suffix(asalto_tb::verify::FAILED_STEP) {
            if self.file.as_ref().is_some_and(|f| f.0 == step) {
                self.file = None;
            }
            out.push(format!(
                "verify: {step}: cannot be checked (its error is in the output)"
            ));
            return out;
        }
        let taken_up = !p.step.is_empty() && self.file.as_ref().is_none_or(|f| f.0 != p.step);
        if taken_up {
            // The file before ends where this one starts.
            self.done = p.done;
            out.extend(self.file_done(now, false));
            self.file = Some((p.step.to_string(), now, p.done));
            self.lines.label = format!("verify (at {})", p.step);
        }
        self.done = p.done;
        out.extend(self.lines.next_line(p, now));
        out
    }

    /// The line of the file under way, done or `stopped` at `now`.
    fn file_done(&mut self, now: Instant, stopped: bool) -> Option<String> {
        let (step, since, base) = self.file.take()?;
        let checked = self.done.saturating_sub(base);
        let secs = now.duration_since(since).as_secs_f64();
        let end = if stopped { "stopped" } else { "done" };
        Some(if checked == 0 && !stopped {
            format!(
                "verify: {step}: done, nothing left to check (an earlier run's record, beside the file or named by --proved-by)"
            )
        } else {
            format!(
                "verify: {step}: {end}, {checked} positions checked in {secs:.1} s this run ({:.3e} positions/s)",
                checked as f64 / secs.max(1e-9)
            )
        })
    }
}

impl BuildBars {
    /// Bars for a build of `variant`; `quiet` keeps stderr free of per-file lines.
    pub fn new(variant: &Variant, quiet: bool) -> BuildBars {
        BuildBars {
            variant: variant.to_string(),
            bar: Mutex::new(None),
            quiet,
            log: Mutex::new(LogLines::new(String::new())),
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
    fn file_start(&self, file: FileKey, tiers: usize, positions: u64, resumed: u64) {
        let index = self.files.fetch_add(1, Ordering::Relaxed) + 1;
        let bar = ProgressBar::new(positions);
        bar.set_style(
            ProgressStyle::with_template(
                "{msg} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} positions ({per_sec}, eta {eta})",
            )
            .expect("valid template"),
        );
        let label = format!("file {index}: {} {file}", self.variant);
        bar.set_message(label.clone());
        // Start at the checkpoint, so that the rate and eta are this run's.
        bar.set_position(resumed);
        bar.reset_eta();
        if !self.quiet && !std::io::stderr().is_terminal() {
            errln!("{label}: {tiers} tiers, {positions} positions");
        }
        *self.log.lock().expect("log lock") = LogLines::new(label);
        if let Some(old) = self.bar.lock().expect("bar lock").replace(bar) {
            old.finish_and_clear();
        }
    }

    fn note(&self, message: &str) {
        // A hidden bar (stderr not a terminal) prints nothing: a log gets
        // the line itself.
        match self.bar.lock().expect("bar lock").as_ref() {
            Some(b) if std::io::stderr().is_terminal() => b.println(message),
            _ => errln!("{message}"),
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
                r.file,
                i.positions
            );
        } else if r.resumed_positions > 0 {
            // The rate counts this run's positions only.
            errln!(
                "{} {}: {} positions, {} of them from a checkpoint; {} in {:.1} s this run ({:.3e} positions/s), {:.1} s over all runs, {:.3} bits/position",
                self.variant,
                r.file,
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
                r.file,
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
    use std::time::Duration;

    fn progress(done: u64, total: u64) -> Progress<'static> {
        Progress {
            step: "",
            done,
            total,
            tiers_done: 0,
            tiers_total: 0,
        }
    }

    /// Lines labelled `label` whose run started, and last printed, at
    /// the instant returned.
    fn started(label: &str) -> (LogLines, Instant) {
        let mut lines = LogLines::new(label.into());
        let t0 = Instant::now();
        lines.start = t0;
        lines.last = t0;
        (lines, t0)
    }

    #[test]
    fn a_line_gives_the_rate_and_the_time_left() {
        // 600 of 1000 done at 40/s: the 400 left take 10 s more.
        let lines = LogLines::new("verify".into());
        assert_eq!(
            lines.line(&progress(600, 1000), 25.0, Some((40.0, 10.0))),
            "verify: 600/1000 positions (60.0%), 4.000e1 positions/s over the last 10 s, 25 s so far, about 10 s left"
        );
        assert_eq!(
            lines.line(&progress(600, 1000), 25.0, None),
            "verify: 600/1000 positions (60.0%), rate not measured yet, 25 s so far"
        );
    }

    #[test]
    fn the_rate_counts_from_the_first_progress_of_the_run() {
        // A resumed step, 500 positions done by an earlier run: this run's
        // first progress (at 510) comes 20 s after its start (reading the
        // window back), and a line is due then, with no rate yet.
        let (mut lines, t0) = started("file 1: assaut 2o13s");
        let at = |s: u64| t0 + Duration::from_secs(s);
        assert_eq!(
            lines.next_line(&progress(510, 1000), at(20)).as_deref(),
            Some(
                "file 1: assaut 2o13s: 510/1000 positions (51.0%), rate not measured yet, 20 s so far"
            )
        );
        // No line again before LOG_EVERY seconds.
        assert_eq!(lines.next_line(&progress(600, 1000), at(25)), None);
        // 200 positions in the 20 s since the first progress: 10/s (not
        // the 5.25/s of this run's 210 positions over its 40 s), so 29 s
        // for the 290 left.
        assert_eq!(
            lines.next_line(&progress(710, 1000), at(40)).as_deref(),
            Some(
                "file 1: assaut 2o13s: 710/1000 positions (71.0%), 1.000e1 positions/s over the last 20 s, 40 s so far, about 29 s left"
            )
        );
    }

    #[test]
    fn the_rate_leaves_a_pause_behind() {
        // 10 positions/s for 30 s, then a pause of 5000 s (a stopped
        // process): the first line after it measures across the pause,
        // the next one only the progress since.
        let (mut lines, t0) = started("verify");
        let at = |s: u64| t0 + Duration::from_secs(s);
        assert!(lines.next_line(&progress(500, 2000), at(0)).is_none());
        for (s, done) in [(10, 600), (20, 700)] {
            assert!(lines.next_line(&progress(done, 2000), at(s)).is_some());
        }
        assert_eq!(
            lines.next_line(&progress(800, 2000), at(30)).as_deref(),
            Some(
                "verify: 800/2000 positions (40.0%), 1.000e1 positions/s over the last 30 s, 30 s so far, about 120 s left"
            )
        );
        assert_eq!(
            lines.next_line(&progress(810, 2000), at(5030)).as_deref(),
            Some(
                "verify: 810/2000 positions (40.5%), 2.000e-3 positions/s over the last 5000 s, 5030 s so far, about 1190 s left"
            )
        );
        assert_eq!(
            lines.next_line(&progress(910, 2000), at(5040)).as_deref(),
            Some(
                "verify: 910/2000 positions (45.5%), 1.000e1 positions/s over the last 10 s, 5040 s so far, about 109 s left"
            )
        );
        // Past the window, the rate is the last ten minutes': 20/s from
        // 5040 on, the window's base the line at 5070.
        let mut done = 910;
        for s in (5050..=5660).step_by(10) {
            done += 200;
            lines.next_line(&progress(done, 1_000_000), at(s));
        }
        let line = lines
            .next_line(&progress(done + 200, 1_000_000), at(5670))
            .unwrap();
        assert!(
            line.contains("2.000e1 positions/s over the last 600 s"),
            "{line}"
        );
    }

    #[test]
    fn a_verify_log_says_when_each_file_is_done() {
        let (lines, t0) = started("verify");
        let at = |s: u64| t0 + Duration::from_secs(s);
        let mut v = VerifyLines {
            lines,
            ..VerifyLines::default()
        };
        let p = |step: &'static str, done: u64| Progress {
            step,
            ..progress(done, 1000)
        };
        // The run's first progress (300 checked by earlier runs), then a
        // file whose record said it was done, then one checked.
        assert_eq!(v.lines_at(&p("", 300), at(0)), Vec::<String>::new());
        assert_eq!(
            v.lines_at(&p("assaut 1o9s", 300), at(1)),
            Vec::<String>::new()
        );
        assert_eq!(
            v.lines_at(&p("assaut 2o9s", 300), at(2)),
            [
                "verify: assaut 1o9s: done, nothing left to check (an earlier run's record, beside the file or named by --proved-by)"
            ]
        );
        // A progress line names the file under way.
        assert_eq!(
            v.lines_at(&p("assaut 2o9s", 400), at(12)),
            [
                "verify (at assaut 2o9s): 400/1000 positions (40.0%), 8.333e0 positions/s over the last 12 s, 12 s so far, about 72 s left"
            ]
        );
        assert_eq!(
            v.lines_at(&p("assaut 1o10s", 700), at(22)),
            [
                "verify: assaut 2o9s: done, 400 positions checked in 20.0 s this run (2.000e1 positions/s)",
                "verify (at assaut 1o10s): 700/1000 positions (70.0%), 1.818e1 positions/s over the last 22 s, 22 s so far, about 16 s left"
            ]
        );
        v.lines_at(&p("assaut 1o10s", 750), at(23));
        assert_eq!(
            v.file_done(at(27), true).as_deref(),
            Some(
                "verify: assaut 1o10s: stopped, 50 positions checked in 5.0 s this run (1.000e1 positions/s)"
            )
        );
        assert_eq!(v.file_done(at(28), true), None);
        // A file that cannot be checked is said so, and never "done".
        v.lines_at(&p("assaut 2o10s", 750), at(30));
        assert_eq!(
            v.lines_at(&p("assaut 2o10s: cannot be checked", 750), at(31)),
            ["verify: assaut 2o10s: cannot be checked (its error is in the output)"]
        );
        assert!(
            v.lines_at(&p("assaut 1o11s", 750), at(32))
                .iter()
                .all(|l| !l.contains("done")),
        );
    }

    #[test]
    fn a_bounded_line_gives_no_share_and_no_time_left() {
        // A search that entered 500 positions of at most a million: the
        // bound is not the work left, so neither a share nor an end is
        // guessed from it.
        let lines = LogLines::bounded("line search".into());
        assert_eq!(
            lines.line(&progress(500, 1_000_000), 20.0, Some((25.0, 20.0))),
            "line search: 500 positions (bound 1000000), 2.500e1 positions/s over the last 20 s, 20 s so far"
        );
    }
}
