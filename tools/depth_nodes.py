#!/usr/bin/env python3
"""Nodes and time a UCI engine takes to reach a fixed depth on the start
position and seven openings of the built-in suite spread evenly over it
(lines n*k/8 for k = 1..7 of engine/data/openings/VARIANT.txt), each
searched by a fresh process with one thread and 64 MB: the time-to-depth table of
docs/results.md.

    tools/depth_nodes.py ENGINE VARIANT DEPTH [ENGINE_ARG...]
    tools/depth_nodes.py lab/target/release/tama-lab armenian 14 uci --set sacrifice_exempt=0
    tools/depth_nodes.py OLD,NEW armenian 14

With engines separated by commas, each position is searched by each engine
in turn (a load that changes during the run falls on all of them alike),
and the totals are printed per engine.

Prints one line per position (nodes, seconds) and the totals. The lab
binary also prints the search's counters (`info string stats`, asked for with
`debug on`), and their sums. Depth means
more or less as the search changes: the proof of a search change is a
timed match, this table only says where the nodes go.
"""
import os
import sys
import time

from uci_engine import UciEngine


def positions(variant):
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "engine", "data", "openings", f"{variant}.txt")
    rows = [r.strip() for r in open(path) if r.strip() and not r.startswith("#")]
    picked = [(None, "")]
    for k in range(1, 8):
        fen, moves = [x.strip() for x in rows[len(rows) * k // 8].split("|")[:2]]
        picked.append((fen, moves))
    return picked


def search(engine, args, variant, depth, fen, moves):
    e = UciEngine([engine] + args, variant)
    send, until = e.send, e.until
    send("debug on")
    send("isready")
    until("readyok")
    where = "startpos" if fen is None else f"fen {fen}"
    send(f"position {where}" + (f" moves {moves}" if moves else ""))
    start = time.monotonic()
    send(f"go depth {depth}")
    lines = until("bestmove")
    seconds = time.monotonic() - start
    e.quit()
    nodes = None
    stats = {}
    for line in lines:
        if line.startswith("info string stats "):
            w = line.split()[3:]
            stats = {k: float(v) for k, v in zip(w[::2], w[1::2]) if not k.endswith("_pct")}
        w = line.split()
        if w[:1] == ["info"] and "nodes" in w and "depth" in w:
            if int(w[w.index("depth") + 1]) == depth:
                nodes = int(w[w.index("nodes") + 1])
    if nodes is None:
        sys.exit(f"depth {depth} not reached: {lines[-3:]}")
    return nodes, seconds, stats


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    engines, variant, depth = sys.argv[1].split(","), sys.argv[2], int(sys.argv[3])
    args = sys.argv[4:]
    if len(engines) > 1:
        return alternate(engines, args, variant, depth)
    engine = engines[0]
    total_nodes, total_seconds, total_stats = 0, 0.0, {}
    for i, (fen, moves) in enumerate(positions(variant)):
        nodes, seconds, stats = search(engine, args, variant, depth, fen, moves)
        total_nodes += nodes
        total_seconds += seconds
        for k, v in stats.items():
            total_stats[k] = total_stats.get(k, 0) + v
        print(f"{i} nodes {nodes} seconds {seconds:.2f}", flush=True)
    print(f"total nodes {total_nodes} seconds {total_seconds:.2f}")
    if total_stats:
        # The counts cover the whole search (every iteration), as its nodes do.
        t = total_stats
        print("stats " + " ".join(f"{k} {int(v)}" for k, v in t.items()))
        print(f"first-move cut-offs {100 * t['first_move_fail_highs'] / max(t['fail_highs'], 1):.1f}%"
              f", nodes below exempt sacrifices {100 * t['exempt_nodes'] / max(t['nodes'], 1):.1f}%")


def alternate(engines, args, variant, depth):
    totals = {e: [0, 0.0] for e in engines}
    for i, (fen, moves) in enumerate(positions(variant)):
        for e in engines:
            nodes, seconds, _ = search(e, args, variant, depth, fen, moves)
            totals[e][0] += nodes
            totals[e][1] += seconds
            print(f"{i} {e} nodes {nodes} seconds {seconds:.2f}", flush=True)
    for e, (nodes, seconds) in totals.items():
        print(f"total {e} nodes {nodes} seconds {seconds:.2f}")


if __name__ == "__main__":
    main()
