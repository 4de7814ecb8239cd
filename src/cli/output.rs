//! Human and JSON output of the commands.

use anyhow::Result;
use asalto_tb::board;
use asalto_tb::probe::Analysis;
use asalto_tb::{Position, Side, Variant, rules};
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
                println!("{}", json!({ "presets": list }));
            } else {
                println!("Presets (one for each rule sheet in seeds/; RULES.md section 7):\n");
                for (n, v, src) in Variant::PRESETS {
                    println!("  {n:<11} {:<62} {src}", v.switches());
                }
                println!(
                    "\nAny combination of the four switches is a variant too (24 in all), e.g.\n  \
                     --variant soldiers=forward,capture=mandatory,max=off,trapped=soldiers-win\n\
                     Explain one with: asalto rules --variant NAME"
                );
            }
        }
        Some(text) => {
            let v: Variant = text.parse()?;
            if json {
                println!(
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
                println!("{v}: {}", v.switches());
                for line in v.describe() {
                    println!("  {line}");
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
        println!(
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
    print!("{}", pos.diagram());
    println!();
    println!("{pos}");
    println!(
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
        Some(w) => println!("game over ({variant}): {}", winner_text(w)),
        None => {
            print!("{} to move", pos.side().name());
            if pos.huff() != 0 {
                print!(", may first huff {}", names(pos.huff()).join(" or "));
            }
            println!();
        }
    }
}

/// `asalto moves`.
pub fn moves(pos: &Position, variant: &Variant, json: bool) {
    let moves = rules::legal_moves(pos, variant);
    if json {
        let list: Vec<Json> = moves
            .iter()
            .map(|m| {
                json!({
                    "move": m.to_string(),
                    "taken": m.taken().count_ones(),
                    "fault": m.is_fault(),
                    "huffable": names(m.offenders()),
                    "result": rules::play(pos, variant, m).to_string(),
                })
            })
            .collect();
        println!(
            "{}",
            json!({"position": pos.to_string(), "variant": variant.to_string(), "moves": list})
        );
        return;
    }
    for m in &moves {
        if m.is_fault() {
            println!("{m}  fault: may huff {}", names(m.offenders()).join(","));
        } else {
            println!("{m}");
        }
    }
    if moves.is_empty() {
        match rules::outcome(pos, variant) {
            Some(w) => eprintln!("no moves: game over, {}", winner_text(w)),
            None => eprintln!("no moves"),
        }
    }
}

/// `asalto query` / `asalto solve`.
pub fn analysis(a: &Analysis, variant: &Variant, json: bool) {
    if json {
        let moves: Vec<Json> = a
            .moves
            .iter()
            .map(|m| {
                json!({
                    "move": m.mv.to_string(),
                    "result": m.value.result(),
                    "plies": m.value.plies(),
                })
            })
            .collect();
        println!(
            "{}",
            json!({
                "position": a.position.to_string(),
                "variant": variant.to_string(),
                "result": a.value.result(),
                "plies": a.value.plies(),
                "moves": moves,
            })
        );
        return;
    }
    let side = a.position.side().name();
    match a.over {
        Some(w) => println!("{}: game over, {}", a.position, winner_text(w)),
        None => println!("{}: {side} to move, {}", a.position, a.value),
    }
    for m in &a.moves {
        let fault = if m.mv.is_fault() { "  (fault)" } else { "" };
        println!("  {:<16} {}{fault}", m.mv.to_string(), m.value);
    }
}
