//! Captures: a depth-first search over jumps that keeps only the routes
//! taking the most pieces.
//!
//! The search state is (square, occupancy, capturable enemies). The mover's
//! own square is never in the occupancy, so a king may cross or end on the
//! square it started from. With immediate removal a jumped piece leaves the
//! occupancy at once; with deferred removal it stays there as a blocker but
//! leaves the capturable set, so it can be neither passed nor jumped twice.

use super::outline::{classify, Captures, SingleJumps};
use super::routes::{AllRoutes, CaptureRoute, RouteSink};
use crate::bitboard::{first_blocker, open_ray, Bitboard, Direction};
use crate::moves::Move;
use crate::position::Position;
use crate::rules::{CaptureRemoval, Color};
use crate::square::Square;

/// Every maximal capture route in the position (empty when no capture is
/// possible). For notation, not for the search: it allocates.
pub fn capture_routes(pos: &Position) -> Vec<CaptureRoute> {
    let mut sink = AllRoutes::default();
    search(pos, &mut sink);
    sink.routes
}

/// Runs the capture search for every piece of the side to move.
#[inline]
pub(crate) fn search<S: RouteSink>(pos: &Position, sink: &mut S) {
    let jumpers = match classify(pos) {
        Captures::None => return,
        Captures::Single(first) | Captures::Search { first, .. } => first.origins,
    };
    search_from(pos, jumpers, sink);
}

/// The number of legal captures when only men capture and none is
/// crowned on the way (`Captures::Search` with `men_only`). Each route is
/// then a move of its own: a man never jumps back towards its own side,
/// so its route never comes back to a square it left, and the pieces it
/// takes (one per jump, on the line between two landings) fix the route.
/// So the routes of the most jumps are counted, not listed.
pub(crate) fn count_men_routes(pos: &Position, first: &SingleJumps) -> usize {
    let white = pos.side_to_move() == Color::White;
    let immediate = pos.rules().capture_removal == CaptureRemoval::Immediate;
    match (white, immediate) {
        (true, true) => count_men_routes_as::<true, true>(pos, first),
        (true, false) => count_men_routes_as::<true, false>(pos, first),
        (false, true) => count_men_routes_as::<false, true>(pos, first),
        (false, false) => count_men_routes_as::<false, false>(pos, first),
    }
}

#[inline(always)]
fn count_men_routes_as<const WHITE: bool, const IMMEDIATE: bool>(
    pos: &Position,
    first: &SingleJumps,
) -> usize {
    let them = pos.pieces(pos.side_to_move().opponent());
    let empty = pos.empty();
    let mut tally = RouteTally { best: 0, routes: 0 };
    // The routes go on from the first landings, already found.
    let mut from_landings = |dir: Direction, landings: Bitboard| {
        let back = dir.opposite();
        for to in landings {
            let here = Bitboard::from_square(to);
            let victim = here.shift(back);
            let left =
                empty | victim.shift(back) | if IMMEDIATE { victim } else { Bitboard::EMPTY };
            men_routes::<WHITE, IMMEDIATE>(here, left, them & !victim, 1, &mut tally);
        }
    };
    let forward = if WHITE {
        Direction::North
    } else {
        Direction::South
    };
    from_landings(forward, first.landings[0]);
    from_landings(Direction::East, first.landings[1]);
    from_landings(Direction::West, first.landings[2]);
    tally.routes as usize
}

/// The longest routes so far, and how many there are.
struct RouteTally {
    best: u32,
    routes: u32,
}

/// Follows every route of the man on `here` (a single square), `jumps`
/// jumps into its capture, into `tally`.
fn men_routes<const WHITE: bool, const IMMEDIATE: bool>(
    here: Bitboard,
    empty: Bitboard,
    targets: Bitboard,
    jumps: u32,
    tally: &mut RouteTally,
) {
    let forward = if WHITE {
        Direction::North
    } else {
        Direction::South
    };
    let mut extended = false;
    let mut jump = |dir: Direction| {
        let victim = here.shift(dir) & targets;
        let landing = victim.shift(dir) & empty;
        if landing.any() {
            extended = true;
            let empty = if IMMEDIATE { empty | victim } else { empty };
            men_routes::<WHITE, IMMEDIATE>(landing, empty, targets & !victim, jumps + 1, tally);
        }
    };
    jump(forward);
    jump(Direction::East);
    jump(Direction::West);
    if !extended && jumps > 0 {
        if jumps > tally.best {
            tally.best = jumps;
            tally.routes = 0;
        }
        if jumps == tally.best {
            tally.routes += 1;
        }
    }
}

/// The route search from `jumpers` and the kings of the side to move.
#[inline(never)]
pub(crate) fn search_from<S: RouteSink>(pos: &Position, jumpers: Bitboard, sink: &mut S) {
    let us = pos.side_to_move();
    let kings = pos.kings(us);
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
        // Directions unrolled, in `Direction::ORTHOGONAL`'s order (the
        // order of the moves found): with a constant direction the ray
        // lookups, the nearest-blocker scan and the turn test compile to
        // straight code, where a loop over the directions paid a branch
        // and a computed index for each (this search was 9% of the
        // bench's samples).
        let extended = self.king_jump(
            Direction::North,
            sq,
            occupied,
            targets,
            captured,
            last,
            depth,
        ) | self.king_jump(
            Direction::East,
            sq,
            occupied,
            targets,
            captured,
            last,
            depth,
        ) | self.king_jump(
            Direction::South,
            sq,
            occupied,
            targets,
            captured,
            last,
            depth,
        ) | self.king_jump(
            Direction::West,
            sq,
            occupied,
            targets,
            captured,
            last,
            depth,
        );
        if !extended && depth > 0 {
            self.finish(sq, captured, true, depth);
        }
    }

    /// The king's jumps from `sq` in `dir`, and everything after them.
    /// Returns whether there was one.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn king_jump(
        &mut self,
        dir: Direction,
        sq: Square,
        occupied: Bitboard,
        targets: Bitboard,
        captured: Bitboard,
        last: Option<Direction>,
        depth: usize,
    ) -> bool {
        if last == Some(dir.opposite()) {
            return false; // no 180-degree turn between two jumps
        }
        let Some(victim_sq) = first_blocker(dir, sq, occupied) else {
            return false;
        };
        if !targets.contains(victim_sq) {
            return false;
        }
        let landings = open_ray(dir, victim_sq, occupied);
        if landings.is_empty() {
            return false;
        }
        let victim = Bitboard::from_square(victim_sq);
        let occupied = self.after_capture(occupied, victim);
        let targets = targets & !victim;
        let captured = captured | victim;
        for to in landings {
            self.path[depth] = to;
            self.king(to, occupied, targets, captured, Some(dir), depth + 1);
        }
        true
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
    use super::super::routes::DistinctMoves;
    use super::*;
    use crate::bitboard::ray;
    use crate::moves::MoveList;
    use crate::rules::Rules;

    #[test]
    fn whole_board_captures_agree_with_the_route_search() {
        // Random positions of every rule set, king-free ones included: the
        // shortcuts of `classify` (single jumps listed off the board, the
        // men's routes counted) give the route search's moves in the route
        // search's order (the search's move ordering breaks ties by it).
        let mut rng = crate::rng::Rng::new(5);
        let mut seen = [0usize; 3];
        for rules in Rules::all() {
            for _ in 0..4000 {
                let p = crate::testutil::random_position(&mut rng, rules);
                let mut searched = MoveList::new();
                search_from(
                    &p,
                    Bitboard::FULL & p.men(p.side_to_move()),
                    &mut DistinctMoves {
                        list: &mut searched,
                    },
                );
                let mut list = MoveList::new();
                match classify(&p) {
                    Captures::None => {
                        assert!(searched.is_empty(), "{}", p.fen());
                        continue;
                    }
                    Captures::Single(single) => {
                        seen[0] += 1;
                        single.push_all(&p, &mut list);
                        assert_eq!(single.count(), list.len(), "{}", p.fen());
                    }
                    Captures::Search { first, men_only } => {
                        seen[1 + men_only as usize] += 1;
                        search_from(&p, first.origins, &mut DistinctMoves { list: &mut list });
                        if men_only {
                            assert_eq!(count_men_routes(&p, &first), list.len(), "{}", p.fen());
                        }
                    }
                }
                assert_eq!(list, searched, "{}", p.fen());
            }
        }
        assert!(seen.iter().all(|&n| n > 150), "too few of a kind: {seen:?}");
    }

    /// The positions of random games from the start (the shapes the
    /// search meets: forced single captures, men near crowning) and random
    /// boards (kings, long routes), in every rule set.
    fn sweep_positions(mut check: impl FnMut(&Position)) {
        let mut rng = crate::rng::Rng::new(17);
        for rules in Rules::all() {
            for _ in 0..2000 {
                check(&crate::testutil::random_position(&mut rng, rules));
            }
            for _ in 0..60 {
                let mut p = Position::startpos(rules);
                for _ in 0..120 {
                    check(&p);
                    let list = crate::movegen::legal_moves(&p);
                    if list.is_empty() {
                        break;
                    }
                    p = p.play(&list[rng.below(list.len() as u64) as usize]);
                }
            }
        }
    }

    #[test]
    fn the_outline_of_the_captures_agrees_with_the_move_list() {
        // `captures_due` with `forced_capture`, `capture_outline` and
        // `quiet_promotion` read off the whole board what the shot test
        // used to read off the full move list; each must say what the list
        // says.
        // Seen: no capture, single jumps, routes, a forced capture, a
        // quiet crowning.
        let mut seen = [0usize; 5];
        sweep_positions(|p| {
            let list = crate::movegen::legal_moves(p);
            let fen = p.fen();
            let mut scratch = MoveList::new();
            let forced = match list.as_slice() {
                [m] if m.is_capture() => Some(*m),
                _ => None,
            };
            let captures = list.first().is_some_and(|m| m.is_capture());
            let due = crate::movegen::captures_due(p);
            assert_eq!(due.is_some(), captures, "{fen}");
            let got = due.and_then(|d| crate::movegen::forced_capture(p, d, &mut scratch));
            assert_eq!(got, forced, "{fen}");
            seen[3] += forced.is_some() as usize;
            match crate::movegen::capture_outline(p) {
                crate::movegen::CaptureOutline::None => {
                    seen[0] += 1;
                    assert!(!captures, "{fen}");
                }
                crate::movegen::CaptureOutline::SingleJumps { victims, promotes } => {
                    seen[1] += 1;
                    assert!(captures, "{fen}");
                    assert!(list.iter().all(|m| m.capture_count() == 1), "{fen}");
                    let taken = list.iter().fold(Bitboard::EMPTY, |b, m| b | m.captures);
                    assert_eq!(victims, taken, "{fen}");
                    assert_eq!(promotes, list.iter().any(|m| m.promotes), "{fen}");
                }
                crate::movegen::CaptureOutline::Routes => {
                    seen[2] += 1;
                    assert!(captures, "{fen}");
                }
            }
            let mut quiets = MoveList::new();
            super::super::quiet::generate(p, &mut quiets);
            let crowns = quiets.iter().any(|m| m.promotes);
            assert_eq!(crate::movegen::quiet_promotion(p), crowns, "{fen}");
            seen[4] += crowns as usize;
        });
        assert!(seen.iter().all(|&n| n > 300), "too few of a kind: {seen:?}");
    }

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
