//! Each kind of table error, provoked through the public interface and
//! asserted by its [`Problem`] variant (not by its message): missing,
//! short, foreign, wrong-version, corrupt, cut and padded files, a table in
//! the wrong variant's folder or under the wrong name, positions past a
//! tier's end, and what the writer refuses.
//!
//! Byte surgery stays in the preamble, whose layout every format version
//! shares (`src/table/format.rs`: magic 0..8, version 8..12, index offset
//! 16..24, index length 24..32, index checksum 32..36, preamble checksum
//! 36..40), the first byte of the index and the first byte after the
//! preamble (the first block). Kinds not provoked here: `BadBlock` (a block that passes
//! its checksum but does not decode needs the checksum recomputed inside
//! the format) and `Poisoned` (a writer whose disk write failed); the unit
//! tests of `src/table` cover the layouts in detail.

use asalto_tb::build::{self, Quiet};
use asalto_tb::index::FileKey;
use asalto_tb::index::TierKey;
use asalto_tb::solve::Solver;
use asalto_tb::table::{
    self, Problem, Table, TableError, TableSet, TableWriter, WriteOptions, table_path,
};
use asalto_tb::{Position, Variant};
use std::path::{Path, PathBuf};

/// Nine soldiers: a closure of a few tiers, tables 1o9s and 2o9s.
const POS: &str = "SS1/SSS/2SSS2/2S3O/1O5/3/3 s";

/// A folder with the assaut tables of [`POS`]'s closure.
fn tables() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let pos: Position = POS.parse().unwrap();
    let tiers = Solver::new(Variant::ASSAUT).closure_of(&pos);
    build::build_tiers(
        dir.path(),
        &Variant::ASSAUT,
        &tiers,
        &build::BuildOptions::threads(1),
        &Quiet,
    )
    .unwrap();
    dir
}

/// A copy of the 2o9s table's bytes changed by `edit`, written to a fresh
/// file of the same name under `dir/<case>/assaut/`; returns its path.
fn damaged(dir: &Path, case: &str, edit: impl FnOnce(&mut Vec<u8>)) -> PathBuf {
    let good = table_path(dir, &Variant::ASSAUT, FileKey::new(2, 9));
    let mut bytes = std::fs::read(good).unwrap();
    edit(&mut bytes);
    let path = table_path(&dir.join(case), &Variant::ASSAUT, FileKey::new(2, 9));
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, bytes).unwrap();
    path
}

fn open_err(path: &Path) -> TableError {
    match Table::open(path) {
        Ok(_) => panic!("{} opened", path.display()),
        Err(e) => e,
    }
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
}

#[test]
fn every_damaged_file_fails_with_its_kind() {
    let dir = tables();
    let d = dir.path();

    // Missing.
    let e = open_err(&d.join("assaut/1o23s.atb"));
    assert!(
        matches!(e.problem(), Problem::Io { .. }) && e.is_not_found(),
        "{e}"
    );

    // Shorter than the 40-byte preamble.
    let p = damaged(d, "short", |b| b.truncate(10));
    let e = open_err(&p);
    assert!(matches!(e.problem(), Problem::TooShort { len: 10 }), "{e}");

    // Not a table: the magic bytes changed.
    let p = damaged(d, "magic", |b| b[0] ^= 0xff);
    assert!(matches!(open_err(&p).problem(), Problem::BadMagic));

    // A format version no build reads.
    let p = damaged(d, "version", |b| {
        b[8..12].copy_from_slice(&99u32.to_le_bytes())
    });
    let e = open_err(&p);
    assert!(matches!(e.problem(), Problem::Version { found: 99 }), "{e}");

    // The preamble changed without its checksum: the index offset.
    let p = damaged(d, "preamble", |b| b[16] ^= 1);
    let e = open_err(&p);
    assert!(
        matches!(e.problem(), Problem::HeaderChecksum("preamble")),
        "{e}"
    );

    // The first byte of the index (its header) changed.
    let p = damaged(d, "index", |b| {
        let at = u64_at(b, 16) as usize;
        b[at] ^= 1;
    });
    let e = open_err(&p);
    assert!(
        matches!(e.problem(), Problem::HeaderChecksum("index header")),
        "{e}"
    );

    // Cut short by one byte, or one byte too long.
    let len = std::fs::metadata(table_path(d, &Variant::ASSAUT, FileKey::new(2, 9)))
        .unwrap()
        .len();
    let p = damaged(d, "cut", |b| {
        b.pop();
    });
    let e = open_err(&p);
    assert!(
        matches!(e.problem(), Problem::Truncated { len: l, expected } if *l == len - 1 && *expected == len),
        "{e}"
    );
    let p = damaged(d, "padded", |b| b.push(0));
    let e = open_err(&p);
    assert!(
        matches!(e.problem(), Problem::TooLong { len: l, expected } if *l == len + 1 && *expected == len),
        "{e}"
    );

    // A byte of the first block (right after the preamble) changed: the
    // file opens (blocks are checked when read) and fails its checksums.
    let p = damaged(d, "block", |b| b[40] ^= 1);
    let t = Table::open(&p).unwrap();
    let e = t.verify_checksums().unwrap_err();
    assert!(
        matches!(e.problem(), Problem::BlockChecksum { block: 0, .. }),
        "{e}"
    );
}

#[test]
fn tables_in_the_wrong_place_fail_with_their_kind() {
    let dir = tables();
    let d = dir.path();
    let good = table_path(d, &Variant::ASSAUT, FileKey::new(1, 9));

    // An assaut table in the asalto folder.
    let there = table_path(d, &Variant::ASALTO, FileKey::new(1, 9));
    std::fs::create_dir_all(there.parent().unwrap()).unwrap();
    std::fs::copy(&good, &there).unwrap();
    let e = TableSet::open(d, &Variant::ASALTO)
        .table(FileKey::new(1, 9))
        .unwrap_err();
    assert!(
        matches!(e.problem(), Problem::WrongVariant { expected, .. } if expected == "asalto"),
        "{e}"
    );

    // A 1o9s table named 1o10s.
    std::fs::copy(&good, table_path(d, &Variant::ASSAUT, FileKey::new(1, 10))).unwrap();
    let e = TableSet::open(d, &Variant::ASSAUT)
        .table(FileKey::new(1, 10))
        .unwrap_err();
    assert!(
        matches!(e.problem(), Problem::WrongMaterial { found, expected } if *found == FileKey::new(1, 9) && *expected == FileKey::new(1, 10)),
        "{e}"
    );

    // A table file under a name that is no material.
    std::fs::copy(&good, d.join("assaut/nine.atb")).unwrap();
    let listed = table::list(d);
    let (_, r) = listed
        .iter()
        .find(|(p, _)| p.ends_with("nine.atb"))
        .expect("listed");
    assert!(matches!(
        r.as_ref().unwrap_err().problem(),
        Problem::BadName
    ));
    // The right ones list fine.
    assert!(
        listed
            .iter()
            .any(|(p, r)| p.ends_with("assaut/1o9s.atb") && r.is_ok())
    );
}

#[test]
fn reads_past_a_tier_and_writes_the_writer_refuses_fail_with_their_kind() {
    let dir = tables();
    let d = dir.path();
    let t = Table::open(&table_path(d, &Variant::ASSAUT, FileKey::new(1, 9))).unwrap();
    let key = t.tier_keys().unwrap()[0];
    let e = t.probe(&key, key.size() as u32).unwrap_err();
    assert!(
        matches!(e.problem(), Problem::IndexOutOfRange { index, size, .. } if u64::from(*index) == key.size() && *size == key.size()),
        "{e}"
    );

    let out = tempfile::tempdir().unwrap();
    // No table for three officers.
    let e = TableWriter::create(out.path(), &Variant::ASSAUT, FileKey::new(3, 9))
        .err()
        .unwrap();
    assert!(matches!(e.problem(), Problem::CannotWrite(_)), "{e}");
    // WDL blocks must hold a multiple of 4 positions.
    let opts = WriteOptions {
        wdl_block_positions: 6,
        ..WriteOptions::default()
    };
    let e = TableWriter::create_with(out.path(), &Variant::ASSAUT, FileKey::new(1, 9), &opts)
        .err()
        .unwrap();
    assert!(matches!(e.problem(), Problem::CannotWrite(_)), "{e}");
    // A tier of other material, or with too few values.
    let mut w = TableWriter::create(out.path(), &Variant::ASSAUT, FileKey::new(1, 9)).unwrap();
    let other = TierKey { n: 2, ..key };
    let e = w
        .push_tier(&other, &vec![0; other.size() as usize])
        .unwrap_err();
    assert!(
        matches!(e.problem(), Problem::BadTier { key: k, .. } if *k == other),
        "{e}"
    );
    let e = w.push_tier(&key, &[0]).unwrap_err();
    assert!(
        matches!(e.problem(), Problem::BadTier { key: k, .. } if *k == key),
        "{e}"
    );
}
