//! Captures: a depth-first search over jumps that keeps only the routes
//! taking the most pieces.
//!
//! The search state is (square, occupancy, capturable enemies). The mover's
//! own square is never in the occupancy, so a king may cross or end on the
//! square it started from. With immediate removal a jumped piece leaves the
//! occupancy at once; with deferred removal it stays there as a blocker but
//! leaves the capturable set, so it can be neither passed nor jumped twice.

use crate::bitboard::{first_blocker, open_ray, ray, Bitboard, Direction};
use crate::moves::{Move, MoveList, MAX_MOVES};
use crate::position::Position;
use crate::rules::{CaptureRemoval, Color};
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

struct AllRoutes {
    routes: Vec<CaptureRoute>,
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

/// Every maximal capture route in the position (empty when no capture is
/// possible). For notation, not for the search: it allocates.
pub fn capture_routes(pos: &Position) -> Vec<CaptureRoute> {
    let mut sink = AllRoutes { routes: Vec::new() };
    search(pos, &mut sink);
    sink.routes
}

/// Whether the side to move has any capture (and so must capture).
#[inline]
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
    let occupied = pos.occupied();
    for king in pos.kings(us) {
        for dir in Direction::ORTHOGONAL {
            if let Some(b) = first_blocker(dir, king, occupied) {
                if them.contains(b) && open_ray(dir, b, occupied).any() {
                    return true;
                }
            }
        }
    }
    false
}

/// Runs the capture search for every piece of the side to move.
#[inline]
pub(crate) fn search<S: RouteSink>(pos: &Position, sink: &mut S) {
    let us = pos.side_to_move();
    let them = pos.pieces(us.opponent());
    let empty = pos.empty();
    // Only men with a jump available start a search; most positions have
    // none and no kings, and leave here.
    let jumpers_from = |back| (empty.shift(back) & them).shift(back);
    let backward = match us {
        Color::White => jumpers_from(Direction::South),
        Color::Black => jumpers_from(Direction::North),
    };
    let jumpers =
        pos.men(us) & (backward | jumpers_from(Direction::West) | jumpers_from(Direction::East));
    let kings = pos.kings(us);
    if jumpers.is_empty() && kings.is_empty() {
        return;
    }
    search_from(pos, jumpers, kings, sink);
}

#[inline(never)]
fn search_from<S: RouteSink>(pos: &Position, jumpers: Bitboard, kings: Bitboard, sink: &mut S) {
    let us = pos.side_to_move();
    let rules = pos.rules();
    let mut search = Jumps {
        sink,
        from: Square::A1,
        started_king: false,
        color: us,
        far_rank: us.promotion_rank(),
        immediate: rules.capture_removal == CaptureRemoval::Immediate,
        mid_capture_promotion: rules.mid_capture_promotion,
        best: 0,
        path: [Square::A1; 64],
    };
    let them = pos.pieces(us.opponent());
    let occupied = pos.occupied();
    for from in jumpers {
        search.from = from;
        search.started_king = false;
        search.man(from, occupied.without(from), them, Bitboard::EMPTY, 0);
    }
    for from in kings {
        search.from = from;
        search.started_king = true;
        search.king(from, occupied.without(from), them, Bitboard::EMPTY, None, 0);
    }
}

struct Jumps<'a, S> {
    sink: &'a mut S,
    from: Square,
    started_king: bool,
    color: Color,
    far_rank: Bitboard,
    immediate: bool,
    mid_capture_promotion: bool,
    /// Most pieces taken by any complete route found so far.
    best: u32,
    /// Landing squares of the route being explored, by jump number.
    path: [Square; 64],
}

impl<S: RouteSink> Jumps<'_, S> {
    #[inline]
    fn after_capture(&self, occupied: Bitboard, victim: Bitboard) -> Bitboard {
        if self.immediate {
            occupied & !victim
        } else {
            occupied
        }
    }

    fn man(
        &mut self,
        sq: Square,
        occupied: Bitboard,
        targets: Bitboard,
        captured: Bitboard,
        depth: usize,
    ) {
        let here = Bitboard::from_square(sq);
        // Directions unrolled: `shift` with a constant direction is two instructions.
        let extended = match self.color {
            Color::White => {
                self.man_jump(Direction::North, here, occupied, targets, captured, depth)
            }
            Color::Black => {
                self.man_jump(Direction::South, here, occupied, targets, captured, depth)
            }
        } | self.man_jump(Direction::East, here, occupied, targets, captured, depth)
            | self.man_jump(Direction::West, here, occupied, targets, captured, depth);
        if !extended && depth > 0 {
            self.finish(sq, captured, false, depth);
        }
    }

    /// One jump of a man in `dir`, and everything after it. Returns whether
    /// the jump was possible.
    #[inline(always)]
    fn man_jump(
        &mut self,
        dir: Direction,
        here: Bitboard,
        occupied: Bitboard,
        targets: Bitboard,
        captured: Bitboard,
        depth: usize,
    ) -> bool {
        let victim = here.shift(dir) & targets;
        let landing = victim.shift(dir) & !occupied;
        let Some(to) = landing.lsb() else {
            return false;
        };
        self.path[depth] = to;
        let occupied = self.after_capture(occupied, victim);
        let targets = targets & !victim;
        let captured = captured | victim;
        if self.mid_capture_promotion && self.far_rank.contains(to) {
            self.king(to, occupied, targets, captured, Some(dir), depth + 1);
        } else {
            self.man(to, occupied, targets, captured, depth + 1);
        }
        true
    }

    fn king(
        &mut self,
        sq: Square,
        occupied: Bitboard,
        targets: Bitboard,
        captured: Bitboard,
        last: Option<Direction>,
        depth: usize,
    ) {
        let mut extended = false;
        for dir in Direction::ORTHOGONAL {
            if last == Some(dir.opposite()) {
                continue; // no 180-degree turn between two jumps
            }
            let Some(victim_sq) = first_blocker(dir, sq, occupied) else {
                continue;
            };
            if !targets.contains(victim_sq) {
                continue;
            }
            let landings = open_ray(dir, victim_sq, occupied);
            if landings.is_empty() {
                continue;
            }
            extended = true;
            let victim = Bitboard::from_square(victim_sq);
            let occupied = self.after_capture(occupied, victim);
            let targets = targets & !victim;
            let captured = captured | victim;
            for to in landings {
                self.path[depth] = to;
                self.king(to, occupied, targets, captured, Some(dir), depth + 1);
            }
        }
        if !extended && depth > 0 {
            self.finish(sq, captured, true, depth);
        }
    }

    #[inline]
    fn finish(&mut self, to: Square, captured: Bitboard, is_king: bool, depth: usize) {
        let count = depth as u32;
        if count < self.best {
            return;
        }
        if count > self.best {
            self.best = count;
            self.sink.clear();
        }
        let mv = Move {
            from: self.from,
            to,
            promotes: !self.started_king && (is_king || self.far_rank.contains(to)),
            captures: captured,
        };
        self.sink.route(mv, &self.path[..depth]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn victims_are_the_captured_pieces_in_jump_order() {
        // d4 takes d5 landing on d6, then e6 sideways landing on f6.
        let pos = Position::from_fen("W:Wd4:Bd5,e6,a7", Rules::default()).unwrap();
        let routes = capture_routes(&pos);
        assert_eq!(routes.len(), 1);
        let sq = |t: &str| Square::parse(t).unwrap();
        assert_eq!(routes[0].victims(), [sq("d5"), sq("e6")]);

        // Random king-heavy positions under both removal rules: every route
        // names each captured piece once, one per jump, each on the line
        // between the landings before and after its jump.
        let mut rng = crate::rng::Rng::new(11);
        let mut routes_seen = 0;
        for removal in [CaptureRemoval::Immediate, CaptureRemoval::Deferred] {
            let rules = Rules {
                capture_removal: removal,
                ..Rules::default()
            };
            for _ in 0..3000 {
                let p = crate::testutil::random_position(&mut rng, rules);
                for r in capture_routes(&p) {
                    routes_seen += 1;
                    let v = r.victims();
                    assert_eq!(v.len(), r.landings.len(), "{} {}", p.fen(), r.text());
                    assert_eq!(v.iter().copied().collect::<Bitboard>(), r.mv.captures);
                    let mut at = r.mv.from;
                    for (victim, &to) in v.iter().zip(&r.landings) {
                        let between = Direction::ORTHOGONAL
                            .into_iter()
                            .any(|d| ray(d, at).contains(*victim) && ray(d, *victim).contains(to));
                        assert!(between, "{} {}: {victim} not jumped", p.fen(), r.text());
                        at = to;
                    }
                }
            }
        }
        assert!(routes_seen > 1000, "only {routes_seen} routes exercised");
    }
}
