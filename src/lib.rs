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
//! [`table`] (files, a store for the solver) -> [`probe`] and [`ondemand`]
//! (solving what a query needs) -> [`build`] (files built level by level)
//! and [`verify`] -> [`plan`] (counts and estimates, from build's memory
//! rule and ondemand's closures) -> [`analysis`]; [`json`] builds the
//! objects the commands print and [`serve`] answers with (a local HTTP
//! server over probe, ondemand and plan, with an explorer page). Nothing in
//! the library prints; the `asalto` binary is thin glue over it.
//!
//! # The public API
//!
//! The types every part uses are at the root: [`Position`] (with
//! [`Side`] and [`PositionError`]), [`Variant`], [`Move`],
//! [`Value`], [`Point`] and [`Bitboard`]. Each subsystem is a public module
//! with its own typed error ([`table::TableError`], [`solve::SolveError`],
//! [`build::BuildError`], [`verify::VerifyError`], ...); long operations report to one
//! [`progress::Observer`]. Everything else is private.
//!
//! ```
//! use asalto_tb::{Position, Variant, rules};
//! let start = Position::start();
//! assert_eq!(rules::perft(&start, &Variant::ASSAUT, 2), 48);
//! ```

// The public API: a module per subsystem, each with its own error type
// (`table::TableError`, `solve::SolveError`, `build::BuildError`, ...), and
// the types every part uses at the root. `position` and `value` are private:
// their types are re-exported here.
pub mod analysis;
pub mod board;
pub mod build;
pub mod index;
pub mod json;
pub mod ondemand;
pub mod plan;
pub mod probe;
pub mod progress;
pub mod rules;
pub mod serve;
pub mod solve;
pub mod table;
pub mod verify;

#[cfg(test)]
mod planted;
mod position;
mod value;

pub use board::{Bitboard, Point};
pub use position::{Position, PositionError, Side};
pub use rules::{Move, Variant};
pub use value::{Value, Wdl};
