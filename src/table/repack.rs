//! Rewriting a table file with other block sizes, another zstd level or in
//! the current format version, without solving anything: its tiers are read
//! back and written again in the same stream order, so the values are the
//! same bit for bit.

use super::{Problem, Table, TableError, TableInfo, TableWriter, WriteOptions};
use crate::progress::{Observer, Progress, Throttle};
use std::path::Path;

/// Write `src`'s tiers again under `dir` (at its usual name there) with
/// `opts`; `progress` is told the positions written so far after each
/// tier (of the table's positions). `dir` may be the folder of `src`: the new file is written under a
/// temporary name and renamed over the old one when complete (`src` keeps
/// reading the old file until it is dropped).
pub fn repack(
    src: &Table,
    dir: &Path,
    opts: &WriteOptions,
    progress: &dyn Observer,
) -> Result<TableInfo, TableError> {
    let info = src.info();
    if info.wdl_only && !opts.wdl_only {
        return Err(TableError::new(
            src.path(),
            Problem::CannotWrite(
                "a WDL-only table has no distances to write (repack it --wdl-only, or rebuild it)"
                    .into(),
            ),
        ));
    }
    // A floor file stays a floor file of the same floor.
    let opts = &WriteOptions {
        floor: info.floor,
        ..*opts
    };
    let mut w = TableWriter::create_with(dir, &info.variant, info.file(), opts)?;
    let throttle = Throttle::default();
    for key in src.tiers_in_stream_order()? {
        // A key from the table's own directory: not found, the directory
        // is out of order (a faulty file).
        let codes = src.tier(&key)?.ok_or_else(|| {
            TableError::new(
                src.path(),
                Problem::BadHeader(format!(
                    "tier {:#x} is listed but not found (directory out of order)",
                    key.outside
                )),
            )
        })?;
        w.push_tier(&key, &codes)?;
        throttle.report(
            progress,
            &Progress {
                done: w.positions(),
                total: info.positions,
                ..Progress::default()
            },
        );
    }
    w.finish()
}
