//! Tests of the table format, writer, reader and store.

use super::*;
use crate::board::{self, OUTSIDE};
use crate::fields;
use crate::solve::{SolveError, TierStore};
use crate::{Value, Wdl};
use std::collections::BTreeMap;
use std::fs;

/// splitmix64: a small deterministic generator for test data.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Distinct canonical tiers of `file`, `outside` of `count` random bits
/// each (sizes vary with the count).
fn random_tiers(rng: &mut Rng, file: FileKey, counts: &[u32]) -> Vec<TierKey> {
    let FileKey { n, k } = file;
    let points: Vec<u64> = board::points(OUTSIDE).map(|p| p.bit()).collect();
    let mut out: Vec<TierKey> = Vec::new();
    for &c in counts {
        loop {
            let mut s = 0u64;
            while s.count_ones() < c {
                s |= points[rng.below(points.len() as u64) as usize];
            }
            let key = TierKey { n, k, outside: s }.canonical();
            assert!(key.is_valid(), "{key:?}");
            if !out.contains(&key) {
                out.push(key);
                break;
            }
        }
    }
    out
}

/// Random tiers (as [`random_tiers`]), each with random codes (as
/// [`random_codes`], `wide` distances or not) for all its positions.
fn random_tier_codes(
    rng: &mut Rng,
    file: FileKey,
    counts: &[u32],
    wide: bool,
) -> Vec<(TierKey, Vec<u16>)> {
    let keys = random_tiers(rng, file, counts);
    keys.iter()
        .map(|key| (*key, random_codes(rng, key.size() as usize, wide)))
        .collect()
}

/// Codes with long runs, draws, wins and losses, distances past 255.
fn random_codes(rng: &mut Rng, len: usize, wide: bool) -> Vec<u16> {
    let mut v = Vec::with_capacity(len);
    while v.len() < len {
        let long = rng.below(4) == 0;
        let run = 1 + rng.below(if long { 200 } else { 5 }) as usize;
        let max_d = if wide && rng.below(8) == 0 { 32766 } else { 60 };
        let code = match rng.below(3) {
            0 => 0,
            1 => 2 * rng.below(max_d + 1) as u16 + 1,
            _ => 2 * rng.below(max_d + 1) as u16 + 2,
        };
        for _ in 0..run.min(len - v.len()) {
            v.push(code);
        }
    }
    v
}

fn small_opts() -> WriteOptions {
    WriteOptions {
        wdl_block_positions: 1024,
        distance_block_positions: 700,
        zstd_level: 3,
        wdl_only: false,
        order: Order::MaskMajor,
        floor: None,
    }
}

fn write(
    dir: &Path,
    variant: &Variant,
    file: FileKey,
    opts: &WriteOptions,
    tiers: &[(TierKey, Vec<u16>)],
) -> TableInfo {
    let mut w = TableWriter::create_with(dir, variant, file, opts).unwrap();
    for (key, codes) in tiers {
        w.push_tier(key, codes).unwrap();
    }
    w.finish().unwrap()
}

/// [`write`] `file` under `dir`, then open it.
fn write_and_open(
    dir: &Path,
    variant: &Variant,
    file: FileKey,
    opts: &WriteOptions,
    tiers: &[(TierKey, Vec<u16>)],
) -> Table {
    write(dir, variant, file, opts, tiers);
    Table::open(&table_path(dir, variant, file)).unwrap()
}

fn check_all(t: &Table, tiers: &[(TierKey, Vec<u16>)]) {
    for (key, codes) in tiers {
        let got = t.tier(key).unwrap().unwrap();
        assert_eq!(&got[..], &codes[..], "tier {key:?}");
        for (i, &c) in codes.iter().enumerate().step_by(7) {
            let v = Value::from_code(c);
            assert_eq!(t.probe(key, i as u32).unwrap(), Some(v));
            assert_eq!(t.probe_wdl(key, i as u32).unwrap(), Some(Wdl::from(v)));
        }
        let size = codes.len() as u32;
        let e = t.probe(key, size).unwrap_err();
        assert!(
            matches!(e.problem(), Problem::IndexOutOfRange { .. }),
            "{e}"
        );
    }
}

#[test]
fn round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(1);
    let keys = random_tiers(
        &mut rng,
        FileKey::new(2, 9),
        &[1, 2, 3, 4, 5, 2, 3, 1, 9, 8],
    );
    let tiers: Vec<(TierKey, Vec<u16>)> = keys
        .iter()
        .enumerate()
        .map(|(i, key)| {
            (
                *key,
                random_codes(&mut rng, key.size() as usize, i % 3 != 0),
            )
        })
        .collect();
    let placement_major = WriteOptions {
        order: Order::PlacementMajor,
        ..small_opts()
    };
    for opts in [small_opts(), WriteOptions::default(), placement_major] {
        let info = write(
            dir.path(),
            &Variant::ASSAUT,
            FileKey::new(2, 9),
            &opts,
            &tiers,
        );
        let path = table_path(dir.path(), &Variant::ASSAUT, FileKey::new(2, 9));
        assert_eq!(path, dir.path().join("assaut").join("2o9s.atb"));
        let t = Table::open(&path).unwrap();
        assert_eq!(t.info(), &info);
        let all: Vec<u16> = tiers.iter().flat_map(|(_, c)| c.iter().copied()).collect();
        let count =
            |f: fn(&Value) -> bool| all.iter().filter(|&&c| f(&Value::from_code(c))).count() as u64;
        assert_eq!(info.positions, all.len() as u64);
        assert_eq!(info.tiers, tiers.len() as u64);
        assert_eq!(info.wins, count(|v| matches!(v, Value::Win(_))));
        assert_eq!(info.draws, count(|v| matches!(v, Value::Draw)));
        assert_eq!(info.losses, count(|v| matches!(v, Value::Loss(_))));
        let longest = |win: bool| {
            all.iter()
                .filter_map(|&c| match Value::from_code(c) {
                    Value::Win(d) if win => Some(d),
                    Value::Loss(d) if !win => Some(d),
                    _ => None,
                })
                .max()
                .unwrap_or(0)
        };
        assert_eq!(info.longest_win, longest(true));
        assert_eq!(info.longest_loss, longest(false));
        assert!(info.longest_loss > 255);
        assert_eq!(info.tool_version, env!("CARGO_PKG_VERSION"));
        assert_eq!(info.file_bytes, fs::metadata(&path).unwrap().len());
        let mut sorted: Vec<TierKey> = keys.clone();
        sorted.sort_by_key(|k| k.outside);
        assert_eq!(t.tier_keys().unwrap(), sorted);
        check_all(&t, &tiers);
        t.verify_checksums().unwrap();
        t.verify_contents().unwrap();
        // Another thread has its own cache.
        std::thread::scope(|s| {
            s.spawn(|| check_all(&t, &tiers));
        });
    }
}

#[test]
fn empty_and_single_tier_tables() {
    let dir = tempfile::tempdir().unwrap();
    let info = write(
        dir.path(),
        &Variant::ASALTO,
        FileKey::new(1, 12),
        &small_opts(),
        &[],
    );
    assert_eq!((info.positions, info.tiers, info.wdl_blocks), (0, 0, 0));
    let t = Table::open(&table_path(
        dir.path(),
        &Variant::ASALTO,
        FileKey::new(1, 12),
    ))
    .unwrap();
    assert_eq!(t.tier_keys().unwrap().len(), 0);
    t.verify_contents().unwrap();
    let key = TierKey {
        n: 1,
        k: 12,
        outside: 0,
    };
    assert_eq!(t.tier(&key).unwrap(), None);
    let mut rng = Rng(2);
    let key = random_tiers(&mut rng, FileKey::new(1, 24), &[24])[0];
    let tiers = vec![(key, random_codes(&mut rng, key.size() as usize, true))];
    let t = write_and_open(
        dir.path(),
        &Variant::ASALTO,
        FileKey::new(1, 24),
        &WriteOptions::default(),
        &tiers,
    );
    check_all(&t, &tiers);
}

#[test]
fn absent_tiers() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(3);
    let keys = random_tiers(&mut rng, FileKey::new(2, 10), &[3, 4, 5, 6]);
    let tiers: Vec<(TierKey, Vec<u16>)> = keys[..3]
        .iter()
        .map(|key| (*key, random_codes(&mut rng, key.size() as usize, false)))
        .collect();
    let t = write_and_open(
        dir.path(),
        &Variant::ASSAULT,
        FileKey::new(2, 10),
        &small_opts(),
        &tiers,
    );
    let absent = [
        keys[3],
        TierKey { k: 11, ..keys[0] },
        TierKey { n: 1, ..keys[0] },
        TierKey {
            outside: 0,
            ..keys[0]
        },
        TierKey {
            outside: u64::MAX,
            ..keys[0]
        },
    ];
    for key in absent {
        assert!(!t.contains(&key).unwrap());
        assert_eq!(t.tier(&key).unwrap(), None);
        assert_eq!(t.probe(&key, 0).unwrap(), None);
        assert_eq!(t.probe_wdl(&key, 0).unwrap(), None);
    }
    // A non-canonical tier is not stored: its mirror image is.
    let asym = tiers.iter().find(|(k, _)| k.mirror() != *k).unwrap().0;
    assert!(t.contains(&asym).unwrap());
    assert_eq!(t.tier(&asym.mirror()).unwrap(), None);
}

#[test]
fn writer_refuses_bad_tiers() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(4);
    let key = random_tiers(&mut rng, FileKey::new(2, 9), &[3])[0];
    let codes = vec![0u16; key.size() as usize];
    let mut w = TableWriter::create(dir.path(), &Variant::ASSAUT, FileKey::new(2, 9)).unwrap();
    let bad = |w: &mut TableWriter, key: TierKey, len: usize| {
        let e = w.push_tier(&key, &vec![0u16; len]).unwrap_err();
        assert!(matches!(e.problem(), Problem::BadTier { .. }), "{e}");
        assert!(e.to_string().starts_with(&w.path().display().to_string()));
    };
    bad(&mut w, TierKey { k: 10, ..key }, codes.len());
    bad(&mut w, key, codes.len() - 1);
    let mut asym = key;
    while asym.is_canonical() {
        asym = random_tiers(&mut rng, FileKey::new(2, 9), &[3])[0].mirror();
    }
    bad(&mut w, asym, asym.size() as usize);
    bad(
        &mut w,
        TierKey {
            outside: 1 << board::FORTRESS.trailing_zeros(),
            ..key
        },
        4,
    );
    w.push_tier(&key, &codes).unwrap();
    w.push_tier(&key, &codes).unwrap();
    let e = w.finish().unwrap_err();
    assert!(e.to_string().contains("pushed twice"), "{e}");
    assert!(!table_path(dir.path(), &Variant::ASSAUT, FileKey::new(2, 9)).exists());
    assert!(TableWriter::create(dir.path(), &Variant::ASSAUT, FileKey::new(3, 9)).is_err());
    let opts = WriteOptions {
        wdl_block_positions: 6,
        ..small_opts()
    };
    assert!(
        TableWriter::create_with(dir.path(), &Variant::ASSAUT, FileKey::new(2, 9), &opts).is_err()
    );
}

#[test]
fn temporary_file_until_finish() {
    let dir = tempfile::tempdir().unwrap();
    let path = table_path(dir.path(), &Variant::ASSAUT, FileKey::new(2, 9));
    let tmp = path.with_file_name("2o9s.atb.tmp");
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(&tmp, b"stale junk from a crashed build").unwrap();
    let mut rng = Rng(5);
    let keys = random_tiers(&mut rng, FileKey::new(2, 9), &[2, 3, 4]);
    // Dropped before finish: no table, no temporary file.
    let mut w = TableWriter::create_with(
        dir.path(),
        &Variant::ASSAUT,
        FileKey::new(2, 9),
        &small_opts(),
    )
    .unwrap();
    for key in &keys {
        w.push_tier(key, &random_codes(&mut rng, key.size() as usize, true))
            .unwrap();
        assert!(!path.exists());
        assert!(tmp.exists());
    }
    drop(w);
    assert!(!path.exists());
    assert!(!tmp.exists());
    // Finished: the table, no temporary file.
    let mut w = TableWriter::create_with(
        dir.path(),
        &Variant::ASSAUT,
        FileKey::new(2, 9),
        &small_opts(),
    )
    .unwrap();
    for key in &keys {
        w.push_tier(key, &random_codes(&mut rng, key.size() as usize, true))
            .unwrap();
        assert!(!path.exists());
    }
    // What a crash before the rename leaves is not a table.
    let e = Table::open(&tmp).unwrap_err();
    assert!(
        matches!(e.problem(), Problem::BadMagic | Problem::TooShort { .. }),
        "{e}"
    );
    w.finish().unwrap();
    assert!(path.exists());
    assert!(!tmp.exists());
    Table::open(&path).unwrap().verify_contents().unwrap();
    // The temporary file is not listed as a table.
    let listed = list(dir.path());
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].0, path);
}

/// A small table with many blocks, and its tiers.
fn small_table(dir: &Path) -> (PathBuf, Vec<(TierKey, Vec<u16>)>) {
    let mut rng = Rng(6);
    // One officer, 24 soldiers: tiers of 18 and 162 positions.
    let tiers = random_tier_codes(&mut rng, FileKey::new(1, 24), &[24, 23, 23, 23], true);
    let opts = WriteOptions {
        wdl_block_positions: 64,
        distance_block_positions: 48,
        zstd_level: 1,
        wdl_only: false,
        order: Order::MaskMajor,
        floor: None,
    };
    write(dir, &Variant::ASSAUT, FileKey::new(1, 24), &opts, &tiers);
    (
        table_path(dir, &Variant::ASSAUT, FileKey::new(1, 24)),
        tiers,
    )
}

/// Open a damaged copy and read everything: errors are fine, wrong data
/// or a panic are not. Returns whether an error was seen.
fn read_damaged(path: &Path, tiers: &[(TierKey, Vec<u16>)]) -> bool {
    let t = match Table::open(path) {
        Ok(t) => t,
        Err(e) => {
            let msg = e.to_string();
            assert!(!msg.contains('\n'), "{msg}");
            assert!(msg.starts_with(&path.display().to_string()), "{msg}");
            return true;
        }
    };
    let mut failed = false;
    for (key, codes) in tiers {
        match t.tier(key) {
            Ok(Some(got)) => assert_eq!(&got[..], &codes[..]),
            Ok(None) => panic!("tier {key:?} lost"),
            Err(_) => failed = true,
        }
        for (i, &c) in codes.iter().enumerate() {
            match t.probe(key, i as u32) {
                Ok(v) => assert_eq!(v, Some(Value::from_code(c))),
                Err(_) => failed = true,
            }
            match t.probe_wdl(key, i as u32) {
                Ok(v) => assert_eq!(v, Some(Wdl::from(Value::from_code(c)))),
                Err(_) => failed = true,
            }
        }
    }
    let checked = t.verify_checksums().is_err();
    failed || checked || t.verify_contents().is_err()
}

#[test]
fn every_flipped_byte_is_caught() {
    let dir = tempfile::tempdir().unwrap();
    let (path, tiers) = small_table(dir.path());
    let good = fs::read(&path).unwrap();
    assert!(Table::open(&path).unwrap().info().wdl_blocks > 4);
    let bad = dir.path().join("bad.atb");
    fs::write(&bad, &good).unwrap();
    // Rewriting one byte in place is much cheaper than writing a new file.
    let mut file = fs::OpenOptions::new().write(true).open(&bad).unwrap();
    let mut put = |i: usize, b: u8| {
        use std::io::{Seek, SeekFrom, Write};
        file.seek(SeekFrom::Start(i as u64)).unwrap();
        file.write_all(&[b]).unwrap();
    };
    for i in 0..good.len() {
        for flip in [0x01u8, 0x80, 0xff] {
            put(i, good[i] ^ flip);
            assert!(
                read_damaged(&bad, &tiers),
                "byte {i} ^ {flip:#x} of {} not caught",
                good.len()
            );
            // Every flip is caught by open or by the block checksums.
            let caught = match Table::open(&bad) {
                Err(_) => true,
                Ok(t) => t.verify_checksums().is_err(),
            };
            assert!(caught, "byte {i} ^ {flip:#x} passes the checksums");
            put(i, good[i]);
        }
    }
}

/// Where the index's parts lie in a table's bytes (current format).
struct Offsets {
    index: usize,
    chunks: usize,
    dir: usize,
    wdl: usize,
    dist: usize,
}

fn offsets(bytes: &[u8]) -> Offsets {
    let pre = format::Preamble::decode(bytes).unwrap();
    let index = pre.index_offset as usize;
    let (h, hlen) = TableInfo::decode_header(&bytes[index..], pre.version).unwrap();
    let chunks = index + hlen;
    let tables = format::tables_len(
        pre.version,
        h.tiers as u128,
        (h.wdl_blocks + h.distance_blocks) as u128,
    );
    let dir = chunks + format::chunk_count(tables) as usize * 4;
    let wdl = dir + h.tiers as usize * format::dir_entry_len(pre.version);
    Offsets {
        index,
        chunks,
        dir,
        wdl,
        dist: wdl + h.wdl_blocks as usize * format::BLOCK_ENTRY_LEN,
    }
}

/// `bytes` with every checksum of the index (chunk table, head) and the
/// preamble's made valid again: what a faulty writer would leave.
fn reseal(bytes: &mut [u8]) {
    let o = offsets(bytes);
    let tables = o.dir..bytes.len();
    let chunk = format::CHUNK_BYTES as usize;
    for (c, start) in tables.clone().step_by(chunk).enumerate() {
        let crc = format::crc32(&bytes[start..(start + chunk).min(tables.end)]);
        bytes[o.chunks + 4 * c..o.chunks + 4 * c + 4].copy_from_slice(&crc.to_le_bytes());
    }
    let crc = format::crc32(&bytes[o.index..o.dir]);
    bytes[32..36].copy_from_slice(&crc.to_le_bytes());
    let crc = format::crc32(&bytes[..36]);
    bytes[36..40].copy_from_slice(&crc.to_le_bytes());
}

#[test]
fn faulty_layouts_are_caught_and_never_misread() {
    // Open checks only what right reads need; a layout no correct writer
    // makes, under valid checksums, fails at open or in
    // `verify_checksums`, and reads never give another position's value.
    let dir = tempfile::tempdir().unwrap();
    let (path, tiers) = small_table(dir.path());
    let good = fs::read(&path).unwrap();
    let o = offsets(&good);
    let dir_off = o.dir;
    let swap = |a: usize, b: usize, len: usize| {
        let mut bytes = good.clone();
        let (x, y) = (bytes[a..a + len].to_vec(), bytes[b..b + len].to_vec());
        bytes[a..a + len].copy_from_slice(&y);
        bytes[b..b + len].copy_from_slice(&x);
        reseal(&mut bytes);
        bytes
    };
    let bad = dir.path().join("bad.atb");
    // Two directory entries swapped: open passes, reads find a tier or
    // nothing, `verify_checksums` fails.
    let entry = format::dir_entry_len(FORMAT_VERSION);
    let bytes = swap(dir_off, dir_off + entry, entry);
    fs::write(&bad, &bytes).unwrap();
    let t = Table::open(&bad).unwrap();
    let e = t.verify_checksums().unwrap_err();
    assert!(matches!(e.problem(), Problem::BadHeader(_)), "{e}");
    let mut lost = 0;
    for (key, codes) in &tiers {
        match t.tier(key).unwrap() {
            Some(got) => assert_eq!(&got[..], &codes[..], "{key:?}"),
            None => lost += 1,
        }
    }
    assert!(lost < tiers.len());
    // Repacking it stops with an error (a tier listed, not found), never a
    // panic.
    assert!(lost > 0);
    let out = dir.path().join("repacked");
    let opts = WriteOptions {
        wdl_only: t.info().wdl_only,
        ..WriteOptions::default()
    };
    let e = repack(&t, &out, &opts, &crate::progress::Quiet).unwrap_err();
    assert!(matches!(e.problem(), Problem::BadHeader(_)), "{e}");
    assert!(e.to_string().contains("listed but not found"), "{e}");
    // Two whole block entries (offset, length, checksum) swapped, under
    // valid chunk checksums: open passes (it reads no block entry), each
    // of the two blocks fails its checksum (which names the block's number)
    // and `verify_checksums` fails.
    for (off, stream) in [(o.wdl, Stream::Wdl), (o.dist, Stream::Distance)] {
        let bytes = swap(off, off + format::BLOCK_ENTRY_LEN, format::BLOCK_ENTRY_LEN);
        fs::write(&bad, &bytes).unwrap();
        let t = Table::open(&bad).unwrap();
        assert!(t.verify_checksums().is_err());
        for b in 0..2 {
            let e = t.block_bytes(stream, b).unwrap_err();
            assert!(
                matches!(e.problem(), Problem::BlockChecksum { block, .. } if block.eq(&b)),
                "{e}"
            );
        }
        assert!(read_damaged(&bad, &tiers));
    }
    // A directory entry reaching past the position stream, under valid
    // checksums: reading its tier fails.
    let mut bytes = good.clone();
    let first = o.dir + 3;
    bytes[first..first + 5].copy_from_slice(&[0xff; 5]);
    reseal(&mut bytes);
    fs::write(&bad, &bytes).unwrap();
    let t = Table::open(&bad).unwrap();
    let key = t.tier_keys().unwrap()[0];
    let e = t.tier(&key).unwrap_err();
    assert!(e.to_string().contains("outside the position stream"), "{e}");
    assert!(read_damaged(&bad, &tiers));
    // An entry pointing past the block area, under valid checksums.
    let mut bytes = good.clone();
    bytes[o.wdl..o.wdl + 8].copy_from_slice(&(o.index as u64).to_le_bytes());
    reseal(&mut bytes);
    fs::write(&bad, &bytes).unwrap();
    let t = Table::open(&bad).unwrap();
    let e = t.block_bytes(Stream::Wdl, 0).unwrap_err();
    assert!(e.to_string().contains("do not tile"), "{e}");
    assert!(read_damaged(&bad, &tiers));
}

#[test]
fn every_truncation_is_caught() {
    let dir = tempfile::tempdir().unwrap();
    let (path, tiers) = small_table(dir.path());
    let good = fs::read(&path).unwrap();
    let bad = dir.path().join("bad.atb");
    fs::write(&bad, &good).unwrap();
    let file = fs::OpenOptions::new().write(true).open(&bad).unwrap();
    for len in (0..good.len()).rev() {
        file.set_len(len as u64).unwrap();
        let e = Table::open(&bad).unwrap_err();
        assert!(!e.to_string().contains('\n'));
        assert!(read_damaged(&bad, &tiers));
    }
    let mut longer = good.clone();
    longer.push(0);
    fs::write(&bad, &longer).unwrap();
    let e = Table::open(&bad).unwrap_err();
    assert!(matches!(e.problem(), Problem::TooLong { .. }), "{e}");
}

#[test]
fn wrong_magic_and_version() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = small_table(dir.path());
    let good = fs::read(&path).unwrap();
    let mut b = good.clone();
    b[8..12].copy_from_slice(&7u32.to_le_bytes());
    fs::write(&path, &b).unwrap();
    let e = Table::open(&path).unwrap_err();
    assert!(matches!(e.problem(), Problem::Version { found: 7 }), "{e}");
    assert_eq!(
        e.to_string(),
        format!(
            "{}: table format version 7, but this build reads versions 1 to 6 only (use a matching asalto, or rebuild the table)",
            path.display()
        )
    );
    let mut b = good.clone();
    b[0..8].copy_from_slice(b"SYZYGY!!");
    fs::write(&path, &b).unwrap();
    let e = Table::open(&path).unwrap_err();
    assert!(matches!(e.problem(), Problem::BadMagic), "{e}");
    // A corrupt block is named in one line.
    let mut b = good.clone();
    b[format::PREAMBLE_LEN] ^= 1;
    fs::write(&path, &b).unwrap();
    let t = Table::open(&path).unwrap();
    let e = t.verify_checksums().unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{}: block 0 of the WDL stream fails its checksum (file corrupt)",
            path.display()
        )
    );
    let e = Table::open(&dir.path().join("none.atb")).unwrap_err();
    assert!(e.is_not_found());
}

#[test]
fn wdl_probes_read_no_distance_block() {
    let dir = tempfile::tempdir().unwrap();
    let (path, tiers) = small_table(dir.path());
    // Find the distance blocks through the index and corrupt them all.
    let mut b = fs::read(&path).unwrap();
    let dist_table = offsets(&b).dist;
    let t = Table::open(&path).unwrap();
    for i in 0..t.info().distance_blocks as usize {
        let e = format::BlockEntry::at(&b, dist_table + i * format::BLOCK_ENTRY_LEN);
        b[e.offset as usize] ^= 0x40;
    }
    fs::write(&path, &b).unwrap();
    let t = Table::open(&path).unwrap();
    let mut decisive = 0;
    for (key, codes) in &tiers {
        assert!(t.tier(key).is_err());
        for (i, &c) in codes.iter().enumerate() {
            let v = Value::from_code(c);
            assert_eq!(t.probe_wdl(key, i as u32).unwrap(), Some(Wdl::from(v)));
            match v {
                // Draws need no distance.
                Value::Draw => assert_eq!(t.probe(key, i as u32).unwrap(), Some(v)),
                _ => {
                    let e = t.probe(key, i as u32).unwrap_err();
                    assert!(
                        e.to_string()
                            .contains("of the distance stream fails its checksum")
                    );
                    decisive += 1;
                }
            }
        }
    }
    assert!(decisive > 0);
    assert!(list(&dir.path().join("nowhere")).is_empty());
}

#[test]
fn table_set_serves_tiers() {
    let dir = tempfile::tempdir().unwrap();
    let (path, tiers) = small_table(dir.path());
    let set = TableSet::open(dir.path(), &Variant::ASSAUT);
    assert!(set.has(FileKey::new(1, 24)));
    assert!(!set.has(FileKey::new(2, 24)));
    for (key, codes) in &tiers {
        assert_eq!(&set.tier(key).unwrap().unwrap()[..], &codes[..]);
    }
    let missing = TierKey {
        n: 2,
        k: 24,
        outside: tiers[0].0.outside,
    };
    assert!(set.table(FileKey::new(2, 24)).unwrap().is_none());
    assert!(set.tier(&missing).unwrap().is_none());
    let mut rng = Rng(7);
    let absent = loop {
        let k = random_tiers(&mut rng, FileKey::new(1, 24), &[23])[0];
        if tiers.iter().all(|(t, _)| *t != k) {
            break k;
        }
    };
    assert!(set.tier(&absent).unwrap().is_none());
    assert!(Arc::ptr_eq(
        &set.table(FileKey::new(1, 24)).unwrap().unwrap(),
        &set.table(FileKey::new(1, 24)).unwrap().unwrap()
    ));

    // The same file under another variant's folder, and under a wrong name.
    let other = TableSet::open(dir.path(), &Variant::ASALTO);
    let moved = other.path(FileKey::new(1, 24));
    fs::create_dir_all(moved.parent().unwrap()).unwrap();
    fs::copy(&path, &moved).unwrap();
    let e = other.table(FileKey::new(1, 24)).unwrap_err();
    assert!(e.to_string().contains("(wrong variant)"), "{e}");
    let e = other.tier(&tiers[0].0).unwrap_err();
    assert!(
        matches!(&e, SolveError::Store(s) if s.downcast_ref::<TableError>().is_some_and(|t| matches!(t.problem(), Problem::WrongVariant { .. }))),
        "{e}"
    );
    fs::copy(&path, set.path(FileKey::new(1, 23))).unwrap();
    let e = set.table(FileKey::new(1, 23)).unwrap_err();
    assert!(e.to_string().contains("(wrong material)"), "{e}");
    fs::write(set.path(FileKey::new(2, 23)), b"garbage").unwrap();
    assert!(set.table(FileKey::new(2, 23)).is_err());
    // Through the store, a corrupt file stays a typed table error.
    let e = set
        .code(
            &TierKey {
                n: 2,
                k: 23,
                outside: 0,
            },
            0,
        )
        .unwrap_err();
    assert!(
        matches!(&e, SolveError::Store(s) if s.downcast_ref::<TableError>().is_some_and(|t| matches!(t.problem(), Problem::TooShort { .. }) && t.path() == set.path(FileKey::new(2, 23)))),
        "{e}"
    );

    let listed: BTreeMap<PathBuf, bool> = list(dir.path())
        .into_iter()
        .map(|(p, r)| (p, r.is_ok()))
        .collect();
    let want: BTreeMap<PathBuf, bool> = [
        (path.clone(), true),
        (set.path(FileKey::new(1, 23)), false),
        (set.path(FileKey::new(2, 23)), false),
        (moved.clone(), false),
    ]
    .into_iter()
    .collect();
    assert_eq!(listed, want);
}

/// A WDL-only table's tiers through the store: their fields read in
/// place (a tier inside one block shares it, one across blocks is
/// copied) give the codes written, in both orders.
#[test]
fn wdl_only_tiers_are_served_as_their_fields() {
    let mut rng = Rng(11);
    // Two officers, 12 soldiers: tiers of 3,780 to 52,920 positions.
    let tiers = random_tier_codes(&mut rng, FileKey::new(2, 12), &[4, 5, 6, 7, 8, 9], false);
    // Blocks smaller than a tier (every tier across blocks, at every
    // alignment), then blocks holding several tiers.
    for (block, order) in [
        (1020, Order::PlacementMajor),
        (4000, Order::MaskMajor),
        (1 << 20, Order::PlacementMajor),
        (1 << 20, Order::MaskMajor),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let opts = WriteOptions {
            wdl_block_positions: block,
            order,
            ..WriteOptions::of_kind(true)
        };
        let table = write_and_open(
            dir.path(),
            &Variant::ASSAUT,
            FileKey::new(2, 12),
            &opts,
            &tiers,
        );
        let set = TableSet::open(dir.path(), &Variant::ASSAUT);
        for (key, codes) in &tiers {
            let want: Vec<u16> = codes
                .iter()
                .map(|&c| fields::wdl_only_code(fields::wdl_only_bits(c)))
                .collect();
            assert_eq!(&*table.tier(key).unwrap().unwrap(), &want[..]);
            let got = set.values(key).unwrap().unwrap();
            assert!(matches!(got, crate::solve::TierValues::Wdl(_)));
            assert_eq!(&*got.to_codes(), &want[..], "{block} {order} {key:?}");
            for i in (0..want.len()).step_by(13) {
                assert_eq!(got.code(i as u32), Some(want[i]));
            }
            assert_eq!(&*set.tier(key).unwrap().unwrap(), &want[..]);
        }
    }
}

#[test]
fn solved_tiers_through_tables() {
    use crate::Position;
    use crate::solve::{Lookup, Solver};
    let p: Position = "SSS/SSS/O1SS3/4S2/6O/3/3 s".parse().unwrap();
    let solver = Solver::new(Variant::ASSAUT).threads(1);
    let sol = solver.solve_closure(&p).unwrap();
    let keys = solver.closure_of(&p);
    let dir = tempfile::tempdir().unwrap();
    let mut by_material: BTreeMap<FileKey, Vec<TierKey>> = BTreeMap::new();
    for key in &keys {
        by_material.entry(key.file()).or_default().push(*key);
    }
    for (file, keys) in &by_material {
        let mut w = TableWriter::create(dir.path(), &Variant::ASSAUT, *file).unwrap();
        for key in keys {
            w.push_tier(key, &sol.store().tier(key).unwrap().unwrap())
                .unwrap();
        }
        w.finish().unwrap();
    }
    let set = TableSet::open(dir.path(), &Variant::ASSAUT);
    for key in &keys {
        assert_eq!(set.tier(key).unwrap(), sol.store().tier(key).unwrap());
    }
    let mut look = Lookup::new(&set, Variant::ASSAUT);
    assert_eq!(look.value(&p).unwrap(), sol.value(&p).unwrap());
}

/// Compressed sizes and speeds on solved tiers, for choosing the block
/// sizes and zstd level: `cargo test --release --lib measure_compression
/// -- --ignored --nocapture`.
#[test]
#[ignore]
fn measure_compression() {
    use crate::Position;
    use crate::solve::{MemoryStore, Solver};
    use std::time::Instant;
    let p: Position = "S2/3/O6/SSSSSSS/1S5/3/O2 s".parse().unwrap();
    let solver = Solver::new(Variant::ASSAUT);
    let keys = solver.closure_of(&p);
    let store = MemoryStore::new();
    let mut tiers: Vec<(TierKey, Arc<[u16]>)> = Vec::new();
    let t0 = Instant::now();
    solver
        .solve_into(&keys, &store, &crate::progress::Quiet, |key, codes| {
            store.insert(*key, codes);
            tiers.push((*key, store.tier(key)?.unwrap()));
            Ok(())
        })
        .unwrap();
    // The material with the most positions.
    let (n, k) = (1..=2)
        .map(|n| (n, 9))
        .max_by_key(|&(n, k)| {
            let t = tiers.iter().filter(|(key, _)| (key.n, key.k) == (n, k));
            t.map(|(key, _)| key.size()).sum::<u64>()
        })
        .unwrap();
    tiers.retain(|(key, _)| (key.n, key.k) == (n, k));
    let positions: u64 = tiers.iter().map(|(key, _)| key.size()).sum();
    eprintln!(
        "{n}o{k}s: {} tiers, {positions} positions, solved in {:.1} s",
        tiers.len(),
        t0.elapsed().as_secs_f64()
    );
    let dir = tempfile::tempdir().unwrap();
    for (bw, bd) in [(16, 14), (16, 16), (18, 16), (20, 18)] {
        for level in [1, 3, 9, 19] {
            let opts = WriteOptions {
                wdl_block_positions: 1 << bw,
                distance_block_positions: 1 << bd,
                zstd_level: level,
                wdl_only: false,
                order: Order::MaskMajor,
                floor: None,
            };
            let t0 = Instant::now();
            let mut w =
                TableWriter::create_with(dir.path(), &Variant::ASSAUT, FileKey::new(n, k), &opts)
                    .unwrap();
            for (key, codes) in &tiers {
                w.push_tier(key, codes).unwrap();
            }
            let info = w.finish().unwrap();
            let write = t0.elapsed().as_secs_f64();
            let t = Table::open(&table_path(
                dir.path(),
                &Variant::ASSAUT,
                FileKey::new(n, k),
            ))
            .unwrap();
            let t0 = Instant::now();
            for (key, codes) in &tiers {
                assert_eq!(t.tier(key).unwrap().unwrap(), *codes);
            }
            let read = t0.elapsed().as_secs_f64();
            let mut rng = Rng(9);
            let t0 = Instant::now();
            let probes = 20_000;
            for _ in 0..probes {
                let (key, codes) = &tiers[rng.below(tiers.len() as u64) as usize];
                let i = rng.below(codes.len() as u64) as u32;
                assert!(t.probe_wdl(key, i).unwrap().is_some());
            }
            let probe = t0.elapsed().as_secs_f64() / probes as f64;
            if bw == 16 && bd == 14 && level == 1 {
                eprintln!("{info:?}");
            }
            eprintln!(
                "Bw 2^{bw} Bd 2^{bd} level {level:2}: WDL {:.3} bits/pos, distance {:.3} bits/pos, file {} bytes {:.3} bits/pos; write {:.0} Mpos/s, tier read {:.0} Mpos/s, random WDL probe {:.1} us",
                info.wdl_bits_per_position(),
                info.distance_bits_per_position(),
                info.file_bytes,
                info.bits_per_position(),
                positions as f64 / write / 1e6,
                positions as f64 / read / 1e6,
                probe * 1e6
            );
        }
    }
}

/// The file of an older format `version` with `bytes` (the tiers of
/// [`small_table`], written by the writer of that version) at
/// `<dir>/v<version>/assaut/1o24s.atb`, opened, and the tiers it holds
/// (the same tiers written now lie under `<dir>/fresh`): every value reads
/// back, its contents verify, and each of its flipped bytes is caught as in
/// the current version.
fn old_file(dir: &Path, bytes: &[u8], version: u32) -> (PathBuf, Table, Vec<(TierKey, Vec<u16>)>) {
    let (_, tiers) = small_table(&dir.join("fresh"));
    let path = table_path(
        &dir.join(format!("v{version}")),
        &Variant::ASSAUT,
        FileKey::new(1, 24),
    );
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(&path, bytes).unwrap();
    let t = Table::open(&path).unwrap();
    assert_eq!(t.info().format_version, version);
    check_all(&t, &tiers);
    t.verify_contents().unwrap();
    let bad = dir.join("bad.atb");
    for i in 0..bytes.len() {
        let mut b = bytes.to_vec();
        b[i] ^= 0x10;
        fs::write(&bad, &b).unwrap();
        assert!(
            read_damaged(&bad, &tiers),
            "byte {i} of the v{version} file"
        );
    }
    (path, t, tiers)
}

/// A version 1 file written by the writer of that version (the tiers of
/// [`small_table`]), kept to test that such files are still read.
const V1_FILE: &[u8] = include_bytes!("testdata/v1-1o24s.atb");

/// A version 4 file (20-byte directory entries, placement-major, with
/// distances, blocks of 64 and 48 positions) written by the writer of that
/// version from the tiers of [`small_table`], kept to test that such files
/// are still read.
const V4_FILE: &[u8] = include_bytes!("testdata/v4-1o24s.atb");

#[test]
fn version_4_files_are_read_and_repacked_into_a_smaller_directory() {
    let dir = tempfile::tempdir().unwrap();
    let (_, t, tiers) = old_file(dir.path(), V4_FILE, 4);
    assert_eq!(t.info().order, Order::PlacementMajor);
    // Repacked into the current version with the same options: the same
    // blocks, byte for byte, and a directory of 8 bytes a tier instead of
    // 20.
    let info = t.info().clone();
    let opts = WriteOptions {
        wdl_block_positions: info.wdl_block_positions,
        distance_block_positions: info.distance_block_positions,
        zstd_level: info.zstd_level,
        wdl_only: false,
        order: info.order,
        floor: None,
    };
    let out = dir.path().join("v5");
    let new = repack(&t, &out, &opts, &crate::progress::Quiet).unwrap();
    assert_eq!(new.format_version, FORMAT_VERSION);
    assert_eq!(info.file_bytes - new.file_bytes, 12 * info.tiers);
    let area = |b: &[u8]| {
        let pre = format::Preamble::decode(b).unwrap();
        b[format::PREAMBLE_LEN..pre.index_offset as usize].to_vec()
    };
    let v5 = fs::read(table_path(&out, &Variant::ASSAUT, FileKey::new(1, 24))).unwrap();
    assert_eq!(area(&v5), area(V4_FILE));
    let t5 = Table::open(&table_path(&out, &Variant::ASSAUT, FileKey::new(1, 24))).unwrap();
    check_all(&t5, &tiers);
    t5.verify_contents().unwrap();
    assert_eq!(t5.tier_keys().unwrap(), t.tier_keys().unwrap());
    assert_eq!(
        t5.tiers_in_stream_order().unwrap(),
        t.tiers_in_stream_order().unwrap()
    );
}

#[test]
fn a_files_length_follows_from_its_counts() {
    // What the plan's disk estimate adds to the blocks' bytes is exact, for
    // a file with distances and a WDL-only one.
    let dir = tempfile::tempdir().unwrap();
    let (path, tiers) = small_table(dir.path());
    let i = Table::open(&path).unwrap().info().clone();
    let len = file_len(
        i.tiers,
        i.wdl_blocks,
        i.distance_blocks,
        i.wdl_bytes + i.distance_bytes,
    );
    assert_eq!(len, i.file_bytes);
    let opts = WriteOptions {
        wdl_block_positions: 8,
        ..WriteOptions::wdl_only()
    };
    let wdl = dir.path().join("wdl");
    write(&wdl, &Variant::ASSAUT, FileKey::new(1, 24), &opts, &tiers);
    let i = Table::open(&table_path(&wdl, &Variant::ASSAUT, FileKey::new(1, 24)))
        .unwrap()
        .info()
        .clone();
    assert_eq!(i.wdl_blocks, block_count(i.positions, 8));
    assert_eq!(
        file_len(i.tiers, i.wdl_blocks, 0, i.wdl_bytes),
        i.file_bytes
    );
}

#[test]
fn packed_outside_sets_keep_their_order_and_come_back() {
    // Every point outside the fortress gets its own bit, in point order.
    let points: Vec<u64> = (0..33)
        .map(|p| 1u64 << p)
        .filter(|b| b & OUTSIDE != 0)
        .collect();
    assert_eq!(points.len(), 24);
    for (j, &b) in points.iter().enumerate() {
        assert_eq!(format::pack_outside(b), 1 << j);
        assert_eq!(format::unpack_outside(1 << j), b);
    }
    // Random subsets: a round trip, and the order of bitboards kept.
    let mut rng = Rng(11);
    let mut sets: Vec<u64> = (0..2000).map(|_| rng.next() & OUTSIDE).collect();
    sets.sort_unstable();
    sets.dedup();
    for w in sets.windows(2) {
        assert!(format::pack_outside(w[0]) < format::pack_outside(w[1]));
    }
    for &s in &sets {
        assert!(format::pack_outside(s) < 1 << 24);
        assert_eq!(format::unpack_outside(format::pack_outside(s)), s);
    }
}

#[test]
fn version_1_files_are_read_and_repacked() {
    let dir = tempfile::tempdir().unwrap();
    let (path, t, tiers) = old_file(dir.path(), V1_FILE, 1);
    let v1 = dir.path().join("v1");
    // Repacked into the current version, in place, with other block sizes:
    // the same values, the new layout.
    let opts = WriteOptions {
        wdl_block_positions: 36,
        distance_block_positions: 100,
        zstd_level: 5,
        wdl_only: false,
        order: Order::PlacementMajor,
        floor: None,
    };
    let seen = std::sync::Mutex::new(Vec::new());
    let watch = |p: &crate::progress::Progress| {
        assert_eq!(p.total, t.info().positions);
        seen.lock().unwrap().push(p.done);
    };
    let info = repack(&t, &v1, &opts, &watch).unwrap();
    let seen = seen.into_inner().unwrap();
    assert_eq!(info.format_version, FORMAT_VERSION);
    assert_eq!(info.wdl_block_positions, 36);
    // Progress through the library's throttle: the first tier's, at
    // most one a period after it, and the last, rising.
    assert!(!seen.is_empty() && seen.len() <= tiers.len(), "{seen:?}");
    assert!(seen.windows(2).all(|w| w[0] < w[1]), "{seen:?}");
    assert_eq!(seen.last(), Some(&info.positions));
    drop(t);
    let t = Table::open(&path).unwrap();
    assert_eq!(t.info(), &info);
    assert_eq!((t.info().wins, t.info().draws), {
        let i = Table::open(&dir.path().join("fresh/assaut/1o24s.atb")).unwrap();
        (i.info().wins, i.info().draws)
    });
    check_all(&t, &tiers);
    t.verify_contents().unwrap();
    // The stream order is kept.
    let fresh = Table::open(&dir.path().join("fresh/assaut/1o24s.atb")).unwrap();
    assert_eq!(
        t.tiers_in_stream_order().unwrap(),
        fresh.tiers_in_stream_order().unwrap()
    );
    assert_eq!(
        fresh.tiers_in_stream_order().unwrap(),
        tiers.iter().map(|(k, _)| *k).collect::<Vec<_>>()
    );
}

/// `good` with block `b` of the stream whose entries start at `entries`
/// replaced by `content` (same length, padded or cut) under a valid block
/// checksum and valid index checksums: what a writer with a faulty
/// encoder would leave.
fn replace_block(good: &[u8], entries: usize, stream: Stream, b: u64, content: &[u8]) -> Vec<u8> {
    let mut bytes = good.to_vec();
    let at = entries + b as usize * format::BLOCK_ENTRY_LEN;
    let e = format::BlockEntry::at(&bytes, at);
    let (start, len) = (e.offset as usize, e.len as usize);
    let mut block = content.to_vec();
    if block.len() + 8 <= len && zstd::zstd_safe::get_frame_content_size(content).is_ok() {
        // Fill the rest with a zstd skippable frame, which decoders skip.
        let pad = (len - block.len() - 8) as u32;
        block.extend_from_slice(&0x184D_2A50u32.to_le_bytes());
        block.extend_from_slice(&pad.to_le_bytes());
    }
    block.resize(len, 0);
    bytes[start..start + len].copy_from_slice(&block);
    let crc = format::block_crc(FORMAT_VERSION, stream, b, &block);
    bytes[at + 12..at + 16].copy_from_slice(&crc.to_le_bytes());
    reseal(&mut bytes);
    bytes
}

#[test]
fn a_block_that_passes_its_checksum_but_does_not_decode_is_a_bad_block() {
    // Each block defect provoked on its own and asserted by kind: the read
    // fails naming the stream and block, never returns a value.
    let dir = tempfile::tempdir().unwrap();
    let (path, tiers) = small_table(dir.path());
    let good = fs::read(&path).unwrap();
    let o = offsets(&good);
    let bad = dir.path().join("bad.atb");
    let key = tiers[0].0;
    let read = |bytes: &[u8]| -> TableError {
        fs::write(&bad, bytes).unwrap();
        let t = Table::open(&bad).unwrap();
        t.tier(&key).unwrap_err()
    };
    let is = |e: &TableError, s: Stream, want: &dyn Fn(&BlockDefect) -> bool| {
        matches!(e.problem(), Problem::BadBlock { stream, block: 0, detail }
            if *stream == s && want(detail))
    };
    // Not a zstd frame at all.
    for (entries, stream) in [(o.wdl, Stream::Wdl), (o.dist, Stream::Distance)] {
        let e = read(&replace_block(&good, entries, stream, 0, &[0xAA; 64]));
        assert!(
            is(&e, stream, &|d| matches!(d, BlockDefect::Decompress(_))),
            "{e}"
        );
        assert!(!e.to_string().contains('\n'));
    }
    // A zstd frame of the wrong length (the first block holds 64 WDL
    // fields: 16 bytes).
    let short = zstd::bulk::compress(&[0u8; 5], 1).unwrap();
    let e = read(&replace_block(&good, o.wdl, Stream::Wdl, 0, &short));
    assert!(
        is(&e, Stream::Wdl, &|d| matches!(
            d,
            BlockDefect::Length {
                found: 5,
                expected: 16
            }
        )),
        "{e}"
    );
    // WDL field 3 in a table with distances.
    let threes = zstd::bulk::compress(&[0xFFu8; 16], 1).unwrap();
    let e = read(&replace_block(&good, o.wdl, Stream::Wdl, 0, &threes));
    assert!(
        is(&e, Stream::Wdl, &|d| matches!(d, BlockDefect::InvalidWdl)),
        "{e}"
    );
    // A distance block with a plane count of 3.
    let planes = zstd::bulk::compress(&[3u8; 97], 1).unwrap();
    let e = read(&replace_block(&good, o.dist, Stream::Distance, 0, &planes));
    assert!(
        is(&e, Stream::Distance, &|d| matches!(d, BlockDefect::Planes)),
        "{e}"
    );
}

/// The index a build keeps in memory while it writes a file
/// ([`crate::build::bytes_besides_window`] less its fixed part) is at
/// least the written file's index, and a WDL-only file's estimate counts
/// no distance blocks (it has none): the budget is not spent on them.
#[test]
fn a_builds_index_estimate_covers_the_written_index() {
    use crate::budget::FIXED_BYTES;
    use crate::build::bytes_besides_window;
    let mut rng = Rng(11);
    let tiers = random_tier_codes(&mut rng, FileKey::new(2, 12), &[12, 11, 10, 9], true);
    let positions: u64 = tiers.iter().map(|(k, _)| k.size()).sum();
    let mut estimates = Vec::new();
    for wdl_only in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        // Small blocks, so that the block tables weigh in the index.
        let opts = WriteOptions {
            wdl_block_positions: 256,
            distance_block_positions: 64,
            ..WriteOptions::of_kind(wdl_only)
        };
        let table = write_and_open(
            dir.path(),
            &Variant::ASSAUT,
            FileKey::new(2, 12),
            &opts,
            &tiers,
        );
        let estimate = bytes_besides_window(tiers.len() as u64, positions, &opts) - FIXED_BYTES;
        let index = table.info().index_bytes;
        assert!(estimate >= index, "{wdl_only}: {estimate} < {index}");
        estimates.push(estimate);
    }
    // Exactly the distance blocks' 16 bytes each apart.
    assert_eq!(estimates[0] - estimates[1], positions / 64 * 16);
}

/// Halves read back together (`read_first_halves`, a resumed build's
/// window) are the halves read back one at a time (`read_first_half`),
/// which are the tiers' own first halves: with distances and WDL-only, in
/// both layouts, with blocks smaller than a tier and holding several, the
/// last blocks still being filled.
#[test]
fn halves_read_back_together_are_those_read_one_at_a_time() {
    let mut rng = Rng(41);
    let tiers = random_tier_codes(&mut rng, FileKey::new(2, 10), &[3, 4, 5, 6, 2, 7], true);
    for (wdl_only, block, order) in [
        (false, 1000, Order::MaskMajor),
        (false, 1 << 20, Order::PlacementMajor),
        (true, 1020, Order::PlacementMajor),
        (true, 1 << 20, Order::MaskMajor),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let opts = WriteOptions {
            wdl_block_positions: block,
            distance_block_positions: block.min(700),
            order,
            ..WriteOptions::of_kind(wdl_only)
        };
        let mut w =
            TableWriter::create_with(dir.path(), &Variant::ASSAUT, FileKey::new(2, 10), &opts)
                .unwrap();
        let mut firsts = Vec::new();
        let mut first = 0;
        for (key, codes) in &tiers {
            w.push_tier(key, codes).unwrap();
            firsts.push((first, *key));
            first += key.size();
        }
        w.sync().unwrap();
        w.open_reader().unwrap();
        let together = w.read_first_halves(&firsts).unwrap();
        assert_eq!(together.len(), tiers.len());
        for (((f, key), got), (_, codes)) in firsts.iter().zip(&together).zip(&tiers) {
            let alone = w.read_first_half(*f, key).unwrap();
            assert_eq!(got, &alone, "{wdl_only} {block} {order} {key:?}");
            let half = &codes[..key.size_per_side() as usize];
            let want: Vec<u16> = if wdl_only {
                half.iter()
                    .map(|&c| fields::wdl_only_code(fields::wdl_only_bits(c)))
                    .collect()
            } else {
                half.to_vec()
            };
            assert_eq!(got, &want, "{wdl_only} {block} {order} {key:?}");
        }
        // A run from the middle, and none.
        assert_eq!(w.read_first_halves(&firsts[2..4]).unwrap(), together[2..4]);
        assert!(w.read_first_halves(&[]).unwrap().is_empty());
    }
}
