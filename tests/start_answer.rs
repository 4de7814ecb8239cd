//! `scripts/start-answer.sh`, the script that turns the whole game's
//! verified tables into its answer, end to end on a closure small enough
//! for a test: the formation of 9 soldiers with the officers on c6 and e6,
//! soldiers to move (the script's `K=9 POSITION=...`), built WDL-only as
//! the whole game is, and verified.
//!
//! The expected values are not this build's: they are the committed curve
//! of `notebooks/data/presets-formations-9-17`, built with distances by
//! the report's own build, whose 36 placements at 9 soldiers all lose for
//! the soldiers (c6,e6 in 4 plies). The script must write those 36
//! values, the position's value and a game to its end; a curve that
//! differs in one placement, or a verify record that is not a clean one,
//! must stop it with its exit status and no `PROVENANCE.txt`.

use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;
mod common;

/// The formation of 9 soldiers (b4 c4 d4 e4 f4 a5 b5 f5 g5), officers on
/// c6 and e6, soldiers to move.
const NINE: &str = "3/O1O/SS3SS/1SSSSS1/7/3/3 s";
/// The committed curve the script compares with by default.
const CURVE: &str = "notebooks/data/presets-formations-9-17";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn asalto(args: &[&str]) -> Output {
    let out = common::asalto(args);
    assert!(
        out.status.success(),
        "asalto {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn json_file(path: &Path) -> Json {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The closure of [`NINE`], built WDL-only and verified once for every
/// test here: the tables' folder and the verify JSON's path.
fn tables() -> &'static (tempfile::TempDir, PathBuf) {
    static T: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    T.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let t = dir.path().join("tables");
        let t = t.to_str().unwrap();
        asalto(&["build", "--for", NINE, "--wdl-only", "--tables", t]);
        let verify = asalto(&["verify", "--json", "--tables", t]);
        let record = dir.path().join("verify.json");
        std::fs::write(&record, &verify.stdout).unwrap();
        (dir, record)
    })
}

/// Run the script into `out` with the tables of [`tables`] and `env`.
fn start_answer(out: &Path, env: &[(&str, &Path)]) -> Output {
    let (dir, _) = tables();
    let mut cmd = Command::new("bash");
    cmd.arg(root().join("scripts/start-answer.sh"))
        .arg(out)
        .env("ASALTO_BIN", env!("CARGO_BIN_EXE_asalto"))
        .env("ASALTO_TABLES", dir.path().join("tables"))
        .env("K", "9")
        .env("POSITION", NINE);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("run scripts/start-answer.sh")
}

/// The rows of a CSV file as maps from its header's names.
fn csv_rows(path: &Path) -> Vec<std::collections::HashMap<String, String>> {
    csv::Reader::from_path(path)
        .and_then(|mut r| r.deserialize().collect())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The committed curve's 9-soldier placements of assaut: (officers,
/// result for the soldiers), in its order.
fn committed_nine(curve: &Path) -> Vec<(String, String)> {
    csv_rows(&curve.join("critical_mass_placements.csv"))
        .into_iter()
        .filter(|r| r["variant"] == "assaut" && r["soldiers"] == "9")
        .map(|r| (r["officers"].clone(), r["result_for_soldiers"].clone()))
        .collect()
}

#[test]
fn a_verified_closure_gives_the_committed_values_and_a_game_to_its_end() {
    let (_, record) = tables();
    let out = tempfile::tempdir().unwrap();
    let o = out.path().join("answer");
    let run = start_answer(&o, &[("VERIFIED_BY", record)]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );

    // The 36 placements, as the committed curve has them.
    let committed = committed_nine(&root().join(CURVE));
    assert_eq!(committed.len(), 36);
    let placed: Vec<(String, String)> = csv_rows(&o.join("placements.csv"))
        .into_iter()
        .map(|r| {
            // WDL-only tables: no distances.
            assert_eq!(r["plies"], "", "{r:?}");
            (r["officers"].clone(), r["result_for_soldiers"].clone())
        })
        .collect();
    assert_eq!(placed, committed);

    // The position's value is the committed c6,e6 placement's, and so is
    // every one of its moves' (a loss leaves no move better than a loss).
    let c6e6 = &committed.iter().find(|(p, _)| p == "c6,e6").unwrap().1;
    let start = json_file(&o.join("start.json"));
    assert_eq!(start["result"], c6e6.as_str());
    let moves = start["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 9, "the 9 steps into c5, d5 and e5");
    assert!(moves.iter().all(|m| m["result"] == "loss"), "{moves:?}");

    // The line: a game to its end won by the officers, sides alternating,
    // each ply's value the mover's, ending where the soldiers have no
    // move left (the query of its end says so).
    let line = json_file(&o.join("line.json"));
    assert_eq!(line["winner"], "officers");
    let plies = line["line"].as_array().unwrap();
    assert!(!plies.is_empty());
    for (i, p) in plies.iter().enumerate() {
        let (side, value) = if i % 2 == 0 {
            ("soldiers", "loss")
        } else {
            ("officers", "win")
        };
        assert_eq!(
            (p["side"].as_str(), p["result"].as_str()),
            (Some(side), Some(value))
        );
    }
    assert_eq!(plies.last().unwrap()["after"], line["end"]);
    let end = line["end"].as_str().unwrap().to_string();
    let t = tables().0.path().join("tables");
    let end = asalto(&["query", "--json", "--tables", t.to_str().unwrap(), &end]);
    let end: Json = serde_json::from_slice(&end.stdout).unwrap();
    assert_eq!(
        (end["result"].as_str(), end["plies"].as_u64()),
        (Some("loss"), Some(0))
    );
    assert_eq!(end["moves"].as_array().unwrap().len(), 0);

    // The provenance names the verify record with its positions, and the
    // agreement of row 9.
    let verify = json_file(record);
    let prov = std::fs::read_to_string(o.join("PROVENANCE.txt")).unwrap();
    let positions = verify["positions"].as_u64().unwrap();
    // The provenance groups the digits by thousands.
    assert!(
        prov.replace(',', "")
            .contains(&format!("ok true {positions} positions")),
        "{prov}"
    );
    assert!(prov.contains("rows 9-9 agree"), "{prov}");
    assert!(
        prov.contains("win against 0, draw against 0, lose against 36"),
        "{prov}"
    );
}

#[test]
fn one_placement_unlike_the_committed_curve_stops_the_script() {
    // The committed curve with c6,e6 at 9 soldiers turned into a draw.
    let out = tempfile::tempdir().unwrap();
    let curve = out.path().join("curve");
    std::fs::create_dir(&curve).unwrap();
    for name in ["critical_mass.csv", "critical_mass_placements.csv"] {
        let text = std::fs::read_to_string(root().join(CURVE).join(name)).unwrap();
        let text = if name == "critical_mass_placements.csv" {
            let from = "assaut,9,\"c6,e6\",loss,";
            assert_eq!(text.matches(from).count(), 1);
            text.replace(from, "assaut,9,\"c6,e6\",draw,")
        } else {
            text
        };
        std::fs::write(curve.join(name), text).unwrap();
    }
    assert_ne!(committed_nine(&curve), committed_nine(&root().join(CURVE)));
    let o = out.path().join("answer");
    let run = start_answer(&o, &[("COMPARE", &curve)]);
    assert_eq!(run.status.code(), Some(1));
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("k=9 c6,e6: loss here, draw there"), "{err}");
    // No provenance claims an answer the curve does not back.
    assert!(!o.join("PROVENANCE.txt").exists());
}

#[test]
fn a_verify_record_that_found_a_fault_stops_the_script_before_any_work() {
    let (_, record) = tables();
    let mut bad = json_file(record);
    bad["ok"] = Json::Bool(false);
    bad["inconsistent"] = Json::from(1);
    let out = tempfile::tempdir().unwrap();
    let path = out.path().join("verify.json");
    std::fs::write(&path, bad.to_string()).unwrap();
    let o = out.path().join("answer");
    let run = start_answer(&o, &[("VERIFIED_BY", &path)]);
    assert_eq!(run.status.code(), Some(2));
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("0 inconsistent"), "{err}");
    assert!(!o.exists(), "nothing is written");
}
