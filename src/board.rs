//! The board: the 33 points of the cross, their names, the 72 line segments,
//! jumps, the fortress, the mirror map and the soldier move tables of both
//! soldier rules (docs/RULES.md sections 1 and 3).
//!
//! Every table here is computed at compile time by `const fn`s from the
//! geometric description of the board, so the rules engine and the solver
//! read plain arrays.
//!
//! Points are numbered rank by rank from the bottom, left to right:
//!
//! ```text
//! rank 7        30 31 32
//! rank 6        27 28 29
//! rank 5  20 21 22 23 24 25 26
//! rank 4  13 14 15 16 17 18 19
//! rank 3   6  7  8  9 10 11 12
//! rank 2         3  4  5
//! rank 1         0  1  2
//! ```

use std::fmt;

/// Number of points on the board.
pub(crate) const NUM_POINTS: usize = 33;

/// A point of the board, `0..33` (see the module docs for the numbering).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Point(u8);

/// The file (0 = a .. 6 = g) and rank (1..=7) of each point.
const COORDS: [(u8, u8); NUM_POINTS] = {
    let mut out = [(0u8, 0u8); NUM_POINTS];
    let mut i = 0;
    let mut rank = 1u8;
    while rank <= 7 {
        let mut file = 0u8;
        while file < 7 {
            if on_board(file as i8, rank as i8) {
                out[i] = (file, rank);
                i += 1;
            }
            file += 1;
        }
        rank += 1;
    }
    out
};

/// Point index of every (file, rank - 1) cell of the 7x7 grid, or -1 off the board.
const GRID: [[i8; 7]; 7] = {
    let mut g = [[-1i8; 7]; 7];
    let mut i = 0;
    while i < NUM_POINTS {
        let (f, r) = COORDS[i];
        g[f as usize][(r - 1) as usize] = i as i8;
        i += 1;
    }
    g
};

const NAMES: [&str; NUM_POINTS] = [
    "c1", "d1", "e1", "c2", "d2", "e2", "a3", "b3", "c3", "d3", "e3", "f3", "g3", "a4", "b4", "c4",
    "d4", "e4", "f4", "g4", "a5", "b5", "c5", "d5", "e5", "f5", "g5", "c6", "d6", "e6", "c7", "d7",
    "e7",
];

/// Whether the cell (file 0..7, rank 1..=7) is a point of the cross.
const fn on_board(file: i8, rank: i8) -> bool {
    if file < 0 || file > 6 || rank < 1 || rank > 7 {
        return false;
    }
    (file >= 2 && file <= 4) || (rank >= 3 && rank <= 5)
}

/// The point at (file, rank), if any.
const fn at(file: i8, rank: i8) -> Option<Point> {
    if on_board(file, rank) {
        Some(Point(GRID[file as usize][(rank - 1) as usize] as u8))
    } else {
        None
    }
}

/// Whether a point carries diagonal lines (the Alquerque junctions).
const fn is_junction_coords(file: u8, rank: u8) -> bool {
    (file + rank) % 2 == 1
}

/// The eight directions (file step, rank step); the first four are orthogonal.
pub(crate) const DIRECTIONS: [(i8, i8); 8] = [
    (0, 1),
    (1, 0),
    (0, -1),
    (-1, 0),
    (1, 1),
    (1, -1),
    (-1, -1),
    (-1, 1),
];

/// The neighbour of each point in each direction along a line, or `NONE`.
const STEP: [[u8; 8]; NUM_POINTS] = {
    let mut t = [[NONE; 8]; NUM_POINTS];
    let mut i = 0;
    while i < NUM_POINTS {
        let (f, r) = COORDS[i];
        let mut d = 0;
        while d < 8 {
            let (df, dr) = DIRECTIONS[d];
            let diagonal = d >= 4;
            if !diagonal || is_junction_coords(f, r) {
                // Diagonal neighbours of a junction are junctions too (parity).
                if let Some(p) = at(f as i8 + df, r as i8 + dr) {
                    t[i][d] = p.0;
                }
            }
            d += 1;
        }
        i += 1;
    }
    t
};

/// Marker for "no point" in the step and jump tables.
pub(crate) const NONE: u8 = u8::MAX;

/// A set of points as a 33-bit mask.
pub type Bitboard = u64;

/// All 33 points.
pub const ALL: Bitboard = (1u64 << NUM_POINTS) - 1;

/// The nine fortress points c5 d5 e5 c6 d6 e6 c7 d7 e7.
pub const FORTRESS: Bitboard = {
    let mut b = 0u64;
    let mut i = 0;
    while i < NUM_POINTS {
        let (f, r) = COORDS[i];
        if f >= 2 && f <= 4 && r >= 5 {
            b |= 1 << i;
        }
        i += 1;
    }
    b
};

/// The 24 points outside the fortress.
pub const OUTSIDE: Bitboard = ALL & !FORTRESS;

/// Neighbours of each point along any line.
pub(crate) const ADJACENT: [Bitboard; NUM_POINTS] = {
    let mut t = [0u64; NUM_POINTS];
    let mut i = 0;
    while i < NUM_POINTS {
        let mut d = 0;
        while d < 8 {
            if STEP[i][d] != NONE {
                t[i] |= 1 << STEP[i][d];
            }
            d += 1;
        }
        i += 1;
    }
    t
};

/// A jump: over `over` to `land`, both along one line from the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Jump {
    /// The point jumped over.
    pub(crate) over: Point,
    /// The landing point.
    pub(crate) land: Point,
}

/// Jumps from each point: up to eight (over, land) pairs, `NONE` padded.
const JUMPS_RAW: [[(u8, u8); 8]; NUM_POINTS] = {
    let mut t = [[(NONE, NONE); 8]; NUM_POINTS];
    let mut i = 0;
    while i < NUM_POINTS {
        let mut n = 0;
        let mut d = 0;
        while d < 8 {
            let over = STEP[i][d];
            if over != NONE {
                let land = STEP[over as usize][d];
                if land != NONE {
                    t[i][n] = (over, land);
                    n += 1;
                }
            }
            d += 1;
        }
        i += 1;
    }
    t
};

/// The points a jump from each point passes over (each with a landing
/// point on the board): [`Point::jump_overs`].
const JUMP_OVERS: [Bitboard; NUM_POINTS] = {
    let mut t = [0; NUM_POINTS];
    let mut i = 0;
    while i < NUM_POINTS {
        let mut n = 0;
        while n < 8 && JUMPS_RAW[i][n].0 != NONE {
            t[i] |= 1 << JUMPS_RAW[i][n].0;
            n += 1;
        }
        i += 1;
    }
    t
};

/// The landing point of the jump from each point over each point (`NONE`
/// where there is no such jump): [`Point::landing`].
const LANDING: [[u8; NUM_POINTS]; NUM_POINTS] = {
    let mut t = [[NONE; NUM_POINTS]; NUM_POINTS];
    let mut i = 0;
    while i < NUM_POINTS {
        let mut n = 0;
        while n < 8 && JUMPS_RAW[i][n].0 != NONE {
            t[i][JUMPS_RAW[i][n].0 as usize] = JUMPS_RAW[i][n].1;
            n += 1;
        }
        i += 1;
    }
    t
};

/// Longest soldier path (in steps) from each point into the fortress under a
/// step table; 0 inside the fortress.
const fn longest_paths(moves: &[Bitboard; NUM_POINTS]) -> [u8; NUM_POINTS] {
    // Relax repeatedly: the soldier graph outside the fortress is acyclic
    // and no path is longer than the number of points.
    let mut len = [0u8; NUM_POINTS];
    let mut round = 0;
    while round < NUM_POINTS {
        let mut i = 0;
        while i < NUM_POINTS {
            if (FORTRESS >> i) & 1 == 0 {
                let mut best = 0u8;
                let mut m = moves[i];
                while m != 0 {
                    let j = m.trailing_zeros() as usize;
                    m &= m - 1;
                    if len[j] + 1 > best {
                        best = len[j] + 1;
                    }
                }
                len[i] = best;
            }
            i += 1;
        }
        round += 1;
    }
    len
}

/// Distance in segments along lines from each point to the fortress.
pub(crate) const FORTRESS_DISTANCE: [u8; NUM_POINTS] = {
    let mut dist = [u8::MAX; NUM_POINTS];
    let mut i = 0;
    while i < NUM_POINTS {
        if (FORTRESS >> i) & 1 == 1 {
            dist[i] = 0;
        }
        i += 1;
    }
    let mut changed = true;
    while changed {
        changed = false;
        let mut i = 0;
        while i < NUM_POINTS {
            let mut m = ADJACENT[i];
            while m != 0 {
                let j = m.trailing_zeros() as usize;
                m &= m - 1;
                if dist[j] != u8::MAX && dist[j] + 1 < dist[i] {
                    dist[i] = dist[j] + 1;
                    changed = true;
                }
            }
            i += 1;
        }
    }
    dist
};

/// Soldier steps outside the fortress under the `closer` rule: to an
/// adjacent point strictly closer to the fortress. Inside the fortress the
/// entry is the fortress neighbours.
pub(crate) const CLOSER_MOVES: [Bitboard; NUM_POINTS] = {
    let mut t = [0u64; NUM_POINTS];
    let mut i = 0;
    while i < NUM_POINTS {
        if (FORTRESS >> i) & 1 == 1 {
            t[i] = ADJACENT[i] & FORTRESS;
        } else {
            let mut m = ADJACENT[i];
            while m != 0 {
                let j = m.trailing_zeros() as usize;
                m &= m - 1;
                if FORTRESS_DISTANCE[j] < FORTRESS_DISTANCE[i] {
                    t[i] |= 1 << j;
                }
            }
        }
        i += 1;
    }
    t
};

/// Soldier steps under the `forward` rule: outside the fortress, up a rank
/// (straight or diagonal) or sideways along a5-b5-c5 / g5-f5-e5. Inside the
/// fortress the entry is the fortress neighbours.
pub(crate) const FORWARD_MOVES: [Bitboard; NUM_POINTS] = {
    let mut t = [0u64; NUM_POINTS];
    let mut i = 0;
    while i < NUM_POINTS {
        let (f, r) = COORDS[i];
        if (FORTRESS >> i) & 1 == 1 {
            t[i] = ADJACENT[i] & FORTRESS;
        } else {
            let mut m = ADJACENT[i];
            while m != 0 {
                let j = m.trailing_zeros() as usize;
                m &= m - 1;
                let (fj, rj) = COORDS[j];
                let up = rj > r;
                let sideways_in =
                    r == 5 && rj == 5 && (if f < 2 { fj == f + 1 } else { fj + 1 == f });
                if up || sideways_in {
                    t[i] |= 1 << j;
                }
            }
        }
        i += 1;
    }
    t
};

/// Longest `closer` path from each point into the fortress.
pub(crate) const CLOSER_PROGRESS: [u8; NUM_POINTS] = longest_paths(&CLOSER_MOVES);
/// Longest `forward` path from each point into the fortress.
pub(crate) const FORWARD_PROGRESS: [u8; NUM_POINTS] = longest_paths(&FORWARD_MOVES);

/// The mirror image (a<->g, b<->f, c<->e) of each point.
const MIRROR: [u8; NUM_POINTS] = {
    let mut t = [0u8; NUM_POINTS];
    let mut i = 0;
    while i < NUM_POINTS {
        let (f, r) = COORDS[i];
        t[i] = GRID[(6 - f) as usize][(r - 1) as usize] as u8;
        i += 1;
    }
    t
};

impl Point {
    /// The point with index `i` (`0..33`).
    ///
    /// # Panics
    /// If `i >= 33`.
    pub(crate) const fn new(i: usize) -> Point {
        assert!(i < NUM_POINTS);
        Point(i as u8)
    }

    /// All 33 points in index order.
    pub fn all() -> impl Iterator<Item = Point> {
        (0..NUM_POINTS as u8).map(Point)
    }

    /// The point's index, `0..33`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The point's bit in a [`Bitboard`].
    #[inline]
    pub const fn bit(self) -> Bitboard {
        1 << self.0
    }

    /// File, 0 (a) to 6 (g).
    pub const fn file(self) -> u8 {
        COORDS[self.0 as usize].0
    }

    /// Rank, 1 to 7.
    pub const fn rank(self) -> u8 {
        COORDS[self.0 as usize].1
    }

    /// The point at (file 0..7, rank 1..=7), if it is on the board.
    pub(crate) const fn from_coords(file: u8, rank: u8) -> Option<Point> {
        at(file as i8, rank as i8)
    }

    /// Algebraic name, e.g. `"c3"`.
    pub const fn name(self) -> &'static str {
        NAMES[self.0 as usize]
    }

    /// The point named `name` (e.g. `"d6"`), if any.
    pub fn from_name(name: &str) -> Option<Point> {
        NAMES
            .iter()
            .position(|n| *n == name)
            .map(|i| Point(i as u8))
    }

    /// Whether the point is in the fortress.
    #[inline]
    pub(crate) const fn in_fortress(self) -> bool {
        FORTRESS >> self.0 & 1 == 1
    }

    /// Whether the point carries diagonal lines.
    pub const fn is_junction(self) -> bool {
        is_junction_coords(self.file(), self.rank())
    }

    /// The mirror image under a<->g, b<->f, c<->e.
    #[inline]
    pub const fn mirror(self) -> Point {
        Point(MIRROR[self.0 as usize])
    }

    /// Neighbours along any line.
    #[inline]
    pub const fn adjacent(self) -> Bitboard {
        ADJACENT[self.0 as usize]
    }

    /// The jumps that start here (over an adjacent point to the next one on
    /// the same line).
    pub(crate) fn jumps(self) -> impl Iterator<Item = Jump> {
        JUMPS_RAW[self.0 as usize]
            .iter()
            .take_while(|(o, _)| *o != NONE)
            .map(|&(o, l)| Jump {
                over: Point(o),
                land: Point(l),
            })
    }

    /// The points a jump from here passes over: for each, the jump over
    /// it lands on [`Point::landing`].
    #[inline]
    pub(crate) const fn jump_overs(self) -> Bitboard {
        JUMP_OVERS[self.0 as usize]
    }

    /// Where the jump from here over `over` (one of
    /// [`Point::jump_overs`]) lands.
    #[inline]
    pub(crate) const fn landing(self, over: Point) -> Point {
        Point(LANDING[self.0 as usize][over.0 as usize])
    }

    /// Raw jump table entry: up to eight `(over, land)` index pairs, `NONE` padded.
    #[inline]
    pub(crate) const fn jumps_raw(self) -> &'static [(u8, u8); 8] {
        &JUMPS_RAW[self.0 as usize]
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Iterate over the points of a bitboard, lowest index first.
#[inline]
pub fn points(mut b: Bitboard) -> impl Iterator<Item = Point> {
    std::iter::from_fn(move || {
        if b == 0 {
            None
        } else {
            let i = b.trailing_zeros() as u8;
            b &= b - 1;
            Some(Point(i))
        }
    })
}

/// A map of single points to bitboards (`of[p]`), extended to every
/// byte of a bitboard: `t[i][x]` is the union of `of[p]` over the points
/// `p` of `8i..8i+8` given by the bits of `x`. Bits 40 and above (no
/// point) map to nothing.
const fn by_bytes(of: &[Bitboard; NUM_POINTS]) -> [[Bitboard; 256]; 5] {
    let mut t = [[0u64; 256]; 5];
    let mut i = 0;
    while i < 5 {
        let mut x = 0;
        while x < 256 {
            let mut out = 0u64;
            let mut j = 0;
            while j < 8 {
                let p = i * 8 + j;
                if (x >> j) & 1 == 1 && p < NUM_POINTS {
                    out |= of[p];
                }
                j += 1;
            }
            t[i][x] = out;
            x += 1;
        }
        i += 1;
    }
    t
}

/// The union of `t`'s images of the points of `b` (five table lookups).
#[inline]
fn through_bytes(t: &[[Bitboard; 256]; 5], b: Bitboard) -> Bitboard {
    t[0][(b & 0xff) as usize]
        | t[1][((b >> 8) & 0xff) as usize]
        | t[2][((b >> 16) & 0xff) as usize]
        | t[3][((b >> 24) & 0xff) as usize]
        | t[4][((b >> 32) & 0xff) as usize]
}

/// Mirror images of each byte of a bitboard ([`by_bytes`] of each point's
/// mirror).
static MIRROR_BYTES: [[Bitboard; 256]; 5] = by_bytes(&{
    let mut m = [0u64; NUM_POINTS];
    let mut p = 0;
    while p < NUM_POINTS {
        m[p] = 1 << MIRROR[p];
        p += 1;
    }
    m
});

/// Mirror every point of a bitboard (five table lookups).
#[inline]
pub fn mirror_bb(b: Bitboard) -> Bitboard {
    through_bytes(&MIRROR_BYTES, b)
}

/// The neighbours (by a segment) of each byte of a bitboard.
static NEIGHBOUR_BYTES: [[Bitboard; 256]; 5] = by_bytes(&ADJACENT);

/// Every point next to a point of `b` by a segment: the union of their
/// `ADJACENT` (five table lookups). Bits 40 and above, which solvers
/// use for marks that are not points, have no neighbours.
#[inline]
pub fn neighbours(b: Bitboard) -> Bitboard {
    through_bytes(&NEIGHBOUR_BYTES, b)
}

/// The number of line segments on the board (each counted once).
pub fn segment_count() -> (usize, usize) {
    let mut orth = 0;
    let mut diag = 0;
    for (i, steps) in STEP.iter().enumerate() {
        for (d, &s) in steps.iter().enumerate() {
            if s != NONE && (s as usize) > i {
                if d < 4 {
                    orth += 1;
                } else {
                    diag += 1;
                }
            }
        }
    }
    (orth, diag)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_neighbours_of_a_bitboard_are_those_of_its_points() {
        // Every single point, and random boards with the marks above the
        // points (bits 40..64) set or not: the union over the points,
        // computed one point at a time.
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut boards: Vec<Bitboard> = (0..NUM_POINTS).map(|p| 1 << p).collect();
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            boards.push(x);
        }
        for b in boards {
            let near = points(b & ALL).fold(0, |n, q| n | ADJACENT[q.index()]);
            assert_eq!(neighbours(b), near, "{b:#x}");
        }
    }

    fn p(n: &str) -> Point {
        Point::from_name(n).unwrap()
    }

    fn names(b: Bitboard) -> Vec<&'static str> {
        let mut v: Vec<_> = points(b).map(|q| q.name()).collect();
        v.sort();
        v
    }

    #[test]
    fn names_match_coordinates() {
        for q in Point::all() {
            let n = q.name().as_bytes();
            assert_eq!(n[0] - b'a', q.file());
            assert_eq!(n[1] - b'0', q.rank());
            assert_eq!(Point::from_coords(q.file(), q.rank()), Some(q));
        }
    }

    #[test]
    fn segments_72() {
        assert_eq!(segment_count(), (52, 20));
    }

    #[test]
    fn junctions_as_listed() {
        let mut j: Vec<_> = Point::all()
            .filter(|q| q.is_junction())
            .map(|q| q.name())
            .collect();
        j.sort();
        let mut want = vec![
            "c7", "e7", "d6", "a5", "c5", "e5", "g5", "b4", "d4", "f4", "a3", "c3", "e3", "g3",
            "d2", "c1", "e1",
        ];
        want.sort();
        assert_eq!(j, want);
    }

    #[test]
    fn fortress_distances() {
        let want = [
            ("a5", 2),
            ("b5", 1),
            ("a4", 2),
            ("b4", 1),
            ("c4", 1),
            ("d4", 1),
            ("a3", 2),
            ("c3", 2),
            ("c2", 3),
            ("d1", 4),
        ];
        for (n, d) in want {
            assert_eq!(FORTRESS_DISTANCE[p(n).index()], d, "{n}");
        }
    }

    /// The left-half step lists of docs/RULES.md section 3, and their mirrors.
    fn check_steps(table: &[Bitboard; NUM_POINTS], want: &[(&str, &[&str])]) {
        for (from, to) in want {
            assert_eq!(names(table[p(from).index()]), *to, "{from}");
            let m = p(from).mirror();
            let mut mirrored: Vec<_> = to.iter().map(|t| p(t).mirror().name()).collect();
            mirrored.sort();
            assert_eq!(names(table[m.index()]), mirrored, "{m}");
        }
    }

    #[test]
    fn closer_table_matches_rules() {
        let want: &[(&str, &[&str])] = &[
            ("a5", &["b4", "b5"]),
            ("b5", &["c5"]),
            ("a4", &["b4"]),
            ("b4", &["c5"]),
            ("c4", &["c5"]),
            ("d4", &["c5", "d5", "e5"]),
            ("a3", &["b4"]),
            ("b3", &["b4"]),
            ("c3", &["b4", "c4", "d4"]),
            ("d3", &["d4"]),
            ("c2", &["c3"]),
            ("d2", &["c3", "d3", "e3"]),
            ("c1", &["c2", "d2"]),
            ("d1", &["d2"]),
        ];
        check_steps(&CLOSER_MOVES, want);
    }

    #[test]
    fn forward_table_matches_rules() {
        let want: &[(&str, &[&str])] = &[
            ("a5", &["b5"]),
            ("b5", &["c5"]),
            ("a4", &["a5"]),
            ("b4", &["a5", "b5", "c5"]),
            ("c4", &["c5"]),
            ("d4", &["c5", "d5", "e5"]),
            ("a3", &["a4", "b4"]),
            ("b3", &["b4"]),
            ("c3", &["b4", "c4", "d4"]),
            ("d3", &["d4"]),
            ("c2", &["c3"]),
            ("d2", &["c3", "d3", "e3"]),
            ("c1", &["c2", "d2"]),
            ("d1", &["d2"]),
        ];
        check_steps(&FORWARD_MOVES, want);
    }

    #[test]
    fn fortress_moves_stay_inside() {
        for q in points(FORTRESS) {
            assert_eq!(CLOSER_MOVES[q.index()], q.adjacent() & FORTRESS);
            assert_eq!(FORWARD_MOVES[q.index()], q.adjacent() & FORTRESS);
        }
        assert_eq!(names(CLOSER_MOVES[p("d6").index()]).len(), 8);
    }

    #[test]
    fn progress_strictly_falls() {
        for table in [
            (&CLOSER_MOVES, &CLOSER_PROGRESS),
            (&FORWARD_MOVES, &FORWARD_PROGRESS),
        ] {
            for q in points(OUTSIDE) {
                assert!(table.1[q.index()] >= 1);
                for t in points(table.0[q.index()]) {
                    assert!(table.1[t.index()] < table.1[q.index()]);
                }
            }
        }
        assert_eq!(CLOSER_PROGRESS[p("d1").index()], 4);
        assert_eq!(FORWARD_PROGRESS[p("a3").index()], 4); // a3-a4-a5-b5-c5
    }

    #[test]
    fn jumps_follow_lines() {
        let j: Vec<_> = p("d6")
            .jumps()
            .map(|j| (j.over.name(), j.land.name()))
            .collect();
        // d6: down over d5 to d4, diagonals over c5 to b4 and e5 to f4.
        assert!(j.contains(&("d5", "d4")));
        assert!(j.contains(&("c5", "b4")));
        assert!(j.contains(&("e5", "f4")));
        assert_eq!(j.len(), 3);
        // c6 is no junction: no diagonal jump.
        let mut j: Vec<_> = p("c6").jumps().map(|j| j.land.name()).collect();
        j.sort();
        assert_eq!(j, ["c4", "e6"]);
    }

    #[test]
    fn jump_overs_and_landings_are_the_jumps() {
        for a in points(ALL) {
            let mut overs = 0;
            for j in a.jumps() {
                overs |= j.over.bit();
                assert_eq!(a.landing(j.over), j.land, "{a} over {}", j.over);
            }
            assert_eq!(a.jump_overs(), overs, "{a}");
        }
        assert_eq!(p("d6").landing(p("c5")), p("b4"));
        assert_eq!(p("c6").jump_overs(), p("c5").bit() | p("d6").bit());
    }

    #[test]
    fn mirror_table_matches_points() {
        let mut x = 0x0001_2345_6789_u64 & ALL;
        for _ in 0..1000 {
            x = (x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407))
                & ALL;
            let slow = points(x).fold(0, |acc, p| acc | p.mirror().bit());
            assert_eq!(mirror_bb(x), slow);
        }
    }

    #[test]
    fn mirror_is_an_involution_preserving_lines() {
        for q in Point::all() {
            assert_eq!(q.mirror().mirror(), q);
            assert_eq!(mirror_bb(q.adjacent()), q.mirror().adjacent());
        }
        assert_eq!(mirror_bb(FORTRESS), FORTRESS);
    }
}
