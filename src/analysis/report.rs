//! Rendering a [`Report`] into the files of a report folder, as strings:
//! `report.md` (tables, with the SVG plots embedded by relative links),
//! `report.json` (the [`Report`] itself), one CSV file per table of
//! numbers, and the SVG plots. Also the short text summary the command
//! prints.

use super::plots::{self, Pop};
use super::{AnalysisError, Report, TableStats};
use std::fmt::Write as _;

/// A file of a report folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputFile {
    /// The file name (no folder).
    pub name: String,
    /// Its contents.
    pub contents: String,
}

/// One CSV file: its name, what it holds, its header and rows.
struct Csv {
    name: &'static str,
    about: &'static str,
    header: Vec<&'static str>,
    rows: Vec<Vec<String>>,
}

impl Csv {
    fn new(name: &'static str, about: &'static str, header: &[&'static str]) -> Csv {
        Csv {
            name,
            about,
            header: header.to_vec(),
            rows: Vec::new(),
        }
    }

    fn render(&self) -> String {
        let mut s = String::new();
        let line = |fields: Vec<String>| {
            fields
                .into_iter()
                .map(|f| {
                    if f.contains([',', '"', '\n']) {
                        format!("\"{}\"", f.replace('"', "\"\""))
                    } else {
                        f
                    }
                })
                .collect::<Vec<_>>()
                .join(",")
        };
        s.push_str(&line(self.header.iter().map(|h| h.to_string()).collect()));
        s.push('\n');
        for r in &self.rows {
            s.push_str(&line(r.clone()));
            s.push('\n');
        }
        s
    }
}

fn pct(x: f64) -> String {
    format!("{x:.4}")
}

fn side_name(pop: Pop) -> &'static str {
    if pop.soldiers_to_move() {
        "soldiers"
    } else {
        "officers"
    }
}

/// The CSV files of a report.
fn csv_files(r: &Report) -> Vec<Csv> {
    let mut tables = Csv::new(
        "tables.csv",
        "the table files read: tiers and positions stored, and what a complete table stores",
        &[
            "variant",
            "officers",
            "soldiers",
            "complete",
            "tiers",
            "tiers_complete",
            "positions_stored",
            "positions_complete",
            "file",
        ],
    );
    for t in &r.tables {
        tables.rows.push(vec![
            t.variant.clone(),
            t.n.to_string(),
            t.k.to_string(),
            t.complete.to_string(),
            t.tiers.to_string(),
            t.tiers_complete.to_string(),
            t.positions_stored.to_string(),
            t.positions_complete.to_string(),
            t.file.clone(),
        ]);
    }

    let mut wdl = Csv::new(
        "wdl.csv",
        "win / draw / loss for the side to move per variant, soldiers and population; stored_* count positions stored (after the mirror), positions_* count mirror images too; percentages are of positions_*; soldiers_win_percent and officers_win_percent give the same from the soldiers' side",
        &[
            "variant",
            "officers",
            "soldiers",
            "population",
            "side_to_move",
            "complete",
            "stored_win",
            "stored_draw",
            "stored_loss",
            "positions_win",
            "positions_draw",
            "positions_loss",
            "win_percent",
            "draw_percent",
            "loss_percent",
            "soldiers_win_percent",
            "officers_win_percent",
        ],
    );
    let mut longest = Csv::new(
        "longest.csv",
        "the longest win and the longest loss of the side to move (plies) per variant, soldiers and population, each with a position reaching it",
        &[
            "variant",
            "officers",
            "soldiers",
            "population",
            "side_to_move",
            "longest_win_plies",
            "longest_win_position",
            "longest_loss_plies",
            "longest_loss_position",
        ],
    );
    for pop in Pop::ALL {
        for t in &r.tables {
            let Some(p) = pop.of(t) else { continue };
            let view = pop.soldiers_view(p);
            wdl.rows.push(vec![
                t.variant.clone(),
                t.n.to_string(),
                t.k.to_string(),
                pop.key(),
                side_name(pop).into(),
                t.complete.to_string(),
                p.stored.win.to_string(),
                p.stored.draw.to_string(),
                p.stored.loss.to_string(),
                p.positions.win.to_string(),
                p.positions.draw.to_string(),
                p.positions.loss.to_string(),
                pct(p.win_percent),
                pct(p.draw_percent),
                pct(p.loss_percent),
                pct(view[0]),
                pct(view[2]),
            ]);
            let ex = |e: &Option<super::Example>| match e {
                Some(e) => (e.plies.to_string(), e.position.clone()),
                None => (String::new(), String::new()),
            };
            let (wp, wpos) = ex(&p.longest_win);
            let (lp, lpos) = ex(&p.longest_loss);
            longest.rows.push(vec![
                t.variant.clone(),
                t.n.to_string(),
                t.k.to_string(),
                pop.key(),
                side_name(pop).into(),
                wp,
                wpos,
                lp,
                lpos,
            ]);
        }
    }

    let mut cm = Csv::new(
        "critical_mass.csv",
        "critical mass: per variant and soldier count, the formation's value for the soldiers (to move) against the officers' best placement",
        &[
            "variant",
            "soldiers",
            "formation",
            "result_for_soldiers",
            "plies",
            "best_placement",
            "best_placements",
            "soldiers_win_placements",
            "draw_placements",
            "soldiers_lose_placements",
            "longest_soldiers_win_plies",
            "longest_officers_win_plies",
            "position",
        ],
    );
    let mut cmp = Csv::new(
        "critical_mass_placements.csv",
        "critical mass: the value of every officer placement against every formation, for the soldiers (to move)",
        &[
            "variant",
            "soldiers",
            "officers",
            "result_for_soldiers",
            "plies",
        ],
    );
    for c in &r.critical_mass.variants {
        for row in &c.rows {
            cm.rows.push(vec![
                c.variant.clone(),
                row.k.to_string(),
                row.formation.clone(),
                row.result.clone(),
                row.plies.map_or(String::new(), |p| p.to_string()),
                row.best_placement.clone(),
                row.best_placements.join(" "),
                row.soldiers_win.to_string(),
                row.draws.to_string(),
                row.soldiers_lose.to_string(),
                row.longest_soldiers_win
                    .map_or(String::new(), |p| p.to_string()),
                row.longest_officers_win
                    .map_or(String::new(), |p| p.to_string()),
                row.position.clone(),
            ]);
            for p in &row.placements {
                cmp.rows.push(vec![
                    c.variant.clone(),
                    row.k.to_string(),
                    p.officers.clone(),
                    p.result.clone(),
                    p.plies.map_or(String::new(), |p| p.to_string()),
                ]);
            }
        }
    }

    let mut out = vec![tables, wdl, longest, cm, cmp];
    if let Some(s) = &r.sensitivity {
        let head = [
            "compared_stored",
            "compared",
            "wdl_changed",
            "value_changed",
            "toward_soldiers",
            "toward_officers",
            "wdl_changed_percent",
            "value_changed_percent",
        ];
        let counts = |c: &super::DiffCounts| {
            vec![
                c.compared_stored.to_string(),
                c.compared.to_string(),
                c.wdl_changed.to_string(),
                c.value_changed.to_string(),
                c.toward_soldiers.to_string(),
                c.toward_officers.to_string(),
                pct(c.wdl_changed_percent),
                pct(c.value_changed_percent),
            ]
        };
        let mut h = vec![
            "variant_a",
            "variant_b",
            "switch",
            "a_setting",
            "b_setting",
            "officers",
            "soldiers",
            "complete",
        ];
        h.extend(head);
        let mut sens = Csv::new(
            "sensitivity.csv",
            "rule sensitivity: per pair of variants differing in one switch and per table (officers and soldiers 'all' = every table together), positions compared and changed (mirror images counted except compared_stored)",
            &h,
        );
        for p in &s.pairs {
            let base = |n: String, k: String, complete: String| {
                vec![
                    p.a.clone(),
                    p.b.clone(),
                    p.switch.clone(),
                    p.a_setting.clone(),
                    p.b_setting.clone(),
                    n,
                    k,
                    complete,
                ]
            };
            for t in &p.tables {
                let mut row = base(t.n.to_string(), t.k.to_string(), t.complete.to_string());
                row.extend(counts(&t.counts));
                sens.rows.push(row);
            }
            let complete = p.tables.iter().all(|t| t.complete) && !p.tables.is_empty();
            let mut row = base("all".into(), "all".into(), complete.to_string());
            row.extend(counts(&p.total));
            sens.rows.push(row);
        }
        let mut h = vec!["switch", "pairs"];
        h.extend(head);
        let mut sw = Csv::new(
            "sensitivity_switches.csv",
            "rule sensitivity per switch, pooled over the pairs differing in it",
            &h,
        );
        for x in &s.switches {
            let mut row = vec![x.switch.clone(), x.pairs.to_string()];
            row.extend(counts(&x.total));
            sw.rows.push(row);
        }
        out.push(sens);
        out.push(sw);
    }
    out
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
    let plot = |m: &mut String, name: &str| {
        if let Some(p) = plots.iter().find(|p| p.name == name) {
            let _ = writeln!(m, "\n![{}]({})\n", p.title, p.name);
        }
    };
    let _ = writeln!(m, "# Asalto variant-balance report\n");
    let _ = writeln!(
        m,
        "Made by asalto-tb {} from the tables under `{}`, {}..={} soldiers, one and two officers. \
         Every number is read from the table files.\n",
        r.tool_version, r.tables_dir, r.soldiers_min, r.soldiers_max
    );
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
        let _ = writeln!(
            m,
            "\n> **Partial tables.** Some tables hold only part of their tiers (built with \
             `asalto build --for`) or are missing, so every number below covers the tiers \
             present only and is **not** a statement about the whole game."
        );
        for t in r.tables.iter().filter(|t| !t.complete) {
            let _ = writeln!(
                m,
                "> - {} {}o{}s: {} of {} tiers, {} of {} stored positions",
                cell(&t.variant),
                t.n,
                t.k,
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
    let _ = writeln!(m, "\n## How to read the numbers\n");
    for d in &r.definitions {
        let _ = writeln!(m, "- **{}**: {}.", d.term, d.meaning);
    }

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
        plot(&mut m, &format!("wdl-{}.svg", pop.key()));
    }

    let _ = writeln!(m, "\n## 2. Longest forced wins\n");
    let _ = writeln!(
        m,
        "The longest win of the side to move, in plies, over every stored position of a table, \
         with a position reaching it (the first in tier and index order). A longest loss of one \
         side to move is the other side's longest win counted from the loser's turn.\n"
    );
    let _ = writeln!(
        m,
        "| variant | soldiers | officers | side to move | longest win | example | longest loss | example |\n|---|---:|---:|---|---:|---|---:|---|"
    );
    for t in &r.tables {
        for pop in [Pop::SoldiersToMove(t.n), Pop::OfficersToMove(t.n)] {
            let Some(p) = pop.of(t) else { continue };
            let ex = |e: &Option<super::Example>| match e {
                Some(e) => (e.plies.to_string(), format!("`{}`", e.position)),
                None => ("-".into(), "-".into()),
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

    let _ = writeln!(m, "\n## 3. Critical mass and the balance curve\n");
    let _ = writeln!(m, "Rule: {}.\n", r.critical_mass.rule);
    let computed: Vec<&super::CriticalMass> = r
        .critical_mass
        .variants
        .iter()
        .filter(|c| !c.rows.is_empty())
        .collect();
    if !computed.is_empty() {
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
        for c in &computed {
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
    for c in &r.critical_mass.variants {
        let _ = writeln!(m, "### {}\n", c.variant);
        if c.rows.is_empty() {
            let _ = writeln!(
                m,
                "No formation tier is in the tables for k = {}..={}.\n",
                r.soldiers_min, r.soldiers_max
            );
            continue;
        }
        let _ = writeln!(
            m,
            "| k | formation | result for the soldiers | officers' best placement | placements won / drawn / lost by the soldiers | longest win: soldiers / officers (plies) | position |\n|---:|---|---|---|---|---|---|"
        );
        let plies = |p: Option<u16>| p.map_or("-".to_string(), |p| p.to_string());
        for row in &c.rows {
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
    plot(&mut m, "critical-mass.svg");

    let _ = writeln!(m, "\n## 4. Rule sensitivity\n");
    match &r.sensitivity {
        None => {
            let _ = writeln!(m, "One variant only: nothing to compare.");
        }
        Some(s) if s.pairs.is_empty() => {
            let _ = writeln!(
                m,
                "No two of the variants reported differ in exactly one switch: nothing to compare."
            );
        }
        Some(s) => {
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
            plot(&mut m, "sensitivity.svg");
        }
    }

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
    m
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
    let csvs = csv_files(r);
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
    out.extend(csvs.iter().map(|c| OutputFile {
        name: c.name.into(),
        contents: c.render(),
    }));
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
                let Some(t) = r.table(&v.name, n, k) else {
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
                        &format!("{n}o{k}s"),
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
    s
}
