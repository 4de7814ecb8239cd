//! The `asalto` command line: argument parsing (clap), turning arguments
//! into the library's types, progress bars and output. All the work is done
//! by the library; this module only prints.
//!
//! Exit codes: 0 success, 1 an error (bad position, unknown variant, a
//! table problem, ...), 2 a usage error reported by the argument parser.

mod output;

use anyhow::{Context, Result, bail};
use asalto_tb::index::TierKey;
use asalto_tb::probe::{self, Analysis};
use asalto_tb::solve::{Progress, Solver};
use asalto_tb::{Position, Variant, rules};
use clap::{Args, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use std::process::ExitCode;

const POSITION_HELP: &str = "Position: notation '<board> <side> [<huff>]' (RULES.md section 9; \
quote it or pass it as separate words), 'start' (officers on c6 e6) or 'start:c7,e5'";

const VARIANT_HELP: &str = "Rule variant: a preset (assaut, assaut-mdj, asalto, assault) or \
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
    /// Solves the needed tiers on demand (saying how many first).
    Query {
        #[command(flatten)]
        pos: PositionArgs,
        /// Worker threads for on-demand solving (1 = serial; default: one per core).
        #[arg(long, short, default_value_t = 0)]
        threads: usize,
    },
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
            let (analysis, summary) = solve_on_demand(&p, &variant, threads)?;
            if !pos.json {
                eprintln!("{summary}");
            }
            output::analysis(&analysis, &variant, pos.json);
            Ok(())
        }
        Command::Query { pos, threads } => {
            let (variant, p) = pos.parse()?;
            let (analysis, summary) = solve_on_demand(&p, &variant, threads)?;
            if !pos.json {
                eprintln!("no tables given: solved on demand. {summary}");
            }
            output::analysis(&analysis, &variant, pos.json);
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

/// Solve the closure of a position and its children in memory; the
/// analysis and a one-line summary.
fn solve_on_demand(
    pos: &Position,
    variant: &Variant,
    threads: usize,
) -> Result<(Analysis, String)> {
    let mut roots: Vec<TierKey> = Vec::new();
    // The position's own tiers and those of every child (a child may sit in
    // a tier the position itself never needs, e.g. after a huff).
    for p in std::iter::once(*pos).chain(
        rules::legal_moves(pos, variant)
            .iter()
            .map(|m| rules::play(pos, variant, m)),
    ) {
        if let Some(t) = TierKey::of(&p) {
            roots.push(t);
            if p.huff() != 0 && t.n == 2 {
                roots.push(TierKey { n: 1, ..t });
            }
        }
    }
    let tiers = asalto_tb::index::closure(&roots, variant);
    let positions: u64 = tiers.iter().map(|t| t.size()).sum();
    if positions > 50_000_000 {
        eprintln!(
            "solving {} tiers ({} positions) in memory; this may take a while (Ctrl-C stops it)",
            tiers.len(),
            positions
        );
    }
    let bar = progress_bar(positions, "solving");
    let b2 = bar.clone();
    let solver = Solver::new(*variant)
        .threads(threads)
        .on_progress(move |p: &Progress| b2.set_position(p.positions_done));
    let store = asalto_tb::solve::MemoryStore::new();
    let stats = solver.solve_into(&tiers, &store, |k, codes| {
        store.insert(*k, codes);
        Ok(())
    })?;
    bar.finish_and_clear();
    let analysis = probe::analyse(&store, variant, pos)?;
    let summary = format!(
        "{} tiers, {} positions in {:.2} s ({:.3e} positions/s)",
        stats.tiers,
        stats.positions,
        stats.seconds,
        stats.rate()
    );
    if analysis.moves.is_empty() && analysis.over.is_none() {
        bail!("internal error: a position that is not over has no moves");
    }
    Ok((analysis, summary))
}
