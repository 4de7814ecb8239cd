//! `asalto bench`: measures the figures of the speed issue and records them
//! with their provenance (command, machine, version, raw numbers) in
//! `scripts/bench-runs/<date>-<host>/bench.json`.

use anyhow::{Context, Result, bail};
use asalto_tb::budget::MemoryBudget;
use asalto_tb::build::{self, Quiet};
use asalto_tb::index::FileKey;
use asalto_tb::index::{self, TierKey};
use asalto_tb::solve::{LevelSample, Lookup, Solver, Stats, median};
use asalto_tb::table::{Table, TableSet, table_path};
use asalto_tb::{Position, Variant, verify};
use clap::Args;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Instant;

/// The closure solved in memory to measure the solving rate: two officers,
/// ten soldiers, about 13.5 million positions.
const RATE_POSITION: &str = "S1S/3/OSS1S1O/2SSS2/3S3/1S1/3 s";

/// Arguments of `asalto bench`.
#[derive(Args)]
pub struct BenchArgs {
    #[arg(long, short, default_value = "assaut", help = super::VARIANT_HELP)]
    variant: String,
    /// Folder of built tables to measure size and probe speed on (the
    /// tables of the variant up to 9 soldiers; see --build-to).
    #[arg(long, default_value = "tables")]
    tables: PathBuf,
    /// Also time a complete build of every table up to this many soldiers
    /// (9..=24) into a fresh folder, target/bench-tables under the current
    /// folder (9 takes tens of minutes here), then the same WDL-only by
    /// the bit-set solver into target/bench-tables-wdl (removed after;
    /// `wdl_build_rate`).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u8).range(9..=24))]
    build_to: Option<u8>,
    /// Instead of --build-to, take the build figures (seconds_to_K and the
    /// peaks of each soldier count) from the JSON summaries of the runs of
    /// one complete build (`asalto build --soldiers 9..=K --json`, stopped
    /// with --stop-after or killed and run again): each file's time is
    /// `seconds + earlier_seconds` of the run that finished it. For builds
    /// longer than one sitting. Repeat the option for each run's summary.
    #[arg(long, value_name = "FILE", conflicts_with = "build_to")]
    build_summary: Vec<PathBuf>,
    /// Position whose closure is solved in memory for the rate.
    #[arg(long, default_value = RATE_POSITION, allow_hyphen_values = true)]
    rate_position: String,
    /// Random probes for the probe timing.
    #[arg(long, default_value_t = 20_000)]
    probes: usize,
    /// Runs of the rate solve per thread count, of the verification of
    /// the same closure's tables (with distances, then WDL-only, one
    /// thread), and of the bit-set solver and the set checker on each
    /// level sample (in turn); the median of each is reported.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=100))]
    rate_runs: u32,
    /// Memory budget of the --build-to build (as `asalto build --memory`;
    /// default: the build's default, 60% of the machine's memory).
    #[arg(long, value_name = "SIZE", value_parser = super::parse_budget, allow_hyphen_values = true)]
    memory: Option<MemoryBudget>,
    /// Soldier counts of the level samples, comma-separated (each 9..=24),
    /// or `none`: at each, a sample of the two-officer file's tiers solved
    /// and checked (WDL-only) on one thread against a synthetic store
    /// standing in for every other tier (`asalto_tb::solve::level_sample`):
    /// the solving and verify rates per soldier count, at counts no bench
    /// could build.
    #[arg(long, default_value = "9,12,15,18,21", value_parser = parse_levels)]
    levels: Levels,
    /// Positions in each level sample (both sides to move).
    #[arg(long, default_value_t = 10_000_000, value_parser = clap::value_parser!(u64).range(1_000..=10_000_000_000))]
    level_positions: u64,
    /// Measure the level samples only, print their figures and write no
    /// record (a bench record holds every figure, from a whole run).
    #[arg(long)]
    levels_only: bool,
    /// Folder for the results (a subfolder DATE-HOST is made, or
    /// DATE-HOST-2, -3, ... for later runs of the day). Default:
    /// scripts/bench-runs when run from a checkout of asalto-tb (that folder
    /// exists here), else TABLES/bench-runs. The path written is printed.
    #[arg(long)]
    out: Option<PathBuf>,
}

fn machine() -> serde_json::Value {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into());
    let mem = asalto_tb::budget::total_memory_bytes();
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|_| "unknown".into());
    json!({
        "cores": std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
        "memory_bytes": mem,
        "cpu": cpu,
        "host": host,
        "os": std::env::consts::OS,
        "arch": std::env::consts::ARCH,
    })
}

fn solve_rate(variant: &Variant, pos: &Position, threads: usize) -> Result<Stats> {
    let solution = Solver::new(*variant).threads(threads).solve_closure(pos)?;
    Ok(*solution.stats())
}

/// Drop a file's pages from the page cache (`posix_fadvise` DONTNEED after
/// a sync), so that the next open reads it from disk.
fn evict(path: &std::path::Path) -> Result<()> {
    use std::os::fd::AsRawFd;
    let f = std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    f.sync_all().ok();
    // SAFETY: a valid open descriptor; offset 0 and length 0 mean the whole file.
    let r = unsafe { libc::posix_fadvise(f.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) };
    if r != 0 {
        bail!(
            "cannot drop {} from the page cache (error {r})",
            path.display()
        );
    }
    Ok(())
}

/// Where the results go: `--out`, else the checkout's scripts/bench-runs,
/// else `<tables>/bench-runs`.
fn out_dir(out: Option<&std::path::Path>, tables: &std::path::Path) -> PathBuf {
    match out {
        Some(p) => p.to_path_buf(),
        None if std::path::Path::new("scripts/bench-runs").is_dir() => {
            PathBuf::from("scripts/bench-runs")
        }
        None => tables.join("bench-runs"),
    }
}

/// Run the benchmark.
pub fn run(args: BenchArgs) -> Result<()> {
    let variant: Variant = args.variant.parse()?;
    if args.levels_only {
        let runs = args.rate_runs as usize;
        let levels = measure_levels(&variant, &args.levels, args.level_positions, runs)?;
        print_levels(&levels);
        return Ok(());
    }
    let command: Vec<String> = std::env::args().collect();
    let pos = Position::from_arg(&args.rate_position).context("bad --rate-position")?;
    // Inputs are checked before any work: the summaries are read here
    // once (and again, cheaply, where their figures are used).
    if args.build_to.is_none() && !args.build_summary.is_empty() {
        from_summaries(&args.build_summary, &variant)?;
    }
    check_out(&out_dir(args.out.as_deref(), &args.tables))?;
    // Said before the long work, not found missing in the record after it.
    let provenance = checkout();
    match &provenance {
        None => errln!(
            "warning: not run in a git checkout: the record will name no commit (run the bench from the checkout its binary was built from)"
        ),
        Some((commit, false)) => errln!(
            "warning: the checkout has uncommitted changes to tracked files: the record names {commit}, which may not be the code that runs"
        ),
        Some(_) => {}
    }
    let mut raw = serde_json::Map::new();
    let runs = args.rate_runs as usize;
    let rate = measure_rate(&variant, &pos, runs, &mut raw)?;
    let verify_rates = measure_verify(&variant, &pos, runs, &mut raw)?;
    let BuildFigures {
        seconds_to,
        peaks,
        tables: built_tables,
        wdl: wdl_build_rate,
    } = measure_build(&args, &variant, &mut raw)?;
    let peak = build::peak_rss_bytes();
    let tables_dir = built_tables.unwrap_or(args.tables.clone());
    let tables = measure_tables(&tables_dir, &variant, args.probes, &mut raw)?;
    let levels = measure_levels(&variant, &args.levels, args.level_positions, runs)?;
    let measured = Measured {
        levels,
        wdl_build_rate,
        rate,
        verify_rates,
        seconds_to,
        peaks,
        peak,
        tables,
    };
    let result = record(&command, provenance, &variant, &measured, raw);
    print_figures(&variant, &measured);
    write_record(&args, &result)
}

/// Everything the bench measured.
struct Measured {
    /// The level samples, by soldier count.
    levels: Vec<LevelSample>,
    /// Positions per second of the WDL-only build by the bit-set solver.
    wdl_build_rate: Option<f64>,
    /// The solving rate.
    rate: Rate,
    /// The verification rates, with distances and WDL-only.
    verify_rates: [f64; 2],
    /// `seconds_to_K` of the build, if any.
    seconds_to: Figures,
    /// The peaks of each soldier count of the build, if any.
    peaks: Figures,
    /// The peak resident memory of the bench process.
    peak: Option<u64>,
    /// The figures of the tables of 9 soldiers.
    tables: TableFigures,
}

/// The solving rate of the rate closure (step 1 of the bench).
struct Rate {
    /// Positions per second on one thread (the median run).
    per_core: f64,
    /// Positions per CPU-second of the process on one thread.
    per_cpu_second: f64,
    /// How much faster 2 threads are than 1 (medians).
    speedup: f64,
}

/// Measure the solving rate: the closure of `pos` solved in memory with 1
/// and 2 threads, `runs` times each, the medians taken; the raw runs go to
/// `raw["rate_run"]`.
fn measure_rate(
    variant: &Variant,
    pos: &Position,
    runs: usize,
    raw: &mut serde_json::Map<String, serde_json::Value>,
) -> Result<Rate> {
    errln!(
        "rate: solving the closure of {pos} in memory, {runs} runs with 1 thread and {runs} with 2, in turn ..."
    );
    let mut secs = [Vec::new(), Vec::new()];
    let mut cpu_secs = [Vec::new(), Vec::new()];
    let mut stats = None;
    // One thread and two in turn, so that a shared machine's drift over
    // the runs moves both medians alike (five one-thread runs in a row
    // went 1.43 s to 1.93 s in scripts/bench-runs/2026-12-06-vm, the
    // two-thread runs after them 0.71-0.74 s: a speedup of 2.11).
    for _ in 0..runs {
        for (i, threads) in [1, 2].into_iter().enumerate() {
            let s = solve_rate(variant, pos, threads)?;
            secs[i].push(s.seconds);
            cpu_secs[i].push(s.cpu_seconds);
            stats = Some(s);
        }
    }
    let stats = stats.expect("at least one run");
    let (one, two) = (
        median(&secs[0]).expect("runs"),
        median(&secs[1]).expect("runs"),
    );
    let rate_per_core = stats.positions as f64 / one;
    // The same runs by the process's CPU time: what the solver costs, the
    // same whether or not other work shared the cores.
    let one_cpu = median(&cpu_secs[0]).expect("runs");
    let rate_per_cpu_second = stats.positions as f64 / one_cpu;
    let speedup = one / two;
    raw.insert(
        "rate_run".into(),
        json!({"position": pos.to_string(), "tiers": stats.tiers, "positions": stats.positions,
               "runs": runs, "threads": [1, 2],
               "seconds_1_thread": secs[0], "seconds_2_threads": secs[1],
               "median_seconds_1_thread": one, "median_seconds_2_threads": two,
               "cpu_seconds_1_thread": cpu_secs[0], "cpu_seconds_2_threads": cpu_secs[1],
               "median_cpu_seconds_1_thread": one_cpu}),
    );
    Ok(Rate {
        per_core: rate_per_core,
        per_cpu_second: rate_per_cpu_second,
        speedup,
    })
}

/// Measure the verification rate: the closure of `pos` written to table
/// files, with distances and WDL-only, each verified `runs` times on one
/// thread. Returns the median rates (with distances, WDL-only); the raw
/// runs go to `raw["verify_run"]`.
fn measure_verify(
    variant: &Variant,
    pos: &Position,
    runs: usize,
    raw: &mut serde_json::Map<String, serde_json::Value>,
) -> Result<[f64; 2]> {
    let tiers = Solver::new(*variant).closure_of(pos);
    errln!(
        "verify: the closure's tables, with distances and WDL-only, {runs} verifications of each on 1 thread ..."
    );
    let mut verify_rates = [0.0; 2];
    let mut verify_runs = Vec::new();
    for (i, wdl_only) in [false, true].into_iter().enumerate() {
        let dir =
            std::env::temp_dir().join(format!("asalto-bench-verify-{}-{i}", std::process::id()));
        let timed = build_and_verify(&dir, variant, &tiers, wdl_only, runs);
        let _ = std::fs::remove_dir_all(&dir);
        let timed = timed?;
        if let Some(&(_, _, bad)) = timed.iter().find(|t| t.2 != 0) {
            bail!("verify found {bad} inconsistent values in the bench closure's tables");
        }
        let positions = timed[0].1;
        let secs: Vec<f64> = timed.iter().map(|t| t.0).collect();
        verify_rates[i] = positions as f64 / median(&secs).expect("runs");
        verify_runs.push(
            json!({"wdl_only": wdl_only, "positions": positions, "threads": 1,
                                "seconds": secs}),
        );
    }
    raw.insert("verify_run".into(), json!(verify_runs));
    Ok(verify_rates)
}

/// Build `tiers` into `dir` (WDL-only or with distances) and verify them
/// `runs` times on one thread: `(seconds, positions, inconsistent values)`
/// of each verification.
fn build_and_verify(
    dir: &Path,
    variant: &Variant,
    tiers: &[TierKey],
    wdl_only: bool,
    runs: usize,
) -> Result<Vec<(f64, u64, u64)>> {
    let opts = build::BuildOptions {
        write: asalto_tb::table::WriteOptions::of_kind(wdl_only),
        ..build::BuildOptions::threads(0)
    };
    build::build_tiers(dir, variant, tiers, &opts, &Quiet)?;
    let opts = verify::VerifyOptions {
        threads: 1,
        ..verify::VerifyOptions::default()
    };
    let mut secs = Vec::new();
    for _ in 0..runs {
        let t = Instant::now();
        let r = verify::verify(dir, variant, &opts, &asalto_tb::progress::Quiet)?;
        if let Some(f) = r.failed.first() {
            bail!("verify: cannot check {}: {}", f.path.display(), f.error);
        }
        secs.push((t.elapsed().as_secs_f64(), r.positions, r.bad_count));
    }
    Ok(secs)
}

/// The build figures (step 2 of the bench).
struct BuildFigures {
    /// `seconds_to_K` of each soldier count `K` built.
    seconds_to: Figures,
    /// `peak_rss_bytes_K` and `peak_anon_bytes_K` of each soldier count.
    peaks: Figures,
    /// The folder of the tables built by --build-to, if any.
    tables: Option<PathBuf>,
    /// Positions per second of the same build WDL-only by the bit-set
    /// solver (all threads, file I/O included), if built.
    wdl: Option<f64>,
}

/// The build figures: a timed complete build with --build-to, else those
/// of the --build-summary files, else none. The raw record goes to
/// `raw["build_run"]`.
fn measure_build(
    args: &BenchArgs,
    variant: &Variant,
    raw: &mut serde_json::Map<String, serde_json::Value>,
) -> Result<BuildFigures> {
    if let Some(k) = args.build_to {
        timed_build(k, args.memory, variant, raw)
    } else if !args.build_summary.is_empty() {
        let (seconds_to, peaks, run) = from_summaries(&args.build_summary, variant)?;
        raw.insert("build_run".into(), run);
        Ok(BuildFigures {
            seconds_to,
            peaks,
            tables: None,
            wdl: None,
        })
    } else {
        Ok(BuildFigures {
            seconds_to: Figures::new(),
            peaks: Figures::new(),
            tables: None,
            wdl: None,
        })
    }
}

/// Time a complete build of every table up to `k` soldiers into a fresh
/// target/bench-tables, with the cumulative time and the peaks of the
/// files of each soldier count.
fn timed_build(
    k: u8,
    memory: Option<MemoryBudget>,
    variant: &Variant,
    raw: &mut serde_json::Map<String, serde_json::Value>,
) -> Result<BuildFigures> {
    let mut seconds_to = serde_json::Map::new();
    let mut peaks = serde_json::Map::new();
    let dir = PathBuf::from("target/bench-tables");
    let opts = build::BuildOptions {
        memory: memory.unwrap_or_else(MemoryBudget::machine_default),
        ..build::BuildOptions::threads(0)
    };
    let what = format!("every {variant} table up to {k} soldiers");
    let (reports, secs) = fresh_build(&dir, variant, k, &opts, &what)?;
    let positions: u64 = reports.iter().map(|r| r.info.positions).sum();
    // Cumulative time and the peaks of the files of each soldier count.
    let mut total = 0.0;
    for j in 9..=k {
        let files: Vec<_> = reports.iter().filter(|r| r.file.soldiers() == j).collect();
        total += files.iter().map(|r| r.seconds).sum::<f64>();
        seconds_to.insert(format!("seconds_to_{j}"), json!(total));
        let rss = files.iter().map(|r| r.peak_rss_bytes).max();
        let anon = files.iter().map(|r| r.peak_anon_bytes).max();
        peaks.insert(format!("peak_rss_bytes_{j}"), json!(rss));
        peaks.insert(format!("peak_anon_bytes_{j}"), json!(anon));
    }
    raw.insert(
        "build_run".into(),
        json!({"soldiers": k, "seconds": secs, "positions": positions, "threads": "one per core",
               "memory_budget_bytes": memory.unwrap_or_else(MemoryBudget::machine_default).bytes(),
               "files": reports.iter().map(|r| json!({"file": r.file.to_string(),
                    "positions": r.info.positions, "seconds": r.seconds,
                    "peak_rss_bytes": r.peak_rss_bytes, "peak_anon_bytes": r.peak_anon_bytes,
                    "window_peak_bytes": r.window_peak_bytes})).collect::<Vec<_>>()}),
    );
    let wdl = timed_wdl_build(k, memory, variant, raw)?;
    Ok(BuildFigures {
        seconds_to,
        peaks,
        tables: Some(dir),
        wdl: Some(wdl),
    })
}

/// Time the same complete build WDL-only, by the bit-set solver (the
/// default of `asalto build --wdl-only`), into a fresh
/// target/bench-tables-wdl, removed after; the raw record goes to
/// `raw["wdl_build_run"]`. Returns its positions per second (all
/// threads, file I/O included): the rate `asalto plan` scales its level
/// samples' rates by.
fn timed_wdl_build(
    k: u8,
    memory: Option<MemoryBudget>,
    variant: &Variant,
    raw: &mut serde_json::Map<String, serde_json::Value>,
) -> Result<f64> {
    let dir = PathBuf::from("target/bench-tables-wdl");
    let opts = build::BuildOptions {
        memory: memory.unwrap_or_else(MemoryBudget::machine_default),
        write: asalto_tb::table::WriteOptions::of_kind(true),
        engine: asalto_tb::solve::Engine::BitSets,
        ..build::BuildOptions::threads(0)
    };
    let what = "the same, WDL-only by the bit-set solver,";
    let (reports, secs) = fresh_build(&dir, variant, k, &opts, what)?;
    let _ = std::fs::remove_dir_all(&dir);
    let positions: u64 = reports.iter().map(|r| r.info.positions).sum();
    raw.insert(
        "wdl_build_run".into(),
        json!({"soldiers": k, "seconds": secs, "positions": positions, "threads": "one per core",
               "engine": "bits",
               "files": reports.iter().map(|r| json!({"file": r.file.to_string(),
                    "positions": r.info.positions, "seconds": r.seconds})).collect::<Vec<_>>()}),
    );
    Ok(positions as f64 / secs)
}

/// Build every table of `variant` up to `k` soldiers with `opts` into
/// `dir`, emptied first, saying `what` it builds: the files' reports and
/// the seconds the build took.
fn fresh_build(
    dir: &Path,
    variant: &Variant,
    k: u8,
    opts: &build::BuildOptions,
    what: &str,
) -> Result<(Vec<build::FileReport>, f64)> {
    if dir.exists() {
        std::fs::remove_dir_all(dir).with_context(|| format!("clear {}", dir.display()))?;
    }
    errln!("build: {what} into {} ...", dir.display());
    let start = Instant::now();
    let reports = build::build(dir, variant, 9, k, opts, &Quiet)?;
    Ok((reports, start.elapsed().as_secs_f64()))
}

/// The figures of the tables of 9 soldiers (step 3 of the bench), each
/// `None` when not measured.
#[derive(Default)]
struct TableFigures {
    /// Bits per position of the WDL streams.
    wdl_bits: Option<f64>,
    /// Bits per position of the whole files.
    total_bits: Option<f64>,
    /// Bits per position of the files rewritten WDL-only.
    wdl_only_bits: Option<f64>,
    /// Median time of a random probe through the prober, in microseconds.
    probe_us: Option<f64>,
    /// Median time of a query process, warm page cache, in milliseconds.
    warm_ms: Option<f64>,
    /// Median time of a query process, tables evicted, in milliseconds.
    cold_ms: Option<f64>,
}

/// Sizes, probes and a cold query, from the tables of 9 soldiers under
/// `tables_dir` (nothing measured, and a note, when there are none).
fn measure_tables(
    tables_dir: &Path,
    variant: &Variant,
    probes: usize,
    raw: &mut serde_json::Map<String, serde_json::Value>,
) -> Result<TableFigures> {
    let set = TableSet::open(tables_dir, variant);
    let mut present = Vec::new();
    for n in 1..=2u8 {
        if let Some(t) = set.table(FileKey::new(n, 9))? {
            present.push(t);
        }
    }
    if present.is_empty() {
        errln!(
            "no {variant} tables with 9 soldiers under {} (e.g. {}): sizes and probes not measured",
            tables_dir.display(),
            table_path(tables_dir, variant, FileKey::new(2, 9)).display()
        );
        return Ok(TableFigures::default());
    }
    let mut figures = table_sizes(&present, raw)?;
    // Random positions of the biggest table, probed through the prober.
    let table = present.last().expect("non-empty");
    let keys: Vec<TierKey> = table.tier_keys()?;
    figures.probe_us = probe_time(&set, variant, &keys, probes)?;
    (figures.warm_ms, figures.cold_ms) = query_times(tables_dir, variant, &present, &keys, raw)?;
    Ok(figures)
}

/// The sizes of the `present` tables in bits per position: of the WDL
/// streams, of the whole files and of the same tables rewritten WDL-only
/// (what `build --wdl-only` writes). The tables go to `raw["tables"]`.
fn table_sizes(
    present: &[Arc<Table>],
    raw: &mut serde_json::Map<String, serde_json::Value>,
) -> Result<TableFigures> {
    let positions: u64 = present.iter().map(|t| t.info().positions).sum();
    let wdl: u64 = present.iter().map(|t| t.info().wdl_bytes).sum();
    let all: u64 = present.iter().map(|t| t.info().file_bytes).sum();
    let wdl_bits = Some(wdl as f64 * 8.0 / positions as f64);
    let total_bits = Some(all as f64 * 8.0 / positions as f64);
    // The same tables rewritten WDL-only (what `build --wdl-only` writes).
    let wdl_dir = std::env::temp_dir().join(format!("asalto-bench-wdl-{}", std::process::id()));
    let mut wdl_only_bytes = 0;
    for t in present {
        let opts = asalto_tb::table::WriteOptions::wdl_only();
        wdl_only_bytes += asalto_tb::table::repack(t, &wdl_dir, &opts, &Quiet)?.file_bytes;
    }
    let _ = std::fs::remove_dir_all(&wdl_dir);
    let wdl_only_bits = Some(wdl_only_bytes as f64 * 8.0 / positions as f64);
    raw.insert(
        "tables".into(),
        json!(
            present
                .iter()
                .map(|t| json!({"file": t.path().display().to_string(),
            "positions": t.info().positions, "wdl_bytes": t.info().wdl_bytes,
            "file_bytes": t.info().file_bytes, "format_version": t.info().format_version,
            "wdl_block_positions": t.info().wdl_block_positions,
            "order": t.info().order.to_string(),
            "distance_block_positions": t.info().distance_block_positions}))
                .collect::<Vec<_>>()
        ),
    );
    Ok(TableFigures {
        wdl_bits,
        total_bits,
        wdl_only_bits,
        ..TableFigures::default()
    })
}

/// The median time in microseconds of `probes` single-value probes of
/// random positions of the tiers `keys` (one block per stream decompressed
/// unless a block cache has it); a first pass warms the page cache.
fn probe_time(
    set: &TableSet,
    variant: &Variant,
    keys: &[TierKey],
    probes: usize,
) -> Result<Option<f64>> {
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let sample: Vec<Position> = (0..probes)
        .map(|_| {
            let key = keys[(next() % keys.len() as u64) as usize];
            index::position_at(&key, (next() % key.size()) as u32)
        })
        .collect();
    // Single-value probes (one block per stream decompressed unless a
    // block cache has it); a first pass warms the page cache.
    // The cache as a query process has it (a verify of this process may
    // have given it more).
    asalto_tb::table::blocks::set_budget(asalto_tb::table::blocks::DEFAULT_BYTES);
    let mut look = Lookup::probing(set, *variant);
    for p in &sample {
        look.value(p)?;
    }
    let mut times = Vec::with_capacity(sample.len());
    for p in &sample {
        let t = Instant::now();
        std::hint::black_box(look.value(p)?);
        times.push(t.elapsed().as_secs_f64() * 1e6);
    }
    Ok(median(&times))
}

/// The median times in milliseconds of a fresh process answering a query
/// from the tables, warm and cold (every other run with the `present`
/// files' pages dropped from the page cache first). The runs and the
/// position asked go to `raw`.
fn query_times(
    tables_dir: &Path,
    variant: &Variant,
    present: &[Arc<Table>],
    keys: &[TierKey],
    raw: &mut serde_json::Map<String, serde_json::Value>,
) -> Result<(Option<f64>, Option<f64>)> {
    // A fresh process answering a query from the tables.
    let exe = std::env::current_exe()?;
    let q = index::position_at(&keys[keys.len() / 2], 0).to_string();
    let files: Vec<PathBuf> = present.iter().map(|t| t.path().to_path_buf()).collect();
    let mut runs = Vec::new();
    let mut cold_runs = Vec::new();
    for i in 0..14 {
        // Every other run with the table files' pages dropped from the
        // page cache first: a truly cold open.
        let cold = i % 2 == 1;
        if cold {
            for f in &files {
                evict(f)?;
            }
        }
        let t = Instant::now();
        let o = Command::new(&exe)
            .args([
                "query",
                "--json",
                "--variant",
                &variant.to_string(),
                "--tables",
            ])
            .arg(tables_dir)
            .arg(&q)
            .output()?;
        if !o.status.success() {
            bail!(
                "query failed: {}",
                String::from_utf8_lossy(&o.stderr).trim()
            );
        }
        let ms = t.elapsed().as_secs_f64() * 1e3;
        if cold {
            cold_runs.push(ms)
        } else {
            runs.push(ms)
        };
    }
    let warm_ms = median(&runs);
    let cold_ms = median(&cold_runs);
    raw.insert("query_warm_runs_ms".into(), json!(runs));
    raw.insert("query_cold_runs_ms".into(), json!(cold_runs));
    raw.insert("query_position".into(), json!(q));
    Ok((warm_ms, cold_ms))
}

/// The checkout the bench runs in: its commit (`git rev-parse --short
/// HEAD`) and whether its tracked files are as committed; `None` outside
/// a git checkout. What a record can say of the code that ran: the binary
/// itself carries no commit.
fn checkout() -> Option<(String, bool)> {
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let commit = git(&["rev-parse", "--short", "HEAD"])?;
    let clean =
        git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| s.is_empty());
    Some((commit, clean))
}

/// The bench record written to bench.json: the figures with their
/// provenance (command, the checkout's commit and whether its tracked
/// files were as committed, machine, version) and the raw numbers.
fn record(
    command: &[String],
    provenance: Option<(String, bool)>,
    variant: &Variant,
    m: &Measured,
    raw: serde_json::Map<String, serde_json::Value>,
) -> serde_json::Value {
    let (commit, tree_clean) = provenance.unzip();
    let (seconds_to, peaks, tables) = (&m.seconds_to, &m.peaks, &m.tables);
    json!({
        "command": command.join(" "),
        "commit": commit,
        "tree_clean": tree_clean,
        "machine": machine(),
        "tool_version": env!("CARGO_PKG_VERSION"),
        "variant": variant.to_string(),
        "rate_per_core": m.rate.per_core,
        "rate_per_cpu_second": m.rate.per_cpu_second,
        "speedup_2_threads": m.rate.speedup,
        "verify_rate_per_core": m.verify_rates[0],
        "verify_rate_wdl_only_per_core": m.verify_rates[1],
        "seconds_to_9": seconds_to.get("seconds_to_9").cloned().unwrap_or(serde_json::Value::Null),
        "seconds_to_12": seconds_to.get("seconds_to_12").cloned().unwrap_or(serde_json::Value::Null),
        "seconds_to": seconds_to.clone(),
        "wdl_build_rate": m.wdl_build_rate,
        "peak_rss_bytes": m.peak,
        "peak_rss_bytes_12": peaks.get("peak_rss_bytes_12").cloned().unwrap_or(serde_json::Value::Null),
        "peak_anon_bytes_12": peaks.get("peak_anon_bytes_12").cloned().unwrap_or(serde_json::Value::Null),
        "peaks_per_soldiers": peaks.clone(),
        "memory_metric": "peak_rss_bytes: VmHWM of the bench process (resident memory, mapped table pages included); peak_*_bytes_K: sampled every 200 ms while the files of K soldiers were built (rss: VmRSS incl. mapped tables; anon: RssAnon, what --memory bounds)",
        "wdl_bits_per_position": tables.wdl_bits,
        "wdl_only_bits_per_position": tables.wdl_only_bits,
        "total_bits_per_position": tables.total_bits,
        "probe_median_us": tables.probe_us,
        "query_warm_ms": tables.warm_ms,
        "query_cold_ms": tables.cold_ms,
        "levels": levels_json(&m.levels),
        "raw": raw,
    })
}

/// Print the figures, one a line.
fn print_figures(variant: &Variant, m: &Measured) {
    let fmt = |v: Option<f64>, unit: &str| {
        v.map_or("not measured".to_string(), |x| format!("{x:.3} {unit}"))
    };
    let tables = &m.tables;
    outln!(
        "asalto bench ({variant}), {}",
        machine()["cpu"].as_str().unwrap_or("?")
    );
    outln!(
        "  rate per core (1 thread)     {:.3e} positions/s ({:.3e} per CPU-second of the process)",
        m.rate.per_core,
        m.rate.per_cpu_second
    );
    outln!("  speedup with 2 threads       {:.2}x", m.rate.speedup);
    outln!(
        "  verify rate (1 thread)       {:.3e} positions/s with distances, {:.3e} WDL-only",
        m.verify_rates[0],
        m.verify_rates[1]
    );
    for (k, v) in &m.seconds_to {
        outln!("  {k:<28} {:.1} s", v.as_f64().unwrap_or(0.0));
    }
    outln!(
        "  WDL-only build (bits, all threads) {}",
        fmt(m.wdl_build_rate, "positions/s")
    );
    outln!(
        "  peak memory                  {}",
        fmt(m.peak.map(|b| b as f64 / (1u64 << 30) as f64), "GiB")
    );
    outln!(
        "  WDL size                     {}",
        fmt(tables.wdl_bits, "bits/position")
    );
    outln!(
        "  total size                   {}",
        fmt(tables.total_bits, "bits/position")
    );
    outln!(
        "  WDL-only size                {}",
        fmt(tables.wdl_only_bits, "bits/position")
    );
    outln!(
        "  random probe, warm, median   {}",
        fmt(tables.probe_us, "us")
    );
    outln!(
        "  query process, warm cache    {}",
        fmt(tables.warm_ms, "ms")
    );
    outln!(
        "  query process, cold (evicted) {}",
        fmt(tables.cold_ms, "ms")
    );
    print_levels(&m.levels);
}

/// Soldier counts of the level samples (`--levels`).
#[derive(Clone, Debug)]
struct Levels(Vec<u8>);

/// Parse `--levels`: soldier counts 9..=24, comma-separated, or `none`.
fn parse_levels(text: &str) -> Result<Levels, String> {
    if text.trim() == "none" {
        return Ok(Levels(Vec::new()));
    }
    let mut out = Vec::new();
    for t in text.split(',').map(str::trim) {
        match t.parse::<u8>() {
            Ok(k) if (9..=24).contains(&k) => out.push(k),
            _ => {
                return Err(format!(
                    "'{}' is not a soldier count of 9 to 24 (give a comma-separated list, e.g. 9,12,15, or none)",
                    t.escape_debug()
                ));
            }
        }
    }
    Ok(Levels(out))
}

/// The level samples (the two-officer file of each soldier count, one
/// thread, seed 1), the bit-set solver and the set checker timed `runs`
/// times each.
fn measure_levels(
    variant: &Variant,
    levels: &Levels,
    positions: u64,
    runs: usize,
) -> Result<Vec<LevelSample>> {
    let mut out = Vec::new();
    for &k in &levels.0 {
        errln!(
            "levels: k = {k}: a sample of about {positions} positions of 2o{k}s, solved and checked on 1 thread against a synthetic store (the bit-set solver and the set checker {runs} times each, in turn) ..."
        );
        let s = asalto_tb::solve::level_sample(variant, FileKey::new(2, k), positions, 1, runs)
            .with_context(|| format!("the level sample of 2o{k}s"))?;
        if s.inconsistent > 0 {
            bail!(
                "the level sample of 2o{k}s: the check finds {} of the solver's values wrong",
                s.inconsistent
            );
        }
        if s.sets_inconsistent > 0 {
            bail!(
                "the level sample of 2o{k}s: the set checker finds {} of the solver's values wrong",
                s.sets_inconsistent
            );
        }
        if s.bits_differ > 0 {
            bail!(
                "the level sample of 2o{k}s: the bit-set solver gives {} positions another value than the position solver",
                s.bits_differ
            );
        }
        out.push(s);
    }
    Ok(out)
}

/// The level samples as the record holds them.
fn levels_json(levels: &[LevelSample]) -> serde_json::Value {
    levels
        .iter()
        .map(|s| {
            json!({
                "k": s.file.soldiers(), "file": s.file.to_string(), "tiers": s.tiers,
                "positions": s.positions, "threads": 1,
                "solve_seconds": s.solve_seconds, "verify_seconds": s.verify_seconds,
                "solve_rate_per_core": s.positions as f64 / s.solve_seconds,
                "verify_rate_per_core": s.positions as f64 / s.verify_seconds,
                "bits_seconds": s.bits_seconds,
                "bits_seconds_runs": s.bits_runs,
                "bits_rate_per_core": s.positions as f64 / s.bits_seconds,
                "bits_over_positions": s.solve_seconds / s.bits_seconds,
                "bits_differ": s.bits_differ,
                "inconsistent": s.inconsistent,
                "sets_verify_seconds": s.sets_seconds,
                "sets_verify_seconds_runs": s.sets_runs,
                "timing": "solve_seconds, verify_seconds: one pass; bits_seconds, sets_verify_seconds: the median of the passes in *_runs (the two in turn)",
                "sets_verify_rate_per_core": s.positions as f64 / s.sets_seconds,
                "sets_inconsistent": s.sets_inconsistent,
                "store": "synthetic WDL fields (solve::SyntheticStore, seed 1), in memory: no file I/O",
            })
        })
        .collect()
}

/// Print the level samples, one a line.
fn print_levels(levels: &[LevelSample]) {
    for s in levels {
        outln!(
            "  level sample {:<5} {:>11} positions, {:>6} tiers: solve {:.3e}/s, bit sets {:.3e}/s ({:.2}x), verify {:.3e}/s, by sets {:.3e}/s (1 thread, synthetic store; bit sets and by sets the median of {})",
            s.file.to_string(),
            s.positions,
            s.tiers,
            s.positions as f64 / s.solve_seconds,
            s.positions as f64 / s.bits_seconds,
            s.solve_seconds / s.bits_seconds,
            s.positions as f64 / s.verify_seconds,
            s.positions as f64 / s.sets_seconds,
            s.bits_runs.len()
        );
    }
}

/// Write the record to `bench.json` in a new run folder (see [`run_dir`])
/// and print its path.
fn write_record(args: &BenchArgs, result: &serde_json::Value) -> Result<()> {
    let date = std::process::Command::new("date")
        .arg("+%Y-%m-%d")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "undated".into());
    let host = result["machine"]["host"]
        .as_str()
        .unwrap_or("host")
        .to_string();
    let dir = run_dir(&out_dir(args.out.as_deref(), &args.tables), &date, &host)?;
    let path = dir.join("bench.json");
    std::fs::write(&path, serde_json::to_string_pretty(result)? + "\n")
        .with_context(|| format!("write {}", path.display()))?;
    outln!("results: {}", path.display());
    Ok(())
}

/// That the record can be written under `out`, before any measuring: the
/// folder made if missing, and a file written and removed there.
fn check_out(out: &Path) -> Result<()> {
    std::fs::create_dir_all(out)
        .with_context(|| format!("cannot create the results folder {}", out.display()))?;
    let probe = out.join(format!(".bench-check-{}", std::process::id()));
    std::fs::write(&probe, b"")
        .with_context(|| format!("cannot write in the results folder {}", out.display()))?;
    std::fs::remove_file(&probe).with_context(|| format!("remove {}", probe.display()))?;
    Ok(())
}

/// A new folder for this run under `out`: `<date>-<host>`, or for a later
/// run of the same day `<date>-<host>-2`, `-3`, ... (an earlier run's
/// record is never overwritten).
fn run_dir(out: &Path, date: &str, host: &str) -> Result<PathBuf> {
    std::fs::create_dir_all(out).with_context(|| format!("create {}", out.display()))?;
    for n in 1u32.. {
        let name = match n {
            1 => format!("{date}-{host}"),
            n => format!("{date}-{host}-{n}"),
        };
        let dir = out.join(name);
        match std::fs::create_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e).with_context(|| format!("create {}", dir.display())),
        }
    }
    unreachable!("a free run number below 2^32")
}

/// Named figures of a bench record (`seconds_to_9`, `peak_rss_bytes_9`, ..).
type Figures = serde_json::Map<String, serde_json::Value>;

/// One file of a build, as the summary of the run that finished it says.
struct FileRun {
    /// Seconds over all the runs that built it.
    seconds: f64,
    peak_anon_bytes: u64,
    peak_rss_bytes: u64,
    positions: u64,
    /// The summary it comes from.
    summary: String,
}

/// The figures of a complete build from the JSON summaries of its runs
/// (`build --json`): `seconds_to_K` (the time of every file up to `K`
/// soldiers, over all the runs that built it) and the peaks of each
/// soldier count, and the raw record. `seconds_to_K` is given for each `K`
/// from 9 up to the first soldier count of which a file was not finished
/// by any of the runs (a build still under way); none at all is an error.
fn from_summaries(
    paths: &[PathBuf],
    variant: &Variant,
) -> Result<(Figures, Figures, serde_json::Value)> {
    // (k, n) -> the file as the run that finished it saw it.
    let mut files = std::collections::BTreeMap::new();
    for path in paths {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let j: serde_json::Value = serde_json::from_str(&text).with_context(|| {
            format!("{} is not the JSON of asalto build --json", path.display())
        })?;
        let builds = j["builds"].as_array().with_context(|| {
            format!("{} is not the JSON of asalto build --json", path.display())
        })?;
        for b in builds {
            if b["variant"].as_str() != Some(&variant.to_string()) {
                continue;
            }
            for f in b["files"].as_array().into_iter().flatten() {
                if f["skipped"] != false {
                    continue;
                }
                let num = |key: &str| f[key].as_f64().unwrap_or(0.0);
                let count = |key: &str| f[key].as_u64().and_then(|c| u8::try_from(c).ok());
                let (Some(k), Some(n)) = (count("soldiers"), count("officers")) else {
                    bail!("{}: a file without officers and soldiers", path.display());
                };
                files.insert(
                    (k, n),
                    FileRun {
                        seconds: num("seconds") + num("earlier_seconds"),
                        peak_anon_bytes: f["peak_anon_bytes"].as_u64().unwrap_or(0),
                        peak_rss_bytes: f["peak_rss_bytes"].as_u64().unwrap_or(0),
                        positions: f["positions"].as_u64().unwrap_or(0),
                        summary: path.display().to_string(),
                    },
                );
            }
        }
    }
    if files.is_empty() {
        bail!("the build summaries finish no {variant} file");
    }
    let mut seconds_to = serde_json::Map::new();
    let mut peaks = serde_json::Map::new();
    let mut total = 0.0;
    let mut k_max = None;
    for k in 9..=24 {
        let (Some(one), Some(two)) = (files.get(&(k, 1)), files.get(&(k, 2))) else {
            break;
        };
        total += one.seconds + two.seconds;
        seconds_to.insert(format!("seconds_to_{k}"), json!(total));
        let rss = one.peak_rss_bytes.max(two.peak_rss_bytes);
        let anon = one.peak_anon_bytes.max(two.peak_anon_bytes);
        peaks.insert(format!("peak_rss_bytes_{k}"), json!(rss));
        peaks.insert(format!("peak_anon_bytes_{k}"), json!(anon));
        k_max = Some(k);
    }
    let Some(k_max) = k_max else {
        bail!("no summary finishes both {variant} files of 9 soldiers: no build time is known");
    };
    let list: Vec<serde_json::Value> = files
        .iter()
        .map(|((k, n), f)| {
            json!({"file": FileKey::new(*n, *k).to_string(), "positions": f.positions, "seconds": f.seconds,
                   "peak_anon_bytes": f.peak_anon_bytes, "peak_rss_bytes": f.peak_rss_bytes,
                   "summary": f.summary})
        })
        .collect();
    let run = json!({"soldiers": k_max, "from_summaries": paths, "files": list});
    Ok((seconds_to, peaks, run))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// A summary of one run as `build --json` prints it, with `files` of
    /// `(n, k, skipped, seconds, earlier_seconds, peak_anon)`.
    fn summary(dir: &Path, name: &str, files: &[(u8, u8, bool, f64, f64, u64)]) -> PathBuf {
        let list: Vec<serde_json::Value> = files
            .iter()
            .map(|&(n, k, skipped, s, e, anon)| {
                json!({"file": FileKey::new(n, k).to_string(), "officers": n, "soldiers": k,
                       "skipped": skipped, "seconds": s, "earlier_seconds": e,
                       "peak_anon_bytes": anon, "peak_rss_bytes": 2 * anon, "positions": 10})
            })
            .collect();
        let j = json!({"builds": [{"variant": "assaut", "files": list}], "stopped": null});
        let path = dir.join(name);
        std::fs::write(&path, j.to_string()).unwrap();
        path
    }

    #[test]
    fn build_figures_add_up_the_runs_that_finished_each_file() {
        let dir = tempfile::tempdir().unwrap();
        // Run 1 finished the 9-soldier files and stopped in 1o10s; run 2
        // skipped those, finished 1o10s (resumed: 5 s before) and 2o10s.
        let one = summary(
            dir.path(),
            "1.json",
            &[(1, 9, false, 1.0, 0.0, 100), (2, 9, false, 2.0, 0.0, 300)],
        );
        let two = summary(
            dir.path(),
            "2.json",
            &[
                (1, 9, true, 0.0, 0.0, 0),
                (2, 9, true, 0.0, 0.0, 0),
                (1, 10, false, 3.0, 5.0, 700),
                (2, 10, false, 4.0, 0.0, 500),
            ],
        );
        let (secs, peaks, run) =
            from_summaries(&[one.clone(), two.clone()], &Variant::ASSAUT).unwrap();
        // Each file finished is named as the summaries name it.
        let mut finished: Vec<serde_json::Value> = [&one, &two]
            .iter()
            .flat_map(|p| {
                let j: serde_json::Value =
                    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
                j["builds"][0]["files"].as_array().unwrap().clone()
            })
            .filter(|f| f["skipped"] == false)
            .map(|f| f["file"].clone())
            .collect();
        let mut named: Vec<serde_json::Value> = run["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["file"].clone())
            .collect();
        finished.sort_by_key(|v| v.to_string());
        named.sort_by_key(|v| v.to_string());
        assert_eq!(named, finished);
        assert_eq!(secs["seconds_to_9"], json!(3.0));
        assert_eq!(secs["seconds_to_10"], json!(15.0));
        assert_eq!(peaks["peak_anon_bytes_9"], json!(300));
        assert_eq!(peaks["peak_anon_bytes_10"], json!(700));
        assert_eq!(peaks["peak_rss_bytes_10"], json!(1400));
        // The first run alone: 9 soldiers only (10 is under way).
        let (secs, _, _) = from_summaries(std::slice::from_ref(&one), &Variant::ASSAUT).unwrap();
        assert_eq!(secs.len(), 1);
        assert_eq!(secs["seconds_to_9"], json!(3.0));
        // Without the first run, nothing says how long 9 soldiers took.
        let e = from_summaries(&[two], &Variant::ASSAUT)
            .unwrap_err()
            .to_string();
        assert!(e.contains("9 soldiers"), "{e}");
        // Another variant's summaries finish nothing of this one.
        let e = from_summaries(&[one], &Variant::ASSAULT)
            .unwrap_err()
            .to_string();
        assert!(e.contains("finish no"), "{e}");
    }

    #[test]
    fn a_second_run_of_the_day_gets_a_folder_of_its_own() {
        let out = tempfile::tempdir().unwrap();
        let first = run_dir(out.path(), "2026-11-25", "vm").unwrap();
        std::fs::write(first.join("bench.json"), "{}").unwrap();
        let second = run_dir(out.path(), "2026-11-25", "vm").unwrap();
        let third = run_dir(out.path(), "2026-11-25", "vm").unwrap();
        assert_eq!(first, out.path().join("2026-11-25-vm"));
        assert_eq!(second, out.path().join("2026-11-25-vm-2"));
        assert_eq!(third, out.path().join("2026-11-25-vm-3"));
        assert_eq!(
            std::fs::read_to_string(first.join("bench.json")).unwrap(),
            "{}"
        );
    }

    #[test]
    fn levels_are_soldier_counts_or_none() {
        assert_eq!(parse_levels("9, 12,21").unwrap().0, vec![9, 12, 21]);
        assert!(parse_levels("none").unwrap().0.is_empty());
        for bad in ["8", "25", "x", "9,,12", ""] {
            let e = parse_levels(bad).unwrap_err();
            assert!(e.contains("9 to 24") && !e.contains('\n'), "{bad}: {e}");
        }
    }

    #[test]
    fn results_go_where_the_help_says() {
        let tables = Path::new("/data/tables");
        assert_eq!(
            out_dir(Some(Path::new("/tmp/runs")), tables),
            PathBuf::from("/tmp/runs")
        );
        // Tests run in the checkout, which has scripts/bench-runs.
        assert!(Path::new("scripts/bench-runs").is_dir());
        assert_eq!(out_dir(None, tables), PathBuf::from("scripts/bench-runs"));
    }
}
