//! Counting without solving: the tiers and positions of a closure, by a
//! walk over every tier held as bits (`closure_counts`), and the window of
//! solved tiers a file's build holds at its peak (`complete_window_bytes`
//! for a complete file, the same walk for a closure's).

use super::*;

/// The window of the complete file `(n, k)` (of a WDL-only build when
/// `wdl_only`): what [`crate::build::window_peak_bytes`] says of its tiers,
/// counted by level ([`index::canonical_sets_by_progress`]) without
/// listing them.
pub(crate) fn complete_window_bytes(variant: &Variant, file: FileKey, wdl_only: bool) -> u64 {
    let FileKey { n, k } = file;
    let kk = k as usize;
    let half = binom(33 - kk, n as usize) as u64;
    let sets = index::canonical_sets_by_progress(variant);
    let mut per_level = std::collections::BTreeMap::new();
    let sizes = kk.saturating_sub(8)..=kk;
    for (s, by_p) in sets.iter().enumerate().filter(|(s, _)| sizes.contains(s)) {
        let per_set = crate::build::window_held_bytes(binom(9, kk - s) as u64 * half, wdl_only);
        for (p, &count) in by_p.iter().enumerate().filter(|(_, c)| **c != 0) {
            *per_level.entry(p as u32).or_insert(0u64) += count * per_set;
        }
    }
    crate::build::peak_over_levels(&per_level, crate::build::window_levels(variant))
}

/// Tiers and positions of one file in a closure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FileCount {
    /// The file.
    pub(crate) file: FileKey,
    /// Canonical tiers.
    pub(crate) tiers: u64,
    /// Positions of those tiers (both sides to move).
    pub(crate) positions: u64,
    /// The window of solved tiers of a build of those tiers.
    pub(crate) windows: Windows,
}

/// The outside points in board order; bit `i` of a 24-bit set is point
/// `OUTSIDE_POINTS[i]`. The order is the board's, so comparing two sets as
/// numbers compares them as bitboards (the mirror's canonical choice).
pub(super) fn outside_points() -> Vec<board::Point> {
    board::points(board::OUTSIDE).collect()
}

/// Where the soldier on each outside point may step: bit sets of outside
/// points, and whether it may step into the fortress.
pub(super) struct Steps {
    to_outside: [u32; 24],
    to_fortress: u32,
    mirror_byte: [[u32; 256]; 3],
    /// The progress of each outside point ([`TierKey::progress`]).
    progress: [u32; 24],
}

impl Steps {
    fn new(variant: &Variant) -> Steps {
        let points = outside_points();
        let local = |p: board::Point| points.iter().position(|&q| q == p);
        let table = variant.soldier_moves();
        let mut to_outside = [0u32; 24];
        let mut to_fortress = 0u32;
        for (i, p) in points.iter().enumerate() {
            for t in board::points(table[p.index()]) {
                match local(t) {
                    Some(j) => to_outside[i] |= 1 << j,
                    None => to_fortress |= 1 << i,
                }
            }
        }
        // The mirror of a 24-bit set, a byte at a time.
        let mirror_of = |i: usize| local(points[i].mirror());
        let mut mirror_byte = [[0u32; 256]; 3];
        for (b, table) in mirror_byte.iter_mut().enumerate() {
            for (v, out) in table.iter_mut().enumerate() {
                for bit in 0..8 {
                    if v >> bit & 1 == 1 {
                        let j = mirror_of(b * 8 + bit).expect("the mirror keeps outside points");
                        *out |= 1 << j;
                    }
                }
            }
        }
        let mut progress = [0u32; 24];
        for (i, p) in points.iter().enumerate() {
            progress[i] = variant.progress()[p.index()] as u32;
        }
        Steps {
            to_outside,
            to_fortress,
            mirror_byte,
            progress,
        }
    }

    /// The progress of a set: its tier's level in the file
    /// ([`TierKey::progress`]).
    fn progress(&self, s: u32) -> u32 {
        let (mut s, mut sum) = (s, 0);
        while s != 0 {
            sum += self.progress[s.trailing_zeros() as usize];
            s &= s - 1;
        }
        sum
    }

    fn mirror(&self, s: u32) -> u32 {
        self.mirror_byte[0][(s & 0xff) as usize]
            | self.mirror_byte[1][(s >> 8 & 0xff) as usize]
            | self.mirror_byte[2][(s >> 16) as usize]
    }
}

/// Tiers and positions, per file, of the closure of `roots` under
/// [`TierKey::successors`]: the same tiers as [`index::closure`], counted
/// without listing them. Every tier is one bit of a table over all
/// `(n, k, S)` (2 x 16 x 2^24 bits, 64 MiB, plus 64 MiB for the order of
/// the sets); the tiers are visited in the solving order reversed, so that
/// one pass marks everything a tier reaches before it is visited. A file
/// all of whose tiers are reached makes the files below it complete, which
/// are then counted in closed form: the start's closure (every tier) takes
/// well under a second in a release build, the plain walk about 20 s.
/// Files with no tier are left out.
pub(crate) fn closure_counts(roots: &[TierKey], variant: &Variant) -> Vec<FileCount> {
    counts(roots, variant, true)
}

/// [`closure_counts`], with or without counting the files below a full
/// one in closed form.
pub(super) fn counts(roots: &[TierKey], variant: &Variant, shortcut: bool) -> Vec<FileCount> {
    let points = outside_points();
    let steps = Steps::new(variant);
    let huff = variant.huffs();
    let mut seen = TierBits::new();
    let mut top = [false; 32];
    // The roots and their mirror images: what they reach is then closed
    // under the mirror, and its canonical tiers are the closure's.
    for r in roots.iter().filter(|r| r.is_valid()) {
        for t in [*r, r.mirror()] {
            seen.mark(t.file(), index::outside_set(t.outside));
        }
        top[slot(r.file())] = true;
    }
    let order = sets_by_progress(variant, &points);
    let mut out = Vec::new();
    let mut active = top;
    // A file all of whose tiers are reached makes every file below it full
    // too: any set of k - 1 soldiers is a set of k with one captured, and a
    // huff keeps the set. Those are counted in closed form, not walked.
    let mut full = [false; 32];
    for n in [2u8, 1] {
        for k in (9..=24u8).rev() {
            if full[slot(FileKey::new(n, k))] {
                out.push(FileCount {
                    file: FileKey::new(n, k),
                    tiers: index::complete_tiers(k),
                    positions: index::complete_positions(FileKey::new(n, k)),
                    windows: Windows::complete(variant, FileKey::new(n, k)),
                });
                continue;
            }
            if !active[slot(FileKey::new(n, k))] {
                continue;
            }
            let keep = crate::build::window_levels(variant);
            let file = walk_file(FileKey::new(n, k), &order, &steps, huff, keep, &mut seen);
            let tiers = file.tiers;
            if k > 9 {
                active[slot(FileKey::new(n, k - 1))] = true;
            }
            if n == 2 && huff {
                active[slot(FileKey::new(1, k))] = true;
            }
            if shortcut && tiers == index::complete_tiers(k) {
                for kk in 9..k {
                    full[slot(FileKey::new(n, kk))] = true;
                }
                if n == 2 && huff {
                    for kk in 9..=k {
                        full[slot(FileKey::new(1, kk))] = true;
                    }
                }
            }
            if tiers > 0 {
                out.push(file);
            }
        }
    }
    out.sort_by_key(|c| (c.file.k, c.file.n));
    out
}

/// Every 24-bit set in increasing P(S) (the sum of its soldiers'
/// progress), by a counting sort: walked reversed, in decreasing P(S), a
/// set's successors in the same file come after it, since a soldier step
/// lowers P.
pub(super) fn sets_by_progress(variant: &Variant, points: &[board::Point]) -> Vec<u32> {
    let progress = variant.progress();
    let p: Vec<u32> = points.iter().map(|q| progress[q.index()] as u32).collect();
    let p_of = |s: u32| -> u32 {
        let mut s = s;
        let mut sum = 0;
        while s != 0 {
            sum += p[s.trailing_zeros() as usize];
            s &= s - 1;
        }
        sum
    };
    let p_max = p_of((SETS - 1) as u32) as usize;
    let mut by_p = vec![0u32; p_max + 2];
    for s in 0..SETS as u32 {
        by_p[p_of(s) as usize + 1] += 1;
    }
    for i in 1..by_p.len() {
        by_p[i] += by_p[i - 1];
    }
    let mut order = vec![0u32; SETS];
    for s in 0..SETS as u32 {
        let at = &mut by_p[p_of(s) as usize];
        order[*at as usize] = s;
        *at += 1;
    }
    order
}

/// Walk the reached tiers of the file of `n` officers and `k` soldiers in
/// decreasing P(S) (`order` reversed), marking in `seen` every tier each
/// one reaches (in this file, by a capture in the file below, by a huff in
/// the one-officer file). Returns the file's tiers reached and their
/// positions, mirror images counted once, and the window of a build of
/// them (`keep`: [`crate::build::window_levels`]), as
/// [`crate::build::window_peak_bytes`] counts it from their list.
pub(super) fn walk_file(
    file: FileKey,
    order: &[u32],
    steps: &Steps,
    huff: bool,
    keep: u32,
    seen: &mut TierBits,
) -> FileCount {
    let FileKey { n, k } = file;
    let (lo, hi) = (k.saturating_sub(8) as u32, k as u32);
    let per_tier =
        |m: u32| 2 * binom(9, m as usize) as u64 * binom(33 - k as usize, n as usize) as u64;
    let (mut tiers, mut positions) = (0u64, 0u64);
    // The window's bytes by level, with distances and WDL-only.
    let mut per_level = [
        std::collections::BTreeMap::<u32, u64>::new(),
        std::collections::BTreeMap::<u32, u64>::new(),
    ];
    for &s in order.iter().rev() {
        let c = s.count_ones();
        if c < lo || c > hi {
            continue;
        }
        if !seen.has(file, s) {
            continue;
        }
        let m = k as u32 - c;
        if s <= steps.mirror(s) {
            tiers += 1;
            positions += per_tier(m);
            let level = steps.progress(s);
            for (held, wdl_only) in per_level.iter_mut().zip([false, true]) {
                *held.entry(level).or_default() +=
                    crate::build::window_held_bytes(per_tier(m) / 2, wdl_only);
            }
        }
        // Soldier steps: outside to outside, or into the fortress.
        let mut rest = s;
        while rest != 0 {
            let b = rest.trailing_zeros();
            rest &= rest - 1;
            let without = s & !(1 << b);
            if steps.to_fortress >> b & 1 == 1 && m < 8 {
                seen.mark(FileKey::new(n, k), without);
            }
            let mut to = steps.to_outside[b as usize] & !s;
            while to != 0 {
                let t = to.trailing_zeros();
                to &= to - 1;
                seen.mark(FileKey::new(n, k), without | 1 << t);
            }
            // A capture of this soldier.
            if k > 9 {
                seen.mark(FileKey::new(n, k - 1), without);
            }
        }
        // A capture inside the fortress.
        if k > 9 && m > 0 {
            seen.mark(FileKey::new(n, k - 1), s);
        }
        if n == 2 && huff {
            seen.mark(FileKey::new(1, k), s);
        }
    }
    let [with_distances, wdl_only] =
        per_level.map(|held| crate::build::peak_over_levels(&held, keep));
    FileCount {
        file: FileKey::new(n, k),
        tiers,
        positions,
        windows: Windows {
            with_distances,
            wdl_only,
        },
    }
}
