//! `Position`: who stands where, who moves, under which rules, and its hash.
//!
//! Make-move is copy-make: a position is 48 bytes, cheaper to copy than to
//! undo, and the search keeps one per ply on its stack.

use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::rules::{Color, Rules};
use crate::square::Square;
use crate::zobrist;

/// A position: the pieces, the side to move, the rules and the hash key.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    /// Pieces (men and kings) of each colour, indexed by `Color`.
    pieces: [Bitboard; 2],
    /// Kings of both colours.
    kings: Bitboard,
    side: Color,
    rules: Rules,
    key: u64,
}

/// What stands on a square.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// A king (otherwise a man).
    pub king: bool,
}

impl Piece {
    /// The piece as a letter, as board diagrams and the Hub notation write
    /// it: `w`/`b` for men, `W`/`B` for kings.
    pub fn letter(self) -> char {
        match (self.color, self.king) {
            (Color::White, false) => 'w',
            (Color::White, true) => 'W',
            (Color::Black, false) => 'b',
            (Color::Black, true) => 'B',
        }
    }
}

impl Position {
    /// The initial position: White men on ranks 2 and 3, Black on 6 and 7, White to move.
    pub fn startpos(rules: Rules) -> Position {
        let white = Bitboard::rank(1) | Bitboard::rank(2);
        let black = Bitboard::rank(5) | Bitboard::rank(6);
        Position::from_parts(white, black, Bitboard::EMPTY, Color::White, rules)
    }

    /// Builds a position from bitboards. The caller keeps the sets disjoint
    /// and `kings` within the pieces; `fen::parse` is the checked way in.
    pub fn from_parts(
        white: Bitboard,
        black: Bitboard,
        kings: Bitboard,
        side: Color,
        rules: Rules,
    ) -> Position {
        debug_assert!((white & black).is_empty());
        let mut pos = Position {
            pieces: [white, black],
            kings: kings & (white | black),
            side,
            rules,
            key: 0,
        };
        pos.key = pos.compute_key();
        pos
    }

    /// Whose turn it is.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The rules the game is played under (part of the key).
    #[inline(always)]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The same pieces under other rules.
    pub fn with_rules(&self, rules: Rules) -> Position {
        Position::from_parts(self.pieces[0], self.pieces[1], self.kings, self.side, rules)
    }

    /// The Zobrist hash of pieces, side to move and rules (kept incrementally).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// All pieces of `color`, men and kings.
    #[inline(always)]
    pub fn pieces(&self, color: Color) -> Bitboard {
        self.pieces[color as usize]
    }

    /// The men of `color`.
    #[inline(always)]
    pub fn men(&self, color: Color) -> Bitboard {
        self.pieces[color as usize] & !self.kings
    }

    /// The kings of `color`.
    #[inline(always)]
    pub fn kings(&self, color: Color) -> Bitboard {
        self.pieces[color as usize] & self.kings
    }

    /// The kings of both colours.
    #[inline(always)]
    pub fn all_kings(&self) -> Bitboard {
        self.kings
    }

    /// Every square with a piece on it.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.pieces[0] | self.pieces[1]
    }

    /// Every free square.
    #[inline(always)]
    pub fn empty(&self) -> Bitboard {
        !self.occupied()
    }

    /// What stands on `sq`, if anything.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let color = if self.pieces[0].contains(sq) {
            Color::White
        } else if self.pieces[1].contains(sq) {
            Color::Black
        } else {
            return None;
        };
        Some(Piece {
            color,
            king: self.kings.contains(sq),
        })
    }

    /// The hash recomputed from scratch; `key()` keeps it incrementally.
    pub fn compute_key(&self) -> u64 {
        let mut key = zobrist::RULES[self.rules.index()];
        for color in [Color::White, Color::Black] {
            for sq in self.men(color) {
                key ^= zobrist::piece(color, false, sq.index());
            }
            for sq in self.kings(color) {
                key ^= zobrist::piece(color, true, sq.index());
            }
        }
        if self.side == Color::Black {
            key ^= zobrist::BLACK_TO_MOVE;
        }
        key
    }

    /// The position after `mv`, which must be legal here.
    #[inline]
    pub fn play(&self, mv: &Move) -> Position {
        let next = self.after::<true>(mv);
        debug_assert_eq!(next.key, next.compute_key(), "incremental hash drifted");
        next
    }

    /// Plays `mv`, which must be legal here, in place.
    #[inline]
    pub fn make_move(&mut self, mv: &Move) {
        *self = self.play(mv);
    }

    /// The position after `mv` with the hash left stale: for perft, where
    /// no one reads the key and updating it is a quarter of the time.
    #[inline]
    pub(crate) fn play_unhashed(&self, mv: &Move) -> Position {
        self.after::<false>(mv)
    }

    /// The new position is computed field by field and built whole, never
    /// written through `pieces[side]`: a store at a run-time index made the
    /// copy that returns the position (one 16-byte load over two 8-byte
    /// stores, one 8-byte load over the 1-byte store of the side) wait for
    /// the stores to retire, a store-forwarding stall that was 4% of the
    /// bench's samples in the shot test alone.
    #[inline(always)]
    fn after<const HASH: bool>(&self, mv: &Move) -> Position {
        let white = self.side == Color::White;
        let [w, b] = self.pieces;
        let (mine, theirs) = if white { (w, b) } else { (b, w) };
        let was_king = self.kings.contains(mv.from);
        let is_king = was_king || mv.promotes;
        let from = Bitboard::from_square(mv.from);
        let to = Bitboard::from_square(mv.to);

        let mut key = self.key;
        if HASH {
            key ^= zobrist::BLACK_TO_MOVE;
            key ^= zobrist::piece(self.side, was_king, mv.from.index());
            key ^= zobrist::piece(self.side, is_king, mv.to.index());
            let them_color = self.side.opponent();
            for sq in mv.captures {
                key ^= zobrist::piece(them_color, self.kings.contains(sq), sq.index());
            }
        }
        let theirs = theirs & !mv.captures;
        let mut kings = self.kings & !mv.captures;
        // `from` may equal `to` (a king ending its capture where it began).
        let mine = (mine & !from) | to;
        if was_king {
            kings = (kings & !from) | to;
        } else if is_king {
            kings |= to;
        }
        Position {
            pieces: if white {
                [mine, theirs]
            } else {
                [theirs, mine]
            },
            kings,
            side: self.side.opponent(),
            rules: self.rules,
            key,
        }
    }

    /// Whether `mv` (legal here) can be undone, so that the position before
    /// it may occur again: a king's move that captures nothing, or a man's
    /// sideways step (d4-e4 ... e4-d4). A capture and a man's step to
    /// another rank never can. The one rule of docs/rules.md §5 (decision
    /// 8) for both the game's threefold repetition and the search's.
    #[inline(always)]
    pub fn is_reversible(&self, mv: &Move) -> bool {
        !mv.is_capture() && (self.kings.contains(mv.from) || mv.from.rank() == mv.to.rank())
    }

    /// The same position with the other side to move (used by evaluation
    /// probes, never a legal move).
    pub fn with_side_to_move(&self, side: Color) -> Position {
        let mut p = *self;
        if side != p.side {
            p.side = side;
            p.key ^= zobrist::BLACK_TO_MOVE;
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_layout() {
        let pos = Position::startpos(Rules::default());
        assert_eq!(pos.pieces(Color::White).count(), 16);
        assert_eq!(pos.pieces(Color::Black).count(), 16);
        assert!(pos.all_kings().is_empty());
        assert_eq!(pos.side_to_move(), Color::White);
        for s in ["a2", "h2", "a3", "h3"] {
            let p = pos.piece_at(Square::parse(s).unwrap()).unwrap();
            assert_eq!(p.color, Color::White);
        }
        for s in ["a6", "h7"] {
            let p = pos.piece_at(Square::parse(s).unwrap()).unwrap();
            assert_eq!(p.color, Color::Black);
        }
        for s in ["a1", "d4", "e5", "h8"] {
            assert!(pos.piece_at(Square::parse(s).unwrap()).is_none());
        }
    }

    #[test]
    fn reversible_moves_are_king_moves_and_sideways_steps() {
        // 5  . . b . . . . .      White: man d4, king a1. Black: man c5.
        // 4  . . . w . . . .      White to move, nothing to capture (c5
        // 3  . . . . . . . .      is diagonal to d4: captures are
        // 2  . . . . . . . .      orthogonal only).
        // 1  W . . . . . . .
        let pos = Position::from_fen("W:Wd4,Ka1:Bc5", Rules::default()).unwrap();
        let play = |text: &str| pos.parse_move(text).unwrap();
        assert!(pos.is_reversible(&play("a1-c3")), "a king's move");
        assert!(pos.is_reversible(&play("a1-a4")), "a king's move");
        assert!(pos.is_reversible(&play("d4-e4")), "a man's sideways step");
        assert!(pos.is_reversible(&play("d4-c4")), "a man's sideways step");
        assert!(!pos.is_reversible(&play("d4-d5")), "a man's step forward");
        assert!(!pos.is_reversible(&play("d4-e5")), "diagonally forward");
        // A man crowning steps to another rank; a capture removes a piece.
        let pos = Position::from_fen("W:Wg7,Kb2:Bh5", Rules::default()).unwrap();
        let crown = pos.parse_move("g7-g8").unwrap();
        assert!(crown.promotes && !pos.is_reversible(&crown));
        let pos = Position::from_fen("W:Wb3,Kb2:Bb4", Rules::default()).unwrap();
        let capture = pos.parse_move("b3xb5").unwrap();
        assert!(!pos.is_reversible(&capture));
        let pos = Position::from_fen("W:WKb2:Bb4", Rules::default()).unwrap();
        let king_capture = pos.parse_move("b2xb5").unwrap();
        assert!(!pos.is_reversible(&king_capture), "a king's capture");
    }

    #[test]
    fn rules_change_the_key() {
        let keys: std::collections::HashSet<u64> =
            Rules::all().map(|r| Position::startpos(r).key()).collect();
        assert_eq!(keys.len(), 8);
    }
}
