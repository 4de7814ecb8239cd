//! # asalto-tb
//!
//! A solver and retrograde-analysis tablebase tool for Asalto (Assaut,
//! Officers and Sepoys): two officers defend a nine-point fortress against
//! twenty-four soldiers.
//!
//! The crate is layered, each module using only those before it (see
//! `docs/DESIGN.md`): [`board`] (points, lines, jumps, tables) ->
//! [`rules`] (variants, legal moves, game end) -> [`Position`] and its
//! notation -> [`index`] (tiers, ranking) -> [`solve`] (retrograde
//! analysis over a store it defines, and the checker verify runs) ->
//! [`table`] (files, a store for the solver) -> [`budget`] (the memory
//! budget) -> [`probe`] and [`ondemand`] (solving what a query needs) ->
//! [`build`] (files built level by level), [`verify`] and [`bracket`]
//! (floor files against exact ones) -> [`plan`] (counts and estimates,
//! from the budget and ondemand's closures) -> [`analysis`]; [`json`] builds the
//! objects the commands print and [`serve`] answers with (a local HTTP
//! server over probe, ondemand and plan, with an explorer page). Nothing in
//! the library prints; the `asalto` binary is thin glue over it.
//!
//! # The public API
//!
//! The public surface is what the `asalto` binary, the integration tests
//! under `tests/` and the examples in these docs use, and nothing more.
//! Everything not listed here is crate-private (`pub(crate)` or private),
//! and the lints `unreachable_pub` and `unnameable_types` keep it so: an
//! item is `pub` only where a public path reaches it, and every public type
//! can be named.
//!
//! At the root, the types every part uses: [`Position`] (with [`Side`] and
//! [`PositionError`]), [`Variant`], [`Move`], [`Value`] (and [`Wdl`]),
//! [`Point`] and [`Bitboard`].
//!
//! The public modules, each subsystem with its own typed error:
//!
//! * [`board`]: points, the board's bitboards ([`board::FORTRESS`],
//!   [`board::OUTSIDE`]), mirror images;
//! * [`rules`]: variants and their switches ([`rules::VariantError`]),
//!   legal moves, playing them, the end of the game, perft, move notation
//!   ([`rules::parse_move`], [`rules::MoveError`]);
//! * [`index`]: tiers and files ([`index::TierKey`], [`index::FileKey`]),
//!   the tiers of a file, the position at an index;
//! * [`solve`]: the solver ([`solve::Solver`], [`solve::SolveError`]), the
//!   store it reads ([`solve::TierStore`], [`solve::Lookup`]) and the
//!   checker verify runs ([`solve::check_tier_as`]);
//! * [`table`]: table files: reading ([`table::Table`], [`table::TableSet`]),
//!   writing ([`table::TableWriter`], [`table::WriteOptions`]), repacking,
//!   and what can be wrong with one ([`table::TableError`]);
//! * [`probe`]: a position's value and its moves' values from the files
//!   ([`probe::Analysis`]);
//! * [`ondemand`]: solving the tiers a query needs
//!   ([`ondemand::OnDemandError`]);
//! * [`line`](mod@line): lines of play out of the values: a won position's game to
//!   its end, a position's tree of replies ([`line::LineError`]);
//! * [`build`]: building files level by level, resumable, on one process or
//!   the ranks of an MPI job ([`build::BuildOptions`], [`build::Cluster`],
//!   [`build::BuildError`]), and its memory rule;
//! * [`verify`]: verifying built files ([`verify::VerifyError`]);
//! * [`plan`]: counts and estimates of a build ([`plan::Plan`],
//!   [`plan::PlanError`]);
//! * [`analysis`]: variant-balance statistics, critical mass, rule
//!   sensitivity and the report's files ([`analysis::AnalysisError`]);
//! * [`json`]: the JSON objects the commands print and the server answers
//!   with;
//! * [`serve`]: the local HTTP server and its explorer page
//!   ([`serve::ServeError`]);
//! * [`progress`]: the [`progress::Observer`] long operations report to.
//!
//! Private: the modules `position` and `value` (their types are at the
//! root), `cache` (the one eviction rule of the crate's caches), `fields`
//! (value codes and their two-bit fields, below both `solve` and `table`),
//! and the submodules of `rules`, `solve`, `table`, `build` (`checkpoint`,
//! `ranks`, `mpi`, `memory`, `window`), `analysis` and `serve`, whose
//! public items their parent re-exports.
//!
//! ```
//! use asalto_tb::{Position, Variant, rules};
//! let start = Position::start();
//! assert_eq!(rules::perft(&start, &Variant::ASSAUT, 2), 48);
//! ```

#![warn(unreachable_pub, unnameable_types)]

// The public API (see above): a module per subsystem and the types every
// part uses at the root. `position` and `value` are private: their types
// are re-exported here.
pub mod analysis;
pub mod board;
pub mod bracket;
pub mod budget;
pub mod build;
pub mod index;
pub mod json;
pub mod line;
pub mod ondemand;
pub mod plan;
pub mod probe;
pub mod progress;
pub mod rules;
pub mod serve;
pub mod solve;
pub mod table;
pub mod verify;

mod cache;
mod fields;
#[cfg(test)]
mod planted;
mod position;
mod value;

pub use board::{Bitboard, Point};
pub use position::{Position, PositionError, Side};
pub use rules::{Move, Variant};
pub use value::{Value, Wdl};
