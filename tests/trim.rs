//! The build's memory trimmer gives freed memory back to the system: glibc
//! keeps what a program frees resident, and without the trim a build's
//! anonymous memory grew past its budget (`asalto_tb::build::Trimmer`).
//! Its own test binary: nothing else allocates in this process meanwhile.

#![cfg(all(target_os = "linux", target_env = "gnu"))]

use asalto_tb::build::{Trimmer, anon_bytes};

const MIB: u64 = 1 << 20;

/// 256 MiB in pieces of 4 kB, touched, then all freed but one piece in 16
/// (so that the heap cannot simply shrink from its top).
fn fragmented_heap() -> Vec<Vec<u8>> {
    let pieces: Vec<Vec<u8>> = (0..65_536u32).map(|i| vec![i as u8 | 1; 4096]).collect();
    pieces.into_iter().step_by(16).collect()
}

#[test]
fn a_trim_gives_back_what_was_freed_and_waits_for_its_slack() {
    let kept = fragmented_heap();
    let before = anon_bytes().expect("RssAnon on Linux");
    // A slack larger than anything here: nothing to do yet.
    let mut trimmer = Trimmer::new(u64::MAX / 2);
    let after = anon_bytes().unwrap();
    assert!(
        after + 128 * MIB < before,
        "the first trim gave back {} of 240 MiB freed",
        before.saturating_sub(after)
    );
    assert_eq!(trimmer.trims, 1);
    let kept2 = fragmented_heap();
    assert!(!trimmer.check(), "within its slack, no trim");
    assert_eq!(trimmer.trims, 1);

    // With a small slack the same growth is handed back.
    let mut trimmer = Trimmer::new(64 * MIB);
    let kept3 = fragmented_heap();
    let grown = anon_bytes().unwrap();
    assert!(trimmer.check(), "past its slack, a trim");
    assert_eq!(trimmer.trims, 2);
    assert!(anon_bytes().unwrap() + 128 * MIB < grown);
    // What is still held stays readable.
    for (i, p) in kept.iter().chain(&kept2).chain(&kept3).enumerate() {
        assert_eq!(p[4095], ((i % 4096) * 16) as u8 | 1);
    }
}
