//! The JSON objects that `asalto query --json`, `asalto solve --json` and
//! `asalto moves --json` print and that `asalto serve` answers with: built
//! here, once, so that the command line and the server give the same
//! object for the same position.
//!
//! Objects are [`serde_json::Value`]s; printed with `to_string` their keys
//! come in alphabetical order, on one line.
//!
//! ```
//! use asalto_tb::{Position, Variant, json, ondemand};
//! let p: Position = "SSS/SSS/O1SS3/4S2/6O/3/3 s".parse().unwrap();
//! let solved = ondemand::solve(&p, &Variant::ASSAUT, &ondemand::Options::default()).unwrap();
//! let object = json::analysis(&solved.analysis, &Variant::ASSAUT);
//! assert_eq!(object["moves"][0]["move"], "e4-e5");
//! assert!(object.to_string().starts_with(r#"{"distances":true,"moves":[{"move":"e4-e5","plies":1,"result":"win"}"#));
//! ```

use crate::board::{self, Bitboard};
use crate::position::Position;
use crate::probe::{Analysis, Bracket, bracket_of};
use crate::rules::{self, Variant};
use crate::solve::{range_words, result_words};
use crate::value::Value;
use serde_json::{Value as Json, json};

/// The names of the points of `b`, sorted.
fn names(b: Bitboard) -> Vec<&'static str> {
    let mut v: Vec<_> = board::points(b).map(|p| p.name()).collect();
    v.sort();
    v
}

/// The value of a position and of each of its moves, best first (what
/// `asalto query --json` prints): `position`, `variant`, `result`
/// (`"win"`, `"draw"` or `"loss"` for the side to move), `plies` (`null`
/// when the tables are WDL-only), `distances`, and `moves`, each with
/// `move`, `result` and `plies`.
pub fn analysis(a: &Analysis, variant: &Variant) -> Json {
    // Without distances (WDL-only tables), plies are known only for a game
    // already over.
    let plies = |v: Value, over: bool| -> Json {
        if a.distances || over {
            json!(v.plies())
        } else {
            Json::Null
        }
    };
    let moves: Vec<Json> = a
        .moves
        .iter()
        .map(|m| {
            json!({
                "move": m.mv.to_string(),
                "result": m.value.result(),
                "plies": plies(m.value, false),
            })
        })
        .collect();
    json!({
        "position": a.position.to_string(),
        "variant": variant.to_string(),
        "result": a.value.result(),
        "plies": plies(a.value, a.over.is_some()),
        "distances": a.distances,
        "moves": moves,
    })
}

/// What floors prove of a position (what `asalto query --floor --json`
/// prints and the server's `/api/v1/bounds` answers): `position`,
/// `variant`, `side_to_move`; `floors`, one object per floor (`floor`, the
/// soldiers under which a drop counts as `assume`'s win, `floor_words`,
/// `proves`: the bound on the real game in words, from the soldiers'
/// side, `floor_game_value` and `floor_game_plies`: the value in the game
/// above the floor, which is not a value of the real game, plies `null`
/// without distances, and `distances`); `bracket` (`lower` and `upper`,
/// each `soldiers win`, `draw` or `officers win`, `decided`, `words`);
/// and `moves`, each with `move`, its `floors` (`floor`, `assume`,
/// `proves`, `floor_game_value`) and its `bracket` (the same keys).
pub fn floor_analysis(b: &Bracket, variant: &Variant) -> Json {
    let words = result_words;
    let pos = b.position();
    let floors: Vec<Json> = b
        .found
        .iter()
        .zip(b.bounds())
        .map(|((f, a), bound)| {
            json!({
                "floor": f.k(), "assume": f.assume().name(), "floor_words": f.to_string(),
                "proves": bound.words(),
                "floor_game_value": a.value.result(),
                "floor_game_plies": if a.distances { Some(a.value.plies()) } else { None },
                "distances": a.distances,
            })
        })
        .collect();
    let (lo, hi) = b.range();
    let moves: Vec<Json> = b
        .moves()
        .iter()
        .map(|m| {
            let (l, h) = bracket_of(m.per_floor.iter().map(|&(bound, _)| bound));
            json!({
                "move": m.mv.to_string(),
                "floors": b.found.iter().zip(&m.per_floor).map(|((f, _), (bound, v))| json!({
                    "floor": f.k(), "assume": f.assume().name(), "proves": bound.words(),
                    "floor_game_value": v.result(),
                })).collect::<Vec<_>>(),
                "bracket": { "lower": words(l), "upper": words(h), "decided": l == h,
                              "words": range_words(l, h) },
            })
        })
        .collect();
    json!({
        "position": pos.to_string(),
        "variant": variant.to_string(),
        "side_to_move": pos.side().name(),
        "floors": floors,
        "bracket": { "lower": words(lo), "upper": words(hi), "decided": lo == hi,
                      "words": range_words(lo, hi) },
        "moves": moves,
    })
}

/// The legal moves of a position (what `asalto moves --json` prints):
/// `position`, `variant` and `moves`, each with `move`, `taken` (soldiers
/// captured), `fault`, `huffable` (the officers a fault exposes to a huff)
/// and `result` (the position after it).
pub fn moves(pos: &Position, variant: &Variant) -> Json {
    let list: Vec<Json> = rules::legal_moves(pos, variant)
        .iter()
        .map(|m| {
            json!({
                "move": m.to_string(),
                "taken": m.taken().count_ones(),
                "fault": m.is_fault(),
                "huffable": names(m.offenders()),
                "result": rules::play(pos, variant, m).to_string(),
            })
        })
        .collect();
    json!({"position": pos.to_string(), "variant": variant.to_string(), "moves": list})
}

/// A game from a won or lost position to its end (`asalto line --json`):
/// `position`, `variant`, `result` and `plies` of the position (plies
/// `null` from WDL-only values), `winner`, `distances`, `line` (each move
/// with `ply`, `side`, `move`, `result` and `plies` for the side making it,
/// and `after`, the position it leads to), `end` and `searched`.
pub fn line(l: &crate::line::Line, variant: &Variant) -> Json {
    let plies = |v: Value| -> Json {
        if l.distances {
            json!(v.plies())
        } else {
            Json::Null
        }
    };
    let mut before = l.start;
    let steps: Vec<Json> = l
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let side = before.side().name();
            before = s.after;
            json!({
                "ply": i + 1,
                "side": side,
                "move": s.mv.to_string(),
                "result": s.value.result(),
                "plies": plies(s.value),
                "after": s.after.to_string(),
            })
        })
        .collect();
    json!({
        "position": l.start.to_string(),
        "variant": variant.to_string(),
        "result": l.value.result(),
        "plies": plies(l.value),
        "winner": l.winner.name(),
        "distances": l.distances,
        "line": steps,
        "end": l.end().to_string(),
        "searched": l.searched,
    })
}

/// A tree of replies (`asalto line --json` on a drawn position): the
/// object of [`analysis`] for its root, each move also carrying `replies`,
/// the same object for the position it leads to, while plies are left.
pub fn reply_tree(node: &crate::line::ReplyNode, variant: &Variant) -> Json {
    let mut o = analysis(&node.analysis, variant);
    if let Some(moves) = o["moves"].as_array_mut() {
        for (m, after) in moves.iter_mut().zip(&node.after) {
            m["replies"] = reply_tree(after, variant);
        }
    }
    o
}

/// A best move of an analysed position, for playing against the perfect
/// opponent (`asalto serve`'s `/api/v1/bestmove`): `position`, `variant`,
/// `move` (the first of [`Analysis::moves`]: the shortest win, else a
/// drawing move, else the longest loss; ties in notation order; `null`
/// when the game is over), `result` and `plies` (its value, as in
/// [`analysis`]) and `after` (the position it leads to, `null` with no
/// move).
pub(crate) fn best_move(a: &Analysis, variant: &Variant) -> Json {
    let best = a.moves.first();
    let plies = if a.distances || a.over.is_some() {
        json!(a.value.plies())
    } else {
        Json::Null
    };
    json!({
        "position": a.position.to_string(),
        "variant": variant.to_string(),
        "move": best.map(|m| m.mv.to_string()),
        "result": a.value.result(),
        "plies": plies,
        "after": best.map(|m| rules::play(&a.position, variant, &m.mv).to_string()),
    })
}
