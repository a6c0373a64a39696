//! The table's memory: an anonymous mapping, so that making a table of
//! many gigabytes writes nothing before `readyok`.
//!
//! The system hands out a fresh mapping already zeroed, and backs a page
//! with memory when it is first touched, which costs about what writing
//! it costs (the kernel zeroes the page). A search probing a fresh table at
//! random would pay that on nearly every node at first, a stall too long
//! for its clock checks. So the pages are touched ahead of the search by a
//! thread of its own, a chunk at a time (`MADV_POPULATE_WRITE` faults pages
//! in without writing them), and the search uses only the buckets touched
//! so far: `ready()` grows from the first 4 MB to the whole table. A table
//! of up to `POPULATE_ABOVE` is ready at once.
//!
//! The buckets start on a 2 MB boundary and carry the huge-page advice, so
//! that on Linux the kernel can back them with 2 MB pages: a random probe
//! then rarely misses the TLB, which otherwise costs more than the probe
//! itself.

use super::Bucket;
use memmap2::{MmapOptions, MmapRaw};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

const HUGE_PAGE: usize = 2 << 20;

/// Tables up to this size are touched whole before they are handed out
/// (at `isready`, not on the clock): a few milliseconds on an idle machine,
/// but a search faulting them in itself paid up to 0.1 s on its first move,
/// and ten times that on a loaded machine, where each huge page may wait for
/// the system to compact memory.
const POPULATE_ABOVE: usize = 64 << 20;

/// What is touched at a time: the table grows by as much. Small, because
/// the system holds the process's memory map while it touches a chunk, and
/// any thread that maps memory meanwhile (to start a search thread, say)
/// waits for it.
const POPULATE_CHUNK: usize = HUGE_PAGE;

/// What is touched before the table is handed out, so that the first
/// search has a table of some size.
const POPULATE_FIRST: usize = 4 << 20;

/// The bucket array (see the module comment).
pub(super) struct Buckets {
    /// The first bucket: the first 2 MB boundary of `map`.
    base: NonNull<Bucket>,
    len: usize,
    /// How many buckets, from the first, the search may use now.
    ready: Arc<AtomicUsize>,
    populating: Option<Populating>,
    map: Arc<MmapRaw>,
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
        let mut buckets = Buckets {
            base,
            len,
            ready: Arc::new(AtomicUsize::new(len)),
            populating: None,
            map: Arc::new(map),
        };
        buckets.populate();
        Some(buckets)
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
    /// that touches the rest (large tables, Linux); the table is then ready
    /// chunk by chunk.
    fn populate(&mut self) {
        if !cfg!(target_os = "linux") {
            self.ready.store(self.len, Ordering::Relaxed);
            return;
        }
        let start = self.base.as_ptr() as usize - self.map.as_ptr() as usize;
        let chunk = Populate {
            map: Arc::clone(&self.map),
            start,
            end: start + self.bytes(),
            ready: Arc::clone(&self.ready),
            stop: Arc::new(AtomicBool::new(false)),
        };
        self.ready.store(0, Ordering::Relaxed);
        if self.bytes() <= POPULATE_ABOVE {
            while chunk.next() {}
            return;
        }
        while self.ready() * std::mem::size_of::<Bucket>() < POPULATE_FIRST {
            if !chunk.next() {
                return;
            }
        }
        let stop = Arc::clone(&chunk.stop);
        let spawned = std::thread::Builder::new()
            .name("hash-populate".into())
            .spawn(move || while chunk.next() {});
        match spawned {
            Ok(thread) => self.populating = Some(Populating { stop, thread }),
            // No thread: the whole table at once, its pages faulted in by
            // the search as it goes.
            Err(_) => self.ready.store(self.len, Ordering::Relaxed),
        }
    }

    /// Stops the populating thread (it is mid-chunk at most).
    fn stop_populating(&mut self) {
        if let Some(p) = self.populating.take() {
            p.stop.store(true, Ordering::Relaxed);
            let _ = p.thread.join();
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
                self.populate();
                return;
            }
        }
        // SAFETY: the buckets lie within the mapping, and `&mut self` makes
        // the access exclusive.
        unsafe { std::ptr::write_bytes(self.base.as_ptr(), 0, self.len) }
        self.ready.store(self.len, Ordering::Relaxed);
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
}

impl Populate {
    /// Touches the next chunk and makes it ready; `false` when there is
    /// nothing left to do: all done, stopped, or the system declined (an
    /// old kernel, or no memory to spare right now), in which case the
    /// whole table is ready and the search faults the rest in itself.
    fn next(&self) -> bool {
        let size = std::mem::size_of::<Bucket>();
        let done = self.ready.load(Ordering::Relaxed) * size;
        let (at, all) = (self.start + done, (self.end - self.start) / size);
        if at >= self.end || self.stop.load(Ordering::Relaxed) {
            return false;
        }
        let n = POPULATE_CHUNK.min(self.end - at);
        #[cfg(target_os = "linux")]
        let touched = self
            .map
            .advise_range(memmap2::Advice::PopulateWrite, at, n)
            .is_ok();
        #[cfg(not(target_os = "linux"))]
        let touched = false;
        if !touched {
            self.ready.store(all, Ordering::Relaxed);
            return false;
        }
        self.ready.store((done + n) / size, Ordering::Relaxed);
        true
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
        // them (the populating thread never writes).
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

    #[test]
    fn buckets_start_empty_on_a_huge_page_and_clear_to_empty() {
        let mut b = Buckets::try_new(3 * HUGE_PAGE / 64).unwrap();
        assert!(b.populating.is_none());
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

    /// A large table grows ready chunk by chunk up to the whole, and
    /// populating never changes what is stored.
    #[test]
    fn a_large_table_becomes_ready_chunk_by_chunk() {
        let len = 2 * POPULATE_ABOVE / 64;
        let chunk = POPULATE_CHUNK / 64;
        let mut b = Buckets::try_new(len).unwrap();
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
        b.stop_populating();
        for (i, x) in b.iter().enumerate() {
            assert_eq!(x.words[i % 8].load(Ordering::Relaxed), i as u64 | 1);
        }
        b.clear();
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

    /// A table small enough to be touched whole is resident before it is
    /// handed out, and again after a clear: the first search after
    /// `isready` must not fault it in on its clock.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_small_table_is_resident_when_handed_out_and_after_a_clear() {
        let bytes = POPULATE_ABOVE / 2;
        let mut b = Buckets::try_new(bytes / 64).unwrap();
        assert!(b.populating.is_none());
        assert!(resident_kb(b.as_ptr() as usize) >= bytes / 1024);
        scribble(&b);
        b.clear();
        assert!(resident_kb(b.as_ptr() as usize) >= bytes / 1024);
        assert!(all_zero(&b));
    }

    #[test]
    fn more_than_the_address_space_is_refused() {
        assert!(Buckets::try_new(usize::MAX / 64).is_none());
        assert!(Buckets::try_new(1 << 52).is_none());
    }
}
