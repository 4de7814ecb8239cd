//! Legal move generation, capture chains, capture duty, making moves, the
//! end of the game and perft.

use super::{CaptureRule, Move, MoveKind, TrappedRule, Variant};
use crate::board::{self, Bitboard, FORTRESS, Point};
use crate::position::{Position, Side};

/// Whether path `a` comes before path `b` in the order of their points'
/// (file, rank) pairs, compared without building them.
fn path_before(a: &[Point], b: &[Point]) -> bool {
    let key = |p: &Point| (p.file(), p.rank());
    a.iter().map(key).lt(b.iter().map(key))
}

/// Every capture move of one officer (docs/RULES.md section 4): maximal
/// chains of jumps over soldiers not yet jumped, landing on empty points.
/// Chains with the same start, end and taken soldiers are one move; the
/// path kept is the one whose list of point names sorts first.
///
/// Held in two buffers kept from one fill to the next, the paths back to
/// back in one vector, so that a list filled again allocates nothing once
/// it has grown: the checker behind `asalto verify` takes the chains of
/// billions of positions.
#[derive(Clone, Default, Debug, PartialEq, Eq)]
pub(crate) struct ChainList {
    /// The paths (start, then each landing point), back to back.
    points: Vec<Point>,
    /// Each chain: where its path starts in `points` and the soldiers it
    /// takes (one a jump, so its path has one point more than those).
    chains: Vec<(u32, Bitboard)>,
}

impl ChainList {
    /// The chains of the officer on `start`, in place of those held:
    /// `blockers` are the other pieces that are not soldiers (the other
    /// officer); the officer's own start point counts as empty.
    pub(crate) fn fill(&mut self, start: Point, soldiers: Bitboard, blockers: Bitboard) {
        self.clear();
        let occupied = (soldiers | blockers) & !start.bit();
        let can_jump = start
            .jumps()
            .any(|j| soldiers & j.over.bit() != 0 && occupied & j.land.bit() == 0);
        if !can_jump {
            return;
        }
        // A chain takes a soldier a jump: at most 24 jumps.
        let mut path = [start; 25];
        self.dfs(soldiers, occupied, 0, &mut path, 0);
    }

    /// Extend the chain `path[..=depth]` (its soldiers `taken`) by every
    /// jump from its end; record it when there is none.
    fn dfs(
        &mut self,
        soldiers: Bitboard,
        occupied: Bitboard,
        taken: Bitboard,
        path: &mut [Point; 25],
        depth: usize,
    ) {
        let cur = path[depth];
        let mut any = false;
        for j in cur.jumps() {
            let over = j.over.bit();
            if soldiers & over != 0 && taken & over == 0 && occupied & j.land.bit() == 0 {
                any = true;
                path[depth + 1] = j.land;
                self.dfs(soldiers, occupied, taken | over, path, depth + 1);
            }
        }
        if !any && taken != 0 {
            let path = &path[..=depth];
            let len = path.len();
            let same = self.chains.iter().find(|&&(at, t)| {
                t == taken && self.points[at as usize + len - 1] == path[len - 1]
            });
            match same {
                // Same start, end and soldiers: one move, the path that
                // sorts first kept.
                Some(&(at, _)) => {
                    let kept = &mut self.points[at as usize..at as usize + len];
                    if path_before(path, kept) {
                        kept.copy_from_slice(path);
                    }
                }
                None => {
                    self.chains.push((self.points.len() as u32, taken));
                    self.points.extend_from_slice(path);
                }
            }
        }
    }

    /// No chain (their room kept).
    pub(crate) fn clear(&mut self) {
        self.points.clear();
        self.chains.clear();
    }

    /// The chains: each one's path and the soldiers it takes.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&[Point], Bitboard)> {
        self.chains.iter().map(|&(at, taken)| {
            let at = at as usize;
            (
                &self.points[at..at + taken.count_ones() as usize + 1],
                taken,
            )
        })
    }

    /// The most soldiers one chain takes (0 without a chain).
    pub(crate) fn most_taken(&self) -> u32 {
        self.chains
            .iter()
            .map(|&(_, t)| t.count_ones())
            .max()
            .unwrap_or(0)
    }
}

/// The capture moves of the officer on `start` as `(end point, soldiers
/// taken)` pairs, the same set as [`ChainList`] without the paths and
/// without allocating: pairs are appended to `out` (whose earlier entries
/// are left alone). Returns the most soldiers one of them takes (0 when the
/// officer cannot capture). `occupied` holds every piece but the officer
/// itself. Every point the officer lands on along the way is added to
/// `landed`: the result is the same for any other blocker off those
/// points. For the solver, which needs no paths.
pub(crate) fn capture_ends(
    start: Point,
    soldiers: Bitboard,
    occupied: Bitboard,
    out: &mut Vec<(u8, Bitboard)>,
    landed: &mut Bitboard,
) -> u32 {
    let first = out.len();
    let can_jump = start
        .jumps_raw()
        .iter()
        .any(|&(o, l)| o != board::NONE && soldiers & (1 << o) != 0 && occupied & (1 << l) == 0);
    if !can_jump {
        return 0;
    }
    struct Walk<'a> {
        soldiers: Bitboard,
        occupied: Bitboard,
        first: usize,
        out: &'a mut Vec<(u8, Bitboard)>,
        landed: Bitboard,
    }
    fn dfs(w: &mut Walk<'_>, cur: u8, taken: Bitboard) {
        w.landed |= 1 << cur;
        let mut any = false;
        for &(o, l) in Point::new(cur as usize).jumps_raw() {
            if o == board::NONE {
                break;
            }
            let over = 1u64 << o;
            if w.soldiers & over != 0 && taken & over == 0 && w.occupied & (1 << l) == 0 {
                #[cfg(test)]
                if taken != 0
                    && crate::planted::planted(crate::planted::Fault::ChainStopsAfterOneJump)
                {
                    continue;
                }
                any = true;
                dfs(w, l, taken | over);
            }
        }
        if !any && taken != 0 && !w.out[w.first..].contains(&(cur, taken)) {
            w.out.push((cur, taken));
        }
    }
    let mut w = Walk {
        soldiers,
        occupied,
        first,
        out,
        landed: 0,
    };
    dfs(&mut w, start.index() as u8, 0);
    *landed |= w.landed & !start.bit();
    out[first..]
        .iter()
        .map(|&(_, t)| t.count_ones())
        .max()
        .unwrap_or(0)
}

/// The end of the game by rules 1-3 of docs/RULES.md section 6 (what holds
/// whoever is to move): the winner, or `None`.
pub(crate) fn static_outcome(pos: &Position) -> Option<Side> {
    if pos.soldiers().count_ones() < 9 {
        Some(Side::Officers)
    } else if pos.soldiers() & FORTRESS == FORTRESS || pos.officers() == 0 {
        // Rule 2 (fortress full) or rule 3 (no officer left).
        Some(Side::Soldiers)
    } else {
        None
    }
}

/// The winner if the game is over (rules 1-5 of docs/RULES.md section 6), else
/// `None`.
pub fn outcome(pos: &Position, variant: &Variant) -> Option<Side> {
    if let Some(w) = static_outcome(pos) {
        return Some(w);
    }
    if has_legal_move(pos, variant) {
        return None;
    }
    Some(stuck_winner(pos.side(), variant))
}

/// Who wins when `side` is to move and has no legal move.
pub(crate) fn stuck_winner(side: Side, variant: &Variant) -> Side {
    match side {
        Side::Soldiers => Side::Officers,
        Side::Officers => match variant.trapped {
            TrappedRule::SoldiersWin => Side::Soldiers,
            TrappedRule::SoldiersLose => Side::Officers,
        },
    }
}

fn has_legal_move(pos: &Position, variant: &Variant) -> bool {
    match pos.side() {
        Side::Soldiers => {
            // Officer removal only frees points, so a huff never takes away
            // a soldier move; any huff that leaves officers keeps it all.
            if soldier_steps_exist(pos.soldiers(), pos.empty(), variant) {
                return true;
            }
            board::points(pos.huff()).any(|h| {
                let officers = pos.officers() & !h.bit();
                officers == 0 || soldier_steps_exist(pos.soldiers(), pos.empty() | h.bit(), variant)
            })
        }
        // Captures jump over soldiers, so an officer with no empty
        // neighbour may still move: ask the generator.
        Side::Officers => {
            let mut any = false;
            for_each_officer_move(pos.soldiers(), pos.officers(), variant, |_, _, _| {
                any = true
            });
            any
        }
    }
}

fn soldier_steps_exist(soldiers: Bitboard, empty: Bitboard, variant: &Variant) -> bool {
    let table = variant.soldier_moves();
    board::points(soldiers).any(|s| table[s.index()] & empty != 0)
}

fn push_soldier_steps(
    soldiers: Bitboard,
    empty: Bitboard,
    variant: &Variant,
    huff: Option<Point>,
    out: &mut Vec<Move>,
) {
    for_each_soldier_step(soldiers, empty, variant, |s, t| {
        out.push(Move::soldier(s, t, huff))
    });
}

/// Every step of one of these soldiers onto a point of `empty` under the
/// variant's soldier rule: calls `f(from, to)`, in the order of
/// [`legal_moves`]. The generator behind the soldiers' moves; shared with
/// the checker behind `asalto verify`, which takes one board's steps once
/// for every placement of the officers (not with the solver).
pub(crate) fn for_each_soldier_step(
    soldiers: Bitboard,
    empty: Bitboard,
    variant: &Variant,
    mut f: impl FnMut(Point, Point),
) {
    let table = variant.soldier_moves();
    for s in board::points(soldiers) {
        for t in board::points(table[s.index()] & empty) {
            f(s, t);
        }
    }
}

/// Every legal move of the side to move, in a fixed order (soldier moves
/// without a huff first). Empty when the game is over.
///
/// ```
/// use asalto_tb::{Position, Variant, rules};
/// let moves = rules::legal_moves(&Position::start(), &Variant::ASSAUT);
/// assert_eq!(moves.len(), 9);
/// ```
pub fn legal_moves(pos: &Position, variant: &Variant) -> Vec<Move> {
    let mut out = Vec::new();
    legal_moves_into(pos, variant, &mut out);
    out
}

/// [`legal_moves`] into `out` (cleared first), for callers that reuse one
/// buffer over many positions.
pub(crate) fn legal_moves_into(pos: &Position, variant: &Variant, out: &mut Vec<Move>) {
    out.clear();
    if static_outcome(pos).is_some() {
        return;
    }
    match pos.side() {
        Side::Soldiers => {
            push_soldier_steps(pos.soldiers(), pos.empty(), variant, None, out);
            for_each_huff(pos, variant, |h, alone| {
                if alone {
                    out.push(Move::huff_alone(h));
                } else {
                    push_soldier_steps(
                        pos.soldiers(),
                        pos.empty() | h.bit(),
                        variant,
                        Some(h),
                        out,
                    );
                }
            });
        }
        Side::Officers => officer_moves(pos, variant, out),
    }
}

/// The huffs open to the soldiers of `pos` (soldiers to move with huff
/// rights, the game not over by rules 1-3): calls `f(h, alone)` for each
/// officer `h` they may huff, in the order of [`legal_moves`]. `alone`:
/// `h` is the last officer, and the huff is a move by itself
/// ([`MoveKind::Huff`]) that ends the game; otherwise the huff and a
/// soldier step make one move, and `f` is called only when at least one
/// step follows the huff (a huff no step can follow is no move). Shared by
/// [`legal_moves`] and the checker behind `asalto verify` (not by the
/// solver).
pub(crate) fn for_each_huff(pos: &Position, variant: &Variant, mut f: impl FnMut(Point, bool)) {
    for h in board::points(pos.huff()) {
        if pos.officers() & !h.bit() == 0 {
            f(h, true);
        } else if soldier_steps_exist(pos.soldiers(), pos.empty() | h.bit(), variant) {
            f(h, false);
        }
    }
}

fn officer_moves(pos: &Position, variant: &Variant, out: &mut Vec<Move>) {
    for_each_officer_move(
        pos.soldiers(),
        pos.officers(),
        variant,
        |path, taken, offenders| {
            out.push(Move {
                kind: MoveKind::Officer {
                    path: path.to_vec(),
                    taken,
                },
                huff: None,
                offenders,
            })
        },
    );
}

/// Every legal officer move (capture duty applied) of the position with
/// these soldiers and officers, officers to move: calls
/// `f(path, taken, offenders)` with the officer's path (start, then each
/// landing point; `[from, to]` for a step), the soldiers taken and the
/// officers the soldiers may then huff (non-zero only for faults under
/// `capture=huff`). Shared by [`legal_moves`], [`outcome`] and the
/// checker behind `asalto verify` (not by the solver).
pub(crate) fn for_each_officer_move(
    soldiers: Bitboard,
    officers: Bitboard,
    variant: &Variant,
    f: impl FnMut(&[Point], Bitboard, Bitboard),
) {
    // (officer, its capture chains); at most two officers.
    let mut per: [(Point, ChainList); 2] =
        std::array::from_fn(|_| (Point::new(0), ChainList::default()));
    let mut count = 0;
    for o in board::points(officers) {
        per[count].0 = o;
        per[count].1.fill(o, soldiers, officers & !o.bit());
        count += 1;
    }
    let given: [(Point, &ChainList); 2] = std::array::from_fn(|i| (per[i].0, &per[i].1));
    for_each_officer_move_given(soldiers, officers, variant, &given[..count], f);
}

/// [`for_each_officer_move`] with each officer's capture chains given:
/// `chains` holds, for each officer (in board order), its point and
/// [`ChainList`] with the other officer as a blocker. For
/// callers that know the chains already (the checker reuses them over the
/// placements of the other officer that cannot change them).
pub(crate) fn for_each_officer_move_given(
    soldiers: Bitboard,
    officers: Bitboard,
    variant: &Variant,
    chains: &[(Point, &ChainList)],
    mut f: impl FnMut(&[Point], Bitboard, Bitboard),
) {
    let empty = board::ALL & !(soldiers | officers);
    let mut duty = Duty::default();
    for (o, chains) in chains {
        duty.push(*o, chains.most_taken());
    }
    for (o, chains) in chains {
        for t in board::points(o.adjacent() & empty) {
            if let Some(offenders) = duty.judge(variant, *o, t, 0) {
                f(&[*o, t], 0, offenders);
            }
        }
        for (path, taken) in chains.iter() {
            let to = *path.last().expect("non-empty path");
            if let Some(offenders) = duty.judge(variant, *o, to, taken.count_ones()) {
                f(path, taken, offenders);
            }
        }
    }
}

/// Capture duty (docs/RULES.md section 5) of one position, officers to move:
/// each officer with the most soldiers one of its captures takes.
struct Duty {
    officers: [(Point, u32); 2],
    count: usize,
    /// The most soldiers any capture takes.
    most: u32,
}

impl Default for Duty {
    fn default() -> Duty {
        Duty {
            officers: [(Point::new(0), 0); 2],
            count: 0,
            most: 0,
        }
    }
}

impl Duty {
    fn push(&mut self, o: Point, best: u32) {
        self.officers[self.count] = (o, best);
        self.count += 1;
        self.most = self.most.max(best);
    }

    /// Who may be huffed after a move of officer `o` to `to` taking `c`
    /// soldiers; `None` when the move is illegal.
    fn judge(&self, variant: &Variant, o: Point, to: Point, c: u32) -> Option<Bitboard> {
        let m = self.most;
        let enough = m == 0 || if variant.max { c == m } else { c > 0 };
        if enough {
            return Some(0);
        }
        match variant.capture {
            CaptureRule::Mandatory => None,
            CaptureRule::Free => Some(0),
            CaptureRule::Huff => {
                let mut offenders = 0;
                for &(p, best) in &self.officers[..self.count] {
                    let offends = if variant.max { best > c } else { best > 0 };
                    if offends {
                        offenders |= if p == o { to.bit() } else { p.bit() };
                    }
                }
                Some(offenders)
            }
        }
    }
}

/// The position after a legal move of `pos` (as produced by
/// [`legal_moves`] or [`parse_move`](super::parse_move)).
pub fn play(pos: &Position, variant: &Variant, mv: &Move) -> Position {
    debug_assert!(variant.huffs() || mv.offenders == 0);
    let mut soldiers = pos.soldiers();
    let mut officers = pos.officers();
    if let Some(h) = mv.huff {
        officers &= !h.bit();
    }
    match mv.kind() {
        MoveKind::Soldier { from, to } => {
            soldiers = soldiers & !from.bit() | to.bit();
            Position::from_parts_unchecked(soldiers, officers, Side::Officers, 0)
        }
        MoveKind::Huff => Position::from_parts_unchecked(soldiers, officers, Side::Officers, 0),
        MoveKind::Officer { path, taken } => {
            let (from, to) = (path[0], *path.last().expect("non-empty path"));
            after_officer_move(pos, from, to, *taken, mv.offenders)
        }
    }
}

/// The position after the officer on `from` moved to `to` taking the
/// soldiers `taken`, with `offenders` exposed to a huff: [`play`] for an
/// officer move, for callers that have the move as
/// [`for_each_officer_move`] gives it.
pub(crate) fn after_officer_move(
    pos: &Position,
    from: Point,
    to: Point,
    taken: Bitboard,
    offenders: Bitboard,
) -> Position {
    let officers = pos.officers() & !from.bit() | to.bit();
    let soldiers = pos.soldiers() & !taken;
    Position::from_parts_unchecked(soldiers, officers, Side::Soldiers, offenders)
}

/// Number of move sequences of length `depth` (perft(P, 0) = 1; a position
/// where the game is over has no moves).
pub fn perft(pos: &Position, variant: &Variant, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal_moves(pos, variant);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| perft(&play(pos, variant, m), variant, depth - 1))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(s: &str) -> Position {
        s.parse().unwrap()
    }

    fn moves(p: &str, v: Variant) -> Vec<String> {
        let mut m: Vec<String> = legal_moves(&pos(p), &v)
            .iter()
            .map(|m| m.to_string())
            .collect();
        m.sort();
        m
    }

    #[test]
    fn start_perft() {
        let s = Position::start();
        for (_, v, _) in Variant::PRESETS {
            assert_eq!(perft(&s, &v, 1), 9);
        }
        assert_eq!(perft(&s, &Variant::ASSAUT, 2), 48);
        assert_eq!(perft(&s, &Variant::ASALTO, 2), 48);
        assert_eq!(perft(&s, &Variant::ASSAULT, 2), 48);
        assert_eq!(perft(&s, &Variant::ASSAUT_MDJ, 2), 38);
    }

    /// A xorshift generator with a fixed seed, for random test boards.
    fn xorshift(mut x: u64) -> impl FnMut() -> u64 {
        move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        }
    }

    /// A random board with many soldiers and two free points drawn (maybe
    /// the same one); `None` when fewer than two points are free.
    fn random_board(next: &mut impl FnMut() -> u64) -> Option<(Bitboard, Point, Point)> {
        let soldiers = next() & next() & board::ALL;
        let free: Vec<Point> = board::points(board::ALL & !soldiers).collect();
        if free.len() < 2 {
            return None;
        }
        let a = free[next() as usize % free.len()];
        let b = free[next() as usize % free.len()];
        Some((soldiers, a, b))
    }

    #[test]
    fn capture_ends_match_the_chain_list() {
        // Random boards with many soldiers.
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        let mut with_captures = 0;
        // One list filled again and again gives what a fresh one does.
        let mut reused = ChainList::default();
        for _ in 0..3000 {
            let Some((soldiers, o, q)) = random_board(&mut next) else {
                continue;
            };
            let blockers = if q == o { 0 } else { q.bit() };
            let mut fresh = ChainList::default();
            fresh.fill(o, soldiers, blockers);
            reused.fill(o, soldiers, blockers);
            assert_eq!(
                reused.iter().collect::<Vec<_>>(),
                fresh.iter().collect::<Vec<_>>()
            );
            let mut want: Vec<(u8, Bitboard)> = fresh
                .iter()
                .map(|(path, taken)| (path.last().unwrap().index() as u8, taken))
                .collect();
            want.sort();
            let mut got = vec![(99, 0)];
            let mut landed = 0;
            let best = capture_ends(o, soldiers, soldiers | blockers, &mut got, &mut landed);
            assert_eq!(got.remove(0), (99, 0), "earlier entries are kept");
            got.sort();
            assert_eq!(got, want);
            let max = want.iter().map(|c| c.1.count_ones()).max().unwrap_or(0);
            assert_eq!(best, max);
            // Without the blocker: the same answer whenever it stands off
            // every point landed on.
            let mut alone = Vec::new();
            let mut landed_alone = 0;
            capture_ends(o, soldiers, soldiers, &mut alone, &mut landed_alone);
            if landed_alone & blockers == 0 {
                alone.sort();
                assert_eq!(alone, want);
            }
            with_captures += !want.is_empty() as usize;
        }
        assert!(with_captures > 300, "{with_captures}");
    }

    #[test]
    fn chain_turns_and_merges() {
        // Officer d6, soldiers d5 and c4: d6xd4xb4 turns left after the first jump.
        let m = moves("3/1O1/3S3/2S4/S5S/SSS/SSS o", Variant::ASSAUT);
        assert!(m.contains(&"d6xd4xb4".to_string()), "{m:?}");
        // The one-jump d6xd4 is not a move: the chain must go on.
        assert!(!m.contains(&"d6xd4".to_string()));
    }

    #[test]
    fn fault_and_huff_rights() {
        // Officer d6 can take d5; stepping instead is a fault under huff.
        let p = pos("3/1O1/3S3/7/S5S/SSS/SSS o");
        let all = legal_moves(&p, &Variant::ASSAUT);
        let step = all.iter().find(|m| m.to_string() == "d6-d7").unwrap();
        assert!(step.is_fault());
        let after = play(&p, &Variant::ASSAUT, step);
        assert_eq!(after.to_string(), "1O1/3/3S3/7/S5S/SSS/SSS s d7");
        // Mandatory: only the capture.
        assert_eq!(
            moves("3/1O1/3S3/7/S5S/SSS/SSS o", Variant::ASSAUT_MDJ),
            ["d6xd4"]
        );
        // The huff that removes the last officer ends the game.
        let hm = legal_moves(&after, &Variant::ASSAUT);
        let huff = hm.iter().find(|m| m.to_string() == "hd7").unwrap();
        let end = play(&after, &Variant::ASSAUT, huff);
        assert_eq!(static_outcome(&end), Some(Side::Soldiers));
        assert_eq!(
            crate::rules::parse_move(&after, &Variant::ASSAUT, "hd7").unwrap(),
            *huff
        );
    }
}
