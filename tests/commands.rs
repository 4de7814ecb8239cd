//! The table commands end to end where no other test file looks: `build`
//! (JSON per file, a rerun skipping every file), merging the tiers of a
//! second closure into the files a first one wrote, `solve`, `info` and
//! `rules`. Expected values come from the library's own tables and
//! presets, or from positions checked by hand.

use asalto_tb::build::{self, BuildOptions, Quiet};
use asalto_tb::index::FileKey;
use asalto_tb::index::TierKey;
use asalto_tb::solve::Solver;
use asalto_tb::table::{Table, table_path};
use asalto_tb::{Position, Variant};
use std::collections::HashSet;
mod common;

use common::{asalto, json};

/// Nine soldiers, eight in the fortress; e4-e5 fills it: the soldiers to
/// move win in 1 ply (checked by hand).
const TINY: &str = "SSS/SSS/O1SS3/4S2/6O/3/3 s";

#[test]
fn build_reports_each_file_and_a_rerun_skips_them() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let first = json(&asalto(&["build", "--json", "--tables", d, "--for", TINY]));
    let files = first["builds"][0]["files"].as_array().unwrap().clone();
    assert!(!files.is_empty());
    for f in &files {
        assert_eq!(f["skipped"], false);
        assert_eq!(f["resumed_positions"], 0);
        // The file's header says the positions the JSON says.
        let (n, k) = (
            f["officers"].as_u64().unwrap(),
            f["soldiers"].as_u64().unwrap(),
        );
        let t = Table::open(&table_path(
            dir.path(),
            &Variant::ASSAUT,
            FileKey::new(n as u8, k as u8),
        ))
        .unwrap();
        assert_eq!(f["positions"].as_u64().unwrap(), t.info().positions);
    }
    let again = json(&asalto(&["build", "--json", "--tables", d, "--for", TINY]));
    let again = again["builds"][0]["files"].as_array().unwrap();
    assert_eq!(again.len(), files.len());
    assert!(again.iter().all(|f| f["skipped"] == true));
}

/// The files of a WDL-only build of TINY's closure into `dir` with the
/// option `flag value`, as `build --json` lists them.
fn build_tiny(dir: &tempfile::TempDir, flag: &str, value: &str) -> Vec<serde_json::Value> {
    let d = dir.path().to_str().unwrap();
    let args = [
        "build",
        "--json",
        "--wdl-only",
        flag,
        value,
        "--tables",
        d,
        "--for",
        TINY,
    ];
    json(&asalto(&args))["builds"][0]["files"]
        .as_array()
        .unwrap()
        .clone()
}

/// A file's identity (its length and index checksum) as the build and
/// verify records name it: the file's own, the same for a rebuild on
/// another thread count (the bytes do not depend on it), and the same in
/// the build's and the verify's records, so that a verify record says
/// which contents it proved.
#[test]
fn records_name_each_file_by_its_contents_and_a_rebuild_has_the_same() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let build = |dir: &tempfile::TempDir, threads: &str| build_tiny(dir, "--threads", threads);
    let (one, two) = (build(&a, "1"), build(&b, "2"));
    assert_eq!(one.len(), two.len());
    let d = a.path().to_str().unwrap();
    let verified = json(&asalto(&["verify", "--json", "--tables", d]));
    assert_eq!(verified["ok"], true, "{verified}");
    let checked = verified["per_file"].as_array().unwrap();
    assert_eq!(checked.len(), one.len());
    for ((x, y), v) in one.iter().zip(&two).zip(checked) {
        let (n, k) = (
            x["officers"].as_u64().unwrap() as u8,
            x["soldiers"].as_u64().unwrap() as u8,
        );
        let path = table_path(a.path(), &Variant::ASSAUT, FileKey::new(n, k));
        let t = Table::open(&path).unwrap();
        assert_eq!(
            x["bytes"].as_u64().unwrap(),
            std::fs::metadata(&path).unwrap().len()
        );
        assert_eq!(x["index_crc"].as_u64().unwrap(), u64::from(t.index_crc()));
        // The preamble's bytes 32..36 (the format in src/table/mod.rs), read from the
        // file itself.
        let bytes = std::fs::read(&path).unwrap();
        let raw = u32::from_le_bytes(bytes[32..36].try_into().unwrap());
        assert_eq!(t.index_crc(), raw);
        assert_eq!(
            (&x["bytes"], &x["index_crc"]),
            (&y["bytes"], &y["index_crc"]),
            "{x} {y}"
        );
        let other = table_path(b.path(), &Variant::ASSAUT, FileKey::new(n, k));
        assert!(std::fs::read(&path).unwrap() == std::fs::read(&other).unwrap());
        assert_eq!(v["file"].as_str().unwrap(), path.to_str().unwrap());
        assert_eq!(
            (&v["bytes"], &v["index_crc"]),
            (&x["bytes"], &x["index_crc"]),
            "{v}"
        );
        assert_eq!(v["inconsistent"], 0);
    }
    // `info --json` names each file the same way.
    let info = json(&asalto(&["info", "--json", "--tables", d]));
    for x in &one {
        let name = format!("/{}.atb", x["file"].as_str().unwrap());
        let mut listed = info["tables"].as_array().unwrap().iter();
        let t = listed
            .find(|t| t["file"].as_str().unwrap().ends_with(&name))
            .unwrap();
        assert_eq!(
            (&t["bytes"], &t["index_crc"]),
            (&x["bytes"], &x["index_crc"]),
            "{t}"
        );
    }
    // A rerun that finds the files there names the same contents.
    for (x, y) in one.iter().zip(&build(&a, "2")) {
        assert_eq!(y["skipped"], true);
        assert_eq!(x["index_crc"], y["index_crc"]);
    }
}

/// `verify --proved-by`: the files an earlier verify proved (its JSON
/// record) are not checked again where the files here have the same
/// contents, and so have the files below them; a file below that differs
/// (here the same values at another zstd level: other bytes) leaves it
/// and every file above it to be checked. Counts of inconsistent
/// positions come with the record; unusable records are refused.
#[test]
fn verify_takes_files_an_earlier_record_proved() {
    let build = |dir: &tempfile::TempDir, level: &str| build_tiny(dir, "--level", level);
    let (a, b, c) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    let files = build(&a, "3");
    assert!(files.len() >= 2, "{files:?}");
    build(&b, "3");
    build(&c, "1");
    let verify = |dir: &tempfile::TempDir, extra: &[&str]| {
        let d = dir.path().to_str().unwrap();
        asalto(&[&["verify", "--json", "--tables", d][..], extra].concat())
    };
    let record = a.path().join("record.json");
    let o = verify(&a, &[]);
    assert!(o.status.success());
    std::fs::write(&record, &o.stdout).unwrap();
    let r = record.to_str().unwrap();

    // The same build elsewhere: every file proved by the record.
    let o = verify(&b, &["--proved-by", r]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["ok"], true);
    let checked = j["per_file"].as_array().unwrap();
    assert_eq!(checked.len(), files.len());
    assert!(checked.iter().all(|f| f["proved_by"] == r), "{j}");
    let text = asalto(&[
        "verify",
        "--tables",
        b.path().to_str().unwrap(),
        "--proved-by",
        r,
    ]);
    let out = String::from_utf8_lossy(&text.stdout);
    assert!(
        out.contains(&format!(
            "{} of the tables by an earlier verify",
            files.len()
        )),
        "{out}"
    );

    // A verify that passed with no file proved by the record.
    let checked_here = |o: &std::process::Output| {
        let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(j["ok"], true);
        let files = j["per_file"].as_array().unwrap();
        assert!(files.iter().all(|f| f["proved_by"].is_null()), "{j}");
    };
    // Files checked whole here keep their own records over the proof.
    assert!(verify(&a, &["--resume"]).status.success());
    let o = verify(&a, &["--resume", "--proved-by", r]);
    checked_here(&o);

    // The lowest file with other bytes: nothing proved, all checked anew.
    let lowest = |dir: &tempfile::TempDir| {
        let f = &files[0];
        let (n, k) = (
            f["officers"].as_u64().unwrap() as u8,
            f["soldiers"].as_u64().unwrap() as u8,
        );
        table_path(dir.path(), &Variant::ASSAUT, FileKey::new(n, k))
    };
    assert!(std::fs::read(lowest(&b)).unwrap() != std::fs::read(lowest(&c)).unwrap());
    std::fs::copy(lowest(&c), lowest(&b)).unwrap();
    let o = verify(&b, &["--proved-by", r]);
    assert!(o.status.success());
    checked_here(&o);

    // The record's counts come with it: a file it says held inconsistent
    // positions makes the verify fail.
    let mut rec: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&record).unwrap()).unwrap();
    rec["per_file"][1]["inconsistent"] = 5.into();
    let bad = a.path().join("bad.json");
    std::fs::write(&bad, rec.to_string()).unwrap();
    let o = verify(&a, &["--proved-by", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (&j["ok"], &j["inconsistent"]),
        (&false.into(), &5.into()),
        "{j}"
    );

    // Unusable records: one line, exit 1.
    let old = {
        let mut r = rec.clone();
        for f in r["per_file"].as_array_mut().unwrap() {
            f.as_object_mut().unwrap().remove("index_crc");
        }
        r.to_string()
    };
    let other = {
        let mut r = rec.clone();
        r["variant"] = "asalto".into();
        r.to_string()
    };
    for (text, says) in [
        (old.as_str(), "names no file contents"),
        (other.as_str(), "a verify of asalto, not of assaut"),
        ("{\"files\": []}", "not the JSON of `asalto verify --json`"),
        ("nonsense", "not the JSON of `asalto verify --json`"),
    ] {
        std::fs::write(&bad, text).unwrap();
        let o = verify(&a, &["--proved-by", bad.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1));
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(says), "{says} in {err}");
    }
    let o = verify(&a, &["--proved-by", "/nonexistent/record.json"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read --proved-by"));
}

/// `scripts/run-summary.py` over the records of a run whose files were
/// built again after an earlier run's were lost, its verify taking up the
/// earlier verify's record (`verify --proved-by`, as scripts/sitting.sh's
/// PROVED_BY): the files proved count as verified whole, once, in the
/// sitting that took them, as proved rather than checked here (no verify
/// seconds, no part in the verify's rate). The records are those real
/// builds and verifies of TINY's closure write, laid out as sitting.sh
/// copies them (N.txt, N-build.json, N-verify.json); python3 as the
/// notebook's CI step.
#[test]
fn run_summary_counts_the_files_an_earlier_record_proved() {
    let (earlier, again, records) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    let files = build_tiny(&earlier, "--level", "3");
    let proof = records.path().join("earlier-verify.json");
    let e = earlier.path().to_str().unwrap();
    std::fs::write(&proof, asalto(&["verify", "--json", "--tables", e]).stdout).unwrap();
    let p = proof.to_str().unwrap();

    // Two sittings on the tables built again: the first builds them and
    // takes the proof, the second finds both done.
    let d = again.path().to_str().unwrap();
    for n in 1..=2 {
        let at = |step: &str| records.path().join(format!("{n}{step}"));
        let build = asalto(&[
            "build",
            "--json",
            "--wdl-only",
            "--level",
            "3",
            "--tables",
            d,
            "--for",
            TINY,
        ]);
        let verify = asalto(&[
            "verify",
            "--json",
            "--resume",
            "--proved-by",
            p,
            "--tables",
            d,
        ]);
        assert!(verify.status.success());
        std::fs::write(at("-build.json"), json(&build).to_string()).unwrap();
        std::fs::write(at("-verify.json"), &verify.stdout).unwrap();
        let txt = "commit: test\nbuild: exit 0 after 1 s\nverify: exit 0 after 1 s\n";
        std::fs::write(at(".txt"), txt).unwrap();
    }

    let summary = common::run_summary(records.path(), &[]);
    let total = &summary["total"];
    let names: Vec<String> = files
        .iter()
        .map(|f| format!("{}o{}s", f["officers"], f["soldiers"]))
        .collect();
    let positions: u64 = files.iter().map(|f| f["positions"].as_u64().unwrap()).sum();
    assert_eq!(total["files_verified"], names.len(), "{total}");
    assert_eq!(total["files_proved_by_earlier_records"], names.len());
    assert_eq!(total["positions_verified"], positions);
    assert_eq!(total["positions_proved_by_earlier_records"], positions);
    assert_eq!(total["verify_seconds_of_files_verified"], 0.0);
    assert!(total["verify_positions_per_second"].is_null(), "{total}");
    let sittings = summary["sittings"].as_array().unwrap();
    assert_eq!(
        sittings[0]["files_proved_by_earlier_records"],
        serde_json::json!(names)
    );
    assert_eq!(
        sittings[1]["files_proved_by_earlier_records"],
        serde_json::json!([])
    );
    for s in sittings {
        assert_eq!(s["files_verified"], serde_json::json!([]), "{s}");
    }
    for name in &names {
        let f = &summary["files"][name];
        assert_eq!(
            (&f["verified"], &f["proved_by"]),
            (&true.into(), &p.into()),
            "{f}"
        );
        assert!(f.get("verify_seconds").is_none(), "{f}");
    }
}

/// `build --level`: the files say the zstd level they were written at, and
/// hold the same values as at the default level.
#[test]
fn build_writes_at_the_zstd_level_given() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let at = |dir: &tempfile::TempDir, level: &[&str]| {
        let d = dir.path().to_str().unwrap();
        let args = [
            &[
                "build",
                "--json",
                "--wdl-only",
                "--tables",
                d,
                "--for",
                TINY,
            ][..],
            level,
        ]
        .concat();
        json(&asalto(&args))
    };
    let files = at(&a, &[])["builds"][0]["files"]
        .as_array()
        .unwrap()
        .clone();
    at(&b, &["--level", "3"]);
    assert!(!files.is_empty());
    for f in &files {
        let (n, k) = (
            f["officers"].as_u64().unwrap() as u8,
            f["soldiers"].as_u64().unwrap() as u8,
        );
        let default =
            Table::open(&table_path(a.path(), &Variant::ASSAUT, FileKey::new(n, k))).unwrap();
        let low = Table::open(&table_path(b.path(), &Variant::ASSAUT, FileKey::new(n, k))).unwrap();
        assert_eq!((default.info().zstd_level, low.info().zstd_level), (9, 3));
        let keys = default.tier_keys().unwrap();
        assert_eq!(keys, low.tier_keys().unwrap());
        for key in keys {
            assert_eq!(default.tier(&key).unwrap(), low.tier(&key).unwrap());
        }
    }
}

/// `build --stop-after`: a build longer than the time given stops at a
/// checkpoint (or before a file), prints what it did and where it stopped,
/// and exits with status 75; absurd durations are refused.
#[test]
fn a_build_told_to_stop_after_a_second_stops_with_status_75() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    // 81 million positions: several seconds on one thread.
    let pos = "3/O1O/SS3SS/SSSSSS1/7/3/3 s";
    let args = ["build", "--json", "--threads", "1", "--stop-after", "1s"];
    let o = asalto(&[&args[..], &["--tables", d, "--for", pos]].concat());
    assert_eq!(o.status.code(), Some(75));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("run the same build again"), "{err}");
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let stop = &j["stopped"];
    let (done, all) = (
        stop["positions_done"].as_u64().unwrap(),
        stop["positions"].as_u64().unwrap(),
    );
    assert!(done < all, "{stop}");
    let n = stop["officers"].as_u64().unwrap() as u8;
    let k = stop["soldiers"].as_u64().unwrap() as u8;
    let path = table_path(dir.path(), &Variant::ASSAUT, FileKey::new(n, k));
    assert!(!path.exists());
    assert_eq!(build::checkpoint_path(&path).exists(), done > 0);
    // The files finished before the stop are listed, and are there.
    for f in j["builds"][0]["files"].as_array().unwrap() {
        let name = format!("{}.atb", f["file"].as_str().unwrap());
        assert!(dir.path().join("assaut").join(name).exists(), "{f}");
    }
    for (bad, says) in [("0s", "sensible"), ("soon", "not a duration")] {
        for command in ["build", "verify"] {
            let o = asalto(&[command, "--tables", d, "--stop-after", bad]);
            assert_eq!(o.status.code(), Some(2));
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(err.contains(says), "{command}: {err}");
        }
    }

    // The build finished, `verify --stop-after 1s` on one thread stops
    // too: checking its files takes several seconds, and it stops before
    // the next file once the second has passed (a chunk is a whole file
    // here), with status 75, saying where, and leaves its records.
    let o = asalto(&[&["build", "--threads", "1", "--tables", d, "--for", pos][..]].concat());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    // The file taken up from the checkpoint says how many positions came
    // from it (its rate counts only this run's).
    if done > 0 {
        let says = format!("{n}o{k}s: {all} positions, {done} of them from a checkpoint");
        assert!(err.contains(&says), "{says} in {err}");
    }
    let args = ["verify", "--json", "--threads", "1", "--stop-after", "1s"];
    let o = asalto(&[&args[..], &["--tables", d]].concat());
    assert_eq!(o.status.code(), Some(75));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("again with --resume"), "{err}");
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["ok"], false, "{j}");
    assert_eq!(j["inconsistent"], 0, "{j}");
    let stopped = std::path::PathBuf::from(j["stopped"]["file"].as_str().unwrap());
    let checked = j["per_file"].as_array().unwrap();
    assert!(!checked.is_empty(), "{j}");
    for f in checked {
        let path = std::path::PathBuf::from(f["file"].as_str().unwrap());
        assert_ne!(path, stopped);
        assert!(asalto_tb::verify::record_path(&path).exists(), "{f}");
    }
}

#[test]
fn a_second_closure_is_merged_into_the_files_of_the_first() {
    let v = Variant::ASSAUT;
    let closure = |p: &str| Solver::new(v).closure_of(&p.parse::<Position>().unwrap());
    let a = closure(TINY);
    let b = closure("SSS/1O1/1SS1S1O/2SSS2/3S3/3/3 s");
    let opts = BuildOptions::threads(2);
    let (merged, only_a, only_b) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    build::build_tiers(merged.path(), &v, &a, &opts, &Quiet).unwrap();
    build::build_tiers(merged.path(), &v, &b, &opts, &Quiet).unwrap();
    build::build_tiers(only_a.path(), &v, &a, &opts, &Quiet).unwrap();
    build::build_tiers(only_b.path(), &v, &b, &opts, &Quiet).unwrap();
    let file =
        |dir: &std::path::Path| Table::open(&table_path(dir, &v, FileKey::new(2, 9))).unwrap();
    let m = file(merged.path());
    let keys: HashSet<TierKey> = m.tier_keys().unwrap().into_iter().collect();
    let mut compared = 0;
    for (dir, tiers) in [(only_a.path(), &a), (only_b.path(), &b)] {
        let t = file(dir);
        for key in tiers.iter().filter(|t| (t.n, t.k) == (2, 9)) {
            assert!(keys.contains(key), "{key:?} not merged");
            assert_eq!(m.tier(key).unwrap(), t.tier(key).unwrap(), "{key:?}");
            compared += 1;
        }
    }
    assert!(compared > 0);
    // Nothing else in it.
    let union: HashSet<TierKey> = a
        .iter()
        .chain(&b)
        .filter(|t| (t.n, t.k) == (2, 9))
        .copied()
        .collect();
    assert_eq!(keys, union);
}

#[test]
fn solve_info_and_rules() {
    let o = asalto(&["solve", TINY]);
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("win in 1 ply"), "{text}");
    assert!(text.contains("e4-e5"), "{text}");

    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    assert!(
        asalto(&["build", "--tables", d, "--for", TINY])
            .status
            .success()
    );
    let info = json(&asalto(&["info", "--json", "--tables", d]));
    let tables = info["tables"].as_array().unwrap();
    assert!(!tables.is_empty());
    for t in tables {
        let table = Table::open(std::path::Path::new(t["file"].as_str().unwrap())).unwrap();
        assert_eq!(t["positions"].as_u64().unwrap(), table.info().positions);
        assert_eq!(t["wins"].as_u64().unwrap(), table.info().wins);
        assert_eq!(t["format_version"].as_u64().unwrap(), 5);
        assert_eq!(t["wdl_only"], false);
        assert_eq!(t["order"], "mask-major");
    }

    let o = asalto(&["rules"]);
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    for (name, v, _) in Variant::PRESETS {
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("{name} missing:\n{text}"));
        assert!(line.contains(&v.switches()), "{line}");
    }
}

/// `verify --checker`: WDL-only tables are proved by the set checker by
/// default and by the position checker on request, each file's record
/// naming the checker; both pass the same tables with the same counts,
/// and an unknown checker is a usage error.
#[test]
fn verify_names_the_checker_of_each_wdl_only_file() {
    let dir = tempfile::tempdir().unwrap();
    let files = build_tiny(&dir, "--level", "3");
    let d = dir.path().to_str().unwrap();
    let mut seen = Vec::new();
    for (extra, name) in [(None, "sets"), (Some("positions"), "positions")] {
        let mut args = vec!["verify", "--json", "--tables", d];
        if let Some(c) = extra {
            args.extend(["--checker", c]);
        }
        let j = json(&asalto(&args));
        assert_eq!(j["ok"], true, "{j}");
        let per_file = j["per_file"].as_array().unwrap();
        assert_eq!(per_file.len(), files.len());
        let mut officers = Vec::new();
        for f in per_file {
            assert_eq!(f["wdl_only"], true, "{f}");
            // Files of one officer and of two, each by the checker asked.
            let file = f["file"].as_str().unwrap().rsplit('/').next().unwrap();
            officers.push(file.starts_with("1o"));
            assert_eq!(f["checker"], name, "{f}");
        }
        assert!(officers.contains(&true) && officers.contains(&false));
        seen.push((j["positions"].clone(), j["tiers"].clone()));
    }
    assert_eq!(seen[0], seen[1]);
    let o = asalto(&["verify", "--tables", d, "--checker", "guess"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("guess"));
}
