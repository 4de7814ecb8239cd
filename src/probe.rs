//! Probing: the value of a position and of every legal move from it, read
//! from any [`TierStore`] (solved tiers in memory or table files).

use crate::Value;
use crate::position::{Position, Side};
use crate::rules::{self, Move, Variant};
use crate::solve::{Bound, Floor, Lookup, SolveError, TierStore};

/// A legal move and the value it leads to.
#[derive(Clone, Debug)]
pub struct MoveValue {
    /// The move.
    pub mv: Move,
    /// Its value for the player making it, plies counted from the position
    /// before the move (a best move has the position's own value).
    pub value: Value,
}

/// The value of a position and of each of its moves.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The position.
    pub position: Position,
    /// Its value for the side to move.
    pub value: Value,
    /// The winner when the game is over.
    pub over: Option<Side>,
    /// Every legal move, best first (ties in move-notation order).
    pub moves: Vec<MoveValue>,
    /// Whether the distances are exact: `false` when a value came from a
    /// WDL-only table; then only win/draw/loss is known (the plies of
    /// [`Analysis::value`] and of the moves mean nothing but for a game
    /// already over, and the moves are ordered by win/draw/loss alone).
    pub distances: bool,
}

/// Why a well-formed position cannot arise under a variant
/// ([`check_position`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NotInVariant {
    /// The position has huff rights, which only `capture=huff` gives.
    #[error(
        "the position has huff rights, which variant {variant} (capture={}) never gives",
        variant.capture.name()
    )]
    HuffRights {
        /// The variant.
        variant: Variant,
    },
}

/// Whether `pos` can arise under `variant`: huff rights only exist under
/// `capture=huff`.
pub fn check_position(pos: &Position, variant: &Variant) -> Result<(), NotInVariant> {
    if pos.huff() != 0 && !variant.huffs() {
        return Err(NotInVariant::HuffRights { variant: *variant });
    }
    Ok(())
}

/// Value a position and all its moves from `store`.
pub fn analyse(
    store: &dyn TierStore,
    variant: &Variant,
    pos: &Position,
) -> Result<Analysis, SolveError> {
    let mut look = Lookup::probing(store, *variant);
    let over = rules::outcome(pos, variant);
    let value = match over {
        Some(w) if w == pos.side() => Value::Win(0),
        Some(_) => Value::Loss(0),
        None => look.value(pos)?,
    };
    let mut moves = Vec::new();
    for mv in rules::legal_moves(pos, variant) {
        let child = rules::play(pos, variant, &mv);
        let value = look.value(&child)?.back();
        moves.push(MoveValue { mv, value });
    }
    let distances = store.has_distances();
    moves.sort_by(|a, b| {
        let order = if distances {
            b.value.cmp(&a.value)
        } else {
            crate::Wdl::from(b.value).cmp(&crate::Wdl::from(a.value))
        };
        order.then_with(|| a.mv.to_string().cmp(&b.mv.to_string()))
    });
    Ok(Analysis {
        position: *pos,
        value,
        over,
        moves,
        distances,
    })
}

/// What the files above one or more floors prove of a position and of
/// each of its moves (`asalto query --floor`, the server's
/// `/api/v1/bounds`): each floor's analysis of the game above it, and
/// the bounds on the real game they give, alone and together. A value of
/// the game above a floor is never a value of the real game: only the
/// [`Bound`]s are.
#[derive(Clone, Debug)]
pub struct Bracket {
    /// Each floor and its analysis of the position (at least one).
    pub found: Vec<(Floor, Analysis)>,
}

/// A move and what each floor of a [`Bracket`] proves of it: its bound and
/// its value in that floor's game, in the order of [`Bracket::found`].
#[derive(Clone, Debug)]
pub struct MoveBounds {
    /// The move.
    pub mv: Move,
    /// Per floor: the bound it proves, and the move's value in its game.
    pub per_floor: Vec<(Bound, Value)>,
}

/// The bracket `[lower, upper]` (-1 officers win, 0 draw, 1 soldiers win)
/// that `bounds` give together.
pub fn bracket_of(bounds: impl IntoIterator<Item = Bound>) -> (i8, i8) {
    bounds.into_iter().fold((-1, 1), |(lo, hi), b| {
        let (l, h) = b.range();
        (lo.max(l), hi.min(h))
    })
}

impl Bracket {
    /// The position (that of the first floor's analysis).
    pub fn position(&self) -> Position {
        self.found[0].1.position
    }

    /// What each floor proves of the position, in the order of `found`.
    pub fn bounds(&self) -> Vec<Bound> {
        let side = self.position().side();
        self.found
            .iter()
            .map(|(f, a)| f.bound(side, a.value))
            .collect()
    }

    /// The bracket of the position: `(lower, upper)` from the soldiers'
    /// side, -1 officers win, 0 draw, 1 soldiers win.
    pub fn range(&self) -> (i8, i8) {
        bracket_of(self.bounds())
    }

    /// Each move's bounds, in the order of the first floor's moves (best
    /// first in its game).
    pub fn moves(&self) -> Vec<MoveBounds> {
        let side = self.position().side();
        self.found[0]
            .1
            .moves
            .iter()
            .map(|m| MoveBounds {
                mv: m.mv.clone(),
                per_floor: self
                    .found
                    .iter()
                    .map(|(f, a)| {
                        let v = a
                            .moves
                            .iter()
                            .find(|x| x.mv == m.mv)
                            .map_or(m.value, |x| x.value);
                        (f.bound(side, v), v)
                    })
                    .collect(),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huff_rights_only_under_capture_huff() {
        let pos = Position::start();
        for v in Variant::all() {
            assert_eq!(check_position(&pos, &v), Ok(()));
        }
        let huffed: Position = "3/O1O/SS3SS/SSSSSSS/SSSSSSS/SSS/SSS s c6".parse().unwrap();
        for v in Variant::all() {
            let r = check_position(&huffed, &v);
            if v.huffs() {
                assert_eq!(r, Ok(()));
            } else {
                assert_eq!(r, Err(NotInVariant::HuffRights { variant: v }));
                let text = r.unwrap_err().to_string();
                assert!(
                    text.contains("huff rights") && !text.contains('\n'),
                    "{text}"
                );
            }
        }
    }
}
