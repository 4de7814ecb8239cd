//! Positions: the validated [`Position`], the unvalidated [`Setup`] it is
//! checked from, the notation of docs/RULES.md section 9 (parse and print), the
//! `start` and `formation` shorthands of the command line, and a board
//! drawing for terminals.

use crate::board::{self, Bitboard, FORTRESS, FORTRESS_DISTANCE, OUTSIDE, Point};
use std::fmt;
use std::str::FromStr;

/// The side to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Side {
    /// The soldiers' player.
    Soldiers,
    /// The officers' player.
    Officers,
}

impl Side {
    /// `"soldiers"` or `"officers"`.
    pub fn name(self) -> &'static str {
        match self {
            Side::Soldiers => "soldiers",
            Side::Officers => "officers",
        }
    }
}

/// A not necessarily legal position: pieces as bitboards, side to move and
/// the officers the soldiers may huff. Turn it into a [`Position`] with
/// [`Position::from_setup`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub(crate) struct Setup {
    /// Points holding soldiers.
    pub(crate) soldiers: Bitboard,
    /// Points holding officers.
    pub(crate) officers: Bitboard,
    /// True when the officers are to move.
    pub(crate) officers_to_move: bool,
    /// Officers the soldiers may huff now.
    pub(crate) huff: Bitboard,
}

/// What is wrong with a position or its notation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// Not `<board> <side> [<huff>]`.
    #[error(
        "position must be '<board> <side> [<huff>]', e.g. '3/O1O/SS3SS/SSSSSSS/SSSSSSS/SSS/SSS s -'"
    )]
    Shape,
    /// Wrong number of ranks.
    #[error("board has {0} ranks separated by '/', expected 7")]
    RankCount(usize),
    /// A rank describes the wrong number of points.
    #[error("rank {rank} describes {got} points, expected {want}")]
    RankLength {
        /// Rank number (7 = top).
        rank: u8,
        /// Points described.
        got: usize,
        /// Points on that rank.
        want: usize,
    },
    /// A character that is neither piece nor digit.
    #[error(
        "unknown piece letter '{}' (use S soldier, O officer, digits for empty points)",
        .0.escape_debug()
    )]
    Piece(char),
    /// Too many soldiers.
    #[error("{0} soldiers, at most 24")]
    TooManySoldiers(u32),
    /// Too many officers.
    #[error("{0} officers, at most 2")]
    TooManyOfficers(u32),
    /// A soldier and an officer on one point.
    #[error("two pieces on {0}")]
    Overlap(Point),
    /// Bits beyond the 33 points.
    #[error("piece outside the board")]
    OffBoard,
    /// Side not `s`/`o`.
    #[error("side to move must be 's' (soldiers) or 'o' (officers), not '{}'", .0.escape_debug())]
    Side(String),
    /// Huff field names something that is not a point.
    #[error("huff field: '{}' is not a point name", .0.escape_debug())]
    HuffPoint(String),
    /// Huff field names a point without an officer.
    #[error("huff field names {0}, which holds no officer")]
    HuffNoOfficer(Point),
    /// Huff field names a point twice.
    #[error("huff field names {0} twice")]
    HuffTwice(Point),
    /// Huff rights while the officers are to move.
    #[error("huff rights are only possible with the soldiers to move")]
    HuffWrongSide,
    /// Bad `start:` shorthand.
    #[error(
        "bad start position '{}': use 'start' or 'start:c6,e6' (two fortress points)",
        .0.escape_debug()
    )]
    Start(String),
    /// Bad `formation:` shorthand.
    #[error(
        "bad formation '{}': use 'formation:K' (the K outside points nearest the fortress, K = 9..24, officers on c6 and e6) or 'formation:K:c7,e5'",
        .0.escape_debug()
    )]
    Formation(String),
}

/// The 24 outside points in formation order: nearest the fortress first
/// by distance along lines ([`board::FORTRESS_DISTANCE`]), ties broken by
/// higher rank, then nearness to the centre file d, then left before
/// right. A formation of `k` soldiers is the first `k`.
pub(crate) fn formation_order() -> Vec<Point> {
    let mut v: Vec<Point> = board::points(OUTSIDE).collect();
    v.sort_by_key(|p| {
        (
            FORTRESS_DISTANCE[p.index()],
            std::cmp::Reverse(p.rank()),
            (p.file() as i8 - 3).unsigned_abs(),
            p.file(),
        )
    });
    v
}

/// The formation of `k` soldiers (`k <= 24`): the first `k` points of
/// the formation order, the `k` outside points nearest the fortress
/// (all 24: the start's soldiers).
pub fn formation(k: u8) -> Bitboard {
    formation_order()
        .iter()
        .take(k as usize)
        .fold(0, |b, p| b | p.bit())
}

/// Two distinct fortress points named `a,b` (`c7,e5`), as a bitboard.
fn two_fortress_points(names: &str) -> Option<Bitboard> {
    let mut bits = 0;
    for name in names.split(',') {
        let p = Point::from_name(name.trim())?;
        if bits & p.bit() != 0 {
            return None;
        }
        bits |= p.bit();
    }
    (bits & !FORTRESS == 0 && bits.count_ones() == 2).then_some(bits)
}

/// A valid position: at most 24 soldiers, at most 2 officers, no point
/// holding two pieces, huff rights only for the soldiers to move and only
/// naming officers.
///
/// ```
/// use asalto_tb::Position;
/// let p: Position = "3/O1O/SS3SS/SSSSSSS/SSSSSSS/SSS/SSS s".parse().unwrap();
/// assert_eq!(p.to_string(), "3/O1O/SS3SS/SSSSSSS/SSSSSSS/SSS/SSS s -");
/// assert_eq!(p, Position::start());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Position {
    soldiers: Bitboard,
    officers: Bitboard,
    side: Side,
    huff: Bitboard,
}

/// Points on each rank, from rank 7 down to rank 1.
const RANK_LENGTHS: [usize; 7] = [3, 3, 7, 7, 7, 3, 3];

impl Position {
    /// Check a setup.
    pub(crate) fn from_setup(s: Setup) -> Result<Position, PositionError> {
        if (s.soldiers | s.officers | s.huff) & !board::ALL != 0 {
            return Err(PositionError::OffBoard);
        }
        if s.soldiers.count_ones() > 24 {
            return Err(PositionError::TooManySoldiers(s.soldiers.count_ones()));
        }
        if s.officers.count_ones() > 2 {
            return Err(PositionError::TooManyOfficers(s.officers.count_ones()));
        }
        if let Some(p) = board::points(s.soldiers & s.officers).next() {
            return Err(PositionError::Overlap(p));
        }
        if let Some(p) = board::points(s.huff & !s.officers).next() {
            return Err(PositionError::HuffNoOfficer(p));
        }
        if s.huff != 0 && s.officers_to_move {
            return Err(PositionError::HuffWrongSide);
        }
        Ok(Position {
            soldiers: s.soldiers,
            officers: s.officers,
            side: if s.officers_to_move {
                Side::Officers
            } else {
                Side::Soldiers
            },
            huff: s.huff,
        })
    }

    /// Build without checks. The caller guarantees the invariants of
    /// [`Position`] (the solver uses this on positions it enumerates).
    #[inline]
    pub fn from_parts_unchecked(
        soldiers: Bitboard,
        officers: Bitboard,
        side: Side,
        huff: Bitboard,
    ) -> Position {
        debug_assert!(soldiers & officers == 0 && huff & !officers == 0);
        Position {
            soldiers,
            officers,
            side,
            huff,
        }
    }

    /// The start position with the officers on c6 and e6, soldiers to move.
    pub fn start() -> Position {
        let officers =
            Point::from_name("c6").unwrap().bit() | Point::from_name("e6").unwrap().bit();
        Position::start_with(officers).expect("c6 e6 are fortress points")
    }

    /// The start position with the officers on the given fortress points.
    pub(crate) fn start_with(officers: Bitboard) -> Option<Position> {
        if officers & !FORTRESS != 0 || officers.count_ones() != 2 {
            return None;
        }
        Some(Position {
            soldiers: board::OUTSIDE,
            officers,
            side: Side::Soldiers,
            huff: 0,
        })
    }

    /// Parse a command-line position: notation, `start`, `start:c7,e5`,
    /// or a formation of `k` soldiers ([`formation`], soldiers to move):
    /// `formation:22` (officers on c6 and e6) or `formation:22:c7,e5`.
    pub fn from_arg(s: &str) -> Result<Position, PositionError> {
        let s = s.trim();
        if s == "start" {
            return Ok(Position::start());
        }
        if let Some(rest) = s.strip_prefix("start:") {
            let bits =
                two_fortress_points(rest).ok_or_else(|| PositionError::Start(s.to_string()))?;
            return Position::start_with(bits).ok_or_else(|| PositionError::Start(s.to_string()));
        }
        if let Some(rest) = s.strip_prefix("formation:") {
            let bad = || PositionError::Formation(s.to_string());
            let (k, officers) = match rest.split_once(':') {
                Some((k, pts)) => (k, two_fortress_points(pts).ok_or_else(bad)?),
                None => (rest, Position::start().officers()),
            };
            let k: u8 = k.trim().parse().map_err(|_| bad())?;
            if !(9..=24).contains(&k) {
                return Err(bad());
            }
            return Ok(Position::from_parts_unchecked(
                formation(k),
                officers,
                Side::Soldiers,
                0,
            ));
        }
        s.parse()
    }

    /// Points holding soldiers.
    #[inline]
    pub fn soldiers(&self) -> Bitboard {
        self.soldiers
    }

    /// Points holding officers.
    #[inline]
    pub fn officers(&self) -> Bitboard {
        self.officers
    }

    /// Side to move.
    #[inline]
    pub fn side(&self) -> Side {
        self.side
    }

    /// Officers the soldiers may huff now.
    #[inline]
    pub fn huff(&self) -> Bitboard {
        self.huff
    }

    /// Empty points.
    #[inline]
    pub(crate) fn empty(&self) -> Bitboard {
        board::ALL & !(self.soldiers | self.officers)
    }

    /// The same position without huff rights.
    #[inline]
    pub(crate) fn without_huff(&self) -> Position {
        Position { huff: 0, ..*self }
    }

    /// The mirror image (a<->g, b<->f, c<->e).
    pub fn mirror(&self) -> Position {
        Position {
            soldiers: board::mirror_bb(self.soldiers),
            officers: board::mirror_bb(self.officers),
            side: self.side,
            huff: board::mirror_bb(self.huff),
        }
    }

    /// A multi-line drawing of the board with its lines, for terminals:
    /// `S` soldier, `O` officer, `.` empty point, `:` empty fortress point.
    pub fn diagram(&self) -> String {
        let mut out = String::new();
        for rank in (1..=7u8).rev() {
            let mut line = format!("{rank}  ");
            for file in 0..7u8 {
                let cell = match Point::from_coords(file, rank) {
                    None => ' ',
                    Some(p) if self.soldiers & p.bit() != 0 => 'S',
                    Some(p) if self.officers & p.bit() != 0 => 'O',
                    Some(p) if p.in_fortress() => ':',
                    Some(_) => '.',
                };
                line.push(cell);
                if file < 6 {
                    let joined = match (
                        Point::from_coords(file, rank),
                        Point::from_coords(file + 1, rank),
                    ) {
                        (Some(a), Some(b)) => a.adjacent() & b.bit() != 0,
                        _ => false,
                    };
                    line.push_str(if joined { "---" } else { "   " });
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
            if rank > 1 {
                let mut conn = String::from("   ");
                for file in 0..7u8 {
                    let up = Point::from_coords(file, rank);
                    let down = Point::from_coords(file, rank - 1);
                    conn.push(match (up, down) {
                        (Some(a), Some(b)) if a.adjacent() & b.bit() != 0 => '|',
                        _ => ' ',
                    });
                    if file < 6 {
                        let diag = |a: Option<Point>, b: Option<Point>| match (a, b) {
                            (Some(a), Some(b)) => a.adjacent() & b.bit() != 0,
                            _ => false,
                        };
                        let back = diag(up, Point::from_coords(file + 1, rank - 1));
                        let fwd = diag(down, Point::from_coords(file + 1, rank));
                        conn.push_str(match (back, fwd) {
                            (true, false) => " \\ ",
                            (false, true) => " / ",
                            (true, true) => " X ",
                            _ => "   ",
                        });
                    }
                }
                out.push_str(conn.trim_end());
                out.push('\n');
            }
        }
        out.push_str("   a   b   c   d   e   f   g\n");
        out
    }
}

impl FromStr for Position {
    type Err = PositionError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let fields: Vec<&str> = s.split_whitespace().collect();
        if fields.len() < 2 || fields.len() > 3 {
            return Err(PositionError::Shape);
        }
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 7 {
            return Err(PositionError::RankCount(ranks.len()));
        }
        let mut soldiers = 0u64;
        let mut officers = 0u64;
        for (row, text) in ranks.iter().enumerate() {
            let rank = 7 - row as u8;
            let want = RANK_LENGTHS[row];
            let files: Vec<u8> = (0..7u8)
                .filter(|&f| Point::from_coords(f, rank).is_some())
                .collect();
            let mut i = 0usize;
            for c in text.chars() {
                match c {
                    '1'..='7' => i += c as usize - '0' as usize,
                    'S' | 'O' => {
                        if i < want {
                            let p = Point::from_coords(files[i], rank).expect("file on board");
                            if c == 'S' {
                                soldiers |= p.bit();
                            } else {
                                officers |= p.bit();
                            }
                        }
                        i += 1;
                    }
                    other => return Err(PositionError::Piece(other)),
                }
            }
            if i != want {
                return Err(PositionError::RankLength { rank, got: i, want });
            }
        }
        let officers_to_move = match fields[1] {
            "s" => false,
            "o" => true,
            other => return Err(PositionError::Side(other.to_string())),
        };
        let mut huff = 0u64;
        if let Some(&h) = fields.get(2) {
            if h != "-" {
                for name in h.split(',') {
                    let p = Point::from_name(name)
                        .ok_or_else(|| PositionError::HuffPoint(name.to_string()))?;
                    if huff & p.bit() != 0 {
                        return Err(PositionError::HuffTwice(p));
                    }
                    huff |= p.bit();
                }
            }
        }
        Position::from_setup(Setup {
            soldiers,
            officers,
            officers_to_move,
            huff,
        })
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (row, rank) in (1..=7u8).rev().enumerate() {
            if row > 0 {
                f.write_str("/")?;
            }
            let mut run = 0;
            for file in 0..7u8 {
                let Some(p) = Point::from_coords(file, rank) else {
                    continue;
                };
                let c = if self.soldiers & p.bit() != 0 {
                    'S'
                } else if self.officers & p.bit() != 0 {
                    'O'
                } else {
                    run += 1;
                    continue;
                };
                if run > 0 {
                    write!(f, "{run}")?;
                    run = 0;
                }
                write!(f, "{c}")?;
            }
            if run > 0 {
                write!(f, "{run}")?;
            }
        }
        f.write_str(match self.side {
            Side::Soldiers => " s ",
            Side::Officers => " o ",
        })?;
        if self.huff == 0 {
            f.write_str("-")
        } else {
            let mut names: Vec<&str> = board::points(self.huff).map(|p| p.name()).collect();
            names.sort();
            f.write_str(&names.join(","))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_notation() {
        let p = Position::start();
        assert_eq!(p.to_string(), "3/O1O/SS3SS/SSSSSSS/SSSSSSS/SSS/SSS s -");
        assert_eq!(p.soldiers().count_ones(), 24);
        assert_eq!(Position::from_arg("start").unwrap(), p);
        let q = Position::from_arg("start:c7,e5").unwrap();
        assert_eq!(q.to_string(), "O2/3/SS2OSS/SSSSSSS/SSSSSSS/SSS/SSS s -");
    }

    #[test]
    fn formation_shorthand() {
        // The 22 outside points nearest the fortress: all but c1 and e1,
        // by hand from the rule (rank 1 is the farthest, d1 its nearest
        // to the centre file).
        let p = Position::from_arg("formation:22").unwrap();
        assert_eq!(p.to_string(), "3/O1O/SS3SS/SSSSSSS/SSSSSSS/SSS/1S1 s -");
        assert_eq!(
            Position::from_arg("formation:24").unwrap(),
            Position::start()
        );
        let q = Position::from_arg("formation:9:c5,d5").unwrap();
        assert_eq!(q.to_string(), "3/3/SSOO1SS/1SSSSS1/7/3/3 s -");
        for bad in [
            "formation:8",
            "formation:25",
            "formation:x",
            "formation:22:c6",
            "formation:22:c6,c6",
            "formation:22:c6,a5",
            "formation:",
        ] {
            let e = Position::from_arg(bad).unwrap_err();
            assert_eq!(e, PositionError::Formation(bad.to_string()), "{bad}");
        }
    }

    #[test]
    fn round_trips() {
        for s in [
            "3/1O1/7/7/7/3/3 o -",
            "SSS/SOS/SSSSSSS/1S3S1/7/3/3 s d6",
            "3/O1O/2SSS2/7/7/3/3 s c6,e6",
            "O2/3/7/7/S5S/3/2O o -",
        ] {
            let p: Position = s.parse().unwrap();
            assert_eq!(p.to_string(), s);
            assert_eq!(p.mirror().mirror(), p);
        }
    }

    #[test]
    fn errors() {
        type Check = fn(&PositionError) -> bool;
        let cases: &[(&str, Check)] = &[
            ("3/O1O/7/7/7/3 s", |e| {
                matches!(e, PositionError::RankCount(6))
            }),
            ("3/O1O/6/7/7/3/3 s", |e| {
                matches!(e, PositionError::RankLength { rank: 5, .. })
            }),
            ("3/O1O/7/7/7/3/4 s", |e| {
                matches!(e, PositionError::RankLength { rank: 1, .. })
            }),
            ("3/OXO/7/7/7/3/3 s", |e| {
                matches!(e, PositionError::Piece('X'))
            }),
            ("OOO/3/7/7/7/3/3 s", |e| {
                matches!(e, PositionError::TooManyOfficers(3))
            }),
            ("3/O1O/SSSSSSS/SSSSSSS/SSSSSSS/SSS/SSS s", |e| {
                matches!(e, PositionError::TooManySoldiers(27))
            }),
            ("3/O1O/7/7/7/3/3 x", |e| matches!(e, PositionError::Side(_))),
            ("3/O1O/7/7/7/3/3 s d6", |e| {
                matches!(e, PositionError::HuffNoOfficer(_))
            }),
            ("3/O1O/7/7/7/3/3 s z9", |e| {
                matches!(e, PositionError::HuffPoint(_))
            }),
            ("3/O1O/7/7/7/3/3 s c6,c6", |e| {
                matches!(e, PositionError::HuffTwice(_))
            }),
            ("3/O1O/7/7/7/3/3 o c6", |e| {
                matches!(e, PositionError::HuffWrongSide)
            }),
            ("3/O1O/7/7/7/3/3", |e| matches!(e, PositionError::Shape)),
        ];
        for (s, check) in cases {
            let e = s.parse::<Position>().unwrap_err();
            assert!(check(&e), "{s}: {e:?}");
            assert!(!e.to_string().contains('\n'));
        }
        let overlap = Setup {
            soldiers: 1,
            officers: 1,
            ..Setup::default()
        };
        assert!(matches!(
            Position::from_setup(overlap),
            Err(PositionError::Overlap(_))
        ));
        assert!(Position::from_arg("start:c6,c6").is_err());
        assert!(Position::from_arg("start:c6,a3").is_err());
        assert!(Position::from_arg("start:c6").is_err());
    }

    #[test]
    fn diagram_draws_the_start() {
        let d = Position::start().diagram();
        let lines: Vec<&str> = d.lines().collect();
        assert_eq!(lines[0], "7          :---:---:");
        assert_eq!(lines[1], "           | \\ | / |");
        assert_eq!(lines[2], "6          O---:---O");
        assert_eq!(lines.len(), 14);
    }
}
