//! Tama's engine: board, move generation, evaluation and search for Armenian
//! draughts (Tama) and Turkish draughts (Dama). No I/O: the protocol crate
//! drives it.

pub mod bitboard;
pub mod eval;
pub mod game;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod position;
pub mod rng;
pub mod rules;
pub mod search;
pub mod square;
mod zobrist;

#[cfg(test)]
mod testutil;

pub use bitboard::{Bitboard, Direction};
pub use game::{Game, GameStatus};
pub use moves::{Move, MoveList};
pub use notation::{FenError, MoveError};
pub use position::{Piece, Position};
pub use rules::{CaptureRemoval, Color, Rules, Variant};
pub use square::Square;
