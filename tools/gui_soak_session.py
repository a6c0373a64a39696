"""One engine process of the GUI soak (tools/gui_soak.py), driven like a GUI,
with every answer checked against what docs/protocol.md promises; and the
soak's tallies."""

import collections
import os
import queue
import subprocess
import threading
import time

from gui_soak_game import Failure, Game, hub_move, hub_position

# Measured: the engine with Hash 1, Threads 2, MultiPV 8, an EvalFile and the
# 3-piece tables loaded is about 10 MB resident (docs/results.md); the
# rest is margin for the allocator keeping freed pages.
OVERHEAD_MB = 32
MARGIN = 1.0
HASH_SIZES = [1, 2, 8, 16, 32, 64, 128, 256]


class Stats:
    def __init__(self):
        self.sent = collections.Counter()
        self.answers = collections.Counter()
        self.latency = collections.defaultdict(float)  # kind -> max seconds
        self.over = collections.defaultdict(lambda: -1e9)  # kind -> max (latency - limit)
        self.max_rss_kb = 0
        self.max_rss_ratio = (0, 0)  # (rss MB, limit MB) at the closest approach
        self.sessions = collections.Counter()
        self.games = 0
        self.failures = 0
        # Answers later than their limit + 1 s while an engine thread waited
        # at least that long for a CPU (the machine's load, not the engine).
        self.excused = collections.Counter()

    def answer(self, kind, latency, limit=None):
        self.answers[kind] += 1
        self.latency[kind] = max(self.latency[kind], latency)
        if limit is not None:
            self.over[kind] = max(self.over[kind], latency - limit)

    def report(self, out):
        print("== commands sent ==", file=out)
        for k, v in sorted(self.sent.items()):
            print(f"  {k:32} {v}", file=out)
        print("== answers (count, largest latency s, largest latency minus its allowance s) ==", file=out)
        for k, v in sorted(self.answers.items()):
            extra = f"  {self.over[k]:+.3f}" if self.over[k] > -1e8 else ""
            print(f"  {k:32} {v:7}  {self.latency[k]:.3f}{extra}", file=out)
        print(f"== late beyond the allowance but excused by the engine's run-queue wait: "
              f"{dict(self.excused) or 'none'}", file=out)
        print(f"== sessions {dict(self.sessions)}, games {self.games}", file=out)
        print(f"== max VmRSS {self.max_rss_kb / 1024:.1f} MB; closest to its limit: "
              f"{self.max_rss_ratio[0]:.1f} MB of {self.max_rss_ratio[1]} MB", file=out)
        print(f"== failures {self.failures}", file=out)


class Session:
    """One engine process in one dialect, driven like a GUI."""

    def __init__(self, args, dialect, rng, stats, files):
        self.args, self.dialect, self.rng, self.stats, self.files = args, dialect, rng, stats, files
        self.uci = dialect == "uci"
        self.variant = "armenian" if self.uci else "turkish"
        self.oracle = files["oracle_" + self.variant]
        env = dict(os.environ, TAMA_STRICT="1")
        self.p = subprocess.Popen([args.engine, dialect], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, bufsize=1, env=env)
        self.q = queue.Queue()
        self.transcript = collections.deque(maxlen=args.tail)
        self.t0 = time.monotonic()
        self.stderr = []
        self.eof = False
        self.closing = False
        self.p.stdout.reconfigure(errors="replace")
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()
        self.search = None
        self.pings = collections.deque()
        # Cumulative: an error line or notice is due for each of these sent,
        # and must arrive before the answer to a ping sent after it.
        self.errors_due = self.errors_seen = 0
        self.notes_due = self.notes_seen = 0
        self.hash_active = 64
        self.hash_pending = 64
        self.hash_previous = 64
        self.multipv = 1
        self.multipv_pending = 1
        self.rss_stop = False
        self.rss_failure = None
        self.sched = collections.deque(maxlen=600)
        threading.Thread(target=self._sample_rss, daemon=True).start()

    # -- plumbing -------------------------------------------------------
    def _read(self):
        for line in self.p.stdout:
            self.q.put((time.monotonic(), line.rstrip("\n")))
        self.q.put((time.monotonic(), None))

    def _read_err(self):
        for line in self.p.stderr:
            self.stderr.append(line.rstrip("\n"))

    def _schedstat(self):
        """Each engine thread's run-queue wait so far (s), by thread id."""
        waits = {}
        task_dir = f"/proc/{self.p.pid}/task"
        for tid in os.listdir(task_dir):
            try:
                with open(f"{task_dir}/{tid}/schedstat") as f:
                    waits[tid] = int(f.read().split()[1]) / 1e9
            except (FileNotFoundError, ValueError, ProcessLookupError, IndexError):
                pass
        return waits

    def kept_off_cpu(self, since):
        """The longest any engine thread waited, runnable, for a CPU since
        `since`: time the machine (other processes), not the engine, took."""
        samples = list(self.sched)  # one step under the GIL: the sampler appends meanwhile
        old = [x for x in samples if x[0] <= since]
        if not samples:
            return 0.0
        base = old[-1][1] if old else {}
        now = samples[-1][1]
        return max((w - base.get(tid, 0.0) for tid, w in now.items()), default=0.0)

    def scheduling(self, since):
        with open("/proc/loadavg") as f:
            load = " ".join(f.read().split()[:3])
        return (f"an engine thread waited up to {self.kept_off_cpu(since):.3f} s for a CPU meanwhile; "
                f"load average {load}")

    def _sample_rss(self):
        path = f"/proc/{self.p.pid}/status"
        while not self.rss_stop:
            try:
                self.sched.append((time.monotonic(), self._schedstat()))
                with open(path) as f:
                    for line in f:
                        if line.startswith("VmRSS:"):
                            kb = int(line.split()[1])
                            limit = max(self.hash_active, self.hash_pending, self.hash_previous) + OVERHEAD_MB
                            st = self.stats
                            st.max_rss_kb = max(st.max_rss_kb, kb)
                            if kb / 1024 / limit > (st.max_rss_ratio[0] / st.max_rss_ratio[1] if st.max_rss_ratio[1] else 0):
                                st.max_rss_ratio = (kb / 1024, limit)
                            if kb > limit * 1024 and self.rss_failure is None:
                                self.rss_failure = f"VmRSS {kb} kB above the limit {limit} MB (Hash + {OVERHEAD_MB} MB)"
            except (FileNotFoundError, ProcessLookupError):
                return
            time.sleep(0.05)

    def log(self, arrow, line):
        self.transcript.append(f"{time.monotonic() - self.t0:9.3f} {arrow} {line}")

    def fail(self, msg):
        raise Failure(msg)

    def send(self, line, key=None):
        self.log(">", line)
        self.stats.sent[key or f"{self.dialect} {line.split()[0]}"] += 1
        try:
            self.p.stdin.write(line + "\n")
            self.p.stdin.flush()
        except (BrokenPipeError, OSError):
            self.fail(f"the engine closed its input (exit {self.p.poll()}) when sent: {line}")

    def pump(self, seconds):
        """Reads and checks output for `seconds`, watching every deadline."""
        end = time.monotonic() + seconds
        while True:
            if self.rss_failure:
                self.fail(self.rss_failure)
            if self.stderr:
                self.fail(f"stderr: {self.stderr}")
            now = time.monotonic()
            self.check_deadlines(now)
            wait = min(end, self.next_deadline()) - now
            try:
                if wait <= 0:
                    t, line = self.q.get_nowait()
                else:
                    t, line = self.q.get(timeout=min(wait, 0.05))
            except queue.Empty:
                if now >= end:
                    return
                continue
            if line is None:
                self.eof = True
                if self.closing:
                    if self.search:
                        self.fail(f"exited with no answer to '{self.search['go']}'")
                    return
                code = self.p.wait()
                self.fail(f"the engine exited (status {code}) unasked")
            self.log("<", line)
            self.handle(t, line)

    def next_deadline(self):
        ds = [p[1] for p in self.pings]
        if self.search and self.search["deadline"] is not None:
            ds.append(self.search["deadline"])
        return min(ds) if ds else float("inf")

    def check_deadlines(self, now):
        """A late answer is a hang unless the machine kept the engine off the
        CPU for longer than it is late (then it is counted as excused)."""
        if self.pings and now > self.pings[0][1]:
            sent, deadline, kind = self.pings[0][:3]
            credit = self.kept_off_cpu(sent)
            if now > deadline + credit:
                self.fail(f"hang: no answer to {kind} within {MARGIN} s; {self.scheduling(sent)}")
        s = self.search
        if s and s["deadline"] is not None and now > s["deadline"]:
            credit = self.kept_off_cpu(s["trigger_t"])
            if now > s["deadline"] + credit:
                self.fail(f"hang: no {'bestmove' if self.uci else 'done'} for '{s['go']}' "
                          f"({s['why']}) by its deadline; {self.scheduling(s['trigger_t'])}")

    def wait_idle(self):
        """Pumps until the search has answered and every ping is answered."""
        while self.search or self.pings:
            if self.search and self.search["deadline"] is None:
                self.fail("internal: waiting for a search that has no deadline")
            self.pump(0.05)

    # -- answers ---------------------------------------------------------
    def handle(self, t, line):
        w = line.split()
        if not w:
            return
        s = self.search
        if self.uci:
            if w[0] == "bestmove":
                self.answered(t, line, w[1], w[3] if len(w) > 3 and w[2] == "ponder" else None)
            elif w[0] == "readyok":
                self.ponged(t, "readyok")
            elif line.startswith("info string error"):
                self.error_line(line)
            elif line.startswith("info string"):
                self.note_line(line)
            elif w[0] == "info":
                if not s:
                    self.fail("an info line with no search running")
                if "multipv" in w:
                    k = int(w[w.index("multipv") + 1])
                    if k > s["multipv"]:
                        self.fail(f"multipv {k} in a search started with MultiPV {s['multipv']}")
                    s["max_multipv"] = max(s["max_multipv"], k)
                    if k == 1 and "depth" in w:
                        s["depths"].add(int(w[w.index("depth") + 1]))
                if "tbhits" in w and int(w[w.index("tbhits") + 1]) > 0:
                    s["tables"] = True
            else:
                self.fail(f"unexpected line: {line}")
        else:
            if w[0] == "done":
                kv = dict(x.split("=", 1) for x in w[1:])
                self.answered(t, line, kv.get("move"), kv.get("ponder"))
            elif w[0] in ("pong", "ready"):
                self.ponged(t, w[0])
            elif w[0] == "error":
                self.error_line(line)
            elif w[0] == "info" and w[1].startswith("message="):
                self.note_line(line)
            elif w[0] == "info":
                if not s:
                    self.fail("an info line with no search running")
            else:
                self.fail(f"unexpected line: {line}")

    def error_line(self, line):
        if self.errors_seen >= self.errors_due:
            self.fail(f"unexpected error line: {line}")
        self.errors_seen += 1

    def note_line(self, line):
        if self.notes_seen >= self.notes_due:
            self.fail(f"unexpected notice: {line}")
        self.notes_seen += 1

    def ponged(self, t, word):
        if not self.pings:
            self.fail(f"{word} with nothing asked")
        sent, _, kind, errors_due, notes_due = self.pings.popleft()
        want = {"isready": "readyok", "ping": "pong", "init": "ready"}[kind]
        if word != want:
            self.fail(f"{word} answers {kind}")
        if self.errors_seen < errors_due or self.notes_seen < notes_due:
            self.fail(f"{errors_due - self.errors_seen} error line(s) and {notes_due - self.notes_seen} "
                      f"notice(s) due before {word}")
        self.stats.answer(kind, t - sent, 0.0)
        if t - sent > MARGIN:
            self.stats.excused[kind] += 1

    def answered(self, t, line, move, ponder):
        s = self.search
        if not s:
            self.fail(f"an answer with no search running: {line}")
        if not s["may_answer"]:
            self.fail(f"'{s['go']}' answered before stop/ponderhit: {line}")
        legal = s["legal"]
        if legal.over():
            if move not in (None, "(none)"):
                self.fail(f"game over ({legal.state}) but answered {move}")
        else:
            route = self.route_of(legal, move)
            if route is None:
                self.fail(f"illegal move {move} for {s['go']} in {legal.fen}: legal {sorted(legal.routes)}")
            if ponder is not None:
                after = self.oracle.legal(s["start"], s["moves"] + [route])
                # A repetition draw still lists its moves (docs/protocol.md).
                if after is None or self.route_of(after, ponder) is None:
                    self.fail(f"illegal ponder move {ponder} after {move} in {legal.fen}")
            s["route"] = route
        self.stats.answer(s["kind"], t - s["trigger_t"], s["allow"])
        if s["allow"] is not None and t - s["trigger_t"] > s["allow"] + MARGIN:
            self.stats.excused[s["kind"]] += 1
        # The endgame tables narrow the root to the moves that keep their
        # result (a won position shows only its winning moves), so a search
        # that probed them is not held to one line per legal move.
        if (s["analysis"] and not s["tables"] and legal.moves > 1 and len(s["depths"]) >= 2
                and s["max_multipv"] != min(s["multipv"], legal.moves)):
            self.fail(f"analysis with MultiPV {s['multipv']} and {legal.moves} moves showed "
                      f"{s['max_multipv']} lines after {len(s['depths'])} iterations")
        self.result = s
        self.search = None
        self.hash_previous = self.hash_active

    def route_of(self, legal, move):
        if self.uci:
            return move if move in legal.routes else None
        return legal.hub.get(move)

    # -- commands --------------------------------------------------------
    def ping(self):
        kind = "isready" if self.uci else "ping"
        self.send(kind)
        self.pings.append((time.monotonic(), time.monotonic() + MARGIN, kind, self.errors_due, self.notes_due))

    def set_hash(self, mb):
        self.send(f"setoption name Hash value {mb}" if self.uci else f"set-param name=hash value={mb}",
                  f"{self.dialect} setoption Hash")
        self.hash_pending = mb

    def set_threads(self, n):
        self.send(f"setoption name Threads value {n}" if self.uci else f"set-param name=threads value={n}",
                  f"{self.dialect} setoption Threads")

    def set_multipv(self, k):
        self.send(f"setoption name MultiPV value {k}", "uci setoption MultiPV")
        self.multipv_pending = k

    def set_evalfile(self):
        v = self.rng.choice(self.files["evalfiles_" + self.variant])
        if self.uci:
            self.send(f"setoption name EvalFile value {v}", "uci setoption EvalFile")
            if v != "<builtin>":
                self.notes_due += 1  # "info string EvalFile: ... loaded from ..."
        else:
            self.send(f"set-param name=evalfile value=\"{v}\"", "hub setoption EvalFile")

    def set_egtb(self):
        choice = self.rng.choice(["tables", "tables", "empty-dir", "missing-dir", "none"])
        path = {"tables": self.files["egtb_" + self.variant], "empty-dir": self.files["egtb_empty"],
                "missing-dir": self.files["egtb_missing"], "none": "<empty>" if self.uci else ""}[choice]
        if self.uci:
            self.send(f"setoption name EGTBPath value {path}", f"uci setoption EGTBPath {choice}")
            if choice == "tables":
                self.notes_due += 1  # "info string EGTB: 16 tables, ..."
        else:
            self.send(f"set-param name=egtbpath value=\"{path}\"", f"hub setoption EGTBPath {choice}")
        if choice in ("empty-dir", "missing-dir"):
            self.errors_due += 1

    def random_option(self):
        r = self.rng.random()
        if r < 0.3:
            self.set_hash(self.rng.choice(HASH_SIZES))
        elif r < 0.5:
            self.set_threads(self.rng.choice(self.args.threads))
        elif r < 0.7 and self.uci:
            self.set_multipv(self.rng.randint(1, 8))
        elif r < 0.85:
            self.set_evalfile()
        else:
            self.set_egtb()

    def position(self, start, moves):
        if self.uci:
            cmd = f"position {start}" + (" moves " + " ".join(moves) if moves else "")
            self.send(cmd, "uci position " + start.split()[0])
        else:
            parts = ["pos"]
            if start == "startpos":
                parts.append("start")
            else:
                parts.append("pos=" + hub_position(start[4:]))
            if moves:
                hub = []
                for i, m in enumerate(moves):
                    legal = self.oracle.legal(start, moves[:i])
                    hub.append(hub_move(m, legal.routes[m]))
                parts.append('moves="' + " ".join(hub) + '"')
            self.send(" ".join(parts), "hub pos " + ("start" if start == "startpos" else "pos="))

    def start_search(self, kind, go_line, allow, start, moves, analysis=False, may_answer=True):
        legal = self.oracle.legal(start, moves)
        now = time.monotonic()
        self.send(go_line, f"{self.dialect} go {kind}")
        self.hash_previous = self.hash_active
        self.hash_active = self.hash_pending
        self.multipv = self.multipv_pending
        self.search = {
            "kind": kind, "go": go_line, "legal": legal, "start": start, "moves": list(moves),
            "trigger_t": now, "allow": allow, "deadline": None if allow is None else now + allow + MARGIN,
            "why": f"{kind}, {allow} s allowed" if allow is not None else kind,
            "multipv": self.multipv if self.uci else 1, "max_multipv": 0, "depths": set(),
            "analysis": analysis, "may_answer": may_answer, "route": None, "tables": False,
        }
        self.result = None

    def stop(self):
        self.send("stop")
        s = self.search
        if s:
            s.update(trigger_t=time.monotonic(), allow=0.0, may_answer=True, kind=s["kind"] + " stop",
                     why="after stop")
            s["deadline"] = s["trigger_t"] + MARGIN

    def ponderhit(self, clock_s):
        self.send("ponderhit" if self.uci else "ponder-hit")
        s = self.search
        if s:
            s.update(trigger_t=time.monotonic(), allow=clock_s, may_answer=True, kind="ponder hit",
                     why=f"after ponderhit, {clock_s} s on the clock")
            s["deadline"] = s["trigger_t"] + clock_s + MARGIN

    def during(self, game):
        """Sleeps a random while, maybe sending something a GUI sends mid-search."""
        self.pump(self.rng.choice([0, 0.01, self.rng.uniform(0, 0.3), self.rng.uniform(0, 0.3),
                                   self.rng.uniform(0, 1.5)]))
        if not self.search:
            return
        r = self.rng.random()
        if r < 0.25:
            self.ping()
        elif r < 0.40:
            self.random_option()
        elif r < 0.50:
            # A GUI that shows another position (the game's earlier one, or
            # a random one) while the engine thinks.
            start, moves = game.start, game.moves[: self.rng.randint(0, len(game.moves))]
            self.position(start, moves)

    # -- a session ---------------------------------------------------------
    def open(self):
        if self.uci:
            self.handshake("uci", "uciok")
        else:
            self.handshake("hub", "wait")
            self.send("set-param name=variant value=turkish", "hub setoption Variant")
            self.send("set-param name=ponder value=true", "hub setoption Ponder")
        if self.rng.random() < 0.7:
            self.set_hash(self.rng.choice(HASH_SIZES))
        self.set_threads(self.rng.choice(self.args.threads))
        if self.rng.random() < 0.5:
            self.set_egtb()
        if self.uci:
            self.send("setoption name Ponder value true", "uci setoption Ponder")
            self.ping()
        else:
            self.send("init")
            self.pings.append((time.monotonic(), time.monotonic() + MARGIN, "init", self.errors_due, self.notes_due))
        self.wait_idle()

    def handshake(self, cmd, last):
        sent = time.monotonic()
        self.send(cmd)
        while True:
            try:
                t, line = self.q.get(timeout=max(0.0, sent + MARGIN - time.monotonic()))
            except queue.Empty:
                self.fail(f"hang: no {last} within {MARGIN} s of {cmd}")
            if line is None:
                self.fail(f"the engine exited at start (status {self.p.wait()})")
            self.log("<", line)
            if line == last:
                self.stats.answer(cmd, t - sent, 0.0)
                return

    def close(self, end_mid_search):
        """`quit` or end of input, maybe with a search running: its answer
        and exit status 0 within a second."""
        if end_mid_search and not self.search:
            g = Game(self)
            self.position(g.start, g.moves)
            go = "go infinite" if self.uci else "go analyze"
            self.start_search("infinite", go, None, g.start, g.moves, may_answer=False)
            self.pump(self.rng.uniform(0, 0.5))
        how = self.rng.choice(["quit", "eof"])
        self.closing = True
        if how == "quit":
            self.send("quit")
        else:
            self.log(">", "(end of input)")
            self.stats.sent[f"{self.dialect} (end of input)"] += 1
            self.p.stdin.close()
        t = time.monotonic()
        if self.search:
            s = self.search
            s.update(trigger_t=t, allow=0.0, may_answer=True, kind=s["kind"] + " " + how, why=f"after {how}")
            s["deadline"] = t + MARGIN
            self.wait_idle()
        while not self.eof:
            try:
                _, line = self.q.get(timeout=max(0.0, t + MARGIN - time.monotonic()))
            except queue.Empty:
                self.fail(f"hang: still running {MARGIN} s after {how}")
            if line is None:
                break
            self.log("<", line)
            self.handle(time.monotonic(), line)
        try:
            code = self.p.wait(timeout=max(0.01, t + MARGIN - time.monotonic()))
        except subprocess.TimeoutExpired:
            self.fail(f"hang: still running {MARGIN} s after {how}")
        self.stats.answer(how, time.monotonic() - t, 0.0)
        self.rss_stop = True
        time.sleep(0.05)
        if code != 0:
            self.fail(f"exit status {code} after {how}")
        if self.stderr:
            self.fail(f"stderr: {self.stderr}")

    def kill(self):
        self.rss_stop = True
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait()

