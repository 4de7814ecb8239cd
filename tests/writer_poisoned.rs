//! A table writer whose write fails refuses to go on: every later step
//! fails with `Problem::Poisoned` and no table file appears. The failure
//! is a real one: the process's file-size limit (RLIMIT_FSIZE, with
//! SIGXFSZ ignored) makes the kernel refuse the write with EFBIG. The
//! limit is process-wide, so this file holds one test only (its own test
//! binary) and the limit is lifted before the test returns.

use asalto_tb::Variant;
use asalto_tb::index::FileKey;
use asalto_tb::index::all_tiers;
use asalto_tb::table::{Problem, TableWriter, WriteOptions, table_path, temporary_path};

/// Set the soft file-size limit; returns the previous limits.
fn limit_file_size(bytes: u64) -> libc::rlimit {
    let mut old = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit/setrlimit with valid pointers; signal() with
    // SIG_IGN, so an oversized write fails with EFBIG instead of killing
    // the process.
    unsafe {
        assert_eq!(libc::getrlimit(libc::RLIMIT_FSIZE, &mut old), 0);
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
        let new = libc::rlimit {
            rlim_cur: bytes,
            rlim_max: old.rlim_max,
        };
        assert_eq!(libc::setrlimit(libc::RLIMIT_FSIZE, &new), 0);
    }
    old
}

#[test]
fn a_writer_whose_write_failed_is_poisoned_and_leaves_no_table() {
    let dir = tempfile::tempdir().unwrap();
    let v = Variant::ASSAUT;
    // Tiers of 1o24s (small ones), with codes that do not compress away.
    let tiers: Vec<_> = all_tiers(FileKey::new(1, 24), &v)
        .into_iter()
        .take(200)
        .collect();
    let codes = |len: u64, seed: u64| -> Vec<u16> {
        (0..len)
            .map(|i| {
                let x = (i * 2654435761 + seed * 40503) % 241;
                x as u16 // 0 draw, odd wins, even losses: all valid codes
            })
            .collect()
    };
    let opts = WriteOptions {
        wdl_block_positions: 64,
        distance_block_positions: 64,
        zstd_level: 1,
        wdl_only: false,
        order: Default::default(),
        floor: None,
    };
    let mut w = TableWriter::create_with(dir.path(), &v, FileKey::new(1, 24), &opts).unwrap();
    let old = limit_file_size(4096);
    let mut first = None;
    for (i, t) in tiers.iter().enumerate() {
        let r = w
            .push_tier(t, &codes(t.size(), i as u64))
            .and_then(|_| w.sync());
        if let Err(e) = r {
            first = Some((i, e));
            break;
        }
    }
    // SAFETY: as in limit_file_size; the old limits are valid.
    unsafe { assert_eq!(libc::setrlimit(libc::RLIMIT_FSIZE, &old), 0) };
    let (i, e) = first.expect("the file-size limit was never reached");
    // The first failure is the system's (EFBIG), not Poisoned.
    assert!(matches!(e.problem(), Problem::Io { .. }), "{e}");
    assert!(!e.to_string().contains('\n'));
    // Every later step is refused.
    let next = &tiers[i + 1];
    let e = w.push_tier(next, &codes(next.size(), 0)).unwrap_err();
    assert!(matches!(e.problem(), Problem::Poisoned), "{e}");
    let e = w.sync().unwrap_err();
    assert!(matches!(e.problem(), Problem::Poisoned), "{e}");
    let e = w.finish().unwrap_err();
    assert!(matches!(e.problem(), Problem::Poisoned), "{e}");
    // No table, and the temporary file is gone.
    let path = table_path(dir.path(), &v, FileKey::new(1, 24));
    assert!(!path.exists());
    assert!(!temporary_path(&path).exists());
}
