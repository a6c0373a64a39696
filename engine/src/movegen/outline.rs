//! The captures of the side to move as the whole board shows them, before
//! any jump route is followed: none, only men's single jumps (landing
//! squares by direction), or something longer that needs the route search
//! (`capture`). Read with whole-board shifts, so most positions never
//! enter the search.

use crate::bitboard::{first_blocker, open_ray, Bitboard, Direction};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::rules::Color;

/// Whether the side to move has any capture (and so must capture).
///
/// The men's jumps are a few whole-board shifts, inlined where they are
/// asked for; the kings' rays are read out of line, only when the side has
/// a king. As one function, every call paid for saving the registers the
/// king scan needs (a sixth of this test's instructions, most calls having
/// no king), and it is asked for some 28 million times a bench, half of
/// them by the shot test.
#[inline(always)]
pub(crate) fn has_capture(pos: &Position) -> bool {
    let us = pos.side_to_move();
    let them = pos.pieces(us.opponent());
    let empty = pos.empty();
    let men = pos.men(us);
    // Constant directions (a shift by a run-time direction is a jump table).
    let jumps = |dir| (men.shift(dir) & them).shift(dir) & empty;
    let forward = match us {
        Color::White => jumps(Direction::North),
        Color::Black => jumps(Direction::South),
    };
    if (forward | jumps(Direction::East) | jumps(Direction::West)).any() {
        return true;
    }
    let kings = pos.kings(us);
    kings.any() && kings_capture(kings, them, pos.occupied())
}

/// Whether one of `kings` captures one of `them` on the board `occupied`.
#[inline(never)]
fn kings_capture(kings: Bitboard, them: Bitboard, occupied: Bitboard) -> bool {
    // A king captures in `dir` when the first piece it meets there is an
    // enemy with a free square behind it. The directions are unrolled, as
    // in the route search: with a constant direction the ray lookups and
    // the nearest-blocker scan are straight code.
    let takes = |dir: Direction, king| {
        first_blocker(dir, king, occupied)
            .is_some_and(|b| them.contains(b) && open_ray(dir, b, occupied).any())
    };
    kings.into_iter().any(|king| {
        takes(Direction::North, king)
            || takes(Direction::East, king)
            || takes(Direction::South, king)
            || takes(Direction::West, king)
    })
}

/// What the whole board says about the captures of the side to move,
/// before any jump route is followed.
pub(crate) enum Captures {
    /// No piece can capture: the quiet moves are the legal ones.
    None,
    /// Only men capture, and none can jump a second time: every capture
    /// is a single jump and every one is legal (all take one piece).
    Single(SingleJumps),
    /// A capture may run past its first jump, or a king captures: the
    /// route search decides, from these men and the kings.
    Search {
        /// The men's first jumps (not all of them legal).
        first: SingleJumps,
        /// The side to move has no king and men are not crowned on the
        /// way: the captures are the men's, each route a move of its own
        /// (`count_men_routes`).
        men_only: bool,
    },
}

/// The men's single jumps, read off the whole board: where they land, by
/// direction (forward, east, west).
pub(crate) struct SingleJumps {
    /// Where the jumps land, by direction: forward, east, west.
    pub(super) landings: [Bitboard; 3],
    /// The men that jump.
    pub origins: Bitboard,
}

impl SingleJumps {
    /// The number of captures (each a distinct move, and one route).
    #[inline(always)]
    pub fn count(&self) -> usize {
        self.landings.iter().map(|l| l.count() as usize).sum()
    }

    /// The captures in the order the route search finds them (men from
    /// a1 towards h8, each forward, east, west), so that the move list is
    /// the same whichever way it was made.
    #[inline(always)]
    pub fn push_all(&self, pos: &Position, list: &mut MoveList) {
        match pos.side_to_move() {
            Color::White => self.push_all_towards(Direction::North, list, Bitboard::RANK_8),
            Color::Black => self.push_all_towards(Direction::South, list, Bitboard::RANK_1),
        }
    }

    #[inline(always)]
    fn push_all_towards(&self, forward: Direction, list: &mut MoveList, far: Bitboard) {
        for from in self.origins {
            let here = Bitboard::from_square(from);
            let mut jump = |dir: Direction, landings: Bitboard| {
                let victim = here.shift(dir);
                if let Some(to) = (victim.shift(dir) & landings).lsb() {
                    // An arrayvec push cannot fail here: see MAX_MOVES.
                    let _ = list.try_push(Move {
                        from,
                        to,
                        promotes: far.contains(to),
                        captures: victim,
                    });
                }
            };
            jump(forward, self.landings[0]);
            jump(Direction::East, self.landings[1]);
            jump(Direction::West, self.landings[2]);
        }
    }
}

impl SingleJumps {
    /// The pieces the single jumps of `us` take.
    #[inline(always)]
    pub fn victims(&self, us: Color) -> Bitboard {
        // Constant directions (a shift by a run-time direction is a jump
        // table): the victim is one step back from the landing.
        let forward = match us {
            Color::White => self.landings[0].shift(Direction::South),
            Color::Black => self.landings[0].shift(Direction::North),
        };
        forward | self.landings[1].shift(Direction::West) | self.landings[2].shift(Direction::East)
    }

    /// Whether a jump ends on `far` (the mover's promotion rank).
    #[inline(always)]
    pub fn reaches(&self, far: Bitboard) -> bool {
        ((self.landings[0] | self.landings[1] | self.landings[2]) & far).any()
    }
}

/// Sorts the position's captures into `Captures` with whole-board shifts:
/// most positions have none, and most of the rest only single jumps, and
/// neither then enters the route search. Kings that have no capture
/// (`kings_capture`, a few ray lookups) are only pieces in the way, so a
/// side with kings enters the route search only when one of them
/// captures: the shot test asks this of many positions where the side to
/// move has a king and a man must take a man, and the route search there
/// cost ten times the kings' test.
#[inline(always)]
pub(crate) fn classify(pos: &Position) -> Captures {
    // Constant directions (a shift by a run-time direction is a jump table).
    match pos.side_to_move() {
        Color::White => classify_towards(pos, Direction::North),
        Color::Black => classify_towards(pos, Direction::South),
    }
}

#[inline(always)]
fn classify_towards(pos: &Position, forward: Direction) -> Captures {
    use Direction::{East, West};
    let us = pos.side_to_move();
    let them = pos.pieces(us.opponent());
    let empty = pos.empty();
    let men = pos.men(us);
    let kings = pos.kings(us);
    let land = |dir: Direction| (men.shift(dir) & them).shift(dir) & empty;
    let landings = [land(forward), land(East), land(West)];
    let any = landings[0] | landings[1] | landings[2];
    if any.is_empty() {
        return match kings.any() && kings_capture(kings, them, pos.occupied()) {
            false => Captures::None,
            true => Captures::Search {
                first: SingleJumps {
                    landings,
                    origins: Bitboard::EMPTY,
                },
                men_only: false,
            },
        };
    }
    let back = |l: Bitboard, dir: Direction| {
        let dir = dir.opposite();
        l.shift(dir).shift(dir)
    };
    let origins = back(landings[0], forward) | back(landings[1], East) | back(landings[2], West);
    // A second jump from a landing square: never straight back (the piece
    // just taken is gone, or may not be jumped twice), and otherwise the
    // board is the same around it, so the squares from which a man can jump
    // now are the ones from which it could jump on.
    let can_jump = |dir: Direction| {
        let back = dir.opposite();
        (empty.shift(back) & them).shift(back)
    };
    let (on_forward, on_east, on_west) = (can_jump(forward), can_jump(East), can_jump(West));
    let longer = (landings[0] & (on_forward | on_east | on_west))
        | (landings[1] & (on_forward | on_east))
        | (landings[2] & (on_forward | on_west));
    // A man crowned mid-capture goes on as a king: the search follows it.
    let crowning = pos.rules().mid_capture_promotion;
    let crowned = crowning && (landings[0] & us.promotion_rank()).any();
    let first = SingleJumps { landings, origins };
    if longer.any() || crowned {
        Captures::Search {
            first,
            men_only: kings.is_empty() && !crowning,
        }
    } else if kings.any() && kings_capture(kings, them, pos.occupied()) {
        Captures::Search {
            first,
            men_only: false,
        }
    } else {
        Captures::Single(first)
    }
}
