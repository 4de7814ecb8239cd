//! Game-theoretic values (docs/RULES.md section 8): win, draw or loss for the
//! side to move with the distance to the end in plies, their order of
//! preference, their 16-bit code in tables, and win/draw/loss without the
//! distance ([`Wdl`]).

use std::cmp::Ordering;
use std::fmt;

/// The value of a position for the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Value {
    /// The side to move wins in this many plies with best play.
    Win(u16),
    /// Neither side can force a win.
    Draw,
    /// The side to move loses in this many plies with best play.
    Loss(u16),
}

impl Value {
    /// The worst value there is: lost, game already over. It is the neutral
    /// element of [`Value::best`].
    pub(crate) const WORST: Value = Value::Loss(0);

    /// The value for the player who moved into a position of value `self`
    /// (seen by the opponent), one ply further from the end.
    #[inline]
    pub(crate) fn back(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d + 1),
            Value::Loss(d) => Value::Win(d + 1),
            Value::Draw => Value::Draw,
        }
    }

    /// Preference score: higher is better for the side to move (a win
    /// sooner, a loss later).
    #[inline]
    fn score(self) -> i32 {
        match self {
            Value::Win(d) => 1_000_000 - d as i32,
            Value::Draw => 0,
            Value::Loss(d) => -1_000_000 + d as i32,
        }
    }

    /// The better of two values for the side to move.
    #[inline]
    pub(crate) fn best(self, other: Value) -> Value {
        if other.score() > self.score() {
            other
        } else {
            self
        }
    }

    /// Distance in plies (0 for draws).
    pub fn plies(self) -> u16 {
        match self {
            Value::Win(d) | Value::Loss(d) => d,
            Value::Draw => 0,
        }
    }

    /// `"win"`, `"draw"` or `"loss"`.
    pub fn result(self) -> &'static str {
        match self {
            Value::Win(_) => "win",
            Value::Draw => "draw",
            Value::Loss(_) => "loss",
        }
    }

    /// 16-bit code: 0 draw, `2d + 1` win in d, `2d + 2` loss in d.
    #[inline]
    pub fn code(self) -> u16 {
        match self {
            Value::Draw => 0,
            Value::Win(d) => 2 * d + 1,
            Value::Loss(d) => 2 * d + 2,
        }
    }

    /// Inverse of [`Value::code`].
    #[inline]
    pub fn from_code(c: u16) -> Value {
        if c == 0 {
            Value::Draw
        } else if c & 1 == 1 {
            Value::Win((c - 1) / 2)
        } else {
            Value::Loss((c - 2) / 2)
        }
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Ordered by preference of the side to move: `Loss(0) < Loss(5) < Draw <
/// Win(5) < Win(1)`.
impl Ord for Value {
    fn cmp(&self, other: &Self) -> Ordering {
        self.score().cmp(&other.score())
    }
}

fn plies_word(d: u16) -> &'static str {
    if d == 1 { "ply" } else { "plies" }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(d) => write!(f, "win in {d} {}", plies_word(*d)),
            Value::Draw => f.write_str("draw"),
            Value::Loss(d) => write!(f, "loss in {d} {}", plies_word(*d)),
        }
    }
}

/// Win, draw or loss for the side to move, without the distance.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Wdl {
    /// The side to move loses.
    Loss,
    /// Neither side can force a win.
    Draw,
    /// The side to move wins.
    Win,
}

impl Wdl {
    /// `"win"`, `"draw"` or `"loss"`.
    pub(crate) fn result(self) -> &'static str {
        match self {
            Wdl::Win => "win",
            Wdl::Draw => "draw",
            Wdl::Loss => "loss",
        }
    }
}

impl From<Value> for Wdl {
    fn from(v: Value) -> Wdl {
        match v {
            Value::Win(_) => Wdl::Win,
            Value::Draw => Wdl::Draw,
            Value::Loss(_) => Wdl::Loss,
        }
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.result())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_and_codes() {
        let v = [
            Value::Loss(0),
            Value::Loss(5),
            Value::Draw,
            Value::Win(5),
            Value::Win(1),
        ];
        for w in v.windows(2) {
            assert!(w[0] < w[1]);
            assert_eq!(w[0].best(w[1]), w[1]);
            assert_eq!(w[1].best(w[0]), w[1]);
        }
        for x in v {
            assert_eq!(Value::from_code(x.code()), x);
            assert_eq!(x.best(Value::WORST), x);
        }
        assert_eq!(Value::Loss(3).back(), Value::Win(4));
        assert_eq!(Value::Win(0).back(), Value::Loss(1));
    }
}
