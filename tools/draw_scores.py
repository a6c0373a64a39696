#!/usr/bin/env python3
"""Scores the drawn games of a PDN file where their repetition began.

    tools/draw_scores.py GAMES.pdn --engine PATH [--name NAME] [--back 8]
                         [--movetime 300] [--contempt C]

For each drawn game (Result 1-1) the engine (UCI) is given the game's
start and its moves up to --back plies before the end (8: the first of the
three occurrences of a two-move shuffle) and searches --movetime ms. Each
line: plies, the ply searched, whose turn (NAME, the player whose score
is shown, or the other), the score for the side to move and for NAME;
then how many scores for NAME are 0, within 10 centi-men, and beyond.
With --contempt C the engine prices a draw at -C for the side to move, so
the score says what leaving the repetition costs (docs/results.md,
"A draw priced at a tenth of a man").
"""
import argparse
import re
import subprocess
import sys

MOVE = re.compile(r"^[a-h][1-8]([-x][a-h][1-8])+$")


def tag(game, name):
    m = re.search(r'\[%s "([^"]*)"\]' % name, game)
    return m.group(1) if m else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("pdn")
    ap.add_argument("--engine", required=True, help="a UCI engine (tama)")
    ap.add_argument("--name", default="tama-main", help="the player the scores are for")
    ap.add_argument("--back", type=int, default=8)
    ap.add_argument("--movetime", type=int, default=300)
    ap.add_argument("--contempt", type=int)
    args = ap.parse_args()

    games = open(args.pdn).read().split("[Event ")[1:]
    if not games:
        sys.exit(f"no games in {args.pdn}")
    engine = subprocess.Popen([args.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, bufsize=1)

    def send(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    def until(prefix):
        lines = []
        while True:
            line = engine.stdout.readline()
            if not line:
                sys.exit("the engine ended")
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines

    send("uci")
    until("uciok")
    send("setoption name Variant value " + (tag(games[0], "Variant") or "armenian"))
    if args.contempt is not None:
        send(f"setoption name Contempt value {args.contempt}")
    send("isready")
    for line in until("readyok"):
        if "error" in line:
            sys.exit(line)

    scores = []
    for g in games:
        if tag(g, "Result") != "1-1":
            continue
        fen = tag(g, "FEN")
        body = re.sub(r"\{[^}]*\}", "", g.split("\n\n", 1)[1])
        moves = [t for t in body.split() if MOVE.match(t)]
        ply = max(0, len(moves) - args.back)
        send("ucinewgame")
        start = f"fen {fen}" if fen else "startpos"
        send(f"position {start} moves {' '.join(moves[:ply])}".rstrip())
        send(f"go movetime {args.movetime}")
        score = None
        for line in until("bestmove"):
            if "error" in line:
                sys.exit(line)
            m = re.search(r"score cp (-?\d+)", line)
            if m:
                score = int(m.group(1))
        if score is None:
            print(f"{len(moves)} {ply}: no centi-men score (a win found?)")
            continue
        white_to_move = ((fen or "W")[0] == "W") == (ply % 2 == 0)
        ours = (tag(g, "White") == args.name) == white_to_move
        for_name = score if ours else -score
        scores.append(for_name)
        print(f"{len(moves)} {ply} {'ours' if ours else 'theirs'} {score} {for_name}", flush=True)
    send("quit")
    near = sum(-10 < s < 10 for s in scores)
    print(f"{len(scores)} positions: {sum(s == 0 for s in scores)} at 0, "
          f"{near} within 10 centi-men, {sum(s <= -10 for s in scores)} at -10 or below, "
          f"{sum(s >= 10 for s in scores)} at 10 or above")


if __name__ == "__main__":
    main()
