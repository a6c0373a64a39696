//! Thousands of random and mutated command lines fed to the real binary.
//! Afterwards the process must be alive, answer `isready` / `ping`, and exit
//! with status 0 at end of input; every accepted `go` must have been
//! answered by exactly one `bestmove` (Hub: `done`), and every rejected one
//! by an error line and nothing else.

mod protocol_support;

use protocol_support::{Engine, Rng};
use std::time::Duration;

const UCI_CORPUS: &[&str] = &[
    "uci",
    "ucinewgame",
    "debug on",
    "debug off",
    "stop",
    "ponderhit",
    "d",
    "eval",
    "position startpos",
    "position startpos moves d3-d4 d6-d5 c3-c4",
    "position startpos moves d3d4 e6e5",
    "position fen W:Wd4,a2:Bd5,a7 moves d4xd6",
    "position fen B:WKa1,c3:Bh7,Kd5",
    "position fen W:WKa1:BKh8 moves a1-a2 h8-h7 a2-a1 h7-h8",
    "position fen W:W:Bh7",
    "position fen W:Wa7:BKa8,Kb8,b7,c7",
    "setoption name Threads value 1",
    "setoption name MultiPV value 2",
    "setoption name MultiPV value 1",
    "setoption name Ponder value true",
    "setoption name Move Overhead value 10",
    "setoption name Clear Hash",
    "setoption name Variant value turkish",
    "setoption name Variant value armenian",
    "setoption name CaptureRemoval value deferred",
    "setoption name CaptureRemoval value immediate",
    "setoption name MidCapturePromotion value true",
    "setoption name MidCapturePromotion value false",
    "go depth 2",
    "go movetime 20",
    "go nodes 500",
    "go infinite",
    "go ponder",
    "go wtime 300 btime 300 winc 5 binc 5 movestogo 3",
    "go depth 3 searchmoves d3-d4 c3-c4",
];

const HUB_CORPUS: &[&str] = &[
    "hub",
    "init",
    "new-game",
    "stop",
    "ponder-hit",
    "set-param name=variant value=turkish",
    "set-param name=variant value=armenian",
    "set-param name=threads value=1",
    "set-param name=ponder value=true",
    "set-param name=mid-capture-promotion value=false",
    "pos start",
    "pos pos=Weeeeeeeebbbbbbbbbbbbbbbbeeeeeeeeeeeeeeeewwwwwwwwwwwwwwwweeeeeeee",
    "pos pos=Weeeeeeeebbbbbbbbbbbbbbbbeeeeeeeeeeeeeeeewwwwwwwwwwwwwwwweeeeeeee moves=\"22-30 41-33\"",
    "pos pos=BeeebeeeBbeeweeeeeeweeeeeeeeweeeeeeeeeeeeeeeweeeeeeeeeeewWeeeeeee",
    "pos pos=Webeeeeebeebeeeeeeeebeeeeeeeeeeeeeeebeeeeeeeweeeeeeeeeeeeweeeeeee moves=\"20x50x28x44x51\"",
    "level move-time=0.02",
    "level depth=2",
    "level nodes=500",
    "level time=0.5 inc=0.01",
    "level moves=10 time=1",
    "go think",
    "go ponder",
    "go analyze",
];

/// A random change to a line: flipped, inserted, deleted or repeated bytes,
/// swapped or duplicated words, stray `\r`, NUL and invalid UTF-8. Never a
/// `\n` (that would make two lines).
fn mutate(rng: &mut Rng, line: &[u8], corpus: &[&str]) -> Vec<u8> {
    let mut b = line.to_vec();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(b.len() + 1);
        match rng.below(9) {
            0 if !b.is_empty() => {
                let i = at.min(b.len() - 1);
                b[i] ^= 1 << rng.below(8);
            }
            1 => {
                let junk = [
                    b'\r', 0, 0xff, 0xc3, b' ', b'\t', b'"', b'=', b'x', b'-', b'9',
                ];
                b.insert(at, junk[rng.below(junk.len())]);
            }
            2 if !b.is_empty() => {
                let end = (at + 1 + rng.below(6)).min(b.len());
                b.drain(at.min(end)..end);
            }
            3 => {
                let other = corpus[rng.below(corpus.len())].as_bytes();
                b.splice(at..at, other.iter().copied());
            }
            4 => {
                let mut words: Vec<Vec<u8>> = b.split(|c| *c == b' ').map(|w| w.to_vec()).collect();
                let n = words.len();
                words.swap(rng.below(n), rng.below(n));
                b = words.join(&b' ');
            }
            5 => b.truncate(at),
            6 => b.extend_from_slice(b"\r"),
            7 => b.splice(at..at, b"   ".iter().copied()).for_each(drop),
            _ => {
                let n = [
                    b"0".as_slice(),
                    b"-1",
                    b"99999999999999999999",
                    b"1e9",
                    b"nan",
                ];
                b.splice(at..at, n[rng.below(n.len())].iter().copied());
            }
        }
        for c in b.iter_mut() {
            if *c == b'\n' {
                *c = b' ';
            }
        }
    }
    b
}

fn random_line(rng: &mut Rng, corpus: &[&str]) -> Vec<u8> {
    match rng.below(10) {
        0 => (0..rng.below(80))
            .map(|_| {
                let c = rng.below(256) as u8;
                if c == b'\n' {
                    b' '
                } else {
                    c
                }
            })
            .collect(),
        1..=4 => corpus[rng.below(corpus.len())].as_bytes().to_vec(),
        _ => {
            let base = corpus[rng.below(corpus.len())].as_bytes();
            mutate(rng, base, corpus)
        }
    }
}

/// What the test knows about a line: its first word as the engine sees it.
fn first_word(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    text.split_whitespace().next().unwrap_or("").to_string()
}

/// Lines that could take long on purpose or ask for a huge table are left out.
fn too_costly(bytes: &[u8]) -> bool {
    let t = String::from_utf8_lossy(bytes).to_lowercase();
    t.contains("perft") || t.contains("bench") || t.contains("hash") || t.contains("thread")
}

struct Dialect {
    corpus: &'static [&'static str],
    hello: &'static str,
    sync: &'static str,
    synced: &'static str,
    answer: &'static str,
    error: &'static str,
}

const UCI: Dialect = Dialect {
    corpus: UCI_CORPUS,
    hello: "uci",
    sync: "isready",
    synced: "readyok",
    answer: "bestmove",
    error: "info string error: ",
};

const HUB: Dialect = Dialect {
    corpus: HUB_CORPUS,
    hello: "hub",
    sync: "ping",
    synced: "pong",
    answer: "done",
    error: "error message=",
};

fn sync(e: &mut Engine, d: &Dialect) -> Vec<String> {
    e.send(d.sync);
    let mut got = e.read_until(d.synced, |l| l == d.synced);
    got.pop();
    got
}

fn count(lines: &[String], prefix: &str) -> usize {
    lines.iter().filter(|l| l.starts_with(prefix)).count()
}

/// Searches started and final answers seen: they must end up equal.
#[derive(Default)]
struct Tally {
    accepted: usize,
    answers: usize,
}

fn hammer(d: &Dialect, seed: u64, lines: usize) {
    let mut rng = Rng::new(seed);
    let mut e = Engine::start();
    e.send(d.hello);
    let mut t = Tally::default();
    let mut sent = 0usize;
    while sent < lines {
        let line = random_line(&mut rng, d.corpus);
        // The test's own sync command stays the test's: an extra one would
        // put its answers out of step (isready/ping are exercised by every sync).
        let words: Vec<String> = String::from_utf8_lossy(&line)
            .split_whitespace()
            .map(String::from)
            .collect();
        if too_costly(&line) || words == [d.sync] {
            continue;
        }
        sent += 1;
        if first_word(&line) == "go" {
            go_round(&mut e, d, &mut rng, line, &mut t);
            continue;
        }
        let mut bytes = line;
        bytes.push(b'\n');
        e.send_raw(&bytes);
        if rng.chance(10) {
            t.answers += count(&sync(&mut e, d), d.answer);
        }
    }
    // Alive, answering, and exiting cleanly at end of input.
    assert!(e.is_running());
    t.answers += count(&sync(&mut e, d), d.answer);
    e.send("stop");
    t.answers += count(&sync(&mut e, d), d.answer);
    std::thread::sleep(Duration::from_millis(50));
    let (status, rest) = e.close();
    t.answers += count(&rest, d.answer);
    assert!(status.success(), "exit status {status:?}");
    assert_eq!(
        t.answers, t.accepted,
        "every accepted go answered exactly once"
    );
    eprintln!(
        "{} lines sent, {} searches, all answered once",
        lines, t.accepted
    );
}

/// One random `go` line: either refused (one error line, no answer) or
/// accepted, then stopped (sometimes after more commands) and answered.
fn go_round(e: &mut Engine, d: &Dialect, rng: &mut Rng, line: Vec<u8>, t: &mut Tally) {
    // First settle what is pending, then see whether it is accepted.
    t.answers += count(&sync(e, d), d.answer);
    let mut bytes = line.clone();
    bytes.push(b'\n');
    e.send_raw(&bytes);
    let out = sync(e, d);
    t.answers += count(&out, d.answer);
    if out.iter().any(|l| l.starts_with(d.error)) {
        assert_eq!(
            count(&out, d.answer),
            0,
            "a rejected go was answered: {:?}\n{}",
            String::from_utf8_lossy(&line),
            e.transcript_tail()
        );
        return;
    }
    t.accepted += 1;
    // Sometimes more commands while it searches (no go among them).
    for _ in 0..rng.below(4) {
        let extra = d.corpus[rng.below(d.corpus.len())];
        if first_word(extra.as_bytes()) != "go" && !too_costly(extra.as_bytes()) {
            e.send(extra);
        }
    }
    e.send("stop");
    t.answers += count(&sync(e, d), d.answer);
    // The answer may still be on its way after the sync.
    let before = t.answers;
    if t.answers < t.accepted {
        let got = e.read_until(d.answer, |l| l.starts_with(d.answer));
        t.answers += count(&got, d.answer);
    }
    assert!(
        t.answers == t.accepted,
        "go number {}: {} answers (before waiting: {before}); {:?}\n{}",
        t.accepted,
        t.answers,
        String::from_utf8_lossy(&line),
        e.transcript_tail()
    );
}

#[test]
fn uci_survives_random_and_mutated_lines() {
    hammer(&UCI, 1, 8000);
}

#[test]
fn hub_survives_random_and_mutated_lines() {
    hammer(&HUB, 2, 5000);
}
