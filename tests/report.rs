//! Variant-balance reports on partial tables: every number of the report
//! library equals a direct recount through `Lookup::value` over positions
//! enumerated here independently of the index; the longest-win and
//! critical-mass examples really have the values reported (`probe` and
//! `asalto query`); the report files and the `asalto report` command.
//!
//! The tables: the closure of the 9-soldier critical-mass formation (with
//! the officers on c6 e6, soldiers to move) for `assaut` and for `assaut`
//! with `trapped=soldiers-lose` (one switch apart, the same tiers).

use asalto_tb::analysis::{self, Report, Request, TableStats};
use asalto_tb::board::{self, Bitboard, FORTRESS};
use asalto_tb::build::{self, Quiet};
use asalto_tb::index;
use asalto_tb::index::FileKey;
use asalto_tb::rules::TrappedRule;
use asalto_tb::solve::{Lookup, Solver};
use asalto_tb::table::TableSet;
use asalto_tb::{Position, Side, Value, Variant, probe};
use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;

const TRAPPED_LOSE: Variant = Variant {
    trapped: TrappedRule::SoldiersLose,
    ..Variant::ASSAUT
};

fn variants() -> [Variant; 2] {
    [Variant::ASSAUT, TRAPPED_LOSE]
}

/// The formation of 9 with the officers on c6 e6, soldiers to move.
fn root() -> Position {
    let officers = ["c6", "e6"]
        .iter()
        .map(|n| asalto_tb::Point::from_name(n).unwrap().bit())
        .fold(0, |a, b| a | b);
    Position::from_parts_unchecked(analysis::formation(9), officers, Side::Soldiers, 0)
}

struct Fixture {
    dir: tempfile::TempDir,
    report: Report,
}

/// Tables built once for every test of this file, and the report over
/// them (9..=10 soldiers asked for; the 10-soldier tables are missing).
fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        for v in variants() {
            let tiers = Solver::new(v).closure_of(&root());
            build::build_tiers(
                dir.path(),
                &v,
                &tiers,
                &build::BuildOptions::threads(2),
                &Quiet,
            )
            .unwrap();
        }
        let mut req = Request::new(dir.path(), variants().to_vec(), 9, 10);
        req.allow_missing = true;
        let report = analysis::analyse(&req, &Quiet).unwrap();
        Fixture { dir, report }
    })
}

/// Counts of one population, recounted.
#[derive(Default, Debug, PartialEq)]
struct Count {
    stored: [u64; 3],
    positions: [u64; 3],
    longest_win: Option<u16>,
    longest_loss: Option<u16>,
}

impl Count {
    fn add(&mut self, v: Value, w: u64) {
        let i = match v {
            Value::Win(d) => {
                self.longest_win = self.longest_win.max(Some(d));
                0
            }
            Value::Draw => 1,
            Value::Loss(d) => {
                self.longest_loss = self.longest_loss.max(Some(d));
                2
            }
        };
        self.stored[i] += 1;
        self.positions[i] += w;
    }
}

/// Every officer placement of `n` officers on the points of `free`.
fn officer_sets(free: Bitboard, n: u8) -> Vec<Bitboard> {
    let pts: Vec<Bitboard> = board::points(free).map(|p| p.bit()).collect();
    let mut out = Vec::new();
    for (i, &a) in pts.iter().enumerate() {
        if n == 1 {
            out.push(a);
        } else {
            out.extend(pts[i + 1..].iter().map(|&b| a | b));
        }
    }
    out
}

/// Every stored position of the table `(n, 9)` of `set`, built from its
/// pieces (not from the index), with its tier's mirror weight.
fn positions(set: &TableSet, n: u8) -> Vec<(Position, u64)> {
    let table = set.table(FileKey::new(n, 9)).unwrap().unwrap();
    let mut out = Vec::new();
    for key in table.tier_keys().unwrap() {
        let w = if board::mirror_bb(key.outside) == key.outside {
            1
        } else {
            2
        };
        for mask in 0u16..512 {
            if mask.count_ones() != key.m() {
                continue;
            }
            let soldiers = key.outside | index::fortress_bits(mask);
            for officers in officer_sets(board::ALL & !soldiers, n) {
                for side in [Side::Officers, Side::Soldiers] {
                    out.push((
                        Position::from_parts_unchecked(soldiers, officers, side, 0),
                        w,
                    ));
                }
            }
        }
    }
    assert_eq!(out.len() as u64, table.info().positions);
    out
}

fn check_population(what: &str, p: &analysis::Population, c: &Count) {
    let s = p.stored;
    assert_eq!([s.win, s.draw, s.loss], c.stored, "{what}: stored");
    let q = p.positions;
    assert_eq!([q.win, q.draw, q.loss], c.positions, "{what}: positions");
    assert_eq!(
        p.longest_win.as_ref().map(|e| e.plies),
        c.longest_win,
        "{what}"
    );
    assert_eq!(
        p.longest_loss.as_ref().map(|e| e.plies),
        c.longest_loss,
        "{what}"
    );
    let total = c.positions.iter().sum::<u64>() as f64;
    assert!((p.win_percent - 100.0 * c.positions[0] as f64 / total).abs() < 1e-9);
}

/// The example positions of a population have the values reported, by the
/// prober.
fn check_examples(set: &TableSet, v: &Variant, side: Side, p: &analysis::Population) {
    for (e, win) in [(&p.longest_win, true), (&p.longest_loss, false)] {
        let Some(e) = e else { continue };
        let pos: Position = e.position.parse().unwrap();
        assert_eq!(pos.side(), side);
        let a = probe::analyse(set, v, &pos).unwrap();
        let want = if win {
            Value::Win(e.plies)
        } else {
            Value::Loss(e.plies)
        };
        assert_eq!(a.value, want, "{v} {}", e.position);
    }
}

#[test]
fn counts_equal_a_direct_recount() {
    let f = fixture();
    let sets: Vec<TableSet> = variants()
        .iter()
        .map(|v| TableSet::open(f.dir.path(), v))
        .collect();
    assert!(f.report.partial);
    let pair = &f.report.sensitivity.as_ref().unwrap().pairs;
    assert_eq!(pair.len(), 1);
    assert_eq!(pair[0].switch, "trapped");
    for n in 1..=2u8 {
        let all = positions(&sets[0], n);
        let mut looks: Vec<Lookup> = variants()
            .iter()
            .zip(&sets)
            .map(|(v, s)| Lookup::new(s, *v))
            .collect();
        let mut counts: Vec<[Count; 3]> = vec![Default::default(), Default::default()];
        let (mut wdl_changed, mut value_changed, mut compared) = (0u64, 0u64, 0u64);
        for &(pos, w) in &all {
            let mut values = [Value::Draw; 2];
            for (j, look) in looks.iter_mut().enumerate() {
                let v = look.value(&pos).unwrap();
                values[j] = v;
                let c = &mut counts[j];
                match pos.side() {
                    Side::Officers => c[0].add(v, w),
                    Side::Soldiers => {
                        c[1].add(v, w);
                        if n == 2 && pos.officers() & !FORTRESS == 0 {
                            c[2].add(v, w);
                        }
                    }
                }
            }
            compared += w;
            if values[0] != values[1] {
                value_changed += w;
            }
            if values[0].result() != values[1].result() {
                wdl_changed += w;
            }
        }
        for (j, v) in variants().iter().enumerate() {
            let t: &TableStats = f.report.table(&v.to_string(), FileKey::new(n, 9)).unwrap();
            assert!(!t.complete);
            let info = sets[j]
                .table(FileKey::new(n, 9))
                .unwrap()
                .unwrap()
                .info()
                .clone();
            assert_eq!(t.positions_stored, info.positions);
            // Stored counts add up to the table header's.
            let s = |p: &analysis::Population| p.stored;
            let (a, b) = (s(&t.officers_to_move), s(&t.soldiers_to_move));
            assert_eq!(
                (a.win + b.win, a.draw + b.draw, a.loss + b.loss),
                (info.wins, info.draws, info.losses)
            );
            check_population(
                &format!("{v} {n}o officers"),
                &t.officers_to_move,
                &counts[j][0],
            );
            check_population(
                &format!("{v} {n}o soldiers"),
                &t.soldiers_to_move,
                &counts[j][1],
            );
            match &t.natural {
                Some(p) => check_population(&format!("{v} natural"), p, &counts[j][2]),
                None => assert_eq!(n, 1),
            }
            check_examples(&sets[j], v, Side::Officers, &t.officers_to_move);
            check_examples(&sets[j], v, Side::Soldiers, &t.soldiers_to_move);
        }
        let t = pair[0]
            .tables
            .iter()
            .find(|t| t.n == n && t.k == 9)
            .unwrap();
        assert_eq!(t.counts.compared, compared);
        assert_eq!(t.counts.compared_stored, all.len() as u64);
        assert_eq!(t.counts.wdl_changed, wdl_changed, "{n}o");
        assert_eq!(t.counts.value_changed, value_changed, "{n}o");
    }
    // The trapped rule matters somewhere in these tables.
    assert!(pair[0].total.value_changed > 0);
}

#[test]
fn critical_mass_values_are_real() {
    let f = fixture();
    let cm = &f.report.critical_mass;
    assert_eq!(cm.variants.len(), 2);
    for (c, v) in cm.variants.iter().zip(variants()) {
        assert_eq!(c.variant, v.to_string());
        assert_eq!(c.missing_k, [10]);
        assert_eq!(c.rows.len(), 1);
        let row = &c.rows[0];
        assert_eq!(row.k, 9);
        let set = TableSet::open(f.dir.path(), &v);
        // Every placement by the prober; the officers' best is the minimum.
        let mut values = Vec::new();
        for officers in analysis::placements() {
            let pos =
                Position::from_parts_unchecked(analysis::formation(9), officers, Side::Soldiers, 0);
            values.push((officers, probe::analyse(&set, &v, &pos).unwrap().value));
        }
        let worst = values.iter().map(|x| x.1).min().unwrap();
        assert_eq!(
            (row.result.as_str(), row.plies),
            (worst.result(), Some(worst.plies()))
        );
        assert_eq!(row.value, worst.to_string());
        let first = values.iter().find(|x| x.1 == worst).unwrap().0;
        let pos: Position = row.position.parse().unwrap();
        assert_eq!(pos.officers(), first);
        assert_eq!(pos.soldiers(), analysis::formation(9));
        assert_eq!(
            row.soldiers_win + row.draws + row.soldiers_lose,
            36,
            "{row:?}"
        );
        assert_eq!(
            row.best_placements.len(),
            values.iter().filter(|x| x.1 == worst).count()
        );
        for (p, (_, value)) in row.placements.iter().zip(&values) {
            assert_eq!(
                (p.result.as_str(), p.plies),
                (value.result(), Some(value.plies()))
            );
        }
        assert_eq!(c.smallest_winning_k, (row.result == "win").then_some(9));

        // `asalto query` on the tables agrees.
        let o = Command::new(env!("CARGO_BIN_EXE_asalto"))
            .args(["query", "--variant", &v.to_string(), "--tables"])
            .arg(f.dir.path())
            .arg(&row.position)
            .output()
            .unwrap();
        assert!(o.status.success());
        let out = String::from_utf8_lossy(&o.stdout);
        let first_line = out.lines().next().unwrap();
        assert!(
            first_line.ends_with(&format!("soldiers to move, {}", row.value)),
            "{first_line}"
        );
    }
}

#[test]
fn serial_and_parallel_reports_agree() {
    let f = fixture();
    let mut req = Request::new(f.dir.path(), variants().to_vec(), 9, 10);
    req.allow_missing = true;
    req.threads = 1;
    let serial = analysis::analyse(&req, &Quiet).unwrap();
    assert_eq!(
        serde_json::to_string(&serial).unwrap(),
        serde_json::to_string(&f.report).unwrap()
    );
    // Without allow_missing the 10-soldier tables are an error naming them.
    req.allow_missing = false;
    let err = analysis::analyse(&req, &Quiet).unwrap_err().to_string();
    assert!(err.contains("2o10s.atb"), "{err}");
}

#[test]
fn report_files_render() {
    let f = fixture();
    let files = analysis::render(&f.report).unwrap();
    let get = |name: &str| {
        files
            .iter()
            .find(|x| x.name == name)
            .unwrap_or_else(|| panic!("no {name}"))
    };
    let json: serde_json::Value = serde_json::from_str(&get("report.json").contents).unwrap();
    assert_eq!(json["partial"], true);
    assert_eq!(json["tables"].as_array().unwrap().len(), 4);
    let md = &get("report.md").contents;
    assert!(md.contains("Partial tables"));
    assert!(md.contains("![Results, natural positions"));
    assert!(md.contains("missing: "));
    // Every plot says the tables are partial, as the report does.
    let svgs: Vec<_> = files.iter().filter(|x| x.name.ends_with(".svg")).collect();
    assert!(!svgs.is_empty());
    for svg in svgs {
        assert!(svg.contents.contains("PARTIAL tables"), "{}", svg.name);
    }
    // One CSV row per table and population: 2 variants x (2 + 3).
    assert_eq!(get("wdl.csv").contents.lines().count(), 1 + 2 * 5);
    assert_eq!(
        get("critical_mass_placements.csv").contents.lines().count(),
        1 + 2 * 36
    );
    for x in files.iter().filter(|x| x.name.ends_with(".svg")) {
        assert!(x.contents.starts_with("<svg"), "{}", x.name);
        assert!(
            md.contains(&format!("]({})", x.name)),
            "{} not linked",
            x.name
        );
    }
    for name in ["wdl-natural.svg", "critical-mass.svg", "sensitivity.svg"] {
        get(name);
    }
}

/// The numbers of the critical-mass chart's segments: inside a segment of
/// three placements or more, beside the bar for a thinner one, where it
/// would sit on the axis or frame (left-aligned in the gap to the next
/// bar; right-aligned before the last bar, whose right is the frame).
#[test]
fn thin_critical_mass_segments_have_their_number_beside_the_bar() {
    // Each text element's anchor in the chart of `report`, by its contents.
    fn anchors(report: &analysis::Report, label: &str) -> Vec<String> {
        let files = analysis::render(report).unwrap();
        let svg = &files
            .iter()
            .find(|x| x.name == "critical-mass.svg")
            .unwrap()
            .contents;
        let mut found: Vec<String> = svg
            .split("<text ")
            .skip(1)
            .filter(|t| {
                t.split_once('>')
                    .is_some_and(|(_, rest)| rest.trim_start().starts_with(&format!("{label}\n")))
            })
            .map(|t| {
                let a = t.split("text-anchor=\"").nth(1).unwrap();
                a[..a.find('"').unwrap()].to_string()
            })
            .collect();
        found.sort();
        found
    }
    let mut report = fixture().report.clone();
    let mut bars = 0;
    for row in report
        .critical_mass
        .variants
        .iter_mut()
        .flat_map(|c| c.rows.iter_mut())
    {
        (row.soldiers_win, row.draws, row.soldiers_lose) = (1, 33, 2);
        // No plies: no right axis, whose tick labels are numbers too.
        row.plies = None;
        bars += 1;
    }
    assert!(bars > 0);
    // The fixture's rows are each variant's only (and so last) bar.
    assert_eq!(anchors(&report, "33"), vec!["middle"; bars]);
    assert_eq!(anchors(&report, "1"), vec!["end"; bars]);
    assert_eq!(anchors(&report, "2"), vec!["end"; bars]);
    // One more soldier count for the first variant: the axis, shared,
    // ends there, so only that new bar is last; every other bar's thin
    // numbers go to its right.
    let c = &mut report.critical_mass.variants[0];
    let mut next = c.rows[0].clone();
    next.k += 1;
    c.rows.push(next);
    let mut want = vec!["start"; bars + 1];
    want[0] = "end";
    want.sort();
    assert_eq!(anchors(&report, "1"), want);
}

/// A report read back from its report.json draws the same files, byte for
/// byte: the plots and report.md of a committed folder can be drawn again
/// without its tables.
#[test]
fn a_report_read_back_renders_the_same_files() {
    let f = fixture();
    let files = analysis::render(&f.report).unwrap();
    let json = &files
        .iter()
        .find(|x| x.name == "report.json")
        .unwrap()
        .contents;
    let back = analysis::Report::from_json(json).unwrap();
    let again = analysis::render(&back).unwrap();
    assert_eq!(files.len(), again.len());
    for (a, b) in files.iter().zip(&again) {
        assert_eq!(a.name, b.name);
        assert!(
            a.contents == b.contents,
            "{} differs when drawn again",
            a.name
        );
    }
    // Something that is not a report is refused, saying so.
    for bad in ["", "{}", "[1, 2]", &json[..json.len() / 2]] {
        let e = analysis::Report::from_json(bad).unwrap_err().to_string();
        assert!(e.starts_with("not a report.json"), "{e}");
    }
}

/// The report of each variant alone, merged: every number equals the
/// report over both tables at once, but for the comparison of the two
/// (which needs both tables), listed as not compared.
#[test]
fn a_merge_of_single_variant_reports_is_the_joint_report_less_its_comparison() {
    let f = fixture();
    let alone = |v: Variant, k_max: u8| {
        let mut req = Request::new(f.dir.path(), vec![v], 9, k_max);
        req.allow_missing = true;
        analysis::analyse(&req, &Quiet).unwrap()
    };
    let [a, b] = variants();
    let merged =
        Report::merge(vec![("A".into(), alone(a, 10)), ("B".into(), alone(b, 10))]).unwrap();
    let m = serde_json::to_value(&merged).unwrap();
    let joint = serde_json::to_value(&f.report).unwrap();
    for field in [
        "soldiers_min",
        "soldiers_max",
        "variants",
        "partial",
        "missing_tables",
        "tables",
        "critical_mass",
    ] {
        assert_eq!(m[field], joint[field], "{field}");
    }
    assert!(joint["sensitivity"]["pairs"].as_array().unwrap().len() == 1);
    assert!(m["sensitivity"].is_null());
    assert!(joint.get("uncompared").is_none() && joint.get("merged_from").is_none());
    let unc = m["uncompared"].as_array().unwrap();
    assert_eq!(unc.len(), 1);
    assert_eq!(unc[0]["a"], "assaut");
    assert_eq!(unc[0]["b"], TRAPPED_LOSE.to_string());
    assert_eq!(unc[0]["switch"], "trapped");
    let sources = m["merged_from"].as_array().unwrap();
    assert_eq!(sources.len(), 2);
    assert_eq!(sources[1]["folder"], "B");
    assert_eq!(sources[1]["variants"][0], TRAPPED_LOSE.to_string());

    // Its files say where the numbers come from, and read back they draw
    // the same files.
    let files = analysis::render(&merged).unwrap();
    let get = |name: &str| &files.iter().find(|x| x.name == name).unwrap().contents;
    let md = get("report.md");
    assert!(md.contains("Merged by asalto-tb"), "{md}");
    assert!(md.contains("- `B`: "), "{md}");
    assert!(md.contains("**not compared**"), "{md}");
    let text = analysis::summary_text(&merged);
    assert!(text.contains("MERGED from 2 report folders"), "{text}");
    assert!(
        text.contains("not compared (from different folders): assaut vs"),
        "{text}"
    );
    let back = Report::from_json(get("report.json")).unwrap();
    let again = analysis::render(&back).unwrap();
    for (x, y) in files.iter().zip(&again) {
        assert!(
            x.contents == y.contents,
            "{} differs when drawn again",
            x.name
        );
    }
    // The joint report merged with nothing else keeps its own comparison.
    let kept = Report::merge(vec![("J".into(), f.report.clone())]).unwrap();
    assert_eq!(
        serde_json::to_value(&kept).unwrap()["sensitivity"],
        joint["sensitivity"]
    );

    // What cannot be merged is refused, saying why.
    let twice = Report::merge(vec![("A".into(), alone(a, 10)), ("C".into(), alone(a, 10))]);
    let e = twice.unwrap_err().to_string();
    assert!(e.contains("assaut is in C and in an earlier folder"), "{e}");
    let ranges = Report::merge(vec![("A".into(), alone(a, 10)), ("D".into(), alone(b, 9))]);
    let e = ranges.unwrap_err().to_string();
    assert!(
        e.contains("D reports 9..=9 soldiers, the first folder 9..=10"),
        "{e}"
    );
    assert!(Report::merge(Vec::new()).is_err());
}

#[test]
fn report_command() {
    let f = fixture();
    let out = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_asalto");
    let tables = f.dir.path();
    let run = |extra: &[&str], out: &Path| {
        Command::new(bin)
            .args(["report", "--variants"])
            .arg(format!("assaut,{}", TRAPPED_LOSE.switches()))
            .args(["--tables"])
            .arg(tables)
            .arg("--out")
            .arg(out)
            .args(extra)
            .output()
            .unwrap()
    };
    let o = run(&["--soldiers", "9"], out.path());
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    // stderr is a pipe, not a terminal: a plain line as each step starts
    // (a table counted, a pair of variants compared), with its positions.
    let positions = |file: &str| -> u64 {
        let t = asalto_tb::table::Table::open(&tables.join("assaut").join(file)).unwrap();
        t.info().positions
    };
    for file in ["1o9s.atb", "2o9s.atb"] {
        let line = format!(
            "assaut {}: counting: {} positions",
            file.trim_end_matches(".atb"),
            positions(file)
        );
        assert!(stderr.lines().any(|l| l == line), "{line:?} in {stderr}");
    }
    assert!(stderr.contains(": comparing: "), "{stderr}");
    assert!(stdout.contains("PARTIAL TABLES"), "{stdout}");
    assert!(
        stdout.contains("most sensitive switch: trapped"),
        "{stdout}"
    );
    assert!(stdout.contains(&out.path().display().to_string()));
    for name in ["report.md", "report.json", "wdl.csv", "wdl-natural.svg"] {
        assert!(out.path().join(name).is_file(), "{name}");
    }

    // --json prints report.json, and no progress lines.
    let o = run(&["--soldiers", "9", "--json"], out.path());
    assert!(o.status.success());
    assert!(!String::from_utf8_lossy(&o.stderr).contains("counting"));
    assert_eq!(
        o.stdout,
        std::fs::read(out.path().join("report.json")).unwrap()
    );

    // --from draws the folder again from its report.json, reading no table:
    // the same files into another folder.
    let again = tempfile::tempdir().unwrap();
    let o = Command::new(bin)
        .args(["report", "--from"])
        .arg(out.path())
        .arg("--out")
        .arg(again.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut names: Vec<_> = std::fs::read_dir(out.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    assert!(names.len() > 5, "{names:?}");
    for name in &names {
        let a = std::fs::read(out.path().join(name)).unwrap();
        let b = std::fs::read(again.path().join(name)).unwrap();
        assert!(a == b, "{name:?} differs when drawn again");
    }
    // --from twice merges, into a new folder named by --out only.
    let merge = |extra: &[&Path]| {
        let mut c = Command::new(bin);
        c.args(["report", "--from"]).arg(out.path());
        c.args(["--from"]).arg(again.path());
        for e in extra {
            c.arg(e);
        }
        c.output().unwrap()
    };
    for extra in [vec![], vec![Path::new("--out"), out.path()]] {
        let o = merge(&extra);
        assert_eq!(o.status.code(), Some(1));
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("--out"), "{err}");
    }
    // (The same variants twice: refused.)
    let merged = tempfile::tempdir().unwrap();
    let o = merge(&[Path::new("--out"), merged.path()]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("cannot merge the reports"), "{err}");
    assert_eq!(std::fs::read_dir(merged.path()).unwrap().count(), 0);
    // One variant a folder: merged, the summary says so.
    let one = |v: &Variant| {
        let dir = tempfile::tempdir().unwrap();
        let o = Command::new(bin)
            .args(["report", "--soldiers", "9", "--variants"])
            .arg(v.switches())
            .arg("--tables")
            .arg(tables)
            .arg("--out")
            .arg(dir.path())
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        dir
    };
    let (x, y) = (one(&Variant::ASSAUT), one(&TRAPPED_LOSE));
    let o = Command::new(bin)
        .args(["report", "--from"])
        .arg(x.path())
        .arg("--from")
        .arg(y.path())
        .arg("--out")
        .arg(merged.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("MERGED from 2 report folders"), "{stdout}");
    let json = std::fs::read_to_string(merged.path().join("report.json")).unwrap();
    assert!(json.contains("\"merged_from\""), "{json}");

    // A folder without a report.json: one line, exit 1, nothing written.
    let empty = tempfile::tempdir().unwrap();
    let o = Command::new(bin)
        .args(["report", "--from"])
        .arg(empty.path())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("report.json"), "{err}");
    assert_eq!(std::fs::read_dir(empty.path()).unwrap().count(), 0);

    // Missing tables: one line naming them, exit 1.
    let o = run(&["--soldiers", "9..=10"], out.path());
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("2o10s.atb") && err.contains("1o10s.atb"),
        "{err}"
    );
}

#[test]
fn one_officer_tables_without_huffs_are_not_missing() {
    // Under capture=mandatory (assaut-mdj) no officer is ever huffed: a
    // one-officer table is never needed, so its absence is not "missing".
    let dir = tempfile::tempdir().unwrap();
    let names = |v: Variant| -> Vec<String> {
        analysis::missing_tables(dir.path(), &[v], 9, 10)
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect()
    };
    assert_eq!(names(Variant::ASSAUT_MDJ), ["2o9s.atb", "2o10s.atb"]);
    assert_eq!(
        names(Variant::ASSAUT),
        ["1o9s.atb", "2o9s.atb", "1o10s.atb", "2o10s.atb"]
    );
}
