//! One report from several report folders, reading no table (`asalto
//! report --from A --from B ...`): the variants of each folder's
//! report.json side by side, their numbers copied as they are.
//!
//! Tables lost with a machine leave their reports behind; a merge puts
//! sheets whose tables never sat on one disk together into one report (the
//! balance curve of every sheet in one plot). What a merge cannot do is
//! compare two variants position by position (the rule sensitivity needs
//! both tables): pairs a folder compared itself are kept, the pairs
//! across folders are listed as not compared.

use super::sensitivity::{differing_switch, summarise};
use super::{AnalysisError, Report};
use crate::Variant;
use serde::{Deserialize, Serialize};

/// One report folder a merged report was drawn from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MergedSource {
    /// The folder, as given.
    pub(crate) folder: String,
    /// The folder of tables its report read.
    pub(crate) tables_dir: String,
    /// The variants taken from it, in its order.
    pub(crate) variants: Vec<String>,
}

/// A pair of variants of a merged report that differ in one switch but
/// come from different folders, so were not compared.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UncomparedPair {
    /// The first variant (report order).
    pub(crate) a: String,
    /// The second variant.
    pub(crate) b: String,
    /// The switch they differ in.
    pub(crate) switch: String,
}

fn refuse(why: String) -> AnalysisError {
    AnalysisError::Unmergeable(why)
}

impl Report {
    /// The report of every variant of `parts` (each a folder's name and
    /// its report, in the order given), their numbers unchanged: tables,
    /// critical mass and the pairs each folder compared. The parts must
    /// cover the same soldier counts with the same formation rule, and no
    /// variant may come twice.
    pub fn merge(parts: Vec<(String, Report)>) -> Result<Report, AnalysisError> {
        let Some((_, first)) = parts.first() else {
            return Err(refuse("no report folder given".into()));
        };
        let (k_min, k_max) = (first.soldiers_min, first.soldiers_max);
        let rule = first.critical_mass.rule.clone();
        let definitions = first.definitions.clone();
        let mut merged = Report {
            tool_version: env!("CARGO_PKG_VERSION").to_string(),
            tables_dir: String::new(),
            soldiers_min: k_min,
            soldiers_max: k_max,
            variants: Vec::new(),
            partial: false,
            missing_tables: Vec::new(),
            definitions,
            tables: Vec::new(),
            critical_mass: super::CriticalMassSection {
                rule,
                variants: Vec::new(),
            },
            sensitivity: None,
            merged_from: Vec::new(),
            uncompared: Vec::new(),
        };
        let mut pairs = Vec::new();
        let mut dirs: Vec<String> = Vec::new();
        for (folder, r) in parts {
            if (r.soldiers_min, r.soldiers_max) != (k_min, k_max) {
                return Err(refuse(format!(
                    "{folder} reports {}..={} soldiers, the first folder {k_min}..={k_max}",
                    r.soldiers_min, r.soldiers_max
                )));
            }
            if r.critical_mass.rule != merged.critical_mass.rule {
                return Err(refuse(format!(
                    "{folder} chooses its formations by another rule than the first folder"
                )));
            }
            for v in &r.variants {
                if merged.variants.iter().any(|m| m.name == v.name) {
                    return Err(refuse(format!(
                        "the variant {} is in {folder} and in an earlier folder",
                        v.name
                    )));
                }
            }
            // A merged folder merged again lists its own sources.
            if r.merged_from.is_empty() {
                merged.merged_from.push(MergedSource {
                    folder: folder.clone(),
                    tables_dir: r.tables_dir.clone(),
                    variants: r.variants.iter().map(|v| v.name.clone()).collect(),
                });
            } else {
                merged.merged_from.extend(r.merged_from.iter().cloned());
                merged.uncompared.extend(r.uncompared.iter().cloned());
            }
            if !dirs.contains(&r.tables_dir) {
                dirs.push(r.tables_dir.clone());
            }
            merged.partial |= r.partial;
            merged.missing_tables.extend(r.missing_tables);
            merged.tables.extend(r.tables);
            merged
                .critical_mass
                .variants
                .extend(r.critical_mass.variants);
            if let Some(s) = r.sensitivity {
                pairs.extend(s.pairs);
            }
            // Pairs across this folder and the earlier ones: not compared.
            for v in &r.variants {
                for m in &merged.variants {
                    let (Ok(a), Ok(b)) = (m.name.parse::<Variant>(), v.name.parse::<Variant>())
                    else {
                        continue;
                    };
                    if let Some((switch, _, _)) = differing_switch(&a, &b) {
                        merged.uncompared.push(UncomparedPair {
                            a: m.name.clone(),
                            b: v.name.clone(),
                            switch: switch.to_string(),
                        });
                    }
                }
            }
            merged.variants.extend(r.variants);
        }
        merged.tables_dir = dirs.join("; ");
        if !pairs.is_empty() {
            merged.sensitivity = Some(summarise(pairs));
        }
        Ok(merged)
    }

    /// The folders a merged report was drawn from (empty for a report
    /// made from the tables).
    pub fn merged_from(&self) -> &[MergedSource] {
        &self.merged_from
    }
}
