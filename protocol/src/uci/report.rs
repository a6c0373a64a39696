//! What the UCI dialect prints: search output (`UciReporter`), the
//! `option` lines of `uci`, and the text of `d` and `legalmoves`.

use crate::options::{definitions, Kind, OptionDef, Settings, UCI_EMPTY};
use crate::session::{checked_line, Reporter};
use crate::text::one_line;
use tama_engine::movegen::{capture_routes, legal_moves};
use tama_engine::search::{Bound, Score, SearchInfo, SearchOutcome};
use tama_engine::{Game, GameStatus, Piece, Position, Square};

/// Formats search output the UCI way.
pub struct UciReporter;

fn score_text(score: Score, bound: Bound) -> String {
    let s = match score {
        Score::Cp(cp) => format!("score cp {cp}"),
        Score::Mate(n) => format!("score mate {n}"),
    };
    match bound {
        Bound::Exact => s,
        Bound::Lower => s + " lowerbound",
        Bound::Upper => s + " upperbound",
    }
}

impl Reporter for UciReporter {
    fn info(&self, root: &Position, i: &SearchInfo) -> Option<String> {
        let mut s = format!(
            "info depth {} seldepth {} multipv {} {} nodes {} nps {} hashfull {} tbhits {} time {}",
            i.depth,
            i.seldepth,
            i.multipv,
            score_text(i.score, i.bound),
            i.nodes,
            i.nps,
            i.hashfull,
            i.tbhits,
            i.time.as_millis()
        );
        let line = checked_line(root, &i.pv);
        if !line.is_empty() {
            s.push_str(" pv");
            for (p, m) in &line {
                s.push(' ');
                s.push_str(&p.move_text(m));
            }
        }
        Some(s)
    }

    fn error(&self, msg: &str) -> String {
        format!("info string error: {}", one_line(msg))
    }

    fn note(&self, msg: &str) -> String {
        format!("info string {}", one_line(msg))
    }

    fn remark(&self, msg: &str) -> Option<String> {
        Some(self.note(msg))
    }

    fn best(&self, root: &Position, o: &SearchOutcome) -> String {
        match o.best_move {
            None => "bestmove (none)".to_string(),
            Some(m) => {
                let mut s = format!("bestmove {}", root.move_text(&m));
                if let Some(p) = o.ponder_move {
                    s.push_str(&format!(" ponder {}", root.play(&m).move_text(&p)));
                }
                s
            }
        }
    }
}

/// The `option name ...` line `uci` prints for `d` (`default`: its value in a new engine).
pub fn option_line(d: &OptionDef, default: &str) -> String {
    let name = d.uci;
    match &d.kind {
        Kind::Spin { min, max } => {
            format!("option name {name} type spin default {default} min {min} max {max}")
        }
        Kind::Check => format!("option name {name} type check default {default}"),
        Kind::Combo { values } => {
            let vars: Vec<String> = values.iter().map(|v| format!("var {v}")).collect();
            format!(
                "option name {name} type combo default {default} {}",
                vars.join(" ")
            )
        }
        Kind::Button => format!("option name {name} type button"),
        Kind::Text => {
            let default = if default.is_empty() {
                UCI_EMPTY
            } else {
                default
            };
            format!("option name {name} type string default {default}")
        }
    }
}

/// The `legalmoves` command, for a GUI that implements no rule itself: one
/// `legalmove <route> [captures <sq>..] [promotes]` line per way of playing
/// each legal move (every route of a capture, its victims in jump order),
/// then `legalmoves <n> state <state> fen <FEN>` with n distinct moves.
pub fn legal_moves_text(game: &Game) -> String {
    let pos = game.position();
    let legal = legal_moves(pos);
    let promotes = |yes: bool| if yes { " promotes" } else { "" };
    let mut out = String::new();
    if legal.first().is_some_and(|m| m.is_capture()) {
        for r in capture_routes(pos) {
            let victims: Vec<String> = r.victims().iter().map(|v| v.to_string()).collect();
            out.push_str(&format!(
                "legalmove {} captures {}{}\n",
                r.text(),
                victims.join(" "),
                promotes(r.mv.promotes)
            ));
        }
    } else {
        for m in &legal {
            out.push_str(&format!(
                "legalmove {}{}\n",
                pos.move_text(m),
                promotes(m.promotes)
            ));
        }
    }
    let state = match game.status() {
        GameStatus::Ongoing => "ongoing".to_string(),
        GameStatus::Won(c) => format!("won-by-{}", c.name()),
        GameStatus::DrawByRepetition => "drawn-by-repetition".to_string(),
    };
    out.push_str(&format!(
        "legalmoves {} state {state} fen {}",
        legal.len(),
        pos.fen()
    ));
    out
}

/// The `d` command: the board, FEN, side to move, rules, legal moves, state,
/// how many searches of the session failed (`faults`), the value of every
/// option but the buttons, and last the game's state.
pub fn display(game: &Game, settings: &Settings, faults: u64) -> String {
    let pos = game.position();
    let mut s = String::from("   +-----------------+\n");
    for rank in (0..8u8).rev() {
        s.push_str(&format!(" {} |", rank + 1));
        for file in 0..8u8 {
            let sq = Square::from_coords(file, rank).expect("on the board");
            let c = pos.piece_at(sq).map_or('.', Piece::letter);
            s.push(' ');
            s.push(c);
        }
        s.push_str(" |\n");
    }
    s.push_str("   +-----------------+\n     a b c d e f g h\n");
    let us = pos.side_to_move();
    s.push_str(&format!("Fen: {}\n", pos.fen()));
    s.push_str(&format!("Side to move: {}\n", us.name()));
    let r = pos.rules();
    s.push_str(&format!(
        "Rules: Variant {} CaptureRemoval {} MidCapturePromotion {}\n",
        r.variant, r.capture_removal, r.mid_capture_promotion
    ));
    let legal = legal_moves(pos);
    let names: Vec<String> = legal.iter().map(|m| pos.move_text(m)).collect();
    s.push_str(&format!(
        "Legal moves ({}): {}\n",
        names.len(),
        names.join(" ")
    ));
    s.push_str(&format!(
        "Moves played: {}, repetitions of this position: {}\n",
        game.moves().len(),
        game.repetitions()
    ));
    let state = match game.status() {
        GameStatus::Ongoing => "ongoing".to_string(),
        GameStatus::Won(c) => format!(
            "lost for {} (no legal move), won by {}",
            us.name(),
            c.name()
        ),
        GameStatus::DrawByRepetition => "threefold repetition (draw)".to_string(),
    };
    s.push_str(&format!(
        "Search faults: {faults} (searches that failed and were answered with the first legal move)\n"
    ));
    for d in definitions() {
        if d.kind != Kind::Button {
            let value = settings.value_text(d.opt);
            s.push_str(&format!("Option {}: {value}\n", d.uci));
        }
    }
    s.push_str(&format!("Game state: {state}"));
    s
}
