//! The tables against played games: `tama egtb audit` (database wins that a
//! game did not convert) and `tama egtb starts` (endgame starts for a match
//! with and without the tables, harvested from games).

use crate::cli::{EgtbAuditArgs, EgtbStartsArgs};
use anyhow::{bail, Result};
use std::collections::HashSet;
use tama_engine::egtb::{Tablebase, Value, Wdl};
use tama_engine::notation::pdn::{read_pdn_file, Outcome, PdnGame};
use tama_engine::search::{Score, SearchControl, SearchLimits, Searcher};
use tama_engine::{movegen, Color, Game, Position};

/// The first position of a game where the side to move had a database win
/// that the game's result does not show.
#[derive(Debug, PartialEq)]
pub struct Miss {
    /// Plies played before the position (0: the game's start).
    pub ply: usize,
    /// The position.
    pub fen: String,
    /// What the tables say, for the side to move.
    pub value: Value,
    /// The side that had the win.
    pub winner: Color,
}

/// What the audit found in one game.
#[derive(Debug, PartialEq)]
pub struct GameAudit {
    /// Whether some position of the game was in the tables.
    pub reached: bool,
    /// The first won position not won, if any.
    pub miss: Option<Miss>,
}

/// Replays `game` and probes every position within the complete tables
/// (the start, after each move, and the end): the first one whose side to
/// move has a win while the game's result is not that side's win is a miss.
pub fn audit_game(tb: &Tablebase, game: &PdnGame) -> GameAudit {
    let limit = tb.complete_pieces();
    let result = game.result.as_deref().and_then(Outcome::parse);
    let mut reached = false;
    for (ply, pos) in game.positions().enumerate() {
        if pos.occupied().count() > limit {
            continue;
        }
        let Some(value) = tb.probe(&pos) else {
            continue;
        };
        reached = true;
        let winner = pos.side_to_move();
        if value.wdl == Wdl::Win && result != Some(Outcome::win_for(winner)) {
            return GameAudit {
                reached,
                miss: Some(Miss {
                    ply,
                    fen: pos.fen(),
                    value,
                    winner,
                }),
            };
        }
    }
    GameAudit {
        reached,
        miss: None,
    }
}

/// `tama egtb audit`: a line per game with a miss, and a summary last:
/// `audit: G games, R reached the tables, M won positions not won (games ...)`.
pub fn audit_command(a: &EgtbAuditArgs) -> Result<()> {
    let rules = a.place.rules.rules();
    let tb = Tablebase::open(&a.place.dir, rules)?;
    if tb.complete_pieces() < 2 {
        bail!(
            "{}: the 2-piece tables are not all there",
            a.place.dir.display()
        );
    }
    let games = read_pdn_file(&a.pdn, rules)?;
    let (mut reached, mut missed) = (0, Vec::new());
    // Misses per player (the PDN's White or Black tag of the side that had the win).
    let mut by_player: Vec<(String, usize)> = Vec::new();
    for (i, game) in games.iter().enumerate() {
        let audit = audit_game(&tb, game);
        reached += usize::from(audit.reached);
        if let Some(m) = audit.miss {
            let (side, tag) = match m.winner {
                Color::White => ("White", "White"),
                Color::Black => ("Black", "Black"),
            };
            let player = game.tag(tag).unwrap_or("?").to_string();
            println!(
                "game {}: ply {}, {side} ({player}) to move had {} in {}, the game ended {}",
                i + 1,
                m.ply,
                m.value,
                m.fen,
                game.result.as_deref().unwrap_or("without a result")
            );
            match by_player.iter_mut().find(|(p, _)| *p == player) {
                Some((_, n)) => *n += 1,
                None => by_player.push((player, 1)),
            }
            missed.push((i + 1).to_string());
        }
    }
    for (player, n) in &by_player {
        println!("{player}: {n} won positions not won");
    }
    println!(
        "audit: {} games, {reached} reached the tables (up to {} pieces), {} won positions not won{}",
        games.len(),
        tb.complete_pieces(),
        missed.len(),
        if missed.is_empty() {
            String::new()
        } else {
            format!(" (games {})", missed.join(", "))
        }
    );
    Ok(())
}

/// The candidate starts of one game: for each piece count from `max` down
/// to `min`, the first position with that many pieces where the side to
/// move has moves and no capture is due (a start in the middle of a
/// capture sequence would be decided by it).
pub fn candidates(game: &PdnGame, min: u32, max: u32) -> Vec<Position> {
    let mut out = Vec::new();
    let mut taken = HashSet::new();
    for pos in game.positions() {
        let n = pos.occupied().count();
        if !(min..=max).contains(&n) || taken.contains(&n) || movegen::has_capture(&pos) {
            continue;
        }
        if movegen::legal_moves(&pos).is_empty() {
            continue;
        }
        taken.insert(n);
        out.push(pos);
    }
    out
}

/// `tama egtb starts`: endgame starts from games, one line each in the
/// openings format (`FEN | | score depth`, the score from White's side),
/// those whose fixed-depth score lies within `--max-score`.
pub fn starts_command(a: &EgtbStartsArgs) -> Result<()> {
    if a.min_pieces > a.max_pieces || a.min_pieces < 2 {
        bail!(
            "--min-pieces {} and --max-pieces {}: expected 2 <= min <= max",
            a.min_pieces,
            a.max_pieces
        );
    }
    let rules = a.rules.rules();
    let games = read_pdn_file(&a.pdn, rules)?;
    let mut seen = HashSet::new();
    let mut searcher = Searcher::new(64);
    let limits = SearchLimits {
        depth: Some(a.depth),
        ..SearchLimits::default()
    };
    let (mut scored, mut kept) = (0, 0);
    println!(
        "# Endgame starts ({}-{} pieces, no capture due) from {}, scored at depth {} \
         (one thread, 64 MB hash cleared before each), |score| <= {}:",
        a.min_pieces,
        a.max_pieces,
        a.pdn.display(),
        a.depth,
        a.max_score
    );
    println!("# FEN | (no moves) | score from White's side, depth");
    for game in &games {
        for pos in candidates(game, a.min_pieces, a.max_pieces) {
            let fen = pos.fen();
            if !seen.insert(fen.clone()) {
                continue;
            }
            searcher.clear();
            let out = searcher.search(&Game::new(pos), &limits, &SearchControl::new(), &mut |_| {});
            scored += 1;
            // A forced win is not a balanced start.
            let Some(Score::Cp(cp)) = out.score else {
                continue;
            };
            let white = if pos.side_to_move() == Color::White {
                cp
            } else {
                -cp
            };
            if white.abs() <= a.max_score {
                kept += 1;
                println!("{fen} | | {white} {}", a.depth);
            }
        }
    }
    println!(
        "# {} games, {scored} distinct candidates scored, {kept} kept",
        games.len()
    );
    eprintln!(
        "starts: {} games, {scored} candidates, {kept} kept",
        games.len()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use tama_engine::egtb::{build, BuildOptions};
    use tama_engine::notation::pdn::read_pdn;
    use tama_engine::Rules;

    /// A PDN of three hand-made games under the default (Armenian) rules,
    /// checked against 3-piece tables built for the test:
    /// 1. KKvK, White's two kings (a1, c3) against b8, White to move: the
    ///    tables say two kings beat one from all but a capture at once, so
    ///    White has a win; the game is given up as a draw: a miss at ply 0.
    /// 2. The same start, and the same two moves, but the game is scored
    ///    as White's win: no miss, though the tables were reached.
    /// 3. The start position, 24 pieces: never in the tables.
    #[test]
    fn audit_finds_the_first_win_not_won() {
        let dir = std::env::temp_dir().join(format!("tama-audit-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let opts = BuildOptions {
            rules: Rules::default(),
            max_pieces: 3,
            distance_pieces: 3,
            threads: 1,
            compress: None,
        };
        let tb = build(&dir, &opts, &mut |_| {}).expect("build");
        let start = "W:WKa1,Kc3:BKb8";
        assert_eq!(
            tb.probe(&Position::from_fen(start, Rules::default()).unwrap())
                .unwrap()
                .wdl,
            Wdl::Win
        );
        let game =
            |result: &str| format!("[SetUp \"1\"]\n[FEN \"{start}\"]\n1. a1-a2 b8-b7 {result}\n\n");
        let text = game("1-1") + &game("2-0") + "1. c3-c4 f6-f5 1-1\n";
        let games = read_pdn(&text, Rules::default()).expect("pdn");
        let audits: Vec<GameAudit> = games.iter().map(|g| audit_game(&tb, g)).collect();
        let miss = audits[0].miss.as_ref().expect("game 1 has a miss");
        assert_eq!((miss.ply, miss.winner), (0, Color::White));
        assert_eq!(miss.fen, start);
        assert!(audits[0].reached);
        assert_eq!(
            audits[1],
            GameAudit {
                reached: true,
                miss: None
            }
        );
        assert_eq!(
            audits[2],
            GameAudit {
                reached: false,
                miss: None
            }
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
