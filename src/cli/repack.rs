//! `asalto repack`: rewrite table files with other block sizes or zstd
//! level, without distances, or in the current format version, through
//! [`asalto_tb::table::repack`]; prints what each file became.

use super::{Soldiers, VARIANT_HELP, progress_bar};
use anyhow::{Result, bail};
use asalto_tb::Variant;
use asalto_tb::index::FileKey;
use asalto_tb::progress::Progress;
use clap::Args;
use std::path::PathBuf;

/// Arguments of `asalto repack`.
#[derive(Args)]
pub struct RepackArgs {
    #[arg(long, short, default_value = "assaut", help = VARIANT_HELP)]
    variant: String,
    /// Folder of the table files to rewrite.
    #[arg(long, default_value = "tables")]
    tables: PathBuf,
    /// Folder to write into (default: --tables, replacing the files).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Only the tables with these soldier counts: K (9..=K) or A..=B.
    /// Default: every table present.
    #[arg(long, short)]
    soldiers: Option<Soldiers>,
    /// Positions per WDL block (a multiple of 4, at most 2^22). Default:
    /// 1048576 (2^20) with --wdl-only, else 16384 (2^14), as a build
    /// writes them.
    #[arg(long)]
    wdl_block: Option<u32>,
    /// Positions per distance block (at most 2^22).
    #[arg(long, default_value_t = asalto_tb::table::WriteOptions::default().distance_block_positions)]
    distance_block: u32,
    /// zstd compression level.
    #[arg(long, default_value_t = asalto_tb::table::WriteOptions::default().zstd_level,
          value_parser = clap::value_parser!(i32).range(1..=22))]
    level: i32,
    /// Drop the distances: write win/draw/loss only (a fraction of the
    /// size). A WDL-only table cannot be repacked with distances.
    #[arg(long)]
    wdl_only: bool,
    /// The order of each tier's positions in the file: `placement`
    /// (officers' placement major, smaller) or `mask` (the index's own
    /// order, as files before format version 4). Default: placement with
    /// --wdl-only, else mask, as a build writes them.
    #[arg(long, value_enum)]
    order: Option<OrderArg>,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
}

/// The values of `--order`.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum OrderArg {
    /// Fortress mask major (the index's own order).
    Mask,
    /// Officers' placement major.
    Placement,
}

/// Run `asalto repack`.
pub fn run(args: RepackArgs) -> Result<()> {
    use asalto_tb::table::{Table, WriteOptions, table_path};
    let variant: Variant = args.variant.parse()?;
    let (lo, hi) = args.soldiers.map_or((9, 24), |s| (s.0, s.1));
    let out = args.out.clone().unwrap_or_else(|| args.tables.clone());
    use asalto_tb::table::Order;
    let kind = if args.wdl_only {
        WriteOptions::wdl_only()
    } else {
        WriteOptions::default()
    };
    let opts = WriteOptions {
        wdl_block_positions: args.wdl_block.unwrap_or(kind.wdl_block_positions),
        distance_block_positions: args.distance_block,
        zstd_level: args.level,
        wdl_only: args.wdl_only,
        order: match args.order {
            None => kind.order,
            Some(OrderArg::Mask) => Order::MaskMajor,
            Some(OrderArg::Placement) => Order::PlacementMajor,
        },
        // Each file keeps its own (`table::repack`).
        floor: None,
    };
    let mut done = Vec::new();
    for k in lo..=hi {
        for n in 1..=2u8 {
            let path = table_path(&args.tables, &variant, FileKey::new(n, k));
            if !path.exists() {
                continue;
            }
            let src = Table::open(&path)?;
            let before = src.info().clone();
            let bar = progress_bar(
                before.positions,
                &format!("repacking {}", FileKey::new(n, k)),
            );
            let t = std::time::Instant::now();
            let after = asalto_tb::table::repack(&src, &out, &opts, &|p: &Progress| {
                bar.set_position(p.done)
            })?;
            bar.finish_and_clear();
            let seconds = t.elapsed().as_secs_f64();
            if !args.json {
                outln!(
                    "{}: {} positions, {} -> {} bytes ({:.3} -> {:.3} bits/position; WDL {:.3} -> {:.3}) in {seconds:.1} s",
                    FileKey::new(n, k),
                    after.positions,
                    before.file_bytes,
                    after.file_bytes,
                    before.bits_per_position(),
                    after.bits_per_position(),
                    before.wdl_bits_per_position(),
                    after.wdl_bits_per_position(),
                );
            }
            done.push(serde_json::json!({
                "file": table_path(&out, &variant, FileKey::new(n, k)).display().to_string(),
                "positions": after.positions,
                "bytes_before": before.file_bytes, "bytes_after": after.file_bytes,
                "wdl_bytes_before": before.wdl_bytes, "wdl_bytes_after": after.wdl_bytes,
                "format_version_before": before.format_version,
                "format_version_after": after.format_version,
                "seconds": seconds,
            }));
        }
    }
    if done.is_empty() {
        bail!(
            "no {variant} tables with {lo}..={hi} soldiers under {}",
            args.tables.display()
        );
    }
    if args.json {
        outln!(
            "{}",
            serde_json::json!({"variant": variant.to_string(), "wdl_block": opts.wdl_block_positions,
                "distance_block": opts.distance_block_positions, "level": opts.zstd_level, "wdl_only": opts.wdl_only, "order": opts.order.to_string(), "files": done})
        );
    }
    Ok(())
}
