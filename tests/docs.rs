//! The repository explains itself: every document the code, the tests, the
//! README and the help texts cite is in the repository, with the sections
//! cited, and nothing points outside it.

use std::path::{Path, PathBuf};
mod common;

use common::run_summary;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A JSON record of the repository.
fn json_at(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A document of the repository with its whitespace flattened to single
/// spaces, so that a phrase is found wherever its lines break.
fn flat_text(rel: &str) -> String {
    let text = std::fs::read_to_string(root().join(rel)).unwrap();
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Every text file under `dir` with one of the extensions.
fn files(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, exts, out);
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| exts.contains(&e))
        {
            out.push(path);
        }
    }
}

/// The sources that may cite documents: code, tests, scripts, README.
fn sources() -> Vec<PathBuf> {
    let mut out = vec![root().join("README.md")];
    for dir in ["src", "tests", "scripts"] {
        files(
            &root().join(dir),
            &["rs", "sh", "py", "perft", "md"],
            &mut out,
        );
    }
    files(&root().join("notebooks"), &["ipynb", "txt"], &mut out);
    out.retain(|p| !p.ends_with("tests/docs.rs"));
    out
}

/// The section numbers of a document's `## N.` headings.
fn sections(doc: &str) -> Vec<u32> {
    let text = std::fs::read_to_string(root().join("docs").join(doc)).unwrap();
    text.lines()
        .filter_map(|l| l.strip_prefix("## "))
        .filter_map(|l| l.split('.').next()?.parse().ok())
        .collect()
}

#[test]
fn no_reference_leaves_the_repository() {
    for path in sources() {
        let text = std::fs::read_to_string(&path).unwrap();
        for bad in ["../shared", "shared/RULES", "shared/DESIGN", "seeds/"] {
            assert!(
                !text.contains(bad),
                "{} cites {bad}, which a clone does not have",
                path.display()
            );
        }
    }
}

#[test]
fn cited_sections_exist() {
    let docs = [
        ("RULES.md", sections("RULES.md")),
        ("DESIGN.md", sections("DESIGN.md")),
    ];
    assert_eq!(docs[0].1, (1..=11).collect::<Vec<_>>());
    let mut checked = 0;
    for path in sources() {
        let text = std::fs::read_to_string(&path).unwrap();
        // Comments wrap lines: read the text as one line of words.
        let words: Vec<&str> = text.split_whitespace().collect();
        for (i, w) in words.iter().enumerate() {
            for (doc, numbers) in &docs {
                if !w.contains(doc) {
                    continue;
                }
                let next = words.get(i + 1).copied().unwrap_or("");
                if !next.starts_with("section") {
                    continue;
                }
                // "section 9", "sections 3 to 6 and 10", "sections 1 and 3".
                for n in words[i + 2..]
                    .iter()
                    .take(5)
                    .map(|w| w.trim_matches(|c: char| !c.is_ascii_digit()).parse::<u32>())
                    .map_while(Result::ok)
                {
                    assert!(
                        numbers.contains(&n),
                        "{} cites {doc} section {n}, which it does not have",
                        path.display()
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 30, "only {checked} citations found");
}

/// The files a build summary built (not skipped): how many, their
/// positions, and their seconds over the runs that built them.
fn built_files(build: &serde_json::Value) -> (u64, u64, f64) {
    let (mut files, mut positions, mut seconds) = (0, 0, 0.0);
    for f in build["builds"][0]["files"].as_array().unwrap() {
        if !f["skipped"].as_bool().unwrap() {
            files += 1;
            positions += f["positions"].as_u64().unwrap();
            seconds += f["seconds"].as_f64().unwrap() + f["earlier_seconds"].as_f64().unwrap();
        }
    }
    (files, positions, seconds)
}

/// `scripts/run-summary.py` sums a run's records as they are: on the
/// committed records of assault's 20-soldier closure (sittings 3-6, the
/// last one's verify whole), its totals are those summed here from the
/// JSON summaries themselves. Needs python3 (as the notebook's CI step).
#[test]
fn run_summary_sums_the_records_it_reads() {
    let dir = root().join("scripts/bench-runs/2026-11-28-f20");
    let summary = run_summary(&dir, &["--prefix".as_ref(), "assault-".as_ref()]);
    let total = &summary["total"];

    // Built: each file once, by the sitting whose build did not skip it.
    let (mut files_built, mut built_positions, mut build_seconds) = (0, 0, 0.0);
    for n in 3..=6 {
        let (f, p, s) = built_files(&json_at(&dir.join(format!("assault-{n}-build.json"))));
        files_built += f;
        built_positions += p;
        build_seconds += s;
    }
    // Verified: the last record lists every file with its seconds, those
    // taken from sitting 5's record included (as their earlier seconds,
    // plus the moment it took to read that record again).
    let verify = json_at(&dir.join("assault-6-verify.json"));
    let per_file = verify["per_file"].as_array().unwrap();
    let verify_seconds: f64 = per_file
        .iter()
        .map(|f| f["seconds"].as_f64().unwrap() + f["earlier_seconds"].as_f64().unwrap())
        .sum();

    assert_eq!(total["sittings"], 4);
    assert_eq!(total["files_built"], files_built);
    assert_eq!(total["positions_built"], built_positions);
    assert_eq!(total["positions_built"], verify["positions"]);
    let b = total["build_seconds_of_files_built"].as_f64().unwrap();
    assert!((b - build_seconds).abs() < 1e-6, "{b} != {build_seconds}");
    assert_eq!(total["files_verified"], per_file.len());
    assert_eq!(total["positions_verified"], verify["positions"]);
    let v = total["verify_seconds_of_files_verified"].as_f64().unwrap();
    assert!(
        v <= verify_seconds && verify_seconds - v < 0.001 * verify_seconds,
        "{v} against {verify_seconds}"
    );
    assert_eq!(total["last_verify"]["ok"], true);
    assert_eq!(total["last_verify"]["inconsistent"], 0);
    // The sitting that stopped in 2o13s's verify says so.
    let five = &summary["sittings"][2];
    assert_eq!(five["sitting"], 5);
    assert_eq!(five["verify_stopped"]["file"], "2o13s");
    assert_eq!(five["verify_stopped"]["positions_done"], 6_442_578_900u64);
}

/// Before any verify is measured, `scripts/run-summary.py --plan` gives
/// the verify's time left as the plan's ratio of verify to build time
/// applied to the build's measured rate: checked on the whole game's first
/// sitting (its records alone, copied aside, so later sittings do not
/// change the case), against the same figures taken here from the JSON.
#[test]
fn run_summary_estimates_an_unmeasured_verify_from_the_plan() {
    let records = root().join("scripts/bench-runs/2026-11-28-start");
    let dir = tempfile::tempdir().unwrap();
    for name in ["1.txt", "1-build.json", "1-build.time"] {
        std::fs::copy(records.join(name), dir.path().join(name)).unwrap();
    }
    let plan_path = records.join("plan.json");
    let summary = run_summary(dir.path(), &["--plan".as_ref(), plan_path.as_os_str()]);
    let total = &summary["total"];

    let plan = json_at(&plan_path);
    let build = json_at(&dir.path().join("1-build.json"));
    let (_, built, seconds) = built_files(&build);
    let partial = build["stopped"]["positions_done"].as_u64().unwrap();
    let all = plan["positions"].as_u64().unwrap();
    let ratio = plan["verify_over_build"].as_f64().unwrap();
    let rate = built as f64 / seconds;
    let close = |got: &serde_json::Value, want: f64| {
        let got = got.as_f64().unwrap();
        assert!((got - want).abs() <= 1e-9 * want, "{got} != {want}");
    };
    assert_eq!(total["positions_verified"], 0);
    assert_eq!(total["positions_left_to_build"], all - built - partial);
    close(
        &total["build_seconds_left_estimate"],
        (all - built - partial) as f64 / rate,
    );
    close(
        &total["verify_seconds_left_estimate"],
        all as f64 / rate * ratio,
    );
    close(&total["verify_estimate_from_plan_ratio"], ratio);
}

/// The soldier steps a block of docs/RULES.md section 3 lists: lines of
/// `from -> to, to` pairs (left half of the board and file d).
fn listed_steps(block: &str) -> Vec<(String, Vec<String>)> {
    let words: Vec<&str> = block.split_whitespace().collect();
    let is_point = |w: &str| {
        let b = w.as_bytes();
        b.len() == 2 && (b'a'..=b'g').contains(&b[0]) && (b'1'..=b'7').contains(&b[1])
    };
    let mut out = Vec::new();
    for (i, w) in words.iter().enumerate() {
        if *w != "->" {
            continue;
        }
        let from = words[i - 1].to_string();
        let mut to = Vec::new();
        for t in &words[i + 1..] {
            let name = t.trim_end_matches(',');
            if !is_point(name) {
                break;
            }
            to.push(name.to_string());
            if !t.ends_with(',') {
                break;
            }
        }
        out.push((from, to));
    }
    out
}

#[test]
fn the_soldier_step_tables_of_rules_md_are_the_codes() {
    use asalto_tb::board::{self, Point};
    let text = std::fs::read_to_string(root().join("docs/RULES.md")).unwrap();
    let section = &text[text.find("## 3.").unwrap()..text.find("## 4.").unwrap()];
    let closer =
        &section[section.find("**`closer`**").unwrap()..section.find("**`forward`**").unwrap()];
    let forward = &section[section.find("**`forward`**").unwrap()..];
    // The diagram of each rule: its first fenced block.
    let diagram = |block: &str| -> String { block.split("```").nth(1).unwrap().to_string() };
    for (block, variant) in [
        (closer, asalto_tb::Variant::ASSAUT),
        (forward, asalto_tb::Variant::ASSAULT),
    ] {
        let steps = listed_steps(&diagram(block));
        // The left half and file d: 14 of the 24 outside points.
        assert_eq!(steps.len(), 14, "{steps:?}");
        let table = variant.soldier_moves();
        let p = |n: &str| Point::from_name(n).unwrap();
        let mut covered = 0u64;
        for (from, to) in &steps {
            for mirrored in [false, true] {
                let at = if mirrored { p(from).mirror() } else { p(from) };
                let want = to
                    .iter()
                    .map(|t| if mirrored { p(t).mirror() } else { p(t) })
                    .fold(0u64, |acc, q| acc | q.bit());
                assert_eq!(table[at.index()], want, "{} ({variant})", at.name());
                covered |= at.bit();
            }
        }
        assert_eq!(covered, board::OUTSIDE, "{variant}");
    }
}

#[test]
fn the_board_of_rules_md_is_the_codes() {
    use asalto_tb::board::{self, Point};
    let text = std::fs::read_to_string(root().join("docs/RULES.md")).unwrap();
    let section = &text[text.find("## 1.").unwrap()..text.find("## 2.").unwrap()];
    let p = |n: &str| Point::from_name(n).unwrap_or_else(|| panic!("{n}"));
    let names = |s: &str| -> Vec<String> {
        s.split(|c: char| c == ',' || c.is_whitespace() || c == ':' || c == '.')
            .filter(|w| w.len() == 2 || (w.len() == 5 && w.as_bytes()[2] == b'-'))
            .map(str::to_string)
            .collect()
    };
    // "... the *junctions*, have them: c7, e7, ..., e1. Two junctions ..."
    let start = section.find("have them:").unwrap();
    let end = start + section[start..].find("Two junctions").unwrap();
    let junctions: Vec<String> = names(&section[start..end])
        .into_iter()
        .filter(|w| Point::from_name(w).is_some())
        .collect();
    assert_eq!(junctions.len(), 17, "{junctions:?}");
    for q in Point::all() {
        assert_eq!(
            q.is_junction(),
            junctions.contains(&q.name().to_string()),
            "{}",
            q.name()
        );
    }
    // "... which gives 20 diagonal segments: c7-d6, ..., d2-e1."
    let start = section.find("diagonal segments:").unwrap();
    let end = start + section[start..].find("That makes").unwrap();
    let diagonals: Vec<String> = names(&section[start..end])
        .into_iter()
        .filter(|w| w.contains('-'))
        .collect();
    assert_eq!(diagonals.len(), 20, "{diagonals:?}");
    for d in &diagonals {
        let (a, b) = d.split_once('-').unwrap();
        assert!(p(a).adjacent() & p(b).bit() != 0, "{d}");
        assert!(
            p(a).file() != p(b).file() && p(a).rank() != p(b).rank(),
            "{d}"
        );
    }
    assert_eq!(board::segment_count(), (52, 20));
    let fortress: u64 = ["c5", "d5", "e5", "c6", "d6", "e6", "c7", "d7", "e7"]
        .iter()
        .fold(0, |acc, n| acc | p(n).bit());
    let flat = section.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("points c5, d5, e5, c6, d6, e6, c7, d7, e7."));
    assert_eq!(fortress, board::FORTRESS);
}

/// A figure as the README writes it: `x` over `10^e` with two decimals,
/// then `e<e>` (9.03e9, 11.89e9).
fn at_power(x: f64, e: i32) -> String {
    format!("{:.2}e{e}", x / 10f64.powi(e))
}

/// The newest folder under scripts/bench-runs that holds a bench.json
/// (folders are named by date first, so the last by name).
fn newest_bench() -> String {
    let mut dirs: Vec<String> = std::fs::read_dir(root().join("scripts/bench-runs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("bench.json").is_file())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    dirs.sort();
    dirs.pop().expect("a bench record")
}

#[test]
fn readme_figures_are_those_of_the_newest_bench_record() {
    // Each figure of the README's Figures section, formatted from the
    // newest bench record, which it must cite: a figure edited by hand, or
    // a newer record committed without the README, fails here.
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let dir = newest_bench();
    assert!(
        readme.contains(&format!("[record](scripts/bench-runs/{dir}/)")),
        "the README's figures do not cite the newest bench record, {dir}"
    );
    let r = json_at(
        &root()
            .join("scripts/bench-runs")
            .join(&dir)
            .join("bench.json"),
    );
    let f = |key: &str| r[key].as_f64().unwrap_or_else(|| panic!("{dir}: {key}"));
    let commit = r["commit"].as_str().unwrap();
    let mut shown = vec![
        format!("commit {commit}, [record]"),
        format!("| {:.2e} positions/s (", f("rate_per_core")),
        format!("({:.2e} per CPU-second", f("rate_per_cpu_second")),
        format!("| {:.2}x |", f("speedup_2_threads")),
        format!("| {:.0} s (`seconds_to_9`)", f("seconds_to_9")),
        format!(
            "| {} bytes anonymous",
            at_power(
                r["peaks_per_soldiers"]["peak_anon_bytes_9"]
                    .as_f64()
                    .unwrap(),
                9
            )
        ),
        format!(
            "; {} resident",
            at_power(
                r["peaks_per_soldiers"]["peak_rss_bytes_9"]
                    .as_f64()
                    .unwrap(),
                9
            )
        ),
        format!("| {:.3} bits/position |", f("wdl_only_bits_per_position")),
        format!(
            "| {:.2e} positions/s (`wdl_build_rate`)",
            f("wdl_build_rate")
        ),
        format!(
            "| {:.2e} positions/s with distances, {:.2e} WDL-only",
            f("verify_rate_per_core"),
            f("verify_rate_wdl_only_per_core")
        ),
        format!("| {:.2} us |", f("probe_median_us")),
        format!(
            "| {:.2} ms / {:.2} ms |",
            f("query_warm_ms"),
            f("query_cold_ms")
        ),
    ];
    // The level samples' table: one row per rate, one column per k.
    let levels = r["levels"].as_array().unwrap();
    let ks: Vec<String> = levels.iter().map(|l| l["k"].to_string()).collect();
    shown.push(format!("| k | {} |", ks.join(" | ")));
    for (name, key) in [
        ("position solver", "solve_rate_per_core"),
        ("verify by sets (the default)", "sets_verify_rate_per_core"),
        ("verify position by position", "verify_rate_per_core"),
    ] {
        let cells: Vec<String> = levels
            .iter()
            .map(|l| format!("{:.2e}", l[key].as_f64().unwrap()))
            .collect();
        shown.push(format!("| {name} | {} |", cells.join(" | ")));
    }
    let bits: Vec<String> = levels
        .iter()
        .map(|l| format!("{:.2e}", l["bits_rate_per_core"].as_f64().unwrap()))
        .collect();
    shown.push(format!(") | {} |", bits.join(" | ")));
    for s in &shown {
        assert!(
            readme.contains(s.as_str()),
            "the README does not show {s:?} ({dir})"
        );
    }
    // The bench of the fixed-point verify, told in docs/FIGURES.md.
    let n = json_at(&root().join("scripts/bench-runs/2026-11-26-vm/bench.json"));
    let g = |key: &str| n[key].as_f64().unwrap_or_else(|| panic!("{key}"));
    let figures = flat_text("docs/FIGURES.md");
    for s in [
        format!(
            "solving {:.2e} positions/s on one thread",
            g("rate_per_core")
        ),
        format!(
            "gives verify {:.2e} positions/s with distances and {:.2e} WDL-only",
            g("verify_rate_per_core"),
            g("verify_rate_wdl_only_per_core")
        ),
    ] {
        assert!(figures.contains(&s), "docs/FIGURES.md does not show {s:?}");
    }
}

#[test]
fn figures_ratios_since_the_2026_11_26_bench_are_those_of_their_runs() {
    // docs/FIGURES.md's ratios of the engine today over commit 3c1b362:
    // the medians of the six `asalto bench` runs of each binary kept in
    // the record, divided.
    let dir = root().join("scripts/bench-runs/2026-11-28-since-1126");
    let median_of = |commit: &str, key: &str| {
        let mut v: Vec<f64> = (1..=6)
            .map(|i| {
                json_at(&dir.join(format!("bench-{commit}-{i}.json")))[key]
                    .as_f64()
                    .unwrap_or_else(|| panic!("{commit} {i} {key}"))
            })
            .collect();
        v.sort_by(f64::total_cmp);
        (v[2] + v[3]) / 2.0
    };
    let ratio = |key: &str| median_of("6b84011", key) / median_of("3c1b362", key);
    let figures = flat_text("docs/FIGURES.md");
    let shown = format!(
        "solving {:.2} times as fast on one thread, verify {:.2} times with distances and {:.2} WDL-only",
        ratio("rate_per_core"),
        ratio("verify_rate_per_core"),
        ratio("verify_rate_wdl_only_per_core")
    );
    assert!(
        figures.contains(&shown),
        "docs/FIGURES.md does not show {shown:?}"
    );
    assert!(figures.contains("scripts/bench-runs/2026-11-28-since-1126/"));
}

#[test]
fn the_plans_rates_are_those_of_the_newest_bench_record() {
    // `asalto plan` times each file at its soldier count's rates: the
    // level samples of the newest bench record, scaled by what file I/O
    // cost a build and a verify in the same run.
    use asalto_tb::plan;
    let dir = newest_bench();
    assert_eq!(
        plan::LEVEL_RATES_SOURCE,
        format!("scripts/bench-runs/{dir}/bench.json")
    );
    let r = json_at(&root().join(plan::LEVEL_RATES_SOURCE));
    let close = |a: f64, b: f64, what: &str| {
        assert!(
            (a / b - 1.0).abs() < 1e-3,
            "{what}: {a} in the code, {b} in {dir}"
        );
    };
    let f = |key: &str| r[key].as_f64().unwrap_or_else(|| panic!("{dir}: {key}"));
    let levels = r["levels"].as_array().unwrap();
    assert_eq!(levels.len(), plan::LEVEL_RATES.len());
    for (l, c) in levels.iter().zip(&plan::LEVEL_RATES) {
        let g = |key: &str| l[key].as_f64().unwrap();
        assert_eq!(g("k") as u8, c.k);
        close(c.bits, g("bits_rate_per_core"), "bits");
        close(c.positions, g("solve_rate_per_core"), "positions");
        close(c.verify, g("sets_verify_rate_per_core"), "verify");
    }
    let speedup = f("speedup_2_threads");
    close(
        plan::BENCH_RATE_PER_CORE,
        f("rate_per_core"),
        "rate_per_core",
    );
    close(plan::BENCH_SPEEDUP_2_THREADS, speedup, "speedup");
    let run = &r["raw"]["build_run"];
    let build_rate = run["positions"].as_f64().unwrap() / run["seconds"].as_f64().unwrap();
    let at = |k: u8, which: fn(&plan::LevelRate) -> f64| plan::level_rate(k, which);
    close(
        plan::BUILD_OVER_SAMPLE,
        build_rate / (at(9, |l| l.positions) * speedup),
        "BUILD_OVER_SAMPLE",
    );
    // The WDL-only build's: a closure's build against its files' time at
    // the level rates on the bench cores two threads are worth.
    let b = json_at(&root().join(plan::WDL_BUILD_OVER_SAMPLE_SOURCE));
    let (mut at_levels, mut wall) = (0.0, 0.0);
    for file in b["builds"][0]["files"].as_array().unwrap() {
        let k = file["soldiers"].as_u64().unwrap() as u8;
        at_levels += file["positions"].as_f64().unwrap() / at(k, |l| l.bits);
        wall += file["seconds"].as_f64().unwrap() + file["earlier_seconds"].as_f64().unwrap();
    }
    // Carried to a later commit by an A/B record where the factors' own
    // records ran at another: the base commit's seconds over the new
    // one's, summed over the pairs, its base the commit those records
    // ran. Without one, they ran at the bench's own commit.
    let commit_of = |dir: &std::path::Path, file: &str| {
        std::fs::read_to_string(dir.join(file))
            .unwrap_or_else(|e| panic!("{}: {e}", dir.join(file).display()))
            .trim()
            .to_string()
    };
    let source_dirs = [
        plan::WDL_BUILD_OVER_SAMPLE_SOURCE,
        plan::VERIFY_OVER_SAMPLE_SOURCE,
    ]
    .map(|source| root().join(source).parent().unwrap().to_path_buf());
    let carried = |what: &str| -> f64 {
        let Some(ab) = plan::FACTORS_CARRIED_BY else {
            let bench_commit = r["commit"].as_str().unwrap();
            for dir in &source_dirs {
                assert!(
                    commit_of(dir, "commit.txt").starts_with(bench_commit),
                    "{} did not run at the bench's commit {bench_commit}, and no A/B carries it there",
                    dir.display()
                );
            }
            return 1.0;
        };
        let ab = root().join(ab);
        for dir in &source_dirs {
            assert_eq!(
                commit_of(&ab, "base.txt"),
                commit_of(dir, "commit.txt"),
                "{} is not an A/B against the commit of {}",
                ab.display(),
                dir.display()
            );
        }
        let ab_seconds = |who: &str| -> f64 {
            (1..=2)
                .map(|i| {
                    // The files' own seconds, as the factors count them.
                    let r = json_at(&ab.join(format!("{what}-{who}-{i}.json")));
                    let files = match what {
                        "build" => &r["builds"][0]["files"],
                        _ => &r["per_file"],
                    };
                    files
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|f| f["seconds"].as_f64().unwrap())
                        .sum::<f64>()
                })
                .sum()
        };
        ab_seconds("base") / ab_seconds("new")
    };
    close(
        plan::WDL_BUILD_OVER_SAMPLE,
        at_levels / (wall * speedup) * carried("build"),
        "WDL_BUILD_OVER_SAMPLE",
    );
    // The verify's: a real verify's time against its files' time at the
    // level rates on the bench cores two threads are worth.
    let v = json_at(&root().join(plan::VERIFY_OVER_SAMPLE_SOURCE));
    assert_eq!(v["ok"], true);
    let (mut at_levels, mut wall) = (0.0, 0.0);
    for file in v["per_file"].as_array().unwrap() {
        let name = file["file"].as_str().unwrap();
        let key: asalto_tb::index::FileKey = name
            .rsplit('/')
            .next()
            .unwrap()
            .trim_end_matches(".atb")
            .parse()
            .unwrap();
        // The level rates are the set checker's: so must the record be.
        assert_eq!(
            file["checker"],
            asalto_tb::solve::Checker::Sets.name(),
            "{}",
            plan::VERIFY_OVER_SAMPLE_SOURCE
        );
        at_levels += file["positions"].as_f64().unwrap() / at(key.soldiers(), |l| l.verify);
        wall += file["seconds"].as_f64().unwrap() + file["earlier_seconds"].as_f64().unwrap();
    }
    close(
        plan::VERIFY_OVER_SAMPLE,
        at_levels / (wall * plan::BENCH_SPEEDUP_2_THREADS) * carried("verify"),
        "VERIFY_OVER_SAMPLE",
    );
}

/// The packages a `pip install` line installs: its names, and those listed
/// in its `-r` files (relative to the repository root).
fn pip_packages(line: &str) -> Vec<String> {
    let name = |spec: &str| {
        spec.split(|c: char| "<>=!~[; ".contains(c))
            .next()
            .unwrap_or("")
            .to_lowercase()
    };
    let words: Vec<&str> = line
        .split("pip install")
        .nth(1)
        .unwrap_or("")
        .split("&&")
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        match words[i] {
            "-r" => {
                let list = std::fs::read_to_string(root().join(words[i + 1])).unwrap();
                out.extend(
                    list.lines()
                        .map(str::trim)
                        .filter(|l| !l.is_empty() && !l.starts_with('#'))
                        .map(name),
                );
                i += 1;
            }
            w if w.starts_with('-') => {}
            w => out.push(name(w)),
        }
        i += 1;
    }
    out
}

#[test]
fn the_notebook_commands_install_what_they_run_in_an_ignored_venv() {
    // Every document that runs Jupyter from a virtual environment makes
    // it, installs the package of the Jupyter command it runs there, and
    // the environment is one git ignores.
    let mut docs = vec![root().join("README.md")];
    files(&root().join("docs"), &["md"], &mut docs);
    let ignored = std::fs::read_to_string(root().join(".gitignore")).unwrap();
    let mut runs = 0;
    for path in docs {
        let text = std::fs::read_to_string(&path).unwrap();
        let doc = path.display();
        for line in text.lines().filter(|l| l.contains("/bin/jupyter ")) {
            runs += 1;
            let command = line.split("/bin/jupyter ").nth(1).unwrap();
            let package = match command.split_whitespace().next().unwrap() {
                "lab" => "jupyterlab",
                "notebook" => "notebook",
                other => other,
            };
            let venv = line
                .split_whitespace()
                .find_map(|w| w.split_once("/bin/jupyter").map(|(v, _)| v))
                .unwrap();
            let made = text
                .lines()
                .find(|l| l.contains(&format!("-m venv {venv}")))
                .unwrap_or_else(|| panic!("{doc}: {venv} is run but never made"));
            let installed: Vec<String> = text
                .lines()
                .filter(|l| l.contains(&format!("{venv}/bin/pip install")))
                .flat_map(pip_packages)
                .collect();
            assert!(
                installed.iter().any(|p| p == package),
                "{doc}: `{line}` needs {package}, which {made:?} and its pip install ({installed:?}) do not install"
            );
            let name = venv.trim_start_matches("./");
            assert!(
                ignored
                    .lines()
                    .any(|l| l.trim_end_matches('/') == name.trim_end_matches('/')),
                "{doc}: {venv} is not in .gitignore"
            );
        }
    }
    assert!(runs > 0, "no document runs the notebook");
}
