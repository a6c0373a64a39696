//! The protocol's own cost: a UCI conversation through the session, from
//! the first line read to the last line written (`tama_protocol::run` on
//! text in memory, its output counted), with no search in it, so that the
//! figure is the parsing, the option table, the game's replay and the
//! printing, not the engine's thinking (that is the `search` bench).
//!
//! `cargo bench -p tama-benches --bench protocol`

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use std::io::{Cursor, Write};
use std::sync::{Arc, Mutex};
use tama_engine::movegen::legal_moves;
use tama_engine::rng::Rng;
use tama_engine::search::Tuning;
use tama_engine::{Position, Rules};
use tama_protocol::session::Dialect;

/// An output that keeps what is written, readable after the conversation.
#[derive(Clone, Default)]
struct Kept(Arc<Mutex<Vec<u8>>>);

impl Write for Kept {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("not poisoned").extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Runs the conversation `input` through a UCI session; returns what it
/// printed.
fn converse(input: &str) -> String {
    let out = Kept::default();
    let status = tama_protocol::run(
        Cursor::new(input.as_bytes().to_vec()),
        Box::new(out.clone()),
        Some(Dialect::Uci),
        Tuning::default(),
    );
    assert_eq!(status, 0);
    let bytes = out.0.lock().expect("not poisoned").clone();
    String::from_utf8(bytes).expect("UTF-8 output")
}

/// A GUI's conversation before and between moves: the handshake, options,
/// a game of 20 plies (random legal moves, the same on every run) sent
/// whole each move as GUIs do, with the legal moves and their routes after
/// each, then the board, a small perft and `isready`.
fn conversation() -> String {
    let mut text = String::from(
        "uci\nsetoption name Hash value 1\nsetoption name Variant value armenian\n\
         setoption name Move Overhead value 50\nisready\nucinewgame\n",
    );
    let mut rng = Rng::new(3);
    let mut pos = Position::startpos(Rules::ARMENIAN);
    let mut words: Vec<String> = Vec::new();
    for _ in 0..20 {
        text.push_str(&format!(
            "position startpos moves {}\nlegalmoves\n",
            words.join(" ")
        ));
        let list = legal_moves(&pos);
        let Some(&m) = list.get(rng.below(list.len().max(1) as u64) as usize) else {
            break;
        };
        words.push(pos.move_text(&m));
        pos = pos.play(&m);
    }
    text.push_str("d\ngo perft 3\nisready\nquit\n");
    text
}

fn round_trip(c: &mut Criterion) {
    let input = conversation();
    // The conversation measured is the one meant: no line refused.
    let printed = converse(&input);
    assert!(!printed.contains("error"), "{printed}");
    assert_eq!(printed.matches("readyok").count(), 2, "{printed}");
    let mut g = c.benchmark_group("protocol");
    g.bench_function("uci-conversation", |b| {
        b.iter(|| black_box(converse(black_box(&input)).len()))
    });
    g.finish();
}

criterion_group!(benches, round_trip);
criterion_main!(benches);
