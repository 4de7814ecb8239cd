//! Level samples: the solver and the verify timed on a sample of one
//! file's tiers read against a deterministic synthetic store that stands
//! in for every other tier, so that a rate can be measured at any soldier
//! count, however large the tables below it would be (`asalto bench
//! --levels`).
//!
//! The sample is tiers of one file (`n` officers, `k` soldiers) drawn
//! uniformly among its tiers (each set of soldiers outside the fortress
//! equally likely, made canonical), until it holds the positions asked
//! for: its positions per second estimate the whole file's, tiers weighted
//! by their size as a build weights them. Every tier a sample tier's moves
//! read (the same file's, the files below, the one-officer file the huffs
//! read) comes from a [`SyntheticStore`]: two-bit WDL fields made up from
//! a hash of the tier and the position, as a WDL-only build's window
//! hands them over. The values are not the game's, but the work of
//! solving and checking against them is the same work: every move is
//! generated, every exit read, every in-tier chain resolved. One thing
//! the made-up values keep true to the rules: the soldiers to move are
//! lost in 0 (field 3) exactly where they have no move, since the huff
//! rule reads that field (a huff that leaves the soldiers stuck is no
//! option) while the check sees it in the rules' own moves. A verify of
//! the sample's own solution against the same store must find nothing
//! wrong, which the sample reports.

use super::lookup::{TierStore, TierValues, WdlFields};
use super::{Lookup, SolveError, check_tier_as, solve_tier};
use crate::board::OUTSIDE;
use crate::fields::{WDL_ONLY_FIELD_CODES, wdl_only_bits};
use crate::index::{FileKey, TierKey};
use crate::rules::Variant;
use rustc_hash::FxHashMap as HashMap;
use std::sync::{Arc, RwLock};
use std::time::Instant;

/// A store that makes up a WDL-only tier for any tier asked for:
/// deterministic in the seed, the tier and the position (a draw, a win or
/// a loss for the side to move, a third each; soldiers to move without a
/// move lost in 0, as the rules have it), made once per tier and kept.
pub struct SyntheticStore {
    seed: u64,
    /// Each point's soldier steps, as the variant has them.
    soldier_moves: &'static [u64; crate::board::NUM_POINTS],
    tiers: RwLock<HashMap<TierKey, Arc<[u8]>>>,
}

/// SplitMix64's finaliser: a well-mixed 64-bit hash of `x`.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

impl SyntheticStore {
    /// An empty store whose tiers are made from `seed`, for `variant`'s
    /// soldier moves.
    pub fn new(seed: u64, variant: &Variant) -> SyntheticStore {
        SyntheticStore {
            seed,
            soldier_moves: variant.soldier_moves(),
            tiers: RwLock::new(HashMap::default()),
        }
    }

    /// The packed fields of `key`, made on first asking.
    fn fields(&self, key: &TierKey) -> Arc<[u8]> {
        if let Some(f) = self
            .tiers
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(key)
        {
            return f.clone();
        }
        let n = key.size() as usize;
        let base =
            mix(self.seed ^ mix(key.outside ^ u64::from(key.k) << 40 ^ u64::from(key.n) << 48));
        let mut bytes = vec![0u8; n.div_ceil(4)];
        for (i, b) in bytes.iter_mut().enumerate() {
            let h = mix(base ^ i as u64);
            for j in 0..4 {
                // A draw, a win or a loss: fields 0, 1, 2.
                let w = ((h >> (16 * j)) & 0xffff) % 3;
                *b |= (w as u8) << (2 * j);
            }
        }
        self.mark_stuck_soldiers(key, &mut bytes);
        let fields: Arc<[u8]> = bytes.into();
        self.tiers
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(*key, fields.clone());
        fields
    }
}

impl SyntheticStore {
    /// Set field 3 (a loss in 0) for the soldiers-to-move positions of
    /// `key` (fields in index order) where the soldiers have no move:
    /// every point a soldier could step to holds an officer.
    fn mark_stuck_soldiers(&self, key: &TierKey, bytes: &mut [u8]) {
        let half = key.size_per_side() as usize;
        let placements = key.officer_placements() as usize;
        for (f, &mask) in crate::index::fortress_masks(key.m()).iter().enumerate() {
            let soldiers = key.outside | crate::index::fortress_bits(mask);
            let free = crate::board::ALL & !soldiers;
            let mut targets = 0;
            for s in crate::board::points(soldiers) {
                targets |= self.soldier_moves[s.index()] & free;
            }
            if targets.count_ones() > u32::from(key.n) {
                continue;
            }
            let pts: Vec<u64> = crate::board::points(free).map(|p| p.bit()).collect();
            let mut o = 0;
            let mut mark = |officers: u64| {
                if targets & !officers == 0 {
                    let i = half + f * placements + o;
                    bytes[i / 4] |= 3 << (2 * (i % 4));
                }
                o += 1;
            };
            if key.n == 1 {
                pts.iter().for_each(|&a| mark(a));
            } else {
                for j in 1..pts.len() {
                    for &a in &pts[..j] {
                        mark(a | pts[j]);
                    }
                }
            }
        }
    }
}

impl TierStore for SyntheticStore {
    fn tier(&self, key: &TierKey) -> Result<Option<Arc<[u16]>>, SolveError> {
        let fields = self.fields(key);
        Ok(Some(
            (0..key.size() as usize)
                .map(|i| WDL_ONLY_FIELD_CODES[(fields[i / 4] >> (2 * (i % 4)) & 3) as usize])
                .collect(),
        ))
    }

    /// As a WDL-only build's window hands a tier over: a copy of its
    /// fields, in index order.
    fn values(&self, key: &TierKey) -> Result<Option<TierValues>, SolveError> {
        let fields = self.fields(key);
        Ok(Some(TierValues::Wdl(WdlFields::new(
            (fields[..].into(), 0),
            key.size() as u32,
            key,
            false,
            WDL_ONLY_FIELD_CODES,
        ))))
    }

    fn has_distances(&self) -> bool {
        false
    }
}

/// The tiers of a level sample: canonical tiers of `file`, drawn from
/// `seed`, until they hold at least `positions` positions (or every draw
/// of a small file has been tried). Each set of soldiers outside is drawn
/// with the chance of its size among the file's sets, its points at
/// random, then made canonical; repeats are dropped.
pub fn sample_tiers(file: FileKey, positions: u64, seed: u64) -> Vec<TierKey> {
    let outside: Vec<u64> = crate::board::points(OUTSIDE).map(|p| p.bit()).collect();
    let k = u32::from(file.soldiers());
    // Sizes of the outside set: k - 8 (eight soldiers inside) to k.
    let sizes: Vec<u32> = (k.saturating_sub(8)..=k.min(24)).collect();
    let weights: Vec<f64> = sizes
        .iter()
        .map(|&s| f64::from(crate::index::binom(24, s as usize)))
        .collect();
    let total: f64 = weights.iter().sum();
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut held = 0u64;
    let mut draw = 0u64;
    while held < positions && draw < 200_000 {
        draw += 1;
        let h = mix(seed ^ mix(draw));
        let mut x = (h >> 11) as f64 / (1u64 << 53) as f64 * total;
        let mut size = sizes[sizes.len() - 1];
        for (&s, &w) in sizes.iter().zip(&weights) {
            if x < w {
                size = s;
                break;
            }
            x -= w;
        }
        // `size` of the 24 points by a partial shuffle.
        let mut pts = outside.clone();
        let mut set = 0u64;
        for i in 0..size as usize {
            let j = i + (mix(h ^ (i as u64 + 1)) % (24 - i) as u64) as usize;
            pts.swap(i, j);
            set |= pts[i];
        }
        let key = file.tier(set).canonical();
        if key.is_valid() && seen.insert(key) {
            held += key.size();
            out.push(key);
        }
    }
    out
}

/// The sample the ignored profile harnesses of the bit-set solver and the
/// set checker run on (`perf record` on the test binary): assaut's 2o18s,
/// or `n`o`k`s with `ASALTO_PROFILE_OFFICERS=n` and
/// `ASALTO_PROFILE_SOLDIERS=k`, about 2e6 positions, and
/// its synthetic store.
#[cfg(test)]
pub(crate) fn profile_sample() -> (Variant, Vec<TierKey>, SyntheticStore) {
    let variant = Variant::ASSAUT;
    let soldiers = std::env::var("ASALTO_PROFILE_SOLDIERS")
        .ok()
        .and_then(|k| k.parse().ok())
        .unwrap_or(18);
    let officers = std::env::var("ASALTO_PROFILE_OFFICERS")
        .ok()
        .and_then(|k| k.parse().ok())
        .unwrap_or(2);
    let tiers = sample_tiers(FileKey::new(officers, soldiers), 2_000_000, 1);
    let store = SyntheticStore::new(1, &variant);
    (variant, tiers, store)
}

/// How many timed passes a profile harness makes over its sample:
/// `ASALTO_PROFILE_PASSES`, or `default`.
#[cfg(test)]
pub(crate) fn profile_passes(default: usize) -> usize {
    std::env::var("ASALTO_PROFILE_PASSES")
        .ok()
        .and_then(|k| k.parse().ok())
        .unwrap_or(default)
}

/// What a level sample measured.
#[derive(Clone, Debug)]
pub struct LevelSample {
    /// The file sampled.
    pub file: FileKey,
    /// Tiers in the sample.
    pub tiers: usize,
    /// Positions in the sample (both sides to move).
    pub positions: u64,
    /// Seconds the solver took on the sample (one thread, its store warm).
    pub solve_seconds: f64,
    /// Seconds the WDL-only check took on the solver's values.
    pub verify_seconds: f64,
    /// Seconds the bit-set solver ([`super::Engine::BitSets`]) took on the
    /// same tiers against the same store: the median of
    /// [`LevelSample::bits_runs`].
    pub bits_seconds: f64,
    /// Each timed pass of the bit-set solver over the sample (seconds),
    /// in the order run.
    pub bits_runs: Vec<f64>,
    /// Positions whose WDL-only field the bit-set solver gives otherwise
    /// than the position solver (0 unless they disagree).
    pub bits_differ: u64,
    /// Positions the check found wrong (0 unless the solver and the
    /// check disagree).
    pub inconsistent: u64,
    /// Seconds the set checker (`verify --checker sets`) took on the same
    /// values: the median of [`LevelSample::sets_runs`].
    pub sets_seconds: f64,
    /// Each timed pass of the set checker over the sample (seconds), in
    /// the order run.
    pub sets_runs: Vec<f64>,
    /// Positions the set checker found wrong (0 unless it disagrees).
    pub sets_inconsistent: u64,
}

/// Solve and check a sample of `file`'s tiers (about `positions`
/// positions, drawn from `seed`) on the calling thread against a
/// [`SyntheticStore`] of the same seed: the solve is run once to make the
/// store's tiers, then timed; the check is timed on the timed solve's
/// values. The bit-set solver and the set checker (each pass under a
/// second on ~1e7 positions, where a shared machine's speed wanders by
/// 10-20% from one second to the next) are timed `runs` times each, in
/// turn, and their medians kept; the position solver and checker once.
pub fn level_sample(
    variant: &Variant,
    file: FileKey,
    positions: u64,
    seed: u64,
    runs: usize,
) -> Result<LevelSample, SolveError> {
    assert!(runs > 0, "at least one run");
    let tiers = sample_tiers(file, positions, seed);
    let store = SyntheticStore::new(seed, variant);
    for key in &tiers {
        solve_tier(key, &mut Lookup::new(&store, *variant))?;
    }
    let t = Instant::now();
    let mut solved = Vec::with_capacity(tiers.len());
    for key in &tiers {
        solved.push(solve_tier(key, &mut Lookup::new(&store, *variant))?);
    }
    let solve_seconds = t.elapsed().as_secs_f64();
    let bits_pass = || -> Result<(f64, Vec<Vec<u16>>), SolveError> {
        let t = Instant::now();
        let mut bits = Vec::with_capacity(tiers.len());
        for key in &tiers {
            bits.push(super::solve_tier_wdl(
                key,
                &mut Lookup::new(&store, *variant),
            )?);
        }
        Ok((t.elapsed().as_secs_f64(), bits))
    };
    let sets_pass = || -> Result<(f64, u64), SolveError> {
        let t = Instant::now();
        let mut wrong = 0;
        for (key, codes) in tiers.iter().zip(&solved) {
            wrong +=
                super::setcheck::check_tier_sets(key, &mut Lookup::new(&store, *variant), codes)?
                    .len() as u64;
        }
        Ok((t.elapsed().as_secs_f64(), wrong))
    };
    let (mut bits_runs, mut sets_runs) = (Vec::with_capacity(runs), Vec::with_capacity(runs));
    let (mut bits, mut sets_inconsistent) = (Vec::new(), 0);
    for _ in 0..runs {
        let (seconds, values) = bits_pass()?;
        bits_runs.push(seconds);
        bits = values;
        let (seconds, wrong) = sets_pass()?;
        sets_runs.push(seconds);
        sets_inconsistent = sets_inconsistent.max(wrong);
    }
    let bits_differ = solved
        .iter()
        .zip(&bits)
        .map(|(a, b)| {
            a.iter()
                .zip(b)
                .filter(|&(&x, &y)| wdl_only_bits(x) != wdl_only_bits(y))
                .count() as u64
        })
        .sum();
    drop(bits);
    let t = Instant::now();
    let mut inconsistent = 0;
    for (key, codes) in tiers.iter().zip(&solved) {
        let wrong = check_tier_as(key, &mut Lookup::new(&store, *variant), codes, true)?;
        inconsistent += wrong.len() as u64;
    }
    let verify_seconds = t.elapsed().as_secs_f64();
    Ok(LevelSample {
        file,
        tiers: tiers.len(),
        positions: tiers.iter().map(TierKey::size).sum(),
        solve_seconds,
        verify_seconds,
        bits_seconds: median(&bits_runs).expect("at least one run"),
        bits_runs,
        bits_differ,
        inconsistent,
        sets_seconds: median(&sets_runs).expect("at least one run"),
        sets_runs,
        sets_inconsistent,
    })
}

/// The median of `xs`: the middle value, the upper of the two middle
/// ones for an even count; `None` for no values. (The bench's medians too.)
pub fn median(xs: &[f64]) -> Option<f64> {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_is_canonical_tiers_of_the_file_and_deterministic() {
        let file = FileKey::new(2, 15);
        let a = sample_tiers(file, 2_000_000, 7);
        assert_eq!(a, sample_tiers(file, 2_000_000, 7));
        assert_ne!(a, sample_tiers(file, 2_000_000, 8));
        let held: u64 = a.iter().map(TierKey::size).sum();
        assert!(held >= 2_000_000, "{held}");
        for t in &a {
            assert!(t.is_valid() && t.is_canonical(), "{t:?}");
            assert_eq!((t.n, t.k), (2, 15));
        }
        let mut d = a.clone();
        d.sort();
        d.dedup();
        assert_eq!(d.len(), a.len());
        // Several sizes of the outside set are drawn.
        let sizes: std::collections::HashSet<u32> =
            a.iter().map(|t| t.outside.count_ones()).collect();
        assert!(sizes.len() >= 3, "{sizes:?}");
    }

    #[test]
    fn the_synthetic_store_is_deterministic_and_hands_over_what_it_reads() {
        let key = TierKey {
            n: 2,
            k: 12,
            outside: 0xfff,
        };
        let v = Variant::ASSAUT;
        let (a, b) = (SyntheticStore::new(1, &v), SyntheticStore::new(1, &v));
        let ta = a.tier(&key).unwrap().unwrap();
        assert_eq!(ta, b.tier(&key).unwrap().unwrap());
        assert_ne!(ta, SyntheticStore::new(2, &v).tier(&key).unwrap().unwrap());
        let TierValues::Wdl(w) = a.values(&key).unwrap().unwrap() else {
            panic!("fields expected");
        };
        let mut classes = [0u64; 3];
        for (i, &c) in ta.iter().enumerate() {
            assert_eq!(TierValues::Wdl(w.clone()).code(i as u32), Some(c));
            classes[super::super::code_class(c)] += 1;
        }
        // A third each, roughly.
        let n = ta.len() as u64;
        assert!(
            classes.iter().all(|&c| c > n / 4 && c < n / 2),
            "{classes:?}"
        );
    }

    #[test]
    fn the_median_is_the_middle_run() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(3.0));
        assert_eq!(median(&[5.0]), Some(5.0));
        assert_eq!(median(&[]), None);
    }

    /// The solver's values of a sample pass the WDL-only check against
    /// the same store, in a huff and a mandatory variant.
    #[test]
    fn a_level_sample_checks_clean() {
        for v in [Variant::ASSAUT, Variant::ASSAUT_MDJ] {
            let s = level_sample(&v, FileKey::new(2, 12), 20_000, 3, 2).unwrap();
            assert!(s.positions >= 20_000 && s.tiers > 0, "{s:?}");
            assert_eq!((s.bits_runs.len(), s.sets_runs.len()), (2, 2), "{s:?}");
            assert_eq!(Some(s.bits_seconds), median(&s.bits_runs));
            assert_eq!(s.sets_inconsistent, 0, "{v}: {s:?}");
            assert_eq!(s.inconsistent, 0, "{v}: {s:?}");
            assert_eq!(s.bits_differ, 0, "{v}: {s:?}");
        }
    }
}
