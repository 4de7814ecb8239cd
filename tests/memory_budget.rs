//! A build under the smallest `--memory` it accepts, whose window is too
//! small for the file's own solved tiers so that it must read them back
//! from the part of the file already written, stays within that budget:
//! its anonymous memory (`RssAnon`, what the budget bounds), sampled from
//! outside the process every 2 ms from `/proc/<pid>/status` until it
//! exits, and the peak it reports itself for each file, are at most the
//! budget.
//!
//! The budget is the smallest the build accepts by its own rule (the
//! plan's `least_memory_bytes`, which is [`bytes_besides_window`] plus
//! [`MIN_WINDOW_BYTES`] for the file that needs the most): a byte less is
//! refused, and at it that file's window budget is exactly
//! [`MIN_WINDOW_BYTES`].
//!
//! How sharp this is: that budget is [`FIXED_BYTES`] (a fixed allowance of
//! 1184 MiB for caches, two chunks' values, scratch and allocator slack),
//! the file's index estimate and 64 MiB of window, about 1.31e9 bytes,
//! while this closure (1.0e7 positions, a few seconds) peaks at tens of MB:
//! most of it before the first file (the plan and the closure, which the
//! build's own per-file peaks do not see), under 30 MB while the files are
//! built. So that check alone catches only a gross overrun. Two sharper
//! ones go with it:
//!
//! - the window never held more than its budget (`window_peak_bytes <=
//!   window_budget_bytes`), while the tiers its levels read, which the
//!   same build with its window in memory holds at its peak (as its tiers
//!   predict), exceed that budget: the rest was read back from disk, and
//!   the files are byte-identical;
//! - reading back costs no more than its cache accounts for: while the
//!   files are built (from the first file's line on stderr), the sampled
//!   anonymous peak of the read-back build is at most that of the same
//!   build with its window in memory plus twice what the read-back cache
//!   can hold (each tier read back is decoded into a vector, then copied
//!   into the cache's shared slice, and glibc may keep the freed vector
//!   resident until the build's next trim).
//!
//! No timing is asserted.

#![cfg(target_os = "linux")]

mod common;

use asalto_tb::budget::{FIXED_BYTES, MIN_WINDOW_BYTES};
use asalto_tb::build::{self, bytes_besides_window};
use asalto_tb::index::FileKey;
use asalto_tb::solve::Solver;
use asalto_tb::table::{WriteOptions, table_path};
use asalto_tb::{Position, Variant};
use common::{asalto, json};
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

/// A closure of 1.0e7 positions over 1o9s, 2o9s, 1o10s and 2o10s (a few
/// seconds with one thread).
const POS: &str = "S1S/3/OSS1SO1/2SSS2/3S3/S2/3 s";

/// Bytes of values the window's read-back cache holds at most: 2^24
/// two-byte values (`FIXED_BYTES`' "window's read-back cache (32 MiB)").
const READ_BACK_CACHE_BYTES: u64 = 32 << 20;

/// The peaks of a process's memory, sampled from outside.
#[derive(Clone, Copy, Debug, Default)]
struct Sampled {
    /// Peak `RssAnon` (bytes).
    anon: u64,
    /// Peak `VmRSS` (bytes; mapped tables and the binary included).
    rss: u64,
    /// Samples that read both fields.
    samples: u64,
    /// Peak `RssAnon` once the first file started (its line on stderr),
    /// past the plan and the closure worked out before it.
    files_anon: u64,
}

/// The value of the line starting with `field` (in kB) of a `/proc`
/// status text, in bytes.
fn kb_field(text: &str, field: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(field))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// `asalto build --for POS --threads 1 --json --memory memory` into
/// `tables` (with `--window-bytes window` when given), its anonymous and
/// resident memory sampled from `/proc/<pid>/status` every 2 ms until it
/// exits: whether it succeeded, its stdout, its stderr and the peaks.
fn sampled_build(
    tables: &Path,
    memory: u64,
    window: Option<u64>,
) -> (bool, Vec<u8>, String, Sampled) {
    let out = tempfile::tempdir().unwrap();
    let (stdout, stderr) = (out.path().join("stdout"), out.path().join("stderr"));
    let mut c = Command::new(env!("CARGO_BIN_EXE_asalto"));
    c.args(["build", "--for", POS, "--threads", "1", "--json"])
        .args(["--memory", &memory.to_string()])
        .arg("--tables")
        .arg(tables)
        .stdout(Stdio::from(std::fs::File::create(&stdout).unwrap()))
        .stderr(Stdio::from(std::fs::File::create(&stderr).unwrap()));
    if let Some(w) = window {
        c.args(["--window-bytes", &w.to_string()]);
    }
    let mut child = c.spawn().expect("start asalto build");
    let status_path = format!("/proc/{}/status", child.id());
    let mut peaks = Sampled::default();
    let mut files_started = false;
    let status = loop {
        // Read before asking whether it exited: the child is reaped only
        // by `try_wait`, so its /proc entry is there until then.
        let text = std::fs::read_to_string(&status_path).unwrap_or_default();
        if let (Some(anon), Some(rss)) = (kb_field(&text, "RssAnon:"), kb_field(&text, "VmRSS:")) {
            peaks.anon = peaks.anon.max(anon);
            peaks.rss = peaks.rss.max(rss);
            peaks.samples += 1;
            if files_started
                || std::fs::read_to_string(&stderr).is_ok_and(|e| e.contains("file 1:"))
            {
                files_started = true;
                peaks.files_anon = peaks.files_anon.max(anon);
            }
        }
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    (
        status.success(),
        std::fs::read(&stdout).unwrap(),
        std::fs::read_to_string(&stderr).unwrap(),
        peaks,
    )
}

/// The built files' reports of a build's JSON, by file name ("2o9s").
fn file_reports(stdout: &[u8], stderr: &str) -> Vec<(String, Value)> {
    let v: Value = serde_json::from_slice(stdout)
        .unwrap_or_else(|e| panic!("no JSON ({e}); stderr: {stderr}"));
    let builds = v["builds"].as_array().unwrap();
    assert_eq!(builds.len(), 1);
    builds[0]["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["file"].as_str().unwrap().to_string(), f.clone()))
        .collect()
}

fn u(v: &Value, field: &str) -> u64 {
    v[field]
        .as_u64()
        .unwrap_or_else(|| panic!("{field} in {v}"))
}

#[test]
fn a_build_under_its_smallest_memory_that_must_read_back_stays_within_it() {
    let variant = Variant::ASSAUT;
    let empty = tempfile::tempdir().unwrap();

    // The smallest budget the build accepts: the plan's, checked against
    // the build's rule for each file of the closure.
    let plan = json(&asalto(&[
        "plan",
        "--for",
        POS,
        "--json",
        "--rate",
        "1e6",
        "--tables",
        empty.path().to_str().unwrap(),
    ]));
    let files = plan["files"].as_array().unwrap();
    for f in files {
        let rule = bytes_besides_window(
            u(f, "tiers"),
            u(f, "positions"),
            &WriteOptions::of_kind(false),
        ) + MIN_WINDOW_BYTES;
        assert_eq!(u(f, "least_memory_bytes"), rule, "{f}");
    }
    let binding = files
        .iter()
        .max_by_key(|f| u(f, "least_memory_bytes"))
        .unwrap();
    let binding_name = binding["file"].as_str().unwrap().to_string();
    let budget = u(binding, "least_memory_bytes");
    let (bn, bk) = (u(binding, "officers") as u8, u(binding, "soldiers") as u8);

    // A byte less is refused at that file, which is not written.
    let refused = tempfile::tempdir().unwrap();
    let (ok, _, stderr, _) = sampled_build(refused.path(), budget - 1, None);
    assert!(!ok, "a budget of {} bytes was accepted", budget - 1);
    assert!(stderr.contains("too small"), "{stderr}");
    assert!(!table_path(refused.path(), &variant, FileKey::new(bn, bk)).exists());

    // The tiers each file's levels read, at the window's peak.
    let p: Position = POS.parse().unwrap();
    let tiers = Solver::new(variant).closure_of(&p);
    let predicted = |name: &str| {
        let f = files.iter().find(|f| f["file"] == name).unwrap();
        let own = common::own_tiers(
            &tiers,
            FileKey::new(u(f, "officers") as u8, u(f, "soldiers") as u8),
        );
        build::window_peak_bytes(&variant, &own, false)
    };

    // The same budget with the window in memory: it never binds, and each
    // window holds at its peak what its tiers predict.
    let memory_dir = tempfile::tempdir().unwrap();
    let (ok, stdout, stderr, in_memory) = sampled_build(memory_dir.path(), budget, None);
    assert!(ok, "{stderr}");
    let memory_reports = file_reports(&stdout, &stderr);
    assert_eq!(memory_reports.len(), files.len());
    for (name, r) in &memory_reports {
        assert_eq!(u(r, "window_peak_bytes"), predicted(name), "{name}");
        assert!(
            u(r, "window_peak_bytes") < u(r, "window_budget_bytes"),
            "{r}"
        );
        if *name == binding_name {
            assert_eq!(u(r, "window_budget_bytes"), MIN_WINDOW_BYTES, "{r}");
        }
    }

    // A window of half the smallest file's peak: no file's tiers all fit.
    let window = memory_reports
        .iter()
        .map(|(_, r)| u(r, "window_peak_bytes"))
        .min()
        .unwrap()
        / 2;
    assert!(window > 0);
    let back_dir = tempfile::tempdir().unwrap();
    let (ok, stdout, stderr, read_back) = sampled_build(back_dir.path(), budget, Some(window));
    assert!(ok, "{stderr}");
    let back_reports = file_reports(&stdout, &stderr);
    assert_eq!(back_reports.len(), files.len());
    for (name, r) in &back_reports {
        let (peak, budget_w) = (u(r, "window_peak_bytes"), u(r, "window_budget_bytes"));
        eprintln!(
            "{name}: window peak {peak} of its budget {budget_w} (in memory: {}); peak anonymous {} of the budget {budget}",
            predicted(name),
            u(r, "peak_anon_bytes")
        );
        assert_eq!(budget_w, window, "{name}");
        assert!(peak <= budget_w, "{name}: the window held {peak} bytes");
        assert!(
            predicted(name) > budget_w,
            "{name}: its tiers fit the window"
        );
        // Read back, byte for byte the same file.
        let (n, k) = (u(r, "officers") as u8, u(r, "soldiers") as u8);
        assert_eq!(
            std::fs::read(table_path(back_dir.path(), &variant, FileKey::new(n, k))).unwrap(),
            std::fs::read(table_path(memory_dir.path(), &variant, FileKey::new(n, k))).unwrap(),
            "{name}"
        );
        // What the build measured itself is within the budget.
        assert!(u(r, "peak_anon_bytes") > 0, "{r}");
        assert!(u(r, "peak_anon_bytes") <= budget, "{r}");
    }
    for (_, r) in &memory_reports {
        assert!(u(r, "peak_anon_bytes") <= budget, "{r}");
    }

    // Sampled from outside: within the budget, and reading back costs at
    // most twice what the read-back cache can hold. The cache keeps two
    // bytes a value of the officers-to-move halves it read, at most 2^24
    // values, and at most every half of a file (half its positions): at
    // most as many bytes as the largest file has positions. Twice that:
    // each half is decoded into a vector first, then copied.
    let cache_bound = files
        .iter()
        .map(|f| u(f, "positions"))
        .max()
        .unwrap()
        .min(READ_BACK_CACHE_BYTES);
    eprintln!(
        "budget {budget} ({FIXED_BYTES} fixed), window {window}, read-back cache at most {cache_bound}; sampled: read back {read_back:?}, in memory {in_memory:?}"
    );
    for s in [read_back, in_memory] {
        assert!(s.samples >= 10, "{s:?}");
        assert!(
            0 < s.files_anon && s.files_anon <= s.anon && s.anon <= s.rss,
            "{s:?}"
        );
        assert!(s.anon <= budget, "{s:?} over a budget of {budget} bytes");
    }
    assert!(
        read_back.files_anon <= in_memory.files_anon + 2 * cache_bound,
        "building the files reading back took {} bytes of anonymous memory, {} with the window in memory (+ 2 x {cache_bound} allowed)",
        read_back.files_anon,
        in_memory.files_anon
    );
}
