//! Known-answer perft counts from `tests/perft/*.perft` (format documented at
//! the top of each file), run against the library and, for depth <= 2,
//! against the slow oracle in `tests/common/slow.rs`.

mod common;

use asalto_tb::rules;
use common::{lib_outcome, lib_pos, lib_variant, slow};

#[test]
fn perft_files_library() {
    let lines = common::perft_lines();
    assert!(lines.len() >= 40, "only {} perft lines", lines.len());
    let mut failures = Vec::new();
    for l in &lines {
        let v = lib_variant(&l.variant);
        let p = lib_pos(&l.position);
        let got = rules::perft(&p, &v, l.depth);
        if got != l.nodes {
            failures.push(format!(
                "{}: {}; {}; depth {}: library {got}, expected {}",
                l.at, l.variant, l.position, l.depth, l.nodes
            ));
        }
        if let Some(want) = l.outcome {
            let got = lib_outcome(&p, &v);
            if got != want {
                failures.push(format!(
                    "{}: {}; {}: library outcome {got:?}, expected {want:?}",
                    l.at, l.variant, l.position
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn perft_files_oracle() {
    let mut failures = Vec::new();
    for l in common::perft_lines() {
        let got = slow::perft(&l.position, &l.variant, l.depth);
        if got != l.nodes {
            failures.push(format!("{}: oracle {got}, expected {}", l.at, l.nodes));
        }
        if let Some(want) = l.outcome {
            let got = slow::outcome(&l.position, &l.variant);
            if got != want {
                failures.push(format!(
                    "{}: oracle outcome {got:?}, expected {want:?}",
                    l.at
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every depth-1 and depth-2 line is also checked by hand (see the comments in
/// the files); make sure no line needs a deep slow search by accident.
#[test]
fn perft_files_are_small() {
    for l in common::perft_lines() {
        assert!(
            l.depth <= 3,
            "{}: depth {} is too deep for a test",
            l.at,
            l.depth
        );
    }
}
