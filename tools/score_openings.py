#!/usr/bin/env python3
"""Scores an openings file (`start FEN | moves`, as `tama match --dump-openings`
prints it) with a fixed-depth search of a UCI engine, one position at a time,
and prints the suite format of engine/data/openings/: `start FEN | moves |
cp depth`, the score in centi-men from White's side.

    tama match --dump-openings -variant armenian > /tmp/a.txt
    nice -n 10 tools/score_openings.py target/release/tama armenian 14 < /tmp/a.txt

One engine process, Threads 1, Hash 64, `ucinewgame` before every position,
so each score is that of a fresh single-threaded search (reproducible).
"""
import sys

from uci_engine import UciEngine


def main():
    engine, variant, depth = sys.argv[1], sys.argv[2], int(sys.argv[3])
    e = UciEngine([engine], variant)
    send, until = e.send, e.until
    for row in sys.stdin:
        row = row.strip()
        if not row or row.startswith("#"):
            continue
        fen, moves = [x.strip() for x in row.split("|")[:2]]
        send("ucinewgame")
        send("isready")
        until("readyok")
        send(f"position fen {fen} moves {moves}")
        send(f"go depth {depth}")
        score, reached, bound = None, None, False
        for line in until("bestmove"):
            w = line.split()
            if w[:1] == ["info"] and "score" in w and "depth" in w:
                i = w.index("score")
                if w[i + 1] != "cp":
                    sys.exit(f"not a centi-men score: {line}")
                score, reached = int(w[i + 2]), int(w[w.index("depth") + 1])
                bound = "lowerbound" in w or "upperbound" in w
        if reached != depth or bound:
            sys.exit(f"depth {reached} reached, {depth} asked (or a bound): {row}")
        # The side to move after the moves: White moves first from the
        # start FEN's side; each move switches.
        white_first = fen.startswith("W")
        white_to_move = white_first == (len(moves.split()) % 2 == 0)
        cp = score if white_to_move else -score
        print(f"{fen} | {moves} | {cp} {depth}", flush=True)
    e.quit()


main()
