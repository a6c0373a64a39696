#!/usr/bin/env python3
"""End-to-end check of Tama's Hub dialect against pydraughts (PyPI).

pydraughts' HubEngine starts `tama`, and drives it through complete Turkish
games; pydraughts is the referee: every move Tama returns (and every ponder
move it suggests) must be legal on pydraughts' own board. Games: Tama against
a random mover (both colours), Tama against itself on a clock, and one game
where Tama ponders (go ponder, then stop or ponder-hit).
(pydraughts only parses ponder moves; the games check them too.)

usage: python3 tests/pydraughts_hub.py /abs/path/to/target/release/tama
           [--games N] [--movetime SECONDS] [--venv DIR] [--strict]

It creates (once) a scratch virtual environment with pydraughts (pinned, see
PYDRAUGHTS) and re-runs itself inside it. Without network access it prints
SKIP and exits 0, unless --strict is given (.ci/run gives it). Exit status 1
when any move was illegal or the engine misbehaved. The engine runs with
TAMA_STRICT=1: a search that fails (panics, or answers an illegal move) ends
it with status 3 instead of being answered with the first legal move, so the
games fail instead of passing on a broken search.
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
import warnings

PYDRAUGHTS = "pydraughts==0.6.7"


def ensure_venv(venv):
    """Returns the venv's python, creating the venv and installing pydraughts if needed."""
    py = os.path.join(venv, "bin", "python")
    probe = [py, "-c", "import draughts.engine"]
    if os.path.exists(py) and subprocess.run(probe, capture_output=True).returncode == 0:
        return py
    print(f"creating {venv} with {PYDRAUGHTS} ...", flush=True)
    subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    r = subprocess.run([py, "-m", "pip", "install", "--quiet", PYDRAUGHTS])
    if r.returncode != 0 or subprocess.run(probe, capture_output=True).returncode != 0:
        return None
    return py


def occupied(board):
    """Algebraic squares with a piece on them, from pydraughts' FEN (B:Wc2,Kh8:Ba6)."""
    occ = set()
    for part in board.fen.split(":")[1:]:
        for sq in part[1:].split(","):
            if sq:
                occ.add(sq.lstrip("K"))
    return occ


def through_pieces(board, hub_move):
    """A quiet move that passes over a piece. pydraughts 0.6.7 generates such
    Turkish king moves (e.g. b1-b8 over its own men on b6 and b7); they are not
    legal, so the random mover must not play them."""
    if "-" not in hub_move:
        return False
    a, b = (int(x) for x in hub_move.split("-"))
    fa, ra, fb, rb = (a - 1) % 8, (a - 1) // 8, (b - 1) % 8, (b - 1) // 8
    df, dr = (fb > fa) - (fb < fa), (rb > ra) - (rb < ra)
    occ = occupied(board)
    f, r = fa + df, ra + dr
    while (f, r) != (fb, rb):
        if f"{'abcdefgh'[f]}{r + 1}" in occ:
            return True
        f, r = f + df, r + dr
    return False


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tama")
    ap.add_argument("--games", type=int, default=4, help="games against the random mover")
    ap.add_argument("--movetime", type=float, default=0.05)
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--venv", default=os.path.join(tempfile.gettempdir(), "tama-pydraughts-venv"))
    ap.add_argument("--strict", action="store_true", help="fail (instead of SKIP) when pydraughts cannot be installed")
    ap.add_argument("--in-venv", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    a.tama = os.path.abspath(a.tama)
    if not os.access(a.tama, os.X_OK):
        print(f"error: {a.tama} is not an executable", file=sys.stderr)
        return 2

    if not a.in_venv:
        try:
            import draughts.engine  # noqa: F401
        except ImportError:
            py = ensure_venv(a.venv)
            if py is None:
                print(f"SKIP: could not install {PYDRAUGHTS} into {a.venv}")
                return 1 if a.strict else 0
            return subprocess.run([py, os.path.abspath(__file__), "--in-venv"] + sys.argv[1:]).returncode
    return play(a)


def play(a):
    os.environ["TAMA_STRICT"] = "1"  # inherited by the engine HubEngine starts
    import draughts
    from draughts.engine import HubEngine, Limit

    warnings.simplefilter("ignore")
    rng = random.Random(a.seed)
    stats = {"games": 0, "finished": 0, "moves_checked": 0, "ponder_checked": 0, "failures": 0,
             "pydraughts_bogus_avoided": 0}

    def start():
        eng = HubEngine([a.tama])
        assert "variant" in eng.options, eng.options
        assert {"armenian", "turkish"} <= set(eng.variants), eng.variants
        eng.setoption("variant", "turkish")
        eng.init()
        eng.ping()
        return eng

    def engine_move(eng, board, limit, ponder=False):
        legal = {m.hub_move for m in board.legal_moves()}
        res = eng.play(board, limit, ponder)  # KeyError inside when the move is not legal
        if res.move.hub_move not in legal and res.move.board_move not in [m.board_move for m in board.legal_moves()]:
            raise AssertionError(f"illegal move {res.move.hub_move} in {board.fen}")
        stats["moves_checked"] += 1
        if res.ponder is not None:
            stats["ponder_checked"] += 1
        return res

    def run_game(eng, label, tama_colors, limit_for, ponder_every=0):
        board = draughts.Board("turkish")
        stats["games"] += 1
        ply = 0
        try:
            while not board.is_over() and len(board.move_stack) < a.max_plies:
                if board.turn in tama_colors:
                    ponder = ponder_every and ply % ponder_every == 0
                    if ponder:
                        # A ponder search runs until stop; the reply must come promptly.
                        import threading
                        box = {}
                        t = threading.Thread(target=lambda: box.update(res=engine_move(eng, board, limit_for(board), True)))
                        t.start()
                        deadline = time.monotonic() + 10
                        while getattr(eng, "_last_sent", "go ponder") != "go ponder" and time.monotonic() < deadline:
                            time.sleep(0.001)
                        time.sleep(0.03)
                        if ply % 4 == 0:
                            eng.stop()
                        else:
                            eng.ponderhit()
                        t.join(10)
                        if t.is_alive():
                            raise AssertionError("no done after stop / ponder-hit during go ponder")
                        res = box["res"]
                    else:
                        res = engine_move(eng, board, limit_for(board))
                    board.push(res.move)
                else:
                    moves = board.legal_moves()
                    fair = [m for m in moves if not through_pieces(board, m.hub_move)]
                    stats["pydraughts_bogus_avoided"] += len(moves) - len(fair)
                    board.push(rng.choice(fair))
                ply += 1
        except Exception as e:  # noqa: BLE001
            stats["failures"] += 1
            print(f"FAIL {label} at ply {len(board.move_stack)}: {type(e).__name__}: {e}")
            print("  moves:", " ".join(m.hub_move for m in board.move_stack))
            return False
        w = board.winner()
        if w is not None:
            stats["finished"] += 1
        result = {None: "unfinished", 0: "draw", draughts.WHITE: "white wins", draughts.BLACK: "black wins"}.get(w, w)
        print(f"{label}: {result} after {len(board.move_stack)} plies", flush=True)
        return True

    eng = start()
    movetime = Limit(movetime=a.movetime)
    for g in range(a.games):
        color = draughts.WHITE if g % 2 == 0 else draughts.BLACK
        name = "white" if color == draughts.WHITE else "black"
        if not run_game(eng, f"game {g + 1} (Tama {name} vs random)", {color}, lambda b: movetime):
            eng.kill_process()
            eng = start()

    # Self-play on a clock: pydraughts sends `level time=... inc=...`.
    clock = {"t": 6.0}
    if run_game(eng, "self-play on a clock", {draughts.WHITE, draughts.BLACK}, lambda b: Limit(time=clock["t"], inc=0.05)):
        pass
    # Pondering: every Tama move is a `go ponder`, ended after 30 ms by `stop` or `ponder-hit`.
    run_game(eng, "ponder game (Tama white vs random)", {draughts.WHITE}, lambda b: Limit(time=5.0, inc=0.05), ponder_every=2)
    eng.quit()

    print(f"pydraughts check: {stats['games']} games ({stats['finished']} finished), "
          f"{stats['moves_checked']} Tama moves and {stats['ponder_checked']} ponder moves legal, "
          f"{stats['failures']} failures; the random mover left out "
          f"{stats['pydraughts_bogus_avoided']} pydraughts king moves through pieces")
    return 1 if stats["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
