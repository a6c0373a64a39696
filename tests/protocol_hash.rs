//! A big transposition table does not freeze the engine: after any `Hash`
//! the engine answers `readyok` without writing the table, `ucinewgame` and
//! `Clear Hash` on a table a search has filled give its pages back instead
//! of writing them, and the first search after each plays normally. GUIs and match runners give up on an engine that stays
//! silent a few seconds after `isready`.
//!
//! No answer is timed: what shows that a table was not written before
//! `readyok` is the memory it left resident (Linux, `resident_kb`). Every
//! wait for an answer gives up after `protocol_support::TIMEOUT`, a hang
//! guard (an engine that never answers), not a speed claim.
//!
//! And a table costs no memory before a search uses it: a GUI may ask for
//! more than the machine can spare (the table is then capped at half of
//! it) and the engine must still answer at once, without making gigabytes
//! resident for a search that may never come.
//!
//! Per platform: the first test holds everywhere. The tests of resident
//! memory read it from `/proc` and the limits the engine reads are Linux's
//! (`/proc/meminfo`, cgroups, `ulimit -v`, which macOS does not enforce),
//! so they run on Linux only; that a table is made resident by touching a
//! word a page, as on macOS, Windows and Linux before 5.14, the engine's
//! own test proves on Linux (`search/tt/memory.rs`,
//! `touching_by_writing_makes_pages_resident_and_changes_nothing`).

mod protocol_support;

use protocol_support::{bestmove, last_depth_and_nodes, Engine};
#[cfg(target_os = "linux")]
use std::time::Duration;
use tama_engine::{movegen::legal_moves, Position, Rules};

/// Sends `commands`, then `isready`: the lines before `readyok`.
fn quick_readyok(e: &mut Engine, commands: &[&str]) -> Vec<String> {
    for c in commands {
        e.send(c);
    }
    e.send("isready");
    let mut lines = e.read_until("readyok", |l| l == "readyok");
    lines.pop();
    lines
}

/// A search from the start position plays a legal move and counts nodes.
fn plays_normally(e: &mut Engine) {
    e.send("position startpos");
    e.send("go depth 4");
    let lines = e.until("bestmove");
    let start = Position::startpos(Rules::default());
    let mv = bestmove(lines.last().unwrap());
    assert!(
        legal_moves(&start).iter().any(|m| start.move_text(m) == mv),
        "{mv} is not legal: {lines:?}"
    );
    let (depth, nodes) = last_depth_and_nodes(&lines);
    assert!(depth >= 1 && nodes > 0, "{lines:?}");
}

/// Everything that may touch the whole table, at a gigabyte: on Linux,
/// nothing of it is resident after the resize. (`ucinewgame` and `Clear
/// Hash` start a new epoch instead of writing the table:
/// `tt::tests::a_cleared_table_is_a_new_table`.)
fn resize_search_and_clear(e: &mut Engine, hash: &str) -> Vec<String> {
    #[cfg(target_os = "linux")]
    let base = resident_without_a_table(e, "setoption name Hash value 1");
    let notes = quick_readyok(e, &[&format!("setoption name Hash value {hash}")]);
    #[cfg(target_os = "linux")]
    {
        let rss = e.resident_kb();
        assert!(
            rss < base + UNTOUCHED_SLACK_KB,
            "{rss} kB resident after Hash {hash}, {base} kB with a 1 MB table"
        );
    }
    plays_normally(e);
    quick_readyok(e, &["ucinewgame"]);
    plays_normally(e);
    quick_readyok(e, &["setoption name Clear Hash"]);
    plays_normally(e);
    notes
}

#[test]
fn a_gigabyte_table_is_ready_at_once_and_cleared_at_once() {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    quick_readyok(&mut e, &[]);
    resize_search_and_clear(&mut e, "1024");
    let (status, _) = e.close();
    assert!(status.success());
}

/// The largest table this process may have (`Hash` at its maximum, capped
/// to half the address space of `ulimit -v`): said before `readyok`, and
/// as quick.
#[cfg(target_os = "linux")]
#[test]
fn the_largest_table_under_ulimit_is_ready_at_once() {
    let mut e = Engine::start_under_ulimit(4_000_000);
    e.send("uci");
    e.until("uciok");
    let notes = resize_search_and_clear(&mut e, "65536");
    assert!(
        notes
            .iter()
            .any(|l| l.starts_with("info string Hash: 65536 MB asked for, ")),
        "no notice of the cap before readyok: {notes:?}"
    );
    let (status, _) = e.close();
    assert!(status.success());
}

/// How much more than a 1 MB table's process a table nobody searched with
/// may keep resident: the first chunk a search would use is not touched
/// either, so this is slack for the allocator and the reader thread only.
#[cfg(target_os = "linux")]
const UNTOUCHED_SLACK_KB: u64 = 16 * 1024;

/// The resident memory of a process whose table holds 1 MB, once it has
/// answered `readyok`: what any table adds is measured against it.
#[cfg(target_os = "linux")]
fn resident_without_a_table(e: &mut Engine, set_hash: &str) -> u64 {
    e.send(set_hash);
    e.sync();
    e.resident_kb()
}

/// `Hash` at its maximum on the plain machine (no `ulimit`, no cgroup set
/// by the test): capped at half the machine's memory, said before
/// `readyok`, which comes at once; the table stays untouched until the
/// first search (checked for a while after `readyok`, since a thread that
/// touched it ahead would need a moment to show); `ucinewgame` and
/// `Clear Hash` as quick; then a search that is stopped at once, and
/// `quit`, each within the bound while the table's pages are being
/// touched.
#[cfg(target_os = "linux")]
#[test]
fn the_largest_table_on_the_plain_machine_is_ready_at_once_and_costs_nothing_before_a_search() {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    let base = resident_without_a_table(&mut e, "setoption name Hash value 1");
    let notes = quick_readyok(&mut e, &["setoption name Hash value 65536"]);
    let machine_mb = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|t| {
            let l = t.lines().find(|l| l.starts_with("MemTotal:"))?.to_string();
            l.split_whitespace().nth(1)?.parse::<u64>().ok()
        })
        .map(|kb| kb / 1024);
    if machine_mb.is_some_and(|mb| mb / 2 < 65536) {
        assert!(
            notes
                .iter()
                .any(|l| l.starts_with("info string Hash: 65536 MB asked for, ")),
            "no notice of the cap before readyok: {notes:?}"
        );
    }
    for _ in 0..10 {
        std::thread::sleep(Duration::from_millis(150));
        let rss = e.resident_kb();
        assert!(
            rss < base + UNTOUCHED_SLACK_KB,
            "{rss} kB resident after readyok with no search, {base} kB with a 1 MB table"
        );
    }
    quick_readyok(&mut e, &["ucinewgame"]);
    quick_readyok(&mut e, &["setoption name Clear Hash"]);
    assert!(e.resident_kb() < base + UNTOUCHED_SLACK_KB);
    e.send("position startpos");
    e.send("go infinite");
    e.until("info depth 1 ");
    e.send("stop");
    e.until("bestmove");
    quick_readyok(&mut e, &["ucinewgame"]);
    let (_, status) = e.quit();
    assert!(status.success());
}

/// A table small enough to be touched whole (the default 64 MB) is touched
/// when the engine is idle and asked whether it is ready, not by the first
/// search on its clock (where, on a loaded machine, faulting in 64 MB once
/// took a whole second and lost a game on time): resident at `readyok`,
/// after `Hash` and again after `ucinewgame`.
#[cfg(target_os = "linux")]
#[test]
fn a_small_table_is_touched_at_isready_not_on_the_first_move() {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    let base = resident_without_a_table(&mut e, "setoption name Hash value 1");
    quick_readyok(&mut e, &["setoption name Hash value 64"]);
    let rss = e.resident_kb();
    assert!(
        rss >= base + 60 * 1024,
        "{rss} kB resident at readyok with Hash 64, {base} kB with a 1 MB table"
    );
    plays_normally(&mut e);
    quick_readyok(&mut e, &["ucinewgame"]);
    assert!(e.resident_kb() >= base + 60 * 1024);
    plays_normally(&mut e);
}

/// The same in the Hub dialect: `set-param name=hash` at the maximum, then
/// `init`: the cap's message, `ready` at once, nothing touched.
#[cfg(target_os = "linux")]
#[test]
fn hub_init_after_the_largest_hash_is_quick_and_touches_nothing() {
    let mut e = Engine::start();
    e.send("hub");
    e.until("wait");
    e.send("set-param name=hash value=1");
    e.send("init");
    e.until("ready");
    let base = e.resident_kb();
    e.send("set-param name=hash value=65536");
    e.send("init");
    e.until("ready");
    std::thread::sleep(Duration::from_millis(1500));
    let rss = e.resident_kb();
    assert!(
        rss < base + UNTOUCHED_SLACK_KB,
        "{rss} kB resident after ready with no search, {base} kB with a 1 MB table"
    );
    let (_, status) = e.quit();
    assert!(status.success());
}

/// A memory cgroup made for the test under the test's own (cgroup v1's
/// memory controller, or v2's unified tree), with `limit` bytes, removed
/// when dropped. Needs root, as a container's or a job system's limits do.
#[cfg(target_os = "linux")]
struct MemoryCgroup {
    dir: std::path::PathBuf,
}

#[cfg(target_os = "linux")]
impl MemoryCgroup {
    fn new(limit: u64) -> MemoryCgroup {
        let own = std::fs::read_to_string("/proc/self/cgroup").expect("read /proc/self/cgroup");
        let name = format!("tama-test-{}", std::process::id());
        let v1 = own.lines().find_map(|l| {
            let mut parts = l.splitn(3, ':');
            let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
            controllers
                .split(',')
                .any(|c| c == "memory")
                .then(|| path.trim_start_matches('/').to_string())
        });
        let (dir, file) = match v1 {
            Some(path) => (
                std::path::Path::new("/sys/fs/cgroup/memory")
                    .join(path)
                    .join(&name),
                "memory.limit_in_bytes",
            ),
            None => {
                let path = own
                    .lines()
                    .find_map(|l| l.strip_prefix("0::"))
                    .expect("no memory cgroup (v1) nor a unified one (v2)");
                (
                    std::path::Path::new("/sys/fs/cgroup")
                        .join(path.trim_start_matches('/'))
                        .join(&name),
                    "memory.max",
                )
            }
        };
        std::fs::create_dir(&dir).unwrap_or_else(|e| {
            panic!(
                "cannot make the cgroup {} ({e}): this test needs root and a writable memory cgroup",
                dir.display()
            )
        });
        let cgroup = MemoryCgroup { dir };
        std::fs::write(cgroup.dir.join(file), limit.to_string())
            .unwrap_or_else(|e| panic!("cannot set {file}: {e}"));
        cgroup
    }

    /// Starts `tama` inside the cgroup, in strict mode.
    fn start_engine(&self) -> Engine {
        let mut cmd = std::process::Command::new("sh");
        cmd.arg("-c")
            .arg(format!(
                "echo $$ > '{}/cgroup.procs' && exec '{}'",
                self.dir.display(),
                env!("CARGO_BIN_EXE_tama")
            ))
            .env("TAMA_STRICT", "1");
        Engine::spawn_command(cmd)
    }
}

#[cfg(target_os = "linux")]
impl Drop for MemoryCgroup {
    fn drop(&mut self) {
        // Emptied once the engine has exited; retried while it exits.
        for _ in 0..100 {
            if std::fs::remove_dir(&self.dir).is_ok() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// In a 2 GB memory cgroup (a container, a job system's allocation),
/// `Hash` at its maximum is capped at half of the cgroup's limit, said
/// before `readyok`, which comes at once; nothing is touched until a
/// search, which then runs and stops as quickly as anywhere else. Needs
/// root: ignored by `cargo test`, run by `.ci/run` (`-- --ignored`).
#[cfg(target_os = "linux")]
#[test]
#[ignore]
fn the_largest_table_in_a_memory_cgroup_is_capped_at_half_its_limit() {
    let cgroup = MemoryCgroup::new(2 << 30);
    let mut e = cgroup.start_engine();
    e.send("uci");
    e.until("uciok");
    let base = resident_without_a_table(&mut e, "setoption name Hash value 1");
    let notes = quick_readyok(&mut e, &["setoption name Hash value 65536"]);
    assert!(
        notes.iter().any(|l| l
            == "info string Hash: 65536 MB asked for, 1024 MB used: the table takes at most half of the cgroup memory limit"),
        "{notes:?}"
    );
    std::thread::sleep(Duration::from_millis(1000));
    let rss = e.resident_kb();
    assert!(
        rss < base + UNTOUCHED_SLACK_KB,
        "{rss} kB, {base} kB with 1 MB"
    );
    plays_normally(&mut e);
    quick_readyok(&mut e, &["ucinewgame"]);
    let (_, status) = e.quit();
    assert!(status.success());
    drop(cgroup);
}
