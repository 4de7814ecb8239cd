//! The `asalto` command line: argument parsing (clap), turning arguments
//! into the library's types, progress bars and output. All the work is done
//! by the library; this module only prints.
//!
//! Exit codes: 0 success, 1 an error (bad position, unknown variant, a
//! table problem, ...), 2 a usage error reported by the argument parser.

// The doc comments of the argument structs are `--help` text (clap), where
// placeholders such as <tables> read as meant; rustdoc would take them for
// HTML tags.
#![allow(rustdoc::invalid_html_tags)]

mod bars;
mod bench;
mod output;
mod repack;
mod report;

use anyhow::{Context, Result, bail};
use asalto_tb::probe;
use asalto_tb::solve::{Progress, Stats};
use asalto_tb::table::TableSet;
use asalto_tb::{Position, Variant, build, ondemand, rules, verify};
use clap::{Args, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;
use std::process::ExitCode;

const POSITION_HELP: &str = "Position: notation '<board> <side> [<huff>]' (docs/RULES.md section 9; \
quote it or pass it as separate words), 'start' (officers on c6 e6) or 'start:c7,e5'";

pub(crate) const VARIANT_HELP: &str = "Rule variant: a preset (assaut, assaut-mdj, asalto, assault) or \
soldiers=closer|forward,capture=huff|mandatory|free,max=on|off,trapped=soldiers-win|soldiers-lose";

/// Solver and tablebase tool for Asalto (Assaut, Officers and Sepoys).
///
/// Two officers defend a nine-point fortress against twenty-four soldiers.
/// This tool generates moves, solves positions exactly (win / draw / loss and
/// the distance in plies, by retrograde analysis) and reports on rule
/// variants. See `asalto rules` for the variants.
#[derive(Parser)]
#[command(name = "asalto", version, about, long_about, after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

const EXAMPLES: &str = "Examples:
  asalto rules                                  list the rule presets
  asalto show start                             draw the start position
  asalto moves --variant asalto start:c7,e7     legal moves, officers on c7 e7
  asalto perft --depth 3 start                  count move sequences
  asalto query 'SSS/SSS/O1SS3/4S2/6O/3/3 s'     value of a position and its moves

Exit codes: 0 success, 1 error (bad input, unknown variant, table problem), 2 usage error.";

#[derive(Subcommand)]
enum Command {
    /// List the rule presets, or explain one variant's switches.
    Rules {
        /// A variant to explain (leave out to list the presets).
        #[arg(long, short)]
        variant: Option<String>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Draw a position, say whose turn it is and whether the game is over.
    Show(PositionArgs),
    /// List the legal moves of a position, one per line in move notation.
    ///
    /// Faults (under capture=huff) are marked with the officers they expose
    /// to a huff.
    Moves(PositionArgs),
    /// Count move sequences: one line `perft <d> <nodes>` for d = 1..=DEPTH.
    Perft {
        #[command(flatten)]
        pos: PositionArgs,
        /// Largest depth.
        #[arg(long, short)]
        depth: u32,
    },
    /// Solve the tiers a position needs, in memory, and print its value.
    Solve {
        #[command(flatten)]
        pos: PositionArgs,
        /// Worker threads (1 = serial; default: one per core).
        #[arg(long, short, default_value_t = 0)]
        threads: usize,
    },
    /// Value of a position and of every legal move, best first.
    ///
    /// Reads the table files under --tables; tiers whose file is missing are
    /// solved on demand in memory (saying how many first).
    Query {
        #[command(flatten)]
        pos: PositionArgs,
        /// Folder of table files.
        #[arg(long, default_value = "tables")]
        tables: PathBuf,
        /// Worker threads for on-demand solving (1 = serial; default: one per core).
        #[arg(long, short, default_value_t = 0)]
        threads: usize,
    },
    /// Build table files: every position with the given soldier counts,
    /// one and two officers, solved exactly.
    ///
    /// Files go to <tables>/<variant>/<n>o<k>s.atb, written under a
    /// temporary name and renamed when complete. Files already built are
    /// skipped, so an interrupted build resumes where it stopped.
    Build {
        #[command(flatten)]
        variants: VariantChoice,
        /// Soldier counts: K (meaning 9..=K), or A..=B.
        #[arg(long, short, default_value = "9", conflicts_with = "only_for")]
        soldiers: String,
        /// Build only the tiers this position needs (partial files, enough to
        /// query it and every position it can reach).
        #[arg(long = "for", value_name = "POSITION", allow_hyphen_values = true)]
        only_for: Option<String>,
        /// Folder of table files.
        #[arg(long, default_value = "tables")]
        tables: PathBuf,
        /// Worker threads (1 = serial; default: one per core). Files are
        /// byte-identical whatever the count.
        #[arg(long, short, default_value_t = 0)]
        threads: usize,
        /// Print the summary as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Check built tables: every block checksum, then every stored value
    /// against the values of its moves. Exit 1 on any problem.
    Verify {
        #[arg(long, short, default_value = "assaut", help = VARIANT_HELP)]
        variant: String,
        /// Folder of table files.
        #[arg(long, default_value = "tables")]
        tables: PathBuf,
        /// Worker threads (default: one per core).
        #[arg(long, short, default_value_t = 0)]
        threads: usize,
        /// Print at most this many inconsistent positions.
        #[arg(long, default_value_t = 10)]
        show: usize,
        /// Only the tables with these soldier counts: K (9..=K) or A..=B,
        /// e.g. 10..=10 for the 10-soldier tables alone (the lower tables
        /// they read are taken as they are). Default: every table present.
        #[arg(long, short)]
        soldiers: Option<String>,
        /// Take up where an earlier run stopped: each file's tiers are
        /// checked in chunks and a record of how far it got is kept beside
        /// it (<file>.verify); with --resume a record matching the file is
        /// continued (a complete one: the file is not checked again, only
        /// its checksums). A record names its file's contents, not those of
        /// the lower files it read: after rebuilding a lower file, verify
        /// without --resume. Without it every value is checked anew.
        #[arg(long)]
        resume: bool,
        /// Print the result as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Measure speed and size: solving rate (1 and 2 threads), optionally a
    /// full build, table size per position, probe time, query process time.
    /// Writes scripts/bench-runs/<date>-<host>/bench.json.
    Bench(bench::BenchArgs),
    /// Variant-balance report from the tables: win/draw/loss shares, longest
    /// wins, critical mass and rule sensitivity, as Markdown, JSON, CSV and
    /// SVG plots in one folder.
    ///
    /// Exit 1 naming the missing tables when some are missing (unless
    /// --build or --allow-missing). Partial tables (built with `build --for`)
    /// are reported over the tiers they hold, and the report says so.
    Report(report::ReportArgs),
    /// Rewrite table files with other block sizes or zstd level, or in the
    /// current format version (after an upgrade), without solving: the
    /// values are read back and written again, bit for bit the same.
    ///
    /// Each file is written under a temporary name and renamed over its
    /// old one (or into --out) when complete; an interrupted run leaves the
    /// old files as they were.
    Repack(repack::RepackArgs),
    /// List the table files present, with their variant, sizes and counts.
    Info {
        /// Folder of table files.
        #[arg(long, default_value = "tables")]
        tables: PathBuf,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Args)]
struct VariantChoice {
    #[arg(long, short, default_value = "assaut", help = VARIANT_HELP, conflicts_with = "all_presets")]
    variant: String,
    /// All four presets, one after the other.
    #[arg(long)]
    all_presets: bool,
}

impl VariantChoice {
    fn list(&self) -> Result<Vec<Variant>> {
        if self.all_presets {
            Ok(Variant::PRESETS.iter().map(|(_, v, _)| *v).collect())
        } else {
            Ok(vec![self.variant.parse()?])
        }
    }
}

/// Parse `K`, `A..=B` or `A-B` into an inclusive soldier range.
fn soldier_range(text: &str) -> Result<(u8, u8)> {
    let t = text.trim();
    let (a, b) = if let Some((a, b)) = t.split_once("..=") {
        (a.trim().parse::<u8>(), b.trim().parse::<u8>())
    } else if let Some((a, b)) = t.split_once('-') {
        (a.trim().parse::<u8>(), b.trim().parse::<u8>())
    } else {
        (Ok(9), t.parse::<u8>())
    };
    match (a, b) {
        (Ok(a), Ok(b)) if (9..=24).contains(&a) && (a..=24).contains(&b) => Ok((a, b)),
        _ => bail!("bad soldier range '{text}': use K (9..=K) or A..=B, within 9..=24"),
    }
}

#[derive(Args)]
struct PositionArgs {
    #[arg(long, short, default_value = "assaut", help = VARIANT_HELP)]
    variant: String,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    #[arg(required = true, num_args = 1.., allow_hyphen_values = true, help = POSITION_HELP)]
    position: Vec<String>,
}

impl PositionArgs {
    fn parse(&self) -> Result<(Variant, Position)> {
        let variant: Variant = self.variant.parse()?;
        let text = self.position.join(" ");
        let pos = Position::from_arg(&text).with_context(|| format!("bad position '{text}'"))?;
        probe::check_position(&pos, &variant).map_err(anyhow::Error::msg)?;
        Ok((variant, pos))
    }
}

/// Parse the arguments, run the command, print errors once; the exit code.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    match dispatch(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let chain: Vec<String> = e.chain().map(|c| c.to_string()).collect();
            eprintln!("error: {}", chain.join(": "));
            ExitCode::from(1)
        }
    }
}

fn dispatch(command: Command) -> Result<()> {
    match command {
        Command::Rules { variant, json } => output::rules(variant.as_deref(), json),
        Command::Show(args) => {
            let (variant, pos) = args.parse()?;
            output::show(&pos, &variant, args.json);
            Ok(())
        }
        Command::Moves(args) => {
            let (variant, pos) = args.parse()?;
            output::moves(&pos, &variant, args.json);
            Ok(())
        }
        Command::Perft { pos, depth } => {
            let (variant, p) = pos.parse()?;
            for d in 1..=depth {
                println!("perft {d} {}", rules::perft(&p, &variant, d));
            }
            Ok(())
        }
        Command::Solve { pos, threads } => {
            let (variant, p) = pos.parse()?;
            let (analysis, summary) = on_demand(&p, &variant, None, threads)?;
            if let (Some(s), false) = (summary, pos.json) {
                eprintln!("{s}");
            }
            output::analysis(&analysis, &variant, pos.json);
            Ok(())
        }
        Command::Query {
            pos,
            tables,
            threads,
        } => {
            let (variant, p) = pos.parse()?;
            let (analysis, summary) = on_demand(&p, &variant, Some(&tables), threads)?;
            if let (Some(s), false) = (summary, pos.json) {
                eprintln!("{s}");
            }
            output::analysis(&analysis, &variant, pos.json);
            Ok(())
        }
        Command::Build {
            variants,
            soldiers,
            only_for,
            tables,
            threads,
            json,
        } => {
            let (k_min, k_max) = soldier_range(&soldiers)?;
            let target = match &only_for {
                Some(text) => Some(
                    Position::from_arg(text).with_context(|| format!("bad position '{text}'"))?,
                ),
                None => None,
            };
            let mut all = Vec::new();
            for variant in variants.list()? {
                let start = std::time::Instant::now();
                let observer = bars::BuildBars::new(&variant, json);
                let reports = match &target {
                    Some(p) => {
                        let tiers = ondemand::needed_tiers(p, &variant, |_| false, u64::MAX)?;
                        if tiers.is_empty() {
                            bail!("the game is over in {p}: it needs no tables");
                        }
                        build::build_tiers(&tables, &variant, &tiers, threads, &observer)?
                    }
                    None => build::build(&tables, &variant, k_min, k_max, threads, &observer)?,
                };
                observer.finish();
                all.push((variant, reports, start.elapsed().as_secs_f64()));
            }
            output::build_summary(&all, &tables, json);
            Ok(())
        }
        Command::Verify {
            variant,
            tables,
            threads,
            show,
            soldiers,
            resume,
            json,
        } => {
            let variant: Variant = variant.parse()?;
            let range = match soldiers {
                Some(s) => soldier_range(&s)?,
                None => (9, 24),
            };
            let opts = verify::VerifyOptions {
                soldiers: range,
                threads,
                limit: show,
                resume,
                ..verify::VerifyOptions::default()
            };
            let bar = progress_bar(0, "verifying");
            let progress = |done: u64, total: u64| {
                bar.set_length(total);
                bar.set_position(done);
            };
            let report = verify::verify(&tables, &variant, &opts, &progress)?;
            bar.finish_and_clear();
            output::verify(&report, &variant, json);
            if report.bad_count > 0 {
                bail!(
                    "{} stored values disagree with their successors",
                    report.bad_count
                );
            }
            Ok(())
        }
        Command::Bench(args) => bench::run(args),
        Command::Report(args) => report::run(args),
        Command::Repack(args) => repack::run(args),
        Command::Info { tables, json } => {
            output::info(&tables, json);
            Ok(())
        }
    }
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

impl ondemand::Observer for SolveBar {
    fn start(&self, tiers: usize, positions: u64) {
        if positions > 50_000_000 {
            eprintln!(
                "solving {tiers} tiers ({positions} positions) in memory; this may take a while (Ctrl-C stops it)"
            );
        }
        self.0.set_length(positions);
    }

    fn progress(&self, p: &Progress) {
        self.0.set_position(p.positions_done);
    }
}

/// Value a position from the tables under `tables`, or from nothing
/// (`tables` `None`: `asalto solve`), solving what is missing; the analysis
/// and a note saying what was solved, if anything.
fn on_demand(
    pos: &Position,
    variant: &Variant,
    tables: Option<&std::path::Path>,
    threads: usize,
) -> Result<(asalto_tb::probe::Analysis, Option<String>)> {
    let options = ondemand::Options {
        threads,
        ..ondemand::Options::default()
    };
    let bar = SolveBar(progress_bar(0, "solving"));
    let solved = match tables {
        Some(dir) => {
            let set = TableSet::open(dir, variant);
            ondemand::query(pos, variant, &set, &options, &bar)
        }
        None => ondemand::solve_observed(pos, variant, &options, &bar),
    };
    bar.0.finish_and_clear();
    let solved = solved?;
    let note = solved.stats.map(|stats| match tables {
        Some(dir) => format!(
            "tables missing under {}: solved on demand. {}",
            dir.display(),
            summary(&stats)
        ),
        None => summary(&stats),
    });
    Ok((solved.analysis, note))
}
