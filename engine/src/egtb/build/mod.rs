//! Retrograde analysis: every table of up to N pieces, smallest first.
//!
//! Tables are built in pairs: a signature and its flipped twin (the same
//! material with the other side to move), because a quiet move leads from
//! one to the other and nowhere else. Every other move leaves the pair: a
//! capture to a table with fewer pieces, a crowning to one with a king more
//! (more kings at equal piece count are built first), so those moves are
//! looked up in finished tables ("exits").
//!
//! 1. Every entry is played forwards once (`Pair::first_look`): no move is
//!    a loss in 0; a capture due, or exits only, decide it at once from the
//!    finished tables; an exit into a lost position makes it a win.
//!    Otherwise it counts its distinct successors inside the pair (plus one
//!    that never goes away if an exit draws: it can then never be lost).
//! 2. Decided entries are played backwards (`unmove`): a loss makes every
//!    undecided predecessor a win; a win takes one off each undecided
//!    predecessor's count, and a count reaching zero means every move
//!    loses: a loss.
//! 3. What is still undecided can be held forever: a draw (cycles are
//!    normal: kings, and men stepping sideways).
//!
//! Tables of up to `distance_pieces` pieces keep the distance to the end
//! (`distance`: 4 bytes an entry while building, decided entries played
//! backwards level by level, distance 0, 1, 2, ..., so that every win is
//! the quickest and every loss the slowest). Larger tables keep only
//! win/draw/loss (`results`: one byte an entry while building, decided
//! entries played backwards in any order, which the results do not depend
//! on); a move into a table that keeps no distance counts as the nearest
//! distance of its result (a loss in 0, a win in 1).

mod distance;
mod results;

use super::compress::{compress_bytes, CompressOptions};
use super::file::{file_name, Encoding, Header, Layout, TableStats};
use super::index::TableIndex;
use super::placement::Placement;
use super::probe::{EgtbError, Table, Tablebase};
use super::signature::Signature;
use super::unmove::quiet_predecessors;
use super::value::{Value, Wdl};
use super::write::write_atomically;
use crate::movegen;
use crate::moves::MoveList;
use crate::rules::Rules;
use arrayvec::ArrayVec;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
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
    /// Threads that share each level of the analysis (and compress the
    /// blocks of each table).
    pub threads: usize,
    /// Write each table compressed (format version 2), the bytes that
    /// `compress_dir` would make of the plain file; `None`: plain.
    pub compress: Option<CompressOptions>,
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
    let group = Pair::new(opts.rules, pair, known, keeps_distances(opts, pair[0]));
    let entries = group.len();
    progress(Progress::Started {
        signatures: pair.to_vec(),
        entries,
    });
    let threads = opts.threads.max(1);
    let solved: Box<dyn Solved + '_> = if group.distances {
        Box::new(distance::solve(&group, threads))
    } else {
        Box::new(results::solve(&group, threads))
    };
    let mut bytes = 0;
    for (t, path) in paths.iter().enumerate() {
        let (header, payload) = group.encode(t, &*solved);
        bytes += match opts.compress {
            None => {
                write_atomically(path, &header.encode(&payload), &payload)?;
                (super::file::HEADER_LEN + payload.len()) as u64
            }
            Some(packing) => {
                let file =
                    compress_bytes(&header, &payload, &CompressOptions { threads, ..packing })
                        .map_err(|reason| EgtbError::Compression {
                            path: path.clone(),
                            reason,
                        })?;
                write_atomically(path, &file, &[])?;
                file.len() as u64
            }
        };
    }
    drop(solved);
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

fn keeps_distances(opts: &BuildOptions, s: Signature) -> bool {
    s.pieces() <= opts.distance_pieces
}

/// Working memory of a pair's build per entry, besides the payload being
/// written and the input tables mapped: what bounds the largest pair that
/// fits in memory. `distances`: whether the pair's tables keep them.
pub fn build_bytes_per_entry(distances: bool) -> u64 {
    if distances {
        distance::BYTES_PER_ENTRY
    } else {
        results::BYTES_PER_ENTRY
    }
}

/// A solved pair: the final value of each entry.
trait Solved: Sync {
    fn value(&self, entry: u64) -> Value;
}

/// A successor of an entry: inside the pair (an entry number) or decided.
enum Successor {
    Inside(u64),
    Exit(Value),
}

/// What playing an entry forwards once finds.
#[derive(Clone, Copy, Debug)]
enum Look {
    /// A draw: a number the index leaves unused, or no quiet move and an
    /// exit that draws.
    Draw,
    /// Decided by its exits alone: a loss in 0 with no move, else the
    /// distance its exits give. `pending`: a win through an exit while
    /// quiet moves remain, which a quicker win inside the pair may beat.
    Decided { distance: u32, pending: bool },
    /// To be decided inside the pair: `count` is twice its quiet moves
    /// (see `Pair::predecessors`) plus one that never goes away if an
    /// exit draws; `slowest_exit` the loss distance its exits give,
    /// should every inside move lose too.
    Open { count: u32, slowest_exit: u32 },
}

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

/// `len` cells made by `new`, in memory asked to be backed by huge pages:
/// the build reads them at random, and with 4 KB pages nearly every read
/// of a large pair also misses the TLB.
fn cells<T>(len: usize, new: impl Fn() -> T) -> Vec<T> {
    let mut v: Vec<T> = Vec::with_capacity(len);
    advise_huge_pages(v.as_ptr().cast(), len * std::mem::size_of::<T>());
    v.resize_with(len, new);
    v
}

/// `n` words of flags, all clear.
fn flag_words(n: u64) -> Vec<AtomicU64> {
    (0..n).map(|_| AtomicU64::new(0)).collect()
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

/// One pair of tables being built: their indexes, entry numbers running
/// on from the first table into the second, and the finished tables their
/// exits lead to.
struct Pair<'a> {
    rules: Rules,
    known: &'a Tablebase,
    tables: Vec<TableIndex>,
    /// Entry number of each table's first entry.
    offsets: Vec<u64>,
    len: u64,
    /// Whether the pair's tables keep distances (then so must its exits).
    distances: bool,
}

impl<'a> Pair<'a> {
    fn new(rules: Rules, pair: &[Signature], known: &'a Tablebase, distances: bool) -> Self {
        let tables: Vec<TableIndex> = pair.iter().map(|&s| TableIndex::new(s)).collect();
        let mut offsets = Vec::new();
        let mut len = 0;
        for t in &tables {
            offsets.push(len);
            len += t.len();
        }
        Pair {
            rules,
            known,
            tables,
            offsets,
            len,
            distances,
        }
    }

    fn len(&self) -> u64 {
        self.len
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

    /// Step 1 for one entry.
    fn first_look(&self, entry: u64, moves: &mut MoveList) -> Look {
        let (t, i) = self.locate(entry);
        if self.tables[t].positions_of(i) == 0 {
            return Look::Draw;
        }
        let pos = self.tables[t].placement(i).to_position(self.rules);
        movegen::generate(&pos, moves);
        if moves.is_empty() {
            return Look::Decided {
                distance: 0,
                pending: false,
            };
        }
        let mut inside = 0u32;
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
            Some(w) => Look::Decided {
                distance: w,
                pending: inside > 0,
            },
            None if inside == 0 && exit_draws => Look::Draw,
            None if inside == 0 => Look::Decided {
                distance: slowest_loss,
                pending: false,
            },
            None => Look::Open {
                count: 2 * inside + u32::from(exit_draws),
                slowest_exit: slowest_loss,
            },
        }
    }

    /// The entries with a quiet move into `entry`, each with what a win
    /// at `entry` takes off its count (`Look::Open`).
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
    fn predecessors(&self, entry: u64) -> ArrayVec<(u64, u32), { crate::moves::MAX_MOVES }> {
        let (t, i) = self.locate(entry);
        let pt = self.partner(t);
        let table = &self.tables[pt];
        let here = self.tables[t].placement(i);
        let here_symmetric = here.mirrored() == here;
        let mut preds = ArrayVec::new();
        quiet_predecessors(&here.flipped(), self.rules.variant, |q| {
            let take = match (q.mirrored() == q, here_symmetric) {
                (true, false) => 4,
                (false, true) => 1,
                _ => 2,
            };
            preds.push((self.offsets[pt] + table.index(&q), take));
        });
        preds
    }

    /// The final value of every entry of table `t`, as a file.
    fn encode(&self, t: usize, solved: &dyn Solved) -> (Header, Vec<u8>) {
        let table = &self.tables[t];
        let range = self.offsets[t]..self.offsets[t] + table.len();
        let mut stats = TableStats::default();
        let mut longest = 0;
        let mut longest_any = 0;
        for e in range.clone() {
            let v = solved.value(e);
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
            encoding.store(&mut payload, e - range.start, solved.value(e));
        }
        let header = Header {
            rules: self.rules,
            signature: table.signature(),
            encoding,
            layout: Layout::Plain,
            entries: table.len(),
            stats,
            payload_len: payload.len() as u64,
        };
        (header, payload)
    }
}
