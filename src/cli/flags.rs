//! The command line's flags: the clap definitions of `asalto`'s commands
//! and their arguments, the parsers of their values (sizes, durations,
//! threads, soldier ranges, positions) and the help texts; what the
//! commands do with them is `cli`'s.

// The doc comments of the argument structs are `--help` text (clap), where
// placeholders such as <tables> read as meant; rustdoc would take them for
// HTML tags.
#![allow(rustdoc::invalid_html_tags)]

use anyhow::{Context, Result};
use asalto_tb::budget::MemoryBudget;
use asalto_tb::solve::{Assume, Floor};
use asalto_tb::{Position, Variant, probe};
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

use super::{bench, plan, repack, report, serve};

pub(super) const POSITION_HELP: &str = "Position: notation '<board> <side> [<huff>]' (docs/RULES.md section 9; \
quote it or pass it as separate words), 'start' (officers on c6 e6), 'start:c7,e5', or \
'formation:K' / 'formation:K:c7,e5' (the K outside points nearest the fortress, soldiers to move)";

pub(crate) const VARIANT_HELP: &str = "Rule variant: a preset (assaut, assaut-mdj, asalto, assault) or \
soldiers=closer|forward,capture=huff|mandatory|free,max=on|off,trapped=soldiers-win|soldiers-lose";

/// Solver and tablebase tool for Asalto (Assaut, Officers and Sepoys).
///
/// Two officers defend a nine-point fortress against twenty-four soldiers.
/// This tool generates moves, solves positions exactly (win / draw / loss and
/// the distance in plies, by retrograde analysis) and reports on rule
/// variants. See `asalto rules` for the variants.
#[derive(Parser)]
#[command(
    name = "asalto",
    version,
    about,
    long_about,
    after_help = EXAMPLES,
    disable_help_subcommand = true
)]
pub(super) struct Cli {
    #[command(subcommand)]
    pub(super) command: Command,
}

pub(super) const EXAMPLES: &str = "Examples:
  asalto rules                                  list the rule presets
  asalto show start                             draw the start position
  asalto moves --variant asalto start:c7,e7     legal moves, officers on c7 e7
  asalto perft --depth 3 start                  count move sequences
  asalto query 'SSS/SSS/O1SS3/4S2/6O/3/3 s'     value of a position and its moves
  asalto plan --for start                       what the whole game's tables would take
  asalto serve                                  explore positions in a browser (http://127.0.0.1:8080/)
  asalto help build                             the options and examples of one command

Exit codes: 0 success, 1 error (bad input, unknown variant, table problem), 2 usage error.";

#[derive(Subcommand)]
pub(super) enum Command {
    /// List the rule presets, or explain one variant's switches.
    #[command(after_help = "Examples:
  asalto rules                              the four presets and their rule sheets
  asalto rules --variant assaut-mdj         the switches of one variant, in words
  asalto rules --json")]
    Rules {
        /// A variant to explain (leave out to list the presets).
        #[arg(long, short)]
        variant: Option<String>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Draw a position, say whose turn it is and whether the game is over.
    #[command(after_help = "Examples:
  asalto show start
  asalto show start:c7,e5                   the start with the officers on c7 and e5
  asalto show formation:20:c5,e5            the formation of 20 soldiers (report --formations), officers on c5 e5
  asalto show 'SSS/SSS/O1SS3/4S2/6O/3/3 s'
  asalto show --json '3/1O1/3S3/2S4/S5S/SSS/SSS o'")]
    Show(PositionArgs),
    /// List the legal moves of a position, one per line in move notation.
    ///
    /// Faults (under capture=huff) are marked with the officers they expose
    /// to a huff.
    #[command(after_help = "Examples:
  asalto moves start
  asalto moves --variant assault start      the forward soldier rule
  asalto moves '3/1O1/3S3/2S4/S5S/SSS/SSS o'   captures, and steps that are faults
  asalto moves --json start")]
    Moves(PositionArgs),
    /// Count move sequences: one line `perft <d> <nodes>` for d = 1..=DEPTH
    /// (`perft 0 1` for depth 0); with --json one object with the counts.
    #[command(after_help = "Examples:
  asalto perft --depth 3 start              perft 1 9, perft 2 48, perft 3 ...
  asalto perft --depth 4 --variant assaut-mdj start")]
    Perft {
        #[command(flatten)]
        pos: PositionArgs,
        /// Largest depth (0: the position itself, one node).
        #[arg(long, short)]
        depth: u32,
    },
    /// Solve the tiers a position needs, in memory, and print its value.
    ///
    /// Refused, with what its tables would cost, when that is more than
    /// 3e9 positions (see `asalto plan --for`).
    #[command(after_help = "Examples:
  asalto solve 'SSS/SSS/O1SS3/4S2/6O/3/3 s'
  asalto solve --threads 1 --json 'SSS/1O1/1SS1S1O/2SSS2/3S3/3/3 s'")]
    Solve {
        #[command(flatten)]
        pos: PositionArgs,
        #[arg(long, short, default_value = "0", value_parser = parse_threads, allow_negative_numbers = true, help = THREADS_HELP)]
        threads: usize,
    },
    /// Value of a position and of every legal move, best first.
    ///
    /// Reads the table files under --tables; tiers whose file is missing are
    /// solved on demand in memory (saying how many first), up to 3e9
    /// positions; above, the query is refused with what the tables would
    /// cost.
    #[command(after_help = "Examples:
  asalto query 'SSS/SSS/O1SS3/4S2/6O/3/3 s'
  asalto query --tables /data/tables --variant asalto 'SSS/1O1/1SS1S1O/2SSS2/3S3/3/3 s'
  asalto query --json start:c7,e7           refused: the whole game (see asalto plan --for start)
  asalto query --floor 22 start             the start's bracket from the floor-22 files (both sides' floors, those built)
  asalto query --floor 22 --assume officers --json start")]
    Query {
        #[command(flatten)]
        pos: PositionArgs,
        /// Folder of table files.
        #[arg(long, default_value = "tables")]
        tables: PathBuf,
        #[arg(long, short, default_value = "0", value_parser = parse_threads, allow_negative_numbers = true, help = THREADS_HELP)]
        threads: usize,
        /// Read the files of the game above this floor (`build --floor`)
        /// instead of the exact tables: what they prove of the real game,
        /// from the soldiers' side. With --assume, that floor's files
        /// alone; without, both assumptions' folders that exist, and the
        /// bracket they give together. Tiers missing there are solved in
        /// memory above the same floor.
        #[arg(long, value_name = "K", value_parser = clap::value_parser!(u8).range(10..=24))]
        floor: Option<u8>,
        /// With --floor: whose win the positions below it were counted as
        /// (officers: the soldiers' wins are proved; soldiers: the
        /// officers' wins are).
        #[arg(long, value_name = "SIDE", requires = "floor")]
        assume: Option<AssumeArg>,
    },
    /// A line of play: a won or lost position's game to its end, or a
    /// drawn position's replies a few plies deep.
    ///
    /// For a win (or a loss) it prints a game from the position to the end
    /// that the winner can follow: every winner's move wins, and no
    /// position comes twice. With distances the winner plays its shortest
    /// win and the loser its longest loss. From WDL-only tables, where a
    /// win has no distance, it is found by a search over the winner's
    /// winning moves that never enters a position twice (the loser's reply
    /// fixed at each position: the one that moves the game on least);
    /// every other loser's move loses too (query any position of the line
    /// to see them). For a draw it prints every move's value and, --depth
    /// plies deep, the replies to each: the moves valued draw are a side's
    /// drawing replies to the other's move above them.
    ///
    /// Values come from the tables under --tables; tiers whose file is
    /// missing are solved in memory first (the whole closure of the
    /// position, up to 3e9 positions), as `asalto query` does.
    #[command(after_help = "Examples:
  asalto line 'SSS/S1S/O1S1S1O/7/2S1S2/3/3 s'          the officers' win, 10 plies to the end
  asalto line --depth 3 'SSS/SS1/O1S1S2/7/2S1S2/3/3 s'   a draw: each side's drawing replies
  asalto line --json --tables /data/tables start       the whole game's tables (asalto plan --for start)
  asalto line --floor 22 --assume officers start       a soldiers' win proved above the floor of 22")]
    Line {
        #[command(flatten)]
        pos: PositionArgs,
        /// A line of the game above a floor, from its files (`build
        /// --floor`): only a win the floor proves (the soldiers' under
        /// the officers' floor, the officers' under the soldiers'), whose
        /// every position keeps K or more soldiers and whose end is the
        /// game's end by the rules: a line of the real game.
        #[command(flatten)]
        floor: FloorArgs,
        /// Folder of table files.
        #[arg(long, default_value = "tables")]
        tables: PathBuf,
        /// Plies of the tree of replies of a drawn position (1 to 4: the
        /// tree grows about twentyfold a ply).
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=4))]
        depth: u32,
        /// The most positions the search of a WDL-only line enters before it
        /// gives up (it ends well before on every position tried).
        #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..))]
        bound: u64,
        #[arg(long, short, default_value = "0", value_parser = parse_threads, allow_negative_numbers = true, help = THREADS_HELP)]
        threads: usize,
    },
    /// Build table files: every position with the given soldier counts,
    /// one and two officers, solved exactly.
    ///
    /// Files go to <tables>/<variant>/<n>o<k>s.atb, written under a
    /// temporary name and renamed when complete. Files already built are
    /// skipped, and the file being written keeps a checkpoint beside it
    /// (<n>o<k>s.atb.ckpt, every --checkpoint-secs), so a build killed at
    /// any moment and run again resumes from its last checkpoint and writes
    /// the same bytes.
    ///
    /// Prints its plan (files, positions, estimated disk) first, and
    /// refuses to start when the estimate does not fit the free disk
    /// (--ignore-disk to start anyway). `asalto plan` gives the same plan
    /// with a time estimate, without building.
    ///
    /// Built with the cargo feature `mpi`, it runs as the ranks of an MPI
    /// job (mpirun -np N asalto build ..): the ranks share each chunk of
    /// tiers, rank 0 writes the files, and the bytes are those of one
    /// process. The tables folder must be shared by every rank.
    #[command(after_help = "Examples:
  asalto build                              every assaut table with 9 soldiers (11.6e9 positions)
  asalto build --soldiers 9..=10 --all-presets
  asalto build --for '3/O1O/SS3SS/SSSSSSS/2SS3/3/3 s'   only what one position needs
  asalto build --threads 1 --tables /data/tables
  asalto build --floor 22 --assume officers --wdl-only   the game above 22 soldiers, every drop below an officers' win
  mpirun -np 8 asalto build --for start --wdl-only --tables /shared/tables   (feature mpi)")]
    Build(BuildArgs),
    /// Check built tables: every block checksum, then every stored value
    /// against the values of its moves. Exit 1 on any problem.
    #[command(after_help = "Examples:
  asalto verify                             every assaut table under tables/
  asalto verify --variant assault --soldiers 10..=10
  asalto verify --soldiers 11..=11 --resume   take up an interrupted run
  asalto verify --floor 22 --assume officers  the files of a floor build, against its floor
  asalto verify --soldiers 9..=12 --resume --stop-after 2h   in sittings: run it again to go on
  asalto verify --checker positions          WDL-only tables position by position (the same answer, slower)")]
    Verify(VerifyArgs),
    /// Measure speed and size: solving rate (1 and 2 threads), optionally a
    /// full build, table size per position, probe time, query process time.
    /// Writes OUT/DATE-HOST/bench.json (see --out).
    #[command(after_help = "Examples:
  asalto bench                              rate and speedup; sizes and probes if tables/ has 9-soldier tables
  asalto bench --build-to 9                 also a complete build into target/bench-tables (tens of minutes)")]
    Bench(bench::BenchArgs),
    /// Variant-balance report from the tables: win/draw/loss shares, longest
    /// wins, critical mass and rule sensitivity, as Markdown, JSON, CSV and
    /// SVG plots in one folder.
    ///
    /// Exit 1 naming the missing tables when some are missing (unless
    /// --build or --allow-missing). Partial tables (built with `build --for`)
    /// are reported over the tiers they hold, and the report says so.
    #[command(after_help = "Examples:
  asalto report --soldiers 9                the four presets, complete 9-soldier tables
  asalto report --variants assaut,assault --soldiers 9..=10 --build
  asalto report --all-presets --soldiers 10 --allow-missing --out /tmp/report
  asalto report --all-presets --formations 9..=17 --build   the balance curve
  asalto report --from notebooks/data/presets-formations-9-17   draw a folder again
  asalto report --from A --from B --out AB  merge two folders into one report (no table read)
  asalto report --floor 20 --formations 21 --variants asalto   what the files above the floor at 20 prove
                                            of the formation of 21 soldiers: each placement's bracket")]
    Report(report::ReportArgs),
    /// Rewrite table files with other block sizes or zstd level, or in the
    /// current format version (after an upgrade), without solving: the
    /// values are read back and written again, bit for bit the same.
    ///
    /// Each file is written under a temporary name and renamed over its
    /// old one (or into --out) when complete; an interrupted run leaves the
    /// old files as they were.
    #[command(after_help = "Examples:
  asalto repack                             rewrite tables/assaut/* in the current format
  asalto repack --wdl-block 65536 --out /tmp/repacked")]
    Repack(repack::RepackArgs),
    /// What a build would take, without solving: files, tiers, positions,
    /// disk (with and without distances), memory and time on this machine,
    /// and whether it fits the free disk of the tables folder; with
    /// --wdl-only, the time to verify the files too.
    ///
    /// Positions and each file's window of solved tiers (the memory its
    /// build wants to read them all from memory) are counted exactly;
    /// disk and time are estimates, and the output says where their
    /// figures come from (bits per position measured on built tables; a
    /// solving rate measured by a short calibration solve, or --rate; the
    /// verify's time over the build's measured on one closure).
    #[command(after_help = "Examples:
  asalto plan --for start --wdl-only        the whole game (about 1.27e12 positions), built and verified
  asalto plan --soldiers 9..=12 --variant assault
  asalto plan --soldiers 13 --memory 12GiB  does a 12 GiB budget hold 13 soldiers' windows?
  asalto plan --floor 21 --wdl-only         the files with 21..=24 soldiers, as a floor build makes them
  asalto plan --for '3/O1O/SS3SS/SSSSSSS/2SS3/3/3 s' --rate 1.5e7 --json")]
    Plan(plan::PlanArgs),
    /// Check floor files against exact files: every position of the files
    /// above the floor, its exact value inside the bracket the floors give.
    ///
    /// Reads the exact files of --variant under --tables (complete tables
    /// or a closure's) and the files above the floor of --floor K in
    /// floor-K-officers/ and floor-K-soldiers/ under it (either or both):
    /// under the officers' floor no soldiers' result may be better than the
    /// real one, under the soldiers' floor none worse. Counts, per file, the
    /// positions compared, those the floors decide and those outside their
    /// bracket, with the first of them; exit 1 when any is outside (a fault
    /// in a floor's soundness or a build), or when a floor file has no exact
    /// file of its material or tiers.
    #[command(after_help = "Examples:
  asalto build --variant asalto --for formation:17 --wdl-only --tables t
  asalto build --variant asalto --for formation:17 --wdl-only --tables t --floor 16 --assume officers
  asalto check-floor --variant asalto --tables t --floor 16
  asalto check-floor --variant asalto --tables t --floor 16 --json")]
    CheckFloor {
        #[arg(long, short, default_value = "assaut", help = VARIANT_HELP)]
        variant: String,
        /// Folder of the exact table files, the floor's folders inside it.
        #[arg(long, default_value = "tables")]
        tables: PathBuf,
        /// The floor: the files with K..=24 soldiers above it are checked.
        #[arg(long, value_name = "K", value_parser = clap::value_parser!(u8).range(10..=24))]
        floor: u8,
        #[arg(long, short, default_value = "0", value_parser = parse_threads, allow_negative_numbers = true, help = THREADS_HELP)]
        threads: usize,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// List the table files present, with their variant, sizes and counts.
    ///
    /// A table holding only some of its file's tiers (a closure's, `build
    /// --for`) is marked partial, and a file being built (its temporary
    /// file or checkpoint there: a build running, or stopped) is listed
    /// with how far its checkpoint got. Every block's checksum is checked
    /// (the files are read whole, a few seconds per GB). Exit 1 when a file
    /// cannot be read (truncated, corrupt, another format) or --tables is
    /// missing or not a folder.
    #[command(after_help = "Examples:
  asalto info
  asalto info --tables /data/tables --json")]
    Info {
        /// Folder of table files.
        #[arg(long, default_value = "tables")]
        tables: PathBuf,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// A local web server: the position explorer (a board, every legal
    /// move with its value, play against the perfect opponent) and a JSON
    /// API.
    ///
    /// Values come from the tables under --tables; tiers without a file
    /// are solved on demand within the limit of `asalto query` (3e9
    /// positions, for all requests at once), and a position needing more
    /// is refused with the same line. Routes: / (the page),
    /// /api/v1/query?variant=V&position=P (the object of `asalto query
    /// --json`), /api/v1/moves (that of `asalto moves --json`),
    /// /api/v1/bestmove (a best move and the position after it),
    /// /api/v1/board. Bad input gets HTTP 400, a position too large HTTP
    /// 422, each with {"error": "..."}. Listens on 127.0.0.1 (this machine
    /// only) unless --bind says otherwise; Ctrl-C stops it.
    #[command(after_help = "Examples:
  asalto serve                              then open http://127.0.0.1:8080/
  asalto serve --tables /data/tables --port 9000
  asalto serve --port 0                     any free port (the URL printed says which)
  curl 'http://127.0.0.1:8080/api/v1/query?variant=assaut&position=SSS/SSS/O1SS3/4S2/6O/3/3+s'")]
    Serve(serve::ServeArgs),
    /// Print the help of asalto or of one command.
    #[command(after_help = "Examples:
  asalto help
  asalto help query")]
    Help {
        /// The command to explain (leave out for all).
        command: Option<String>,
    },
}

/// The side whose win a floor assumes below it (`--assume`).
#[derive(Clone, Copy, clap::ValueEnum)]
pub(super) enum AssumeArg {
    /// Positions below the floor are the officers' wins: the soldiers'
    /// wins found are real.
    Officers,
    /// Positions below the floor are the soldiers' wins: the officers'
    /// wins found are real.
    Soldiers,
}

impl From<AssumeArg> for Assume {
    fn from(a: AssumeArg) -> Assume {
        match a {
            AssumeArg::Officers => Assume::Officers,
            AssumeArg::Soldiers => Assume::Soldiers,
        }
    }
}

/// `--floor K --assume SIDE`: the game above a floor (build, verify).
#[derive(Args)]
pub(super) struct FloorArgs {
    /// Only the files with K..=24 soldiers: every position a move reaches
    /// with fewer (and at least 9) counts as a win for --assume's side, a
    /// terminal of the game above the floor. Its values bound the real
    /// ones: a soldiers' win under the officers' floor is a real soldiers'
    /// win, an officers' win under the soldiers' floor a real officers'
    /// win. The files go to <tables>/floor-<K>-<side>/<variant>/, their
    /// header names the floor, and floors never mix with each other or
    /// with exact tables.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u8).range(10..=24), requires = "assume")]
    pub(super) floor: Option<u8>,
    /// With --floor: whose win a position below the floor counts as.
    #[arg(long, value_name = "SIDE", requires = "floor")]
    pub(super) assume: Option<AssumeArg>,
}

impl FloorArgs {
    /// The floor asked for, if any.
    pub(super) fn get(&self) -> Result<Option<Floor>> {
        match (self.floor, self.assume) {
            (Some(k), Some(a)) => Ok(Some(Floor::new(k, a.into())?)),
            _ => Ok(None),
        }
    }
}

/// Arguments of `asalto build`.
#[derive(Args)]
pub(super) struct BuildArgs {
    #[command(flatten)]
    pub(super) variants: VariantChoice,
    /// Soldier counts: K (meaning 9..=K), or A..=B (default: 9; above a
    /// floor K, K..=24).
    #[arg(long, short, conflicts_with = "only_for")]
    pub(super) soldiers: Option<Soldiers>,
    #[command(flatten)]
    pub(super) floor: FloorArgs,
    /// Build only the tiers this position needs (partial files, enough to
    /// query it and every position it can reach).
    #[arg(long = "for", value_name = "POSITION", allow_hyphen_values = true)]
    pub(super) only_for: Option<String>,
    /// Folder of table files.
    #[arg(long, default_value = "tables")]
    pub(super) tables: PathBuf,
    /// Worker threads: 0 for one per core, 1 for serial, at most 1024.
    /// Files are byte-identical whatever the count.
    #[arg(long, short, default_value = "0", value_parser = parse_threads, allow_negative_numbers = true)]
    pub(super) threads: usize,
    /// Memory budget for what the build allocates, e.g. 12GiB, 2GiB
    /// (default: 60% of the machine's memory). The file's own solved
    /// tiers stay in memory while they fit, and are read back from the
    /// part of the file already written when they do not; a budget below
    /// the least the build starts with (1.2 GB or more; `asalto plan`
    /// gives the figure) is refused before starting, with that figure.
    #[arg(long, value_name = "SIZE", value_parser = parse_budget, allow_hyphen_values = true)]
    pub(super) memory: Option<MemoryBudget>,
    /// Memory for the cache of the lower files' decompressed blocks of a
    /// WDL-only build, e.g. 8GiB: taken out of the budget's room for the
    /// window (default: half of what each file's window will not use, at
    /// most 4 GiB beyond its 64 MiB floor). More cache means fewer lower
    /// blocks decompressed again; `wdl_blocks_decompressed` against
    /// `wdl_blocks_read` in the --json summary says how many were. A
    /// file whose budget cannot hold it and the smallest window is
    /// refused. The files written do not depend on it.
    #[arg(long, value_name = "SIZE", value_parser = parse_bytes, allow_hyphen_values = true)]
    pub(super) block_cache: Option<u64>,
    /// Seconds between checkpoints of the file being written (0: after
    /// every chunk of tiers).
    #[arg(long, value_name = "N", default_value_t = 300)]
    pub(super) checkpoint_secs: u64,
    /// Stop after this long (e.g. 2h30m, 90m, 45s): at the first chunk
    /// of tiers done after it, with a checkpoint, or before starting
    /// the next file. Prints what was done, and exits with status 75;
    /// the same command run again goes on from there. For sessions and
    /// batch jobs with a time limit (leave a few minutes for the last
    /// chunk). The time each file took over all its runs is in the
    /// summary (`earlier_seconds` + `seconds` in the JSON). Ctrl-C or
    /// SIGTERM stops a build the same way (a second one at once).
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub(super) stop_after: Option<std::time::Duration>,
    /// Write win/draw/loss only, without distances (about a tenth of
    /// the size; lower tables may be of either kind). Queries on such
    /// tables say "win" or "loss" without plies.
    #[arg(long)]
    pub(super) wdl_only: bool,
    /// The solver of a WDL-only build: `bits` (sets of officer
    /// placements as bit rows; the default) or `positions` (position by
    /// position, as files with distances are always solved). Both write
    /// the same bytes; `bits` is faster.
    #[arg(long, value_enum, requires = "wdl_only")]
    pub(super) engine: Option<EngineArg>,
    /// zstd level of the blocks written (1-22): 15 writes WDL-only
    /// files about a tenth smaller for about an eighth more CPU. A file
    /// resumed from its checkpoint goes on at the level it was started
    /// with; readers take any level.
    #[arg(long, value_name = "N", default_value_t = asalto_tb::table::WriteOptions::default().zstd_level,
          value_parser = clap::value_parser!(i32).range(1..=22))]
    pub(super) level: i32,
    /// Start even when the estimated disk does not fit the free disk.
    #[arg(long)]
    pub(super) ignore_disk: bool,
    /// Cap on the window's share of the memory budget (tests and
    /// experiments: 0 reads every tier of the file back from disk).
    #[arg(long, value_name = "SIZE", value_parser = parse_bytes_or_zero, allow_hyphen_values = true, hide = true)]
    pub(super) window_bytes: Option<u64>,
    /// Print the summary as JSON.
    #[arg(long)]
    pub(super) json: bool,
}

/// `--engine` of `asalto build`.
#[derive(Clone, Copy, clap::ValueEnum)]
pub(super) enum EngineArg {
    /// Sets of officer placements as bit rows (WDL-only).
    Bits,
    /// Position by position.
    Positions,
}

impl EngineArg {
    /// The solver's engine.
    pub(super) fn engine(self) -> asalto_tb::solve::Engine {
        match self {
            EngineArg::Bits => asalto_tb::solve::Engine::BitSets,
            EngineArg::Positions => asalto_tb::solve::Engine::Positions,
        }
    }
}

/// Arguments of `asalto verify`.
#[derive(Args)]
pub(super) struct VerifyArgs {
    #[arg(long, short, default_value = "assaut", help = VARIANT_HELP)]
    pub(super) variant: String,
    /// The files of the game above a floor (`build --floor K --assume
    /// SIDE`), each checked against the floor's assumed tiers below it:
    /// a bound is as checked as a value.
    #[command(flatten)]
    pub(super) floor: FloorArgs,
    /// Folder of table files.
    #[arg(long, default_value = "tables")]
    pub(super) tables: PathBuf,
    #[arg(long, short, default_value = "0", value_parser = parse_threads, allow_negative_numbers = true, help = THREADS_HELP)]
    pub(super) threads: usize,
    /// Print at most this many inconsistent positions.
    #[arg(long, default_value_t = 10)]
    pub(super) show: usize,
    /// Only the tables with these soldier counts: K (9..=K) or A..=B,
    /// e.g. 10..=10 for the 10-soldier tables alone (the lower tables
    /// they read are taken as they are). Default: every table present.
    #[arg(long, short)]
    pub(super) soldiers: Option<Soldiers>,
    /// Take up where an earlier run stopped: each file's tiers are
    /// checked in chunks and a record of how far it got is kept beside
    /// it (<file>.verify); with --resume a record matching the file is
    /// continued (a complete one: the file is not checked again, only
    /// its checksums). A record names its file's contents, not those of
    /// the lower files it read: after rebuilding a lower file, verify
    /// without --resume. Without it every value is checked anew, and
    /// the records of a run that completes are removed (those of an
    /// interrupted run stay, for --resume).
    #[arg(long)]
    pub(super) resume: bool,
    /// Take the files an earlier verify proved as checked, from its
    /// record (the JSON of `asalto verify --json`, e.g. one committed
    /// before the machine and its tables were lost): a file counts as
    /// proved when it has the bytes and index checksum the record names
    /// (the same contents: the same version built it again) and so has
    /// every file below it, which it was checked against. The other
    /// files are checked as usual; the JSON names the proved ones
    /// (`proved_by`).
    #[arg(long, value_name = "RECORD.json")]
    pub(super) proved_by: Option<PathBuf>,
    /// Stop after this long (e.g. 2h30m, 90m): at the first chunk of
    /// tiers checked after it (about a minute of checking at 9 soldiers,
    /// a few at 12), with its record written, or before starting the
    /// next file. Prints what was checked and where it stopped, and
    /// exits with status 75; the same command with --resume goes on.
    /// The time each file took over all its runs is in the summary
    /// (`earlier_seconds` + `seconds` in the JSON). Ctrl-C or SIGTERM
    /// stops a verify the same way (a second one at once).
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub(super) stop_after: Option<std::time::Duration>,
    /// How WDL-only tables are checked (tables with distances are always
    /// checked position by position). Both re-derive each tier's
    /// win/draw/loss as its least fixed point from the lower tables and
    /// find the same positions wrong; both are written apart from the
    /// solvers.
    #[arg(long, value_enum, default_value = "sets")]
    pub(super) checker: CheckerArg,
    /// Print the result as JSON.
    #[arg(long)]
    pub(super) json: bool,
}

/// The checker of WDL-only tables (`verify --checker`).
#[derive(Clone, Copy, clap::ValueEnum)]
pub(super) enum CheckerArg {
    /// Slice by slice: every placement of the officers on one board of
    /// soldiers at once, as bit sets (the faster: about two and a half
    /// times on two-officer files, one and a half to two on one-officer
    /// files).
    Sets,
    /// Position by position through the rules' move generators.
    Positions,
}

impl From<CheckerArg> for asalto_tb::solve::Checker {
    fn from(c: CheckerArg) -> asalto_tb::solve::Checker {
        match c {
            CheckerArg::Sets => asalto_tb::solve::Checker::Sets,
            CheckerArg::Positions => asalto_tb::solve::Checker::Positions,
        }
    }
}

#[derive(Args)]
pub(super) struct VariantChoice {
    #[arg(long, short, default_value = "assaut", help = VARIANT_HELP, conflicts_with = "all_presets")]
    pub(super) variant: String,
    /// All four presets, one after the other.
    #[arg(long)]
    pub(super) all_presets: bool,
}

impl VariantChoice {
    pub(super) fn list(&self) -> Result<Vec<Variant>> {
        if self.all_presets {
            Ok(Variant::PRESETS.iter().map(|(_, v, _)| *v).collect())
        } else {
            Ok(vec![self.variant.parse()?])
        }
    }
}

/// A size in bytes: a number with an optional unit (B, KiB, MiB, GiB,
/// TiB; K, M, G, T and KB, MB, GB, TB mean the same powers of 1024).
/// [`parse_bytes`], or 0.
pub(super) fn parse_bytes_or_zero(text: &str) -> Result<u64, String> {
    if text.trim() == "0" {
        Ok(0)
    } else {
        parse_bytes(text)
    }
}

/// A memory budget (`--memory`): a size as [`parse_bytes`] reads it.
pub(super) fn parse_budget(text: &str) -> Result<MemoryBudget, String> {
    parse_bytes(text).map(MemoryBudget::new)
}

pub(super) fn parse_bytes(text: &str) -> Result<u64, String> {
    let shown = text.escape_debug();
    let t = text.trim();
    if t.starts_with('-') {
        return Err(format!(
            "'{shown}' is negative: a size is at least one byte (use e.g. 800MiB or 12GiB)"
        ));
    }
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        _ => {
            return Err(format!(
                "unknown unit in '{shown}' (use e.g. 800MiB or 12GiB)"
            ));
        }
    };
    let x: f64 = num
        .parse()
        .map_err(|_| format!("'{shown}' is not a size (use e.g. 800MiB or 12GiB)"))?;
    let bytes = x * (1u64 << shift) as f64;
    if !(1.0..1.8e19).contains(&bytes) {
        return Err(format!("'{shown}' is not a sensible size"));
    }
    Ok(bytes as u64)
}

/// A duration such as `2h30m`, `90m` or `45s` (humantime's syntax),
/// from one second to a year.
pub(super) fn parse_duration(text: &str) -> Result<std::time::Duration, String> {
    let shown = text.escape_debug();
    let d = humantime::parse_duration(text.trim())
        .map_err(|e| format!("'{shown}' is not a duration ({e}; use e.g. 2h30m, 90m or 45s)"))?;
    if d < std::time::Duration::from_secs(1) || d > std::time::Duration::from_secs(366 * 86_400) {
        return Err(format!(
            "'{shown}' is not a sensible duration (from 1s to a year)"
        ));
    }
    Ok(d)
}

/// An inclusive range of soldier counts within 9..=24, parsed by clap
/// from `K` (meaning 9..=K), `A..=B` or `A-B`; a bad one is a usage error
/// (exit 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Soldiers(pub u8, pub u8);

impl std::str::FromStr for Soldiers {
    type Err = String;

    fn from_str(text: &str) -> std::result::Result<Soldiers, String> {
        let t = text.trim();
        let (a, b) = if let Some((a, b)) = t.split_once("..=") {
            (a.trim().parse::<u8>(), b.trim().parse::<u8>())
        } else if let Some((a, b)) = t.split_once('-') {
            (a.trim().parse::<u8>(), b.trim().parse::<u8>())
        } else {
            (Ok(9), t.parse::<u8>())
        };
        match (a, b) {
            (Ok(a), Ok(b)) if (9..=24).contains(&a) && (a..=24).contains(&b) => Ok(Soldiers(a, b)),
            _ => Err("use K (meaning 9..=K) or A..=B, with 9 <= A <= B <= 24".to_string()),
        }
    }
}

/// The most worker threads accepted: far above any machine this runs on,
/// low enough that a typo (`--threads 100000`) is refused instead of
/// spawning threads until memory runs out.
pub(crate) const MAX_THREADS: usize = 1024;

pub(crate) const THREADS_HELP: &str =
    "Worker threads: 0 for one per core, 1 for serial, at most 1024";

/// Parse a thread count: 0 (one per core) to [`MAX_THREADS`]; a bad one is
/// a usage error (exit 2).
pub(crate) fn parse_threads(text: &str) -> std::result::Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if n <= MAX_THREADS => Ok(n),
        Ok(n) => Err(format!(
            "{n} threads is too many: at most {MAX_THREADS} (0 means one per core)"
        )),
        Err(_) if text.trim().starts_with('-') => Err(format!(
            "{} threads: use 1 to {MAX_THREADS}, or 0 for one per core",
            text.trim()
        )),
        Err(_) => Err("use a number of threads, 0 for one per core".to_string()),
    }
}

/// Parse a position argument for `variant`.
pub(crate) fn parse_position(text: &str, variant: &Variant) -> Result<Position> {
    let pos = Position::from_arg(text)
        .with_context(|| format!("bad position '{}'", text.escape_debug()))?;
    probe::check_position(&pos, variant)?;
    Ok(pos)
}

#[derive(Args)]
pub(super) struct PositionArgs {
    #[arg(long, short, default_value = "assaut", help = VARIANT_HELP)]
    pub(super) variant: String,
    /// Print JSON instead of text.
    #[arg(long)]
    pub(super) json: bool,
    #[arg(required = true, num_args = 1.., help = POSITION_HELP)]
    pub(super) position: Vec<String>,
}

impl PositionArgs {
    pub(super) fn parse(&self) -> Result<(Variant, Position)> {
        let variant: Variant = self.variant.parse()?;
        let pos = parse_position(&self.position.join(" "), &variant)?;
        Ok((variant, pos))
    }
}
