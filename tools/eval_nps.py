#!/usr/bin/env python3
"""The search speed of each evaluation: the UCI `bench` of one or more Tama
binaries, with the hand-set weights of 0.1.0 and with the learned sets,
interleaved round by round so that the machine's load falls on all alike.

    tools/eval_nps.py BINARY [BINARY ...] [--depth D] [--rounds N]

Each round runs, for every binary, `bench D` with
`EvalFile=builtin:armenian-hand` and `builtin:turkish-hand`, and with
`builtin:armenian-learned` and `builtin:turkish-learned` (each replaces its
own variant's set), one process at a time. Binaries before 0.2.0 know no
`-hand` names; their default is the hand set, so for them select nothing
for "hand" (edit WEIGHTS).
The bench's per-position lines give the nodes and milliseconds of each
variant's positions; the table gives per binary, weights and variant the
median nps over the rounds (and the spread), and the learned/hand ratio
of the medians. The trees of the two weights differ (the evaluation steers
the search), the positions and the depth are the same. Run it under
`nice -n 19` on a shared machine; CHANGELOG.md (0.2.0) quotes its output.
"""
import argparse
import statistics
import subprocess
import sys

WEIGHTS = {
    "hand": [
        "setoption name EvalFile value builtin:armenian-hand",
        "setoption name EvalFile value builtin:turkish-hand",
    ],
    "learned": [
        "setoption name EvalFile value builtin:armenian-learned",
        "setoption name EvalFile value builtin:turkish-learned",
    ],
}


def bench(binary, options, depth):
    """{variant: (nodes, ms)} of one `bench` run."""
    script = "\n".join(options + ["isready", f"bench {depth}", "quit"]) + "\n"
    out = subprocess.run(
        [binary, "uci"], input=script, capture_output=True, text=True, check=True
    ).stdout
    per = {}
    done = False
    for line in out.splitlines():
        w = line.split()
        if line.startswith("info string error"):
            sys.exit(f"{binary}: {line}")
        if w[:1] == ["position"]:
            nodes, ms = int(w[4]), int(w[6])
            n, t = per.get(w[2], (0, 0))
            per[w[2]] = (n + nodes, t + ms)
        elif len(w) == 4 and w[1] == "nodes" and w[3] == "nps":
            done = True
    if not done or not per:
        sys.exit(f"{binary}: no bench output:\n{out}")
    return per


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("binaries", nargs="+")
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    nps = {}  # (binary, weights, variant) -> [nps per round]
    nodes = {}  # (binary, weights, variant) -> nodes (the same every round)
    for r in range(a.rounds):
        for b in a.binaries:
            for name, options in WEIGHTS.items():
                per = bench(b, options, a.depth)
                for variant, (n, ms) in per.items():
                    key = (b, name, variant)
                    if nodes.setdefault(key, n) != n:
                        sys.exit(f"{key}: {n} nodes, earlier {nodes[key]}")
                    nps.setdefault(key, []).append(n * 1000 // max(ms, 1))
                print(f"round {r + 1} {b} {name}: {per}", file=sys.stderr)
    print(f"bench {a.depth}, {a.rounds} rounds; nps median [min, max]")
    print(f"{'binary':<40} {'weights':<8} {'variant':<9} {'nodes':>10} {'nps':>26}  learned/hand")
    for b in a.binaries:
        for variant in sorted({v for (bb, _, v) in nps if bb == b}):
            med = {}
            for name in WEIGHTS:
                xs = nps[(b, name, variant)]
                med[name] = statistics.median(xs)
                ratio = f"{med[name] / med['hand']:.3f}" if name != "hand" else ""
                spread = f"{med[name]:>9.0f} [{min(xs)}, {max(xs)}]"
                print(f"{b:<40} {name:<8} {variant:<9} {nodes[(b, name, variant)]:>10} {spread:>26}  {ratio}")


if __name__ == "__main__":
    main()
