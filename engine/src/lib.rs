//! Tama's engine: board, move generation, evaluation, search and endgame
//! databases for Armenian draughts (Tama) and Turkish draughts (Dama). It
//! reads no input and prints nothing: the protocol crate drives it. Its only
//! files are the endgame databases (`egtb`: written by the build, mapped by
//! the probe, in a directory the caller names) and the PDN files a caller
//! names (`notation::pdn::read_pdn_file`); the weights, opening suites
//! and shot suite are compiled in from `engine/data/`, and a weights file
//! the user names is read by the caller and decoded here (`eval::file`).
//!
//! Data flows one way, search -> movegen -> board:
//! - `square`, `bitboard`, `rules`: the board and the rule set;
//! - `position` (hashed by `zobrist`), `moves`: a position and its moves;
//! - `movegen`: the legal moves (compulsory maximum capture); `perft`
//!   counts them;
//! - `game`: a game with its history (threefold repetition);
//! - `notation`: every text form: algebraic moves, FEN, the Hub notation,
//!   PDN games;
//! - `openings`: the opening suites (built in, generated, or read from FEN
//!   and PDN text);
//! - `eval`: the static evaluation, its weights per variant (learned by
//!   the tama-train crate);
//!   `search`: the search, its scores and
//!   its transposition table, and `bench`, its signature;
//! - `rng`: the one pseudo-random generator (tests, self-play, the runner);
//! - `message`: `message_error!`, the one-message error types of the
//!   crates above the engine;
//! - `egtb`: the endgame databases: built by retrograde analysis, probed by
//!   the search;
//! - `review`: a whole game searched move by move, each move judged, written
//!   back as annotated PDN.

#![warn(missing_docs)]

pub mod bitboard;
pub mod egtb;
pub mod eval;
pub mod game;
mod message;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod openings;
pub mod perft;
pub mod position;
pub mod review;
pub mod rng;
pub mod rules;
pub mod search;
pub mod square;
mod zobrist;

#[cfg(any(test, feature = "test-util"))]
pub mod testutil;

pub use bitboard::{Bitboard, Direction};
pub use game::{Game, GameStatus};
pub use moves::{Move, MoveList};
pub use notation::{FenError, MoveError};
pub use position::{Piece, Position};
pub use rules::{CaptureRemoval, Color, RuleValueError, Rules, Variant};
pub use square::Square;
