//! What the files above a floor prove of the formations (`asalto report
//! --floor K --formations A..=B`): each formation's 36 placements
//! bracketed by the floor files of one or both assumptions, from the
//! soldiers' side, and the rows of the critical mass they bound.
//!
//! A value of the game above a floor is never reported as a value of the
//! real game: only what it proves ([`crate::solve::Bound`]) is. Under the
//! officers' floor a soldiers' win is real and a draw means "the soldiers
//! at least draw"; under the soldiers' floor an officers' win is real and
//! a draw means "the soldiers at most draw". A placement both floors
//! decide alike (or one decides outright) is *decided*; a row whose
//! officers' best placement is decided is labelled exact, else bound.

use super::critical::{formation, holds_formation, names, placements};
use super::report::Csv;
use super::{AnalysisError, OutputFile};
use crate::position::{Position, Side};
use crate::probe::bracket_of;
use crate::rules::Variant;
use crate::solve::{Bound, Floor, Lookup, range_words};
use crate::table::{TableSet, floors_under};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::path::Path;

/// One placement of the officers against a formation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlacementBound {
    /// The officers' points, e.g. `c6,e6`.
    pub officers: String,
    /// What each floor read proves (in the order of
    /// [`VariantBounds::floors`]), in words.
    pub proved: Vec<String>,
    /// The lowest real result for the soldiers (to move) the floors
    /// leave: -1 officers win, 0 draw, 1 soldiers win.
    pub lower: i8,
    /// The highest.
    pub upper: i8,
    /// The bracket in words: `soldiers win`, `between draw and soldiers win`, ...
    pub bracket: String,
}

/// One formation of `k` soldiers against the 36 placements.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoundRow {
    /// Soldiers.
    pub k: u8,
    /// The formation's points.
    pub formation: String,
    /// Placements the soldiers are proved to win against.
    pub soldiers_win: u32,
    /// Placements proved drawn.
    pub draws: u32,
    /// Placements the officers are proved to win.
    pub officers_win: u32,
    /// Placements where the soldiers at least draw (a win not proved).
    pub at_least_draw: u32,
    /// Placements where the soldiers at most draw (an officers' win not
    /// proved).
    pub at_most_draw: u32,
    /// Placements of which nothing is proved.
    pub open: u32,
    /// Against the officers' best placement (the worst bracket for the
    /// soldiers): its lower end.
    pub best_lower: i8,
    /// Its upper end.
    pub best_upper: i8,
    /// That bracket in words.
    pub vs_best: String,
    /// `exact (decided by the floors)` when the best placement's bracket
    /// is one result, else `bound`.
    pub label: String,
    /// Every placement, in board order.
    pub placements: Vec<PlacementBound>,
}

/// The formations of one variant, as the floor files of one floor prove
/// them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VariantBounds {
    /// The variant.
    pub variant: String,
    /// The floors read, e.g. `k < 21 counted as the officers' win`.
    pub floors: Vec<String>,
    /// One row per soldier count whose formation tier the files hold.
    pub rows: Vec<BoundRow>,
    /// Soldier counts asked for whose formation tier no floor file holds.
    pub missing_k: Vec<u8>,
    /// What the rows prove of the critical mass, in words.
    pub critical_mass: String,
}

/// A floor report: the formations of each variant above one floor.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FloorBounds {
    /// What this report is (`floor bounds`), so that it is never read as
    /// a report of values.
    pub kind: String,
    /// The floor `K`.
    pub floor: u8,
    /// How formations are chosen and what the bounds mean.
    pub rule: String,
    /// One entry per variant.
    pub variants: Vec<VariantBounds>,
}

impl FloorBounds {
    /// The report of `variants` above the floor `floor`.
    pub fn new(floor: u8, variants: Vec<VariantBounds>) -> FloorBounds {
        FloorBounds {
            kind: "floor bounds".to_string(),
            floor,
            rule: format!(
                "{}. Values come from the files above the floor at {floor} only: under the \
                 officers' floor (k < {floor} counted as the officers' win) a soldiers' win is \
                 a real win and a draw means the soldiers at least draw; under the soldiers' \
                 floor an officers' win is real and a draw means the soldiers at most draw",
                super::FORMATION_RULE
            ),
            variants,
        }
    }
}

/// What the floor files of `variant` above the floor `floor` under the
/// tables folder `root` (`floor-K-officers/` and `floor-K-soldiers/`,
/// whichever hold the variant) prove of the formations of
/// `k_min..=k_max` soldiers (those whose tier some floor file holds).
pub fn floor_bounds(
    root: &Path,
    variant: &Variant,
    floor: u8,
    k_min: u8,
    k_max: u8,
) -> Result<VariantBounds, AnalysisError> {
    let floors: Vec<Floor> = floors_under(root, variant)
        .into_iter()
        .filter(|f| f.k() == floor)
        .collect();
    if floors.is_empty() {
        return Err(AnalysisError::NoFloorFiles {
            dir: root.to_path_buf(),
            variant: variant.to_string(),
            floor,
        });
    }
    let sets: Vec<TableSet> = floors
        .iter()
        .map(|&f| TableSet::open_floored(root, variant, Some(f)))
        .collect();
    let variant = *variant;
    let mut rows = Vec::new();
    let mut missing_k = Vec::new();
    for k in k_min.max(floor)..=k_max.min(24) {
        let soldiers = formation(k);
        let mut held = Vec::with_capacity(sets.len());
        for set in &sets {
            held.push(holds_formation(set, k)?);
        }
        if !held.contains(&true) {
            missing_k.push(k);
            continue;
        }
        let mut looks: Vec<Option<Lookup<'_>>> = sets
            .iter()
            .zip(&held)
            .map(|(s, &h)| h.then(|| Lookup::new(s, variant)))
            .collect();
        let mut values = Vec::with_capacity(36);
        for officers in placements() {
            let pos = Position::from_parts_unchecked(soldiers, officers, Side::Soldiers, 0);
            let mut bounds = Vec::with_capacity(sets.len());
            for (look, floor) in looks.iter_mut().zip(&floors) {
                bounds.push(match look {
                    Some(look) => Some(floor.bound(Side::Soldiers, look.value(&pos)?)),
                    None => None,
                });
            }
            values.push(placement(names(officers, ","), &bounds));
        }
        rows.push(row(k, names(soldiers, " "), values));
    }
    Ok(VariantBounds {
        variant: variant.to_string(),
        floors: floors.iter().map(ToString::to_string).collect(),
        critical_mass: critical_words(&rows),
        rows,
        missing_k,
    })
}

/// One placement from what each floor proves (`None`: the floor's files
/// lack the tier).
fn placement(officers: String, bounds: &[Option<Bound>]) -> PlacementBound {
    let (lower, upper) = bracket_of(bounds.iter().flatten().copied());
    PlacementBound {
        officers,
        proved: bounds
            .iter()
            .map(|b| {
                b.map_or("not in this floor's files", Bound::words)
                    .to_string()
            })
            .collect(),
        lower,
        upper,
        bracket: range_words(lower, upper),
    }
}

/// A formation's row from its 36 placements.
fn row(k: u8, formation: String, placements: Vec<PlacementBound>) -> BoundRow {
    let count = |l: i8, u: i8| {
        placements
            .iter()
            .filter(|p| (p.lower, p.upper) == (l, u))
            .count() as u32
    };
    let best_lower = placements.iter().map(|p| p.lower).min().unwrap_or(-1);
    let best_upper = placements.iter().map(|p| p.upper).min().unwrap_or(1);
    BoundRow {
        k,
        formation,
        soldiers_win: count(1, 1),
        draws: count(0, 0),
        officers_win: count(-1, -1),
        at_least_draw: count(0, 1),
        at_most_draw: count(-1, 0),
        open: count(-1, 1),
        best_lower,
        best_upper,
        vs_best: range_words(best_lower, best_upper),
        label: if best_lower == best_upper {
            "exact (decided by the floors)"
        } else {
            "bound"
        }
        .to_string(),
        placements,
    }
}

/// What `rows` prove of the critical mass: the soldier counts at which
/// the soldiers are proved to win against every placement, and against
/// at least one.
fn critical_words(rows: &[BoundRow]) -> String {
    let list = |f: &dyn Fn(&BoundRow) -> bool| {
        let ks: Vec<String> = rows
            .iter()
            .filter(|r| f(r))
            .map(|r| r.k.to_string())
            .collect();
        if ks.is_empty() {
            "none of these rows".to_string()
        } else {
            format!("k = {}", ks.join(", "))
        }
    };
    format!(
        "soldiers' win proved against every placement at {}; against at least one at {}",
        list(&|r| r.best_lower == 1),
        list(&|r| r.soldiers_win > 0)
    )
}

/// The files of a floor report's folder: `bounds.md`, `bounds.json` (the
/// [`FloorBounds`] itself), `formation_bounds.csv` (a row per variant and
/// formation) and `placement_bounds.csv` (a row per placement).
pub fn render_bounds(b: &FloorBounds) -> Result<Vec<OutputFile>, AnalysisError> {
    let mut formations = Vec::new();
    let mut placements = Vec::new();
    for v in &b.variants {
        for r in &v.rows {
            formations.push(FormationCsv {
                variant: &v.variant,
                k: r.k,
                formation: &r.formation,
                soldiers_win: r.soldiers_win,
                draws: r.draws,
                officers_win: r.officers_win,
                at_least_draw: r.at_least_draw,
                at_most_draw: r.at_most_draw,
                open: r.open,
                best_lower: r.best_lower,
                best_upper: r.best_upper,
                vs_best: &r.vs_best,
                label: &r.label,
            });
            for p in &r.placements {
                placements.push(PlacementCsv {
                    variant: &v.variant,
                    k: r.k,
                    officers: &p.officers,
                    lower: p.lower,
                    upper: p.upper,
                    bracket: &p.bracket,
                    proved: p.proved.join("; "),
                });
            }
        }
    }
    let csvs = [
        Csv::new(
            "formation_bounds.csv",
            "each variant and formation: the placements by what the floors prove, and the bracket against the officers' best placement",
            &formations,
        )?,
        Csv::new(
            "placement_bounds.csv",
            "each placement: its bracket (lower, upper: -1 officers win, 0 draw, 1 soldiers win) and what each floor proves",
            &placements,
        )?,
    ];
    let mut out = vec![
        OutputFile {
            name: "bounds.md".into(),
            contents: bounds_markdown(b, &csvs),
        },
        OutputFile {
            name: "bounds.json".into(),
            contents: serde_json::to_string_pretty(b).expect("bounds serialise") + "\n",
        },
    ];
    out.extend(csvs.into_iter().map(Csv::into_file));
    Ok(out)
}

/// A row of `formation_bounds.csv`.
#[derive(Serialize, Default)]
struct FormationCsv<'a> {
    variant: &'a str,
    k: u8,
    formation: &'a str,
    soldiers_win: u32,
    draws: u32,
    officers_win: u32,
    at_least_draw: u32,
    at_most_draw: u32,
    open: u32,
    best_lower: i8,
    best_upper: i8,
    vs_best: &'a str,
    label: &'a str,
}

/// A row of `placement_bounds.csv`.
#[derive(Serialize, Default)]
struct PlacementCsv<'a> {
    variant: &'a str,
    k: u8,
    officers: &'a str,
    lower: i8,
    upper: i8,
    bracket: &'a str,
    proved: String,
}

/// `bounds.md`: per variant, a row per formation.
fn bounds_markdown(b: &FloorBounds, csvs: &[Csv]) -> String {
    let mut s = format!(
        "# The formations above the floor at {}: bounds, not values\n\n{}.\n\n",
        b.floor, b.rule
    );
    for v in &b.variants {
        let _ = writeln!(
            s,
            "## {}\n\nFloors read: {}.\n",
            v.variant,
            v.floors.join("; ")
        );
        let _ = writeln!(s, "Critical mass: {}.\n", v.critical_mass);
        s.push_str("| k | win / draw / lose (proved) | at least draw / at most draw / open | vs the best placement | label |\n|---:|---|---|---|---|\n");
        for r in &v.rows {
            let _ = writeln!(
                s,
                "| {} | {} / {} / {} | {} / {} / {} | {} | {} |",
                r.k,
                r.soldiers_win,
                r.draws,
                r.officers_win,
                r.at_least_draw,
                r.at_most_draw,
                r.open,
                r.vs_best,
                r.label
            );
        }
        if !v.missing_k.is_empty() {
            let ks: Vec<String> = v.missing_k.iter().map(u8::to_string).collect();
            let _ = writeln!(
                s,
                "\nNo floor file holds the formation of k = {}.",
                ks.join(", ")
            );
        }
        s.push('\n');
    }
    s.push_str("## Files\n\n");
    for c in csvs {
        let _ = writeln!(s, "* `{}`: {}", c.name, c.about);
    }
    s.push_str("* `bounds.json`: all of the above, with each placement's bracket\n");
    s
}
