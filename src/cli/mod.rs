//! The `asalto` command line: what each command does with its arguments
//! (their clap definitions are `flags`), turning them into the library's
//! types, progress bars and output. All the work is done
//! by the library; this module only prints.
//!
//! Exit codes: 0 success, 1 an error (bad position, unknown variant, a
//! table problem, ...), 2 a usage error reported by the argument parser.

#[macro_use]
mod out;
mod bars;
mod bench;
mod flags;
mod output;
mod plan;
mod repack;
mod report;
mod serve;

use anyhow::{Context, Result, bail};
use asalto_tb::budget::MemoryBudget;
use asalto_tb::probe;
use asalto_tb::progress::{Observer, Progress};
use asalto_tb::solve::{Assume, Floor, Stats};
use asalto_tb::table::TableSet;
use asalto_tb::{Position, Variant, build, ondemand, rules, verify};
use clap::Parser;
use flags::{
    BuildArgs, Cli, Command, PositionArgs, Soldiers, THREADS_HELP, VARIANT_HELP, VariantChoice,
    VerifyArgs, parse_budget, parse_position, parse_threads,
};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;
use std::process::ExitCode;

/// A `--tables` path must be a folder, or not exist yet.
pub(crate) fn check_tables_dir(dir: &std::path::Path) -> Result<()> {
    if dir.exists() && !dir.is_dir() {
        bail!("--tables {} is not a folder", dir.display());
    }
    Ok(())
}

/// The exit status of a build or verify stopped by `--stop-after`
/// (EX_TEMPFAIL of sysexits.h: run it again).
const STOPPED: u8 = 75;

/// A command stopped by `--stop-after` where it was told to: not an error;
/// the message says where, and the exit status is [`STOPPED`].
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct Stopped(String);

/// Parse the arguments, run the command, print errors once; the exit code
/// (0, 1 for an error, 2 for bad usage, 75 for a build or verify stopped
/// by `--stop-after`).
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    match dispatch(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            if let Some(stop @ build::BuildError::Stopped(_)) = e.downcast_ref() {
                // Not an error: the build stopped where it was told to.
                errln!("{stop}");
                return ExitCode::from(STOPPED);
            }
            if let Some(stop) = e.downcast_ref::<Stopped>() {
                errln!("{stop}");
                return ExitCode::from(STOPPED);
            }
            let chain: Vec<String> = e.chain().map(|c| c.to_string()).collect();
            errln!("error: {}", chain.join(": "));
            ExitCode::from(1)
        }
    }
}

/// Run one command.
fn dispatch(command: Command) -> Result<()> {
    match command {
        Command::Rules { variant, json } => output::rules(variant.as_deref(), json),
        Command::Show(args) => show(&args),
        Command::Moves(args) => moves(&args),
        Command::Perft { pos, depth } => perft(&pos, depth),
        Command::Solve { pos, threads } => solve(&pos, threads),
        Command::Query {
            floor: Some(k),
            pos,
            tables,
            threads,
            assume,
        } => floor_query(&pos, &tables, threads, k, assume.map(Assume::from)),
        Command::Query {
            pos,
            tables,
            threads,
            ..
        } => query(&pos, &tables, threads),
        Command::Line {
            pos,
            tables,
            depth,
            bound,
            threads,
            floor,
        } => line(&pos, &tables, depth, bound, threads, floor.get()?),
        Command::Build(args) => build_tables(args),
        Command::Verify(args) => verify_tables(args),
        Command::Bench(args) => bench::run(args),
        Command::Report(args) => report::run(args),
        Command::Repack(args) => repack::run(args),
        Command::Info { tables, json } => info(&tables, json),
        Command::CheckFloor {
            variant,
            tables,
            floor,
            threads,
            json,
        } => check_floor(&variant, &tables, floor, threads, json),
        Command::Plan(args) => plan::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Help { command } => help(command),
    }
}

/// `asalto show`: draw a position.
fn show(args: &PositionArgs) -> Result<()> {
    let (variant, pos) = args.parse()?;
    output::show(&pos, &variant, args.json);
    Ok(())
}

/// `asalto moves`: list a position's legal moves.
fn moves(args: &PositionArgs) -> Result<()> {
    let (variant, pos) = args.parse()?;
    output::moves(&pos, &variant, args.json);
    Ok(())
}

/// `asalto perft`: count the move sequences of each depth up to `depth`.
fn perft(pos: &PositionArgs, depth: u32) -> Result<()> {
    let (variant, p) = pos.parse()?;
    let counts: Vec<(u32, u64)> = (depth.min(1)..=depth)
        .map(|d| (d, rules::perft(&p, &variant, d)))
        .collect();
    if pos.json {
        let perft: Vec<_> = counts
            .iter()
            .map(|&(d, n)| serde_json::json!({"depth": d, "nodes": n}))
            .collect();
        outln!(
            "{}",
            serde_json::json!({"position": p.to_string(),
                "variant": variant.to_string(), "perft": perft})
        );
    } else {
        for (d, n) in counts {
            outln!("perft {d} {n}");
        }
    }
    Ok(())
}

/// `asalto solve`: value a position by solving its tiers in memory.
fn solve(pos: &PositionArgs, threads: usize) -> Result<()> {
    let (variant, p) = pos.parse()?;
    let (analysis, summary) = on_demand(&p, &variant, None, threads)?;
    if let (Some(s), false) = (summary, pos.json) {
        errln!("{s}");
    }
    output::analysis(&analysis, &variant, pos.json);
    Ok(())
}

/// `asalto query`: value a position from the tables under `tables`,
/// solving the tiers whose file is missing.
fn query(pos: &PositionArgs, tables: &std::path::Path, threads: usize) -> Result<()> {
    let (variant, p) = pos.parse()?;
    check_tables_dir(tables)?;
    let (analysis, summary) = on_demand(&p, &variant, Some(tables), threads)?;
    if let (Some(s), false) = (summary, pos.json) {
        errln!("{s}");
    }
    output::analysis(&analysis, &variant, pos.json);
    Ok(())
}

/// `asalto query --floor K [--assume SIDE]`: what the files above the
/// floor prove of a position, under one assumption or both (then with
/// the bracket they give together).
fn floor_query(
    pos: &PositionArgs,
    tables: &std::path::Path,
    threads: usize,
    k: u8,
    assume: Option<Assume>,
) -> Result<()> {
    let (variant, p) = pos.parse()?;
    check_tables_dir(tables)?;
    let soldiers = p.soldiers().count_ones() as u8;
    if soldiers < k {
        bail!(
            "{p} has {soldiers} soldiers, below the floor of {k}: the files above the floor say nothing of it"
        );
    }
    let floors: Vec<Floor> = match assume {
        Some(a) => vec![Floor::new(k, a)?],
        None => [Assume::Officers, Assume::Soldiers]
            .into_iter()
            .filter_map(|a| Floor::new(k, a).ok())
            .filter(|f| tables.join(f.folder()).is_dir())
            .collect(),
    };
    if floors.is_empty() {
        bail!(
            "no floor files under {}: neither floor-{k}-officers/ nor floor-{k}-soldiers/ is there (build them with asalto build --floor {k} --assume officers|soldiers, or say --assume to solve above the floor in memory)",
            tables.display()
        );
    }
    let mut found = Vec::new();
    for floor in floors {
        let (analysis, note) =
            on_demand_with(&p, &variant, Some(tables), threads, Some(floor), |store| {
                probe::analyse(store, &variant, &p)
            })?;
        if let (Some(note), false) = (note, pos.json) {
            errln!("{}: {note}", floor.folder());
        }
        found.push((floor, analysis));
    }
    output::floor_analysis(&probe::Bracket { found }, &variant, pos.json);
    Ok(())
}

/// `asalto line`: a won position's game to its end, or a drawn
/// position's tree of replies, from the tables under `tables` (the tiers
/// they lack solved in memory first).
fn line(
    pos: &PositionArgs,
    tables: &std::path::Path,
    depth: u32,
    bound: u64,
    threads: usize,
    floor: Option<Floor>,
) -> Result<()> {
    use asalto_tb::line::{self, LineError};
    let (variant, p) = pos.parse()?;
    check_tables_dir(tables)?;
    enum Found {
        Line(line::Line),
        Tree(line::ReplyNode),
    }
    // The search's positions entered, against its bound: a bar, or in a
    // log (no bar) a line every few seconds.
    let bar = progress_bar(
        bound,
        "searching a line (positions entered, of at most --bound)",
    );
    let to_log = !std::io::IsTerminal::is_terminal(&std::io::stderr());
    let log = std::sync::Mutex::new(bars::LogLines::bounded("line search".into()));
    let progress = |q: &Progress| {
        bar.set_position(q.done);
        if to_log {
            log.lock().expect("log lock").tick(q);
        }
    };
    let (found, note) =
        on_demand_with(
            &p,
            &variant,
            Some(tables),
            threads,
            floor,
            |store| match line::winning_line(store, &variant, &p, bound, &progress) {
                Ok(l) => Ok(Ok(Found::Line(l))),
                Err(LineError::Draw(_)) => Ok(Ok(Found::Tree(line::reply_tree(
                    store, &variant, &p, depth,
                )?))),
                Err(LineError::Solve(e)) => Err(e),
                Err(e) => Ok(Err(e)),
            },
        )?;
    bar.finish_and_clear();
    if let (Some(note), false) = (note, pos.json) {
        errln!("{note}");
    }
    match found? {
        Found::Line(l) if floor.is_some() => {
            real_line(&l, &variant, floor.expect("a floor"))?;
            output::line(&l, &variant, pos.json)
        }
        Found::Tree(_) if floor.is_some() => bail!(
            "{}: a draw above the floor ({}) is a bound, not a line of the real game: no line printed",
            p,
            floor.expect("a floor")
        ),
        Found::Line(l) => output::line(&l, &variant, pos.json),
        Found::Tree(t) => output::reply_tree(&t, &variant, depth, pos.json),
    }
    Ok(())
}

/// Check that `l`, a line of the game above `floor`, is a line of the
/// real game: its winner is the side the floor proves wins, every
/// position keeps the floor's soldiers, every move is legal by the rules
/// and the last position is the game's end by the rules, won by that
/// side.
fn real_line(l: &asalto_tb::line::Line, variant: &Variant, floor: Floor) -> Result<()> {
    let proved = match floor.assume() {
        Assume::Officers => asalto_tb::Side::Soldiers,
        Assume::Soldiers => asalto_tb::Side::Officers,
    };
    if l.winner != proved {
        bail!(
            "{}: the {} win above the floor ({floor}), which proves nothing of the real game: no line printed",
            l.start,
            l.winner.name()
        );
    }
    let mut at = l.start;
    for s in &l.steps {
        if !rules::legal_moves(&at, variant).contains(&s.mv)
            || rules::play(&at, variant, &s.mv) != s.after
        {
            bail!("{at}: the line's move {} is not what the rules play", s.mv);
        }
        at = s.after;
        if at.soldiers().count_ones() < u32::from(floor.k()) {
            bail!("{at}: the line falls below the floor of {}", floor.k());
        }
    }
    match rules::outcome(&at, variant) {
        Some(w) if w == proved => Ok(()),
        _ => bail!(
            "{at}: the line does not end with the {}' win by the rules",
            proved.name()
        ),
    }
}

/// `asalto build`: build table files.
fn build_tables(args: BuildArgs) -> Result<()> {
    let opts = build::BuildOptions {
        threads: args.threads,
        memory: args.memory.unwrap_or_else(MemoryBudget::machine_default),
        window_bytes: args.window_bytes,
        block_cache_bytes: args.block_cache,
        checkpoint_secs: args.checkpoint_secs,
        stop_at: args.stop_after.map(|d| std::time::Instant::now() + d),
        stop_flag: Some(stop_on_signals()?),
        write: asalto_tb::table::WriteOptions {
            zstd_level: args.level,
            floor: args.floor.get()?,
            ..asalto_tb::table::WriteOptions::of_kind(args.wdl_only)
        },
        engine: args
            .engine
            .map_or(asalto_tb::solve::Engine::BitSets, flags::EngineArg::engine),
        ..build::BuildOptions::default()
    };
    let floor = opts.write.floor;
    let soldiers = match (args.soldiers, floor) {
        (Some(s), Some(f)) if s.0 < f.k() => bail!(
            "--soldiers {}..={}: a build above the floor of {} holds files with {}..=24 soldiers only",
            s.0,
            s.1,
            f.k(),
            f.k()
        ),
        (Some(s), _) => s,
        (None, Some(f)) => Soldiers(f.k(), 24),
        (None, None) => Soldiers(9, 9),
    };
    let job = BuildJob {
        variants: args.variants,
        soldiers,
        only_for: args.only_for,
        tables: args.tables,
        ignore_disk: args.ignore_disk,
        json: args.json,
    };
    run_build_job(job, opts)
}

/// Run a build job: on this process alone, or, built with the feature
/// `mpi`, as one rank of an MPI job (an error on one rank ends them all).
fn run_build_job(job: BuildJob, opts: build::BuildOptions) -> Result<()> {
    #[cfg(feature = "mpi")]
    {
        let mpi = build::MpiRanks::init()?;
        let opts = build::BuildOptions {
            cluster: mpi.cluster(),
            ..opts
        };
        let r = job.run(&opts);
        let stopped =
            |e: &anyhow::Error| matches!(e.downcast_ref(), Some(build::BuildError::Stopped(_)));
        if let (Err(e), true) = (&r, build::Ranks::size(&*mpi) > 1) {
            if stopped(e) {
                // Every rank stopped at the same checkpoint.
                return r;
            }
            // The other ranks would wait for this one forever.
            let chain: Vec<String> = e.chain().map(|c| c.to_string()).collect();
            errln!(
                "error on rank {}: {}",
                build::Ranks::rank(&*mpi),
                chain.join(": ")
            );
            mpi.abort(1);
        }
        r
    }
    #[cfg(not(feature = "mpi"))]
    job.run(&opts)
}

/// `asalto verify`: check built tables, with a progress bar (and log
/// lines when stderr is not a terminal).
fn verify_tables(args: VerifyArgs) -> Result<()> {
    let variant: Variant = args.variant.parse()?;
    let range = args.soldiers.map_or((9, 24), |s| (s.0, s.1));
    let proved = match &args.proved_by {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read --proved-by {}", path.display()))?;
            let name = path.display().to_string();
            Some((name.clone(), verify::proved_files(&text, &name, &variant)?))
        }
        None => None,
    };
    let opts = verify::VerifyOptions {
        proved,
        floor: args.floor.get()?,
        soldiers: range,
        threads: args.threads,
        limit: args.show,
        resume: args.resume,
        stop_at: args.stop_after.map(|d| std::time::Instant::now() + d),
        stop_flag: Some(stop_on_signals()?),
        checker: args.checker.into(),
        ..verify::VerifyOptions::default()
    };
    let bar = progress_bar(0, "verifying");
    // In a log (no bar): a line for each file done, and a
    // line every few seconds; the positions checked by earlier runs
    // (their records) are not this run's.
    let to_log = !std::io::IsTerminal::is_terminal(&std::io::stderr());
    let log = std::sync::Mutex::new(bars::VerifyLines::default());
    let progress = |p: &Progress| {
        bar.set_length(p.total);
        bar.set_position(p.done);
        if !p.step.is_empty() {
            bar.set_message(format!("verifying {}", p.step));
        }
        if to_log {
            log.lock().expect("log lock").tick(p);
        }
    };
    check_tables_dir(&args.tables)?;
    let report = verify::verify(&args.tables, &variant, &opts, &progress)?;
    bar.finish_and_clear();
    if to_log {
        log.lock()
            .expect("log lock")
            .finish(report.stopped.is_some());
    }
    if !args.resume && report.stopped.is_none() {
        // A run that completed leaves no records behind (those of an
        // interrupted or stopped run stay, for --resume).
        verify::remove_records(&report)?;
    }
    output::verify(&report, &variant, args.json);
    // Every file was checked that could be: the first failure is the
    // error, the others are named (their errors are in the output).
    if let Some(first) = report.failed.first() {
        let name = |p: &std::path::Path| {
            p.file_name().map_or_else(
                || p.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            )
        };
        let error = if first.error.contains(&name(&first.path)) {
            first.error.clone()
        } else {
            format!("{}: {}", first.path.display(), first.error)
        };
        let others: Vec<String> = report.failed[1..].iter().map(|f| name(&f.path)).collect();
        bail!(
            "{error}{}{}",
            match others.len() {
                0 => String::new(),
                n => format!(
                    "; {n} more file{} could not be checked: {} (each error in the output)",
                    if n == 1 { "" } else { "s" },
                    others.join(", ")
                ),
            },
            if report.bad_count > 0 {
                format!(
                    ", and {} stored values disagree with their successors",
                    report.bad_count
                )
            } else {
                String::new()
            }
        );
    }
    if report.bad_count > 0 {
        bail!(
            "{} stored values disagree with their successors",
            report.bad_count
        );
    }
    match report.stopped {
        Some(stop) => Err(Stopped(stop.to_string()).into()),
        None => Ok(()),
    }
}

/// `asalto info`: describe the table files under `tables`; an error if
/// some cannot be read.
/// `asalto check-floor`: the files above the floor `k` against the exact
/// files, every position (`bracket::check`); exit 1 when any lies outside
/// its bracket.
fn check_floor(
    variant: &str,
    tables: &std::path::Path,
    k: u8,
    threads: usize,
    json: bool,
) -> Result<()> {
    let variant: Variant = variant.parse()?;
    check_tables_dir(tables)?;
    if !tables.is_dir() {
        bail!("--tables {} does not exist", tables.display());
    }
    let bar = progress_bar(0, "comparing");
    let to_log = !std::io::IsTerminal::is_terminal(&std::io::stderr());
    let log = std::sync::Mutex::new(None::<(String, bars::LogLines)>);
    let progress = |p: &Progress| {
        bar.set_length(p.total);
        bar.set_position(p.done);
        bar.set_message(format!("comparing {}", p.step));
        if to_log {
            let mut l = log.lock().expect("log lock");
            if l.as_ref().is_none_or(|(step, _)| step != p.step) {
                *l = Some((
                    p.step.to_string(),
                    bars::LogLines::new(format!("check-floor {}", p.step)),
                ));
            }
            if let Some((_, lines)) = l.as_mut() {
                lines.tick(p);
            }
        }
    };
    let started = std::time::Instant::now();
    let c = asalto_tb::bracket::check(tables, &variant, k, threads, &progress)?;
    bar.finish_and_clear();
    output::check_floor(&c, &variant, started.elapsed().as_secs_f64(), json);
    if c.outside() > 0 {
        bail!(
            "{} positions lie outside their bracket: a floor or a build is wrong",
            c.outside()
        );
    }
    Ok(())
}

fn info(tables: &std::path::Path, json: bool) -> Result<()> {
    check_tables_dir(tables)?;
    if !tables.exists() {
        bail!("--tables {}: no such folder", tables.display());
    }
    let bad = output::info(tables, json);
    if bad > 0 {
        bail!(
            "{bad} table file{} under {} cannot be read",
            if bad == 1 { "" } else { "s" },
            tables.display()
        );
    }
    Ok(())
}

/// `asalto help`: the long help of every command, or of `command`.
fn help(command: Option<String>) -> Result<()> {
    use clap::CommandFactory;
    let mut cli = Cli::command();
    match command {
        None => cli.print_long_help()?,
        Some(name) => match cli.find_subcommand_mut(&name) {
            Some(sub) => sub
                .clone()
                .bin_name(format!("asalto {name}"))
                .print_long_help()?,
            None => bail!("no command '{name}': asalto help lists them"),
        },
    }
    Ok(())
}

/// A flag the first Ctrl-C (SIGINT) or SIGTERM sets: a build or a verify
/// then stops at its next chunk as at `--stop-after`, with its checkpoint
/// or record written (exit status 75; the same command goes on). A second
/// one ends the process at once (status 130), as a kill would: the last
/// checkpoint still holds.
fn stop_on_signals() -> Result<std::sync::Arc<std::sync::atomic::AtomicBool>> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    for signal in [SIGINT, SIGTERM] {
        // The shutdown first: it looks at the flag before the second
        // action sets it, so only a second signal ends the process.
        signal_hook::flag::register_conditional_shutdown(signal, 130, flag.clone())
            .context("cannot listen for Ctrl-C")?;
        signal_hook::flag::register(signal, flag.clone()).context("cannot listen for Ctrl-C")?;
    }
    Ok(flag)
}

/// A progress bar over positions for a multi-tier solve.
fn progress_bar(total: u64, label: &str) -> ProgressBar {
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template(
            "{msg} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} positions ({per_sec}, eta {eta})",
        )
        .expect("valid template"),
    );
    bar.set_message(label.to_string());
    bar
}

fn summary(stats: &Stats) -> String {
    format!(
        "{} tiers, {} positions in {:.2} s ({:.3e} positions/s)",
        stats.tiers,
        stats.positions,
        stats.seconds,
        stats.rate()
    )
}

/// The bar of an on-demand solve, and a warning when it is large.
struct SolveBar(ProgressBar);

impl Observer for SolveBar {
    fn progress(&self, p: &Progress<'_>) {
        if p.tiers_done == 0 {
            // The solve starts.
            if p.total > 50_000_000 {
                errln!(
                    "solving {} tiers ({} positions) in memory; this may take a while (Ctrl-C stops it)",
                    p.tiers_total,
                    p.total
                );
            }
            self.0.set_length(p.total);
        }
        self.0.set_position(p.done);
    }
}

/// Run `f` on a store holding every value `pos` can lead to: the tables
/// under `tables` (when given) and the tiers they lack solved in memory
/// first, with a bar; a solve too large is refused with what the tables
/// would cost. With `f`'s result, the note on what was solved, if anything.
fn on_demand_with<R>(
    pos: &Position,
    variant: &Variant,
    tables: Option<&std::path::Path>,
    threads: usize,
    floor: Option<Floor>,
    f: impl FnOnce(&dyn asalto_tb::solve::TierStore) -> Result<R, asalto_tb::solve::SolveError>,
) -> Result<(R, Option<String>)> {
    let options = ondemand::Options {
        threads,
        ..ondemand::Options::default()
    };
    let bar = SolveBar(progress_bar(0, "solving"));
    let set = tables.map(|dir| TableSet::open_floored(dir, variant, floor));
    let found = ondemand::with_store(pos, variant, set.as_ref(), &options, &bar, f);
    bar.0.finish_and_clear();
    let (found, stats) = match found {
        Err(ondemand::OnDemandError::TooLarge {
            position, limit, ..
        }) => {
            bail!(
                "{}",
                asalto_tb::plan::refusal(&position, variant, limit, tables, threads)
            )
        }
        other => other?,
    };
    let note = stats.map(|stats| match tables {
        Some(dir) => format!(
            "tables missing under {}: solved on demand. {}",
            dir.display(),
            summary(&stats)
        ),
        None => summary(&stats),
    });
    Ok((found, note))
}

/// Value `pos` and its moves ([`on_demand_with`]).
fn on_demand(
    pos: &Position,
    variant: &Variant,
    tables: Option<&std::path::Path>,
    threads: usize,
) -> Result<(asalto_tb::probe::Analysis, Option<String>)> {
    on_demand_with(pos, variant, tables, threads, None, |store| {
        probe::analyse(store, variant, pos)
    })
}

/// Refuse a build whose estimated disk does not fit the free disk of
/// `dir` (unless `ignore`).
fn check_disk(
    the_plan: &asalto_tb::plan::Plan,
    dir: &std::path::Path,
    ignore: bool,
    wdl_only: bool,
) -> Result<()> {
    let e = the_plan.estimate();
    let disk = if wdl_only {
        e.disk_bytes_wdl_only
    } else {
        e.disk_bytes
    };
    match asalto_tb::plan::free_bytes(dir) {
        Ok(free) if disk > free && !ignore => bail!(
            "the tables would take about {} and {} has {} free: not started (asalto plan for the estimate, --ignore-disk to start anyway)",
            plan::bytes(disk),
            dir.display(),
            plan::bytes(free)
        ),
        _ => Ok(()),
    }
}

/// The arguments of `asalto build` the run needs besides its options.
struct BuildJob {
    variants: VariantChoice,
    soldiers: Soldiers,
    only_for: Option<String>,
    tables: PathBuf,
    ignore_disk: bool,
    json: bool,
}

impl BuildJob {
    /// Build, report, on every rank of `opts.cluster` (rank 0 alone
    /// speaks; the others build silently).
    fn run(self, opts: &build::BuildOptions) -> Result<()> {
        let Soldiers(k_min, k_max) = self.soldiers;
        let (json, floor) = (self.json, opts.write.floor);
        // The files' folder: the tables folder, or a floor's in it.
        let files_dir = Floor::dir_under(&self.tables, floor);
        let tables = &self.tables;
        let root = opts.cluster.rank() == 0;
        check_tables_dir(tables)?;
        let target = match &self.only_for {
            Some(text) => Some(
                Position::from_arg(text)
                    .with_context(|| format!("bad position '{}'", text.escape_debug()))?,
            ),
            None => None,
        };
        let mut all = Vec::new();
        for variant in self.variants.list()? {
            let start = std::time::Instant::now();
            let mut the_plan = match &target {
                Some(p) => asalto_tb::plan::for_position(&variant, p)?,
                None => asalto_tb::plan::complete(&variant, k_min, k_max)?,
            }
            .wdl_only(opts.write.wdl_only)
            .above_floor(floor);
            the_plan.mark_built(&files_dir);
            if !json && root {
                errln!(
                    "build {variant} under {}{}{}: {}",
                    files_dir.display(),
                    match floor {
                        Some(f) => format!(" above the floor ({f})"),
                        None => String::new(),
                    },
                    match opts.cluster.size() {
                        1 => String::new(),
                        n => format!(" on {n} ranks"),
                    },
                    plan::summary_line(&the_plan)
                );
            }
            check_budget(&the_plan, opts, !json && root)?;
            // A folder that cannot be made is said so, not taken for a full disk.
            std::fs::create_dir_all(tables)
                .with_context(|| format!("cannot create the tables folder {}", tables.display()))?;
            check_disk(&the_plan, tables, self.ignore_disk, opts.write.wdl_only)?;
            // Only rank 0 draws progress. With --json the log lines still
            // go to stderr (stdout has the JSON): a long build's log then
            // records each file as it is done, even if the run is killed.
            let observer = bars::BuildBars::new(&variant, !root);
            let quiet = asalto_tb::build::Quiet;
            let watch: &dyn build::BuildObserver = if root { &observer } else { &quiet };
            let built = match &target {
                Some(p) => {
                    let mut tiers = ondemand::needed_tiers(p, &variant, |_| false, u64::MAX)?;
                    if let Some(f) = floor {
                        tiers.retain(|t| !f.covers(t));
                    }
                    if tiers.is_empty() {
                        bail!("the game is over in {p}: it needs no tables");
                    }
                    build::build_tiers(tables, &variant, &tiers, opts, watch)
                }
                None => build::build(tables, &variant, k_min, k_max, opts, watch),
            };
            observer.finish();
            match built {
                Ok(reports) => all.push((variant, reports, start.elapsed().as_secs_f64())),
                Err(build::BuildError::Stopped(stop)) => {
                    // What was done is reported; the stop is the exit status.
                    all.push((variant, stop.files.clone(), start.elapsed().as_secs_f64()));
                    if root {
                        let size = opts.cluster.size();
                        output::build_summary(&all, tables, size, json, Some(&stop));
                    }
                    return Err(build::BuildError::Stopped(stop).into());
                }
                Err(e) => return Err(e.into()),
            }
        }
        if root {
            output::build_summary(&all, tables, opts.cluster.size(), json, None);
        }
        Ok(())
    }
}

/// Whether the memory budget of `opts` holds `the_plan`'s build, before
/// any file: the file whose build starts with the most, with the block
/// cache asked for (the build's own refusal, said once); with `say`, the
/// plan's memory line on stderr.
fn check_budget(
    the_plan: &asalto_tb::plan::Plan,
    opts: &build::BuildOptions,
    say: bool,
) -> Result<()> {
    if let Some(need) = the_plan.neediest()
        && let Err(e) = opts.memory.share(&need, opts.block_cache_bytes)
    {
        bail!("{e}; not started");
    }
    if say && let Some(line) = plan::memory_line(the_plan, opts.memory) {
        errln!("{line}");
    }
    Ok(())
}
