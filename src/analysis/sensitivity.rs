//! Rule sensitivity: for two variants that differ in exactly one switch,
//! how many positions change their win / draw / loss.
//!
//! The positions of a tier and their indices depend on the tier alone,
//! never on the variant, so two tables of the same material are compared
//! index by index over the tiers both store. Complete tables store the same
//! tiers whatever the variant (even with another soldier rule, which only
//! changes the solving order), so pairs differing in `soldiers` are
//! compared too; partial tables are compared over the tiers they share.

use super::AnalysisError;
use super::stats::{chunk_len, mirror_weight};
use crate::index::FileKey;
use crate::progress::{Observer, Progress};
use crate::rules::Variant;
use crate::table::{Table, TableSet};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicU64, Ordering};

/// Counts of a comparison of two variants' values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DiffCounts {
    /// Stored positions compared (tiers stored in both tables, both sides
    /// to move).
    pub compared_stored: u64,
    /// Positions compared, mirror images counted.
    pub compared: u64,
    /// Positions (mirror images counted) whose win / draw / loss differs.
    pub wdl_changed: u64,
    /// Positions (mirror images counted) whose value differs, distance
    /// included.
    pub value_changed: u64,
    /// Positions (mirror images counted) better for the soldiers under the
    /// second variant (win / draw / loss seen from the soldiers).
    pub(crate) toward_soldiers: u64,
    /// Positions (mirror images counted) better for the officers under the
    /// second variant.
    pub(crate) toward_officers: u64,
    /// `wdl_changed` in percent of `compared`.
    pub(crate) wdl_changed_percent: f64,
    /// `value_changed` in percent of `compared`.
    pub(crate) value_changed_percent: f64,
}

impl DiffCounts {
    fn add(&mut self, o: &DiffCounts) {
        self.compared_stored += o.compared_stored;
        self.compared += o.compared;
        self.wdl_changed += o.wdl_changed;
        self.value_changed += o.value_changed;
        self.toward_soldiers += o.toward_soldiers;
        self.toward_officers += o.toward_officers;
        self.finish();
    }

    fn finish(&mut self) {
        let p = |x: u64| {
            if self.compared == 0 {
                0.0
            } else {
                100.0 * x as f64 / self.compared as f64
            }
        };
        self.wdl_changed_percent = p(self.wdl_changed);
        self.value_changed_percent = p(self.value_changed);
    }
}

/// The comparison of one pair of tables.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairTable {
    /// Officers.
    pub n: u8,
    /// Soldiers.
    pub k: u8,
    /// Whether both tables are complete.
    pub(crate) complete: bool,
    /// The counts.
    pub counts: DiffCounts,
}

/// Two variants differing in one switch, compared.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pair {
    /// The first variant.
    pub(crate) a: String,
    /// The second variant.
    pub(crate) b: String,
    /// The switch they differ in.
    pub switch: String,
    /// Its setting in `a`.
    pub(crate) a_setting: String,
    /// Its setting in `b`.
    pub(crate) b_setting: String,
    /// Per table (both variants' tables present).
    pub tables: Vec<PairTable>,
    /// All tables together.
    pub total: DiffCounts,
}

/// The pairs differing in one switch, pooled.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct SwitchSummary {
    /// The switch.
    pub(crate) switch: String,
    /// Pairs differing in it.
    pub(crate) pairs: usize,
    /// Their counts added up.
    pub(crate) total: DiffCounts,
}

/// The rule-sensitivity section of a report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sensitivity {
    /// Every pair of reported variants differing in exactly one switch, in
    /// report order.
    pub pairs: Vec<Pair>,
    /// Per switch, pooled over its pairs.
    pub(crate) switches: Vec<SwitchSummary>,
    /// The switch whose pairs change the largest share of win / draw / loss
    /// (pooled), if any pair was compared.
    pub(crate) most_sensitive: Option<String>,
}

/// The switch two variants differ in and its two settings, if they differ
/// in exactly one.
pub(crate) fn differing_switch(a: &Variant, b: &Variant) -> Option<(&'static str, String, String)> {
    let onoff = |x: bool| if x { "on" } else { "off" }.to_string();
    let diffs = [
        (a.soldiers != b.soldiers).then(|| {
            (
                "soldiers",
                a.soldiers.name().to_string(),
                b.soldiers.name().to_string(),
            )
        }),
        (a.capture != b.capture).then(|| {
            (
                "capture",
                a.capture.name().to_string(),
                b.capture.name().to_string(),
            )
        }),
        (a.max != b.max).then(|| ("max", onoff(a.max), onoff(b.max))),
        (a.trapped != b.trapped).then(|| {
            (
                "trapped",
                a.trapped.name().to_string(),
                b.trapped.name().to_string(),
            )
        }),
    ];
    let mut it = diffs.into_iter().flatten();
    let first = it.next()?;
    it.next().is_none().then_some(first)
}

/// Win (1), draw (0) or loss (-1) for the soldiers, from a value code of
/// a position with `soldiers_to_move` or not.
#[inline]
fn for_soldiers(code: u16, soldiers_to_move: bool) -> i8 {
    let w = if code == 0 {
        0
    } else if code & 1 == 1 {
        1
    } else {
        -1
    };
    if soldiers_to_move { w } else { -w }
}

/// Compare the table files `file` of two variants over the tiers both store
/// (in the current rayon pool); `None` if either table is missing.
fn compare_tables(
    a: &TableSet,
    b: &TableSet,
    file: FileKey,
    progress: &dyn Observer,
) -> Result<Option<PairTable>, AnalysisError> {
    let (Some(ta), Some(tb)) = (a.table(file)?, b.table(file)?) else {
        return Ok(None);
    };
    let mut keys = Vec::new();
    for t in ta.tiers_in_stream_order()? {
        if tb.contains(&t)? {
            keys.push(t);
        }
    }
    let total: u64 = keys.iter().map(|t| t.size()).sum();
    let what = format!("{} vs {} {}: comparing", a.variant(), b.variant(), file);
    let done = AtomicU64::new(0);
    progress.progress(&Progress {
        step: &what,
        done: 0,
        total,
        ..Progress::default()
    });
    let missing = |t: &Table, key: &crate::index::TierKey| AnalysisError::Unreadable {
        path: t.path().to_path_buf(),
        outside: key.outside,
    };
    let counts = keys
        .par_chunks(chunk_len(keys.len()))
        .map(|chunk| -> Result<DiffCounts, AnalysisError> {
            let mut c = DiffCounts::default();
            let mut positions = 0;
            for key in chunk {
                let ca = ta.tier(key)?.ok_or_else(|| missing(&ta, key))?;
                let cb = tb.tier(key)?.ok_or_else(|| missing(&tb, key))?;
                let per = key.size_per_side() as usize;
                let (mut wdl, mut value, mut up, mut down) = (0u64, 0u64, 0u64, 0u64);
                for (i, (&x, &y)) in ca.iter().zip(cb.iter()).enumerate() {
                    if x == y {
                        continue;
                    }
                    value += 1;
                    let s = i >= per;
                    let (sx, sy) = (for_soldiers(x, s), for_soldiers(y, s));
                    if sx != sy {
                        wdl += 1;
                        if sy > sx {
                            up += 1;
                        } else {
                            down += 1;
                        }
                    }
                }
                let w = mirror_weight(key);
                c.compared_stored += key.size();
                c.compared += key.size() * w;
                c.wdl_changed += wdl * w;
                c.value_changed += value * w;
                c.toward_soldiers += up * w;
                c.toward_officers += down * w;
                positions += key.size();
            }
            let d = done.fetch_add(positions, Ordering::Relaxed) + positions;
            progress.progress(&Progress {
                step: &what,
                done: d,
                total,
                ..Progress::default()
            });
            Ok(c)
        })
        .try_reduce(DiffCounts::default, |mut x, y| {
            x.add(&y);
            Ok(x)
        })?;
    let mut counts = counts;
    counts.finish();
    let full = super::complete_tiers(file.soldiers());
    let complete = ta.info().tiers == full && tb.info().tiers == full;
    Ok(Some(PairTable {
        n: file.officers(),
        k: file.soldiers(),
        complete,
        counts,
    }))
}

/// Compare every pair of the variants of `sets` that differ in exactly one
/// switch, over `k_min..=k_max` soldiers and both officer counts (in the
/// current rayon pool).
pub(crate) fn sensitivity(
    sets: &[TableSet],
    k_min: u8,
    k_max: u8,
    progress: &dyn Observer,
) -> Result<Sensitivity, AnalysisError> {
    let mut pairs = Vec::new();
    for (i, a) in sets.iter().enumerate() {
        for b in &sets[i + 1..] {
            let Some((switch, a_setting, b_setting)) = differing_switch(a.variant(), b.variant())
            else {
                continue;
            };
            let mut tables = Vec::new();
            let mut total = DiffCounts::default();
            for k in k_min..=k_max {
                for n in 1..=2u8 {
                    if let Some(t) = compare_tables(a, b, FileKey::new(n, k), progress)? {
                        total.add(&t.counts);
                        tables.push(t);
                    }
                }
            }
            total.finish();
            pairs.push(Pair {
                a: a.variant().to_string(),
                b: b.variant().to_string(),
                switch: switch.to_string(),
                a_setting,
                b_setting,
                tables,
                total,
            });
        }
    }
    Ok(summarise(pairs))
}

/// The sensitivity section of `pairs`: each switch pooled over its pairs
/// and the most sensitive one.
pub(crate) fn summarise(pairs: Vec<Pair>) -> Sensitivity {
    let mut switches = Vec::new();
    for switch in ["soldiers", "capture", "max", "trapped"] {
        let mine: Vec<&Pair> = pairs.iter().filter(|p| p.switch == switch).collect();
        if mine.is_empty() {
            continue;
        }
        let mut total = DiffCounts::default();
        for p in &mine {
            total.add(&p.total);
        }
        total.finish();
        switches.push(SwitchSummary {
            switch: switch.to_string(),
            pairs: mine.len(),
            total,
        });
    }
    let most_sensitive = switches
        .iter()
        .filter(|s| s.total.compared > 0)
        .max_by(|x, y| {
            x.total
                .wdl_changed_percent
                .total_cmp(&y.total.wdl_changed_percent)
        })
        .map(|s| s.switch.clone());
    Sensitivity {
        pairs,
        switches,
        most_sensitive,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_switch_pairs() {
        assert_eq!(
            differing_switch(&Variant::ASSAUT, &Variant::ASALTO),
            Some(("max", "on".into(), "off".into()))
        );
        assert_eq!(
            differing_switch(&Variant::ASSAUT, &Variant::ASSAULT),
            Some(("soldiers", "closer".into(), "forward".into()))
        );
        assert_eq!(
            differing_switch(&Variant::ASSAUT, &Variant::ASSAUT_MDJ),
            None
        );
        assert_eq!(differing_switch(&Variant::ASSAUT, &Variant::ASSAUT), None);
        let all = Variant::all();
        let pairs = all
            .iter()
            .enumerate()
            .flat_map(|(i, a)| all[i + 1..].iter().map(move |b| (a, b)))
            .filter(|(a, b)| differing_switch(a, b).is_some())
            .count();
        assert_eq!(pairs, 24 * 5 / 2);
    }

    #[test]
    fn soldiers_view_of_codes() {
        assert_eq!(for_soldiers(0, true), 0);
        assert_eq!(for_soldiers(3, true), 1);
        assert_eq!(for_soldiers(3, false), -1);
        assert_eq!(for_soldiers(4, false), 1);
    }
}
