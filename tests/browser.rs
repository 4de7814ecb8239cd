//! The explorer page in a real browser: headless Chromium driven over
//! WebDriver (chromedriver, through fantoccini) against `asalto serve` on
//! an ephemeral port. It opens a position's link, checks the SVG board and
//! that every legal move is listed with its value (those of `asalto query
//! --json`), plays a move by clicking a piece and its target, goes back,
//! plays one from the list, and has the perfect opponent answer one.
//!
//! Needs Debian's `chromium` and `chromium-driver`, so `cargo test` lists
//! it as ignored; `.ci/run` installs them and runs it (`cargo test --test
//! browser -- --include-ignored`), where their absence is a failure.
//! `ASALTO_SCREENSHOT=PATH` saves a screenshot of the page (how
//! `docs/explorer.png` was made).

mod common;

use common::asalto;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value as Json, json};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// Nine soldiers, eight in the fortress: e4-e5 fills it.
const TINY: &str = "SSS/SSS/O1SS3/4S2/6O/3/3 s -";
/// TINY after d5-e5: the officers to move.
const AFTER_D5E5: &str = "SSS/SSS/O1S1S2/4S2/6O/3/3 o -";
/// TINY after e4-e5: the fortress is full, the soldiers won.
const AFTER_E4E5: &str = "SSS/SSS/O1SSS2/7/6O/3/3 o -";

/// A child process killed when dropped.
struct Kill(Child);

impl Drop for Kill {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `asalto serve --port 0` without tables; its URL.
fn start_server() -> (Kill, String) {
    let (child, url) = common::serve(&["--tables", "/nonexistent"], Stdio::null());
    (Kill(child), url)
}

/// chromedriver on a free port, once it accepts connections; its URL.
fn start_chromedriver() -> (Kill, String) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromedriver");
    let start = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "chromedriver does not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    (Kill(child), format!("http://127.0.0.1:{port}"))
}

/// What `asalto` prints as JSON with `args`.
fn cli_json(args: &[&str]) -> Json {
    let o = asalto(args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

/// The value of `asalto query --json` for `position`, and each move's line
/// as the page should show it: (move, result, value text).
fn expected(position: &str) -> (Json, Vec<(String, String, String)>) {
    let q = cli_json(&["query", "--json", "--tables", "/nonexistent", position]);
    let rows = q["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let (result, plies) = (m["result"].as_str().unwrap(), m["plies"].as_u64().unwrap());
            let text = match result {
                "draw" => "draw".to_string(),
                r => format!(
                    "{r} in {plies} {}",
                    if plies == 1 { "ply" } else { "plies" }
                ),
            };
            (
                m["move"].as_str().unwrap().to_string(),
                result.to_string(),
                text,
            )
        })
        .collect();
    (q, rows)
}

/// What the page shows: position, side, value, status, the move list and
/// the pieces on the board.
async fn page(c: &Client) -> Json {
    c.execute(
        r##"const t = (id) => document.getElementById(id).textContent;
        return {
          state: document.body.dataset.state,
          position: t("position"), side: t("side"), value: t("value"), status: t("status"),
          error: t("error"),
          moves: [...document.querySelectorAll("#moves li")].map((li) =>
            [li.dataset.move, li.dataset.result, li.querySelector(".value").textContent]),
          soldiers: document.querySelectorAll("#board circle.soldier").length,
          officers: document.querySelectorAll("#board circle.officer").length,
          lines: document.querySelectorAll("#board line").length,
          url: location.href,
        };"##,
        vec![],
    )
    .await
    .expect("read the page")
}

/// Wait until the page shows `position` with its values loaded.
async fn wait_for(c: &Client, position: &str) -> Json {
    let start = Instant::now();
    loop {
        let p = page(c).await;
        if p["state"] == "ready" && p["position"] == position {
            return p;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "waiting for {position}: {p}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The move list shown, as (move, result, value text).
fn shown_moves(p: &Json) -> Vec<(String, String, String)> {
    serde_json::from_value(p["moves"].clone()).unwrap()
}

async fn click(c: &Client, css: &str) {
    c.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("click {css}: {e}"));
}

/// The steps of the test, in an open browser.
async fn explore(c: &Client, url: &str) {
    c.goto(&format!(
        "{url}/?variant=assaut&position={}",
        TINY.replace(' ', "+")
    ))
    .await
    .unwrap();
    // The board: 33 points' lines, 9 soldiers, 2 officers; every legal
    // move listed, best first, with the CLI's value.
    let p = wait_for(c, TINY).await;
    assert_eq!(
        (p["soldiers"].as_u64(), p["officers"].as_u64()),
        (Some(9), Some(2))
    );
    assert!(p["lines"].as_u64().unwrap() > 50, "{p}");
    let (q, rows) = expected(TINY);
    let legal = cli_json(&["moves", "--json", TINY]);
    assert_eq!(
        shown_moves(&p).len(),
        legal["moves"].as_array().unwrap().len()
    );
    assert_eq!(shown_moves(&p), rows);
    assert_eq!(p["side"], "Soldiers to move:");
    assert_eq!(p["value"], "win in 1 ply");
    assert_eq!(q["plies"], 1);

    // A piece, then its target: e4-e5 fills the fortress.
    click(c, "#board circle[data-point='e4']").await;
    click(c, "#board circle[data-target='e5']").await;
    let p = wait_for(c, AFTER_E4E5).await;
    assert_eq!(
        (&p["side"], &p["value"]),
        (&json!("Game over:"), &json!("soldiers won"))
    );
    assert_eq!(shown_moves(&p), vec![]);
    assert!(
        p["url"]
            .as_str()
            .unwrap()
            .contains("position=SSS%2FSSS%2FO1SSS2"),
        "{p}"
    );

    // Back, then a move from the list: the position and list change.
    click(c, "#back").await;
    wait_for(c, TINY).await;
    click(c, "#moves li[data-move='d5-e5'] button").await;
    let p = wait_for(c, AFTER_D5E5).await;
    assert_eq!(p["side"], "Officers to move:");
    let (_, rows) = expected(AFTER_D5E5);
    assert_eq!(shown_moves(&p), rows);

    // The perfect opponent answers the officers' best move with the
    // soldiers' best.
    click(c, "#opponent").await;
    let mine = &rows[0].0;
    let after_mine = cli_json(&["moves", "--json", AFTER_D5E5])["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == mine.as_str())
        .unwrap()["result"]
        .as_str()
        .unwrap()
        .to_string();
    let (q, _) = expected(&after_mine);
    let reply = q["moves"][0]["move"].as_str().unwrap();
    let after_reply = cli_json(&["moves", "--json", &after_mine])["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == reply)
        .unwrap()["result"]
        .as_str()
        .unwrap()
        .to_string();
    click(c, &format!("#moves li[data-move='{mine}'] button")).await;
    let p = wait_for(c, &after_reply).await;
    let status = p["status"].as_str().unwrap();
    assert!(
        status.contains(&format!(
            "played {mine}; the perfect opponent answered {reply}"
        )),
        "{status}"
    );
    assert_eq!(p["error"], "");
}

/// A screenshot of the page at `path`: a ten-soldier position where the
/// soldiers may huff d6 (after the officers' fault g5-f4), a piece
/// selected, the report's panel open.
async fn screenshot(c: &Client, url: &str, path: &Path) {
    let huff = "SSS/1O1/1SS1S2/2SSSO1/3S3/3/3 s d6";
    c.set_window_size(1100, 1400).await.unwrap();
    c.goto(&format!(
        "{url}/?variant=assaut&position={}",
        huff.replace(' ', "+")
    ))
    .await
    .unwrap();
    wait_for(c, huff).await;
    click(c, "#board circle[data-point='c5']").await;
    click(c, "#report summary").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    std::fs::write(path, c.screenshot().await.unwrap()).unwrap();
}

// Ignored by `cargo test` (it shows as ignored in the summary, never as a
// pass), run by `.ci/run` with `--include-ignored` after installing
// Chromium; run by hand with `cargo test --test browser -- --ignored`.
#[tokio::test]
#[ignore = "needs chromium and chromedriver (apt-get install chromium chromium-driver); .ci/run runs it"]
async fn the_explorer_in_headless_chromium() {
    assert!(
        Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists(),
        "the browser test needs {CHROMIUM} and {CHROMEDRIVER} (apt-get install chromium chromium-driver)"
    );
    let (_server, url) = start_server();
    let (_driver, driver_url) = start_chromedriver();
    let profile = tempfile::tempdir().unwrap();
    let caps: serde_json::Map<String, Json> = serde_json::from_value(json!({
        "goog:chromeOptions": {
            "binary": CHROMIUM,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync",
                "--window-size=1100,820",
                format!("--user-data-dir={}", profile.path().display()),
            ],
        }
    }))
    .unwrap();
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    let client = ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(&driver_url)
        .await
        .expect("a chromium session");
    // Run the steps, then close the browser whatever they gave.
    let steps = tokio::spawn({
        let (c, url) = (client.clone(), url.clone());
        async move { explore(&c, &url).await }
    })
    .await;
    let shot = match (&steps, std::env::var_os("ASALTO_SCREENSHOT")) {
        (Ok(()), Some(path)) => {
            tokio::spawn({
                let (c, url) = (client.clone(), url.clone());
                async move { screenshot(&c, &url, Path::new(&path)).await }
            })
            .await
        }
        _ => Ok(()),
    };
    let _ = client.close().await;
    if let Err(e) = steps.and(shot) {
        std::panic::resume_unwind(e.into_panic());
    }
}
