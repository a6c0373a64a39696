//! PDN for the page, through the project's PDN code: `POST /pdn/read` takes
//! PDN text and answers the first game as JSON (rules, start FEN, moves in
//! the engine's notation); `POST /pdn/write` takes a game as JSON and
//! answers PDN text. Every move is replayed through the rules core; an
//! illegal one is an error naming it.

use anyhow::{anyhow, Context};
use serde_json::{json, Value};
use tama_engine::notation::pdn::{movetext, read_pdn, write_start_tags, write_tag, Outcome};
use tama_engine::rules::parse_bool;
use tama_engine::rules::OptionName;
use tama_engine::{Move, Position, Rules};

/// The page names the rule options as the engine does (their UCI names,
/// which the engine owns), with the label the board shows for each.
const RULE_LABELS: [(OptionName, &str); 3] = [
    (Rules::VARIANT_OPTION, "Variant"),
    (Rules::CAPTURE_REMOVAL_OPTION, "Captured pieces leave"),
    (Rules::MID_CAPTURE_PROMOTION_OPTION, "Crowned mid-capture"),
];

/// `GET /rules`: the rule options the page offers, in order, as
/// `[{"name": UCI name, "label": text}]`; their values come from the
/// engine's own `option` lines.
pub fn rule_options() -> String {
    let list: Vec<Value> = RULE_LABELS
        .iter()
        .map(|(option, label)| json!({ "name": option.uci, "label": label }))
        .collect();
    Value::Array(list).to_string()
}

fn rules_json(rules: Rules) -> Value {
    Value::Object(
        rules
            .options()
            .into_iter()
            .map(|(option, value)| (option.uci.to_string(), Value::String(value)))
            .collect(),
    )
}

pub(super) fn rules_from_json(v: &Value) -> anyhow::Result<Rules> {
    let field = |option: OptionName| {
        v.get(option.uci)
            .and_then(Value::as_str)
            .ok_or_else(|| anyhow!("rules.{} is missing", option.uci))
    };
    Ok(Rules {
        variant: field(Rules::VARIANT_OPTION)?.parse()?,
        capture_removal: field(Rules::CAPTURE_REMOVAL_OPTION)?.parse()?,
        mid_capture_promotion: parse_bool(field(Rules::MID_CAPTURE_PROMOTION_OPTION)?)
            .map_err(|e| anyhow!("rules.{}: {e}", Rules::MID_CAPTURE_PROMOTION_OPTION.uci))?,
    })
}

/// PDN text -> the first game, as JSON for the page.
pub fn read(body: &[u8]) -> anyhow::Result<String> {
    let text = std::str::from_utf8(body).map_err(|_| anyhow!("the PDN is not UTF-8 text"))?;
    let games = read_pdn(text, Rules::default())?;
    let game = games.first().context("no game in that PDN")?;
    let rules = game.start.rules();
    let mut pos = game.start;
    let mut moves = Vec::with_capacity(game.moves.len());
    for m in &game.moves {
        moves.push(pos.move_text(m));
        pos = pos.play(m);
    }
    Ok(json!({
        "rules": rules_json(rules),
        "fen": game.start.fen(),
        "moves": moves,
        "result": game.result.clone().unwrap_or_else(|| "*".into()),
        "white": game.tag("White").unwrap_or("?"),
        "black": game.tag("Black").unwrap_or("?"),
        "event": game.tag("Event").unwrap_or("?"),
        "count": games.len(),
    })
    .to_string())
}

/// The page's game (`rules`, `fen`, `moves`) as a start position and its
/// moves, each replayed; an illegal one is an error naming its ply.
pub(super) fn game_from_json(v: &Value) -> anyhow::Result<(Position, Vec<Move>)> {
    let rules = rules_from_json(v.get("rules").context("rules are missing")?)?;
    let fen = v
        .get("fen")
        .and_then(Value::as_str)
        .context("fen is missing")?;
    let start = Position::from_fen(fen, rules)?;
    let mut pos = start;
    let mut moves = Vec::new();
    for (i, m) in v
        .get("moves")
        .and_then(Value::as_array)
        .context("moves are missing")?
        .iter()
        .enumerate()
    {
        let t = m.as_str().context("moves must be strings")?;
        let mv = pos
            .parse_move(t)
            .map_err(|e| anyhow!("ply {}: {t}: {e}", i + 1))?;
        pos = pos.play(&mv);
        moves.push(mv);
    }
    Ok((start, moves))
}

/// A game as JSON from the page -> PDN text.
pub fn write(body: &[u8]) -> anyhow::Result<String> {
    let v: Value = serde_json::from_slice(body).map_err(|e| anyhow!("bad JSON: {e}"))?;
    let text = |name: &str, default: &str| -> String {
        v.get(name)
            .and_then(Value::as_str)
            .unwrap_or(default)
            .to_string()
    };
    let (start, moves) = game_from_json(&v)?;
    let result = text("result", "*");
    if result != "*" && Outcome::parse(&result).is_none() {
        return Err(anyhow!("result {result:?} is not 2-0, 1-1, 0-2 or *"));
    }
    let mut s = String::new();
    for (k, val) in [
        ("Event", text("event", "Tama gui")),
        ("Site", "?".to_string()),
        ("Date", text("date", "????.??.??")),
        ("Round", "-".to_string()),
        ("White", text("white", "?")),
        ("Black", text("black", "?")),
        ("Result", result.clone()),
    ] {
        write_tag(&mut s, k, &val);
    }
    write_start_tags(&mut s, &start);
    write_tag(&mut s, "PlyCount", &moves.len().to_string());
    s.push('\n');
    s.push_str(&movetext(&start, &moves, &result));
    s.push('\n');
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_written_reads_back_the_same() {
        // Turkish, from a set-up position: White must take d5 (d4xd6),
        // Black steps forward, White steps forward; then from the start
        // position, a double capture that crowns (d4 takes d5 and d7).
        let game = json!({
            "rules": {"Variant": "turkish", "CaptureRemoval": "deferred", "MidCapturePromotion": "true"},
            "fen": "W:Wa2,d4:Bd5,a7",
            "moves": ["d4xd6", "a7-a6", "a2-a3"],
            "result": "*", "white": "You", "black": "Tama", "date": "2026.01.02",
        });
        let pdn = write(game.to_string().as_bytes()).unwrap();
        assert!(pdn.contains("[GameType \"30\"]"), "{pdn}");
        assert!(pdn.contains("[Date \"2026.01.02\"]"), "{pdn}");
        assert!(pdn.contains("1. d4xd6 a7-a6 2. a2-a3 *"), "{pdn}");
        let back: Value = serde_json::from_str(&read(pdn.as_bytes()).unwrap()).unwrap();
        assert_eq!(back["rules"], game["rules"]);
        assert_eq!(back["fen"], "W:Wa2,d4:Bd5,a7");
        assert_eq!(back["moves"], game["moves"]);
        assert_eq!(back["white"], "You");
        assert_eq!(back["result"], "*");

        let start = Position::startpos(Rules::default()).fen();
        let mut crowned = game.clone();
        crowned["fen"] = json!(start);
        crowned["moves"] = json!(["d3-d4", "d6-d5", "d4xd6xd8", "c7-d7"]);
        crowned["result"] = json!("2-0");
        let pdn = write(crowned.to_string().as_bytes()).unwrap();
        assert!(
            pdn.contains("1. d3-d4 d6-d5 2. d4xd6xd8 c7-d7 2-0"),
            "{pdn}"
        );
        let back: Value = serde_json::from_str(&read(pdn.as_bytes()).unwrap()).unwrap();
        assert_eq!(back["moves"], crowned["moves"]);
        assert_eq!(back["result"], "2-0");
    }

    #[test]
    fn illegal_or_malformed_games_are_refused_with_the_reason() {
        let base = json!({
            "rules": {"Variant": "armenian", "CaptureRemoval": "immediate", "MidCapturePromotion": "false"},
            "fen": "W:Wa2,d4:Bd5,a7", "moves": ["a2-a3"], "result": "*",
        });
        let e = write(base.to_string().as_bytes()).unwrap_err().to_string();
        assert!(
            e.contains("ply 1: a2-a3") && e.contains("capture is compulsory"),
            "{e}"
        );
        let mut bad = base.clone();
        bad["rules"]["Variant"] = json!("russian");
        assert!(write(bad.to_string().as_bytes()).is_err());
        let mut bad = base.clone();
        bad["moves"] = json!(["d4xd6"]);
        bad["result"] = json!("3-0");
        assert!(write(bad.to_string().as_bytes())
            .unwrap_err()
            .to_string()
            .contains("3-0"));
        assert!(write(b"{not json")
            .unwrap_err()
            .to_string()
            .starts_with("bad JSON"));
        let e = read(b"[Variant \"armenian\"]\n1. d3-d5 *")
            .unwrap_err()
            .to_string();
        assert!(e.contains("d3-d5"), "{e}");
        assert_eq!(read(b"   ").unwrap_err().to_string(), "no game in that PDN");
    }
}
