//! Estimates from measured figures: the disk a file takes (bits per
//! position measured on built tables, [`MEASURED`]), and the time a build
//! and a verify take (a solving rate, calibrated or given, and the ratios
//! the bench records measured).

use super::*;

/// Bits per position measured on one built table.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Measured {
    /// Officers.
    pub(crate) n: u8,
    /// Soldiers.
    pub(crate) k: u8,
    /// File bytes x 8 / positions.
    pub(crate) bits: f64,
    /// Whether the table was written with the current block sizes (2^14
    /// WDL, 2^12 distance positions a block).
    pub(crate) current_blocks: bool,
    /// The record it comes from, under `scripts/bench-runs/`: provenance
    /// for the reader of [`MEASURED`], which no code reads.
    #[allow(dead_code, reason = "provenance of the figure, for the reader")]
    pub(crate) source: &'static str,
}

/// The sizes the estimates of files with distances come from: the complete
/// assaut tables with 9, 10 and 11 soldiers. The 9-soldier figures are file
/// bytes over positions in `2026-11-21-vm/bench.json` (1o9s: 214,366,282
/// bytes for 928,318,512 positions; 2o9s: 1,428,251,610 for
/// 10,675,662,888); the others, and the same 9-soldier tables written with
/// the larger blocks of that time, are the `bits_per_position` of
/// `2026-11-21-assaut10/build-assaut-10.json` and
/// `2026-11-21-assaut11/build-assaut-11.json`.
pub(crate) const MEASURED: [Measured; 8] = [
    Measured {
        n: 1,
        k: 9,
        bits: 1.847_351,
        current_blocks: true,
        source: "2026-11-21-vm/bench.json",
    },
    Measured {
        n: 2,
        k: 9,
        bits: 1.070_286,
        current_blocks: true,
        source: "2026-11-21-vm/bench.json",
    },
    Measured {
        n: 1,
        k: 9,
        bits: 1.385_633,
        current_blocks: false,
        source: "2026-11-21-assaut10/build-assaut-10.json",
    },
    Measured {
        n: 2,
        k: 9,
        bits: 0.691_179,
        current_blocks: false,
        source: "2026-11-21-assaut10/build-assaut-10.json",
    },
    Measured {
        n: 1,
        k: 10,
        bits: 2.655_713,
        current_blocks: false,
        source: "2026-11-21-assaut10/build-assaut-10.json",
    },
    Measured {
        n: 2,
        k: 10,
        bits: 1.843_105,
        current_blocks: false,
        source: "2026-11-21-assaut10/build-assaut-10.json",
    },
    Measured {
        n: 1,
        k: 11,
        bits: 2.674_573,
        current_blocks: false,
        source: "2026-11-21-assaut11/build-assaut-11.json",
    },
    Measured {
        n: 2,
        k: 11,
        bits: 2.892_328,
        current_blocks: false,
        source: "2026-11-21-assaut11/build-assaut-11.json",
    },
];

/// The WDL streams of WDL-only files as `build --wdl-only` writes them
/// (format 5: each tier's halves placement-major, `2^20`-position WDL
/// blocks, level 9; [`crate::table::WriteOptions::wdl_only`]), by
/// (officers, soldiers): `(positions, compressed bytes of the WDL
/// stream)`. Measured on the files of the whole game's run
/// (`scripts/bench-runs/2026-11-26-start/`): those with 9 to 12 soldiers,
/// built in format 4 with `2^18`-position blocks, rewritten so by `asalto
/// repack --wdl-only --wdl-block 1048576` (`wdl_bytes_after` in
/// `scripts/bench-runs/2026-11-26-format5/`); those with 13, written so by
/// the build (`wdl_bits_per_position` times `positions` in the summaries
/// `12-build.json` and `15-build.json` there). The rest of a file (its
/// index: 8 bytes a tier, 16 a block) follows from its counts
/// ([`crate::table::file_len`]), so the estimate of a file is these
/// bits/position times its positions plus its exact index.
pub(crate) const MEASURED_WDL_STREAM: [(u8, u8, u64, u64); 10] = [
    (1, 9, 928_318_512, 6_457_576),
    (2, 9, 10_675_662_888, 7_660_513),
    (1, 10, 2_133_337_860, 67_827_865),
    (2, 10, 23_466_716_460, 89_312_618),
    (1, 11, 4_264_450_344, 198_265_084),
    (2, 11, 44_776_728_612, 585_939_452),
    (1, 12, 7_460_291_496, 395_630_218),
    (2, 12, 74_602_914_960, 2_003_389_139),
    (1, 13, 11_474_793_120, 497_927_587),
    (2, 13, 109_010_534_640, 4_526_201_053),
];

/// The most soldiers [`MEASURED_WDL_STREAM`] has a figure for: larger
/// files are estimated at its figure times the growth of
/// [`WDL_GROWTH_ABOVE`].
pub(super) const MEASURED_WDL_MAX: u8 = 13;

/// How the WDL stream's density grew above 13 soldiers in the largest
/// closure built so far: asalto's closure of the 20-soldier formation
/// `3/O1O/SS3SS/SSSSSSS/SSSSSSS/SS1/3 s` (142.1e9 positions, 24 files),
/// by (officers, soldiers): `(positions, compressed bytes of the WDL
/// stream)`, its files with 13 to 20 soldiers (`positions` times
/// `wdl_bits_per_position` in the summaries
/// `scripts/bench-runs/2026-11-27-f20/asalto-{1,3,4,5,6,7}-build.json`).
/// For two officers it rose from 0.39 bits/position at 13 to 0.53 at 15
/// and 16, then fell towards the closure's top (0.15 at 20); for one
/// officer it fell from 13 on. A file above 13 soldiers is estimated at
/// the whole game's 13-soldier figure times this closure's density at its
/// soldiers over its density at 13, never less than 1 (the whole game's
/// top is at 24, not 20, so its fall near the top need not come as early)
/// and, above 20, the growth at 20 (so 1).
pub(crate) const WDL_GROWTH_ABOVE: [(u8, u8, u64, u64); 16] = [
    (1, 13, 1_967_970_160, 90_130_864),
    (2, 13, 18_695_716_520, 915_423_827),
    (1, 14, 2_187_000_320, 57_465_616),
    (2, 14, 19_683_002_880, 1_193_902_353),
    (1, 15, 2_119_383_648, 33_411_056),
    (2, 15, 18_014_761_008, 1_187_217_144),
    (1, 16, 1_790_197_478, 17_304_597),
    (2, 16, 14_321_579_824, 938_203_899),
    (1, 17, 1_315_607_456, 7_995_444),
    (2, 17, 9_867_055_920, 588_906_456),
    (1, 18, 838_349_340, 3_294_789),
    (2, 18, 5_868_445_380, 281_099_181),
    (1, 19, 460_846_568, 1_213_290),
    (2, 19, 2_995_502_692, 97_553_035),
    (1, 20, 216_928_946, 484_130),
    (2, 20, 1_301_573_676, 25_175_884),
];

/// The density of `table`'s entry for `file`, in bits/position.
pub(super) fn density(table: &[(u8, u8, u64, u64)], file: FileKey) -> Option<f64> {
    table
        .iter()
        .find(|m| FileKey::new(m.0, m.1) == file)
        .map(|m| m.3 as f64 * 8.0 / m.2 as f64)
}

/// The factor a WDL-only file `file` is estimated at over the figure of
/// [`MEASURED_WDL_STREAM`] it is given: 1 up to [`MEASURED_WDL_MAX`]
/// soldiers, above them the growth of [`WDL_GROWTH_ABOVE`].
pub(super) fn wdl_growth(file: FileKey) -> f64 {
    let FileKey { n, k } = file;
    let top = WDL_GROWTH_ABOVE
        .iter()
        .map(|m| m.1)
        .max()
        .unwrap_or(MEASURED_WDL_MAX);
    match (
        density(
            &WDL_GROWTH_ABOVE,
            FileKey::new(n, k.clamp(MEASURED_WDL_MAX, top)),
        ),
        density(&WDL_GROWTH_ABOVE, FileKey::new(n, MEASURED_WDL_MAX)),
    ) {
        (Some(at), Some(base)) if base > 0.0 => (at / base).max(1.0),
        _ => 1.0,
    }
}

/// Where the disk estimates come from, in one sentence.
pub const DISK_BASIS: &str = "bits/position measured: with distances, on the complete assaut tables \
with 9 soldiers (scripts/bench-runs/2026-11-21-vm/bench.json) and 10 and 11 soldiers \
(2026-11-21-assaut10, -assaut11, written with larger blocks and scaled by the growth the current \
blocks showed at 9 soldiers), the 11-soldier figure above 11; WDL-only, the WDL stream of the \
whole game's files with 9 to 12 soldiers rewritten in the current layout \
(2026-11-26-format5) and with 13 soldiers as built (2026-11-26-start); above 13, the 13-soldier \
figure times the growth from 13 soldiers that asalto's closure of a 20-soldier formation showed \
(2026-11-27-f20: up to 1.35 for two officers at 15 and 16 soldiers), never below 1, plus each \
file's index, exact from its tiers and blocks";

pub(super) fn measured(file: FileKey, current: bool) -> Option<&'static Measured> {
    MEASURED
        .iter()
        .find(|m| FileKey::new(m.n, m.k) == file && m.current_blocks == current)
}

/// Estimated bits per position of the file `file` with the current block
/// sizes: of the whole file with distances, and of the WDL stream of a
/// WDL-only file, index aside ([`DISK_BASIS`]).
pub(crate) fn bits_per_position(file: FileKey) -> (f64, f64) {
    let FileKey { n, k } = file;
    let n = n.clamp(1, 2);
    let wdl_only = density(
        &MEASURED_WDL_STREAM,
        FileKey::new(n, k.clamp(9, MEASURED_WDL_MAX)),
    )
    .unwrap_or(0.0)
        * wdl_growth(FileKey::new(n, k));
    let k = k.clamp(9, 11);
    if let Some(m) = measured(FileKey::new(n, k), true) {
        return (m.bits, wdl_only);
    }
    let (Some(now), Some(then), Some(m)) = (
        measured(FileKey::new(n, 9), true),
        measured(FileKey::new(n, 9), false),
        measured(FileKey::new(n, k), false),
    ) else {
        unreachable!("MEASURED holds every officer count at 9, 10 and 11 soldiers")
    };
    (m.bits * now.bits / then.bits, wdl_only)
}

/// Estimated disk of a plan's files, in bytes: with distances, and
/// win/draw/loss only (the WDL stream at measured bits/position, the
/// index exact).
pub fn disk_bytes(files: &[FilePlan]) -> (u64, u64) {
    let per = WriteOptions::wdl_only().wdl_block_positions;
    files.iter().fold((0, 0), |(all, wdl), f| {
        let (bits, wdl_bits) = bits_per_position(f.file());
        let bytes = |b: f64| (f.positions as f64 * b / 8.0).ceil() as u64;
        let blocks = table::block_count(f.positions, per);
        let wdl_only = table::file_len(f.tiers, blocks, 0, bytes(wdl_bits));
        (all + bytes(bits), wdl + wdl_only)
    })
}

/// One soldier count's rates in the level samples of the bench record
/// [`LEVEL_RATES_SOURCE`] (`asalto bench --levels`): positions per second
/// on one thread, a sample of the tiers of one file solved (and checked)
/// in memory against a synthetic store of the files below it, so without
/// file I/O.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LevelRate {
    /// Soldiers.
    pub k: u8,
    /// The bit-set solver (WDL-only builds): `bits_rate_per_core`.
    pub bits: f64,
    /// The position solver (builds with distances): `solve_rate_per_core`.
    pub positions: f64,
    /// The check of WDL-only values by the set checker (`asalto verify`,
    /// its default `--checker sets`): `sets_verify_rate_per_core`.
    pub verify: f64,
}

/// The level samples' rates, by soldier count, from [`LEVEL_RATES_SOURCE`]
/// (its `levels`; `tests/docs.rs` holds them to the newest bench record).
/// Between two soldier counts a rate is interpolated linearly, outside them
/// the nearest is taken ([`level_rate`]).
pub const LEVEL_RATES: [LevelRate; 5] = [
    LevelRate {
        k: 9,
        bits: 5.853608e+07,
        positions: 7.013047e+06,
        verify: 4.090036e+07,
    },
    LevelRate {
        k: 12,
        bits: 3.301020e+07,
        positions: 5.068738e+06,
        verify: 2.666167e+07,
    },
    LevelRate {
        k: 15,
        bits: 2.277046e+07,
        positions: 4.415659e+06,
        verify: 1.946556e+07,
    },
    LevelRate {
        k: 18,
        bits: 1.862543e+07,
        positions: 4.400565e+06,
        verify: 1.619873e+07,
    },
    LevelRate {
        k: 21,
        bits: 1.482436e+07,
        positions: 4.543796e+06,
        verify: 1.404756e+07,
    },
];

/// The bench record every time figure of a plan comes from.
pub const LEVEL_RATES_SOURCE: &str = "scripts/bench-runs/2026-12-06-vm/bench.json";

/// The same record's in-memory solving rate of [`CALIBRATION_POSITION`]'s
/// closure on one thread (`rate_per_core`): a calibration here (or
/// `--rate`) over this figure is how many of the bench machine's cores
/// this machine's threads are worth.
pub const BENCH_RATE_PER_CORE: f64 = 8.782948e+06;

/// A complete build with distances over its level sample, in the same
/// record: its 9-soldier build's positions per second
/// (`raw.build_run`) over the position solver's level rate at 9 soldiers
/// times the record's two-thread speedup (`speedup_2_threads`): what file
/// I/O, compression and the build's window cost.
pub const BUILD_OVER_SAMPLE: f64 = 0.8385;

/// A real WDL-only build by the bit-set solver over its level samples: the
/// build of assaut's 16-soldier formation closure
/// ([`WDL_BUILD_OVER_SAMPLE_SOURCE`]: 6,696,538,874 positions in 16 files
/// of 9 to 16 soldiers, 130.5 s on two threads of the bench machine, idle,
/// right after the bench, at its commit), against the time its files take
/// at the bit-set solver's level rates ([`LEVEL_RATES`], by file: the
/// two-officer samples') on the bench cores two threads are worth
/// ([`BENCH_SPEEDUP_2_THREADS`]). What file I/O, compression, the build's
/// window and the one-officer files (about 0.6 of the two-officer rate
/// per position) cost, over the files of 9 to 16 soldiers rather than the
/// 9 of the bench's own WDL-only build (`wdl_build_rate`), where I/O is the
/// largest share. The two-thread speedup cancels: a plan of that closure
/// at these figures is its real build's time. A bench and a build of the
/// same commit an hour before (the bench's figures then: one-thread rate
/// 1.002e7, speedup 1.80, bit sets 5.58e7 .. 1.57e7) gave 0.8716 and, for
/// the whole game, the same hours within 1% (10.1 h against 10.2 h).
pub const WDL_BUILD_OVER_SAMPLE: f64 = 0.7313;

/// The build record [`WDL_BUILD_OVER_SAMPLE`] comes from (before
/// [`FACTORS_CARRIED_BY`], if any).
pub const WDL_BUILD_OVER_SAMPLE_SOURCE: &str = "scripts/bench-runs/2026-12-06-calib/build.json";

/// A real verify of WDL-only files over its level samples: the verify of
/// assaut's 16-soldier formation closure by the set checker
/// ([`VERIFY_OVER_SAMPLE_SOURCE`]: 6,696,538,874 positions in 16 files of
/// 9 to 16 soldiers, 132.2 s on two threads of the bench machine, idle,
/// right after the bench, at its commit), against the time its files take
/// at the level samples' verify rates ([`LEVEL_RATES`], by file: the
/// two-officer samples') on the bench cores two threads are worth
/// ([`BENCH_SPEEDUP_2_THREADS`]). Below 1: the level samples' synthetic
/// values are random, a third each of win, draw and loss, and the
/// closure's one-officer files check at about 0.6 of the two-officer
/// files' rate. 1.1063 from the bench and verify an hour before (the
/// whole game's verify 9.5 h against 9.6 h).
pub const VERIFY_OVER_SAMPLE: f64 = 0.9013;

/// The verify record [`VERIFY_OVER_SAMPLE`] comes from (before
/// [`FACTORS_CARRIED_BY`], if any).
pub const VERIFY_OVER_SAMPLE_SOURCE: &str =
    "scripts/bench-runs/2026-12-06-calib/verify-all-sets.json";

/// The record that carries [`WDL_BUILD_OVER_SAMPLE`] and
/// [`VERIFY_OVER_SAMPLE`] from the commit of their own records to the
/// bench's, when they ran at another (`None`: at the bench's commit, on
/// its day): the same 16-soldier closure built, then verified, by
/// the two commits in turn on one day, twice each (`build-{new,base}-{1,2}.json`,
/// `verify-{new,base}-{1,2}.json`, `base.txt` the records' commit, as
/// `scripts/bench-runs/2026-12-06-ab` did), each factor its record's times
/// the base's seconds over the new commit's (the files' own, summed over
/// the pairs). The shared machine's speed drifts from day to day (10-15%
/// between two days of the same binaries; 2026-12-06's host ran the
/// level samples about 35% faster than 2026-12-05's): a ratio taken in
/// one run holds where the figures of two days do not.
pub const FACTORS_CARRIED_BY: Option<&str> = None;

/// The level samples' rate at `k` soldiers (`which` picks the figure):
/// interpolated linearly between the soldier counts of [`LEVEL_RATES`],
/// the nearest outside them.
pub fn level_rate(k: u8, which: impl Fn(&LevelRate) -> f64) -> f64 {
    let first = &LEVEL_RATES[0];
    let last = &LEVEL_RATES[LEVEL_RATES.len() - 1];
    if k <= first.k {
        return which(first);
    }
    if k >= last.k {
        return which(last);
    }
    let i = LEVEL_RATES
        .iter()
        .position(|r| r.k > k)
        .expect("k below the last");
    let (a, b) = (&LEVEL_RATES[i - 1], &LEVEL_RATES[i]);
    let t = f64::from(k - a.k) / f64::from(b.k - a.k);
    which(a) + t * (which(b) - which(a))
}

/// The seconds one core of the bench record's machine takes to build
/// `positions` positions of a file of `k` soldiers, file I/O included:
/// by the bit-set solver when `wdl_only`, else by the position solver.
pub fn build_core_seconds(k: u8, positions: u64, wdl_only: bool) -> f64 {
    let rate = if wdl_only {
        level_rate(k, |r| r.bits) * WDL_BUILD_OVER_SAMPLE
    } else {
        level_rate(k, |r| r.positions) * BUILD_OVER_SAMPLE
    };
    positions as f64 / rate
}

/// The seconds one core of the bench record's machine takes to verify
/// `positions` positions of a WDL-only file of `k` soldiers.
pub fn verify_core_seconds(k: u8, positions: u64) -> f64 {
    positions as f64 / (level_rate(k, |r| r.verify) * VERIFY_OVER_SAMPLE)
}

/// How many of the bench record's cores a machine whose calibration (or
/// `--rate`) solves `rate` positions per second is worth.
pub fn cores_worth(rate: f64) -> f64 {
    (rate / BENCH_RATE_PER_CORE).max(1e-9)
}

/// The rate `asalto plan` would calibrate on the bench record's machine,
/// idle, with `threads` threads (two scale by the record's speedup, more
/// as many times one): what estimates made without calibrating use.
pub fn bench_rate(threads: usize) -> f64 {
    BENCH_RATE_PER_CORE * threads as f64 * BENCH_SPEEDUP_2_THREADS / 2.0
}

/// The record's two-thread speedup (`speedup_2_threads`).
pub const BENCH_SPEEDUP_2_THREADS: f64 = 2.113434;

/// The position whose closure the calibration solves in memory (two
/// officers, ten soldiers, about 13.5 million positions; the rate position
/// of `asalto bench`).
pub const CALIBRATION_POSITION: &str = "S1S/3/OSS1S1O/2SSS2/3S3/1S1/3 s";

/// A solving rate.
#[derive(Clone, Copy, Debug)]
pub struct Rate {
    /// Positions solved in memory per second.
    pub positions_per_second: f64,
    /// Positions the calibration solved (0 when the rate was given).
    pub calibration_positions: u64,
    /// Seconds the calibration took.
    pub calibration_seconds: f64,
    /// The share of its threads' time the calibration had on a core
    /// (as `solve::Stats::cpu_share`):
    /// well below 1 when other work held the cores, so that the rate, and
    /// the time estimate, are those of the busy machine.
    pub cpu_share: f64,
}

/// Measure the in-memory solving rate with `threads` threads (0: one per
/// core) on the closure of [`CALIBRATION_POSITION`] (1 to 2 s here).
pub fn calibrate(variant: &Variant, threads: usize) -> Result<Rate, PlanError> {
    let pos: Position = CALIBRATION_POSITION
        .parse()
        .expect("the calibration position is valid");
    let solution = crate::solve::Solver::new(*variant)
        .threads(threads)
        .solve_closure(&pos)?;
    let stats = solution.stats();
    Ok(Rate {
        positions_per_second: stats.rate(),
        calibration_positions: stats.positions,
        calibration_seconds: stats.seconds,
        cpu_share: stats.cpu_share(),
    })
}
