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

/// The title of a plot of `report`: marked when the tables are partial (or
/// some are missing), so that a plot passed around alone still says so.
fn titled(report: &Report, title: &str) -> String {
    if report.partial {
        format!("{title} (PARTIAL tables: the tiers present only)")
    } else {
        title.to_string()
    }
}

/// The common head of every plot: a white page, the title and a row of
/// legend boxes in the top 80 pixels. Returns the area below them.
fn header<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    title: &str,
    items: &[(String, RGBColor)],
) -> Res<DrawingArea<DB, plotters::coord::Shift>>
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let (top, body) = root.split_vertically(80);
    top.draw(&Text::new(title.to_string(), (12, 10), (FONT, 17)))?;
    let (mut x, y) = (12, 44);
    for (label, c) in items {
        top.draw(&Rectangle::new([(x, y), (x + 14, y + 14)], c.filled()))?;
        top.draw(&Text::new(label.clone(), (x + 20, y), (FONT, 14)))?;
        x += 34 + 8 * label.len() as i32;
    }
    Ok(body)
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
/// soldier count.
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
    let cols = if facets.len() == 1 { 1 } else { 2 };
    let rows = facets.len().div_ceil(cols);
    let (w, h) = (480 * cols as u32, 80 + 280 * rows as u32);
    let title = titled(report, &format!("Results, {}", pop.title()));
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (w, h)).into_drawing_area();
        let items: Vec<(String, RGBColor)> =
            OUTCOMES.iter().map(|(l, c)| (l.to_string(), *c)).collect();
        let body = header(&root, &title, &items)?;
        for (area, (name, bars)) in body.split_evenly((rows, cols)).iter().zip(&facets) {
            let n = bars.len().max(1);
            let labels: Vec<String> = bars.iter().map(|(k, _)| k.to_string()).collect();
            let mut chart = ChartBuilder::on(area)
                .caption(shorten(name), (FONT, 14))
                .margin(10)
                .x_label_area_size(40)
                .y_label_area_size(50)
                .build_cartesian_2d((0..n as i32 * SLOT).with_key_points(slots(n)), 0f64..100f64)?;
            let fmt = |x: &i32| slot_label(&labels, *x);
            chart
                .configure_mesh()
                .label_style((FONT, 13))
                .axis_desc_style((FONT, 13))
                .light_line_style(TRANSPARENT)
                .disable_x_mesh()
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
        }
        root.present()?;
    }
    Ok(Some(Plot {
        name: format!("wdl-{}.svg", pop.key()),
        title,
        svg,
    }))
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

/// The critical-mass chart: the soldiers' result against the officers'
/// best placement, and how many placements the soldiers beat, per soldier
/// count and variant.
fn critical_plot(report: &Report) -> Res<Option<Plot>> {
    let series: Vec<(usize, &super::CriticalMass)> = report
        .critical_mass
        .variants
        .iter()
        .enumerate()
        .filter(|(_, c)| !c.rows.is_empty())
        .collect();
    if series.is_empty() {
        return Ok(None);
    }
    let ks = series.iter().flat_map(|(_, c)| c.rows.iter().map(|r| r.k));
    let (kmin, kmax) = ks.fold((u8::MAX, 0), |(a, b), k| (a.min(k), b.max(k)));
    // Integer axes scaled by SLOT (see `SLOT`).
    let x = (kmin as i32 * SLOT - SLOT / 2, kmax as i32 * SLOT + SLOT / 2);
    let key_ks: Vec<i32> = (kmin..=kmax).map(|k| k as i32 * SLOT).collect();
    let title = &titled(
        report,
        "Critical mass: formations of k soldiers against the officers' best placement",
    );
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 720)).into_drawing_area();
        let items: Vec<(String, RGBColor)> = series
            .iter()
            .map(|(i, c)| (shorten(&c.variant), colour(*i)))
            .collect();
        let body = header(&root, title, &items)?;
        let (upper, lower) = body.split_vertically(310);
        results_panel(&upper, &series, x, &key_ks)?;
        placements_panel(&lower, &series, x, key_ks)?;
        root.present()?;
    }
    Ok(Some(Plot {
        name: "critical-mass.svg".into(),
        title: title.into(),
        svg,
    }))
}

/// How far the line of the `j`th of `count` series is moved, so that lines
/// of equal values are drawn a little apart.
fn spread(j: usize, count: usize) -> i32 {
    j as i32 - (count as i32 - 1) / 2
}

/// The label of a soldier count on the critical-mass chart's x axis
/// (scaled by [`SLOT`]).
fn k_label(x: &i32) -> String {
    format!("{}", (*x + SLOT / 2).div_euclid(SLOT))
}

/// The upper panel of the critical-mass chart: each variant's result for
/// the soldiers against the officers' best placement, per soldier count,
/// on the x range `x` with ticks at `key_ks`.
fn results_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    series: &[(usize, &super::CriticalMass)],
    x: (i32, i32),
    key_ks: &[i32],
) -> Res<()>
where
    DB::ErrorType: 'static,
{
    let mut chart = ChartBuilder::on(area)
        .caption(
            "result for the soldiers (to move) against the officers' best placement",
            (FONT, 14),
        )
        .margin(10)
        .x_label_area_size(35)
        .y_label_area_size(110)
        .build_cartesian_2d(
            (x.0..x.1).with_key_points(key_ks.to_vec()),
            (-15..15).with_key_points(vec![-SLOT, 0, SLOT]),
        )?;
    let rfmt = |y: &i32| {
        match (*y + SLOT / 2).div_euclid(SLOT) {
            1 => "soldiers win",
            0 => "draw",
            _ => "officers win",
        }
        .to_string()
    };
    chart
        .configure_mesh()
        .label_style((FONT, 13))
        .axis_desc_style((FONT, 13))
        .light_line_style(TRANSPARENT)
        .x_label_formatter(&k_label)
        .y_label_formatter(&rfmt)
        .x_desc("soldiers k")
        .draw()?;
    for (j, (i, c)) in series.iter().enumerate() {
        let pts: Vec<(i32, i32)> = c
            .rows
            .iter()
            .map(|r| {
                let y = match r.result.as_str() {
                    "win" => SLOT,
                    "draw" => 0,
                    _ => -SLOT,
                };
                (r.k as i32 * SLOT, y + spread(j, series.len()))
            })
            .collect();
        let col = colour(*i);
        chart.draw_series(LineSeries::new(pts.clone(), col.stroke_width(2)))?;
        chart.draw_series(pts.iter().map(|&p| Circle::new(p, 4, col.filled())))?;
    }
    Ok(())
}

/// The lower panel of the critical-mass chart: how many of the 36 officer
/// placements each variant's soldiers win against, per soldier count, on
/// the x range `x` with ticks at `key_ks`.
fn placements_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    series: &[(usize, &super::CriticalMass)],
    x: (i32, i32),
    key_ks: Vec<i32>,
) -> Res<()>
where
    DB::ErrorType: 'static,
{
    let mut chart = ChartBuilder::on(area)
        .caption(
            "officer placements (of 36) the soldiers win against",
            (FONT, 14),
        )
        .margin(10)
        .x_label_area_size(35)
        .y_label_area_size(110)
        .build_cartesian_2d((x.0..x.1).with_key_points(key_ks), -1f64..37f64)?;
    chart
        .configure_mesh()
        .label_style((FONT, 13))
        .axis_desc_style((FONT, 13))
        .light_line_style(TRANSPARENT)
        .x_label_formatter(&k_label)
        .x_desc("soldiers k")
        .y_desc("placements")
        .draw()?;
    for (j, (i, c)) in series.iter().enumerate() {
        let pts: Vec<(i32, f64)> = c
            .rows
            .iter()
            .map(|r| {
                (
                    r.k as i32 * SLOT,
                    r.soldiers_win as f64 + 0.3 * spread(j, series.len()) as f64,
                )
            })
            .collect();
        let col = colour(*i);
        chart.draw_series(LineSeries::new(pts.clone(), col.stroke_width(2)))?;
        chart.draw_series(pts.iter().map(|&p| Circle::new(p, 4, col.filled())))?;
    }
    Ok(())
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
    let title = &titled(
        report,
        "Rule sensitivity: positions whose win/draw/loss changes with one switch",
    );
    let mut svg = String::new();
    {
        let h = 220 + 30 * np as u32;
        let root = SVGBackend::with_string(&mut svg, (label_px + 620, h)).into_drawing_area();
        let items: Vec<(String, RGBColor)> = switches
            .iter()
            .enumerate()
            .filter(|(_, sw)| pairs.iter().any(|p| p.switch == **sw))
            .map(|(i, sw)| (format!("switch {sw}"), colour(i)))
            .collect();
        let body = header(&root, title, &items)?;
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
            chart.draw_series(std::iter::once(Text::new(
                format!(" {:.3} %", p.total.wdl_changed_percent),
                (p.total.wdl_changed_percent, y + SLOT / 2),
                style,
            )))?;
        }
        root.present()?;
    }
    Ok(Some(Plot {
        name: "sensitivity.svg".into(),
        title: title.into(),
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
