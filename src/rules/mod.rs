//! The rules of Asalto (docs/RULES.md sections 3 to 6 and 10): rule variants,
//! legal move generation for both sides (soldier steps, officer steps,
//! capture chains), capture duty with faults and huffing, making moves,
//! the end of the game, perft, and the move notation (`notation.rs`).
//!
//! This is the readable, general engine: it works on any [`crate::Position`] and
//! allocates freely. The solver has its own specialised loops but is tested
//! against this module.

mod movegen;
mod notation;
mod variant;

pub(crate) use movegen::{ChainList, static_outcome};
pub(crate) use movegen::{
    after_officer_move, capture_ends, for_each_huff, for_each_officer_move_given,
    for_each_soldier_step, legal_moves_into, stuck_winner,
};
pub use movegen::{legal_moves, outcome, perft, play};
pub use notation::{MoveError, parse_move};
pub use variant::{CaptureRule, SoldierRule, TrappedRule, Variant, VariantError};

use crate::board::{Bitboard, Point};

/// A legal move, as produced by [`legal_moves`].
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    kind: MoveKind,
    /// Officer huffed before the soldiers' move (soldier moves and
    /// [`MoveKind::Huff`] only).
    huff: Option<Point>,
    /// Officers the soldiers may huff after this move (a fault), else 0.
    offenders: Bitboard,
}

/// What a move does.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) enum MoveKind {
    /// A soldier step.
    Soldier {
        /// From.
        from: Point,
        /// To.
        to: Point,
    },
    /// An officer step (`taken == 0`, path empty) or capture.
    Officer {
        /// The officer's path: start, then every landing point.
        path: Vec<Point>,
        /// The soldiers taken.
        taken: Bitboard,
    },
    /// A huff that ends the game on its own (the last officer removed).
    Huff,
}

impl Move {
    /// A soldier step, optionally after huffing an officer.
    pub(crate) fn soldier(from: Point, to: Point, huff: Option<Point>) -> Move {
        Move {
            kind: MoveKind::Soldier { from, to },
            huff,
            offenders: 0,
        }
    }

    /// The huff of `h`, the last officer: a move by itself, which ends the
    /// game.
    pub(crate) fn huff_alone(h: Point) -> Move {
        Move {
            kind: MoveKind::Huff,
            huff: Some(h),
            offenders: 0,
        }
    }

    /// What the move does.
    pub(crate) fn kind(&self) -> &MoveKind {
        &self.kind
    }

    /// Officers exposed to a huff by this move (non-empty exactly for faults
    /// under `capture=huff`).
    pub fn offenders(&self) -> Bitboard {
        self.offenders
    }

    /// Whether this officer move is a fault.
    pub fn is_fault(&self) -> bool {
        self.offenders != 0
    }

    /// Soldiers taken (0 for soldier moves and steps).
    pub(crate) fn taken(&self) -> Bitboard {
        match &self.kind {
            MoveKind::Officer { taken, .. } => *taken,
            _ => 0,
        }
    }

    /// Whether this is a soldier step (possibly after a huff).
    pub fn is_soldier_move(&self) -> bool {
        matches!(self.kind, MoveKind::Soldier { .. })
    }

    /// The moving piece's start point (the huffed officer for a bare huff).
    pub fn from(&self) -> Point {
        match &self.kind {
            MoveKind::Soldier { from, .. } => *from,
            MoveKind::Officer { path, .. } => path[0],
            MoveKind::Huff => self.huff.expect("a huff names its officer"),
        }
    }

    /// The moving piece's end point (the huffed officer for a bare huff).
    pub fn to(&self) -> Point {
        match &self.kind {
            MoveKind::Soldier { to, .. } => *to,
            MoveKind::Officer { path, .. } => *path.last().expect("non-empty path"),
            MoveKind::Huff => self.huff.expect("a huff names its officer"),
        }
    }
}
