#!/usr/bin/env python3
"""A GUI-like soak of `tama uci` / `tama hub` (docs/testing.md, "GUI soak").

Fuzzers send garbage; GUIs send valid commands at bad moments. This driver
plays and analyses as GUIs do, with random but valid timing, against the real
binary, and checks what docs/protocol.md promises:

- every `go` is answered by exactly one `bestmove` (Hub: `done`), never
  before `stop` / `ponderhit` for an infinite or ponder search, and the move
  (and its ponder move) is legal in the position the `go` searched, whatever
  `position` / `setoption` / `ucinewgame` came during the search (they
  affect the next search only);
- `info ... multipv k` never exceeds the MultiPV in force when the search
  started, and an analysis that completed an iteration shows all its lines;
- no hang: each answer within its limit plus one second (a clock: the
  clock of the side to move plus 1 s; `movetime`: it plus 1 s; `stop`,
  `ponderhit` without a clock, `isready`, `ping`, `init`, `quit`: 1 s;
  `depth` / `nodes` searches, which have no time limit, DEPTH_NODES_LIMIT);
- no crash: exit status 0 after `quit` or end of input, nothing on stderr
  (the protocol writes nothing there), strict mode on (TAMA_STRICT=1, a
  failed search exits 3);
- an error line only where one is due (a missing or empty EGTBPath
  directory), a confirmation where one is due;
- resident memory (VmRSS, sampled every 0.1 s) within the Hash in force
  (the larger of the old and new one while a resize is pending) plus
  OVERHEAD_MB.

The legality oracle is a second `tama uci` process that never searches: its
`legalmoves` (the rules core's generator, reached through a process of its
own, not through the session under test). Its routes, with their captured
squares, also give the Hub spelling of every move.

Usage: tools/gui_soak.py --engine target/release/tama --minutes 60 --seed 1
       [--dialect uci|hub|both] [--threads 1,2]
Exit status 0 when every check held, 1 with the failure and the transcript's
tail otherwise. The summary (counts of every command sent, answers, the
largest latency of each kind, the largest resident memory) is printed in
both cases.

The engine session and its checks are in tools/gui_soak_session.py, the
legality oracle and the games in tools/gui_soak_game.py.
"""

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

from gui_soak_game import Failure, Oracle, play_game
from gui_soak_session import OVERHEAD_MB, Session, Stats

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def prepare(args, tmp):
    files = {}
    for variant in ("armenian", "turkish"):
        d = os.path.join(tmp, f"egtb-{variant}")
        subprocess.run([args.engine, "egtb", "build", "--pieces", "3", "--variant", variant, "--dir", d],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        files["egtb_" + variant] = d
        files["evalfiles_" + variant] = [
            os.path.join(REPO, "data", "weights", f"{variant}-gen1.tew"),
            os.path.join(REPO, "data", "weights", f"{variant}-gen2.tew"),
            f"builtin:{variant}-hand", "<builtin>",
        ]
        files["oracle_" + variant] = Oracle(args.engine, variant)
    files["egtb_empty"] = os.path.join(tmp, "empty")
    os.mkdir(files["egtb_empty"])
    files["egtb_missing"] = os.path.join(tmp, "missing")
    return files


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", default=os.path.join(REPO, "target", "release", "tama"))
    ap.add_argument("--minutes", type=float, default=1.5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dialect", choices=["uci", "hub", "both"], default="both")
    ap.add_argument("--threads", default="1,2", help="Threads values to use, e.g. 1,2")
    ap.add_argument("--session-minutes", type=float, default=3.0, help="longest life of one engine process")
    ap.add_argument("--tail", type=int, default=80, help="transcript lines shown on failure")
    ap.add_argument("--stop-at-first", action="store_true", help="end at the first failure")
    args = ap.parse_args()
    args.threads = [int(x) for x in args.threads.split(",")]
    rng = random.Random(args.seed)
    stats = Stats()
    tmp = tempfile.mkdtemp(prefix="tama-gui-soak-")
    files = prepare(args, tmp)
    dialects = ["uci", "hub"] if args.dialect == "both" else [args.dialect]
    start = time.monotonic()
    end = start + args.minutes * 60
    print(f"gui_soak: engine {args.engine}, seed {args.seed}, {args.minutes} min, dialect {args.dialect}, "
          f"threads {args.threads}, overhead {OVERHEAD_MB} MB", flush=True)
    i = 0
    try:
        while time.monotonic() < end:
            dialect = dialects[i % len(dialects)]
            i += 1
            sess = Session(args, dialect, rng, stats, files)
            stats.sessions[dialect] += 1
            try:
                sess.open()
                # Short runs still get several engines of each dialect.
                longest = min(args.session_minutes, args.minutes / (2 * len(dialects))) * 60
                life = min(end, time.monotonic() + rng.uniform(0.2, 1.0) * longest)
                while time.monotonic() < life:
                    play_game(sess, life)
                sess.wait_idle()
                sess.close(end_mid_search=rng.random() < 0.5)
            except Failure as e:
                # Reported with the transcript, then the soak goes on with a
                # fresh engine: one run shows every kind of failure there is.
                stats.failures += 1
                print(f"FAILURE ({dialect} session, pid {sess.p.pid}, {time.monotonic() - start:.0f} s "
                      f"into the soak): {e}")
                print("transcript tail (seconds since this engine started; > sent, < received):")
                for line in sess.transcript:
                    print("  " + line)
                if sess.stderr:
                    print("stderr:", *sess.stderr, sep="\n  ")
                sess.kill()
                if args.stop_at_first:
                    break
            print(f"gui_soak: {time.monotonic() - start:7.0f} s, {sum(stats.sent.values())} commands, "
                  f"{stats.games} games, max VmRSS {stats.max_rss_kb / 1024:.1f} MB, "
                  f"failures {stats.failures}", flush=True)
    finally:
        for k in ("oracle_armenian", "oracle_turkish"):
            files[k].close()
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"gui_soak: {time.monotonic() - start:.0f} s of wall time")
    stats.report(sys.stdout)
    sys.exit(1 if stats.failures else 0)


if __name__ == "__main__":
    main()
