//! One game between two engine processes, refereed with the rules core.
//!
//! Each game starts its own two processes and ends them (so an engine that
//! failed is restarted for the next game, and a process belongs to one game).
//! Every move is checked against the legal moves; the runner keeps the
//! clocks; the game ends on the board (no legal move, threefold repetition),
//! by adjudication, or by a fault of one engine, and says which.

use super::args::{Adjudication, Config, EngineSpec};
use super::clock::{go_limits, Clock, Spent};
use super::openings::Opening;
use super::pdn::Outcome;
use std::sync::atomic::AtomicBool;
use tama_engine::{Color, Game, GameStatus, Move, Position};
use tama_protocol::client::{Engine, Fault, Timeouts};

/// How a game ended, before it is dressed as a record.
#[derive(Clone, Debug)]
pub struct Played {
    pub outcome: Outcome,
    pub termination: String,
    pub start: Position,
    pub moves: Vec<Move>,
}

/// Adjudication state over the plies played so far.
struct Adjudicator {
    rules: Adjudication,
    /// Plies since the last capture or man move.
    quiet_plies: u32,
    /// Reported scores, White's view, one per ply (None: no score).
    scores: Vec<Option<i32>>,
}

impl Adjudicator {
    fn record(&mut self, pos: &Position, mv: &Move, score_white: Option<i32>) {
        let man = pos.piece_at(mv.from).is_some_and(|p| !p.king);
        if mv.is_capture() || man {
            self.quiet_plies = 0;
        } else {
            self.quiet_plies += 1;
        }
        self.scores.push(score_white);
    }

    /// A verdict, if the game is to be adjudicated now (`plies` played, the
    /// full-move number of the next move).
    fn verdict(&self, plies: usize, fullmove: u32) -> Option<(Outcome, String)> {
        if let Some(n) = self.rules.noprogress {
            if n > 0 && self.quiet_plies >= 2 * n {
                return Some((
                    Outcome::Draw,
                    format!("adjudication: {n} moves without capture or man move"),
                ));
            }
        }
        if let Some(r) = self.rules.resign {
            let k = 2 * r.movecount as usize;
            if self.scores.len() >= k {
                let last = &self.scores[self.scores.len() - k..];
                if last.iter().all(|s| s.is_some_and(|v| v >= r.score)) {
                    return Some((
                        Outcome::WhiteWins,
                        "adjudication: black resigns (both scores agree)".into(),
                    ));
                }
                if last.iter().all(|s| s.is_some_and(|v| v <= -r.score)) {
                    return Some((
                        Outcome::BlackWins,
                        "adjudication: white resigns (both scores agree)".into(),
                    ));
                }
            }
        }
        if let Some(d) = self.rules.draw {
            let k = 2 * d.movecount as usize;
            if fullmove > d.movenumber && k > 0 && self.scores.len() >= k {
                let last = &self.scores[self.scores.len() - k..];
                if last.iter().all(|s| s.is_some_and(|v| v.abs() <= d.score)) {
                    return Some((
                        Outcome::Draw,
                        "adjudication: draw (both scores agree)".into(),
                    ));
                }
            }
        }
        if let Some(m) = self.rules.maxmoves {
            if plies >= 2 * m as usize {
                return Some((
                    Outcome::Draw,
                    format!("adjudication: maximum game length ({m} moves)"),
                ));
            }
        }
        None
    }
}

fn loss_of(c: Color) -> Outcome {
    Outcome::win_for(c.opponent())
}

/// Plays one game. `specs` are White's and Black's engines. Returns None
/// when the match is being aborted (the game is then not counted).
pub fn play(
    config: &Config,
    specs: [&EngineSpec; 2],
    opening: &Opening,
    abort: &AtomicBool,
) -> Option<Played> {
    let start = opening.position;
    let timeouts = Timeouts::default();
    let aborted = || abort.load(std::sync::atomic::Ordering::Relaxed);
    let mut engines: Vec<Engine> = Vec::with_capacity(2);
    let finish = |engines: Vec<Engine>, outcome: Outcome, why: String, moves: Vec<Move>| {
        for e in engines {
            e.quit();
        }
        Some(Played {
            outcome,
            termination: why,
            start,
            moves,
        })
    };
    for (side, spec) in [Color::White, Color::Black].into_iter().zip(specs) {
        let started = Engine::start(&spec.command, config.rules, timeouts, abort)
            .and_then(|mut e| e.new_game(abort).map(|()| e));
        match started {
            Ok(e) => engines.push(e),
            Err(_) if aborted() => return None,
            Err(f) => return finish(engines, loss_of(side), fault_text(side, &f), Vec::new()),
        }
    }
    let mut game = Game::new(start);
    let mut clocks = [Clock::new(&specs[0].tc), Clock::new(&specs[1].tc)];
    let mut adj = Adjudicator {
        rules: config.adjudication,
        quiet_plies: 0,
        scores: Vec::new(),
    };
    loop {
        match game.status() {
            GameStatus::Won(c) => {
                let why = format!("{} has no legal move", c.opponent().name());
                return finish(engines, Outcome::win_for(c), why, game.moves().to_vec());
            }
            GameStatus::DrawByRepetition => {
                return finish(
                    engines,
                    Outcome::Draw,
                    "threefold repetition".into(),
                    game.moves().to_vec(),
                )
            }
            GameStatus::Ongoing => {}
        }
        let pos = *game.position();
        let plies = game.moves().len();
        let fullmove = 1 + (plies as u32 + u32::from(start.side_to_move() == Color::Black)) / 2;
        if let Some((outcome, why)) = adj.verdict(plies, fullmove) {
            return finish(engines, outcome, why, game.moves().to_vec());
        }
        let side = pos.side_to_move();
        let s = side as usize;
        let margin = specs[s].timemargin.unwrap_or(config.timemargin);
        let limits = go_limits(&clocks, s);
        let allowance = clocks[s].allowance(margin, config.hang_timeout);
        let reply = engines[s].go(&start, game.moves(), &limits, allowance, abort);
        if aborted() {
            return None;
        }
        match reply {
            Err(f) => {
                let why = fault_text(side, &f);
                return finish(engines, loss_of(side), why, game.moves().to_vec());
            }
            Ok(r) => {
                let left = clocks[s].left;
                if clocks[s].spend(r.elapsed, margin) == Spent::Forfeit {
                    let why = match (left, specs[s].tc.movetime) {
                        (Some(l), _) => format!(
                            "{} loses on time: the move took {:.3} s with {:.3} s left",
                            side.name(),
                            r.elapsed.as_secs_f64(),
                            l.as_secs_f64()
                        ),
                        (None, Some(mt)) => format!(
                            "{} loses on time: the move took {:.3} s of {:.3} s",
                            side.name(),
                            r.elapsed.as_secs_f64(),
                            mt.as_secs_f64()
                        ),
                        (None, None) => format!("{} loses on time", side.name()),
                    };
                    return finish(engines, loss_of(side), why, game.moves().to_vec());
                }
                let white_view = r.score.map(|sc| {
                    let cp = sc.as_cp();
                    if side == Color::White {
                        cp
                    } else {
                        -cp
                    }
                });
                adj.record(&pos, &r.mv, white_view);
                game.play(r.mv);
            }
        }
    }
}

fn fault_text(side: Color, f: &Fault) -> String {
    format!("{} {}", side.name(), f.reason())
}

#[cfg(test)]
mod tests {
    use super::super::args::{DrawAdjudication, ResignAdjudication};
    use super::*;
    use tama_engine::Rules;

    fn adjudicator(rules: Adjudication) -> Adjudicator {
        Adjudicator {
            rules,
            quiet_plies: 0,
            scores: Vec::new(),
        }
    }

    #[test]
    fn no_progress_counts_king_moves_only() {
        let pos = Position::from_fen("W:WKa1,c2:BKh8,f7", Rules::default()).unwrap();
        let mut a = adjudicator(Adjudication {
            noprogress: Some(2),
            ..Adjudication::default()
        });
        let king = pos.parse_move("a1-a2").unwrap();
        let man = pos.parse_move("c2-c3").unwrap();
        for _ in 0..3 {
            a.record(&pos, &king, None);
        }
        assert!(a.verdict(3, 2).is_none());
        a.record(&pos, &man, None);
        assert!(a.verdict(4, 3).is_none(), "a man move resets the count");
        for _ in 0..4 {
            a.record(&pos, &king, None);
        }
        let (o, why) = a.verdict(8, 5).unwrap();
        assert_eq!(o, Outcome::Draw);
        assert!(why.contains("without capture"), "{why}");
    }

    #[test]
    fn score_adjudication_needs_both_engines_to_agree() {
        let pos = Position::startpos(Rules::default());
        let mv = tama_engine::movegen::legal_moves(&pos)[0];
        let mut a = adjudicator(Adjudication {
            resign: Some(ResignAdjudication {
                movecount: 2,
                score: 500,
            }),
            draw: Some(DrawAdjudication {
                movenumber: 10,
                movecount: 2,
                score: 5,
            }),
            ..Adjudication::default()
        });
        // White says +600, Black (white's view) only +400: no agreement.
        for s in [600, 400, 600, 400] {
            a.record(&pos, &mv, Some(s));
        }
        assert!(a.verdict(4, 3).is_none());
        for s in [-600, -700, -550, -900] {
            a.record(&pos, &mv, Some(s));
        }
        let (o, _) = a.verdict(8, 5).unwrap();
        assert_eq!(o, Outcome::BlackWins);
        // Near-zero scores: a draw, but only after move 10.
        let mut d = adjudicator(a.rules);
        for s in [0, 3, -2, 1] {
            d.record(&pos, &mv, Some(s));
        }
        assert!(d.verdict(4, 3).is_none());
        assert_eq!(d.verdict(20, 11).unwrap().0, Outcome::Draw);
        // A missing score breaks the run.
        d.record(&pos, &mv, None);
        assert!(d.verdict(21, 11).is_none());
    }

    #[test]
    fn max_moves() {
        let a = adjudicator(Adjudication {
            maxmoves: Some(3),
            ..Adjudication::default()
        });
        assert!(a.verdict(5, 3).is_none());
        assert!(a.verdict(6, 4).unwrap().1.contains("maximum game length"));
    }
}
