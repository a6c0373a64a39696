//! Tama's engine: board, move generation, evaluation and search for Armenian
//! draughts (Tama) and Turkish draughts (Dama). No I/O: the protocol crate
//! drives it.

pub mod bitboard;
pub mod eval;
pub mod fen;
pub mod game;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod position;
pub mod rules;
pub mod search;
pub mod shots;
pub mod square;
pub mod tt;
mod zobrist;

#[doc(hidden)]
pub mod testutil;

pub use bitboard::{Bitboard, Direction};
pub use fen::FenError;
pub use game::{Game, GameStatus};
pub use moves::{Move, MoveList};
pub use notation::MoveError;
pub use position::{Piece, Position};
pub use rules::{CaptureRemoval, Color, Rules, Variant};
pub use square::Square;
