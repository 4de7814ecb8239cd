//! `asalto report`: variant-balance reports from the tables. The numbers
//! come from [`asalto_tb::analysis`]; this module parses the arguments,
//! builds missing tables on request, writes the report folder and prints
//! where it is.

use super::Soldiers;
use super::bars::{BuildBars, LogLines};
use anyhow::{Context, Result, bail};
use asalto_tb::analysis::{self, Request};
use asalto_tb::progress::Progress;
use asalto_tb::{Variant, build};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Arguments of `asalto report`.
#[derive(Args)]
pub struct ReportArgs {
    /// Variants to compare, comma-separated: presets (assaut, assaut-mdj,
    /// asalto, assault) and/or switch lists (soldiers=..,capture=..,max=..,trapped=..,
    /// four switches each). Default: the four presets.
    #[arg(long, conflicts_with_all = ["all_presets", "all_switches"])]
    variants: Option<String>,
    /// The four presets.
    #[arg(long, conflicts_with = "all_switches")]
    all_presets: bool,
    /// All 24 combinations of the switches.
    #[arg(long)]
    all_switches: bool,
    /// Soldier counts: K (meaning 9..=K), or A..=B.
    #[arg(long, short, default_value = "9")]
    soldiers: Soldiers,
    /// The balance curve over formations: K (9..=K) or A..=B. Reports
    /// k = A..=B over the tables present (partial: the closure of the
    /// formation of B soldiers, which --build builds for each variant,
    /// holds every formation of A..=B) instead of complete tables.
    #[arg(long, value_name = "RANGE", conflicts_with_all = ["soldiers", "allow_missing"])]
    formations: Option<Soldiers>,
    /// What the files above this floor prove of the formations (with
    /// --formations): each placement's bracket from the floor-K-officers/
    /// and floor-K-soldiers/ folders of --tables (either or both), never a
    /// value; written as bounds.md, bounds.json and two CSV files. Without
    /// --variants, the presets that have floor files there.
    #[arg(long, value_name = "K", requires = "formations", conflicts_with_all = ["build", "all_switches"], value_parser = clap::value_parser!(u8).range(10..=24))]
    floor: Option<u8>,
    /// Folder of table files.
    #[arg(long, default_value = "tables")]
    tables: PathBuf,
    /// Folder to write the report into (default: `<tables>/reports/<UTC time>`).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Build missing tables first (and complete partial ones) instead of
    /// failing.
    #[arg(long)]
    build: bool,
    /// Report over the tables present, listing the missing ones in the
    /// report, instead of failing.
    #[arg(long, conflicts_with = "build")]
    allow_missing: bool,
    /// Worker threads: 0 for one per core, 1 for serial, at most 1024.
    /// Results do not depend on it.
    #[arg(long, short, default_value = "0", value_parser = super::parse_threads, allow_negative_numbers = true)]
    threads: usize,
    /// Draw a report folder again from its report.json, reading no table:
    /// rewrites report.md, the CSV files and the plots with this binary's
    /// report code (into --out if given, else into DIR itself). The
    /// numbers are those of the report.json. Given more than once, merges
    /// the folders into one report in --out (needed then): their variants
    /// side by side, same soldier counts, numbers unchanged; pairs of
    /// variants from different folders are listed, not compared.
    #[arg(long, value_name = "DIR", conflicts_with_all = [
        "variants", "all_presets", "all_switches", "soldiers", "formations", "build",
        "allow_missing", "tables", "floor",
    ])]
    from: Vec<PathBuf>,
    /// Print report.json's content on stdout (the summary goes nowhere, the
    /// folder's path to stderr).
    #[arg(long)]
    json: bool,
}

/// Parse a variant list: comma-separated presets and switch lists, a
/// switch list being four consecutive `key=value` items.
fn parse_variants(text: &str) -> Result<Vec<Variant>> {
    let mut out = Vec::new();
    let mut pending: Vec<&str> = Vec::new();
    for item in text
        .split([',', ';'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        if item.contains('=') {
            pending.push(item);
            if pending.len() == 4 {
                out.push(pending.join(",").parse()?);
                pending.clear();
            }
        } else {
            if !pending.is_empty() {
                bail!(
                    "incomplete switch list '{}' in --variants: give all four switches",
                    pending.join(",")
                );
            }
            out.push(item.parse()?);
        }
    }
    if !pending.is_empty() {
        bail!(
            "incomplete switch list '{}' in --variants: give all four switches",
            pending.join(",")
        );
    }
    if out.is_empty() {
        bail!("--variants names no variant");
    }
    Ok(out)
}

impl ReportArgs {
    fn variants(&self) -> Result<Vec<Variant>> {
        if self.all_switches {
            Ok(Variant::all())
        } else if let Some(list) = &self.variants {
            parse_variants(list)
        } else {
            Ok(Variant::PRESETS.iter().map(|(_, v, _)| *v).collect())
        }
    }
}

/// `YYYYMMDD-HHMMSS` in UTC for a Unix time.
fn utc_stamp(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}{m:02}{d:02}-{:02}{:02}{:02}",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

fn default_out(tables: &Path) -> PathBuf {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    tables.join("reports").join(utc_stamp(secs))
}

/// The progress of an analysis: one step (a table counted, a pair
/// compared) at a time, as a bar on a terminal; where stderr is not a
/// terminal (a log, a pipe), a line when each step starts and a progress
/// line every [`super::bars::LOG_EVERY`] seconds ([`LogLines`]); nothing
/// with `--json`.
struct Bar {
    bar: ProgressBar,
    step: Mutex<String>,
    /// The step's log lines, when stderr is a log.
    log: Option<Mutex<LogLines>>,
}

impl Bar {
    /// A bar on stderr (hidden when stderr is not a terminal); log lines
    /// there instead unless `quiet`.
    fn new(quiet: bool) -> Bar {
        let bar = ProgressBar::new(0);
        bar.set_style(
            ProgressStyle::with_template(
                "{msg} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} positions ({per_sec}, eta {eta})",
            )
            .expect("valid template"),
        );
        let lines = !quiet && !std::io::stderr().is_terminal();
        Bar {
            bar,
            step: Mutex::new(String::new()),
            log: lines.then(|| Mutex::new(LogLines::new(String::new()))),
        }
    }

    fn update(&self, s: &Progress<'_>) {
        let mut step = self.step.lock().unwrap_or_else(|e| e.into_inner());
        let new = *step != s.step;
        if new {
            *step = s.step.to_string();
            self.bar.reset();
            self.bar.set_message(s.step.to_string());
            self.bar.set_length(s.total);
        }
        self.bar.set_position(s.done);
        if let Some(log) = &self.log {
            let mut log = log.lock().unwrap_or_else(|e| e.into_inner());
            if new {
                errln!("{}: {} positions", s.step, s.total);
                *log = LogLines::new(s.step.to_string());
            }
            log.tick(s);
        }
    }
}

/// Run `asalto report`.
pub fn run(args: ReportArgs) -> Result<()> {
    if !args.from.is_empty() {
        return from_folders(&args.from, args.out.as_deref(), args.json);
    }
    if let Some(floor) = args.floor {
        return floor_report(&args, floor);
    }
    let variants = args.variants()?;
    let Soldiers(k_min, k_max) = args.formations.unwrap_or(args.soldiers);
    let allow_missing = args.allow_missing || args.formations.is_some();
    if args.build && args.formations.is_some() {
        // The closure of the largest formation holds the smaller ones.
        let pos = analysis::formation_position(k_max);
        for v in &variants {
            let observer = BuildBars::new(v, args.json);
            let tiers = analysis::formation_closure(v, k_max);
            build::build_tiers(
                &args.tables,
                v,
                &tiers,
                &build::BuildOptions::threads(args.threads),
                &observer,
            )
            .with_context(|| format!("building the closure of {pos} for {v}"))?;
            observer.finish();
        }
    } else if args.build {
        for v in &variants {
            let observer = BuildBars::new(v, args.json);
            build::build(
                &args.tables,
                v,
                k_min,
                k_max,
                &build::BuildOptions::threads(args.threads),
                &observer,
            )
            .with_context(|| format!("building the tables of {v}"))?;
            observer.finish();
        }
    }
    let missing = analysis::missing_tables(&args.tables, &variants, k_min, k_max);
    if !missing.is_empty() && !allow_missing {
        let names: Vec<String> = missing.iter().map(|p| p.display().to_string()).collect();
        bail!(
            "{} missing table{}: {}; build them with `asalto build --variant V --soldiers {k_min}..={k_max} --tables {}` or rerun with --build (or pass --allow-missing to report on the tables present)",
            missing.len(),
            if missing.len() == 1 { "" } else { "s" },
            names.join(", "),
            args.tables.display(),
        );
    }
    let mut req = Request::new(&args.tables, variants, k_min, k_max);
    req.allow_missing = allow_missing;
    req.threads = args.threads;
    let bar = Bar::new(args.json);
    let report = analysis::analyse(&req, &|s: &Progress| bar.update(s))?;
    bar.bar.finish_and_clear();
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| default_out(&args.tables));
    write_report(&report, &out, args.json)
}

/// `asalto report --from DIR...`: one folder drawn again (into `out`, else
/// itself), or several merged into `out`.
fn from_folders(dirs: &[PathBuf], out: Option<&Path>, json: bool) -> Result<()> {
    let read = |dir: &Path| -> Result<analysis::Report> {
        let path = dir.join("report.json");
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        analysis::Report::from_json(&text)
            .with_context(|| format!("cannot read {}", path.display()))
    };
    if let [dir] = dirs {
        let report = read(dir)?;
        return write_report(&report, out.unwrap_or(dir), json);
    }
    let Some(out) = out else {
        bail!(
            "--from given {} times merges the folders into a new one: say where with --out",
            dirs.len()
        );
    };
    // Writing the merge over a source would lose that source's report.
    if let Ok(o) = out.canonicalize() {
        for dir in dirs {
            if dir.canonicalize().is_ok_and(|d| d == o) {
                bail!(
                    "--out {} is one of the --from folders: merge into another folder",
                    out.display()
                );
            }
        }
    }
    let mut parts = Vec::new();
    for dir in dirs {
        parts.push((dir.display().to_string(), read(dir)?));
    }
    let report = analysis::Report::merge(parts)?;
    write_report(&report, out, json)
}

/// `asalto report --floor K --formations A..=B`: what the floor files
/// prove of the formations, written into the report folder.
fn floor_report(args: &ReportArgs, floor: u8) -> Result<()> {
    let Some(Soldiers(k_min, k_max)) = args.formations else {
        bail!("--floor reports formations: give --formations A..=B");
    };
    super::check_tables_dir(&args.tables)?;
    if !args.tables.is_dir() {
        bail!("--tables {}: no such folder", args.tables.display());
    }
    let explicit = args.variants.is_some() || args.all_presets;
    let has_floor = |v: &Variant| {
        asalto_tb::table::floors_under(&args.tables, v)
            .iter()
            .any(|f| f.k() == floor)
    };
    let variants: Vec<Variant> = args
        .variants()?
        .into_iter()
        .filter(|v| explicit || has_floor(v))
        .collect();
    if variants.is_empty() {
        bail!(
            "no floor files at {floor} under {}: no preset has a floor-{floor}-officers/ or floor-{floor}-soldiers/ folder there (build them with asalto build --floor {floor} --assume officers|soldiers)",
            args.tables.display()
        );
    }
    let mut found = Vec::new();
    for v in &variants {
        found.push(analysis::floor_bounds(
            &args.tables,
            v,
            floor,
            k_min,
            k_max,
        )?);
    }
    if found.iter().all(|v| v.rows.is_empty()) {
        bail!(
            "no floor file at {floor} under {} holds a formation of {k_min}..={k_max} soldiers (they hold other closures: build with --for formation:K)",
            args.tables.display()
        );
    }
    let bounds = analysis::FloorBounds::new(floor, found);
    let files = analysis::render_bounds(&bounds)?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| default_out(&args.tables));
    write_files(&files, &out)?;
    let written = format!(
        "floor report written to {}: bounds.md, bounds.json, formation_bounds.csv, placement_bounds.csv",
        out.display()
    );
    if args.json {
        let json = files.iter().find(|f| f.name == "bounds.json");
        out!("{}", json.map_or("{}", |f| f.contents.as_str()));
        errln!("{written}");
        return Ok(());
    }
    for v in &bounds.variants {
        outln!("{} ({}):", v.variant, v.floors.join("; "));
        for r in &v.rows {
            outln!(
                "  k = {:2}: vs the best placement {} [{}]; placements: {} win, {} draw, {} lose proved, {} at least draw, {} at most draw, {} open",
                r.k,
                r.vs_best,
                r.label,
                r.soldiers_win,
                r.draws,
                r.officers_win,
                r.at_least_draw,
                r.at_most_draw,
                r.open
            );
        }
        if !v.missing_k.is_empty() {
            let ks: Vec<String> = v.missing_k.iter().map(u8::to_string).collect();
            outln!(
                "  no floor file holds the formation of k = {}",
                ks.join(", ")
            );
        }
    }
    outln!("{written}");
    Ok(())
}

/// Write `files` into the folder `out`, each whole or not at all (written
/// beside, then renamed).
fn write_files(files: &[analysis::OutputFile], out: &Path) -> Result<()> {
    std::fs::create_dir_all(out)
        .with_context(|| format!("cannot create the report folder {}", out.display()))?;
    for f in files {
        let path = out.join(&f.name);
        let part = out.join(format!(".{}.part", f.name));
        std::fs::write(&part, &f.contents)
            .and_then(|()| std::fs::rename(&part, &path))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

/// Write every file of `report` into the folder `out` and say where on
/// the terminal.
fn write_report(report: &analysis::Report, out: &Path, json: bool) -> Result<()> {
    let files = analysis::render(report)?;
    write_files(&files, out)?;
    let count = |ext: &str| files.iter().filter(|f| f.name.ends_with(ext)).count();
    let written = format!(
        "report written to {}: report.md, report.json, {} CSV files, {} SVG plots",
        out.display(),
        count(".csv"),
        count(".svg")
    );
    if json {
        let json = files
            .iter()
            .find(|f| f.name == "report.json")
            .map(|f| f.contents.as_str())
            .unwrap_or("{}");
        out!("{json}");
        errln!("{written}");
    } else {
        out!("{}", analysis::summary_text(report));
        outln!("{written}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_lists() {
        let v = parse_variants("assaut,asalto").unwrap();
        assert_eq!(v, [Variant::ASSAUT, Variant::ASALTO]);
        let v = parse_variants(
            "assault, soldiers=closer,capture=free,max=off,trapped=soldiers-win ,assaut-mdj",
        )
        .unwrap();
        assert_eq!(v.len(), 3);
        assert_eq!(v[2], Variant::ASSAUT_MDJ);
        assert!(parse_variants("soldiers=closer,capture=free,assaut").is_err());
        assert!(parse_variants("nope").is_err());
        assert!(parse_variants(",").is_err());
    }

    #[test]
    fn stamps() {
        assert_eq!(utc_stamp(0), "19700101-000000");
        assert_eq!(utc_stamp(951_782_400 + 3661), "20000229-010101");
        assert_eq!(utc_stamp(1_700_000_000), "20231114-221320");
    }
}
