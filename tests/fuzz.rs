//! Bad bytes, fuzzed: random and mutated inputs for the three places that
//! read what a user or a disk hands in.
//!
//! * the notation parser (and the variant parser): every string is either
//!   refused or parsed to a position whose notation parses back to it;
//! * the API's query strings: every request to `asalto serve` is answered
//!   with JSON (HTTP 200, 400, 404 or 422), an error in one line, never a
//!   500 or a dropped connection;
//! * the table reader: a table file with bits flipped, bytes overwritten,
//!   cut, padded, or a header of random bytes is refused (on opening or on
//!   reading) or reads exactly the values of the good file: never a panic,
//!   never a value silently wrong.
//!
//! Each property runs 256 cases by default (`PROPTEST_CASES` sets
//! another number). `ASALTO_FUZZ_SECONDS=S` instead runs each property
//! for about S seconds, batch after batch with fresh random seeds, and
//! prints how many cases it ran (the long run of the README:
//! `scripts/fuzz.sh`).

mod common;

use asalto_tb::build::{self, BuildOptions, Quiet};
use asalto_tb::index::FileKey;
use asalto_tb::index::TierKey;
use asalto_tb::solve::Solver;
use asalto_tb::table::{Order, Table, WriteOptions, table_path};
use asalto_tb::{Position, Value, Variant};
use axum::body::Body;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Positions whose mutations the parsers and the API are fed: the start,
/// huff rights for either side, a full fortress, small closures.
const SEEDS: [&str; 7] = [
    common::START,
    "SSS/SSS/O1SS3/4S2/6O/3/3 s -",
    "3/O1O/7/7/7/3/3 o c6",
    "SSS/SSS/O1SSS2/7/7/3/3 o",
    common::FLOOR_POS,
    "SSS/1O1/1SS1S1O/2SSS2/3S3/3/3 s",
    "SS1/SSS/2SSS2/2S3O/1O5/3/3 s",
];

/// Run `test` on `strategy`'s values: 256 cases (or `PROPTEST_CASES`), or
/// batches of them for `ASALTO_FUZZ_SECONDS` seconds; a failing case is the
/// test's panic, with the minimal input proptest shrank it to.
fn fuzz<S: Strategy>(name: &str, strategy: S, test: impl Fn(S::Value) -> Result<(), TestCaseError>)
where
    S::Value: std::fmt::Debug,
{
    let seconds: Option<u64> = std::env::var("ASALTO_FUZZ_SECONDS")
        .ok()
        .map(|s| s.parse().expect("ASALTO_FUZZ_SECONDS: a number of seconds"));
    let config = Config {
        failure_persistence: None,
        ..Config::default()
    };
    let start = Instant::now();
    let mut cases = 0u64;
    loop {
        let mut runner = TestRunner::new(config.clone());
        if let Err(e) = runner.run(&strategy, &test) {
            panic!("{name}: {e}");
        }
        cases += u64::from(config.cases);
        match seconds {
            Some(s) if start.elapsed() < Duration::from_secs(s) => continue,
            _ => break,
        }
    }
    eprintln!(
        "fuzz {name}: {cases} cases in {:.1} s, none failed",
        start.elapsed().as_secs_f64()
    );
}

/// One edit of a string: insert, delete or replace the character at a
/// place (taken modulo the length).
#[derive(Debug, Clone)]
enum Edit {
    Insert(usize, char),
    Delete(usize),
    Replace(usize, char),
}

/// Characters the notation is made of, and some it is not.
fn notation_char() -> impl Strategy<Value = char> {
    prop_oneof![
        4 => proptest::sample::select(
            "SO0123456789/ so-abcdefg,:x".chars().collect::<Vec<_>>()
        ),
        1 => any::<char>(),
    ]
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), notation_char()).prop_map(|(i, c)| Edit::Insert(i, c)),
        any::<usize>().prop_map(Edit::Delete),
        (any::<usize>(), notation_char()).prop_map(|(i, c)| Edit::Replace(i, c)),
    ]
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for e in edits {
        let n = chars.len();
        match *e {
            Edit::Insert(i, c) => chars.insert(i % (n + 1), c),
            Edit::Delete(i) if n > 0 => {
                chars.remove(i % n);
            }
            Edit::Replace(i, c) if n > 0 => chars[i % n] = c,
            _ => {}
        }
    }
    chars.into_iter().collect()
}

/// Text for a position: a seed with up to four edits, a string of
/// notation characters, any string, or a `start:` / `formation:` argument.
fn position_text() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (proptest::sample::select(SEEDS.to_vec()), prop::collection::vec(edit(), 0..5))
            .prop_map(|(seed, edits)| apply(seed, &edits)),
        2 => prop::collection::vec(notation_char(), 0..60)
            .prop_map(|cs| cs.into_iter().collect::<String>()),
        1 => any::<String>(),
        1 => "(start|formation)(:[0-9]{0,4})?(:[a-h][0-9],[a-h][0-9])?(,[a-h][0-9])?",
    ]
}

#[test]
fn the_notation_parser_refuses_or_round_trips() {
    fuzz("notation", position_text(), |text| {
        if let Ok(pos) = text.parse::<Position>() {
            let again: Position = pos
                .to_string()
                .parse()
                .map_err(|e| TestCaseError::fail(format!("{pos} does not parse back: {e}")))?;
            prop_assert_eq!(again, pos);
        }
        match Position::from_arg(&text) {
            Ok(pos) => {
                let again: Position = pos.to_string().parse().map_err(|e| {
                    TestCaseError::fail(format!("{pos} (from {text:?}) does not parse back: {e}"))
                })?;
                prop_assert_eq!(again, pos);
            }
            Err(e) => {
                let line = e.to_string();
                prop_assert!(!line.is_empty() && !line.contains('\n'), "{:?}", line);
            }
        }
        Ok(())
    });
}

/// Text for a variant: a preset or switches with edits, or any string.
fn variant_text() -> impl Strategy<Value = String> {
    let seeds = vec![
        "assaut",
        "assaut-mdj",
        "asalto",
        "assault",
        "soldiers=closer,capture=huff,max=on,trapped=soldiers-win",
        "soldiers=forward,capture=mandatory,max=off,trapped=soldiers-lose",
        "capture=free",
    ];
    prop_oneof![
        3 => (proptest::sample::select(seeds), prop::collection::vec(edit(), 0..4))
            .prop_map(|(seed, edits)| apply(seed, &edits)),
        1 => any::<String>(),
    ]
}

#[test]
fn the_variant_parser_refuses_or_round_trips() {
    fuzz("variant", variant_text(), |text| {
        match text.parse::<Variant>() {
            Ok(v) => {
                let again: Variant = v.to_string().parse().map_err(|e| {
                    TestCaseError::fail(format!("{v} (from {text:?}) does not parse back: {e}"))
                })?;
                prop_assert_eq!(again, v);
            }
            Err(e) => {
                let line = e.to_string();
                prop_assert!(!line.is_empty() && !line.contains('\n'), "{:?}", line);
            }
        }
        Ok(())
    });
}

/// One parameter of a query string: a name and a value, each percent-
/// encoded or not (raw `%`, `&`, `=` and `+` included).
fn param() -> impl Strategy<Value = String> {
    let name = prop_oneof![
        4 => proptest::sample::select(vec!["position", "variant"]).prop_map(String::from),
        1 => "[a-z%=+]{0,8}",
    ];
    let value = prop_oneof![
        3 => position_text(),
        2 => variant_text(),
        1 => "[%0-9A-Fa-fG&=+;]{0,12}",
    ];
    (name, value, any::<bool>()).prop_map(|(n, v, encode)| {
        let v = if encode {
            v.bytes().map(|b| format!("%{b:02X}")).collect()
        } else {
            v
        };
        if n.is_empty() { v } else { format!("{n}={v}") }
    })
}

/// A request path: one of the API's routes (or a near miss) and a query
/// string of up to four parameters.
fn request() -> impl Strategy<Value = String> {
    let route = proptest::sample::select(vec![
        "/api/v1/query",
        "/api/v1/moves",
        "/api/v1/bestmove",
        "/api/v1/bounds",
        "/api/v1/board",
        "/api/v1/nope",
        "/api/v2/query",
    ]);
    (route, prop::collection::vec(param(), 0..5), any::<bool>())
        .prop_map(|(r, ps, sep)| format!("{r}{}{}", if sep { "?" } else { "" }, ps.join("&")))
}

/// GET `url`: the status, the content type and the body.
async fn get(url: String) -> Result<(u16, String, String), String> {
    let client = Client::builder(TokioExecutor::new()).build_http::<Body>();
    let uri: axum::http::Uri = url.parse().map_err(|e| format!("bad uri: {e}"))?;
    let r = client
        .get(uri)
        .await
        .map_err(|e| format!("no answer: {e}"))?;
    let status = r.status().as_u16();
    let kind = r
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap_or("?").to_string())
        .unwrap_or_default();
    let body = axum::body::to_bytes(Body::new(r.into_body()), 1 << 24)
        .await
        .map_err(|e| format!("body: {e}"))?;
    Ok((status, kind, String::from_utf8_lossy(&body).into_owned()))
}

#[test]
fn every_api_query_string_gets_json() {
    // A limit that answers the small closures of the seeds at once and
    // refuses the rest (the start's refusal walks the whole game: it is
    // asked by name in tests/serve.rs, not here).
    let (mut child, url) = common::serve(
        &["--tables", "/nonexistent", "--limit", "200000"],
        std::process::Stdio::null(),
    );
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    fuzz("api", request(), |path| {
        // The start and the formations need the whole game's plan to be
        // refused (seconds each): other tests ask for them.
        prop_assume!(!path.contains("start") && !path.contains("formation"));
        let full = format!("{url}{path}");
        // Some generated paths are no URI at all (a raw '%' or '#'): the
        // client cannot send them, so the server never sees them.
        prop_assume!(full.parse::<axum::http::Uri>().is_ok());
        let (status, kind, body) = rt.block_on(get(full)).map_err(TestCaseError::fail)?;
        prop_assert!(
            [200, 400, 404, 422].contains(&status),
            "{} answered {}: {}",
            path,
            status,
            body
        );
        prop_assert_eq!(&kind, "application/json", "{}: {}", path, body);
        let v: serde_json::Value = serde_json::from_str(&body)
            .map_err(|e| TestCaseError::fail(format!("{path}: not JSON ({e}): {body}")))?;
        if status != 200 {
            let line = v["error"].as_str().unwrap_or("");
            prop_assert!(
                !line.is_empty() && !line.contains('\n'),
                "{}: {}",
                path,
                body
            );
        }
        Ok(())
    });
    child.kill().ok();
    child.wait().ok();
}

/// A good table file's bytes and every value it holds.
struct Good {
    name: &'static str,
    bytes: Vec<u8>,
    keys: Vec<TierKey>,
    values: Vec<Vec<u16>>,
}

/// The 2o9s tables of the closure of a nine-soldier position, built with
/// distances and WDL-only (placement major), with small blocks so that a
/// file has many; their bytes and values.
fn good_tables(dir: &Path) -> Vec<Good> {
    let pos: Position = SEEDS[6].parse().unwrap();
    let tiers = Solver::new(Variant::ASSAUT).closure_of(&pos);
    let mut out = Vec::new();
    for (name, wdl_only) in [("distances", false), ("wdl-only", true)] {
        let folder = dir.join(name);
        let options = BuildOptions {
            write: WriteOptions {
                wdl_block_positions: 512,
                distance_block_positions: 256,
                wdl_only,
                order: if wdl_only {
                    Order::PlacementMajor
                } else {
                    Order::MaskMajor
                },
                ..WriteOptions::default()
            },
            ..BuildOptions::threads(1)
        };
        build::build_tiers(&folder, &Variant::ASSAUT, &tiers, &options, &Quiet).unwrap();
        let path = table_path(&folder, &Variant::ASSAUT, FileKey::new(2, 9));
        let table = Table::open(&path).unwrap();
        let keys = table.tier_keys().unwrap();
        let values = keys
            .iter()
            .map(|k| table.tier(k).unwrap().expect("its own tier").to_vec())
            .collect();
        out.push(Good {
            name,
            bytes: std::fs::read(&path).unwrap(),
            keys,
            values,
        });
    }
    out
}

/// What is done to a good file's bytes (places taken modulo its length).
#[derive(Debug, Clone)]
enum Damage {
    /// One bit flipped.
    Flip(usize, u8),
    /// Bytes overwritten from a place on.
    Overwrite(usize, Vec<u8>),
    /// Cut to a length.
    Cut(usize),
    /// Bytes appended.
    Pad(Vec<u8>),
    /// Bytes inserted at a place (everything after it shifts).
    Insert(usize, Vec<u8>),
    /// The magic kept, then random bytes (as long as the file or shorter).
    RandomHeader(u32, Vec<u8>),
}

fn damage() -> impl Strategy<Value = Damage> {
    let bytes = prop::collection::vec(any::<u8>(), 1..40);
    prop_oneof![
        4 => (any::<usize>(), 0u8..8).prop_map(|(i, b)| Damage::Flip(i, b)),
        2 => (any::<usize>(), bytes.clone()).prop_map(|(i, b)| Damage::Overwrite(i, b)),
        1 => any::<usize>().prop_map(Damage::Cut),
        1 => bytes.clone().prop_map(Damage::Pad),
        1 => (any::<usize>(), bytes).prop_map(|(i, b)| Damage::Insert(i, b)),
        1 => (0u32..8, prop::collection::vec(any::<u8>(), 0..4000))
            .prop_map(|(v, b)| Damage::RandomHeader(v, b)),
    ]
}

fn damaged(good: &[u8], d: &Damage) -> Vec<u8> {
    let mut b = good.to_vec();
    let n = b.len();
    match d {
        Damage::Flip(i, bit) => b[i % n] ^= 1 << bit,
        Damage::Overwrite(i, with) => {
            let at = i % n;
            let end = (at + with.len()).min(n);
            b[at..end].copy_from_slice(&with[..end - at]);
        }
        Damage::Cut(i) => b.truncate(i % n),
        Damage::Pad(with) => b.extend_from_slice(with),
        Damage::Insert(i, with) => {
            let at = i % n;
            b.splice(at..at, with.iter().copied());
        }
        Damage::RandomHeader(version, rest) => {
            b.truncate(8);
            b.extend_from_slice(&version.to_le_bytes());
            b.extend_from_slice(rest);
        }
    }
    b
}

/// Open a damaged file and read everything the good one holds: an error
/// anywhere is a refusal; whatever is read must be the good value.
fn read_back(path: &Path, good: &Good) -> Result<(), TestCaseError> {
    let fail_line = |e: &dyn std::fmt::Display| -> Result<(), TestCaseError> {
        let line = e.to_string();
        prop_assert!(!line.is_empty() && !line.contains('\n'), "{:?}", line);
        Ok(())
    };
    let table = match Table::open(path) {
        Ok(t) => t,
        Err(e) => return fail_line(&e),
    };
    match table.tier_keys() {
        Ok(keys) => prop_assert_eq!(&keys, &good.keys, "{} read other tiers", good.name),
        Err(e) => fail_line(&e)?,
    }
    for (key, want) in good.keys.iter().zip(&good.values) {
        match table.tier(key) {
            Ok(Some(got)) => prop_assert_eq!(&got[..], &want[..], "{} {:?}", good.name, key),
            Ok(None) => prop_assert!(false, "{}: tier {:?} lost without an error", good.name, key),
            Err(e) => fail_line(&e)?,
        }
        // Probes read blocks one position at a time, another path.
        for i in (0..want.len() as u32).step_by(97) {
            match table.probe(key, i) {
                Ok(Some(v)) => {
                    let want = want[i as usize];
                    prop_assert_eq!(v, Value::from_code(want), "{} {:?} {}", good.name, key, i)
                }
                Ok(None) => prop_assert!(false, "{}: {:?} {} lost", good.name, key, i),
                Err(e) => fail_line(&e)?,
            }
        }
    }
    if let Err(e) = table.verify_checksums() {
        fail_line(&e)?;
    }
    Ok(())
}

#[test]
fn damaged_tables_are_refused_or_read_right() {
    let dir = tempfile::tempdir().unwrap();
    let goods = good_tables(dir.path());
    // A fresh path per case: no cache can hand one file's blocks to another.
    let count = AtomicU64::new(0);
    let strategy = (0..goods.len(), damage());
    fuzz("tables", strategy, |(which, d)| {
        let good = &goods[which];
        let bytes = damaged(&good.bytes, &d);
        let case = count.fetch_add(1, Ordering::Relaxed);
        let path: PathBuf = table_path(
            &dir.path().join(format!("case{case}")),
            &Variant::ASSAUT,
            FileKey::new(2, 9),
        );
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &bytes).unwrap();
        let result = read_back(&path, good);
        std::fs::remove_dir_all(path.parent().unwrap().parent().unwrap()).ok();
        result
    });
}
