//! Human and JSON output of the commands.

use anyhow::Result;
use asalto_tb::board;
use asalto_tb::probe::Analysis;
use asalto_tb::{Position, Side, Value, Variant, rules};
use serde_json::{Value as Json, json};

fn names(b: asalto_tb::Bitboard) -> Vec<&'static str> {
    let mut v: Vec<_> = board::points(b).map(|p| p.name()).collect();
    v.sort();
    v
}

/// `asalto rules`.
pub fn rules(variant: Option<&str>, json: bool) -> Result<()> {
    match variant {
        None => {
            if json {
                let list: Vec<Json> = Variant::PRESETS
                    .iter()
                    .map(|(n, v, src)| json!({"name": n, "switches": v.switches(), "source": src}))
                    .collect();
                outln!("{}", json!({ "presets": list }));
            } else {
                outln!("Presets (one for each rule sheet; docs/RULES.md sections 7 and 11):\n");
                for (n, v, src) in Variant::PRESETS {
                    outln!("  {n:<11} {:<62} {src}", v.switches());
                }
                outln!(
                    "\nAny combination of the four switches is a variant too (24 in all), e.g.\n  \
                     --variant soldiers=forward,capture=mandatory,max=off,trapped=soldiers-win\n\
                     Explain one with: asalto rules --variant NAME"
                );
            }
        }
        Some(text) => {
            let v: Variant = text.parse()?;
            if json {
                outln!(
                    "{}",
                    json!({
                        "name": v.to_string(),
                        "switches": v.switches(),
                        "soldiers": v.soldiers.name(),
                        "capture": v.capture.name(),
                        "max": if v.max { "on" } else { "off" },
                        "trapped": v.trapped.name(),
                        "preset": v.preset_name(),
                    })
                );
            } else {
                outln!("{v}: {}", v.switches());
                for line in v.describe() {
                    outln!("  {line}");
                }
            }
        }
    }
    Ok(())
}

fn winner_text(w: Side) -> &'static str {
    match w {
        Side::Soldiers => "soldiers won",
        Side::Officers => "officers won",
    }
}

/// `asalto show`.
pub fn show(pos: &Position, variant: &Variant, json: bool) {
    let over = rules::outcome(pos, variant);
    if json {
        outln!(
            "{}",
            json!({
                "position": pos.to_string(),
                "variant": variant.to_string(),
                "side": pos.side().name(),
                "soldiers": pos.soldiers().count_ones(),
                "officers": names(pos.officers()),
                "huff": names(pos.huff()),
                "over": over.is_some(),
                "winner": over.map(|w| w.name()),
            })
        );
        return;
    }
    out!("{}", pos.diagram());
    outln!();
    outln!("{pos}");
    outln!(
        "{} soldiers ({} in the fortress), officers on {}",
        pos.soldiers().count_ones(),
        (pos.soldiers() & board::FORTRESS).count_ones(),
        if pos.officers() == 0 {
            "-".to_string()
        } else {
            names(pos.officers()).join(" ")
        }
    );
    match over {
        Some(w) => outln!("game over ({variant}): {}", winner_text(w)),
        None => {
            out!("{} to move", pos.side().name());
            if pos.huff() != 0 {
                out!(", may first huff {}", names(pos.huff()).join(" or "));
            }
            outln!();
        }
    }
}

/// `asalto moves`.
pub fn moves(pos: &Position, variant: &Variant, json: bool) {
    if json {
        outln!("{}", asalto_tb::json::moves(pos, variant));
        return;
    }
    let moves = rules::legal_moves(pos, variant);
    for m in &moves {
        if m.is_fault() {
            outln!("{m}  fault: may huff {}", names(m.offenders()).join(","));
        } else {
            outln!("{m}");
        }
    }
    if moves.is_empty() {
        match rules::outcome(pos, variant) {
            Some(w) => errln!("no moves: game over, {}", winner_text(w)),
            None => errln!("no moves"),
        }
    }
}

/// `asalto query` / `asalto solve`.
pub fn analysis(a: &Analysis, variant: &Variant, json: bool) {
    if json {
        outln!("{}", asalto_tb::json::analysis(a, variant));
        return;
    }
    // Without distances (WDL-only tables), plies are known only for a game
    // already over.
    let text = |v: Value, over: bool| -> String {
        if a.distances || over {
            v.to_string()
        } else {
            v.result().to_string()
        }
    };
    let side = a.position.side().name();
    match a.over {
        Some(w) => outln!("{}: game over, {}", a.position, winner_text(w)),
        None => outln!(
            "{}: {side} to move, {}{}",
            a.position,
            text(a.value, false),
            if a.distances {
                ""
            } else {
                " (WDL-only tables: distances unknown)"
            }
        ),
    }
    for m in &a.moves {
        let fault = if m.mv.is_fault() { "  (fault)" } else { "" };
        outln!("  {:<16} {}{fault}", m.mv.to_string(), text(m.value, false));
    }
}

/// `asalto query --floor`: what each floor's values prove of the
/// position and of each move, from the soldiers' side, and with both
/// floors the bracket they give together. Never a bound passed off as a
/// value: each line says which floor proves it, and the values of the
/// game above the floor are labelled as such.
pub fn floor_analysis(b: &asalto_tb::probe::Bracket, variant: &Variant, json: bool) {
    use asalto_tb::solve::range_words;
    if json {
        outln!("{}", asalto_tb::json::floor_analysis(b, variant));
        return;
    }
    let in_floor_game = |a: &asalto_tb::probe::Analysis, v: Value| -> String {
        if a.distances {
            v.to_string()
        } else {
            v.result().to_string()
        }
    };
    let pos = b.position();
    let mut ks: Vec<u8> = b.found.iter().map(|(f, _)| f.k()).collect();
    ks.dedup();
    let ks: Vec<String> = ks.iter().map(u8::to_string).collect();
    outln!(
        "{pos}: {} to move; files above the floor of {} soldiers (bounds on the real game, from the soldiers' side)",
        pos.side().name(),
        ks.join(" and ")
    );
    for ((f, a), bound) in b.found.iter().zip(b.bounds()) {
        outln!(
            "  {} (proved: {f}); in the game above the floor: {}",
            bound.words(),
            in_floor_game(a, a.value)
        );
    }
    if b.found.len() > 1 {
        let (lo, hi) = b.range();
        let together = match b.found.len() {
            2 => "both floors".to_string(),
            n => format!("the {n} floors together"),
        };
        outln!(
            "  {together}: {}{}",
            range_words(lo, hi),
            if lo == hi {
                " (decided)"
            } else {
                " (not decided)"
            }
        );
    }
    for m in b.moves() {
        let text: Vec<&str> = m.per_floor.iter().map(|(bound, _)| bound.words()).collect();
        outln!("  {:<16} {}", m.mv.to_string(), text.join(" | "));
    }
}

/// `asalto line` on a won or lost position: the game, one move a line.
pub fn line(l: &asalto_tb::line::Line, variant: &Variant, json: bool) {
    if json {
        outln!("{}", asalto_tb::json::line(l, variant));
        return;
    }
    let value = |v: Value| -> String {
        if l.distances {
            v.to_string()
        } else {
            v.result().to_string()
        }
    };
    let (plays, distances) = if l.distances {
        ("its shortest win", "the loser its longest loss")
    } else {
        (
            "a winning move",
            "the loser the reply that moves the game on least (WDL-only tables: distances unknown)",
        )
    };
    outln!(
        "{}: {} to move, {}; the {} win. A game to the end, the winner playing {plays} and {distances}:",
        l.start,
        l.start.side().name(),
        value(l.value),
        l.winner.name()
    );
    let mut before = l.start;
    for (i, s) in l.steps.iter().enumerate() {
        outln!(
            "  {:>4}. {:<9} {:<16} {:<18} {}",
            i + 1,
            before.side().name(),
            s.mv.to_string(),
            value(s.value),
            s.after
        );
        before = s.after;
    }
    outln!(
        "game over after {} plies: {} ({} positions searched)",
        l.steps.len(),
        winner_text(l.winner),
        l.searched
    );
}

/// `asalto line` on a drawn position: every move's value and, below each,
/// the replies to it, `depth` plies deep.
pub fn reply_tree(t: &asalto_tb::line::ReplyNode, variant: &Variant, depth: u32, json: bool) {
    if json {
        outln!("{}", asalto_tb::json::reply_tree(t, variant));
        return;
    }
    let a = &t.analysis;
    outln!(
        "{}: {} to move, {}. Every move's value, {depth} {} deep; a move valued draw holds the draw against the move above it:",
        a.position,
        a.position.side().name(),
        a.value.result(),
        if depth == 1 { "ply" } else { "plies" }
    );
    fn walk(t: &asalto_tb::line::ReplyNode, indent: usize) {
        let a = &t.analysis;
        if let Some(w) = a.over {
            outln!("{:indent$}game over, {}", "", winner_text(w));
        }
        for (i, m) in a.moves.iter().enumerate() {
            let text = if a.distances {
                m.value.to_string()
            } else {
                m.value.result().to_string()
            };
            outln!(
                "{:indent$}{} {:<16} {text}",
                "",
                a.position.side().name(),
                m.mv.to_string()
            );
            if let Some(next) = t.after.get(i) {
                walk(next, indent + 4);
            }
        }
    }
    walk(t, 2);
}

/// Summary of `asalto build`.
pub fn build_summary(
    runs: &[(Variant, Vec<asalto_tb::build::FileReport>, f64)],
    dir: &std::path::Path,
    ranks: usize,
    json: bool,
    stop: Option<&asalto_tb::build::Stop>,
) {
    let peak = asalto_tb::build::peak_rss_bytes();
    // Where a stopped build stopped.
    let stopped = stop.map(|s| {
        json!({
            "file": s.file().to_string(), "officers": s.file.officers(), "soldiers": s.file.soldiers(),
            "positions_done": s.positions_done, "positions": s.positions,
            "seconds": s.seconds, "earlier_seconds": s.earlier_seconds,
            "peak_anon_bytes": s.peak_anon_bytes, "peak_rss_bytes": s.peak_rss_bytes,
            "block_cache_bytes": s.block_cache_bytes,
            "wdl_blocks_read": s.wdl_blocks_read,
            "wdl_blocks_decompressed": s.wdl_blocks_decompressed,
        })
    });
    if json {
        let list: Vec<Json> = runs
            .iter()
            .map(|(v, reports, secs)| {
                let files: Vec<Json> = reports.iter().map(file_report_json).collect();
                json!({"variant": v.to_string(), "seconds": secs, "files": files})
            })
            .collect();
        outln!(
            "{}",
            json!({
                "tables": dir.display().to_string(),
                "ranks": ranks,
                "peak_rss_bytes": peak,
                "builds": list,
                "stopped": stopped,
            })
        );
        return;
    }
    for (v, reports, secs) in runs {
        build_table_text(v, reports, *secs, dir);
    }
    if let Some(p) = peak {
        outln!("peak memory: {:.2} GiB", p as f64 / (1u64 << 30) as f64);
    }
}

/// A built file's line of `asalto build --json`.
fn file_report_json(r: &asalto_tb::build::FileReport) -> Json {
    let i = &r.info;
    json!({
        "file": r.file().to_string(),
        "officers": r.file.officers(), "soldiers": r.file.soldiers(),
        "skipped": r.skipped, "seconds": r.seconds,
        "earlier_seconds": r.earlier_seconds,
        "window_peak_bytes": r.window_peak_bytes,
        "window_budget_bytes": r.window_budget_bytes,
        "block_cache_bytes": r.block_cache_bytes,
        "wdl_blocks_read": r.wdl_blocks_read,
        "wdl_blocks_decompressed": r.wdl_blocks_decompressed,
        "resumed_positions": r.resumed_positions,
        "checkpoints": r.checkpoints,
        "peak_anon_bytes": r.peak_anon_bytes,
        "peak_rss_bytes": r.peak_rss_bytes,
        "ranks": r.ranks,
        "positions": i.positions, "wins": i.wins, "draws": i.draws,
        "losses": i.losses, "longest_win": i.longest_win,
        "bytes": i.file_bytes, "index_crc": i.index_crc,
        "wdl_bits_per_position": i.wdl_bits_per_position(),
        "bits_per_position": i.bits_per_position(),
    })
}

/// One variant's table of `asalto build`'s text summary: a line a file
/// and the total, `secs` the variant's build time.
fn build_table_text(
    v: &Variant,
    reports: &[asalto_tb::build::FileReport],
    secs: f64,
    dir: &std::path::Path,
) {
    outln!("variant {v}: tables under {}", dir.join(v.slug()).display());
    outln!(
        "  {:<6} {:>14} {:>7} {:>7} {:>7} {:>8} {:>12} {:>9} {:>9}",
        "file",
        "positions",
        "win%",
        "draw%",
        "loss%",
        "longest",
        "bytes",
        "bits/pos",
        "seconds"
    );
    let (mut pos, mut bytes, mut w, mut d, mut l) = (0u64, 0u64, 0u64, 0u64, 0u64);
    for r in reports {
        let i = &r.info;
        let pct = |x: u64| 100.0 * x as f64 / i.positions.max(1) as f64;
        outln!(
            "  {:<6} {:>14} {:>7.2} {:>7.2} {:>7.2} {:>8} {:>12} {:>9.3} {:>9}",
            r.file().to_string(),
            i.positions,
            pct(i.wins),
            pct(i.draws),
            pct(i.losses),
            i.longest_win,
            i.file_bytes,
            i.bits_per_position(),
            if r.skipped {
                "skipped".to_string()
            } else if r.earlier_seconds > 0.0 {
                // Resumed: this run's time and that of the runs before.
                format!("{:.1}+{:.1}", r.seconds, r.earlier_seconds)
            } else {
                format!("{:.1}", r.seconds)
            }
        );
        pos += i.positions;
        bytes += i.file_bytes;
        w += i.wins;
        d += i.draws;
        l += i.losses;
    }
    outln!(
        "  total: {pos} positions (both sides to move, after the mirror): {w} wins, {d} draws, {l} losses for the side to move; {bytes} bytes ({:.3} bits/position); {secs:.1} s",
        bytes as f64 * 8.0 / pos.max(1) as f64
    );
}

/// Result of `asalto verify`.
/// The object of `asalto verify --json`.
fn verify_json(r: &asalto_tb::verify::VerifyReport, variant: &Variant) -> Json {
    let bad: Vec<Json> = r
        .bad
        .iter()
        .map(|b| {
            json!({
                "file": b.file.display().to_string(),
                "position": b.position.to_string(),
                "stored": {"result": b.stored.result(), "plies": b.stored.plies()},
                "derived": {"result": b.derived.result(), "plies": b.derived.plies()},
            })
        })
        .collect();
    json!({
        "variant": variant.to_string(),
        // The floor the files are of (null: exact tables).
        "floor": floor_json(r.floor),
        "files": r.files.iter().map(|f| f.path.display().to_string()).collect::<Vec<_>>(),
        "tiers": r.tiers, "positions": r.positions,
        "inconsistent": r.bad_count, "examples": bad,
        "ok": r.bad_count == 0 && r.stopped.is_none() && r.failed.is_empty(),
        // The files that could not be checked, each with its error.
        "failed": r.failed.iter().map(|f| json!({
            "file": f.path.display().to_string(), "error": f.error,
        })).collect::<Vec<_>>(),
        "per_file": r.files.iter().map(|f| json!({
            "file": f.path.display().to_string(), "positions": f.positions,
            "resumed_positions": f.resumed_positions, "seconds": f.seconds,
            "earlier_seconds": f.earlier_seconds, "wdl_only": f.wdl_only,
            "checker": f.checker.name(),
            "bytes": f.file_bytes, "index_crc": f.index_crc,
            "inconsistent": f.inconsistent, "proved_by": f.proved_by,
        })).collect::<Vec<_>>(),
        "stopped": r.stopped.as_ref().map(|s| json!({
            "file": s.path.display().to_string(), "positions_done": s.positions_done,
            "positions": s.positions, "seconds": s.seconds,
            "earlier_seconds": s.earlier_seconds,
        })),
    })
}

pub fn verify(r: &asalto_tb::verify::VerifyReport, variant: &Variant, json: bool) {
    if json {
        outln!("{}", verify_json(r, variant));
        return;
    }
    for f in &r.failed {
        outln!("cannot check {}: {}", f.path.display(), f.error);
    }
    for f in &r.files {
        if let Some(source) = &f.proved_by {
            outln!(
                "proved {}: {} positions, by the record {source} (the same bytes and index \
                 checksum there, and the files below it too); its block checksums checked here",
                f.path.display(),
                f.positions,
            );
            continue;
        }
        let earlier = match f.resumed_positions {
            0 => String::new(),
            p if p == f.positions => " (all checked by an earlier run)".to_string(),
            p => format!(" ({p} of them by an earlier run)"),
        };
        let earlier_time = if f.earlier_seconds > 0.0 {
            format!(" (+{:.1} s by earlier runs)", f.earlier_seconds)
        } else {
            String::new()
        };
        let how = if f.wdl_only {
            let by = match f.checker {
                asalto_tb::solve::Checker::Sets => "by sets",
                asalto_tb::solve::Checker::Positions => "position by position",
            };
            format!(" (WDL-only: win/draw/loss re-derived as each tier's least fixed point, {by})")
        } else {
            String::new()
        };
        outln!(
            "checked {}: {} positions{earlier} in {:.1} s{earlier_time}{how}",
            f.path.display(),
            f.positions,
            f.seconds,
        );
    }
    for b in &r.bad {
        outln!(
            "INCONSISTENT {}: {} stored {}, its moves give {}",
            b.file.display(),
            b.position,
            b.stored,
            b.derived
        );
    }
    if r.bad_count == 0 && r.stopped.is_none() && r.failed.is_empty() {
        let wdl = r.files.iter().filter(|f| f.wdl_only).count();
        let proved = r.files.iter().filter(|f| f.proved_by.is_some()).count();
        outln!(
            "verified {variant}{}: {} tables, {} tiers, {} positions, every value proved from its moves{}{}",
            match r.floor {
                Some(f) =>
                    format!(" above the floor ({f}: values of that game, bounds on the real one)"),
                None => String::new(),
            },
            r.files.len(),
            r.tiers,
            r.positions,
            match wdl {
                0 => String::new(),
                n => format!(" ({n} WDL-only: win/draw/loss, draws included)"),
            },
            match proved {
                0 => String::new(),
                n => format!(
                    " ({n} of the tables by an earlier verify's record, for the same contents)"
                ),
            }
        );
    }
}

/// `asalto info`; the number of files that could not be read. A table
/// with fewer tiers than its file has (a closure's, `build --for`) is
/// marked partial, and each table being written (its temporary file or
/// checkpoint there: a build in progress, or stopped) is listed after the
/// tables, with how far its checkpoint got.
pub fn info(dir: &std::path::Path, json: bool) -> usize {
    let list = asalto_tb::table::list(dir);
    let unfinished = asalto_tb::build::unfinished(dir);
    let bad = list.iter().filter(|(_, r)| r.is_err()).count();
    let complete_tiers =
        |i: &asalto_tb::table::TableInfo| asalto_tb::index::complete_tiers(i.file.soldiers());
    if json {
        let items: Vec<Json> = list
            .iter()
            .map(|(p, r)| match r {
                Ok(i) => json!({
                    "file": p.display().to_string(), "variant": i.variant.to_string(),
                    "officers": i.file.officers(), "soldiers": i.file.soldiers(), "tiers": i.tiers, "positions": i.positions,
                    "complete": i.tiers == complete_tiers(i), "complete_tiers": complete_tiers(i),
                    "wins": i.wins, "draws": i.draws, "losses": i.losses,
                    "longest_win": i.longest_win, "bytes": i.file_bytes,
                    // With bytes, the identity of the contents (as the
                    // build and verify records name it).
                    "index_crc": i.index_crc,
                    "wdl_bits_per_position": i.wdl_bits_per_position(),
                    "bits_per_position": i.bits_per_position(),
                    "format_version": i.format_version, "tool_version": i.tool_version,
                    "wdl_only": i.wdl_only, "order": i.order.to_string(),
                    "wdl_block_positions": i.wdl_block_positions, "zstd_level": i.zstd_level,
                    "floor": floor_json(i.floor),
                }),
                Err(e) => json!({"file": p.display().to_string(), "error": e.to_string()}),
            })
            .collect();
        let in_progress: Vec<Json> = unfinished.iter().map(unfinished_json).collect();
        outln!("{}", json!({ "tables": items, "in_progress": in_progress }));
        return bad;
    }
    if list.is_empty() {
        outln!("no tables under {}", dir.display());
    } else {
        outln!(
            "{:<40} {:<12} {:>5} {:>14} {:>8} {:>12} {:>9} {:>9} {:>8}",
            "file",
            "variant",
            "mat.",
            "positions",
            "longest",
            "bytes",
            "bits/pos",
            "kind",
            "built by"
        );
    }
    for (p, r) in &list {
        match r {
            Ok(i) => outln!(
                "{:<40} {:<12} {:>5} {:>14} {:>8} {:>12} {:>9.3} {:>9} {:>8}{}",
                p.display().to_string(),
                i.variant.to_string(),
                i.file.to_string(),
                i.positions,
                if i.wdl_only {
                    "-".to_string()
                } else {
                    i.longest_win.to_string()
                },
                i.file_bytes,
                i.bits_per_position(),
                format!(
                    "{}v{}",
                    if i.wdl_only { "wdl " } else { "dtm " },
                    i.format_version
                ),
                i.tool_version,
                if i.tiers == complete_tiers(i) {
                    String::new()
                } else {
                    format!("  partial: {} of {} tiers", i.tiers, complete_tiers(i))
                } + &match i.floor {
                    Some(f) => format!("  floor: {f} (bounds, not values)"),
                    None => String::new(),
                }
            ),
            Err(e) => outln!("{:<40} error: {e}", p.display().to_string()),
        }
    }
    for u in &unfinished {
        outln!(
            "{:<40} {}",
            u.table.display().to_string(),
            unfinished_text(u)
        );
    }
    bad
}

/// A file's floor as JSON: `null` for an exact table, else `{"soldiers":
/// K, "assume": "officers"}`.
pub(crate) fn floor_json(floor: Option<asalto_tb::solve::Floor>) -> Json {
    match floor {
        None => Json::Null,
        Some(f) => json!({ "soldiers": f.k(), "assume": f.assume().name() }),
    }
}

/// What `asalto info` says of a table being written, in words.
fn unfinished_text(u: &asalto_tb::build::Unfinished) -> String {
    match &u.checkpoint {
        Some(Ok(c)) => {
            let done = c.positions_done;
            format!(
                "being built{}: its checkpoint holds {done} of {} positions ({:.1}%, {} of {} tiers); a build of it run again goes on from there",
                if c.wdl_only { " (WDL-only)" } else { "" },
                c.positions,
                100.0 * done as f64 / c.positions.max(1) as f64,
                c.tiers_done,
                c.tiers
            )
        }
        Some(Err(e)) => format!(
            "being built: its checkpoint cannot be used ({e}); a build starts the file again"
        ),
        None => "being written: no checkpoint yet (a build or a repack running, or stopped before its first checkpoint)".to_string(),
    }
}

/// What `asalto info --json` says of a table being written.
fn unfinished_json(u: &asalto_tb::build::Unfinished) -> Json {
    let checkpoint = match &u.checkpoint {
        None => Json::Null,
        Some(Ok(c)) => json!({
            "variant": c.variant, "officers": c.file.officers(),
            "soldiers": c.file.soldiers(), "tiers": c.tiers,
            "positions": c.positions, "wdl_only": c.wdl_only,
            "tiers_done": c.tiers_done, "positions_done": c.positions_done,
        }),
        Some(Err(e)) => json!({ "error": e.to_string() }),
    };
    json!({
        "file": u.table.display().to_string(),
        "temporary": u.temporary,
        "checkpoint": checkpoint,
    })
}

/// What `asalto check-floor` found: per file, the positions compared,
/// decided by the floors and outside their bracket (text or JSON).
pub fn check_floor(
    c: &asalto_tb::bracket::Comparison,
    variant: &Variant,
    seconds: f64,
    json: bool,
) {
    let side = |v: i8| match v {
        1 => "soldiers win",
        0 => "draw",
        _ => "officers win",
    };
    let floors: Vec<String> = c.floors.iter().map(|f| f.folder()).collect();
    if json {
        let files: Vec<Json> = c
            .files
            .iter()
            .map(|f| {
                json!({
                    "file": f.file.to_string(), "tiers": f.tiers, "positions": f.positions,
                    "decided": f.decided, "undecided": f.positions - f.decided,
                    "soldiers_win_proved": f.soldiers_win, "officers_win_proved": f.officers_win,
                    "outside": f.outside,
                    "first_outside": f.first_outside.as_ref().map(|o| json!({
                        "position": o.position, "real": side(o.real),
                        "lower": side(o.lower), "upper": side(o.upper),
                    })),
                })
            })
            .collect();
        outln!(
            "{}",
            json!({
                "variant": variant.to_string(), "floor": c.k, "floors": floors,
                "positions": c.positions(), "decided": c.decided(), "outside": c.outside(),
                "ok": c.outside() == 0, "seconds": seconds, "files": files,
            })
        );
        return;
    }
    outln!(
        "{variant}: the files above the floor of {} soldiers ({}) against the exact files, every position (decided: the floors' bracket closed; outside: the exact value outside it)",
        c.k,
        floors.join(" and ")
    );
    outln!(
        "  {:<7} {:>9} {:>16} {:>16} {:>16} {:>16} {:>8}",
        "file",
        "tiers",
        "positions",
        "decided",
        "soldiers win",
        "officers win",
        "outside"
    );
    for f in &c.files {
        outln!(
            "  {:<7} {:>9} {:>16} {:>16} {:>16} {:>16} {:>8}",
            f.file.to_string(),
            f.tiers,
            f.positions,
            f.decided,
            f.soldiers_win,
            f.officers_win,
            f.outside
        );
        if let Some(o) = &f.first_outside {
            outln!(
                "    first outside: {}: exact {}, bracket [{}, {}]",
                o.position,
                side(o.real),
                side(o.lower),
                side(o.upper)
            );
        }
    }
    outln!(
        "{} positions compared in {seconds:.1} s, {} decided ({:.2} %), {} outside their bracket",
        c.positions(),
        c.decided(),
        100.0 * c.decided() as f64 / c.positions().max(1) as f64,
        c.outside()
    );
}
