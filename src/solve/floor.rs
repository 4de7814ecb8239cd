//! Floors: the game above a soldier count `K`, with every tier below it
//! replaced by an assumed winner ([`Floor`]), and the store that serves
//! those assumed tiers ([`Floored`]).
//!
//! The soldiers never come back: a move keeps or lowers their count. So the
//! positions with `K` or more soldiers form a game of their own once the
//! positions with fewer are given values. A floor gives them all the same
//! winner, the officers or the soldiers ([`Assume`]): every *stored* value
//! of a tier with `9 <= k < K` soldiers is that side's win in 0 plies (a
//! terminal of the floor game). The rules still apply on top of it exactly
//! as they do on top of real lower tiers: a capture below 9 soldiers ends
//! the game (the officers win, the real value), and a soldiers' turn with
//! huff rights still has its huffs (a huff of the last officer wins).
//!
//! Values are monotone in the terminals: turning terminals into officers'
//! wins can only shrink the soldiers' winning set and grow the officers'
//! (and the other way round). So under the officers' floor every soldiers'
//! win is a real soldiers' win, and under the soldiers' floor every
//! officers' win is a real officers' win; a draw under both is a draw.
//! [`Bound`] says what one floor's value proves.

use super::{SolveError, TierStore, TierValues};
use crate::Value;
use crate::index::TierKey;
use crate::position::Side;
use rustc_hash::FxHashMap as HashMap;
use std::fmt;
use std::sync::{Arc, Mutex};

/// Whose win a position below the floor is counted as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Assume {
    /// Every position below the floor is the officers' win: the soldiers'
    /// wins found are real (a lower bound for the soldiers).
    Officers,
    /// Every position below the floor is the soldiers' win: the officers'
    /// wins found are real (an upper bound for the soldiers).
    Soldiers,
}

impl Assume {
    /// `"officers"` or `"soldiers"`.
    pub fn name(self) -> &'static str {
        match self {
            Assume::Officers => "officers",
            Assume::Soldiers => "soldiers",
        }
    }

    /// The side whose win is assumed.
    pub fn winner(self) -> Side {
        match self {
            Assume::Officers => Side::Officers,
            Assume::Soldiers => Side::Soldiers,
        }
    }
}

impl std::str::FromStr for Assume {
    type Err = FloorError;

    fn from_str(s: &str) -> Result<Assume, FloorError> {
        match s {
            "officers" => Ok(Assume::Officers),
            "soldiers" => Ok(Assume::Soldiers),
            _ => Err(FloorError::Assume(s.chars().take(40).collect())),
        }
    }
}

impl fmt::Display for Assume {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a floor cannot be.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FloorError {
    /// The floor is not a soldier count from 10 to 24.
    #[error(
        "a floor of {0} soldiers: it must be 10 to 24 (a floor of 9 is the real game: build without --floor)"
    )]
    Soldiers(u8),
    /// Not `officers` or `soldiers`.
    #[error("'{}' is not a side to assume the win of: officers or soldiers", .0.escape_debug())]
    Assume(String),
}

/// A floor: the tiers with fewer than `k` soldiers (and at least 9) are
/// not solved; every position stored in them counts as a win for
/// `assume`. Part of a floor file's identity (its header and folder).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Floor {
    k: u8,
    assume: Assume,
}

impl Floor {
    /// The floor at `k` soldiers (10 to 24) with `assume`'s wins below it.
    pub fn new(k: u8, assume: Assume) -> Result<Floor, FloorError> {
        if !(10..=24).contains(&k) {
            return Err(FloorError::Soldiers(k));
        }
        Ok(Floor { k, assume })
    }

    /// The lowest soldier count solved.
    pub fn k(&self) -> u8 {
        self.k
    }

    /// Whose win a position below the floor is.
    pub fn assume(&self) -> Assume {
        self.assume
    }

    /// Whether tier `key` lies below the floor (its values assumed).
    #[inline]
    pub fn covers(&self, key: &TierKey) -> bool {
        key.k < self.k
    }

    /// The stored value of a position below the floor with `side` to
    /// move: a win in 0 plies for the assumed side, a loss in 0 for the
    /// other.
    pub fn value(&self, side: Side) -> Value {
        if side == self.assume.winner() {
            Value::Win(0)
        } else {
            Value::Loss(0)
        }
    }

    /// The folder a floor's files live in, under a tables folder:
    /// `floor-22-officers`.
    pub fn folder(&self) -> String {
        format!("floor-{}-{}", self.k, self.assume)
    }

    /// The folder the files of `floor` live in under the tables folder
    /// `root`: `root` itself for exact tables (`None`).
    pub fn dir_under(root: &std::path::Path, floor: Option<Floor>) -> std::path::PathBuf {
        match floor {
            Some(f) => root.join(f.folder()),
            None => root.to_path_buf(),
        }
    }

    /// The floor a folder name ([`Floor::folder`]) stands for.
    pub fn from_folder(name: &str) -> Option<Floor> {
        let rest = name.strip_prefix("floor-")?;
        let (k, assume) = rest.split_once('-')?;
        let k: u8 = k.parse().ok()?;
        let f = Floor::new(k, assume.parse().ok()?).ok()?;
        (f.folder() == name).then_some(f)
    }

    /// What a value under this floor proves about the real game, for
    /// the side to move `side` ([`Bound`]).
    pub fn bound(&self, side: Side, value: Value) -> Bound {
        Bound::of(self.assume, side, value)
    }
}

impl fmt::Display for Floor {
    /// `k < 22 counted as the officers' win`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "k < {} counted as the {}' win", self.k, self.assume)
    }
}

/// The real result for the soldiers, as far as one floor's value proves
/// it: the soldiers' result from the floor game is a bound on the real
/// one, from below under the officers' floor and from above under the
/// soldiers' floor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    /// The soldiers win (proved by the officers' floor).
    SoldiersWin,
    /// The soldiers at least draw (a draw under the officers' floor).
    SoldiersAtLeastDraw,
    /// Nothing proved (an officers' win under the officers' floor, a
    /// soldiers' win under the soldiers' floor).
    Unknown,
    /// The soldiers at most draw (a draw under the soldiers' floor).
    SoldiersAtMostDraw,
    /// The officers win (proved by the soldiers' floor).
    OfficersWin,
}

impl Bound {
    /// What the value `value` (for `side` to move) under a floor
    /// assuming `assume` proves.
    pub fn of(assume: Assume, side: Side, value: Value) -> Bound {
        match (assume, soldiers_result(side, value)) {
            (Assume::Officers, 1) => Bound::SoldiersWin,
            (Assume::Officers, 0) => Bound::SoldiersAtLeastDraw,
            (Assume::Soldiers, -1) => Bound::OfficersWin,
            (Assume::Soldiers, 0) => Bound::SoldiersAtMostDraw,
            _ => Bound::Unknown,
        }
    }

    /// The soldiers' real result range `[lower, upper]`, each -1 (loss),
    /// 0 (draw) or 1 (win).
    pub fn range(self) -> (i8, i8) {
        match self {
            Bound::SoldiersWin => (1, 1),
            Bound::SoldiersAtLeastDraw => (0, 1),
            Bound::Unknown => (-1, 1),
            Bound::SoldiersAtMostDraw => (-1, 0),
            Bound::OfficersWin => (-1, -1),
        }
    }

    /// Words for the bound, from the soldiers' side: `soldiers win`,
    /// `soldiers at least draw`, `not decided`, ...
    pub fn words(self) -> &'static str {
        match self {
            Bound::SoldiersWin => "soldiers win",
            Bound::SoldiersAtLeastDraw => "soldiers at least draw",
            Bound::Unknown => "not decided by this floor",
            Bound::SoldiersAtMostDraw => "soldiers at most draw",
            Bound::OfficersWin => "officers win",
        }
    }
}

/// The soldiers' result, 1 win, 0 draw or -1 loss, of `value` for the
/// side to move `side`: the scale brackets are given on.
pub fn soldiers_result(side: Side, value: Value) -> i8 {
    let mover = match value {
        Value::Win(_) => 1,
        Value::Draw => 0,
        Value::Loss(_) => -1,
    };
    if side == Side::Soldiers {
        mover
    } else {
        -mover
    }
}

/// Words for one end of a bracket, from the soldiers' side: 1 `soldiers
/// win`, 0 `draw`, -1 `officers win`.
pub fn result_words(r: i8) -> &'static str {
    match r {
        1 => "soldiers win",
        0 => "draw",
        _ => "officers win",
    }
}

/// The words for the soldiers' result range `[lower, upper]` (each -1
/// loss, 0 draw, 1 win): `soldiers win`, `draw`, `officers win` when
/// decided, else the range.
pub fn range_words(lower: i8, upper: i8) -> String {
    let one = result_words;
    if lower == upper {
        one(lower).to_string()
    } else {
        format!("between {} and {}", one(lower), one(upper))
    }
}

/// The assumed tiers of one floor, made once per shape: every tier of
/// `(n, k)` with `m` soldiers inside has the same size and the same
/// values.
#[derive(Default)]
pub(crate) struct FloorTiers {
    made: Mutex<HashMap<Shape, Arc<[u16]>>>,
}

/// The shape of a tier, all its size and values depend on below a floor:
/// officers, soldiers, soldiers inside the fortress.
type Shape = (u8, u8, u32);

impl FloorTiers {
    /// The values of tier `key`, below `floor`: the officers-to-move
    /// half then the soldiers-to-move half, each the assumed value.
    pub(crate) fn tier(&self, floor: &Floor, key: &TierKey) -> Arc<[u16]> {
        debug_assert!(floor.covers(key));
        let mut made = self.made.lock().unwrap_or_else(|e| e.into_inner());
        made.entry((key.n, key.k, key.m()))
            .or_insert_with(|| {
                let half = key.size_per_side() as usize;
                let mut v = vec![floor.value(Side::Officers).code(); 2 * half];
                v[half..].fill(floor.value(Side::Soldiers).code());
                v.into()
            })
            .clone()
    }

    /// The value code of position `index` of tier `key`, below `floor`.
    pub(crate) fn code(floor: &Floor, key: &TierKey, index: u32) -> Option<u16> {
        let half = key.size_per_side();
        let side = match index / half {
            0 => Side::Officers,
            1 => Side::Soldiers,
            _ => return None,
        };
        Some(floor.value(side).code())
    }
}

/// A store under a floor: the tiers below it are assumed
/// ([`Floor::value`]), the others read from `inner`.
pub struct Floored<'a> {
    inner: &'a dyn TierStore,
    floor: Floor,
    tiers: FloorTiers,
}

impl<'a> Floored<'a> {
    /// `inner` under `floor`.
    pub fn new(inner: &'a dyn TierStore, floor: Floor) -> Floored<'a> {
        Floored {
            inner,
            floor,
            tiers: FloorTiers::default(),
        }
    }
}

impl TierStore for Floored<'_> {
    fn tier(&self, key: &TierKey) -> Result<Option<Arc<[u16]>>, SolveError> {
        if self.floor.covers(key) {
            return Ok(Some(self.tiers.tier(&self.floor, key)));
        }
        self.inner.tier(key)
    }

    fn values(&self, key: &TierKey) -> Result<Option<TierValues>, SolveError> {
        if self.floor.covers(key) {
            return Ok(Some(TierValues::Codes(self.tiers.tier(&self.floor, key))));
        }
        self.inner.values(key)
    }

    fn code(&self, key: &TierKey, index: u32) -> Result<Option<u16>, SolveError> {
        if self.floor.covers(key) {
            return Ok(FloorTiers::code(&self.floor, key, index));
        }
        self.inner.code(key, index)
    }

    fn has_distances(&self) -> bool {
        self.inner.has_distances()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floors_name_their_folder_and_refuse_what_is_no_floor() {
        let f = Floor::new(21, Assume::Officers).unwrap();
        assert_eq!(f.folder(), "floor-21-officers");
        assert_eq!(Floor::from_folder("floor-21-officers"), Some(f));
        assert_eq!(
            Floor::from_folder("floor-22-soldiers"),
            Some(Floor::new(22, Assume::Soldiers).unwrap())
        );
        for bad in [
            "floor-9-officers",
            "floor-25-soldiers",
            "floor-021-officers",
            "floor-21-both",
            "floor21",
        ] {
            assert_eq!(Floor::from_folder(bad), None, "{bad}");
        }
        assert_eq!(
            Floor::new(9, Assume::Officers),
            Err(FloorError::Soldiers(9))
        );
        assert!("nobody".parse::<Assume>().is_err());
        assert_eq!(f.to_string(), "k < 21 counted as the officers' win");
    }

    #[test]
    fn assumed_tiers_hold_the_assumed_winner_for_both_sides() {
        let key = TierKey {
            n: 2,
            k: 12,
            outside: 0b111,
        };
        for (assume, o, s) in [
            (Assume::Officers, Value::Win(0), Value::Loss(0)),
            (Assume::Soldiers, Value::Loss(0), Value::Win(0)),
        ] {
            let floor = Floor::new(13, assume).unwrap();
            let t = FloorTiers::default().tier(&floor, &key);
            let half = key.size_per_side() as usize;
            assert_eq!(t.len(), 2 * half);
            assert!(t[..half].iter().all(|&c| Value::from_code(c) == o));
            assert!(t[half..].iter().all(|&c| Value::from_code(c) == s));
            assert_eq!(FloorTiers::code(&floor, &key, 0), Some(o.code()));
            assert_eq!(FloorTiers::code(&floor, &key, half as u32), Some(s.code()));
            assert_eq!(FloorTiers::code(&floor, &key, 2 * half as u32), None);
        }
    }

    #[test]
    fn bounds_read_from_the_soldiers_side() {
        use Side::{Officers as O, Soldiers as S};
        let (w, d, l) = (Value::Win(3), Value::Draw, Value::Loss(2));
        let cases = [
            (Assume::Officers, S, w, Bound::SoldiersWin),
            (Assume::Officers, O, l, Bound::SoldiersWin),
            (Assume::Officers, S, d, Bound::SoldiersAtLeastDraw),
            (Assume::Officers, O, w, Bound::Unknown),
            (Assume::Officers, S, l, Bound::Unknown),
            (Assume::Soldiers, S, l, Bound::OfficersWin),
            (Assume::Soldiers, O, w, Bound::OfficersWin),
            (Assume::Soldiers, O, d, Bound::SoldiersAtMostDraw),
            (Assume::Soldiers, S, w, Bound::Unknown),
        ];
        for (a, side, v, want) in cases {
            assert_eq!(Bound::of(a, side, v), want, "{a} {side:?} {v}");
        }
        assert_eq!(range_words(1, 1), "soldiers win");
        assert_eq!(range_words(0, 1), "between draw and soldiers win");
    }
}
