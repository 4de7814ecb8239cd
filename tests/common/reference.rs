//! A reference solver: plain fixed-point iteration over explicitly enumerated
//! states (docs/RULES.md section 8), built on the slow move generator only.
//!
//! Every position reachable from a root is enumerated (positions with huff
//! rights are ordinary states). Values are for the side to move:
//!
//! * a finished game has distance 0: a win if the side to move is the winner,
//!   else a loss;
//! * then rounds `t = 1, 2, ...`: an unresolved position is `Win(t)` if some
//!   successor is `Loss(t - 1)`, `Loss(t)` if every successor is a resolved
//!   win and the largest of their distances is `t - 1`; each round reads only
//!   the values of earlier rounds;
//! * iteration stops at the first round that resolves nothing; what is left is
//!   a `Draw`.

use std::collections::HashMap;

use super::slow;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RefValue {
    Win(u16),
    Draw,
    Loss(u16),
}

pub struct RefSolution {
    /// Every state of the closure, root first, canonical notation.
    pub states: Vec<String>,
    pub index: HashMap<String, usize>,
    pub values: Vec<RefValue>,
}

impl RefSolution {
    pub fn value(&self, pos: &str) -> Option<RefValue> {
        self.index
            .get(&slow::canonical(pos))
            .map(|&i| self.values[i])
    }
}

/// Enumerate the closure of `root` and solve it. Panics if the closure has
/// more than `limit` states.
pub fn solve(root: &str, variant: &str, limit: usize) -> RefSolution {
    try_solve(root, variant, limit)
        .unwrap_or_else(|| panic!("closure of {root} [{variant}] larger than {limit}"))
}

/// As [`solve`], or `None` if the closure has more than `limit` states.
pub fn try_solve(root: &str, variant: &str, limit: usize) -> Option<RefSolution> {
    // 1. Enumerate.
    let mut states = vec![slow::canonical(root)];
    let mut index: HashMap<String, usize> = HashMap::new();
    index.insert(states[0].clone(), 0);
    let mut succ: Vec<Vec<usize>> = Vec::new();
    let mut i = 0;
    while i < states.len() {
        let mut children = Vec::new();
        for child in slow::successors(&states[i], variant) {
            let next = states.len();
            let id = *index.entry(child.clone()).or_insert(next);
            if id == next {
                states.push(child);
                if states.len() > limit {
                    return None;
                }
            }
            children.push(id);
        }
        succ.push(children);
        i += 1;
    }

    // 2. Terminal positions.
    let n = states.len();
    let mut values: Vec<Option<RefValue>> = vec![None; n];
    for (i, s) in states.iter().enumerate() {
        // The slow generator lists no move exactly when the game is over.
        if succ[i].is_empty() {
            let winner = slow::outcome(s, variant).expect("no moves but not over");
            let to_move = slow::parse_pos(s).side;
            values[i] = Some(if winner == to_move {
                RefValue::Win(0)
            } else {
                RefValue::Loss(0)
            });
        }
    }

    // 3. Rounds.
    let mut t: u16 = 1;
    loop {
        let before = values.clone();
        let mut resolved = 0;
        for i in 0..n {
            if before[i].is_some() {
                continue;
            }
            let children: Vec<Option<RefValue>> = succ[i].iter().map(|&c| before[c]).collect();
            if children.contains(&Some(RefValue::Loss(t - 1))) {
                values[i] = Some(RefValue::Win(t));
                resolved += 1;
                continue;
            }
            let all_wins = children.iter().all(|v| matches!(v, Some(RefValue::Win(_))));
            if all_wins {
                let max = children
                    .iter()
                    .map(|v| match v {
                        Some(RefValue::Win(d)) => *d,
                        _ => unreachable!(),
                    })
                    .max()
                    .unwrap();
                // A position whose successors were all resolved earlier would
                // have been resolved in an earlier round.
                assert_eq!(max, t - 1, "round {t}: {}", states[i]);
                values[i] = Some(RefValue::Loss(t));
                resolved += 1;
            }
        }
        if resolved == 0 {
            break;
        }
        t += 1;
    }

    let values = values
        .into_iter()
        .map(|v| v.unwrap_or(RefValue::Draw))
        .collect();
    Some(RefSolution {
        states,
        index,
        values,
    })
}
