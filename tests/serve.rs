//! `asalto serve` end to end: the binary started on an ephemeral port
//! (`--port 0`, the URL read from its first line), its JSON API compared
//! with the command line's `--json` output for the same positions, bad
//! input answered with HTTP 400 and one-line errors, the refusal of a
//! position too large, concurrent requests under a tight memory limit, and
//! Ctrl-C.

mod common;

use axum::body::Body;
use common::asalto;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use serde_json::Value as Json;
use std::process::{Child, Stdio};

/// Nine soldiers, eight in the fortress: e4-e5 fills it (5,400 positions
/// to solve).
const TINY: &str = "SSS/SSS/O1SS3/4S2/6O/3/3 s";
/// Ten soldiers, a loss in 6 plies for them (1.6 million positions).
const TEN: &str = "SSS/1O1/1SS1S1O/2SSS2/3S3/3/3 s";
/// The fortress is full: the game is over.
const OVER: &str = "SSS/SSS/O1SSS2/7/7/3/3 o";

/// A running `asalto serve`, killed when dropped.
struct Server {
    child: Child,
    url: String,
}

impl Server {
    /// Start `asalto serve --port 0` with `args`; its URL.
    fn start(args: &[&str]) -> Server {
        let (child, url) = common::serve(args, Stdio::piped());
        Server { child, url }
    }

    /// GET `path`: the status, the content type and the body.
    async fn get(&self, path: &str) -> (u16, String, String) {
        get(format!("{}{path}", self.url)).await
    }
}

/// GET `url`: the status, the content type and the body.
async fn get(url: String) -> (u16, String, String) {
    let client = Client::builder(TokioExecutor::new()).build_http::<Body>();
    let uri: axum::http::Uri = url.parse().unwrap();
    let r = client.get(uri).await.expect("an answer");
    let status = r.status().as_u16();
    let kind = r
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let body = axum::body::to_bytes(Body::new(r.into_body()), 1 << 24)
        .await
        .unwrap();
    (status, kind, String::from_utf8(body.to_vec()).unwrap())
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A query string for `variant` and `position` (spaces as `+`, as a form
/// sends them).
fn params(variant: &str, position: &str) -> String {
    let enc = |s: &str| s.replace('+', "%2B").replace(' ', "+").replace(',', "%2C");
    format!("variant={}&position={}", enc(variant), enc(position))
}

/// What `asalto` prints on stdout with `args`, which must succeed.
fn cli_stdout(args: &[&str]) -> String {
    let o = asalto(args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// The one-line error `asalto` prints with `args`, which must fail, less
/// its `error: `.
fn cli_error(args: &[&str]) -> String {
    let o = asalto(args);
    assert_eq!(o.status.code(), Some(1), "{args:?}");
    let err = String::from_utf8(o.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    err.trim_end()
        .strip_prefix("error: ")
        .unwrap_or_else(|| panic!("{err}"))
        .to_string()
}

#[tokio::test]
async fn query_is_the_object_of_asalto_query_json() {
    // Tables for TINY, so that one query reads them and the others solve.
    let tables = tempfile::tempdir().unwrap();
    let dir = tables.path().to_str().unwrap();
    cli_stdout(&["build", "--for", TINY, "--threads", "1", "--tables", dir]);
    let server = Server::start(&["--tables", dir]);
    for (variant, position) in [
        ("assaut", TINY),
        ("assault", TINY),
        ("assaut", TEN),
        ("asalto", OVER),
        (
            "soldiers=forward,capture=mandatory,max=off,trapped=soldiers-lose",
            TEN,
        ),
    ] {
        let (status, kind, body) = server
            .get(&format!("/api/v1/query?{}", params(variant, position)))
            .await;
        assert_eq!(status, 200, "{variant} {position}: {body}");
        assert_eq!(kind, "application/json");
        let cli = cli_stdout(&[
            "query",
            "--json",
            "--tables",
            dir,
            "--variant",
            variant,
            position,
        ]);
        assert_eq!(body, cli.trim_end(), "{variant} {position}");
    }
    // The hand-checked values: e4-e5 wins at once, the rest lose in 4.
    let (_, _, body) = server
        .get(&format!("/api/v1/query?{}", params("assaut", TINY)))
        .await;
    let v: Json = serde_json::from_str(&body).unwrap();
    assert_eq!(
        (v["result"].as_str(), v["plies"].as_u64()),
        (Some("win"), Some(1))
    );
    assert_eq!(v["moves"][0]["move"], "e4-e5");
    assert_eq!(v["moves"][3]["plies"], 4);
    // Without a variant: the server's (assaut).
    let (_, _, plain) = server
        .get(&format!(
            "/api/v1/query?position={}",
            TINY.replace(' ', "+")
        ))
        .await;
    assert_eq!(plain, body);
}

#[tokio::test]
async fn moves_is_the_object_of_asalto_moves_json() {
    let server = Server::start(&["--tables", "/nonexistent"]);
    for position in [TINY, "3/1O1/3S3/2S4/S5S/SSS/SSS o", "start"] {
        let (status, _, body) = server
            .get(&format!("/api/v1/moves?{}", params("assaut", position)))
            .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body, cli_stdout(&["moves", "--json", position]).trim_end());
    }
}

#[tokio::test]
async fn bestmove_is_the_first_move_of_the_query() {
    let server = Server::start(&["--tables", "/nonexistent"]);
    let mut best_of = Vec::new();
    // Soldiers to move and win, officers to move (after d5-e5), soldiers
    // to move and lose, the game over.
    for position in [TINY, "SSS/SSS/O1S1S2/4S2/6O/3/3 o -", TEN, OVER] {
        let q = params("assaut", position);
        let (_, _, query) = server.get(&format!("/api/v1/query?{q}")).await;
        let (status, _, best) = server.get(&format!("/api/v1/bestmove?{q}")).await;
        assert_eq!(status, 200, "{best}");
        let (query, best): (Json, Json) = (
            serde_json::from_str(&query).unwrap(),
            serde_json::from_str(&best).unwrap(),
        );
        let first = &query["moves"][0];
        assert_eq!(best["move"], first["move"], "{position}");
        assert_eq!(
            (&best["result"], &best["plies"], &best["position"]),
            (&query["result"], &query["plies"], &query["position"])
        );
        // `after` is the position the move leads to, as `asalto moves` says.
        let moves: Json =
            serde_json::from_str(&cli_stdout(&["moves", "--json", position])).unwrap();
        let after = moves["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["move"] == first["move"])
            .map_or(Json::Null, |m| m["result"].clone());
        assert_eq!(best["after"], after);
        best_of.push(best);
    }
    // The shortest win (e4-e5 fills the fortress); the officers' win, in
    // 3 plies (4 for the soldiers' d5-e5, less theirs); the longest loss
    // (6 plies, not d4-d5's 2); no move when the game is over.
    let summary: Vec<(Json, Json, Json)> = best_of
        .iter()
        .map(|b| (b["move"].clone(), b["result"].clone(), b["plies"].clone()))
        .collect();
    let j = |m: Option<&str>, r: &str, p: u64| {
        (
            serde_json::json!(m),
            serde_json::json!(r),
            serde_json::json!(p),
        )
    };
    assert_eq!(summary[0], j(Some("e4-e5"), "win", 1));
    assert_eq!(
        (&summary[1].1, &summary[1].2),
        (&serde_json::json!("win"), &serde_json::json!(3))
    );
    assert_eq!(
        (&summary[2].1, &summary[2].2),
        (&serde_json::json!("loss"), &serde_json::json!(6))
    );
    assert_eq!(summary[3], j(None, "loss", 0));
}

#[tokio::test]
async fn bad_input_is_http_400_with_the_cli_error_on_one_line() {
    let server = Server::start(&["--tables", "/nonexistent"]);
    for (variant, position) in [
        ("assaut", "3/O1O/7/7/7/3 s"),      // 6 ranks
        ("assaut", "3/OXO/7/7/7/3/3 s"),    // unknown piece
        ("assaut", "3/O1O/7/7/7/3/3 o c6"), // huff with officers to move
        ("assaut", "start:c6,a3"),          // officer outside the fortress
        ("nope", "start"),                  // unknown variant
        ("soldiers=closer,capture=huff,max=on,colour=red", TINY),
        ("assaut-mdj", "3/O1O/2SSS2/7/S5S/SSS/SSS s c6"), // huff under mandatory
    ] {
        let (status, kind, body) = server
            .get(&format!("/api/v1/query?{}", params(variant, position)))
            .await;
        assert_eq!(status, 400, "{variant} {position}: {body}");
        assert_eq!(kind, "application/json");
        assert_eq!(body.lines().count(), 1, "{body}");
        let v: Json = serde_json::from_str(&body).unwrap();
        let cli = cli_error(&["query", "--variant", variant, position]);
        assert_eq!(
            v,
            serde_json::json!({ "error": cli }),
            "{variant} {position}"
        );
    }
    for path in [
        "/api/v1/query",
        "/api/v1/query?variant=assaut",
        "/api/v1/bestmove?position=%FF",
    ] {
        let (status, _, body) = server.get(path).await;
        assert_eq!(status, 400, "{path}: {body}");
        let v: Json = serde_json::from_str(&body).unwrap();
        assert!(v["error"].is_string(), "{body}");
    }
    let (status, _, body) = server.get("/api/v2/query").await;
    assert_eq!(
        (status, body.as_str()),
        (404, r#"{"error":"no such page: /api/v2/query"}"#)
    );
    // Another method: 405, JSON like every error.
    let client = Client::builder(TokioExecutor::new()).build_http::<Body>();
    let request = axum::http::Request::post(format!("{}/api/v1/query", server.url))
        .body(Body::empty())
        .unwrap();
    let r = client.request(request).await.expect("an answer");
    assert_eq!(r.status().as_u16(), 405);
    let body = axum::body::to_bytes(Body::new(r.into_body()), 1 << 16)
        .await
        .unwrap();
    assert_eq!(
        String::from_utf8(body.to_vec()).unwrap(),
        r#"{"error":"method POST not allowed: the API answers GET only"}"#
    );
    // A long input is quoted in a few dozen characters, not echoed whole.
    let long = "S".repeat(20_000);
    for q in [
        params("assaut", &long),
        format!("variant={long}&position=start"),
    ] {
        let (status, _, body) = server.get(&format!("/api/v1/query?{q}")).await;
        assert_eq!(status, 400, "{}", &body[..body.len().min(300)]);
        assert!(body.len() < 300, "{} bytes: {body:.300}", body.len());
        assert!(body.contains("20000 characters"), "{body}");
    }
    // A request line too long for the HTTP parser (hyper would answer a
    // bare 414): 414 with the JSON error, and the same connection goes on
    // to the next request.
    let addr = server.url.trim_start_matches("http://").to_string();
    let raw = tokio::task::spawn_blocking(move || {
        use std::io::{Read, Write};
        let mut tcp = std::net::TcpStream::connect(addr).unwrap();
        let line = format!("GET /api/v1/query?position={} HTTP/1.1", "S".repeat(70_000));
        let board = "GET /api/v1/board HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
        write!(tcp, "{line}\r\nHost: x\r\n\r\n{board}").unwrap();
        let mut out = String::new();
        tcp.read_to_string(&mut out).unwrap();
        out
    })
    .await
    .unwrap();
    assert!(raw.starts_with("HTTP/1.1 414"), "{raw:.300}");
    let first_body = raw.split("\r\n\r\n").nth(1).unwrap();
    assert!(
        first_body.starts_with(r#"{"error":"request line over 61440 bytes"#),
        "{raw:.600}"
    );
    assert!(raw.matches("HTTP/1.1 200").count() == 1, "{raw:.600}");
    // The server is still up.
    let (status, _, _) = server.get("/api/v1/board").await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn a_position_too_large_is_refused_with_the_plan() {
    // The limit of the command line: the start, whose tables are the whole
    // game, gets the line of `asalto query`.
    let server = Server::start(&["--tables", "/nonexistent"]);
    // The command line's refusal alongside (each takes seconds).
    let cli = std::thread::spawn(|| {
        cli_error(&[
            "query",
            "--tables",
            "/nonexistent",
            "--threads",
            "1",
            "start",
        ])
    });
    let (status, kind, body) = server
        .get(&format!("/api/v1/query?{}", params("assaut", "start")))
        .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(kind, "application/json");
    let cli = cli.join().unwrap();
    assert!(
        cli.contains("needs more than 3000000000 positions"),
        "{cli}"
    );
    assert!(cli.contains("asalto build --for"), "{cli}");
    assert_eq!(body, serde_json::json!({ "error": cli }).to_string());
    // A lower limit (the hidden --limit): TINY needs 5,400 positions.
    let tight = Server::start(&["--tables", "/nonexistent", "--limit", "5399"]);
    let (status, _, body) = tight
        .get(&format!("/api/v1/bestmove?{}", params("assaut", TINY)))
        .await;
    assert_eq!(status, 422, "{body}");
    let v: Json = serde_json::from_str(&body).unwrap();
    let line = v["error"].as_str().unwrap();
    assert!(
        line.starts_with("valuing SSS/SSS/O1SS3/4S2/6O/3/3 s - needs more than 5399 positions"),
        "{line}"
    );
    assert!(
        line.contains("2 files (1o9s, 2o9s), 2 tiers, 5400 positions"),
        "{line}"
    );
}

#[tokio::test]
async fn concurrent_queries_share_the_memory_limit() {
    // A limit that holds one solve of TINY (5,400 positions) at a time:
    // 32 requests at once wait their turn, and every one is answered.
    let server = Server::start(&["--tables", "/nonexistent", "--limit", "5400"]);
    let expected = cli_stdout(&["query", "--json", "--tables", "/nonexistent", TINY]);
    let url = format!("{}/api/v1/query?{}", server.url, params("assaut", TINY));
    let mut requests = tokio::task::JoinSet::new();
    for _ in 0..32 {
        requests.spawn(get(url.clone()));
    }
    for (status, _, body) in requests.join_all().await {
        assert_eq!(status, 200, "{body}");
        assert_eq!(body, expected.trim_end());
    }
}

#[tokio::test]
async fn the_page_and_its_files_are_served() {
    let server = Server::start(&["--tables", "/nonexistent"]);
    let (status, kind, page) = server.get("/").await;
    assert_eq!(status, 200);
    assert!(kind.starts_with("text/html"), "{kind}");
    assert!(page.contains(r#"<svg id="board""#) && page.contains(r#"<ol id="moves">"#));
    // Nothing from outside: every file the page names is served here.
    assert!(!page.contains("http://") && !page.contains("https://"));
    for (path, want) in [
        ("/app.js", "text/javascript"),
        ("/style.css", "text/css"),
        ("/report/three-sheets-wdl-natural.svg", "image/svg+xml"),
        ("/report/assaut-critical-mass.svg", "image/svg+xml"),
        ("/report/three-sheets-critical-mass.svg", "image/svg+xml"),
    ] {
        let (status, kind, body) = server.get(path).await;
        assert_eq!(status, 200, "{path}");
        assert!(kind.starts_with(want), "{path}: {kind}");
        assert!(!body.is_empty());
    }
    let (status, _, _) = server.get("/report/missing.svg").await;
    assert_eq!(status, 404);
    // The board: 33 points, 9 in the fortress, and its lines.
    let (_, _, board) = server.get("/api/v1/board").await;
    let board: Json = serde_json::from_str(&board).unwrap();
    let points = board["points"].as_array().unwrap();
    assert_eq!(points.len(), 33);
    assert_eq!(points.iter().filter(|p| p["fortress"] == true).count(), 9);
    let mut lines: Vec<(String, String)> = board["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let (a, b) = (l[0].as_str().unwrap(), l[1].as_str().unwrap());
            (a.min(b).to_string(), a.max(b).to_string())
        })
        .collect();
    lines.sort();
    let line = |a: &str, b: &str| (a.to_string(), b.to_string());
    // d6 is a junction (diagonals), d7 is not; no line twice.
    assert!(lines.binary_search(&line("d6", "d7")).is_ok());
    assert!(lines.binary_search(&line("c7", "d6")).is_ok());
    assert!(lines.binary_search(&line("c6", "d7")).is_err());
    let count = lines.len();
    lines.dedup();
    assert_eq!(lines.len(), count);
    assert_eq!(board["variant"], "assaut");
    assert_eq!(board["presets"].as_array().unwrap().len(), 4);
}

#[test]
fn ctrl_c_stops_the_server_cleanly() {
    let mut server = Server::start(&["--tables", "/nonexistent"]);
    let pid = server.child.id() as i32;
    // SAFETY: sending a signal to the child this test started.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(s) = server.child.try_wait().unwrap() {
            break s;
        }
        assert!(start.elapsed().as_secs() < 10, "still running after Ctrl-C");
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert!(status.success(), "{status}");
    let mut err = String::new();
    std::io::Read::read_to_string(server.child.stderr.as_mut().unwrap(), &mut err).unwrap();
    assert_eq!(err, "asalto serve: stopped\n");
}

#[test]
fn serve_refuses_bad_arguments_in_one_line() {
    for (args, want) in [
        (
            &["serve", "--variant", "nope"][..],
            "error: unknown variant 'nope'",
        ),
        (
            &["serve", "--tables", "Cargo.toml"][..],
            "error: --tables Cargo.toml is not a folder",
        ),
    ] {
        let o = asalto(args);
        assert_eq!(o.status.code(), Some(1));
        let err = String::from_utf8(o.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with(want), "{err}");
    }
}

/// `/api/v1/bounds` answers with the object of `asalto query --floor K
/// --json` from the floor folders under the tables; the page opens on the
/// start there (its exact value unknown, its bounds shown); a position no
/// floor covers gets 404.
#[tokio::test]
async fn bounds_is_the_object_of_asalto_query_floor_json() {
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().to_str().unwrap();
    // Twelve soldiers; the floor of 11: its closure above the floor.
    let pos = common::FLOOR_POS;
    common::build_floor_11(t);
    let server = Server::start(&["--tables", t]);
    let (status, kind, body) = server
        .get(&format!("/api/v1/bounds?{}", params("assaut", pos)))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(kind, "application/json");
    let cli = cli_stdout(&["query", "--floor", "11", "--tables", t, "--json", pos]);
    let cli: Json = serde_json::from_str(&cli).unwrap();
    assert_eq!(serde_json::from_str::<Json>(&body).unwrap(), cli);
    assert_eq!(cli["floors"].as_array().unwrap().len(), 2);
    // Below the floor, or in a variant with no floor files: 404, JSON.
    for (variant, position) in [("assaut", TEN), ("asalto", pos)] {
        let (status, _, body) = server
            .get(&format!("/api/v1/bounds?{}", params(variant, position)))
            .await;
        assert_eq!(status, 404, "{body}");
        let v: Json = serde_json::from_str(&body).unwrap();
        assert!(
            v["error"]
                .as_str()
                .unwrap()
                .starts_with("no floor files of "),
            "{body}"
        );
    }
    // These floor files bound neither the start nor a formation: the page
    // opens on a position of their largest tier, which they do bound, and
    // says so.
    let (_, _, board) = server.get("/api/v1/board").await;
    let board: Json = serde_json::from_str(&board).unwrap();
    let opening = &board["opening"];
    assert_ne!(opening["position"], "start", "{board}");
    assert!(
        opening["note"]
            .as_str()
            .is_some_and(|n| n.contains("the floor files of floor-11-officers bound")),
        "{board}"
    );
    let (status, _, body) = server
        .get(&format!(
            "/api/v1/bounds?{}",
            params("assaut", opening["position"].as_str().unwrap())
        ))
        .await;
    assert_eq!(status, 200, "{body}");
    let bounds: Json = serde_json::from_str(&body).unwrap();
    assert_eq!(bounds["floors"].as_array().unwrap().len(), 2, "{bounds}");
}

/// Where the tables answer no larger formation, the page opens on the
/// largest formation whose tiers they hold, with a note; where they answer
/// the start, on the start.
#[tokio::test]
async fn the_page_opens_on_a_position_the_tables_answer() {
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().to_str().unwrap();
    // The closure of the formation of 9 soldiers.
    let nine = asalto_tb::analysis::formation_position(9).to_string();
    cli_stdout(&[
        "build",
        "--for",
        &nine,
        "--wdl-only",
        "--tables",
        t,
        "--threads",
        "2",
    ]);
    let server = Server::start(&["--tables", t]);
    let (_, _, board) = server.get("/api/v1/board").await;
    let board: Json = serde_json::from_str(&board).unwrap();
    let opening = &board["opening"];
    assert_ne!(opening["position"], "start", "{board}");
    let note = opening["note"].as_str().unwrap();
    assert!(note.contains("the formation of "), "{note}");
    // It is answered from the tables: a value, nothing solved at length.
    let (status, _, body) = server
        .get(&format!(
            "/api/v1/query?{}",
            params("assaut", opening["position"].as_str().unwrap())
        ))
        .await;
    assert_eq!(status, 200, "{body}");
}
