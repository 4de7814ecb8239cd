//! The move notation (docs/RULES.md section 10): writing a [`Move`] (its
//! `Display`) and reading one back among the legal moves of a position
//! ([`parse_move`]).

use super::{Move, MoveKind, Variant, legal_moves};
use crate::board::Point;
use crate::position::Position;
use std::fmt;

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(h) = self.huff {
            write!(f, "h{h}")?;
            if matches!(self.kind, MoveKind::Huff) {
                return Ok(());
            }
            f.write_str(":")?;
        }
        match &self.kind {
            MoveKind::Soldier { from, to } => write!(f, "{from}-{to}"),
            MoveKind::Officer { path, taken } => {
                if *taken == 0 {
                    write!(f, "{}-{}", path[0], path[1])
                } else {
                    for (i, p) in path.iter().enumerate() {
                        if i > 0 {
                            f.write_str("x")?;
                        }
                        write!(f, "{p}")?;
                    }
                    Ok(())
                }
            }
            MoveKind::Huff => Ok(()),
        }
    }
}

/// What is wrong with a move given as text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// Not in move notation.
    #[error("'{}' is not a move: use c3-c4, d6xd4xb4, he6:c3-c4 or he6", .0.escape_debug())]
    Syntax(String),
    /// Well-formed but not legal here.
    #[error("'{}' is not a legal move in this position", .0.escape_debug())]
    Illegal(String),
}

/// Parse a move in the notation of docs/RULES.md section 10 and find it among
/// the legal moves; a capture may be given by any of its paths.
pub fn parse_move(pos: &Position, variant: &Variant, text: &str) -> Result<Move, MoveError> {
    let syntax = || MoveError::Syntax(text.to_string());
    let t = text.trim();
    let (huff, body) = match t.strip_prefix('h') {
        Some(rest) => match rest.split_once(':') {
            Some((h, body)) => (Some(Point::from_name(h).ok_or_else(syntax)?), Some(body)),
            None => (Some(Point::from_name(rest).ok_or_else(syntax)?), None),
        },
        None => (None, Some(t)),
    };
    let legal = legal_moves(pos, variant);
    let found = match body {
        None => legal
            .into_iter()
            .find(|m| matches!(m.kind, MoveKind::Huff) && m.huff == huff),
        Some(body) => {
            let (path, capture) = if body.contains('x') {
                (body.split('x').collect::<Vec<_>>(), true)
            } else {
                (body.split('-').collect::<Vec<_>>(), false)
            };
            let path: Vec<Point> = path
                .iter()
                .map(|n| Point::from_name(n))
                .collect::<Option<_>>()
                .ok_or_else(syntax)?;
            if path.len() < 2 || (!capture && path.len() != 2) {
                return Err(syntax());
            }
            let mut taken = 0u64;
            if capture {
                for w in path.windows(2) {
                    let j = w[0]
                        .jumps()
                        .find(|j| j.land == w[1])
                        .ok_or_else(|| MoveError::Illegal(text.to_string()))?;
                    taken |= j.over.bit();
                }
            }
            let (from, to) = (path[0], *path.last().unwrap());
            legal.into_iter().find(|m| {
                m.huff == huff
                    && match &m.kind {
                        MoveKind::Soldier { from: f, to: tt } => {
                            !capture && *f == from && *tt == to
                        }
                        MoveKind::Officer { path: p, taken: tk } => {
                            p[0] == from && *p.last().unwrap() == to && *tk == taken
                        }
                        MoveKind::Huff => false,
                    }
            })
        }
    };
    found.ok_or_else(|| MoveError::Illegal(text.to_string()))
}
