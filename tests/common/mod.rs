//! Shared test helpers: the slow oracle (`slow`), the reference solver
//! (`reference`), a tiny deterministic PRNG, thin wrappers around the
//! library so that its answers can be compared with the oracle's as strings,
//! and running the `asalto` binary.

#![allow(dead_code)]

pub mod reference;
pub mod slow;

use std::collections::{BTreeMap, BTreeSet};

use asalto_tb::rules;
use asalto_tb::{Position, Side, Variant};

/// Run the `asalto` binary built for these tests with `args`.
pub fn asalto(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_asalto"))
        .args(args)
        .output()
        .expect("run asalto")
}

/// Twelve soldiers: the position whose closure above the floor of 11 the
/// floor tests build ([`build_floor_11`]).
pub const FLOOR_POS: &str = "SSS/1O1/1SS1S1O/2SSS2/3S3/1S1/3 s";

/// `asalto build --for FLOOR_POS --floor 11 --assume SIDE --wdl-only` into
/// the tables folder `tables`, for both sides, on two threads.
pub fn build_floor_11(tables: &str) {
    for side in ["officers", "soldiers"] {
        let o = asalto(&[
            "build",
            "--for",
            FLOOR_POS,
            "--floor",
            "11",
            "--assume",
            side,
            "--wdl-only",
            "--tables",
            tables,
            "--threads",
            "2",
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
}

/// Start `asalto serve --port 0 --threads 1` with `args` (stderr as
/// `stderr` says) and read the URL it prints first: the child and the URL
/// without its final `/`.
pub fn serve(args: &[&str], stderr: std::process::Stdio) -> (std::process::Child, String) {
    use std::io::BufRead;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_asalto"))
        .args(["serve", "--port", "0", "--threads", "1"])
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("start asalto serve");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().expect("piped"))
        .read_line(&mut line)
        .expect("read the URL");
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL in {line:?}"))
        .trim_end_matches('/')
        .to_string();
    (child, url)
}

/// The canonical tiers of `file` among `tiers`, sorted, once each.
pub fn own_tiers(
    tiers: &[asalto_tb::index::TierKey],
    file: asalto_tb::index::FileKey,
) -> Vec<asalto_tb::index::TierKey> {
    let mut own: Vec<_> = tiers
        .iter()
        .filter(|t| t.file() == file)
        .map(|t| t.canonical())
        .collect();
    own.sort();
    own.dedup();
    own
}

/// The JSON a successful run printed (a failed run panics with its stderr).
pub fn json(o: &std::process::Output) -> serde_json::Value {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

/// `scripts/run-summary.py` run on `records` with `args` and `--json`:
/// its output, parsed (python3 as the notebook's CI step needs it).
pub fn run_summary(records: &std::path::Path, args: &[&std::ffi::OsStr]) -> serde_json::Value {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/run-summary.py");
    let out = std::process::Command::new("python3")
        .arg(script)
        .arg(records)
        .args(args)
        .arg("--json")
        .output()
        .expect("python3 runs scripts/run-summary.py");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The named presets of docs/RULES.md section 7.
pub const PRESETS: [&str; 4] = ["assaut", "assaut-mdj", "asalto", "assault"];

/// The start position with the default officers.
pub const START: &str = "3/O1O/SS3SS/SSSSSSS/SSSSSSS/SSS/SSS s -";

/// xorshift64* — small, deterministic, good enough to pick moves.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform-ish in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    pub fn chance(&mut self, num: usize, den: usize) -> bool {
        self.below(den) < num
    }
}

pub fn lib_variant(s: &str) -> Variant {
    match s.parse::<Variant>() {
        Ok(v) => v,
        Err(e) => panic!("library rejects variant {s:?}: {e}"),
    }
}

pub fn lib_pos(s: &str) -> Position {
    match s.parse::<Position>() {
        Ok(p) => p,
        Err(e) => panic!("library rejects position {s:?}: {e}"),
    }
}

pub fn side_char(s: Side) -> char {
    match s {
        Side::Soldiers => 's',
        Side::Officers => 'o',
    }
}

/// The library's moves as `notation -> resulting position` (panics on a
/// duplicate notation).
pub fn lib_moves(p: &Position, v: &Variant) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for m in rules::legal_moves(p, v) {
        let after = rules::play(p, v, &m).to_string();
        let n = m.to_string();
        if let Some(prev) = out.insert(n.clone(), after.clone()) {
            panic!("duplicate move {n} in {p} [{v}] (results {prev} and {after})");
        }
    }
    out
}

pub fn lib_successors(p: &Position, v: &Variant) -> BTreeSet<String> {
    rules::legal_moves(p, v)
        .iter()
        .map(|m| rules::play(p, v, m).to_string())
        .collect()
}

pub fn lib_outcome(p: &Position, v: &Variant) -> Option<char> {
    rules::outcome(p, v).map(side_char)
}

/// The oracle's moves as `notation -> resulting position`.
pub fn slow_moves(pos: &str, variant: &str) -> BTreeMap<String, String> {
    slow::moves(pos, variant)
        .into_iter()
        .map(|m| (m.notation, m.result))
        .collect()
}

/// A readable difference between two move maps, empty when they agree.
pub fn diff_moves(lib: &BTreeMap<String, String>, slow: &BTreeMap<String, String>) -> String {
    let mut out = String::new();
    for (n, r) in lib {
        match slow.get(n) {
            None => out += &format!("  library only: {n} -> {r}\n"),
            Some(s) if s != r => out += &format!("  {n}: library -> {r}, oracle -> {s}\n"),
            _ => {}
        }
    }
    for (n, r) in slow {
        if !lib.contains_key(n) {
            out += &format!("  oracle only:  {n} -> {r}\n");
        }
    }
    out
}

/// The positions named in `tests/perft/*.perft` (for reuse as hand-made
/// positions), with the variant of each line.
pub fn perft_lines() -> Vec<PerftLine> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/perft");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "perft"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let fields: Vec<&str> = line.split(';').map(str::trim).collect();
            let at = format!("{}:{}", f.file_name().unwrap().to_string_lossy(), i + 1);
            assert!(
                fields.len() == 4 || fields.len() == 5,
                "{at}: bad line {line:?}"
            );
            let outcome = fields.get(4).map(|o| match *o {
                "s" => Some('s'),
                "o" => Some('o'),
                "-" => None,
                _ => panic!("{at}: bad outcome {o:?}"),
            });
            out.push(PerftLine {
                at,
                variant: fields[0].to_string(),
                position: fields[1].to_string(),
                depth: fields[2]
                    .parse()
                    .unwrap_or_else(|_| panic!("bad depth in {line:?}")),
                nodes: fields[3]
                    .parse()
                    .unwrap_or_else(|_| panic!("bad nodes in {line:?}")),
                outcome,
            });
        }
    }
    out
}

pub struct PerftLine {
    /// `file:line`, for messages.
    pub at: String,
    pub variant: String,
    pub position: String,
    pub depth: u32,
    pub nodes: u64,
    /// `Some(None)`: ongoing; `Some(Some(c))`: won by `c`; `None`: not given.
    pub outcome: Option<Option<char>>,
}
