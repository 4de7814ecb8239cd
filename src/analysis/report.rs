//! Rendering a [`Report`] into the files of a report folder, as strings:
//! `report.md` (tables, with the SVG plots embedded by relative links),
//! `report.json` (the [`Report`] itself), one CSV file per table of
//! numbers, and the SVG plots. Also the short text summary the command
//! prints.

use super::plots::{self, Pop};
use super::{AnalysisError, Report, TableStats};
use crate::index::FileKey;
use serde::Serialize;
use std::fmt::Write as _;

/// A file of a report folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputFile {
    /// The file name (no folder).
    pub name: String,
    /// Its contents.
    pub contents: String,
}

/// One CSV file: its name, what it holds, its contents.
pub(super) struct Csv {
    pub(super) name: &'static str,
    pub(super) about: &'static str,
    pub(super) contents: String,
}

impl Csv {
    /// The file of the report folder it is.
    pub(super) fn into_file(self) -> OutputFile {
        OutputFile {
            name: self.name.into(),
            contents: self.contents,
        }
    }

    /// The CSV file of `rows`, a header line of the row type's field names
    /// first (also when there are no rows), standard CSV quoting.
    pub(super) fn new<R: Serialize + Default>(
        name: &'static str,
        about: &'static str,
        rows: &[R],
    ) -> Result<Csv, AnalysisError> {
        let error = |error| AnalysisError::Csv { name, error };
        let mut w = csv::Writer::from_writer(Vec::new());
        if rows.is_empty() {
            // The header alone: written with a row of defaults, cut below.
            w.serialize(R::default()).map_err(error)?;
        }
        for r in rows {
            w.serialize(r).map_err(error)?;
        }
        let bytes = w
            .into_inner()
            .map_err(|e| error(csv::Error::from(e.into_error())))?;
        // Every field is a str, a number or a bool: the bytes are UTF-8.
        let mut contents = String::from_utf8_lossy(&bytes).into_owned();
        if rows.is_empty() {
            let header = contents.find('\n').map_or(contents.len(), |i| i + 1);
            contents.truncate(header);
        }
        Ok(Csv {
            name,
            about,
            contents,
        })
    }
}

/// A percentage as written in the CSV files: four decimals.
fn pct<S: serde::Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(&format_args!("{x:.4}"))
}

fn side_name(pop: Pop) -> &'static str {
    if pop.soldiers_to_move() {
        "soldiers"
    } else {
        "officers"
    }
}

/// A row of `tables.csv`.
#[derive(Serialize, Default)]
struct TableRow<'a> {
    variant: &'a str,
    officers: u8,
    soldiers: u8,
    complete: bool,
    tiers: u64,
    tiers_complete: u64,
    positions_stored: u64,
    positions_complete: u64,
    wdl_only: bool,
    file: &'a str,
}

/// A row of `wdl.csv`.
#[derive(Serialize, Default)]
struct WdlRow<'a> {
    variant: &'a str,
    officers: u8,
    soldiers: u8,
    population: String,
    side_to_move: &'a str,
    complete: bool,
    stored_win: u64,
    stored_draw: u64,
    stored_loss: u64,
    positions_win: u64,
    positions_draw: u64,
    positions_loss: u64,
    #[serde(serialize_with = "pct")]
    win_percent: f64,
    #[serde(serialize_with = "pct")]
    draw_percent: f64,
    #[serde(serialize_with = "pct")]
    loss_percent: f64,
    #[serde(serialize_with = "pct")]
    soldiers_win_percent: f64,
    #[serde(serialize_with = "pct")]
    officers_win_percent: f64,
}

/// A row of `longest.csv`.
#[derive(Serialize, Default)]
struct LongestRow<'a> {
    variant: &'a str,
    officers: u8,
    soldiers: u8,
    population: String,
    side_to_move: &'a str,
    longest_win_plies: Option<u16>,
    longest_win_position: Option<&'a str>,
    longest_loss_plies: Option<u16>,
    longest_loss_position: Option<&'a str>,
}

/// A row of `critical_mass.csv`.
#[derive(Serialize, Default)]
struct CriticalRow<'a> {
    variant: &'a str,
    soldiers: u8,
    formation: &'a str,
    result_for_soldiers: &'a str,
    plies: Option<u16>,
    best_placement: &'a str,
    best_placements: String,
    soldiers_win_placements: u32,
    draw_placements: u32,
    soldiers_lose_placements: u32,
    longest_soldiers_win_plies: Option<u16>,
    longest_officers_win_plies: Option<u16>,
    position: &'a str,
}

/// A row of `critical_mass_placements.csv`.
#[derive(Serialize, Default)]
struct PlacementRow<'a> {
    variant: &'a str,
    soldiers: u8,
    officers: &'a str,
    result_for_soldiers: &'a str,
    plies: Option<u16>,
}

/// A row of `sensitivity.csv`: a pair of variants and one table of both,
/// or all of them (officers and soldiers `all`).
#[derive(Serialize, Default)]
struct SensitivityRow<'a> {
    variant_a: &'a str,
    variant_b: &'a str,
    switch: &'a str,
    a_setting: &'a str,
    b_setting: &'a str,
    officers: String,
    soldiers: String,
    complete: bool,
    compared_stored: u64,
    compared: u64,
    wdl_changed: u64,
    value_changed: u64,
    toward_soldiers: u64,
    toward_officers: u64,
    #[serde(serialize_with = "pct")]
    wdl_changed_percent: f64,
    #[serde(serialize_with = "pct")]
    value_changed_percent: f64,
}

/// A row of `sensitivity_switches.csv`.
#[derive(Serialize, Default)]
struct SwitchRow<'a> {
    switch: &'a str,
    pairs: usize,
    compared_stored: u64,
    compared: u64,
    wdl_changed: u64,
    value_changed: u64,
    toward_soldiers: u64,
    toward_officers: u64,
    #[serde(serialize_with = "pct")]
    wdl_changed_percent: f64,
    #[serde(serialize_with = "pct")]
    value_changed_percent: f64,
}

/// The CSV files of a report.
fn csv_files(r: &Report) -> Result<Vec<Csv>, AnalysisError> {
    let tables = table_rows(r);
    let (wdl, longest) = wdl_and_longest_rows(r);
    let (cm, cmp) = critical_rows(r);
    let mut out = vec![
        Csv::new(
            "tables.csv",
            "the table files read: tiers and positions stored, and what a complete table stores; wdl_only: built without distances (no longest wins)",
            &tables,
        )?,
        Csv::new(
            "wdl.csv",
            "win / draw / loss for the side to move per variant, soldiers and population; stored_* count positions stored (after the mirror), positions_* count mirror images too; percentages are of positions_*; soldiers_win_percent and officers_win_percent give the same from the soldiers' side",
            &wdl,
        )?,
        Csv::new(
            "longest.csv",
            "the longest win and the longest loss of the side to move (plies) per variant, soldiers and population, each with a position reaching it",
            &longest,
        )?,
        Csv::new(
            "critical_mass.csv",
            "critical mass: per variant and soldier count, the formation's value for the soldiers (to move) against the officers' best placement",
            &cm,
        )?,
        Csv::new(
            "critical_mass_placements.csv",
            "critical mass: the value of every officer placement against every formation, for the soldiers (to move)",
            &cmp,
        )?,
    ];
    if let Some(s) = &r.sensitivity {
        out.extend(sensitivity_csvs(s)?);
    }
    Ok(out)
}

/// The rows of `tables.csv`: one per table file read.
fn table_rows(r: &Report) -> Vec<TableRow<'_>> {
    r.tables
        .iter()
        .map(|t| TableRow {
            variant: &t.variant,
            officers: t.n,
            soldiers: t.k,
            complete: t.complete,
            tiers: t.tiers,
            tiers_complete: t.tiers_complete,
            positions_stored: t.positions_stored,
            positions_complete: t.positions_complete,
            wdl_only: t.wdl_only,
            file: &t.file,
        })
        .collect()
}

/// The rows of `wdl.csv` and of `longest.csv`: one per population (in
/// [`Pop::ALL`] order) and table.
fn wdl_and_longest_rows(r: &Report) -> (Vec<WdlRow<'_>>, Vec<LongestRow<'_>>) {
    let mut wdl = Vec::new();
    let mut longest = Vec::new();
    for pop in Pop::ALL {
        for t in &r.tables {
            let Some(p) = pop.of(t) else { continue };
            let view = pop.soldiers_view(p);
            wdl.push(WdlRow {
                variant: &t.variant,
                officers: t.n,
                soldiers: t.k,
                population: pop.key(),
                side_to_move: side_name(pop),
                complete: t.complete,
                stored_win: p.stored.win,
                stored_draw: p.stored.draw,
                stored_loss: p.stored.loss,
                positions_win: p.positions.win,
                positions_draw: p.positions.draw,
                positions_loss: p.positions.loss,
                win_percent: p.win_percent,
                draw_percent: p.draw_percent,
                loss_percent: p.loss_percent,
                soldiers_win_percent: view[0],
                officers_win_percent: view[2],
            });
            longest.push(LongestRow {
                variant: &t.variant,
                officers: t.n,
                soldiers: t.k,
                population: pop.key(),
                side_to_move: side_name(pop),
                longest_win_plies: p.longest_win.as_ref().map(|e| e.plies),
                longest_win_position: p.longest_win.as_ref().map(|e| e.position.as_str()),
                longest_loss_plies: p.longest_loss.as_ref().map(|e| e.plies),
                longest_loss_position: p.longest_loss.as_ref().map(|e| e.position.as_str()),
            });
        }
    }
    (wdl, longest)
}

/// The rows of `critical_mass.csv` (one per variant and formation) and of
/// `critical_mass_placements.csv` (one per officer placement too).
fn critical_rows(r: &Report) -> (Vec<CriticalRow<'_>>, Vec<PlacementRow<'_>>) {
    let mut cm = Vec::new();
    let mut cmp = Vec::new();
    for c in &r.critical_mass.variants {
        for row in &c.rows {
            cm.push(CriticalRow {
                variant: &c.variant,
                soldiers: row.k,
                formation: &row.formation,
                result_for_soldiers: &row.result,
                plies: row.plies,
                best_placement: &row.best_placement,
                best_placements: row.best_placements.join(" "),
                soldiers_win_placements: row.soldiers_win,
                draw_placements: row.draws,
                soldiers_lose_placements: row.soldiers_lose,
                longest_soldiers_win_plies: row.longest_soldiers_win,
                longest_officers_win_plies: row.longest_officers_win,
                position: &row.position,
            });
            cmp.extend(row.placements.iter().map(|p| PlacementRow {
                variant: &c.variant,
                soldiers: row.k,
                officers: &p.officers,
                result_for_soldiers: &p.result,
                plies: p.plies,
            }));
        }
    }
    (cm, cmp)
}

/// `sensitivity.csv` (per pair of variants and table, and all tables
/// together) and `sensitivity_switches.csv` (per switch).
fn sensitivity_csvs(s: &super::Sensitivity) -> Result<[Csv; 2], AnalysisError> {
    let mut sens = Vec::new();
    for p in &s.pairs {
        let row =
            |officers: String, soldiers: String, complete, c: &super::DiffCounts| SensitivityRow {
                variant_a: &p.a,
                variant_b: &p.b,
                switch: &p.switch,
                a_setting: &p.a_setting,
                b_setting: &p.b_setting,
                officers,
                soldiers,
                complete,
                compared_stored: c.compared_stored,
                compared: c.compared,
                wdl_changed: c.wdl_changed,
                value_changed: c.value_changed,
                toward_soldiers: c.toward_soldiers,
                toward_officers: c.toward_officers,
                wdl_changed_percent: c.wdl_changed_percent,
                value_changed_percent: c.value_changed_percent,
            };
        for t in &p.tables {
            sens.push(row(t.n.to_string(), t.k.to_string(), t.complete, &t.counts));
        }
        let complete = p.tables.iter().all(|t| t.complete) && !p.tables.is_empty();
        sens.push(row("all".into(), "all".into(), complete, &p.total));
    }
    let switches: Vec<SwitchRow> = s
        .switches
        .iter()
        .map(|x| SwitchRow {
            switch: &x.switch,
            pairs: x.pairs,
            compared_stored: x.total.compared_stored,
            compared: x.total.compared,
            wdl_changed: x.total.wdl_changed,
            value_changed: x.total.value_changed,
            toward_soldiers: x.total.toward_soldiers,
            toward_officers: x.total.toward_officers,
            wdl_changed_percent: x.total.wdl_changed_percent,
            value_changed_percent: x.total.value_changed_percent,
        })
        .collect();
    Ok([
        Csv::new(
            "sensitivity.csv",
            "rule sensitivity: per pair of variants differing in one switch and per table (officers and soldiers 'all' = every table together), positions compared and changed (mirror images counted except compared_stored)",
            &sens,
        )?,
        Csv::new(
            "sensitivity_switches.csv",
            "rule sensitivity per switch, pooled over the pairs differing in it",
            &switches,
        )?,
    ])
}

/// Escape `|` for a Markdown table cell.
fn cell(s: &str) -> String {
    s.replace('|', "\\|")
}

fn tables_note(t: &TableStats) -> String {
    if t.complete {
        "complete".into()
    } else {
        format!("partial ({} of {} tiers)", t.tiers, t.tiers_complete)
    }
}

/// The Markdown report.
fn markdown(r: &Report, plots: &[plots::Plot], csvs: &[Csv]) -> String {
    let mut m = String::new();
    md_intro(&mut m, r);
    md_wdl(&mut m, r, plots);
    md_longest(&mut m, r);
    md_critical_mass(&mut m, r, plots);
    md_sensitivity(&mut m, r, plots);
    md_files(&mut m, plots, csvs);
    m
}

/// Embed the plot `name`, if it was drawn, as an image link.
fn md_plot(m: &mut String, plots: &[plots::Plot], name: &str) {
    if let Some(p) = plots.iter().find(|p| p.name == name) {
        let _ = writeln!(m, "\n![{}]({})\n", p.title, p.name);
    }
}

/// The title, where the numbers come from, the variants reported, the
/// partial-tables warning and how to read the numbers.
fn md_intro(m: &mut String, r: &Report) {
    let _ = writeln!(m, "# Asalto variant-balance report\n");
    if r.merged_from.is_empty() {
        let _ = writeln!(
            m,
            "Made by asalto-tb {} from the tables under `{}`, {}..={} soldiers, one and two \
             officers. Every number is read from the table files.\n",
            r.tool_version, r.tables_dir, r.soldiers_min, r.soldiers_max
        );
    } else {
        let _ = writeln!(
            m,
            "Merged by asalto-tb {} from {} report folders, reading no table, {}..={} soldiers, \
             one and two officers. Every number is copied from the report.json of the folder \
             named, whose report read it from the table files:\n",
            r.tool_version,
            r.merged_from.len(),
            r.soldiers_min,
            r.soldiers_max
        );
        for src in &r.merged_from {
            let names: Vec<String> = src.variants.iter().map(|v| cell(v)).collect();
            let _ = writeln!(
                m,
                "- `{}`: {} (tables under `{}`)",
                src.folder,
                names.join(", "),
                src.tables_dir
            );
        }
        let _ = writeln!(m);
    }
    let _ = writeln!(
        m,
        "| variant | soldiers | capture | max | trapped | rule sheet |\n|---|---|---|---|---|---|"
    );
    for v in &r.variants {
        let _ = writeln!(
            m,
            "| {} | {} | {} | {} | {} | {} |",
            cell(&v.name),
            v.soldiers,
            v.capture,
            v.max,
            v.trapped,
            v.source.as_deref().unwrap_or("-")
        );
    }
    if r.partial {
        md_partial(m, r);
    }
    let _ = writeln!(m, "\n## How to read the numbers\n");
    for d in &r.definitions {
        let _ = writeln!(m, "- **{}**: {}.", d.term, d.meaning);
    }
}

/// The warning that some tables are partial or missing, with the list.
fn md_partial(m: &mut String, r: &Report) {
    let _ = writeln!(
        m,
        "\n> **Partial tables.** Some tables hold only part of their tiers (built with \
         `asalto build --for`) or are missing, so every number below covers the tiers \
         present only and is **not** a statement about the whole game."
    );
    for t in r.tables.iter().filter(|t| !t.complete) {
        let _ = writeln!(
            m,
            "> - {} {}: {} of {} tiers, {} of {} stored positions",
            cell(&t.variant),
            FileKey::new(t.n, t.k),
            t.tiers,
            t.tiers_complete,
            t.positions_stored,
            t.positions_complete
        );
    }
    for p in &r.missing_tables {
        let _ = writeln!(m, "> - missing: `{p}`");
    }
}

/// Section 1: win / draw / loss, a table and a plot per population.
fn md_wdl(m: &mut String, r: &Report, plots: &[plots::Plot]) {
    let _ = writeln!(m, "\n## 1. Win / draw / loss\n");
    let _ = writeln!(
        m,
        "Win / draw / loss are for the side to move; the plots show the same from the soldiers' \
         side (soldiers win / draw / officers win)."
    );
    for pop in Pop::ALL {
        let rows: Vec<&TableStats> = r.tables.iter().filter(|t| pop.of(t).is_some()).collect();
        if rows.is_empty() {
            continue;
        }
        let _ = writeln!(m, "\n### {}\n", capitalise(&pop.title()));
        let _ = writeln!(
            m,
            "| variant | soldiers | tables | stored | positions | win % | draw % | loss % |\n|---|---:|---|---:|---:|---:|---:|---:|"
        );
        for t in rows {
            let Some(p) = pop.of(t) else { continue };
            let _ = writeln!(
                m,
                "| {} | {} | {} | {} | {} | {:.2} | {:.2} | {:.2} |",
                cell(&t.variant),
                t.k,
                tables_note(t),
                p.stored.total(),
                p.positions.total(),
                p.win_percent,
                p.draw_percent,
                p.loss_percent
            );
        }
        md_plot(m, plots, &format!("wdl-{}.svg", pop.key()));
    }
}

/// Section 2: the longest forced wins and losses of each table and side
/// to move.
fn md_longest(m: &mut String, r: &Report) {
    let _ = writeln!(m, "\n## 2. Longest forced wins\n");
    let _ = writeln!(
        m,
        "The longest win of the side to move, in plies, over every stored position of a table, \
         with a position reaching it (the first in tier and index order). A longest loss of one \
         side to move is the other side's longest win counted from the loser's turn.\n"
    );
    if r.tables.iter().any(|t| t.wdl_only) {
        let _ = writeln!(
            m,
            "Tables built WDL-only (`asalto build --wdl-only`) hold no distances, so no \
             longest win is known from them: their rows say `WDL-only`.\n"
        );
    }
    let _ = writeln!(
        m,
        "| variant | soldiers | officers | side to move | longest win | example | longest loss | example |\n|---|---:|---:|---|---:|---|---:|---|"
    );
    for t in &r.tables {
        for pop in [Pop::SoldiersToMove(t.n), Pop::OfficersToMove(t.n)] {
            let Some(p) = pop.of(t) else { continue };
            let ex = |e: &Option<super::Example>| {
                (
                    plies_cell(e.as_ref().map(|e| e.plies), t.wdl_only),
                    e.as_ref()
                        .map_or("-".into(), |e| format!("`{}`", e.position)),
                )
            };
            let (wp, wpos) = ex(&p.longest_win);
            let (lp, lpos) = ex(&p.longest_loss);
            let _ = writeln!(
                m,
                "| {} | {} | {} | {} | {wp} | {wpos} | {lp} | {lpos} |",
                cell(&t.variant),
                t.k,
                t.n,
                side_name(pop)
            );
        }
    }
}

/// Section 3: where the balance turns, then each variant's formations, and
/// the balance-curve plot.
fn md_critical_mass(m: &mut String, r: &Report, plots: &[plots::Plot]) {
    let _ = writeln!(m, "\n## 3. Critical mass and the balance curve\n");
    let _ = writeln!(m, "Rule: {}.\n", r.critical_mass.rule);
    let computed: Vec<&super::CriticalMass> = r
        .critical_mass
        .variants
        .iter()
        .filter(|c| !c.rows.is_empty())
        .collect();
    if !computed.is_empty() {
        md_balance_turns(m, &computed);
    }
    for c in &r.critical_mass.variants {
        md_critical_variant(m, r, c);
    }
    md_plot(m, plots, "critical-mass.svg");
}

/// The table of where the balance turns, one row per rule sheet with
/// formations computed.
fn md_balance_turns(m: &mut String, computed: &[&super::CriticalMass]) {
    let _ = writeln!(
        m,
        "Where the balance turns, per rule sheet (the smallest k computed at which the \
         soldiers, to move, win against every officer placement and against at least one; \
         \"above K\" when it is beyond the formations computed):\n"
    );
    let _ = writeln!(
        m,
        "| variant | k computed | soldiers win vs every placement | vs at least one | at the largest k: value vs best placement, placements won / drawn / lost |\n|---|---|---|---|---|"
    );
    for c in computed {
        let first = c.rows.first().map_or(0, |r| r.k);
        let last = c.largest_k.unwrap_or(0);
        let at = |x: Option<u8>| match x {
            Some(k) => format!("k = {k}"),
            None => format!("above {last}"),
        };
        let top = c.rows.last().map_or(String::new(), |row| {
            format!(
                "{} ({} / {} / {})",
                row.value, row.soldiers_win, row.draws, row.soldiers_lose
            )
        });
        let _ = writeln!(
            m,
            "| {} | {first}..={last} | {} | {} | {top} |",
            cell(&c.variant),
            at(c.smallest_winning_k),
            at(c.smallest_k_winning_some)
        );
    }
    let _ = writeln!(m);
}

/// One variant's formations: the value of each against the officers' best
/// placement, the crossover and the soldier counts not in the tables.
fn md_critical_variant(m: &mut String, r: &Report, c: &super::CriticalMass) {
    let _ = writeln!(m, "### {}\n", c.variant);
    if c.rows.is_empty() {
        let _ = writeln!(
            m,
            "No formation tier is in the tables for k = {}..={}.\n",
            r.soldiers_min, r.soldiers_max
        );
        return;
    }
    let _ = writeln!(
        m,
        "| k | formation | result for the soldiers | officers' best placement | placements won / drawn / lost by the soldiers | longest win: soldiers / officers (plies) | position |\n|---:|---|---|---|---|---|---|"
    );
    for row in &c.rows {
        // A formation's longest wins are unknown when its tables are
        // WDL-only; say so rather than leave a bare "-".
        let wdl_only = r
            .table(&c.variant, FileKey::new(2, row.k))
            .is_some_and(|t| t.wdl_only);
        let plies = |p: Option<u16>| plies_cell(p, wdl_only);
        let others = row.best_placements.len() - 1;
        let best = if others > 0 {
            format!("{} (and {others} more as good)", row.best_placement)
        } else {
            row.best_placement.clone()
        };
        let _ = writeln!(
            m,
            "| {} | {} | {} | {} | {} / {} / {} | {} / {} | `{}` |",
            row.k,
            row.formation,
            row.value,
            best,
            row.soldiers_win,
            row.draws,
            row.soldiers_lose,
            plies(row.longest_soldiers_win),
            plies(row.longest_officers_win),
            row.position
        );
    }
    let _ = writeln!(m, "\n{}: {}.", c.variant, c.crossover);
    if !c.missing_k.is_empty() {
        let ks: Vec<String> = c.missing_k.iter().map(|k| k.to_string()).collect();
        let _ = writeln!(m, "Not in the tables (no value): k = {}.", ks.join(", "));
    }
    let _ = writeln!(m);
}

/// Section 4: rule sensitivity, or why there is none.
fn md_sensitivity(m: &mut String, r: &Report, plots: &[plots::Plot]) {
    let _ = writeln!(m, "\n## 4. Rule sensitivity\n");
    match &r.sensitivity {
        None if !r.merged_from.is_empty() => {}
        None => {
            let _ = writeln!(m, "One variant only: nothing to compare.");
        }
        Some(s) if s.pairs.is_empty() => {
            let _ = writeln!(
                m,
                "No two of the variants reported differ in exactly one switch: nothing to compare."
            );
        }
        Some(s) => md_sensitivity_pairs(m, s, plots),
    }
    if !r.merged_from.is_empty() {
        if r.sensitivity.is_some() {
            let _ = writeln!(m);
        }
        md_uncompared(m, r);
    }
}

/// What a merged report could not compare: its pairs differing in one
/// switch that came from different folders.
fn md_uncompared(m: &mut String, r: &Report) {
    if r.uncompared.is_empty() {
        let _ = writeln!(
            m,
            "Merged from report folders: no pair of variants from different folders differs \
             in exactly one switch."
        );
        return;
    }
    let _ = writeln!(
        m,
        "Merged from report folders, reading no table: these pairs differ in exactly one switch \
         but come from different folders, so they are **not compared** here (a report over both \
         tables, `asalto report --variants A,B`, compares them):\n"
    );
    for p in &r.uncompared {
        let _ = writeln!(m, "- {} vs {} ({})", cell(&p.a), cell(&p.b), p.switch);
    }
}

/// The pairs of variants differing in one switch, the switches pooled, the
/// most sensitive switch and the plot.
fn md_sensitivity_pairs(m: &mut String, s: &super::Sensitivity, plots: &[plots::Plot]) {
    let _ = writeln!(
        m,
        "Pairs of reported variants that differ in exactly one switch, compared position by \
         position over the tiers stored in both tables (both sides to move, every table of \
         both variants present; the soldier rule does not change which positions a tier \
         holds, so `soldiers` pairs are compared the same way). Pairs differing in more \
         than one switch are left out. Percentages are of the positions compared, mirror \
         images counted.\n"
    );
    let _ = writeln!(
        m,
        "| variant a | variant b | switch | a -> b | positions compared | win/draw/loss changed % | value changed % | better for soldiers under b % | better for officers under b % |\n|---|---|---|---|---:|---:|---:|---:|---:|"
    );
    for p in &s.pairs {
        let c = &p.total;
        let of = |x: u64| 100.0 * x as f64 / c.compared.max(1) as f64;
        let _ = writeln!(
            m,
            "| {} | {} | {} | {} -> {} | {} | {:.3} | {:.3} | {:.3} | {:.3} |",
            cell(&p.a),
            cell(&p.b),
            p.switch,
            p.a_setting,
            p.b_setting,
            c.compared,
            c.wdl_changed_percent,
            c.value_changed_percent,
            of(c.toward_soldiers),
            of(c.toward_officers)
        );
    }
    let _ = writeln!(
        m,
        "\n| switch | pairs | positions compared | win/draw/loss changed % | value changed % |\n|---|---:|---:|---:|---:|"
    );
    for x in &s.switches {
        let _ = writeln!(
            m,
            "| {} | {} | {} | {:.3} | {:.3} |",
            x.switch,
            x.pairs,
            x.total.compared,
            x.total.wdl_changed_percent,
            x.total.value_changed_percent
        );
    }
    if let Some(top) = &s.most_sensitive {
        let share = s
            .switches
            .iter()
            .find(|x| &x.switch == top)
            .map_or(0.0, |x| x.total.wdl_changed_percent);
        let _ = writeln!(
            m,
            "\nThe switch that changes the most values: **{top}** ({share:.3} % of the \
             positions compared change win/draw/loss{}).",
            if s.switches.len() == 1 {
                "; it is the only switch compared"
            } else {
                ""
            }
        );
    }
    md_plot(m, plots, "sensitivity.svg");
}

/// The list of the report folder's files.
fn md_files(m: &mut String, plots: &[plots::Plot], csvs: &[Csv]) {
    let _ = writeln!(m, "\n## Files\n");
    let _ = writeln!(
        m,
        "- `report.json`: every number of this report (the same as the CSV files)."
    );
    for c in csvs {
        let _ = writeln!(m, "- `{}`: {}.", c.name, c.about);
    }
    for p in plots {
        let _ = writeln!(m, "- `{}`: {}.", p.name, p.title);
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// Every file of the report folder: `report.md`, `report.json`, the CSV
/// files and the SVG plots.
pub fn render(r: &Report) -> Result<Vec<OutputFile>, AnalysisError> {
    let plots = plots::plots(r).map_err(|(name, why)| AnalysisError::Plot { name, why })?;
    let csvs = csv_files(r)?;
    let mut out = vec![
        OutputFile {
            name: "report.md".into(),
            contents: markdown(r, &plots, &csvs),
        },
        OutputFile {
            name: "report.json".into(),
            contents: serde_json::to_string_pretty(r).expect("a report serialises") + "\n",
        },
    ];
    out.extend(csvs.into_iter().map(Csv::into_file));
    out.extend(plots.into_iter().map(|p| OutputFile {
        name: p.name,
        contents: p.svg,
    }));
    Ok(out)
}

/// A short plain-text summary: per variant, soldier count and officers,
/// the results with each side to move, the natural positions' results and
/// the critical mass; then the most sensitive switch.
pub fn summary_text(r: &Report) -> String {
    let mut s = String::new();
    if r.partial {
        s.push_str("PARTIAL TABLES: the numbers cover the tiers present only\n");
    }
    if !r.merged_from.is_empty() {
        let _ = writeln!(
            s,
            "MERGED from {} report folders, no table read: the numbers are theirs",
            r.merged_from.len()
        );
    }
    let row = |s: &mut String, c: [&str; 7]| {
        let _ = writeln!(
            s,
            "{:<14} {:>6} {:<9} {:>20} {:>20} {:>18} {:>14}",
            c[0], c[1], c[2], c[3], c[4], c[5], c[6]
        );
    };
    row(
        &mut s,
        [
            "variant",
            "table",
            "tables",
            "s-to-move W/D/L %",
            "o-to-move W/D/L %",
            "natural W/D/L %",
            "critical mass",
        ],
    );
    let triple = |p: Option<&super::Population>| match p {
        Some(p) => format!(
            "{:.1}/{:.1}/{:.1}",
            p.win_percent, p.draw_percent, p.loss_percent
        ),
        None => "-".into(),
    };
    for v in &r.variants {
        let cm = r
            .critical_mass
            .variants
            .iter()
            .find(|c| c.variant == v.name);
        for k in r.soldiers_min..=r.soldiers_max {
            for n in [2u8, 1] {
                let Some(t) = r.table(&v.name, FileKey::new(n, k)) else {
                    continue;
                };
                let crit = cm
                    .filter(|_| n == 2)
                    .and_then(|c| c.rows.iter().find(|row| row.k == k))
                    .map_or("-".to_string(), |row| match row.plies {
                        Some(p) => format!("{} {p}", row.result),
                        None => row.result.clone(),
                    });
                let name = if v.name.len() > 14 {
                    v.slug.clone()
                } else {
                    v.name.clone()
                };
                row(
                    &mut s,
                    [
                        &name,
                        &FileKey::new(n, k).to_string(),
                        if t.complete { "complete" } else { "partial" },
                        &triple(Some(&t.soldiers_to_move)),
                        &triple(Some(&t.officers_to_move)),
                        &triple(t.natural.as_ref()),
                        &crit,
                    ],
                );
            }
        }
    }
    if let Some(sens) = &r.sensitivity {
        if let Some(top) = &sens.most_sensitive {
            let x = sens.switches.iter().find(|x| &x.switch == top);
            let _ = writeln!(
                s,
                "most sensitive switch: {top} ({:.3} % of compared positions change win/draw/loss)",
                x.map_or(0.0, |x| x.total.wdl_changed_percent)
            );
        } else {
            let _ = writeln!(
                s,
                "rule sensitivity: no pair of variants differing in one switch"
            );
        }
    }
    for p in &r.uncompared {
        let _ = writeln!(
            s,
            "not compared (from different folders): {} vs {} ({})",
            p.a, p.b, p.switch
        );
    }
    s
}

/// A distance cell: the plies, or where none is known `WDL-only` when the
/// tables hold no distances (built `--wdl-only`), `-` otherwise.
fn plies_cell<P: std::fmt::Display>(plies: Option<P>, wdl_only: bool) -> String {
    match plies {
        Some(p) => p.to_string(),
        None if wdl_only => "WDL-only".into(),
        None => "-".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_has_its_header_without_rows_and_quotes_as_csv_does() {
        let none: [PlacementRow; 0] = [];
        let c = Csv::new("p.csv", "", &none).unwrap();
        assert_eq!(
            c.contents,
            "variant,soldiers,officers,result_for_soldiers,plies\n"
        );
        let rows = [PlacementRow {
            variant: "soldiers=closer,capture=huff",
            soldiers: 9,
            officers: "c5,\"d5\"",
            result_for_soldiers: "win",
            plies: None,
        }];
        let c = Csv::new("p.csv", "", &rows).unwrap();
        assert_eq!(
            c.contents,
            "variant,soldiers,officers,result_for_soldiers,plies\n\
             \"soldiers=closer,capture=huff\",9,\"c5,\"\"d5\"\"\",win,\n"
        );
    }
}
