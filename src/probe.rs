//! Probing: the value of a position and of every legal move from it, read
//! from any [`TierStore`] (solved tiers in memory or table files).

use crate::Value;
use crate::position::{Position, Side};
use crate::rules::{self, Move, Variant};
use crate::solve::{Lookup, SolveError, TierStore};

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
