//! `asalto plan`: what a build would take, without solving. The counting
//! and the estimates are [`asalto_tb::plan`]'s; this module parses the
//! arguments, measures or takes the rate, and prints.

use super::{Soldiers, parse_position, parse_threads};
use anyhow::Result;
use asalto_tb::Variant;
use asalto_tb::budget::{MemoryBudget, Need};
use asalto_tb::plan::{self, Plan, Scope};
use clap::Args;
use serde_json::json;
use std::path::{Path, PathBuf};

/// Arguments of `asalto plan`.
#[derive(Args)]
pub struct PlanArgs {
    #[arg(long, short, default_value = "assaut", help = super::VARIANT_HELP)]
    variant: String,
    /// Plan the complete tables with these soldier counts: K (meaning
    /// 9..=K) or A..=B, one and two officers each, as `asalto build
    /// --soldiers` builds them.
    #[arg(long, short, default_value = "9", conflicts_with = "only_for")]
    soldiers: Soldiers,
    /// Plan a build above this floor (`asalto build --floor K --assume
    /// SIDE`): only the files with K or more soldiers (of --for's
    /// closure, or of --soldiers, which then defaults to K..=24); both
    /// assumptions build the same files.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u8).range(10..=24))]
    floor: Option<u8>,
    /// Plan only the tiers this position and its moves need, as `asalto
    /// build --for` builds them ('start' is the whole game).
    #[arg(long = "for", value_name = "POSITION", allow_hyphen_values = true)]
    only_for: Option<String>,
    /// Folder the tables would go to: its free disk, and the files already
    /// built there.
    #[arg(long, default_value = "tables")]
    tables: PathBuf,
    /// Worker threads the build would use, for the calibration: 0 for one
    /// per core, 1 for serial, at most 1024.
    #[arg(long, short, default_value = "0", value_parser = parse_threads, allow_negative_numbers = true)]
    threads: usize,
    /// In-memory solving rate of the calibration closure in positions per
    /// second, instead of the calibration solve (about 1 to 2 s) that
    /// measures it: over the bench record's one-thread rate, it says how
    /// many of the bench machine's cores this machine is worth, and each
    /// file is timed at its soldier count's rates on that many.
    #[arg(long, value_name = "POSITIONS_PER_SECOND", value_parser = parse_rate, allow_hyphen_values = true)]
    rate: Option<f64>,
    /// The memory budget the build would have (as `asalto build
    /// --memory`; default: the build's, 60% of the machine's memory): the
    /// plan says whether each file's solved tiers stay in memory under it.
    #[arg(long, value_name = "SIZE", value_parser = super::parse_budget, allow_hyphen_values = true)]
    memory: Option<MemoryBudget>,
    /// Plan a WDL-only build (as `asalto build --wdl-only`): its windows
    /// of solved tiers hold two bits a value instead of a byte, it is
    /// timed at the bit-set solver's rates, and its verify is timed too.
    #[arg(long)]
    wdl_only: bool,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// Parse a rate: a positive number (a bad one is a usage error).
fn parse_rate(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(r) if r.is_finite() && r > 0.0 => Ok(r),
        _ => Err("use a positive number of positions per second, e.g. 1.5e7".to_string()),
    }
}

pub use asalto_tb::plan::{human_bytes as bytes, human_duration as duration, summary_line};

/// What the plan covers, in words.
fn scope_text(plan: &Plan) -> String {
    match plan.scope {
        Scope::Soldiers(a, b) => format!("complete tables with {a}..={b} soldiers"),
        Scope::Closure(p) => {
            format!("the closure of {p} (every tier it and its moves can lead to)")
        }
    }
}

/// What the memory budget `budget` means for the files still to build, in
/// words: whether every build keeps the tiers its levels read in memory
/// (its window, over the tiers the build puts in the file), and if not,
/// which file wants the most; `None` when nothing is left to build.
pub fn memory_line(the_plan: &Plan, budget: MemoryBudget) -> Option<String> {
    let todo: Vec<Need> = the_plan.to_build().iter().map(|f| f.need()).collect();
    let most = todo.iter().max_by_key(|n| n.whole())?;
    let wants = format!(
        "{} wants about {}: a window of solved tiers of {} plus {} besides",
        most.file,
        bytes(most.whole()),
        bytes(most.window),
        bytes(most.besides_window)
    );
    if let Some(least) = the_plan.neediest()
        && let Err(why) = budget.share(&least, None)
    {
        return Some(format!("memory: {why}: a build would be refused ({wants})"));
    }
    let short = todo.iter().filter(|n| !budget.holds_whole(n)).count();
    Some(if short == 0 {
        format!(
            "memory: a budget of {budget} keeps every file's solved tiers in memory (the most: {wants})"
        )
    } else {
        format!(
            "memory: under a budget of {budget}, {short} file{} (marked *) read{} some of {} own solved tiers back from disk, slower ({wants}; --memory {} or more keeps them all)",
            if short == 1 { "" } else { "s" },
            if short == 1 { "s" } else { "" },
            if short == 1 { "its" } else { "their" },
            bytes(most.whole())
        )
    })
}

/// Below this share of its threads' time on a core, the calibration ran
/// on a busy machine and the plan says so (on idle cores one thread has
/// about 1, two about 0.9: their work is not perfectly divided).
const BUSY_SHARE: f64 = 0.75;

/// Run `asalto plan`.
pub fn run(args: PlanArgs) -> Result<()> {
    let variant: Variant = args.variant.parse()?;
    let floor = args
        .floor
        .map(|k| asalto_tb::solve::Floor::new(k, asalto_tb::solve::Assume::Officers))
        .transpose()?;
    let (lo, hi) = match floor {
        // The default --soldiers above a floor: K..=24.
        Some(f) if args.soldiers.0 == 9 && args.soldiers.1 == 9 => (f.k(), 24),
        _ => (args.soldiers.0, args.soldiers.1),
    };
    let mut plan = match &args.only_for {
        Some(text) => plan::for_position(&variant, &parse_position(text, &variant)?)?,
        None => plan::complete(&variant, lo.max(floor.map_or(9, |f| f.k())), hi)?,
    }
    .wdl_only(args.wdl_only)
    .above_floor(floor);
    super::check_tables_dir(&args.tables)?;
    // The files already built: in the floor's folder (either side's: the
    // officers' is looked at).
    plan.mark_built(&asalto_tb::solve::Floor::dir_under(&args.tables, floor));
    let estimate = plan.estimate();
    let free = plan::free_bytes(&args.tables).ok();
    let budget = args.memory.unwrap_or_else(MemoryBudget::machine_default);
    let (rate, calibration) = match args.rate {
        Some(r) => (r, None),
        None => {
            let c = plan::calibrate(&variant, args.threads)?;
            (c.positions_per_second, Some(c))
        }
    };
    let planned = Planned {
        seconds: estimate.seconds(rate),
        verify_seconds: args.wdl_only.then(|| plan.verify_seconds(rate)),
        plan,
        estimate,
        free,
        budget,
        rate,
        calibration,
    };
    if args.json {
        print_json(&args, &variant, &planned);
    } else {
        print_text(&args, &variant, &planned);
    }
    Ok(())
}

/// A plan and what `asalto plan` says of it.
struct Planned {
    /// The files to build, those already built marked.
    plan: Plan,
    /// Its estimate (positions and disk).
    estimate: plan::Estimate,
    /// The free disk under --tables, if known.
    free: Option<u64>,
    /// The memory budget of the build.
    budget: MemoryBudget,
    /// The in-memory solving rate, positions per second.
    rate: f64,
    /// The calibration solve that measured the rate (none with --rate).
    calibration: Option<plan::Rate>,
    /// The estimated time of the build.
    seconds: f64,
    /// The estimated time of the verify of every file of the plan (built
    /// already or not), when WDL-only (`Plan::verify_seconds`).
    verify_seconds: Option<f64>,
}

/// Print the plan as one JSON object.
fn print_json(args: &PlanArgs, variant: &Variant, p: &Planned) {
    let (plan, estimate, budget) = (&p.plan, &p.estimate, p.budget);
    let (positions, disk, wdl) = (
        estimate.positions,
        estimate.disk_bytes,
        estimate.disk_bytes_wdl_only,
    );
    let files: Vec<_> = plan
        .files
        .iter()
        .map(|f| {
            let (d, w) = plan::disk_bytes(std::slice::from_ref(f));
            json!({
                "file": f.file.to_string(), "officers": f.file.officers(), "soldiers": f.file.soldiers(),
                "tiers": f.tiers, "positions": f.positions, "complete": f.complete,
                "built": f.built, "disk_bytes": d, "disk_bytes_wdl_only": w,
                "window_bytes": f.window_bytes, "memory_bytes": f.need().whole(),
                "least_memory_bytes": f.need().least(),
                "window_in_memory": budget.holds_whole(&f.need()),
                "checkpoint": f.checkpoint.map(|c| json!({
                    "positions_done": c.positions_done, "wdl_only": c.wdl_only,
                })),
            })
        })
        .collect();
    outln!(
        "{}",
        json!({
            "variant": variant.to_string(),
            "scope": scope_text(plan),
            "wdl_only": args.wdl_only,
            "tables": args.tables.display().to_string(),
            "files": files,
            "tiers": plan.tiers(),
            "positions": plan.positions(),
            "positions_to_build": positions,
            "positions_in_checkpoints": estimate.checkpointed_positions,
            "disk_bytes": disk,
            "disk_bytes_wdl_only": wdl,
            "disk_basis": plan::DISK_BASIS,
            "free_bytes": p.free,
            "fits": p.free.map(|f| disk <= f),
            "fits_wdl_only": p.free.map(|f| wdl <= f),
            "memory_budget_bytes": budget.bytes(),
            "least_memory_bytes": plan.neediest().map(|n| n.least()),
            "memory": memory_line(plan, budget),
            "rate_positions_per_second": p.rate,
            "bench_cores_worth": plan::cores_worth(p.rate),
            "rates_source": plan::LEVEL_RATES_SOURCE,
            "build_core_seconds": estimate.build_core_seconds,
            "calibration": p.calibration.map(|c| json!({
                "position": plan::CALIBRATION_POSITION,
                "positions": c.calibration_positions,
                "seconds": c.calibration_seconds,
                "threads": args.threads,
                "cpu_share": c.cpu_share,
            })),
            "seconds": p.seconds,
            "verify_seconds": p.verify_seconds,
            // What scripts/run-summary.py scales a build's measured time by.
            "verify_over_build": p.verify_seconds.filter(|_| p.seconds > 0.0).map(|v| v / p.seconds),
        })
    );
}

/// Print the plan as text: a line per file, then the totals, the disk, the
/// memory and the time.
fn print_text(args: &PlanArgs, variant: &Variant, p: &Planned) {
    let (plan, estimate, budget) = (&p.plan, &p.estimate, p.budget);
    let (positions, disk, wdl) = (
        estimate.positions,
        estimate.disk_bytes,
        estimate.disk_bytes_wdl_only,
    );
    outln!(
        "plan for {variant}: {}{}",
        scope_text(plan),
        if args.wdl_only { ", WDL-only" } else { "" }
    );
    print_files(plan, budget);
    let in_checkpoints = match estimate.checkpointed_positions {
        0 => String::new(),
        c => {
            format!(" ({c} of them held by checkpoints: not solved again by a build of their kind)")
        }
    };
    outln!(
        "total: {} files, {} tiers, {} positions ({:.3e}); to build: {} files, {positions} positions{in_checkpoints}",
        plan.files.len(),
        plan.tiers(),
        plan.positions(),
        plan.positions() as f64,
        estimate.files
    );
    outln!(
        "disk: about {} with distances, {} win/draw/loss only (estimate from {})",
        bytes(disk),
        bytes(wdl),
        plan::DISK_BASIS
    );
    outln!("{}", free_text(&args.tables, p.free, disk, wdl));
    if let Some(line) = memory_line(plan, budget) {
        outln!("{line}");
    }
    outln!(
        "time: about {} here ({})",
        duration(p.seconds),
        rate_text(p, args.threads)
    );
    outln!("{}", verify_text(p));
    if let Some(c) = p.calibration.filter(|c| c.cpu_share < BUSY_SHARE) {
        let free = |secs: f64| duration(secs * c.cpu_share.max(0.01));
        outln!(
            "note: the calibration had {:.0}% of its threads' time on a core: other work held the cores, so the estimate is that of the busy machine (with them free: about {}{}; or give --rate)",
            100.0 * c.cpu_share,
            free(p.seconds),
            p.verify_seconds.map_or(String::new(), |v| format!(
                " to build, {} to verify",
                free(v)
            ))
        );
    }
}

/// The table of the plan's files: tiers, positions, disk, memory (marked
/// `*` when the budget does not hold its window), and whether each is
/// partial, built or checkpointed.
fn print_files(plan: &Plan, budget: MemoryBudget) {
    outln!(
        "  {:<7} {:>11} {:>16} {:>14} {:>14} {:>14}",
        "file",
        "tiers",
        "positions",
        "disk",
        "WDL only",
        "memory"
    );
    for f in &plan.files {
        let (d, w) = plan::disk_bytes(std::slice::from_ref(f));
        let checkpoint = match f.checkpoint {
            Some(c) => format!(
                "  (checkpoint: {:.1}% done{})",
                100.0 * c.positions_done as f64 / f.positions.max(1) as f64,
                if c.wdl_only { ", WDL-only" } else { "" }
            ),
            None => String::new(),
        };
        // The memory its build wants to keep its window, and whether the
        // budget holds it ("reads back": some tiers come from disk).
        let memory = format!(
            "{}{}",
            bytes(f.need().whole()),
            if budget.holds_whole(&f.need()) {
                ""
            } else {
                "*"
            }
        );
        outln!(
            "  {:<7} {:>11} {:>16} {:>14} {:>14} {:>14}{}{}{checkpoint}",
            f.file.to_string(),
            f.tiers,
            f.positions,
            bytes(d),
            bytes(w),
            memory,
            if f.complete { "" } else { "  partial" },
            if f.built { "  (built: skipped)" } else { "" }
        );
    }
}

/// Where the time comes from: the level samples' rates per soldier count,
/// scaled by the bench cores this machine's threads are worth, measured
/// by the calibration solve or given by --rate.
fn rate_text(p: &Planned, threads: usize) -> String {
    let rate = p.rate;
    let worth = plan::cores_worth(rate);
    // A WDL-only plan has a verify estimate.
    let solver = if p.verify_seconds.is_some() {
        "the bit-set solver's"
    } else {
        "the position solver's"
    };
    let basis = format!(
        "{solver} rates per soldier count in the level samples of {}, times a real build's rate over those rates ({:.3} WDL-only, from {}{}; {:.3} with distances, from the same bench's build)",
        plan::LEVEL_RATES_SOURCE,
        plan::WDL_BUILD_OVER_SAMPLE,
        plan::WDL_BUILD_OVER_SAMPLE_SOURCE,
        carried_text(),
        plan::BUILD_OVER_SAMPLE
    );
    match &p.calibration {
        Some(c) => format!(
            "{basis}, on {worth:.2} of its cores: the in-memory rate {rate:.3e} positions/s measured here by solving the closure of {} ({} positions in {:.2} s, --threads {}) over its {:.3e} on one core",
            plan::CALIBRATION_POSITION,
            c.calibration_positions,
            c.calibration_seconds,
            threads,
            plan::BENCH_RATE_PER_CORE,
        ),
        None => format!(
            "{basis}, on {worth:.2} of its cores: --rate {rate:.3e} over its in-memory rate {:.3e} on one core",
            plan::BENCH_RATE_PER_CORE
        ),
    }
}

/// Where the factors were carried from the commit of their records to
/// the bench's, in words: nothing when they ran at the same commit.
fn carried_text() -> String {
    match plan::FACTORS_CARRIED_BY {
        Some(ab) => format!(" and the A/B of {ab}"),
        None => String::new(),
    }
}

/// The verify's time, in words: estimated for WDL-only files alone.
fn verify_text(p: &Planned) -> String {
    match p.verify_seconds {
        Some(secs) => format!(
            "verify: about {} more to verify the {} files ({} positions, `asalto verify`): the check's rates per soldier count in the same level samples, times {:.3} (a real verify's rate over those rates, {}{}), on the same cores",
            duration(secs),
            p.plan.files.len(),
            p.plan.positions(),
            plan::VERIFY_OVER_SAMPLE,
            plan::VERIFY_OVER_SAMPLE_SOURCE,
            carried_text(),
        ),
        None => "verify: not estimated for tables with distances (the rates measured are a WDL-only verify's)".to_string(),
    }
}

/// Whether the estimate fits the free disk, in words.
fn free_text(dir: &Path, free: Option<u64>, disk: u64, wdl: u64) -> String {
    match free {
        None => format!("free disk under {}: unknown", dir.display()),
        Some(f) => format!(
            "free disk under {}: {}; {}",
            dir.display(),
            bytes(f),
            if disk <= f {
                "the tables fit"
            } else if wdl <= f {
                "the tables do NOT fit with distances (they would without)"
            } else {
                "the tables do NOT fit"
            }
        ),
    }
}
