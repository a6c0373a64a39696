#!/usr/bin/env python3
"""What each search of a UCI engine got in a real match: its clock, the
wall time from `go` to `bestmove`, nodes, its own time and depth
(docs/results.md, "What a loaded machine costs").

    tools/engine_log.py wrap LOG ENGINE [ARG...]   # stands between a runner and ENGINE
    tools/engine_log.py summary LOG...             # one line per log

`wrap` passes every line both ways unchanged and appends one line per
search to LOG: process id, the `go` line, wall ms from reading `go` to
writing `bestmove`, and the last `info` line's nodes, time and depth. Give
it to the match runner as the engine's command, for both engines alike
(the hop costs each the same, well under a millisecond):

    tama match -engine cmd=python3 arg=tools/engine_log.py arg=wrap arg=a.log arg=$T name=A ...

`summary` prints, per log: searches, mean nodes a search, mean wall and
own time, nodes per second (nodes over own time), how much later than its
own clock the engine answered (wall less own time: the hand-over from the
input to the search, and time slices the engine did not get), and the
first ten moves of each game apart from the rest (where a table still
being touched, or a cold cache, would show).
"""
import os
import statistics
import subprocess
import sys
import threading
import time


def wrap(log, command):
    engine = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    search = {"go": None, "at": 0.0, "info": []}

    def answers():
        out = sys.stdout.buffer
        for line in iter(engine.stdout.readline, b""):
            out.write(line)
            out.flush()
            if line.startswith(b"info") and b" nodes " in line:
                search["info"] = line.split()
            elif line.startswith(b"bestmove") and search["go"] is not None:
                wall = (time.monotonic() - search["at"]) * 1000
                info = search["info"]

                def field(key):
                    return info[info.index(key) + 1].decode() if key in info else "-"

                with open(log, "a") as f:
                    f.write(f"{os.getpid()}\t{search['go']}\t{wall:.1f}\t{field(b'nodes')}\t"
                            f"{field(b'time')}\t{field(b'depth')}\n")
                search["go"] = None
                search["info"] = []

    reader = threading.Thread(target=answers)
    reader.start()
    for line in iter(sys.stdin.buffer.readline, b""):
        if line.startswith(b"go"):
            search["at"] = time.monotonic()
            search["go"] = line.decode(errors="replace").strip()
        try:
            engine.stdin.write(line)
            engine.stdin.flush()
        except BrokenPipeError:
            break
    try:
        engine.stdin.close()
    except BrokenPipeError:
        pass
    status = engine.wait()
    reader.join()
    return status


def read(path):
    rows = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 6:
                sys.exit(f"{path}:{n}: not a line of engine_log.py wrap")
            pid, _go, wall, nodes, own, depth = fields
            if "-" in (nodes, own, depth):
                continue  # a search that printed no info line (game over, one legal move)
            rows.append((pid, float(wall), int(nodes), int(own), int(depth)))
    return rows


def summary(paths):
    for path in paths:
        rows = read(path)
        if not rows:
            sys.exit(f"{path}: no searches")
        by_process = {}
        for r in rows:
            by_process.setdefault(r[0], []).append(r)
        first = [r for game in by_process.values() for r in game[:10]]
        rest = [r for game in by_process.values() for r in game[10:]] or first
        late = sorted(r[1] - r[3] for r in rows)
        mean = statistics.mean
        print(f"{os.path.basename(path)}: {len(rows)} searches in {len(by_process)} processes; "
              f"nodes {mean(r[2] for r in rows):,.0f}; wall {mean(r[1] for r in rows):.1f} ms, "
              f"own {mean(r[3] for r in rows):.1f} ms; "
              f"{sum(r[2] for r in rows) / max(1, sum(r[3] for r in rows)) * 1000:,.0f} nodes/s; "
              f"wall less own: median {statistics.median(late):.1f}, "
              f"90% {late[int(0.9 * len(late))]:.1f}, most {late[-1]:.0f} ms; "
              f"depth {mean(r[4] for r in rows):.2f}; moves 1-10: "
              f"{mean(r[1] for r in first):.1f} ms, {mean(r[2] for r in first):,.0f} nodes; "
              f"later: {mean(r[1] for r in rest):.1f} ms, {mean(r[2] for r in rest):,.0f} nodes")


def main():
    args = sys.argv[1:]
    if len(args) >= 3 and args[0] == "wrap":
        sys.exit(wrap(args[1], args[2:]))
    if len(args) >= 2 and args[0] == "summary":
        summary(args[1:])
        return
    sys.exit(__doc__.split("\n\n")[1])


if __name__ == "__main__":
    main()
