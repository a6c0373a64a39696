//! Latency of the protocol during a search (a measurement, not a check):
//! from `stop` to `bestmove` over 100 infinite searches, and from `isready`
//! to `readyok` while a search runs. Run it with
//!
//!     cargo test --release --test protocol_latency -- --ignored --nocapture
//!
//! Times are taken in the test process, from just before the command is
//! written to the moment the reader thread has the answer line, so they
//! include the pipe round trip.

mod protocol_support;

use protocol_support::{Engine, Rng};
use std::time::{Duration, Instant};

fn summary(name: &str, mut v: Vec<Duration>) -> String {
    v.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    format!(
        "{name}: n {} median {:.3} ms, 90% {:.3} ms, worst {:.3} ms",
        v.len(),
        ms(v[v.len() / 2]),
        ms(v[v.len() * 9 / 10]),
        ms(*v.last().unwrap())
    )
}

#[test]
#[ignore = "a measurement; run with --ignored --nocapture"]
fn stop_and_isready_latency() {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    let mut rng = Rng::new(7);
    let (mut stop, mut ready) = (Vec::new(), Vec::new());
    let positions = [
        "position startpos",
        "position startpos moves d3-d4 d6-d5 c3-c4",
        "position fen W:WKa1,c3,e3,g3:Bh7,Kd5,b6,f6",
    ];
    for i in 0..100 {
        e.send(positions[i % positions.len()]);
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(10 + rng.below(40) as u64));
        let t = Instant::now();
        e.send("isready");
        e.read_until("readyok", |l| l == "readyok");
        ready.push(e.last_at.duration_since(t));
        std::thread::sleep(Duration::from_millis(rng.below(10) as u64));
        let t = Instant::now();
        e.send("stop");
        let lines = e.until("bestmove");
        stop.push(e.last_at.duration_since(t));
        assert_eq!(
            lines.iter().filter(|l| l.starts_with("bestmove")).count(),
            1
        );
    }
    println!("{}", summary("stop -> bestmove", stop));
    println!("{}", summary("isready -> readyok during search", ready));
    let (status, _) = e.close();
    assert!(status.success());
}
