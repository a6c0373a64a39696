//! What the capture search (`capture.rs`) hands its routes to: each
//! distinct move once (move generation), the routes behind each move
//! (perft's route count), or every route with its landings (`CaptureRoute`,
//! for notation and a GUI's `legalmoves`, with the victims in jump order).

use crate::bitboard::{ray, Bitboard, Direction};
use crate::moves::{Move, MoveList, MAX_MOVES};
use crate::square::Square;
use arrayvec::ArrayVec;

/// Receives complete routes. `clear` is called when a longer route than any
/// before turns up, so a sink only ever holds routes of the maximum length.
pub(crate) trait RouteSink {
    fn clear(&mut self);
    fn route(&mut self, mv: Move, path: &[Square]);
}

/// Keeps each distinct move once.
pub(crate) struct DistinctMoves<'a> {
    pub list: &'a mut MoveList,
}

impl RouteSink for DistinctMoves<'_> {
    #[inline]
    fn clear(&mut self) {
        self.list.clear();
    }

    #[inline]
    fn route(&mut self, mv: Move, _path: &[Square]) {
        if !self.list.contains(&mv) {
            let _ = self.list.try_push(mv);
        }
    }
}

/// Counts the routes behind each distinct move.
pub(crate) struct RouteCounts<'a> {
    pub moves: &'a mut ArrayVec<(Move, u32), MAX_MOVES>,
}

impl RouteSink for RouteCounts<'_> {
    fn clear(&mut self) {
        self.moves.clear();
    }

    fn route(&mut self, mv: Move, _path: &[Square]) {
        match self.moves.iter_mut().find(|(m, _)| *m == mv) {
            Some((_, n)) => *n += 1,
            None => {
                let _ = self.moves.try_push((mv, 1));
            }
        }
    }
}

/// One jump route of a legal capture: the landing squares in order.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct CaptureRoute {
    /// The capture the route makes.
    pub mv: Move,
    /// Where the piece lands after each jump, the last one being `mv.to`.
    pub landings: Vec<Square>,
}

/// Keeps every route (for notation: it allocates).
#[derive(Default)]
pub(crate) struct AllRoutes {
    pub routes: Vec<CaptureRoute>,
}

impl RouteSink for AllRoutes {
    fn clear(&mut self) {
        self.routes.clear();
    }

    fn route(&mut self, mv: Move, path: &[Square]) {
        self.routes.push(CaptureRoute {
            mv,
            landings: path.to_vec(),
        });
    }
}

impl CaptureRoute {
    /// The squares of the pieces taken, in the order they are jumped (what
    /// a board draws along the path). Each jump runs along one line from the
    /// previous landing; the piece taken there is the one captured square
    /// on that stretch not already taken (with immediate removal a king may
    /// cross a square it has emptied earlier in the route).
    pub fn victims(&self) -> Vec<Square> {
        let mut taken = Bitboard::EMPTY;
        let mut victims = Vec::with_capacity(self.landings.len());
        let mut at = self.mv.from;
        for &to in &self.landings {
            let stretch = Direction::ORTHOGONAL
                .into_iter()
                .map(|dir| ray(dir, at) & !ray(dir, to))
                .find(|line| line.contains(to))
                .unwrap_or(Bitboard::EMPTY);
            if let Some(v) = (stretch & self.mv.captures & !taken).lsb() {
                taken = taken.with(v);
                victims.push(v);
            }
            at = to;
        }
        victims
    }
}
