//! A slow, deliberately simple move generator written straight from
//! `docs/RULES.md`, used as an oracle for the library.
//!
//! It shares no code and no representation with the library: points are
//! `(file, rank)` pairs with `file` in `0..7` (`a`..`g`) and `rank` in `1..=7`,
//! the board is a small character grid, positions go in and come out as
//! notation strings (docs/RULES.md section 9), and every table (lines, jumps,
//! distances, soldier steps) is derived from the prose of the rules at run
//! time (once, then cached). Clarity comes before speed everywhere.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::OnceLock;

// ---------------------------------------------------------------------------
// Board geometry (docs/RULES.md section 1)
// ---------------------------------------------------------------------------

/// A point: `(file, rank)`, file 0..=6 for `a`..=`g`, rank 1..=7.
pub type Pt = (i8, i8);

/// Is `(file, rank)` one of the 33 points of the cross?
pub fn on_board(p: Pt) -> bool {
    let (f, r) = p;
    if !(0..=6).contains(&f) || !(1..=7).contains(&r) {
        return false;
    }
    // Ranks 3-5 are full width; the other ranks only have files c-e.
    (3..=5).contains(&r) || (2..=4).contains(&f)
}

/// Every point, in notation order: rank 7 down to rank 1, files left to right.
pub fn points_in_notation_order() -> &'static [Pt] {
    &geometry().points
}

pub fn name(p: Pt) -> String {
    assert!(on_board(p), "not a point: {p:?}");
    format!("{}{}", (b'a' + p.0 as u8) as char, p.1)
}

pub fn parse_point(s: &str) -> Option<Pt> {
    let b = s.as_bytes();
    if b.len() != 2 || !(b'a'..=b'g').contains(&b[0]) || !(b'1'..=b'7').contains(&b[1]) {
        return None;
    }
    let p = ((b[0] - b'a') as i8, (b[1] - b'0') as i8);
    on_board(p).then_some(p)
}

/// The 17 junctions, copied from docs/RULES.md section 1.
const JUNCTIONS: [&str; 17] = [
    "c7", "e7", "d6", "a5", "c5", "e5", "g5", "b4", "d4", "f4", "a3", "c3", "e3", "g3", "d2", "c1",
    "e1",
];

pub fn is_junction(p: Pt) -> bool {
    on_board(p) && JUNCTIONS.contains(&name(p).as_str())
}

pub fn in_fortress(p: Pt) -> bool {
    (2..=4).contains(&p.0) && (5..=7).contains(&p.1)
}

/// Is there a line segment between `a` and `b`?
pub fn is_segment(a: Pt, b: Pt) -> bool {
    if !on_board(a) || !on_board(b) {
        return false;
    }
    let df = (b.0 - a.0).abs();
    let dr = (b.1 - a.1).abs();
    match (df, dr) {
        (1, 0) | (0, 1) => true,                    // orthogonal neighbours
        (1, 1) => is_junction(a) && is_junction(b), // Alquerque diagonals
        _ => false,
    }
}

/// The eight directions.
pub const DIRS: [(i8, i8); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

fn add(p: Pt, d: (i8, i8)) -> Pt {
    (p.0 + d.0, p.1 + d.1)
}

/// The geometry, evaluated once from the definitions above (a cache only:
/// building it is where the definitions are used).
struct Geometry {
    points: Vec<Pt>,
    /// `[file][rank]`: points joined by a segment.
    neighbours: Vec<Vec<Vec<Pt>>>,
    /// `[file][rank]`: `(over, landing)` of every jump.
    jumps: Vec<Vec<Vec<(Pt, Pt)>>>,
    /// `[file][rank]`: distance to the fortress.
    distance: Vec<Vec<u32>>,
}

fn geometry() -> &'static Geometry {
    static G: OnceLock<Geometry> = OnceLock::new();
    G.get_or_init(|| {
        let mut points = Vec::new();
        for r in (1..=7).rev() {
            for f in 0..=6 {
                if on_board((f, r)) {
                    points.push((f, r));
                }
            }
        }
        let mut neighbours = vec![vec![vec![]; 8]; 7];
        let mut jumps = vec![vec![vec![]; 8]; 7];
        for &p in &points {
            // Neighbours: one step in any of the eight directions along a segment.
            neighbours[p.0 as usize][p.1 as usize] = DIRS
                .iter()
                .map(|&d| add(p, d))
                .filter(|&q| is_segment(p, q))
                .collect();
            // Jumps: two steps in the same direction, both along segments.
            jumps[p.0 as usize][p.1 as usize] = DIRS
                .iter()
                .map(|&d| (add(p, d), add(add(p, d), d)))
                .filter(|&(q, r)| is_segment(p, q) && is_segment(q, r))
                .collect();
        }
        // Distance to the fortress: breadth-first search from its nine points.
        let mut distance = vec![vec![u32::MAX; 8]; 7];
        let mut queue = VecDeque::new();
        for &q in &points {
            if in_fortress(q) {
                distance[q.0 as usize][q.1 as usize] = 0;
                queue.push_back(q);
            }
        }
        while let Some(q) = queue.pop_front() {
            let d = distance[q.0 as usize][q.1 as usize];
            for &n in &neighbours[q.0 as usize][q.1 as usize] {
                if distance[n.0 as usize][n.1 as usize] == u32::MAX {
                    distance[n.0 as usize][n.1 as usize] = d + 1;
                    queue.push_back(n);
                }
            }
        }
        Geometry {
            points,
            neighbours,
            jumps,
            distance,
        }
    })
}

/// Points joined to `p` by a segment.
pub fn neighbours(p: Pt) -> &'static [Pt] {
    &geometry().neighbours[p.0 as usize][p.1 as usize]
}

/// Jumps from `p`: `(over, landing)` pairs on a straight line, both segments
/// existing.
pub fn jumps(p: Pt) -> &'static [(Pt, Pt)] {
    &geometry().jumps[p.0 as usize][p.1 as usize]
}

/// Distance to the fortress in segments along lines (0 inside).
pub fn fortress_distance(p: Pt) -> u32 {
    assert!(on_board(p), "not a point: {p:?}");
    geometry().distance[p.0 as usize][p.1 as usize]
}

/// Mirror a<->g, b<->f, c<->e.
pub fn mirror_point(p: Pt) -> Pt {
    (6 - p.0, p.1)
}

// ---------------------------------------------------------------------------
// Variants (docs/RULES.md section 7)
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Capture {
    Huff,
    Mandatory,
    Free,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Var {
    /// `soldiers=forward` (else `closer`).
    pub forward: bool,
    pub capture: Capture,
    /// `max=on`.
    pub max_on: bool,
    /// `trapped=soldiers-win`.
    pub trapped_soldiers_win: bool,
}

pub fn parse_variant(s: &str) -> Var {
    let preset = match s {
        "assaut" => Some("soldiers=closer,capture=huff,max=on,trapped=soldiers-win"),
        "assaut-mdj" => Some("soldiers=closer,capture=mandatory,max=on,trapped=soldiers-lose"),
        "asalto" => Some("soldiers=closer,capture=huff,max=off,trapped=soldiers-win"),
        "assault" => Some("soldiers=forward,capture=huff,max=on,trapped=soldiers-win"),
        _ => None,
    };
    let s = preset.unwrap_or(s);
    let mut forward = None;
    let mut capture = None;
    let mut max_on = None;
    let mut trapped = None;
    for item in s.split(',') {
        let (k, v) = item
            .split_once('=')
            .unwrap_or_else(|| panic!("bad variant {s:?}"));
        match (k, v) {
            ("soldiers", "closer") => forward = Some(false),
            ("soldiers", "forward") => forward = Some(true),
            ("capture", "huff") => capture = Some(Capture::Huff),
            ("capture", "mandatory") => capture = Some(Capture::Mandatory),
            ("capture", "free") => capture = Some(Capture::Free),
            ("max", "on") => max_on = Some(true),
            ("max", "off") => max_on = Some(false),
            ("trapped", "soldiers-win") => trapped = Some(true),
            ("trapped", "soldiers-lose") => trapped = Some(false),
            _ => panic!("bad variant item {item:?}"),
        }
    }
    Var {
        forward: forward.expect("soldiers switch missing"),
        capture: capture.expect("capture switch missing"),
        max_on: max_on.expect("max switch missing"),
        trapped_soldiers_win: trapped.expect("trapped switch missing"),
    }
}

/// The 24 switch strings.
pub fn all_switch_strings() -> Vec<String> {
    let mut v = Vec::new();
    for s in ["closer", "forward"] {
        for c in ["huff", "mandatory", "free"] {
            for m in ["on", "off"] {
                for t in ["soldiers-win", "soldiers-lose"] {
                    v.push(format!("soldiers={s},capture={c},max={m},trapped={t}"));
                }
            }
        }
    }
    v
}

/// May a soldier step from `from` to `to` (ignoring occupancy)?
pub fn soldier_step_allowed(var: &Var, from: Pt, to: Pt) -> bool {
    if !neighbours(from).contains(&to) {
        return false;
    }
    if in_fortress(from) {
        // Inside: any line, any direction, but never out.
        return in_fortress(to);
    }
    if var.forward {
        // Up (straight or diagonal), or the sideways steps a5-b5-c5, g5-f5-e5.
        let sideways = [
            ((0, 5), (1, 5)),
            ((1, 5), (2, 5)),
            ((6, 5), (5, 5)),
            ((5, 5), (4, 5)),
        ]; // a5-b5 b5-c5 g5-f5 f5-e5
        to.1 > from.1 || sideways.contains(&(from, to))
    } else {
        fortress_distance(to) < fortress_distance(from)
    }
}

// ---------------------------------------------------------------------------
// Positions (docs/RULES.md section 9)
// ---------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    /// `grid[file][rank]`: `'.'` empty, `'S'` soldier, `'O'` officer.
    pub grid: [[char; 8]; 7],
    /// `'s'` or `'o'`.
    pub side: char,
    /// Officers the soldiers may huff now, sorted by point name.
    pub huff: Vec<Pt>,
}

impl Pos {
    pub fn at(&self, p: Pt) -> char {
        self.grid[p.0 as usize][p.1 as usize]
    }
    pub fn set(&mut self, p: Pt, c: char) {
        self.grid[p.0 as usize][p.1 as usize] = c;
    }
    pub fn pieces(&self, c: char) -> Vec<Pt> {
        points_in_notation_order()
            .iter()
            .copied()
            .filter(|&p| self.at(p) == c)
            .collect()
    }
}

pub fn parse_pos(s: &str) -> Pos {
    let fields: Vec<&str> = s.split_whitespace().collect();
    assert!(fields.len() == 2 || fields.len() == 3, "bad position {s:?}");
    let ranks: Vec<&str> = fields[0].split('/').collect();
    assert_eq!(ranks.len(), 7, "bad position {s:?}");
    let mut pos = Pos {
        grid: [['.'; 8]; 7],
        side: 's',
        huff: vec![],
    };
    for (i, text) in ranks.iter().enumerate() {
        let r = 7 - i as i8;
        let files: Vec<i8> = (0..=6).filter(|&f| on_board((f, r))).collect();
        let mut cells = Vec::new();
        for ch in text.chars() {
            match ch {
                '1'..='7' => cells.extend(std::iter::repeat_n('.', ch as usize - '0' as usize)),
                'S' | 'O' => cells.push(ch),
                _ => panic!("bad character {ch:?} in {s:?}"),
            }
        }
        assert_eq!(cells.len(), files.len(), "bad rank {text:?} in {s:?}");
        for (f, c) in files.into_iter().zip(cells) {
            pos.set((f, r), c);
        }
    }
    pos.side = match fields[1] {
        "s" => 's',
        "o" => 'o',
        _ => panic!("bad side in {s:?}"),
    };
    if fields.len() == 3 && fields[2] != "-" {
        for n in fields[2].split(',') {
            let p = parse_point(n).unwrap_or_else(|| panic!("bad huff point in {s:?}"));
            assert_eq!(pos.at(p), 'O', "huff point without officer in {s:?}");
            pos.huff.push(p);
        }
    }
    pos.huff.sort_by_key(|&p| name(p));
    pos
}

pub fn print_pos(pos: &Pos) -> String {
    let mut rows = Vec::new();
    for r in (1..=7).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for f in 0..=6 {
            if !on_board((f, r)) {
                continue;
            }
            let c = pos.at((f, r));
            if c == '.' {
                empty += 1;
            } else {
                if empty > 0 {
                    row.push_str(&empty.to_string());
                    empty = 0;
                }
                row.push(c);
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    let huff = if pos.huff.is_empty() {
        "-".to_string()
    } else {
        pos.huff
            .iter()
            .map(|&p| name(p))
            .collect::<Vec<_>>()
            .join(",")
    };
    format!("{} {} {}", rows.join("/"), pos.side, huff)
}

/// Canonical form of a position string.
pub fn canonical(s: &str) -> String {
    print_pos(&parse_pos(s))
}

/// Mirror a position string (a<->g, b<->f, c<->e).
pub fn mirror(s: &str) -> String {
    let pos = parse_pos(s);
    let mut m = pos.clone();
    for &p in points_in_notation_order() {
        m.set(mirror_point(p), pos.at(p));
    }
    m.huff = pos.huff.iter().map(|&p| mirror_point(p)).collect();
    m.huff.sort_by_key(|&p| name(p));
    print_pos(&m)
}

// ---------------------------------------------------------------------------
// Officer moves (docs/RULES.md sections 4 and 5)
// ---------------------------------------------------------------------------

/// One complete capture chain: the officer's path and the soldiers taken.
#[derive(Clone, Debug)]
pub struct Chain {
    pub path: Vec<Pt>,
    pub taken: BTreeSet<Pt>,
}

/// All complete capture chains of the officer on `start`.
pub fn capture_chains(pos: &Pos, start: Pt) -> Vec<Chain> {
    fn go(
        pos: &Pos,
        start: Pt,
        path: &mut Vec<Pt>,
        taken: &mut BTreeSet<Pt>,
        out: &mut Vec<Chain>,
    ) {
        let here = *path.last().unwrap();
        let mut went_on = false;
        for &(over, land) in jumps(here) {
            // Only soldiers are jumped, each at most once; jumped soldiers
            // stay on the board until the move ends (so they block landing).
            let over_ok = pos.at(over) == 'S' && !taken.contains(&over);
            // The start point counts as empty during the chain.
            let land_ok = pos.at(land) == '.' || land == start;
            if over_ok && land_ok {
                went_on = true;
                path.push(land);
                taken.insert(over);
                go(pos, start, path, taken, out);
                taken.remove(&over);
                path.pop();
            }
        }
        if !went_on && path.len() > 1 {
            out.push(Chain {
                path: path.clone(),
                taken: taken.clone(),
            });
        }
    }
    let mut out = Vec::new();
    go(pos, start, &mut vec![start], &mut BTreeSet::new(), &mut out);
    out
}

/// `best(o)`: the most soldiers the officer on `o` could take in one move.
pub fn best(pos: &Pos, o: Pt) -> usize {
    capture_chains(pos, o)
        .iter()
        .map(|c| c.taken.len())
        .max()
        .unwrap_or(0)
}

/// A move found by the slow generator.
#[derive(Clone, Debug)]
pub struct SlowMove {
    /// Notation as docs/RULES.md section 10 prints it.
    pub notation: String,
    /// Every accepted spelling (all paths of a capture), `notation` included.
    pub spellings: Vec<String>,
    /// The position after the move, canonical notation.
    pub result: String,
}

fn path_notation(path: &[Pt]) -> String {
    path.iter().map(|&p| name(p)).collect::<Vec<_>>().join("x")
}

fn officer_moves(pos: &Pos, var: &Var) -> Vec<SlowMove> {
    let officers = pos.pieces('O');
    let best_of: BTreeMap<Pt, usize> = officers.iter().map(|&o| (o, best(pos, o))).collect();
    let m_all = best_of.values().copied().max().unwrap_or(0);

    // Candidate moves: (start, end, taken) -> all paths.
    let mut candidates: BTreeMap<(Pt, Pt, BTreeSet<Pt>), Vec<Vec<Pt>>> = BTreeMap::new();
    for &o in &officers {
        for &n in neighbours(o) {
            if pos.at(n) == '.' {
                candidates
                    .entry((o, n, BTreeSet::new()))
                    .or_default()
                    .push(vec![o, n]);
            }
        }
        for chain in capture_chains(pos, o) {
            let end = *chain.path.last().unwrap();
            candidates
                .entry((o, end, chain.taken.clone()))
                .or_default()
                .push(chain.path);
        }
    }

    let mut out = Vec::new();
    for ((start, end, taken), paths) in candidates {
        let c = taken.len();
        let enough = if var.max_on {
            c >= m_all
        } else {
            m_all == 0 || c > 0
        };
        let legal = match var.capture {
            Capture::Mandatory => enough,
            Capture::Huff | Capture::Free => true,
        };
        if !legal {
            continue;
        }
        let mut after = pos.clone();
        after.set(start, '.');
        for &t in &taken {
            after.set(t, '.');
        }
        after.set(end, 'O');
        after.side = 's';
        after.huff = vec![];
        if var.capture == Capture::Huff && !enough {
            // A fault: offenders are the officers with best(o) > c (with
            // max=off c is 0 here, so this is best(o) > 0), at their points
            // after the move.
            for (&o, &b) in &best_of {
                if b > c {
                    after.huff.push(if o == start { end } else { o });
                }
            }
            after.huff.sort_by_key(|&p| name(p));
        }
        let is_step = c == 0;
        let mut spellings: Vec<String> = paths
            .iter()
            .map(|p| {
                if is_step {
                    format!("{}-{}", name(p[0]), name(p[1]))
                } else {
                    path_notation(p)
                }
            })
            .collect();
        // Printed with the path whose list of point names sorts first.
        let first = paths
            .iter()
            .min_by_key(|p| p.iter().map(|&q| name(q)).collect::<Vec<_>>())
            .unwrap();
        let notation = if is_step {
            format!("{}-{}", name(first[0]), name(first[1]))
        } else {
            path_notation(first)
        };
        spellings.sort();
        spellings.dedup();
        out.push(SlowMove {
            notation,
            spellings,
            result: print_pos(&after),
        });
    }
    out
}

// ---------------------------------------------------------------------------
// Soldier moves (docs/RULES.md sections 3 and 5)
// ---------------------------------------------------------------------------

/// Plain soldier steps on `pos`'s board, ignoring huff rights.
fn soldier_steps(pos: &Pos, var: &Var) -> Vec<(Pt, Pt)> {
    let mut v = Vec::new();
    for s in pos.pieces('S') {
        for &n in neighbours(s) {
            if pos.at(n) == '.' && soldier_step_allowed(var, s, n) {
                v.push((s, n));
            }
        }
    }
    v
}

fn soldier_moves(pos: &Pos, var: &Var) -> Vec<SlowMove> {
    let mut out = Vec::new();
    // Without huffing, then huffing each offender in turn.
    let mut options: Vec<(Option<Pt>, Pos)> = vec![(None, pos.clone())];
    for &h in &pos.huff {
        let mut b = pos.clone();
        b.set(h, '.');
        options.push((Some(h), b));
    }
    for (huffed, board) in options {
        let prefix = huffed.map(|h| format!("h{}", name(h)));
        if huffed.is_some() && board.pieces('O').is_empty() {
            // Huffing the last officer wins at once.
            let mut after = board.clone();
            after.side = 'o';
            after.huff = vec![];
            let n = prefix.unwrap();
            out.push(SlowMove {
                notation: n.clone(),
                spellings: vec![n],
                result: print_pos(&after),
            });
            continue;
        }
        for (from, to) in soldier_steps(&board, var) {
            let mut after = board.clone();
            after.set(from, '.');
            after.set(to, 'S');
            after.side = 'o';
            after.huff = vec![];
            let step = format!("{}-{}", name(from), name(to));
            let n = match &prefix {
                Some(p) => format!("{p}:{step}"),
                None => step,
            };
            out.push(SlowMove {
                notation: n.clone(),
                spellings: vec![n],
                result: print_pos(&after),
            });
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Game end (docs/RULES.md section 6) and the public oracle API
// ---------------------------------------------------------------------------

/// Rules 1-3 (independent of whose turn it is).
fn static_outcome(pos: &Pos) -> Option<char> {
    let soldiers = pos.pieces('S');
    if soldiers.len() < 9 {
        return Some('o');
    }
    if soldiers.iter().filter(|&&p| in_fortress(p)).count() == 9 {
        return Some('s');
    }
    if pos.pieces('O').is_empty() {
        return Some('s');
    }
    None
}

/// The legal moves of a parsed position (empty when the game is over).
pub fn moves_of(pos: &Pos, var: &Var) -> Vec<SlowMove> {
    if static_outcome(pos).is_some() {
        return vec![];
    }
    if pos.side == 's' {
        soldier_moves(pos, var)
    } else {
        assert!(pos.huff.is_empty(), "huff rights with officers to move");
        officer_moves(pos, var)
    }
}

pub fn moves(pos: &str, variant: &str) -> Vec<SlowMove> {
    moves_of(&parse_pos(pos), &parse_variant(variant))
}

/// The positions reachable in one legal move; empty when the game is over.
pub fn successors(pos: &str, variant: &str) -> BTreeSet<String> {
    moves(pos, variant).into_iter().map(|m| m.result).collect()
}

/// `Some('s')` soldiers won, `Some('o')` officers won, `None` ongoing.
pub fn outcome(pos: &str, variant: &str) -> Option<char> {
    let p = parse_pos(pos);
    let var = parse_variant(variant);
    if let Some(w) = static_outcome(&p) {
        return Some(w);
    }
    if !moves_of(&p, &var).is_empty() {
        return None;
    }
    if p.side == 's' {
        Some('o') // rule 4
    } else if var.trapped_soldiers_win {
        Some('s') // rule 5
    } else {
        Some('o')
    }
}

pub fn perft(pos: &str, variant: &str, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    successors(pos, variant)
        .iter()
        .map(|c| perft(c, variant, depth - 1))
        .sum()
}
