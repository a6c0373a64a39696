//! A deliberately naive move generator for Armenian and Turkish draughts.
//!
//! Written from the rules (docs/rules.md), not from the engine's
//! code: a plain array of 64 cells, one square at a time, a recursive walk
//! over the jumps that edits a copy of the board, and the maximum-capture
//! filter applied afterwards over the complete routes. It is slow on purpose
//! and shares nothing with the engine but the square numbering (a1 = 0,
//! b1 = 1, ..., h8 = 63).

use std::collections::BTreeMap;

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub struct Piece {
    pub white: bool,
    pub king: bool,
}

/// The three rule options, spelled out independently of the engine's `Rules`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct NaiveRules {
    /// Armenian: men also step diagonally forward, kings also slide diagonally.
    pub armenian: bool,
    /// Captured pieces leave the board as they are jumped (otherwise they stay
    /// until the move is over, blocking, and cannot be jumped again).
    pub immediate: bool,
    /// A man reaching the far rank during a capture goes on as a king.
    pub mid_capture_promotion: bool,
}

#[derive(Clone, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub struct Board {
    pub cells: [Option<Piece>; 64],
    pub white_to_move: bool,
}

/// A move's identity: start, end, captured squares (sorted), crowned or not.
#[derive(Clone, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub struct NaiveMove {
    pub from: u8,
    pub to: u8,
    pub captured: Vec<u8>,
    pub promotes: bool,
}

/// One capture route: the move it makes and its landing squares in order.
#[derive(Clone, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub struct Route {
    pub mv: NaiveMove,
    pub landings: Vec<u8>,
}

const NORTH: (i32, i32) = (0, 1);
const SOUTH: (i32, i32) = (0, -1);
const EAST: (i32, i32) = (1, 0);
const WEST: (i32, i32) = (-1, 0);
const ORTHOGONAL: [(i32, i32); 4] = [NORTH, EAST, SOUTH, WEST];
const ALL_EIGHT: [(i32, i32); 8] = [NORTH, EAST, SOUTH, WEST, (1, 1), (1, -1), (-1, -1), (-1, 1)];

fn file_of(sq: usize) -> i32 {
    (sq % 8) as i32
}

fn rank_of(sq: usize) -> i32 {
    (sq / 8) as i32
}

/// The square one step from `sq` in direction `d`, if it is on the board.
fn step(sq: usize, d: (i32, i32)) -> Option<usize> {
    let f = file_of(sq) + d.0;
    let r = rank_of(sq) + d.1;
    if (0..8).contains(&f) && (0..8).contains(&r) {
        Some((r * 8 + f) as usize)
    } else {
        None
    }
}

fn far_rank(white: bool) -> i32 {
    if white {
        7
    } else {
        0
    }
}

fn forward(white: bool) -> (i32, i32) {
    if white {
        NORTH
    } else {
        SOUTH
    }
}

impl Board {
    pub fn empty(white_to_move: bool) -> Board {
        Board {
            cells: [None; 64],
            white_to_move,
        }
    }

    /// White men on ranks 2 and 3, Black men on ranks 6 and 7, White to move.
    pub fn start() -> Board {
        let mut b = Board::empty(true);
        for sq in 0..64 {
            let r = rank_of(sq);
            if r == 1 || r == 2 {
                b.cells[sq] = Some(Piece {
                    white: true,
                    king: false,
                });
            } else if r == 5 || r == 6 {
                b.cells[sq] = Some(Piece {
                    white: false,
                    king: false,
                });
            }
        }
        b
    }

    /// PDN-style FEN with algebraic squares, written square by square.
    pub fn to_fen(&self) -> String {
        let mut s = String::from(if self.white_to_move { "W" } else { "B" });
        for white in [true, false] {
            s.push(':');
            s.push(if white { 'W' } else { 'B' });
            let mut first = true;
            for sq in 0..64 {
                if let Some(p) = self.cells[sq] {
                    if p.white == white {
                        if !first {
                            s.push(',');
                        }
                        first = false;
                        if p.king {
                            s.push('K');
                        }
                        s.push_str(&square_name(sq as u8));
                    }
                }
            }
        }
        s
    }
}

pub fn square_name(sq: u8) -> String {
    format!("{}{}", (b'a' + sq % 8) as char, sq / 8 + 1)
}

/// State of one capture walk.
struct Walk<'a> {
    rules: NaiveRules,
    white: bool,
    from: usize,
    started_king: bool,
    /// Squares of pieces already captured but (deferred removal) still standing.
    dead: [bool; 64],
    captured: Vec<u8>,
    landings: Vec<u8>,
    out: &'a mut Vec<Route>,
}

impl Walk<'_> {
    fn is_enemy(&self, cells: &[Option<Piece>; 64], sq: usize) -> bool {
        matches!(cells[sq], Some(p) if p.white != self.white) && !self.dead[sq]
    }

    /// Continue the capture from `sq`; `last` is the direction of the jump
    /// that brought the piece here (never reversed: no 180-degree turn).
    fn go(
        &mut self,
        cells: &mut [Option<Piece>; 64],
        sq: usize,
        king: bool,
        last: Option<(i32, i32)>,
    ) {
        // A man captures forwards and sideways, never backwards.
        let man_dirs = [forward(self.white), EAST, WEST];
        let dirs: &[(i32, i32)] = if king { &ORTHOGONAL } else { &man_dirs };
        let mut jumped = false;
        for &d in dirs {
            if let Some(l) = last {
                if d == (-l.0, -l.1) {
                    continue;
                }
            }
            // Find the victim and the squares the piece may land on.
            let mut victim = None;
            let mut landing_squares = Vec::new();
            if king {
                let mut s = step(sq, d);
                while let Some(x) = s {
                    if cells[x].is_some() {
                        break;
                    }
                    s = step(x, d);
                }
                if let Some(v) = s {
                    if self.is_enemy(cells, v) {
                        let mut t = step(v, d);
                        while let Some(x) = t {
                            if cells[x].is_some() {
                                break;
                            }
                            landing_squares.push(x);
                            t = step(x, d);
                        }
                        victim = Some(v);
                    }
                }
            } else if let Some(v) = step(sq, d) {
                if self.is_enemy(cells, v) {
                    if let Some(l) = step(v, d) {
                        if cells[l].is_none() {
                            landing_squares.push(l);
                            victim = Some(v);
                        }
                    }
                }
            }
            let Some(v) = victim else { continue };
            for l in landing_squares {
                jumped = true;
                let saved = cells[v];
                if self.rules.immediate {
                    cells[v] = None;
                } else {
                    self.dead[v] = true;
                }
                self.captured.push(v as u8);
                self.landings.push(l as u8);
                let crowned_now =
                    !king && self.rules.mid_capture_promotion && rank_of(l) == far_rank(self.white);
                self.go(cells, l, king || crowned_now, Some(d));
                self.landings.pop();
                self.captured.pop();
                cells[v] = saved;
                self.dead[v] = false;
            }
        }
        if !jumped && !self.captured.is_empty() {
            let mut captured = self.captured.clone();
            captured.sort_unstable();
            let promotes = !self.started_king && (king || rank_of(sq) == far_rank(self.white));
            self.out.push(Route {
                mv: NaiveMove {
                    from: self.from as u8,
                    to: sq as u8,
                    captured,
                    promotes,
                },
                landings: self.landings.clone(),
            });
        }
    }
}

/// Every complete capture route of every piece of the side to move, before
/// the majority rule is applied.
pub fn all_capture_routes(board: &Board, rules: NaiveRules) -> Vec<Route> {
    let mut out = Vec::new();
    for from in 0..64 {
        let Some(p) = board.cells[from] else { continue };
        if p.white != board.white_to_move {
            continue;
        }
        let mut cells = board.cells;
        cells[from] = None; // the piece has left its square
        let mut walk = Walk {
            rules,
            white: p.white,
            from,
            started_king: p.king,
            dead: [false; 64],
            captured: Vec::new(),
            landings: Vec::new(),
            out: &mut out,
        };
        walk.go(&mut cells, from, p.king, None);
    }
    out
}

/// The legal capture routes: those taking the most pieces (empty if the side
/// to move cannot capture).
pub fn legal_routes(board: &Board, rules: NaiveRules) -> Vec<Route> {
    let all = all_capture_routes(board, rules);
    let most = all.iter().map(|r| r.mv.captured.len()).max().unwrap_or(0);
    all.into_iter()
        .filter(|r| r.mv.captured.len() == most)
        .collect()
}

fn quiet_moves(board: &Board, rules: NaiveRules) -> Vec<NaiveMove> {
    let mut out = Vec::new();
    let white = board.white_to_move;
    for from in 0..64 {
        let Some(p) = board.cells[from] else { continue };
        if p.white != white {
            continue;
        }
        if p.king {
            let dirs: &[(i32, i32)] = if rules.armenian {
                &ALL_EIGHT
            } else {
                &ORTHOGONAL
            };
            for &d in dirs {
                let mut s = step(from, d);
                while let Some(x) = s {
                    if board.cells[x].is_some() {
                        break;
                    }
                    out.push(NaiveMove {
                        from: from as u8,
                        to: x as u8,
                        captured: Vec::new(),
                        promotes: false,
                    });
                    s = step(x, d);
                }
            }
        } else {
            let f = forward(white);
            let all = [f, EAST, WEST, (1, f.1), (-1, f.1)];
            // Turkish men have no diagonal step.
            let dirs = if rules.armenian { &all[..] } else { &all[..3] };
            for &d in dirs {
                if let Some(x) = step(from, d) {
                    if board.cells[x].is_none() {
                        out.push(NaiveMove {
                            from: from as u8,
                            to: x as u8,
                            captured: Vec::new(),
                            promotes: rank_of(x) == far_rank(white),
                        });
                    }
                }
            }
        }
    }
    out
}

/// The legal moves, each distinct move once, with the number of jump routes
/// behind it (1 for a quiet move).
pub fn legal_moves(board: &Board, rules: NaiveRules) -> BTreeMap<NaiveMove, u64> {
    let mut map = BTreeMap::new();
    let routes = legal_routes(board, rules);
    if routes.is_empty() {
        for m in quiet_moves(board, rules) {
            *map.entry(m).or_insert(0) += 1;
        }
    } else {
        for r in routes {
            *map.entry(r.mv).or_insert(0) += 1;
        }
    }
    map
}

pub fn play(board: &Board, mv: &NaiveMove) -> Board {
    let mut next = board.clone();
    let mut piece = next.cells[mv.from as usize].expect("a piece on the start square");
    next.cells[mv.from as usize] = None;
    for &c in &mv.captured {
        next.cells[c as usize] = None;
    }
    if mv.promotes {
        piece.king = true;
    }
    next.cells[mv.to as usize] = Some(piece);
    next.white_to_move = !board.white_to_move;
    next
}

/// The number of distinct legal moves (what `legal_moves(..).len()` gives,
/// without building the map: perft's last ply).
pub fn count_moves(board: &Board, rules: NaiveRules) -> u64 {
    let routes = legal_routes(board, rules);
    if routes.is_empty() {
        let mut v: Vec<(u8, u8)> = quiet_moves(board, rules)
            .iter()
            .map(|m| (m.from, m.to))
            .collect();
        v.sort_unstable();
        v.dedup();
        v.len() as u64
    } else {
        let mut v: Vec<NaiveMove> = routes.into_iter().map(|r| r.mv).collect();
        v.sort_unstable();
        v.dedup();
        v.len() as u64
    }
}

/// Leaves at exactly `depth`, each distinct move once.
pub fn perft(board: &Board, rules: NaiveRules, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return count_moves(board, rules);
    }
    let moves = legal_moves(board, rules);
    moves
        .keys()
        .map(|m| perft(&play(board, m), rules, depth - 1))
        .sum()
}

/// Leaves at exactly `depth`, each jump route counted separately.
pub fn perft_routes(board: &Board, rules: NaiveRules, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    legal_moves(board, rules)
        .iter()
        .map(|(m, n)| n * perft_routes(&play(board, m), rules, depth - 1))
        .sum()
}
