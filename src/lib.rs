//! # asalto-tb
//!
//! A solver and retrograde-analysis tablebase tool for Asalto (Assaut,
//! Officers and Sepoys): two officers defend a nine-point fortress against
//! twenty-four soldiers.
//!
//! The crate is layered, data flowing one way (see `docs/DESIGN.md`):
//! [`board`] (points, lines, jumps, tables) -> [`rules`] (variants, legal
//! moves, game end) -> [`position`] notation -> `index` (tiers, ranking) ->
//! `solve` (retrograde analysis) -> `table` (files) -> `probe`, [`plan`] and
//! [`ondemand`] (solving what a query needs). Nothing in the
//! library prints; the `asalto` binary is thin glue over it.
//!
//! ```
//! use asalto_tb::{Position, Variant, rules};
//! let start = Position::start();
//! assert_eq!(rules::perft(&start, &Variant::ASSAUT, 2), 48);
//! ```

pub mod analysis;
pub mod board;
pub mod build;
pub mod position;
pub mod probe;
pub mod rules;

pub use board::{Bitboard, Point};
pub use position::{Position, PositionError, Setup, Side};
pub use rules::{Move, Variant};
pub mod index;
pub mod ondemand;
pub mod plan;
pub mod progress;
pub mod solve;
pub mod table;
pub mod value;
pub mod verify;
pub use value::Value;
