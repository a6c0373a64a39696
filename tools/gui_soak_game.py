"""The games of the GUI soak (tools/gui_soak.py): the legality oracle (a second
`tama uci` process that never searches), the Hub spelling of its moves and
positions, and one game played as a GUI plays it."""

import subprocess
import time

# `go depth` / `go nodes` have no time limit; the depths and node counts sent
# here finish well inside this on a loaded 2-core machine.
DEPTH_NODES_LIMIT = 20.0


class Failure(Exception):
    pass


def square_number(sq):
    return 8 * (int(sq[1]) - 1) + (ord(sq[0]) - ord("a")) + 1


def hub_move(route, captures):
    squares = route.replace("-", "x").split("x")
    if not captures:
        return f"{square_number(squares[0])}-{square_number(squares[-1])}"
    taken = sorted(square_number(s) for s in captures)
    return "x".join(str(n) for n in [square_number(squares[0]), square_number(squares[-1])] + taken)


def hub_position(fen):
    side, *lists = fen.split(":")
    board = {}
    for part in lists:
        if not part:
            continue
        colour, pieces = part[0], part[1:]
        for p in pieces.split(","):
            if not p:
                continue
            king = p.startswith("K")
            sq = p[1:] if king else p
            ch = "w" if colour == "W" else "b"
            board[sq] = ch.upper() if king else ch
    cells = []
    for rank in range(8, 0, -1):
        for f in "abcdefgh":
            cells.append(board.get(f"{f}{rank}", "e"))
    return side + "".join(cells)


class Legal:
    """The oracle's answer for one position."""

    def __init__(self, routes, state, fen):
        self.routes = routes  # route -> captured squares
        self.state = state
        self.fen = fen
        self.hub = {hub_move(r, c): r for r, c in routes.items()}
        self.moves = len({hub_move(r, c) for r, c in routes.items()})

    def over(self):
        return self.state != "ongoing"


class Oracle:
    def __init__(self, engine, variant):
        self.p = subprocess.Popen([engine, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        while self.p.stdout.readline().strip() != "uciok":
            pass
        self.send(f"setoption name Variant value {variant}")
        self.cache = {}

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def legal(self, start, moves):
        """`start` is "startpos" or "fen F"; None when the position is refused."""
        key = (start, tuple(moves))
        if key in self.cache:
            return self.cache[key]
        cmd = f"position {start}" + (" moves " + " ".join(moves) if moves else "")
        self.send(cmd)
        self.send("legalmoves")
        routes, refused = {}, False
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise Failure("the oracle process died")
            w = line.split()
            if line.startswith("info string error"):
                refused = True
            elif w[0] == "legalmove":
                caps = w[3:] if len(w) > 2 and w[2] == "captures" else []
                caps = [c for c in caps if c != "promotes"]
                routes[w[1]] = caps
            elif w[0] == "legalmoves":
                result = None if refused else Legal(routes, w[3], w[5])
                break
        if len(self.cache) > 20000:
            self.cache.clear()
        self.cache[key] = result
        return result

    def close(self):
        self.p.stdin.close()
        self.p.wait()



class Game:
    """A game as a GUI keeps it: a start and the moves played."""

    def __init__(self, sess):
        self.sess = sess
        rng = sess.rng
        r = rng.random()
        self.start, self.moves = "startpos", []
        if r < 0.15:
            fen = self.random_endgame()
            if fen:
                self.start = "fen " + fen
        elif r < 0.3:
            # A middle game given as a FEN (a GUI's "set up position").
            moves = []
            for _ in range(rng.randint(4, 40)):
                legal = sess.oracle.legal("startpos", moves)
                if legal.over():
                    break
                moves.append(rng.choice(sorted(legal.routes)))
            legal = sess.oracle.legal("startpos", moves)
            if not legal.over():
                self.start = "fen " + legal.fen

    def random_endgame(self):
        rng, sess = self.sess.rng, self.sess
        for _ in range(50):
            n = rng.randint(2, 4)
            squares = rng.sample([f"{f}{r}" for f in "abcdefgh" for r in range(1, 9)], n)
            white, black = [], []
            for i, sq in enumerate(squares):
                side = white if i == 0 or (i > 1 and rng.random() < 0.5) else black
                is_white = side is white
                king = rng.random() < 0.4 or sq[1] == ("8" if is_white else "1")
                side.append(("K" if king else "") + sq)
            if not black:
                continue
            fen = f"{rng.choice('WB')}:W{','.join(white)}:B{','.join(black)}"
            legal = sess.oracle.legal("fen " + fen, [])
            if legal is not None and not legal.over():
                return fen
        return None

    def legal(self):
        return self.sess.oracle.legal(self.start, self.moves)


def play_game(sess, deadline):
    """One game: searches of every kind with GUI traffic in between, until the
    game ends, ~80 plies, or time is up."""
    rng, uci = sess.rng, sess.uci
    g = Game(sess)
    sess.stats.games += 1
    if rng.random() < 0.7:
        sess.send("ucinewgame" if uci else "new-game")
    if rng.random() < 0.2:
        sess.random_option()
    for _ in range(rng.randint(10, 80)):
        if time.monotonic() > deadline:
            return
        legal = g.legal()
        if legal.over():
            return
        if rng.random() < 0.15:
            sess.random_option()
        if rng.random() < 0.1:
            sess.ping()
        sess.wait_idle()
        kind = rng.choices(["clock", "movetime", "depth", "nodes", "ponder", "infinite", "random"],
                           [25, 15, 12, 8, 15, 10, 15])[0]
        if kind == "random":
            g.moves.append(rng.choice(sorted(legal.routes)))
            continue
        if kind == "ponder":
            # The opponent is to move: ponder on a guessed reply.
            guess = rng.choice(sorted(legal.routes))
            after = sess.oracle.legal(g.start, g.moves + [guess])
            if after.over():
                g.moves.append(guess)
                continue
            mine_ms, theirs_ms = rng.randint(50, 4000), rng.randint(50, 4000)
            inc = rng.choice([0, 0, 10, 100])
            sess.position(g.start, g.moves + [guess])
            white = after.fen.startswith("W")
            if uci:
                wt, bt = (mine_ms, theirs_ms) if white else (theirs_ms, mine_ms)
                go = f"go ponder wtime {wt} btime {bt} winc {inc} binc {inc}"
            else:
                sess.send(f"level time={mine_ms / 1000} inc={inc / 1000}")
                go = "go ponder"
            sess.start_search("ponder", go, None, g.start, g.moves + [guess], may_answer=False)
            if rng.random() < 0.2:
                sess.pump(0)
            else:
                sess.during(g)
                sess.pump(rng.uniform(0, 1.0))
            hit = rng.random() < 0.6
            if hit:
                # Hub's clock for the move is time + inc.
                sess.ponderhit((mine_ms + (0 if uci else inc)) / 1000)
            else:
                sess.stop()
            while sess.search:
                sess.during(g)
            g.moves.append(guess)
            if hit and sess.result["route"]:
                g.moves.append(sess.result["route"])
            continue
        if kind != "infinite":
            sess.position(g.start, g.moves)
        if kind == "infinite":
            # Analysis: MultiPV switched between searches (UCI), stopped after
            # a random while; the game does not move on.
            for _ in range(rng.randint(1, 3)):
                if uci and rng.random() < 0.7:
                    sess.set_multipv(rng.randint(1, 8))
                # Again: a `position` sent during the last search counts.
                sess.position(g.start, g.moves)
                sess.start_search("infinite", "go infinite" if uci else "go analyze", None,
                                  g.start, g.moves, analysis=True, may_answer=False)
                until = time.monotonic() + rng.choice([0, 0.05, rng.uniform(0, 3)])
                while time.monotonic() < until:
                    sess.during(g)
                if rng.random() < 0.1:
                    # ucinewgame mid-search: the search goes on; the next
                    # game starts from scratch.
                    sess.send("ucinewgame" if uci else "new-game")
                    sess.stop()
                    sess.wait_idle()
                    return
                sess.stop()
                sess.wait_idle()
            continue
        white = legal.fen.startswith("W")
        if kind == "clock":
            mine_ms, theirs_ms = rng.randint(20, 5000), rng.randint(20, 5000)
            inc = rng.choice([0, 0, 10, 50, 200])
            allow = (mine_ms + (0 if uci else inc)) / 1000
            if uci:
                wt, bt = (mine_ms, theirs_ms) if white else (theirs_ms, mine_ms)
                mtg = f" movestogo {rng.randint(1, 40)}" if rng.random() < 0.2 else ""
                go = f"go wtime {wt} btime {bt} winc {inc} binc {inc}{mtg}"
            else:
                mtg = f" moves={rng.randint(1, 40)}" if rng.random() < 0.2 else ""
                sess.send(f"level time={mine_ms / 1000} inc={inc / 1000}{mtg}")
                go = "go think"
        elif kind == "movetime":
            ms = rng.randint(1, 1500)
            allow = ms / 1000
            if uci:
                go = f"go movetime {ms}"
            else:
                sess.send(f"level move-time={ms / 1000}")
                go = "go think"
        elif kind == "depth":
            d = rng.randint(1, 9)
            allow = DEPTH_NODES_LIMIT
            if uci:
                go = f"go depth {d}"
            else:
                sess.send(f"level depth={d}")
                go = "go think"
        else:
            n = rng.randint(1, 300000)
            allow = DEPTH_NODES_LIMIT
            if uci:
                go = f"go nodes {n}"
            else:
                sess.send(f"level nodes={n}")
                go = "go think"
        sess.start_search(kind, go, allow, g.start, g.moves)
        if rng.random() < 0.12:
            sess.stop()  # stop right after go
        elif rng.random() < 0.05:
            sess.send("ucinewgame" if uci else "new-game")
            sess.wait_idle()
            return
        while sess.search:
            sess.during(g)
            if sess.search and rng.random() < 0.05:
                sess.stop()
        if sess.result["route"]:
            g.moves.append(sess.result["route"])

