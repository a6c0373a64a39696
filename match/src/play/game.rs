//! One game between two engine processes, refereed with the rules core.
//!
//! Each game starts its own two processes and ends them (so an engine that
//! failed is restarted for the next game, and a process belongs to one game).
//! Every move is checked against the legal moves; the runner keeps the
//! clocks; the game ends on the board (no legal move, threefold repetition),
//! by adjudication, or by a fault of one engine, and says which.

use crate::client::{Engine, Fault, Timeouts};
use crate::config::{Config, EngineSpec};
use crate::play::adjudication::Adjudicator;
use crate::play::clock::{go_limits, Clock, Spent};
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use tama_engine::notation::pdn::Outcome;
use tama_engine::openings::Opening;
use tama_engine::{Color, Game, GameStatus, Move, Position};

/// How a game ended, before it is dressed as a record.
#[derive(Clone, Debug)]
pub struct Played {
    pub outcome: Outcome,
    pub termination: String,
    pub start: Position,
    pub moves: Vec<Move>,
}

/// How a game ends: with a result and its reason, or cut short because the
/// match is being aborted (then it is not counted).
enum Ending {
    Over(Outcome, String),
    Aborted,
}

fn loss_of(c: Color) -> Outcome {
    Outcome::win_for(c.opponent())
}

fn aborted(abort: &AtomicBool) -> bool {
    abort.load(std::sync::atomic::Ordering::Relaxed)
}

/// Plays one game. `specs` are White's and Black's engines. Returns None
/// when the match is being aborted (the game is then not counted).
pub fn play(
    config: &Config,
    specs: [&EngineSpec; 2],
    opening: &Opening,
    abort: &AtomicBool,
) -> Option<Played> {
    let mut engines: Vec<Engine> = Vec::with_capacity(2);
    let mut game = Game::new(opening.position);
    let ending = match start_engines(config, specs, abort, &mut engines) {
        Some(failed) => failed,
        None => play_moves(config, specs, &mut engines, &mut game, abort),
    };
    let Ending::Over(outcome, termination) = ending else {
        return None;
    };
    for e in engines {
        e.quit();
    }
    Some(Played {
        outcome,
        termination,
        start: opening.position,
        moves: game.moves().to_vec(),
    })
}

/// Starts White's engine, then Black's, into `engines`; the ending of the
/// game when one of them fails to start (its side loses).
fn start_engines(
    config: &Config,
    specs: [&EngineSpec; 2],
    abort: &AtomicBool,
    engines: &mut Vec<Engine>,
) -> Option<Ending> {
    for (side, spec) in [Color::White, Color::Black].into_iter().zip(specs) {
        let started = Engine::start(&spec.command, config.rules, Timeouts::default(), abort)
            .and_then(|mut e| e.new_game(abort).map(|()| e));
        match started {
            Ok(e) => engines.push(e),
            Err(_) if aborted(abort) => return Some(Ending::Aborted),
            Err(f) => return Some(Ending::Over(loss_of(side), fault_text(side, &f))),
        }
    }
    None
}

/// Plays moves until the game ends on the board, by adjudication, by a
/// fault or on time.
fn play_moves(
    config: &Config,
    specs: [&EngineSpec; 2],
    engines: &mut [Engine],
    game: &mut Game,
    abort: &AtomicBool,
) -> Ending {
    let start = *game.start();
    let mut clocks = [Clock::new(&specs[0].tc), Clock::new(&specs[1].tc)];
    let mut adj = Adjudicator::new(config.adjudication);
    loop {
        match game.status() {
            GameStatus::Won(c) => {
                let why = format!("{} has no legal move", c.opponent().name());
                return Ending::Over(Outcome::win_for(c), why);
            }
            GameStatus::DrawByRepetition => {
                return Ending::Over(Outcome::Draw, "threefold repetition".into())
            }
            GameStatus::Ongoing => {}
        }
        let pos = *game.position();
        let plies = game.moves().len();
        let fullmove = 1 + (plies as u32 + u32::from(start.side_to_move() == Color::Black)) / 2;
        if let Some((outcome, why)) = adj.verdict(plies, fullmove) {
            return Ending::Over(outcome, why);
        }
        let side = pos.side_to_move();
        let s = side as usize;
        let margin = specs[s].timemargin.unwrap_or(config.timemargin);
        let limits = go_limits(&clocks, s);
        let allowance = clocks[s].allowance(margin, config.hang_timeout);
        let reply = engines[s].go(&start, game.moves(), &limits, allowance, abort);
        if aborted(abort) {
            return Ending::Aborted;
        }
        let r = match reply {
            Ok(r) => r,
            Err(f) => return Ending::Over(loss_of(side), fault_text(side, &f)),
        };
        let left = clocks[s].left;
        if clocks[s].spend(r.elapsed, margin) == Spent::Forfeit {
            let why = time_loss_text(side, r.elapsed, left, specs[s].tc.movetime);
            return Ending::Over(loss_of(side), why);
        }
        let white_view = r.score.map(|sc| match side {
            Color::White => sc.as_cp(),
            Color::Black => -sc.as_cp(),
        });
        adj.record(&pos, &r.mv, white_view);
        game.play(r.mv);
    }
}

/// Why a move was too late: with the time that was `left` on the clock,
/// or against the fixed time per move.
fn time_loss_text(
    side: Color,
    elapsed: Duration,
    left: Option<Duration>,
    movetime: Option<Duration>,
) -> String {
    match (left, movetime) {
        (Some(l), _) => format!(
            "{} loses on time: the move took {:.3} s with {:.3} s left",
            side.name(),
            elapsed.as_secs_f64(),
            l.as_secs_f64()
        ),
        (None, Some(mt)) => format!(
            "{} loses on time: the move took {:.3} s of {:.3} s",
            side.name(),
            elapsed.as_secs_f64(),
            mt.as_secs_f64()
        ),
        (None, None) => format!("{} loses on time", side.name()),
    }
}

fn fault_text(side: Color, f: &Fault) -> String {
    format!("{} {}", side.name(), f.reason())
}
