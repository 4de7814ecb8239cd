//! Lines of play read from solved values: for a won or lost position, a
//! game the winner can follow to its end without repeating a position
//! ([`winning_line`]); for any position, the tree of every move's value a
//! few plies deep ([`reply_tree`]), in which each side's drawing replies
//! to the other's moves can be read.
//!
//! Values come from any [`TierStore`] (tables, or tiers solved in memory;
//! [`crate::ondemand::with_store`] gives one that holds a position's whole
//! closure). With distances a line follows them: the winner's shortest
//! win, the loser's longest loss, so it ends by itself. From WDL-only
//! values the winner's winning moves alone do not promise an end (a won
//! position can be left for another won position forever), so the line is
//! found by a depth-first search over the winner's winning moves, the
//! loser's reply fixed at each position, that never enters a position it
//! has entered before: every position on it is won for the winner, so
//! some game from it ends in the winner's win against those replies, and
//! the search finds one (and with no position visited twice, it ends).

use crate::index::TierKey;
use crate::position::{Position, Side};
use crate::probe::{self, Analysis, MoveValue};
use crate::progress::{Observer, Progress, Throttle};
use crate::rules::{self, Move, Variant};
use crate::solve::{SolveError, TierStore};
use crate::{Value, Wdl};
use std::collections::HashSet;

/// Why no line was given.
#[derive(Debug, thiserror::Error)]
pub enum LineError {
    /// The position is a draw: no side wins (see [`reply_tree`]).
    #[error("{0} is a draw: no side can force a win, so there is no winning line")]
    Draw(Position),
    /// The search entered more positions than its bound without reaching
    /// the end of a game.
    #[error("no end of the game reached within {0} positions searched (raise the bound)")]
    Bound(u64),
    /// The values read contradict each other: from a won position the
    /// search ran out of winning moves, or a game ended in the loser's win.
    #[error(
        "the values read are inconsistent: no winning line from {0} along its won positions (check the tables with asalto verify)"
    )]
    Inconsistent(Position),
    /// A value could not be read.
    #[error(transparent)]
    Solve(#[from] SolveError),
}

/// One move of a line.
#[derive(Clone, Debug)]
pub struct Step {
    /// The move.
    pub mv: Move,
    /// Its value for the side making it.
    pub value: Value,
    /// The position it leads to.
    pub after: Position,
}

/// A game from a won (or lost) position to its end.
#[derive(Clone, Debug)]
pub struct Line {
    /// The position it starts from.
    pub start: Position,
    /// Its value for the side to move.
    pub value: Value,
    /// The side that wins.
    pub winner: Side,
    /// The moves, the winner's and the loser's in turn.
    pub steps: Vec<Step>,
    /// Whether the moves were chosen by distance (shortest win, longest
    /// loss); `false`: WDL-only values and the search of the module doc.
    pub distances: bool,
    /// Positions entered by the search (the line's own included).
    pub searched: u64,
}

impl Line {
    /// The position the line ends in (the game is over there).
    pub fn end(&self) -> Position {
        self.steps.last().map_or(self.start, |s| s.after)
    }
}

/// Where a position stands in the game: a finished game first, then tiers
/// in solving order ([`TierKey::level`]). A move to a lower order is one
/// the game cannot take back.
fn progress(pos: &Position, variant: &Variant) -> (u8, u8, u8, u32) {
    match TierKey::of(pos) {
        Some(t) if rules::outcome(pos, variant).is_none() => {
            let (n, k, p) = t.canonical().level(variant);
            (1, n, k, p)
        }
        _ => (0, 0, 0, 0),
    }
}

/// The moves the search tries at `a`, first to last: the winner's winning
/// moves (by distance; from WDL-only values the one that moves the game on
/// furthest first); the loser's one reply (its longest loss; from WDL-only
/// values the one that moves the game on least). Ties in notation order.
fn candidates(a: &Analysis, winner: Side, variant: &Variant) -> Vec<MoveValue> {
    let after = |m: &MoveValue| progress(&rules::play(&a.position, variant, &m.mv), variant);
    if a.position.side() == winner {
        let mut wins: Vec<MoveValue> = a
            .moves
            .iter()
            .filter(|m| Wdl::from(m.value) == Wdl::Win)
            .cloned()
            .collect();
        if !a.distances {
            // A stable sort: notation order among equals.
            wins.sort_by_cached_key(after);
        }
        wins
    } else if a.distances {
        a.moves.first().cloned().into_iter().collect()
    } else {
        // The first of the latest.
        let best = a.moves.iter().map(after).max();
        a.moves
            .iter()
            .find(|m| Some(after(m)) == best)
            .cloned()
            .into_iter()
            .collect()
    }
}

/// One position of the search's path: its untried candidates (the next
/// last) and the step taken from it.
struct Frame {
    position: Position,
    todo: Vec<MoveValue>,
    taken: Option<Step>,
}

impl Frame {
    fn new(a: &Analysis, winner: Side, variant: &Variant) -> Frame {
        let mut todo = candidates(a, winner, variant);
        todo.reverse();
        Frame {
            position: a.position,
            todo,
            taken: None,
        }
    }
}

/// What [`winning_line`] reports to its observer: the positions its
/// search has entered (`done`) against its bound (`total`).
pub const SEARCH_STEP: &str = "searching a line";

/// A game from `pos` that the winner can follow to its end and that never
/// repeats a position (module doc). [`LineError::Draw`] for a drawn
/// position, [`LineError::Bound`] when more than `bound` positions were
/// entered. `progress` is told of the positions entered (step
/// [`SEARCH_STEP`], at most every `Throttle::PERIOD`); a line found
/// before the bound ends the search without a last report.
pub fn winning_line(
    store: &dyn TierStore,
    variant: &Variant,
    pos: &Position,
    bound: u64,
    progress: &dyn Observer,
) -> Result<Line, LineError> {
    let root = probe::analyse(store, variant, pos)?;
    let winner = match Wdl::from(root.value) {
        Wdl::Win => pos.side(),
        Wdl::Loss if pos.side() == Side::Soldiers => Side::Officers,
        Wdl::Loss => Side::Soldiers,
        Wdl::Draw => return Err(LineError::Draw(*pos)),
    };
    let line = |path: Vec<Frame>, searched| Line {
        start: *pos,
        value: root.value,
        winner,
        steps: path.into_iter().filter_map(|f| f.taken).collect(),
        distances: root.distances,
        searched,
    };
    if let Some(w) = root.over {
        return if w == winner {
            Ok(line(Vec::new(), 1))
        } else {
            Err(LineError::Inconsistent(*pos))
        };
    }
    let throttle = Throttle::default();
    let mut seen: HashSet<Position> = HashSet::from([*pos]);
    let mut path = vec![Frame::new(&root, winner, variant)];
    while let Some(frame) = path.last_mut() {
        let Some(m) = frame.todo.pop() else {
            path.pop();
            continue;
        };
        let after = rules::play(&frame.position, variant, &m.mv);
        if !seen.insert(after) {
            continue;
        }
        if seen.len() as u64 > bound {
            return Err(LineError::Bound(bound));
        }
        throttle.report(
            progress,
            &Progress {
                step: SEARCH_STEP,
                done: seen.len() as u64,
                total: bound,
                ..Progress::default()
            },
        );
        frame.taken = Some(Step {
            mv: m.mv,
            value: m.value,
            after,
        });
        let a = probe::analyse(store, variant, &after)?;
        match a.over {
            Some(w) if w == winner => return Ok(line(path, seen.len() as u64)),
            Some(_) => return Err(LineError::Inconsistent(after)),
            None => path.push(Frame::new(&a, winner, variant)),
        }
    }
    Err(LineError::Inconsistent(*pos))
}

/// A position of a [`reply_tree`]: its value and every move's, each
/// followed by the tree of the position it leads to while plies are left.
#[derive(Clone, Debug)]
pub struct ReplyNode {
    /// The position, its value and every legal move's value, best first.
    pub analysis: Analysis,
    /// The trees after each move of [`Analysis::moves`], in the same
    /// order (empty at the last ply and when the game is over).
    pub after: Vec<ReplyNode>,
}

impl ReplyNode {
    /// Positions valued in this tree (this one included).
    pub fn size(&self) -> u64 {
        1 + self.after.iter().map(ReplyNode::size).sum::<u64>()
    }
}

/// Every move's value from `pos` and, `depth` plies deep, from each
/// position the moves lead to: in a drawn position the moves valued draw
/// are the side to move's drawing replies, so the tree shows each side's
/// replies that hold the draw against every move of the other (and which
/// of the other's moves lose). `depth` 1 is [`probe::analyse`] alone.
pub fn reply_tree(
    store: &dyn TierStore,
    variant: &Variant,
    pos: &Position,
    depth: u32,
) -> Result<ReplyNode, SolveError> {
    let analysis = probe::analyse(store, variant, pos)?;
    let mut after = Vec::new();
    if depth > 1 {
        for m in &analysis.moves {
            let child = rules::play(pos, variant, &m.mv);
            after.push(reply_tree(store, variant, &child, depth - 1)?);
        }
    }
    Ok(ReplyNode { analysis, after })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::TierKey;
    use crate::ondemand::{self, Options};
    use crate::progress::Quiet;
    use std::sync::Arc;

    /// The officers win in 10 plies (216,000 positions to solve).
    const OFFICERS_WIN: &str = "SSS/S1S/O1S1S1O/7/2S1S2/3/3 s";
    /// The soldiers win in 5 plies (32,400 positions).
    const SOLDIERS_WIN: &str = "SSS/S1S/O1SS3/3SS2/6O/3/3 s";
    /// A draw (17,280 positions).
    const DRAWN: &str = "SSS/SS1/O1S1S2/7/2S1S2/3/3 s";

    /// A store that serves another's values as a WDL-only table reads them
    /// back: a win or a loss in one ply standing for any distance, a loss
    /// in 0 kept.
    struct WdlOnly<'a>(&'a dyn TierStore);

    impl TierStore for WdlOnly<'_> {
        fn tier(&self, key: &TierKey) -> Result<Option<Arc<[u16]>>, SolveError> {
            Ok(self.0.tier(key)?.map(|t| {
                t.iter()
                    .map(|&c| match Value::from_code(c) {
                        Value::Draw => Value::Draw,
                        Value::Win(_) => Value::Win(1),
                        Value::Loss(0) => Value::Loss(0),
                        Value::Loss(_) => Value::Loss(1),
                    })
                    .map(Value::code)
                    .collect()
            }))
        }

        fn has_distances(&self) -> bool {
            false
        }
    }

    /// Solve `pos`'s closure in memory and hand `f` the store.
    fn solved<R>(pos: &Position, f: impl FnOnce(&dyn TierStore) -> R) -> R {
        let opts = Options {
            threads: 1,
            ..Options::default()
        };
        let mut out = None;
        ondemand::with_store(pos, &Variant::ASSAUT, None, &opts, &Quiet, |s| {
            out = Some(f(s));
            Ok(())
        })
        .unwrap();
        out.unwrap()
    }

    /// What every line must be: legal moves played in turn, none repeating
    /// a position, the winner's moves winning and the loser's losing (by
    /// the values of `exact`, a store with distances), ending in the
    /// winner's win. Returns the root's exact value.
    fn check(l: &Line, exact: &dyn TierStore) -> Value {
        let v = Variant::ASSAUT;
        let root = probe::analyse(exact, &v, &l.start).unwrap().value;
        assert_eq!(Wdl::from(root), Wdl::from(l.value));
        let mut seen = HashSet::from([l.start]);
        let mut before = l.start;
        for s in &l.steps {
            assert!(
                rules::legal_moves(&before, &v).contains(&s.mv),
                "{before} {}",
                s.mv
            );
            assert_eq!(rules::play(&before, &v, &s.mv), s.after);
            assert!(seen.insert(s.after), "{} comes twice", s.after);
            let want = if before.side() == l.winner {
                Wdl::Win
            } else {
                Wdl::Loss
            };
            assert_eq!(Wdl::from(s.value), want, "{before} {}", s.mv);
            let exact_after = probe::analyse(exact, &v, &s.after).unwrap().value;
            assert_eq!(Wdl::from(exact_after.back()), want);
            before = s.after;
        }
        assert_eq!(rules::outcome(&l.end(), &v), Some(l.winner));
        root
    }

    #[test]
    fn with_distances_a_line_is_as_long_as_the_value_says() {
        for (text, winner, plies) in [
            (OFFICERS_WIN, Side::Officers, 10),
            (SOLDIERS_WIN, Side::Soldiers, 5),
        ] {
            let pos: Position = text.parse().unwrap();
            solved(&pos, |store| {
                let l = winning_line(store, &Variant::ASSAUT, &pos, 1_000, &Quiet).unwrap();
                assert!(l.distances);
                assert_eq!(l.winner, winner);
                let root = check(&l, store);
                // The shortest win against the longest loss: exactly the
                // distance, one position entered a ply.
                assert_eq!(root.plies(), plies);
                assert_eq!(l.steps.len(), plies as usize, "{text}");
                assert_eq!(l.searched, plies as u64 + 1);
                // Each move keeps the distance counting down.
                let mut left = plies;
                for s in &l.steps {
                    assert_eq!(s.value.plies(), left);
                    left -= 1;
                }
            });
        }
    }

    #[test]
    fn from_wdl_only_values_the_search_still_ends_the_game() {
        for text in [OFFICERS_WIN, SOLDIERS_WIN] {
            let pos: Position = text.parse().unwrap();
            solved(&pos, |store| {
                let wdl = WdlOnly(store);
                let seen = std::sync::Mutex::new(Vec::new());
                let watch = |p: &Progress| {
                    assert_eq!((p.step, p.total), (SEARCH_STEP, 100_000));
                    seen.lock().unwrap().push(p.done);
                };
                let l = winning_line(&wdl, &Variant::ASSAUT, &pos, 100_000, &watch).unwrap();
                assert!(!l.distances);
                check(&l, store);
                // The search reports the positions it entered: the first
                // after the start (the throttle lets the first report
                // through), then more, never past its count in all.
                let seen = seen.into_inner().unwrap();
                if l.searched > 1 {
                    assert_eq!(seen.first(), Some(&2), "{text}");
                }
                assert!(seen.iter().all(|&d| d >= 2 && d <= l.searched), "{text}");
                assert!(seen.windows(2).all(|w| w[0] < w[1]), "{text}");
                // The winner makes the last move (the loser's replies are
                // not its longest resistance, so the line may be shorter
                // or longer than the distance).
                assert_eq!(l.steps.len() % 2 == 1, pos.side() == l.winner, "{text}");
                // A bound below what the search needed is reported, typed.
                if l.searched > 1 {
                    match winning_line(&wdl, &Variant::ASSAUT, &pos, 1, &Quiet) {
                        Err(LineError::Bound(1)) => {}
                        other => panic!("{other:?}"),
                    }
                }
            });
        }
    }

    #[test]
    fn the_loser_to_move_gets_the_line_too() {
        // After the soldiers' first move of the officers' win, the officers
        // are to move and win: the line starts with the winner.
        let pos: Position = OFFICERS_WIN.parse().unwrap();
        solved(&pos, |store| {
            let l = winning_line(store, &Variant::ASSAUT, &pos, 1_000, &Quiet).unwrap();
            let next = l.steps[0].after;
            let m = winning_line(store, &Variant::ASSAUT, &next, 1_000, &Quiet).unwrap();
            assert_eq!(m.winner, Side::Officers);
            assert_eq!(m.steps.len(), l.steps.len() - 1);
            check(&m, store);
        });
    }

    #[test]
    fn a_draw_has_no_line_but_a_tree_of_replies() {
        let pos: Position = DRAWN.parse().unwrap();
        let v = Variant::ASSAUT;
        solved(&pos, |store| {
            match winning_line(store, &v, &pos, 1_000, &Quiet) {
                Err(LineError::Draw(p)) => assert_eq!(p, pos),
                other => panic!("{other:?}"),
            }
            let tree = reply_tree(store, &v, &pos, 3).unwrap();
            assert_eq!(tree.analysis.value, Value::Draw);
            // Every node: one subtree per move, each the position the move
            // leads to, valued as the move says (seen from the other side),
            // down to the last ply.
            fn walk(t: &ReplyNode, plies: u32) -> u64 {
                let v = Variant::ASSAUT;
                let a = &t.analysis;
                assert_eq!(t.after.len(), if plies > 1 { a.moves.len() } else { 0 });
                let mut count = 1;
                for (m, next) in a.moves.iter().zip(&t.after) {
                    assert_eq!(next.analysis.position, rules::play(&a.position, &v, &m.mv));
                    assert_eq!(Wdl::from(next.analysis.value.back()), Wdl::from(m.value));
                    count += walk(next, plies - 1);
                }
                // A drawn position has a drawing move, and no winning one.
                if a.value == Value::Draw && a.over.is_none() {
                    assert!(a.moves.iter().any(|m| m.value == Value::Draw));
                    assert!(a.moves.iter().all(|m| Wdl::from(m.value) != Wdl::Win));
                }
                count
            }
            let count = walk(&tree, 3);
            assert_eq!(count, tree.size());
            assert!(count > 1 + tree.analysis.moves.len() as u64);
            assert_eq!(reply_tree(store, &v, &pos, 1).unwrap().size(), 1);
        });
    }
}
