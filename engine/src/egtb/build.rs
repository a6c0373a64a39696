//! Retrograde analysis: every table of up to N pieces, smallest first.
//!
//! Tables are built in pairs: a signature and its flipped twin (the same
//! material with the other side to move), because a quiet move leads from
//! one to the other and nowhere else. Every other move leaves the pair: a
//! capture to a table with fewer pieces, a crowning to one with a king more
//! (more kings at equal piece count are built first), so those moves are
//! looked up in finished tables ("exits").
//!
//! 1. Every entry is played forwards once: no move is a loss in 0; a
//!    capture due, or exits only, decide it at once from the finished
//!    tables; an exit into a lost position makes it a win pending at that
//!    distance (a quicker win inside the pair may still come). Otherwise it
//!    counts its distinct successors inside the pair (plus one that never
//!    goes away if an exit draws: it can then never be lost).
//! 2. Level by level (distance 0, 1, 2, ... plies), the entries decided at
//!    that distance are played backwards (`unmove`): a loss makes every
//!    undecided predecessor a win one ply further; a win takes one off each
//!    undecided predecessor's count, and a count reaching zero means every
//!    move loses: a loss one ply after its slowest successor. Visiting
//!    distances in order makes every distance the shortest win and the
//!    longest loss.
//! 3. What is still undecided can be held forever: a draw (cycles are
//!    normal: kings, and men stepping sideways).
//!
//! Tables of more than `distance_pieces` pieces keep only win/draw/loss (2
//! bits an entry); their build counts an exit without a distance as the
//! nearest one of its result (a loss in 0, a win in 1), which leaves the
//! results right and the internal levels meaningless.

use super::file::{file_name, Encoding, Header, TableStats};
use super::index::{Placement, TableIndex};
use super::probe::{io_error, EgtbError, Table, Tablebase};
use super::signature::{Signature, MAX_PIECES};
use super::unmove::quiet_predecessors;
use super::value::{Value, Wdl};
use crate::movegen;
use crate::moves::MoveList;
use crate::rules::Rules;
use arrayvec::ArrayVec;
use std::io::Write;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{
    AtomicU32, AtomicU64,
    Ordering::{AcqRel, Relaxed, Release},
};
use std::time::{Duration, Instant};

/// What to build.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// The rule set the tables are for.
    pub rules: Rules,
    /// Build every signature of up to this many pieces.
    pub max_pieces: u32,
    /// Keep distances for tables of up to this many pieces.
    pub distance_pieces: u32,
    /// Threads that share each level of the analysis.
    pub threads: usize,
}

impl BuildOptions {
    /// Pieces built when the caller does not say (the default).
    pub const DEFAULT_PIECES: u32 = 4;
    /// Tables of up to 4 pieces keep distances: one byte an entry is
    /// affordable there, and 5-piece tables would be four times larger.
    pub const DEFAULT_DISTANCE_PIECES: u32 = 4;
}

/// What the build tells its caller as it goes.
#[derive(Clone, Debug)]
pub enum Progress {
    /// Valid files for the pair are already there (an earlier run).
    Kept {
        /// The signature and its flipped twin (one when it is its own).
        signatures: Vec<Signature>,
    },
    /// The pair's analysis begins.
    Started {
        /// The signature and its flipped twin (one when it is its own).
        signatures: Vec<Signature>,
        /// Entries of the pair together.
        entries: u64,
    },
    /// The pair's files are written.
    Finished {
        /// The signature and its flipped twin (one when it is its own).
        signatures: Vec<Signature>,
        /// Entries of the pair together.
        entries: u64,
        /// Bytes of the files written.
        bytes: u64,
        /// Time the pair took.
        elapsed: Duration,
    },
}

/// Builds every missing table of `opts.max_pieces` or fewer pieces into
/// `dir` and returns them all, opened. Tables already there (from an
/// interrupted run) are checked and kept; a damaged one is an error.
pub fn build(
    dir: &Path,
    opts: &BuildOptions,
    progress: &mut dyn FnMut(Progress),
) -> Result<Tablebase, EgtbError> {
    assert!(
        (2..=MAX_PIECES).contains(&opts.max_pieces),
        "pieces must be 2..={MAX_PIECES}"
    );
    std::fs::create_dir_all(dir).map_err(io_error(dir))?;
    let mut known = Tablebase::empty(opts.rules);
    for job in super::jobs::jobs(opts.max_pieces) {
        build_pair(dir, opts, &job.signatures, &mut known, progress)?;
    }
    Ok(known)
}

/// Builds (or keeps, when its files are there) one signature and its
/// flipped twin, and adds them to `known`, which must hold every table
/// they capture or crown into.
pub(crate) fn build_pair(
    dir: &Path,
    opts: &BuildOptions,
    pair: &[Signature],
    known: &mut Tablebase,
    progress: &mut dyn FnMut(Progress),
) -> Result<(), EgtbError> {
    let paths: Vec<PathBuf> = pair
        .iter()
        .map(|&s| dir.join(file_name(opts.rules, s)))
        .collect();
    if paths.iter().all(|p| p.exists()) {
        for (&s, path) in pair.iter().zip(&paths) {
            known.insert(Table::open(path, opts.rules, s)?);
        }
        progress(Progress::Kept {
            signatures: pair.to_vec(),
        });
        return Ok(());
    }
    let start = Instant::now();
    let distances = pair[0].pieces() <= opts.distance_pieces;
    let group = PairBuild::new(opts.rules, pair, known, distances);
    let entries = group.len();
    progress(Progress::Started {
        signatures: pair.to_vec(),
        entries,
    });
    group.solve(opts.threads.max(1));
    let mut bytes = 0;
    for (t, path) in paths.iter().enumerate() {
        let (header, payload) = group.encode(t);
        write_atomically(path, &header.encode(&payload), &payload)?;
        bytes += (super::file::HEADER_LEN + payload.len()) as u64;
    }
    drop(group);
    for (&s, path) in pair.iter().zip(&paths) {
        known.insert(Table::open(path, opts.rules, s)?);
    }
    progress(Progress::Finished {
        signatures: pair.to_vec(),
        entries,
        bytes,
        elapsed: start.elapsed(),
    });
    Ok(())
}

/// Writes to `NAME.tmp` and renames: an interrupted build never leaves a
/// file with a table's name that is not whole.
fn write_atomically(path: &Path, header: &[u8], payload: &[u8]) -> Result<(), EgtbError> {
    let tmp = path.with_extension("egtb.tmp");
    let mut f = std::fs::File::create(&tmp).map_err(io_error(&tmp))?;
    f.write_all(header).map_err(io_error(&tmp))?;
    f.write_all(payload).map_err(io_error(&tmp))?;
    f.sync_all().map_err(io_error(&tmp))?;
    std::fs::rename(&tmp, path).map_err(io_error(path))
}

// Entry states during the build (one u16 each):
/// Not decided yet.
const UNDECIDED: u16 = 0xFFFF;
const DRAW: u16 = 0xFFFE;
/// Set on a distance that is not final yet (a win through an exit that a
/// quicker internal win may still beat, or a loss whose slowest exit is
/// further than the level that completed it).
const PENDING: u16 = 0x8000;
/// Distances stay below this (and below `PENDING`).
const MAX_DISTANCE: u32 = 0x7FF0;

#[inline(always)]
fn distance_of(state: u16) -> u32 {
    u32::from(state & !PENDING)
}

/// A distance set but not final yet (never `UNDECIDED` or `DRAW`, whose
/// bits include `PENDING`).
#[inline(always)]
fn is_pending(state: u16) -> bool {
    state < DRAW && state & PENDING != 0
}

#[inline(always)]
fn is_decided_at(state: u16, level: u32) -> bool {
    state < DRAW && distance_of(state) == level
}

fn encode_distance(d: u32) -> u16 {
    assert!(
        d < MAX_DISTANCE,
        "distance {d} beyond what the build can hold"
    );
    d as u16
}

/// A successor of an entry: inside the pair (an entry number) or decided.
enum Successor {
    Inside(u64),
    Exit(Value),
}

/// The working state of one pair of tables.
struct PairBuild<'a> {
    rules: Rules,
    known: &'a Tablebase,
    tables: Vec<TableIndex>,
    /// Entry number of each table's first entry in `state`.
    offsets: Vec<u64>,
    /// Each entry's `Cell`, one word so that a retraction touches one
    /// cache line (the build is bound by these random accesses).
    cells: Vec<AtomicU32>,
    distances: bool,
    max_level: AtomicU32,
    /// Per chunk of `CHUNK` entries, bit `d % 64` set while some entry of
    /// the chunk decided at distance `d` may wait for its level: a level
    /// reads only the chunks that have work (most have none).
    due: Vec<AtomicU64>,
}

/// Working memory of a pair's build per entry (its cell), besides the
/// payload being written: what bounds the largest pair that fits in memory.
pub const BUILD_BYTES_PER_ENTRY: u64 = std::mem::size_of::<AtomicU32>() as u64;

/// An entry's working state packed in a word: the state (bits 16..32), the
/// successors inside the pair not yet known to be won for the mover (bits
/// 8..16), and the slowest exit into a won position (bits 0..8: the loss
/// distance it gives, its plies plus one; `EXIT_UNKNOWN` when that does
/// not fit).
#[derive(Clone, Copy)]
struct Cell(u32);

const COUNT_ONE: u32 = 1 << 8;
const EXIT_UNKNOWN: u32 = 0xFF;

impl Cell {
    fn new(state: u16, count: u8, slowest_exit: u32) -> Cell {
        Cell(u32::from(state) << 16 | u32::from(count) << 8 | slowest_exit.min(EXIT_UNKNOWN))
    }

    #[inline(always)]
    fn state(self) -> u16 {
        (self.0 >> 16) as u16
    }

    #[inline(always)]
    fn count(self) -> u32 {
        (self.0 >> 8) & 0xFF
    }

    #[inline(always)]
    fn slowest_exit(self) -> u32 {
        self.0 & 0xFF
    }

    /// The same count and exit under another state.
    #[inline(always)]
    fn with_state(self, state: u16) -> Cell {
        Cell(u32::from(state) << 16 | (self.0 & 0xFFFF))
    }
}

/// `len` cells, each `value`, in memory asked to be backed by huge pages:
/// the build reads them at random, and with 4 KB pages nearly every read
/// of a large pair also misses the TLB.
fn cells(len: usize, value: Cell) -> Vec<AtomicU32> {
    let mut v: Vec<AtomicU32> = Vec::with_capacity(len);
    advise_huge_pages(v.as_ptr().cast(), len * std::mem::size_of::<AtomicU32>());
    v.resize_with(len, || AtomicU32::new(value.0));
    v
}

/// Asks the kernel to back a fresh allocation with huge pages (transparent
/// huge pages in `madvise` mode). Only a hint: where the kernel declines,
/// the build is as right and only slower, so the answer is not checked.
#[cfg(target_os = "linux")]
fn advise_huge_pages(start: *const u8, len: usize) {
    const HUGE: usize = 2 << 20;
    let begin = (start as usize).next_multiple_of(HUGE);
    let end = (start as usize + len) / HUGE * HUGE;
    if end > begin {
        // SAFETY: the range lies inside an allocation this process owns;
        // MADV_HUGEPAGE changes how it is backed, never its contents.
        unsafe {
            libc::madvise(begin as *mut libc::c_void, end - begin, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_start: *const u8, _len: usize) {}

/// Entries a worker takes at a time.
const CHUNK: u64 = 1 << 12;

/// Runs `f` over `0..len` in chunks on `threads` threads.
fn for_each_chunk(len: u64, threads: usize, f: impl Fn(Range<u64>) + Sync) {
    let next = AtomicU64::new(0);
    let work = || loop {
        let start = next.fetch_add(CHUNK, Relaxed);
        if start >= len {
            break;
        }
        f(start..(start + CHUNK).min(len));
    };
    std::thread::scope(|s| {
        for _ in 1..threads {
            s.spawn(work);
        }
        work();
    });
}

impl<'a> PairBuild<'a> {
    fn new(rules: Rules, pair: &[Signature], known: &'a Tablebase, distances: bool) -> Self {
        let tables: Vec<TableIndex> = pair.iter().map(|&s| TableIndex::new(s)).collect();
        let mut offsets = Vec::new();
        let mut total = 0;
        for t in &tables {
            offsets.push(total);
            total += t.len();
        }
        PairBuild {
            rules,
            known,
            tables,
            offsets,
            cells: cells(total as usize, Cell::new(UNDECIDED, 0, 0)),
            distances,
            max_level: AtomicU32::new(0),
            due: (0..total.div_ceil(CHUNK))
                .map(|_| AtomicU64::new(0))
                .collect(),
        }
    }

    fn len(&self) -> u64 {
        self.cells.len() as u64
    }

    #[inline(always)]
    fn cell(&self, entry: u64) -> Cell {
        Cell(self.cells[entry as usize].load(Relaxed))
    }

    #[inline(always)]
    fn state(&self, entry: u64) -> u16 {
        self.cell(entry).state()
    }

    /// Notes that `entry` was given distance `d` (after storing it): its
    /// level must visit its chunk.
    #[inline]
    fn decided(&self, entry: u64, d: u32) {
        self.due[(entry / CHUNK) as usize].fetch_or(1 << (d % 64), Release);
        self.max_level.fetch_max(d, Relaxed);
    }

    /// Which table an entry is in, and its number there.
    #[inline]
    fn locate(&self, entry: u64) -> (usize, u64) {
        let t = usize::from(self.tables.len() == 2 && entry >= self.offsets[1]);
        (t, entry - self.offsets[t])
    }

    /// The table a quiet move from table `t` leads to.
    #[inline]
    fn partner(&self, t: usize) -> usize {
        if self.tables.len() == 2 {
            1 - t
        } else {
            0
        }
    }

    /// Where a move from table `t` leads; `child` has its side to move as "us".
    #[inline]
    fn successor(&self, t: usize, child: &Placement) -> Successor {
        let pt = self.partner(t);
        let table = &self.tables[pt];
        if child.signature() == table.signature() {
            return Successor::Inside(self.offsets[pt] + table.index(child));
        }
        let value = self.known.probe_placement(child).unwrap_or_else(|| {
            panic!(
                "table {} is needed before {} (build order)",
                child.signature(),
                self.tables[t].signature()
            )
        });
        if self.distances {
            assert!(
                value.wdl == Wdl::Draw || value.plies.is_some(),
                "table {} keeps no distances, {} needs them",
                child.signature(),
                self.tables[t].signature()
            );
        }
        Successor::Exit(value)
    }

    fn solve(&self, threads: usize) {
        for_each_chunk(self.len(), threads, |range| {
            let mut moves = MoveList::new();
            for entry in range {
                let cell = self.first_look(entry, &mut moves);
                self.cells[entry as usize].store(cell.0, Relaxed);
                if cell.state() < DRAW {
                    self.decided(entry, distance_of(cell.state()));
                }
            }
        });
        let mut level = 0;
        while level <= self.max_level.load(Relaxed) {
            let bit = 1u64 << (level % 64);
            for_each_chunk(self.len(), threads, |range| {
                // Cleared first: an entry marked after this is seen below
                // (the Acquire pairs with `decided`'s Release) or keeps its bit.
                let due = &self.due[(range.start / CHUNK) as usize];
                if due.fetch_and(!bit, AcqRel) & bit == 0 {
                    return;
                }
                let mut later = false;
                for entry in range {
                    let s = self.state(entry);
                    if is_decided_at(s, level) {
                        if is_pending(s) {
                            // Nothing else writes a decided entry's cell.
                            let cell = self.cell(entry).with_state(encode_distance(level));
                            self.cells[entry as usize].store(cell.0, Relaxed);
                        }
                        self.propagate(entry, level);
                    } else if s < DRAW && distance_of(s) % 64 == level % 64 {
                        later |= distance_of(s) > level;
                    }
                }
                if later {
                    due.fetch_or(bit, Release);
                }
            });
            level += 1;
        }
    }

    /// Step 1 for one entry: its state, its count of inside successors
    /// and its slowest exit.
    fn first_look(&self, entry: u64, moves: &mut MoveList) -> Cell {
        let (t, i) = self.locate(entry);
        if self.tables[t].positions_of(i) == 0 {
            return Cell::new(DRAW, 0, 0); // a number the index leaves unused
        }
        let pos = self.tables[t].placement(i).to_position(self.rules);
        movegen::generate(&pos, moves);
        if moves.is_empty() {
            return Cell::new(encode_distance(0), 0, 0);
        }
        let mut inside = 0usize;
        let mut quickest_win: Option<u32> = None;
        let mut slowest_loss = 0;
        let mut exit_draws = false;
        for mv in moves.iter() {
            // Only a quiet move that does not crown stays in the pair.
            if !mv.is_capture() && !mv.promotes {
                inside += 1;
                continue;
            }
            let Successor::Exit(v) = self.successor(t, &Placement::of(&pos.play(mv))) else {
                unreachable!("a capture or a crowning leaves the pair");
            };
            // A table without distances counts its result as its nearest
            // distance: a loss in 0, a win in 1 (the parity must stay the
            // result's, or a loss through won exits would read as a win).
            let after = v.plies.unwrap_or(match v.wdl {
                Wdl::Win => 1,
                Wdl::Loss | Wdl::Draw => 0,
            }) + 1;
            match v.wdl {
                Wdl::Loss => quickest_win = Some(quickest_win.map_or(after, |w| w.min(after))),
                Wdl::Win => slowest_loss = slowest_loss.max(after),
                Wdl::Draw => exit_draws = true,
            }
        }
        match quickest_win {
            Some(w) if inside == 0 => Cell::new(encode_distance(w), 0, 0),
            Some(w) => Cell::new(PENDING | encode_distance(w), 0, 0),
            None if inside == 0 && exit_draws => Cell::new(DRAW, 0, 0),
            None if inside == 0 => Cell::new(encode_distance(slowest_loss), 0, 0),
            None => {
                // Twice the moves (see `propagate`), and one that stays for a drawn exit.
                let n = 2 * inside + usize::from(exit_draws);
                let n = u8::try_from(n).expect("fewer than 128 quiet moves");
                // Should every inside move lose too, the loss is no quicker
                // than the slowest exit (`loss_distance`).
                Cell::new(UNDECIDED, n, slowest_loss)
            }
        }
    }

    /// Step 2 for one entry decided at `level`.
    ///
    /// An entry stands for a position C and its mirror image. Retracting
    /// moves from C alone finds every entry P with a move into either: a
    /// move from P's mirror image into C is a move from P into C's mirror
    /// image. Counting them: the N moves of P into C are found once each,
    /// its N' moves into mirror(C) once each again when P is not its own
    /// mirror image (from mirror(P)); while P counted N + N' moves, or N
    /// when C is its own mirror image (then N' = N, the same moves). And
    /// when P is its own mirror image its moves pair up (N' = N). So with
    /// each P counting twice its moves, each retraction takes off 2 when P
    /// and C are both symmetric or both not, 4 when only P is, 1 when only
    /// C is; every move has then been taken off exactly when every
    /// successor has been found won.
    fn propagate(&self, entry: u64, level: u32) {
        let (t, i) = self.locate(entry);
        let pt = self.partner(t);
        let table = &self.tables[pt];
        let here = self.tables[t].placement(i);
        let next = level + 1;
        let lost_here = level % 2 == 0;
        let here_symmetric = here.mirrored() == here;
        // Numbers first, states after: the state loads miss the cache, and
        // a loop of independent loads lets them overlap.
        let mut preds = ArrayVec::<(u64, bool), { crate::moves::MAX_MOVES }>::new();
        quiet_predecessors(&here.flipped(), self.rules.variant, |q| {
            preds.push((self.offsets[pt] + table.index(&q), q.mirrored() == q));
        });
        let mut cells = [Cell(0); crate::moves::MAX_MOVES];
        for (k, &(q, _)) in preds.iter().enumerate() {
            cells[k] = self.cell(q);
        }
        for (k, &(q, q_symmetric)) in preds.iter().enumerate() {
            let word = &self.cells[q as usize];
            if lost_here {
                // Each predecessor wins by moving here. Another thread may
                // change its count meanwhile: retry until the word holds.
                let improves = |c: Cell| {
                    let s = c.state();
                    s == UNDECIDED || (is_pending(s) && distance_of(s) > next)
                };
                let mut c = cells[k];
                while improves(c) {
                    match word.compare_exchange_weak(
                        c.0,
                        c.with_state(encode_distance(next)).0,
                        Relaxed,
                        Relaxed,
                    ) {
                        Ok(_) => {
                            self.decided(q, next);
                            break;
                        }
                        Err(now) => c = Cell(now),
                    }
                }
                continue;
            }
            // A win here: an escape fewer for each predecessor.
            if cells[k].state() != UNDECIDED {
                continue;
            }
            let take = match (q_symmetric, here_symmetric) {
                (true, false) => 4,
                (false, true) => 1,
                _ => 2,
            };
            let before = Cell(word.fetch_sub(take * COUNT_ONE, Relaxed));
            if before.count() == take {
                // Every move loses (a predecessor with a winning move keeps
                // that move in its count), so nothing else writes it now.
                debug_assert_eq!(before.state(), UNDECIDED);
                let d = self.loss_distance(q, before, level);
                let s = if d == next {
                    encode_distance(d)
                } else {
                    PENDING | encode_distance(d)
                };
                word.store(Cell::new(s, 0, 0).0, Relaxed);
                self.decided(q, d);
            }
        }
    }

    /// The distance of an entry all of whose moves lose, its last inside
    /// successor having been found won at `level`: one more than its
    /// slowest. Levels come in order, so no inside successor is slower
    /// than `level`; the slowest exit was kept by the first look.
    fn loss_distance(&self, entry: u64, cell: Cell, level: u32) -> u32 {
        if !self.distances {
            return level + 1;
        }
        if cell.slowest_exit() != EXIT_UNKNOWN {
            return (level + 1).max(cell.slowest_exit());
        }
        // An exit too slow for the cell's byte: look at every move again.
        let (t, i) = self.locate(entry);
        let pos = self.tables[t].placement(i).to_position(self.rules);
        let mut slowest = level;
        let mut moves = MoveList::new();
        movegen::generate(&pos, &mut moves);
        for mv in moves.iter() {
            let d = match self.successor(t, &Placement::of(&pos.play(mv))) {
                Successor::Inside(e) => distance_of(self.state(e)),
                Successor::Exit(v) => v.plies.expect("distances kept"),
            };
            slowest = slowest.max(d);
        }
        slowest + 1
    }

    /// The final value of every entry of table `t`, as a file.
    fn encode(&self, t: usize) -> (Header, Vec<u8>) {
        let table = &self.tables[t];
        let range = self.offsets[t]..self.offsets[t] + table.len();
        let value = |e: u64| match self.state(e) {
            UNDECIDED | DRAW => Value::DRAW,
            s => {
                debug_assert!(!is_pending(s), "pending after the last level");
                Value::decided(distance_of(s))
            }
        };
        let mut stats = TableStats::default();
        let mut longest = 0;
        let mut longest_any = 0;
        for e in range.clone() {
            let v = value(e);
            let n = u64::from(table.positions_of(e - range.start));
            match v.wdl {
                Wdl::Win => stats.wins += n,
                Wdl::Draw => stats.draws += n,
                Wdl::Loss => stats.losses += n,
            }
            if let Some(d) = v.plies {
                longest_any = longest_any.max(d);
                if v.wdl == Wdl::Win {
                    longest = longest.max(d);
                }
            }
        }
        let encoding = if !self.distances {
            Encoding::Wdl2
        } else if longest_any < u32::from(u8::MAX) {
            Encoding::Dtm8
        } else {
            Encoding::Dtm16
        };
        if self.distances {
            stats.longest_win = Some(longest);
        }
        let mut payload = vec![0u8; encoding.payload_len(table.len()) as usize];
        for e in range.clone() {
            encoding.store(&mut payload, e - range.start, value(e));
        }
        let header = Header {
            rules: self.rules,
            signature: table.signature(),
            encoding,
            entries: table.len(),
            stats,
            payload_len: payload.len() as u64,
        };
        (header, payload)
    }
}
