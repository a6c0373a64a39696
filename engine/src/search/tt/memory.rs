//! The table's memory: an anonymous mapping, so that making a table of
//! many gigabytes writes nothing before `readyok`, and none of it is
//! resident until a search uses the table.
//!
//! The system hands out a fresh mapping already zeroed, and backs a page
//! with memory when it is first touched, which costs about what writing
//! it costs (the system zeroes the page). A search probing a fresh table at
//! random would pay that on nearly every node at first, a stall too long
//! for its clock checks. So when the first search starts (`touch_for_search`),
//! the pages are touched ahead of it: a table of up to `TOUCHED_WHOLE_UP_TO`
//! at once, a larger one by a thread of its own, a chunk at a time, the
//! search using only the buckets touched so far: `ready()` grows from the
//! first 4 MB to the whole table. The table's index never changes
//! (`TranspositionTable::bucket`, which meanwhile keeps the keys of the
//! buckets not yet touched in stand-ins among the first 4 MB). A table of
//! up to `TOUCHED_WHOLE_UP_TO` is touched earlier, when the engine is idle
//! and asked whether it is ready (`touch_if_small`, from `isready` and Hub
//! `init`), so that the first move does not pay for it on its clock; a
//! larger one is touched by nothing before a search: a GUI that asks for
//! 12 GB and never searches does not make them resident, and `isready`
//! answers at once.
//!
//! How a page is touched, per platform: on Linux 5.14 and later the kernel
//! faults a chunk in (`MADV_POPULATE_WRITE`, which writes nothing); where
//! it cannot (an older Linux, which refuses the advice; macOS; Windows),
//! one word a page is written (`touch_by_writing`): a zero swapped for a
//! zero, which commits the page as any write does and leaves what it holds
//! unchanged.
//! On Windows the whole mapping is charged against the system's commit
//! limit when it is made (`Hash` fails there, and is halved, rather than
//! later); on Linux and macOS only the pages touched count.
//!
//! The buckets start on a 2 MB boundary and carry the huge-page advice, so
//! that on Linux the kernel can back them with 2 MB pages: a random probe
//! then rarely misses the TLB, which otherwise costs more than the probe
//! itself.

use super::Bucket;
use memmap2::{MmapOptions, MmapRaw};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

const HUGE_PAGE: usize = 2 << 20;

/// Tables up to this size are touched whole when the engine is asked
/// whether it is ready, or at the latest when the first search starts,
/// before it probes: a few milliseconds on an idle machine, once, and the
/// search then sees the whole table from its first node (which keeps
/// `bench` node counts exact); a search faulting them in itself paid up to
/// 0.1 s on its first move, and ten times that on a loaded machine, where
/// each huge page may wait for the system to compact memory.
const TOUCHED_WHOLE_UP_TO: usize = 64 << 20;

/// What is touched at a time: the table grows by as much. Small, because
/// the system holds the process's memory map while it touches a chunk, and
/// any thread that maps memory meanwhile (to start a search thread, say)
/// waits for it.
const POPULATE_CHUNK: usize = HUGE_PAGE;

/// What a search of a large table waits to be touched before it starts,
/// so that it has a table of some size.
const POPULATE_FIRST: usize = 4 << 20;

/// How many buckets, from the first, are touched before a search of a
/// large new table begins: the stand-ins of the buckets not yet touched
/// (`TranspositionTable::bucket`).
pub(super) const STAND_INS: usize = POPULATE_FIRST / std::mem::size_of::<Bucket>();

/// The smallest page of any system Tama builds for: one word written this
/// far apart touches every page, whatever the system's page size.
const SMALLEST_PAGE: usize = 4096;

/// How pages are touched (see the module comment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TouchMethod {
    /// The kernel faults a chunk in (`MADV_POPULATE_WRITE`).
    Advise,
    /// One word a page written (`touch_by_writing`).
    Write,
}

impl TouchMethod {
    /// The platform's way: the advice where the kernel may know it (an
    /// older Linux refuses it, and `Populate` then writes instead).
    const PLATFORM: TouchMethod = if cfg!(target_os = "linux") {
        TouchMethod::Advise
    } else {
        TouchMethod::Write
    };
}

/// The bucket array (see the module comment).
pub(super) struct Buckets {
    /// The first bucket: the first 2 MB boundary of `map`.
    base: NonNull<Bucket>,
    len: usize,
    /// How many buckets, from the first, the search may use now.
    ready: Arc<AtomicUsize>,
    touch: Mutex<Touch>,
    method: TouchMethod,
    map: Arc<MmapRaw>,
}

/// How far the pages of the table have been touched.
enum Touch {
    /// Not at all: no search has used the table since it was made or its
    /// pages were given back.
    NotYet,
    /// By the populating thread, ahead of the search.
    Running(Populating),
    /// Whole (or left to the search to fault in, where the system declined).
    Done,
}

// SAFETY: the buckets are atomics only; the mapping is owned like a Box.
unsafe impl Send for Buckets {}
unsafe impl Sync for Buckets {}

/// The thread touching the pages ahead of the search.
struct Populating {
    stop: Arc<AtomicBool>,
    thread: JoinHandle<()>,
}

impl Buckets {
    /// `len` empty buckets; `None` when the system refuses the memory (a
    /// GUI may ask for more than the process may have; that must not kill
    /// the engine).
    pub(super) fn try_new(len: usize) -> Option<Buckets> {
        assert!(len > 0);
        let bytes = len.checked_mul(std::mem::size_of::<Bucket>())?;
        // One huge page more than needed, to start on a boundary; the part
        // before it is never touched, so it costs address space only.
        let map = MmapOptions::new()
            .len(bytes.checked_add(HUGE_PAGE)?)
            .map_anon()
            .ok()?;
        let offset = map.as_ptr().align_offset(HUGE_PAGE);
        debug_assert!(offset < HUGE_PAGE);
        #[cfg(target_os = "linux")]
        // Advice only: without huge pages the table works, a little slower.
        let _ = map.advise_range(memmap2::Advice::HugePage, offset, bytes);
        let map = MmapRaw::from(map);
        // SAFETY: `offset` is within the mapping, which is not null.
        let base = unsafe { NonNull::new_unchecked(map.as_mut_ptr().add(offset).cast()) };
        Some(Buckets {
            base,
            len,
            ready: Arc::new(AtomicUsize::new(len)),
            touch: Mutex::new(Touch::NotYet),
            method: TouchMethod::PLATFORM,
            map: Arc::new(map),
        })
    }

    /// Gets the pages ready for a search that is about to start: the first
    /// time after the table was made or cleared, touches them (see the
    /// module comment); afterwards nothing. Called once per search, before
    /// its threads probe.
    pub(super) fn touch_for_search(&self) {
        let mut touch = self.touch.lock().unwrap_or_else(|e| e.into_inner());
        if matches!(*touch, Touch::NotYet) {
            *touch = self.populate();
        }
    }

    /// Touches the pages of a table small enough to be touched whole
    /// (`TOUCHED_WHOLE_UP_TO`) now, as the first search would; a larger table is
    /// left for a search (see the module comment).
    pub(super) fn touch_if_small(&self) {
        if self.bytes() <= TOUCHED_WHOLE_UP_TO {
            self.touch_for_search();
        }
    }

    /// How many buckets, from the first, the search may use now: all of
    /// them, or while the pages are being touched, those touched so far.
    #[inline]
    pub(super) fn ready(&self) -> usize {
        self.ready.load(Ordering::Relaxed)
    }

    fn bytes(&self) -> usize {
        self.len * std::mem::size_of::<Bucket>()
    }

    /// Touches the first `POPULATE_FIRST` bytes, and starts the thread
    /// that touches the rest (large tables); the table is then ready chunk
    /// by chunk. Small tables are touched whole.
    fn populate(&self) -> Touch {
        let start = self.base.as_ptr() as usize - self.map.as_ptr() as usize;
        let mut chunk = Populate {
            map: Arc::clone(&self.map),
            start,
            end: start + self.bytes(),
            ready: Arc::clone(&self.ready),
            stop: Arc::new(AtomicBool::new(false)),
            method: self.method,
        };
        self.ready.store(0, Ordering::Relaxed);
        if self.bytes() <= TOUCHED_WHOLE_UP_TO {
            while chunk.next() {}
            return Touch::Done;
        }
        while self.ready() * std::mem::size_of::<Bucket>() < POPULATE_FIRST {
            if !chunk.next() {
                return Touch::Done;
            }
        }
        let stop = Arc::clone(&chunk.stop);
        let spawned = std::thread::Builder::new()
            .name("hash-populate".into())
            .spawn(move || while chunk.next() {});
        match spawned {
            Ok(thread) => Touch::Running(Populating { stop, thread }),
            // No thread: the whole table at once, its pages faulted in by
            // the search as it goes.
            Err(_) => {
                self.ready.store(self.len, Ordering::Relaxed);
                Touch::Done
            }
        }
    }

    /// Stops the populating thread, if one runs (it is mid-chunk at most);
    /// what it touched so far stays ready.
    fn stop_populating(&mut self) {
        let touch = self.touch.get_mut().unwrap_or_else(|e| e.into_inner());
        if matches!(touch, Touch::Running(_)) {
            if let Touch::Running(p) = std::mem::replace(touch, Touch::Done) {
                p.stop.store(true, Ordering::Relaxed);
                let _ = p.thread.join();
            }
        }
    }

    /// Empties every bucket by giving the pages back to the system, which
    /// hands them out zeroed again (Linux; elsewhere zeros are written).
    /// `&mut self`: no search is using them.
    pub(super) fn clear(&mut self) {
        self.stop_populating();
        #[cfg(target_os = "linux")]
        {
            let start = self.base.as_ptr() as usize - self.map.as_ptr() as usize;
            // SAFETY: no reference into the buckets outlives this `&mut
            // self`, and on Linux a private anonymous page given back reads
            // as zeros afterwards: all-zero buckets, valid and empty.
            let returned = unsafe {
                self.map.unchecked_advise_range(
                    memmap2::UncheckedAdvice::DontNeed,
                    start,
                    self.bytes(),
                )
            };
            if returned.is_ok() {
                // Touched again when the next search starts.
                *self.touch.get_mut().unwrap_or_else(|e| e.into_inner()) = Touch::NotYet;
                self.ready.store(self.len, Ordering::Relaxed);
                return;
            }
        }
        // SAFETY: the buckets lie within the mapping, and `&mut self` makes
        // the access exclusive.
        unsafe { std::ptr::write_bytes(self.base.as_ptr(), 0, self.len) }
        self.ready.store(self.len, Ordering::Relaxed);
        *self.touch.get_mut().unwrap_or_else(|e| e.into_inner()) = Touch::Done;
    }
}

/// The populating work: `start..end` of `map`, touched so far up to the
/// bucket `ready` says.
struct Populate {
    map: Arc<MmapRaw>,
    start: usize,
    end: usize,
    ready: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
    // Read where the kernel may populate (Linux); elsewhere always `Write`.
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    method: TouchMethod,
}

impl Populate {
    /// Touches the next chunk and makes it ready; `false` when there is
    /// nothing left to do: all done, stopped, or the system declined (no
    /// memory to spare right now), in which case the whole table is ready
    /// and the search faults the rest in itself.
    fn next(&mut self) -> bool {
        let size = std::mem::size_of::<Bucket>();
        let done = self.ready.load(Ordering::Relaxed) * size;
        let (at, all) = (self.start + done, (self.end - self.start) / size);
        if at >= self.end || self.stop.load(Ordering::Relaxed) {
            return false;
        }
        let n = POPULATE_CHUNK.min(self.end - at);
        if !self.touch(at, n) {
            self.ready.store(all, Ordering::Relaxed);
            return false;
        }
        self.ready.store((done + n) / size, Ordering::Relaxed);
        true
    }

    /// Touches the `n` bytes of `map` from `at`, by the kernel's advice or
    /// else by writing; `false` when the kernel declined for want of memory.
    fn touch(&mut self, at: usize, n: usize) -> bool {
        #[cfg(target_os = "linux")]
        if self.method == TouchMethod::Advise {
            match self.map.advise_range(memmap2::Advice::PopulateWrite, at, n) {
                Ok(()) => return true,
                // A kernel before 5.14 does not know the advice.
                Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => {
                    self.method = TouchMethod::Write;
                }
                Err(_) => return false,
            }
        }
        touch_by_writing(&self.map, at, n);
        true
    }
}

/// Writes one word a page of the `n` bytes of `map` from `at` (a bucket's
/// start, within the buckets): each page is then backed by memory, as the
/// kernel's advice would leave it, and what it holds is unchanged.
fn touch_by_writing(map: &MmapRaw, at: usize, n: usize) {
    for page in (at..at + n).step_by(SMALLEST_PAGE) {
        // SAFETY: `page` lies within the buckets and is 8-aligned (`at` is a
        // bucket's start, 64-aligned, and pages are 4096 apart); the buckets
        // are atomics only, so writing through a shared reference is sound.
        let word = unsafe { &*map.as_mut_ptr().add(page).cast::<AtomicU64>() };
        // A zero replaced by zero: a write to a fresh page, and no change to
        // a word already written. (Not "or 0": the compiler may make that a
        // load, which maps the system's shared zero page, not memory.)
        let _ = word.compare_exchange(0, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

#[cfg(test)]
impl Buckets {
    /// Makes the first `n` buckets ready, as touching them would (for the
    /// table's tests).
    pub(super) fn set_ready(&self, n: usize) {
        self.ready.store(n.min(self.len), Ordering::Relaxed);
    }
}

impl Drop for Buckets {
    fn drop(&mut self) {
        self.stop_populating();
    }
}

impl std::ops::Deref for Buckets {
    type Target = [Bucket];
    fn deref(&self) -> &[Bucket] {
        // SAFETY: `base` holds `len` buckets, aligned (a 2 MB boundary),
        // for as long as `map` lives; zeroed memory is valid buckets, and
        // buckets are atomics only, so shared references may write through
        // them (the populating thread too, where it touches by writing).
        unsafe { std::slice::from_raw_parts(self.base.as_ptr(), self.len) }
    }
}

impl std::ops::DerefMut for Buckets {
    fn deref_mut(&mut self) -> &mut [Bucket] {
        // SAFETY: as above, and `&mut self` makes the access exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.base.as_ptr(), self.len) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_zero(b: &Buckets) -> bool {
        b.iter()
            .all(|x| x.words.iter().all(|w| w.load(Ordering::Relaxed) == 0))
    }

    fn scribble(b: &Buckets) {
        for (i, x) in b.iter().enumerate() {
            x.words[i % 8].store(i as u64 | 1, Ordering::Relaxed);
        }
    }

    impl Buckets {
        fn is_populating(&self) -> bool {
            matches!(*self.touch.lock().unwrap(), Touch::Running(_))
        }
    }

    #[test]
    fn buckets_start_empty_on_a_huge_page_and_clear_to_empty() {
        let mut b = Buckets::try_new(3 * HUGE_PAGE / 64).unwrap();
        b.touch_for_search();
        assert!(!b.is_populating());
        assert_eq!(b.ready(), b.len());
        assert_eq!(b.as_ptr() as usize % HUGE_PAGE, 0);
        assert_eq!(b.len(), 3 * HUGE_PAGE / 64);
        assert!(all_zero(&b));
        scribble(&b);
        assert!(!all_zero(&b));
        b.clear();
        assert!(all_zero(&b));
        // Still usable after the pages went back.
        b[5].words[3].store(7, Ordering::Relaxed);
        assert_eq!(b[5].words[3].load(Ordering::Relaxed), 7);
    }

    /// A large table grows ready chunk by chunk up to the whole once a
    /// search starts, and populating never changes what is stored.
    #[test]
    fn a_large_table_becomes_ready_chunk_by_chunk() {
        let len = 2 * TOUCHED_WHOLE_UP_TO / 64;
        let chunk = POPULATE_CHUNK / 64;
        let mut b = Buckets::try_new(len).unwrap();
        // Nothing is touched before a search: all of it may be addressed.
        assert_eq!(b.ready(), len);
        b.touch_for_search();
        let first = b.ready();
        assert!(
            first >= POPULATE_FIRST / 64 && first % chunk == 0,
            "{first}"
        );
        scribble(&b);
        let mut seen = vec![first];
        while seen.last() != Some(&len) {
            std::thread::yield_now();
            let r = b.ready();
            assert!(r >= *seen.last().unwrap() && (r % chunk == 0 || r == len));
            if r != *seen.last().unwrap() {
                seen.push(r);
            }
        }
        // A second search finds the table touched: nothing starts again.
        b.touch_for_search();
        assert_eq!(b.ready(), len);
        b.stop_populating();
        for (i, x) in b.iter().enumerate() {
            assert_eq!(x.words[i % 8].load(Ordering::Relaxed), i as u64 | 1);
        }
        b.clear();
        assert!(all_zero(&b));
        b.touch_for_search();
        assert!(b.ready() >= POPULATE_FIRST / 64);
        assert!(all_zero(&b));
    }

    /// The resident kilobytes of the mapping holding `addr`, from
    /// /proc/self/smaps.
    #[cfg(target_os = "linux")]
    fn resident_kb(addr: usize) -> usize {
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
        let mut inside = false;
        for line in smaps.lines() {
            let range = line.split_whitespace().next().unwrap_or("");
            if let Some((a, b)) = range.split_once('-') {
                if let (Ok(a), Ok(b)) = (usize::from_str_radix(a, 16), usize::from_str_radix(b, 16))
                {
                    inside = a <= addr && addr < b;
                    continue;
                }
            }
            if inside {
                if let Some(kb) = line.strip_prefix("Rss:") {
                    return kb.trim().trim_end_matches("kB").trim().parse().unwrap();
                }
            }
        }
        panic!("no mapping holds {addr:#x}");
    }

    /// No table is resident before a search uses it (a GUI may set a
    /// large `Hash` and never search); a table small enough to be touched
    /// whole is resident as soon as a search starts, before it probes, and
    /// again at the first search after a clear gave the pages back.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_table_is_resident_only_once_a_search_uses_it() {
        let large = Buckets::try_new(4 * TOUCHED_WHOLE_UP_TO / 64).unwrap();
        assert!(resident_kb(large.as_ptr() as usize) < 1024);
        drop(large);
        let bytes = TOUCHED_WHOLE_UP_TO / 2;
        let mut b = Buckets::try_new(bytes / 64).unwrap();
        assert!(resident_kb(b.as_ptr() as usize) < 1024);
        b.touch_for_search();
        assert!(!b.is_populating());
        assert!(resident_kb(b.as_ptr() as usize) >= bytes / 1024);
        scribble(&b);
        b.clear();
        assert!(resident_kb(b.as_ptr() as usize) < 1024);
        assert!(all_zero(&b));
        b.touch_for_search();
        assert!(resident_kb(b.as_ptr() as usize) >= bytes / 1024);
        assert!(all_zero(&b));
    }

    /// Getting ready while idle touches a small table whole and leaves a
    /// large one untouched, with no thread started for it.
    #[cfg(target_os = "linux")]
    #[test]
    fn getting_ready_touches_a_small_table_and_not_a_large_one() {
        let large = Buckets::try_new(4 * TOUCHED_WHOLE_UP_TO / 64).unwrap();
        large.touch_if_small();
        assert!(!large.is_populating());
        assert!(resident_kb(large.as_ptr() as usize) < 1024);
        drop(large);
        let bytes = TOUCHED_WHOLE_UP_TO;
        let b = Buckets::try_new(bytes / 64).unwrap();
        b.touch_if_small();
        assert!(!b.is_populating());
        assert_eq!(b.ready(), b.len());
        assert!(resident_kb(b.as_ptr() as usize) >= bytes / 1024);
    }

    /// Where the kernel cannot populate (macOS, Windows, Linux before
    /// 5.14), a word a page is written: a small table is then resident
    /// whole, and a large one chunk by chunk, what a search stores in it
    /// meanwhile kept.
    #[test]
    fn touching_by_writing_makes_pages_resident_and_changes_nothing() {
        let bytes = TOUCHED_WHOLE_UP_TO / 2;
        let mut small = Buckets::try_new(bytes / 64).unwrap();
        small.method = TouchMethod::Write;
        small.touch_if_small();
        assert!(!small.is_populating());
        assert_eq!(small.ready(), small.len());
        #[cfg(target_os = "linux")]
        assert!(resident_kb(small.as_ptr() as usize) >= bytes / 1024);
        assert!(all_zero(&small));
        drop(small);
        let len = 2 * TOUCHED_WHOLE_UP_TO / 64;
        let mut large = Buckets::try_new(len).unwrap();
        large.method = TouchMethod::Write;
        large.touch_for_search();
        scribble(&large);
        while large.ready() < len {
            std::thread::yield_now();
        }
        large.stop_populating();
        #[cfg(target_os = "linux")]
        assert!(resident_kb(large.as_ptr() as usize) >= len * 64 / 1024);
        for (i, x) in large.iter().enumerate() {
            assert_eq!(x.words[i % 8].load(Ordering::Relaxed), i as u64 | 1);
        }
    }

    #[test]
    fn more_than_the_address_space_is_refused() {
        assert!(Buckets::try_new(usize::MAX / 64).is_none());
        assert!(Buckets::try_new(1 << 52).is_none());
    }
}
