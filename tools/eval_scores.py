#!/usr/bin/env python3
"""Random positions and a Tama binary's static evaluation of each.

    tools/eval_scores.py BINARY [--count N] [--seed S] [--option NAME=VALUE ...]

prints `variant fen score` lines (score: the `eval` command's total, side to
move's view), N positions a variant, the same positions for the same seed
whatever the binary. engine/tests/eval/main_scores.txt was made with the
binary of main at f4dfa76 (the hand-set evaluation of release 0.1.0):

    tools/eval_scores.py path/to/tama-f4dfa76 --count 500 --seed 1
"""
import argparse
import random
import re
import subprocess
import sys

FILES = "abcdefgh"


def random_fen(rng):
    """1 to 16 pieces a side anywhere, some of them kings (a man on its
    promotion rank always), either side to move."""
    king_share = rng.randrange(4)
    taken = set()
    sides = []
    for colour in "WB":
        pieces = []
        for _ in range(1 + rng.randrange(16)):
            sq = rng.randrange(64)
            if sq in taken:
                continue
            taken.add(sq)
            rank = sq // 8
            promotion = 7 if colour == "W" else 0
            king = rng.randrange(4) < king_share or rank == promotion
            pieces.append(("K" if king else "") + FILES[sq % 8] + str(rank + 1))
        sides.append(colour + ",".join(pieces))
    return rng.choice("WB") + ":" + ":".join(sides)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--count", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--option", action="append", default=[])
    a = ap.parse_args()
    rng = random.Random(a.seed)
    for variant in ["armenian", "turkish"]:
        fens = [random_fen(rng) for _ in range(a.count)]
        script = ["uci", f"setoption name Variant value {variant}"]
        for o in a.option:
            name, value = o.split("=", 1)
            script.append(f"setoption name {name} value {value}")
        for fen in fens:
            script += [f"position fen {fen}", "eval"]
        script.append("quit")
        out = subprocess.run([a.binary], input="\n".join(script) + "\n",
                             capture_output=True, text=True, check=True).stdout
        if "error" in out:
            sys.exit("the engine reported an error:\n" + "\n".join(
                l for l in out.splitlines() if "error" in l))
        scores = re.findall(r"^total \(white's view\) -?\d+, side to move (-?\d+)$", out, re.M)
        if len(scores) != len(fens):
            sys.exit(f"{len(scores)} scores for {len(fens)} positions")
        for fen, score in zip(fens, scores):
            print(variant, fen, score)


if __name__ == "__main__":
    main()
