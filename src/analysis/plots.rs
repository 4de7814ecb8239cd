//! SVG plots of a report, drawn with plotters' SVG backend into strings:
//! stacked win / draw / loss bars per variant and soldier count (one file
//! per population), the critical-mass chart and the rule-sensitivity bars.
//!
//! Bars show results **from the soldiers' side** (soldiers win / draw /
//! officers win), whoever is to move, so that every plot reads the same
//! way; the tables of the report give the side to move's view.

use super::{Population, Report, TableStats};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::error::Error;

/// A drawn plot.
pub(crate) struct Plot {
    /// File name, e.g. `wdl-natural.svg`.
    pub(crate) name: String,
    /// What it shows (used as the alt text).
    pub(crate) title: String,
    /// The SVG document.
    pub(crate) svg: String,
}

/// The populations of positions plotted and tabulated, in report order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pop {
    /// Two officers in the fortress, soldiers to move.
    Natural,
    /// `n` officers, soldiers to move.
    SoldiersToMove(u8),
    /// `n` officers, officers to move.
    OfficersToMove(u8),
}

impl Pop {
    /// Every population, in report order.
    pub(crate) const ALL: [Pop; 5] = [
        Pop::Natural,
        Pop::SoldiersToMove(2),
        Pop::OfficersToMove(2),
        Pop::SoldiersToMove(1),
        Pop::OfficersToMove(1),
    ];

    /// Short name for files and CSV columns.
    pub(crate) fn key(self) -> String {
        match self {
            Pop::Natural => "natural".into(),
            Pop::SoldiersToMove(n) => format!("{n}o-soldiers-to-move"),
            Pop::OfficersToMove(n) => format!("{n}o-officers-to-move"),
        }
    }

    /// Title in words.
    pub(crate) fn title(self) -> String {
        let officers = |n: u8| {
            if n == 1 {
                "one officer"
            } else {
                "two officers"
            }
        };
        match self {
            Pop::Natural => {
                "natural positions (two officers inside the fortress, soldiers to move)".into()
            }
            Pop::SoldiersToMove(n) => format!("{}, soldiers to move", officers(n)),
            Pop::OfficersToMove(n) => format!("{}, officers to move", officers(n)),
        }
    }

    /// Officers of the tables it comes from.
    pub(crate) fn n(self) -> u8 {
        match self {
            Pop::Natural => 2,
            Pop::SoldiersToMove(n) | Pop::OfficersToMove(n) => n,
        }
    }

    /// Whether the soldiers are to move.
    pub(crate) fn soldiers_to_move(self) -> bool {
        !matches!(self, Pop::OfficersToMove(_))
    }

    /// The population's statistics in a table, if the table has it.
    pub(crate) fn of(self, t: &TableStats) -> Option<&Population> {
        if t.n != self.n() {
            return None;
        }
        match self {
            Pop::Natural => t.natural.as_ref(),
            Pop::SoldiersToMove(_) => Some(&t.soldiers_to_move),
            Pop::OfficersToMove(_) => Some(&t.officers_to_move),
        }
    }

    /// Soldiers win, draw, officers win, in percent of positions.
    pub(crate) fn soldiers_view(self, p: &Population) -> [f64; 3] {
        if self.soldiers_to_move() {
            [p.win_percent, p.draw_percent, p.loss_percent]
        } else {
            [p.loss_percent, p.draw_percent, p.win_percent]
        }
    }
}

type Res<T> = Result<T, Box<dyn Error>>;

const FONT: &str = "sans-serif";
const SOLDIERS: RGBColor = RGBColor(60, 120, 190);
const DRAW: RGBColor = RGBColor(185, 185, 185);
const OFFICERS: RGBColor = RGBColor(205, 85, 75);
const OUTCOMES: [(&str, RGBColor); 3] = [
    ("soldiers win", SOLDIERS),
    ("draw", DRAW),
    ("officers win", OFFICERS),
];

/// A colour per variant (or switch).
fn colour(i: usize) -> RGBColor {
    const C: [RGBColor; 8] = [
        RGBColor(31, 119, 180),
        RGBColor(255, 127, 14),
        RGBColor(44, 160, 44),
        RGBColor(214, 39, 40),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
        RGBColor(23, 190, 207),
    ];
    if i < C.len() {
        C[i]
    } else {
        let (r, g, b) = Palette99::pick(i).rgb();
        RGBColor(r, g, b)
    }
}

/// The note under the title of every plot of partial tables, so that a
/// plot passed around alone still says so.
const PARTIAL: &str = "PARTIAL tables: every number covers the tiers present only";

/// The full title of a plot of `report` (its alt text): marked when the
/// tables are partial (or some are missing).
fn titled(report: &Report, title: &str) -> String {
    if report.partial {
        format!("{title} ({PARTIAL})")
    } else {
        title.to_string()
    }
}

/// Height of the head of every plot (see [`header`]).
const HEAD: u32 = 90;

/// The common head of every plot: a white page, the title, on partial
/// tables a second line saying so (in red: a plot passed around alone
/// still says so), and a row of legend boxes, in the top [`HEAD`] pixels.
/// Returns the area below them. Titles are kept to one short line each so
/// that no viewer's font cuts them (callers keep them under ~70 characters
/// for the narrowest plot).
fn header<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    report: &Report,
    title: &str,
    items: &[(String, RGBColor)],
) -> Res<DrawingArea<DB, plotters::coord::Shift>>
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let (top, body) = root.split_vertically(HEAD);
    top.draw(&Text::new(title.to_string(), (12, 8), (FONT, 17)))?;
    if report.partial {
        top.draw(&Text::new(
            PARTIAL.to_string(),
            (12, 30),
            (FONT, 14).into_font().color(&RED),
        ))?;
    }
    let (mut x, y) = (12, 56);
    for (label, c) in items {
        top.draw(&Rectangle::new([(x, y), (x + 14, y + 14)], c.filled()))?;
        top.draw(&Text::new(label.clone(), (x + 20, y), (FONT, 14)))?;
        x += 34 + 8 * label.len() as i32;
    }
    Ok(body)
}

/// The mesh of a bar chart over soldier counts (x) and whole numbers (y):
/// the common fonts, no light lines, no vertical lines, integer y labels.
fn bar_mesh<'m, 'a, 'b, X, DB>(
    m: &'m mut plotters::chart::MeshStyle<'a, 'b, X, plotters::coord::types::RangedCoordf64, DB>,
) -> &'m mut plotters::chart::MeshStyle<'a, 'b, X, plotters::coord::types::RangedCoordf64, DB>
where
    X: Ranged,
    DB: DrawingBackend,
{
    m.label_style((FONT, 13))
        .axis_desc_style((FONT, 13))
        .light_line_style(TRANSPARENT)
        .disable_x_mesh()
        .y_label_formatter(&|v: &f64| format!("{v:.0}"))
}

/// Width of a slot (one bar) on a category axis. Category axes use integer
/// coordinates: plotters formats custom key points on integer axes only.
const SLOT: i32 = 10;

/// Key points at the middle of `n` slots.
fn slots(n: usize) -> Vec<i32> {
    (0..n as i32).map(|i| i * SLOT + SLOT / 2).collect()
}

/// The label of the slot containing `x`.
fn slot_label(labels: &[String], x: i32) -> String {
    if x < 0 {
        return String::new();
    }
    labels.get((x / SLOT) as usize).cloned().unwrap_or_default()
}

/// A facet of stacked bars: its title and, per soldier count, the shares
/// soldiers win / draw / officers win.
type Facet = (String, Vec<(u8, [f64; 3])>);

/// Stacked bars of one population: one facet per variant, one bar per
/// soldier count, and under each facet the same shares on a log scale, so
/// that shares of a hundredth of a percent are as readable as the rest.
fn wdl_plot(report: &Report, pop: Pop) -> Res<Option<Plot>> {
    let facets: Vec<Facet> = report
        .variants
        .iter()
        .map(|v| {
            let bars = report
                .tables
                .iter()
                .filter(|t| t.variant == v.name)
                .filter_map(|t| pop.of(t).map(|p| (t.k, pop.soldiers_view(p))))
                .collect();
            (v.name.clone(), bars)
        })
        .collect();
    if facets.iter().all(|(_, b)| b.is_empty()) {
        return Ok(None);
    }
    let floor = log_floor(
        facets
            .iter()
            .flat_map(|(_, b)| b.iter().flat_map(|(_, s)| *s)),
    );
    let cols = if facets.len() == 1 { 1 } else { 2 };
    let rows = facets.len().div_ceil(cols);
    let (w, h) = (520 * cols as u32, HEAD + 440 * rows as u32);
    let title = format!("Results, {}", pop.title());
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (w, h)).into_drawing_area();
        let items: Vec<(String, RGBColor)> =
            OUTCOMES.iter().map(|(l, c)| (l.to_string(), *c)).collect();
        let body = header(&root, report, &title, &items)?;
        for (area, (name, bars)) in body.split_evenly((rows, cols)).iter().zip(&facets) {
            wdl_facet(area, name, bars, floor)?;
        }
        root.present()?;
    }
    Ok(Some(Plot {
        name: format!("wdl-{}.svg", pop.key()),
        title: titled(report, &title),
        svg,
    }))
}

/// The area a facet of a plot is drawn in.
type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

/// One facet of [`wdl_plot`]: a variant's stacked bars over the soldier
/// counts and, under them, the same shares on a log scale down to `floor`
/// (or a line saying the variant has no table of this population).
fn wdl_facet(area: &Area<'_>, name: &str, bars: &[(u8, [f64; 3])], floor: f64) -> Res<()> {
    if bars.is_empty() {
        let style =
            TextStyle::from((FONT, 14).into_font()).pos(Pos::new(HPos::Center, VPos::Center));
        let (w, h) = area.dim_in_pixel();
        area.draw(&Text::new(
            format!("{}: no table of this population", shorten(name)),
            (w as i32 / 2, h as i32 / 3),
            style,
        ))?;
        return Ok(());
    }
    let (upper, lower) = area.split_vertically(270);
    let labels: Vec<String> = bars.iter().map(|(k, _)| k.to_string()).collect();
    wdl_stacked(&upper, name, bars, &labels)?;
    wdl_log(&lower, bars, &labels, floor)
}

/// The stacked bars of a [`wdl_facet`], each share of 8 % or more
/// labelled.
fn wdl_stacked(area: &Area<'_>, name: &str, bars: &[(u8, [f64; 3])], labels: &[String]) -> Res<()> {
    let n = bars.len().max(1);
    let fmt = |x: &i32| slot_label(labels, *x);
    let mut chart = ChartBuilder::on(area)
        .caption(shorten(name), (FONT, 14))
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d((0..n as i32 * SLOT).with_key_points(slots(n)), 0f64..100f64)?;
    bar_mesh(&mut chart.configure_mesh())
        .x_label_formatter(&fmt)
        .x_desc("soldiers")
        .y_desc("% of positions")
        .draw()?;
    for (i, (_, shares)) in bars.iter().enumerate() {
        let mut y = 0.0;
        for (j, share) in shares.iter().enumerate() {
            let x = i as i32 * SLOT;
            chart.draw_series(std::iter::once(Rectangle::new(
                [(x + 2, y), (x + SLOT - 2, (y + share).min(100.0))],
                OUTCOMES[j].1.filled(),
            )))?;
            if *share >= 8.0 {
                let style = TextStyle::from((FONT, 12).into_font())
                    .pos(Pos::new(HPos::Center, VPos::Center));
                chart.draw_series(std::iter::once(Text::new(
                    format!("{share:.1}"),
                    (x + SLOT / 2, y + share / 2.0),
                    style,
                )))?;
            }
            y += share;
        }
    }
    Ok(())
}

/// The log-scale part of a [`wdl_facet`]: one line per outcome (a share
/// of 0 has no point).
fn wdl_log(area: &Area<'_>, bars: &[(u8, [f64; 3])], labels: &[String], floor: f64) -> Res<()> {
    let n = bars.len().max(1);
    let fmt = |x: &i32| slot_label(labels, *x);
    let mut log = ChartBuilder::on(area)
        .caption("the same shares, log scale", (FONT, 12))
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(60)
        .build_cartesian_2d(
            (0..n as i32 * SLOT).with_key_points(slots(n)),
            (floor..100f64).log_scale(),
        )?;
    let decades = (100f64 / floor).log10().round() as usize;
    log.configure_mesh()
        .label_style((FONT, 12))
        .axis_desc_style((FONT, 12))
        .light_line_style(TRANSPARENT)
        .disable_x_mesh()
        .x_label_formatter(&fmt)
        .y_labels(decades + 1)
        .y_label_formatter(&|v: &f64| percent_label(*v))
        .y_desc("%")
        .draw()?;
    for (j, (_, col)) in OUTCOMES.iter().enumerate() {
        let pts: Vec<(i32, f64)> = bars
            .iter()
            .enumerate()
            .map(|(i, (_, s))| (i as i32 * SLOT + SLOT / 2, s[j]))
            .collect();
        for run in pts.split(|p| p.1 <= 0.0) {
            log.draw_series(LineSeries::new(run.to_vec(), col.stroke_width(2)))?;
        }
        log.draw_series(
            pts.iter()
                .filter(|p| p.1 > 0.0)
                .map(|&p| Circle::new(p, 3, col.filled())),
        )?;
    }
    Ok(())
}

/// The bottom of a log-scale axis of percentages: the power of ten at or
/// below the smallest positive share (at least 1e-4 %, at most 1 %).
fn log_floor(shares: impl Iterator<Item = f64>) -> f64 {
    let min = shares.filter(|s| *s > 0.0).fold(1.0f64, f64::min);
    10f64.powf(min.log10().floor()).max(1e-4)
}

/// A percentage tick of a log axis, without trailing zeros: 0.01, 1, 100.
fn percent_label(v: f64) -> String {
    if v >= 1.0 {
        format!("{v:.0}")
    } else {
        let digits = (-v.log10()).ceil() as usize;
        format!("{v:.digits$}")
    }
}

/// Long switch-list names are cut to their values for captions.
fn shorten(name: &str) -> String {
    if name.contains('=') {
        name.split(',')
            .map(|s| s.split_once('=').map_or(s, |(_, v)| v))
            .collect::<Vec<_>>()
            .join(" ")
    } else {
        name.to_string()
    }
}

/// The critical-mass chart: one panel per variant; per soldier count, a
/// stacked bar of the 36 officer placements the soldiers win against, draw
/// against and lose against, and (right axis) the officers' best distance:
/// the plies to their win against the formation with their best placement,
/// where they win (none where their best is a draw, or from WDL-only
/// tables).
fn critical_plot(report: &Report) -> Res<Option<Plot>> {
    let series: Vec<&super::CriticalMass> = report
        .critical_mass
        .variants
        .iter()
        .filter(|c| !c.rows.is_empty())
        .collect();
    if series.is_empty() {
        return Ok(None);
    }
    let ks = series.iter().flat_map(|c| c.rows.iter().map(|r| r.k));
    let (kmin, kmax) = ks.fold((u8::MAX, 0), |(a, b), k| (a.min(k), b.max(k)));
    let most_plies = series
        .iter()
        .flat_map(|c| c.rows.iter().filter_map(officers_win_plies))
        .max();
    let axes = CriticalAxes {
        kmin,
        kmax,
        plies: most_plies.is_some(),
        ymax2: most_plies.map_or(1.0, |p| p as f64 * 1.15),
    };
    let title = "Critical mass: formations of k soldiers against the 36 placements";
    let cols = if series.len() == 1 { 1 } else { 2 };
    let rows = series.len().div_ceil(cols);
    let (w, h) = (560 * cols as u32, HEAD + 330 * rows as u32);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (w, h)).into_drawing_area();
        let mut items: Vec<(String, RGBColor)> = ["soldiers win", "draw", "officers win"]
            .iter()
            .zip(OUTCOMES)
            .map(|(l, (_, c))| (format!("placements: {l}"), c))
            .collect();
        if axes.plies {
            items.push(("officers' best win, plies (right axis)".into(), BLACK));
        }
        let body = header(&root, report, title, &items)?;
        for (area, c) in body.split_evenly((rows, cols)).iter().zip(&series) {
            critical_panel(area, report, c, &axes)?;
        }
        root.present()?;
    }
    Ok(Some(Plot {
        name: "critical-mass.svg".into(),
        title: titled(report, title),
        svg,
    }))
}

/// The officers' best distance in a critical-mass row: the plies to their
/// win, where they win.
fn officers_win_plies(r: &super::CriticalRow) -> Option<u16> {
    r.plies.filter(|_| r.result == "loss")
}

/// What every panel of the critical-mass chart shares: the soldier counts
/// on the x axis, and whether (and how high) the plies' right axis is.
struct CriticalAxes {
    kmin: u8,
    kmax: u8,
    plies: bool,
    ymax2: f64,
}

/// One variant's panel of [`critical_plot`]: its bars and its line of
/// plies.
fn critical_panel(
    area: &Area<'_>,
    report: &Report,
    c: &super::CriticalMass,
    axes: &CriticalAxes,
) -> Res<()> {
    // Integer axes scaled by SLOT (see `SLOT`).
    let x = (
        axes.kmin as i32 * SLOT - SLOT / 2,
        axes.kmax as i32 * SLOT + SLOT / 2,
    );
    let key_ks: Vec<i32> = (axes.kmin..=axes.kmax).map(|k| k as i32 * SLOT).collect();
    let x_spec = || (x.0..x.1).with_key_points(key_ks.clone());
    let wdl_only = report
        .tables
        .iter()
        .any(|t| t.variant == c.variant && t.n == 2 && t.wdl_only);
    let caption = if wdl_only {
        format!("{} (WDL-only tables: no distances)", shorten(&c.variant))
    } else {
        shorten(&c.variant)
    };
    let mut chart = ChartBuilder::on(area)
        .caption(caption, (FONT, 14))
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .right_y_label_area_size(if axes.plies { 50 } else { 0 })
        .build_cartesian_2d(x_spec(), 0f64..36f64)?
        .set_secondary_coord(x_spec(), 0f64..axes.ymax2);
    bar_mesh(&mut chart.configure_mesh())
        .x_label_formatter(&k_label)
        .x_desc("soldiers k")
        .y_desc("placements (of 36)")
        .draw()?;
    if axes.plies {
        chart
            .configure_secondary_axes()
            .label_style((FONT, 13))
            .axis_desc_style((FONT, 13))
            .y_label_formatter(&|v: &f64| format!("{v:.0}"))
            .y_desc("plies")
            .draw()?;
    }
    for r in &c.rows {
        let (bars, labels) = critical_bar(r, axes.kmax);
        chart.draw_series(bars)?;
        chart.draw_series(labels)?;
    }
    let pts: Vec<Option<(i32, f64)>> = c
        .rows
        .iter()
        .map(|r| officers_win_plies(r).map(|p| (r.k as i32 * SLOT, p as f64)))
        .collect();
    for run in pts.split(|p| p.is_none()) {
        let run: Vec<(i32, f64)> = run.iter().flatten().copied().collect();
        chart.draw_secondary_series(LineSeries::new(run, BLACK.stroke_width(2)))?;
    }
    let style = TextStyle::from((FONT, 11).into_font()).pos(Pos::new(HPos::Center, VPos::Bottom));
    for &(x, p) in pts.iter().flatten() {
        chart.draw_secondary_series(std::iter::once(Circle::new((x, p), 4, BLACK.filled())))?;
        chart.draw_secondary_series(std::iter::once(Text::new(
            format!("{p:.0}"),
            (x, p + axes.ymax2 * 0.03),
            style.clone(),
        )))?;
    }
    Ok(())
}

/// A bar's segments and the numbers written at them.
type BarDrawing = (
    Vec<Rectangle<(i32, f64)>>,
    Vec<Text<'static, (i32, f64), String>>,
);

/// The stacked bar of one critical-mass row (placements the soldiers win
/// against, draw, lose) and the numbers of its segments: inside a segment
/// of [`THIN_SEGMENT`] placements or more; beside a thinner one, in the
/// gap to the next bar (to the one before for the last bar, whose right
/// is the frame or the plies' axis), where it sits on no axis or frame.
fn critical_bar(r: &super::CriticalRow, kmax: u8) -> BarDrawing {
    let x = r.k as i32 * SLOT;
    let (mut bars, mut labels) = (Vec::new(), Vec::new());
    let mut y = 0.0;
    for (count, (_, col)) in [r.soldiers_win, r.draws, r.soldiers_lose]
        .into_iter()
        .zip(OUTCOMES)
    {
        let top = y + count as f64;
        bars.push(Rectangle::new(
            [(x - SLOT / 2 + 2, y), (x + SLOT / 2 - 2, top)],
            col.filled(),
        ));
        if count >= THIN_SEGMENT {
            let style =
                TextStyle::from((FONT, 12).into_font()).pos(Pos::new(HPos::Center, VPos::Center));
            labels.push(Text::new(count.to_string(), (x, (y + top) / 2.0), style));
        } else if count >= 1 {
            let (side, at) = if r.k == kmax {
                (HPos::Right, x - SLOT / 2 + 1)
            } else {
                (HPos::Left, x + SLOT / 2 - 1)
            };
            let style = TextStyle::from((FONT, 11).into_font()).pos(Pos::new(side, VPos::Center));
            labels.push(Text::new(count.to_string(), (at, (y + top) / 2.0), style));
        }
        y = top;
    }
    (bars, labels)
}

/// The fewest placements a segment of a critical-mass bar holds for its
/// number to be written inside it (a placement is about 7 pixels high);
/// a thinner segment has it beside the bar.
const THIN_SEGMENT: u32 = 3;

/// The label of a soldier count on the critical-mass chart's x axis
/// (scaled by [`SLOT`]).
fn k_label(x: &i32) -> String {
    format!("{}", (*x + SLOT / 2).div_euclid(SLOT))
}

/// Horizontal bars: the share of positions whose win / draw / loss changes
/// between two variants differing in one switch.
fn sensitivity_plot(report: &Report) -> Res<Option<Plot>> {
    let Some(s) = &report.sensitivity else {
        return Ok(None);
    };
    let pairs: Vec<&super::Pair> = s.pairs.iter().filter(|p| p.total.compared > 0).collect();
    if pairs.is_empty() {
        return Ok(None);
    }
    let switches = ["soldiers", "capture", "max", "trapped"];
    let np = pairs.len();
    // Top to bottom in report order.
    let labels: Vec<String> = pairs
        .iter()
        .rev()
        .map(|p| format!("{} / {}", shorten(&p.a), shorten(&p.b)))
        .collect();
    let label_px = 40 + 7 * labels.iter().map(|l| l.len()).max().unwrap_or(10) as u32;
    let xmax = pairs
        .iter()
        .map(|p| p.total.wdl_changed_percent)
        .fold(0.0f64, f64::max)
        .max(0.1)
        * 1.15;
    let title = "Rule sensitivity: positions whose win/draw/loss changes with one switch";
    let mut svg = String::new();
    {
        let h = HEAD + 140 + 30 * np as u32;
        let root = SVGBackend::with_string(&mut svg, (label_px + 620, h)).into_drawing_area();
        let items: Vec<(String, RGBColor)> = switches
            .iter()
            .enumerate()
            .filter(|(_, sw)| pairs.iter().any(|p| p.switch == **sw))
            .map(|(i, sw)| (format!("switch {sw}"), colour(i)))
            .collect();
        let body = header(&root, report, title, &items)?;
        let mut chart = ChartBuilder::on(&body)
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(label_px)
            .build_cartesian_2d(0f64..xmax, (0..np as i32 * SLOT).with_key_points(slots(np)))?;
        let fmt = |y: &i32| slot_label(&labels, *y);
        chart
            .configure_mesh()
            .label_style((FONT, 13))
            .axis_desc_style((FONT, 13))
            .light_line_style(TRANSPARENT)
            .disable_y_mesh()
            .y_label_formatter(&fmt)
            .x_desc("% of positions compared whose win/draw/loss differs")
            .draw()?;
        for (j, p) in pairs.iter().rev().enumerate() {
            let i = switches.iter().position(|s| *s == p.switch).unwrap_or(0);
            let y = j as i32 * SLOT;
            chart.draw_series(std::iter::once(Rectangle::new(
                [(0.0, y + 2), (p.total.wdl_changed_percent, y + SLOT - 2)],
                colour(i).filled(),
            )))?;
            let style =
                TextStyle::from((FONT, 12).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
            // Clear of the bar's end (and of the axis, for a bar of 0).
            let gap = xmax * 0.015;
            chart.draw_series(std::iter::once(Text::new(
                format!("{:.3} %", p.total.wdl_changed_percent),
                (p.total.wdl_changed_percent + gap, y + SLOT / 2),
                style,
            )))?;
        }
        root.present()?;
    }
    Ok(Some(Plot {
        name: "sensitivity.svg".into(),
        title: titled(report, title),
        svg,
    }))
}

/// Every plot the report has data for, with the name of the one that
/// failed on error.
pub(crate) fn plots(report: &Report) -> Result<Vec<Plot>, (String, String)> {
    let mut out = Vec::new();
    for pop in Pop::ALL {
        let p =
            wdl_plot(report, pop).map_err(|e| (format!("wdl-{}.svg", pop.key()), e.to_string()))?;
        out.extend(p);
    }
    out.extend(
        critical_plot(report).map_err(|e| ("critical-mass.svg".to_string(), e.to_string()))?,
    );
    out.extend(
        sensitivity_plot(report).map_err(|e| ("sensitivity.svg".to_string(), e.to_string()))?,
    );
    Ok(out)
}
