// The page's end of the protocol: a UCI client (docs/protocol.md) over the
// server's relay. Engine -> page: server-sent events, one protocol line per
// `data:` line. Page -> engine: POST /engine/send with the session token.
// Nothing here knows the rules of the game: the engine tells.

export class Engine {
  constructor() {
    this.token = null;
    this.listeners = [];   // every line, in order (the log, the search view)
    this.collectors = [];  // pending requests, oldest first
    this.queue = Promise.resolve();
    this.sendChain = Promise.resolve();
    this.sent = 0;         // lines posted to the engine so far
    this.searching = false;
    this.bestmoveWaiters = [];
    this.closed = false;
    this.onClose = () => {};
    this.options = [];     // parsed `option name ...` lines
    this.id = "";
  }

  // Opens the session: resolves after `uciok`.
  connect() {
    return new Promise((resolve, reject) => {
      const es = new EventSource("/engine/events");
      this.es = es;
      es.addEventListener("session", async (e) => {
        this.token = e.data;
        try {
          const lines = await this.request(["uci"], (l) => l === "uciok");
          for (const l of lines) {
            if (l.startsWith("option name ")) this.options.push(parseOption(l));
            if (l.startsWith("id name ")) this.id = l.slice(8);
          }
          resolve();
        } catch (err) {
          reject(err);
        }
      });
      es.onmessage = (e) => {
        for (const line of e.data.split("\n")) this.receive(line);
      };
      es.addEventListener("end", () => this.close("the engine has exited"));
      // No automatic reconnection: a new connection would be a new engine
      // that knows nothing of this game.
      es.onerror = () => {
        const why = this.token ? "the connection to tama was lost" : "cannot reach tama";
        this.close(why);
        reject(new Error(why));
      };
    });
  }

  close(why) {
    if (this.closed) return;
    this.closed = true;
    if (this.es) this.es.close();
    for (const c of this.collectors) c.reject(new Error(why));
    this.collectors = [];
    for (const w of this.bestmoveWaiters) w.reject(new Error(why));
    this.bestmoveWaiters = [];
    this.onClose(why);
  }

  onLine(fn) {
    this.listeners.push(fn);
  }

  receive(line) {
    for (const fn of this.listeners) fn("<", line);
    if (line.startsWith("bestmove")) {
      this.searching = false;
      const waiters = this.bestmoveWaiters;
      this.bestmoveWaiters = [];
      for (const w of waiters) w.resolve(line);
    }
    const c = this.collectors[0];
    if (c) {
      c.lines.push(line);
      if (c.done(line)) {
        this.collectors.shift();
        c.resolve(c.lines);
      }
    }
  }

  // Sends lines (no answer awaited). Posts go one after another, so the
  // engine reads the lines in the order they were sent (two fetches in
  // flight at once could arrive in either order: a `stop` before its `go`).
  send(lines) {
    const p = this.sendChain.then(() => this.post(lines));
    this.sendChain = p.catch(() => {});
    return p;
  }

  async post(lines) {
    if (this.closed) throw new Error("the engine session has ended");
    this.sent += lines.length;
    for (const l of lines) for (const fn of this.listeners) fn(">", l);
    const r = await fetch("/engine/send?session=" + this.token, {
      method: "POST",
      headers: { "Content-Type": "text/plain" },
      body: lines.join("\n") + "\n",
    });
    if (!r.ok) {
      const why = (await r.text()).trim();
      this.close(why || "tama refused a line (" + r.status + ")");
      throw new Error(why);
    }
  }

  // Sends lines and collects every line up to the one `done` accepts.
  // Requests go one at a time, so the lines collected answer this one.
  request(lines, done) {
    const run = () =>
      new Promise((resolve, reject) => {
        this.collectors.push({ lines: [], done, resolve, reject });
        this.send(lines).catch(reject);
      });
    const p = this.queue.then(run, run);
    this.queue = p.catch(() => {});
    return p;
  }

  // The position after `moves` from `fen`, as the engine sees it: its legal
  // moves (every route), the game state and the FEN. Rejects with the
  // engine's own reason when it refuses the position.
  async position(fen, moves) {
    const cmd = "position fen " + fen + (moves.length ? " moves " + moves.join(" ") : "");
    const lines = await this.request([cmd, "legalmoves"], (l) => l.startsWith("legalmoves "));
    const err = lines.find((l) => l.startsWith("info string error: "));
    if (err) throw new Error(err.slice("info string error: ".length));
    return parseLegalMoves(lines);
  }

  async setOption(name, value) {
    const line = "setoption name " + name + (value === undefined ? "" : " value " + value);
    const lines = await this.request([line, "isready"], (l) => l === "readyok");
    const err = lines.find((l) => l.startsWith("info string error: "));
    if (err) throw new Error(err.slice("info string error: ".length));
  }

  // Starts a search; the promise resolves with the `bestmove` line.
  async go(args) {
    if (this.searching) await this.stop();
    this.searching = true;
    const done = new Promise((resolve, reject) => this.bestmoveWaiters.push({ resolve, reject }));
    await this.send(["go " + args]);
    return done;
  }

  // Ends the running search, if any, and waits for its `bestmove`.
  async stop() {
    if (!this.searching) return;
    const done = new Promise((resolve, reject) => this.bestmoveWaiters.push({ resolve, reject }));
    await this.send(["stop"]);
    await done;
  }
}

// `option name <id> type <t> [default <x>] [min <n>] [max <n>] [var <v>]...`
export function parseOption(line) {
  const words = line.split(" ");
  const keys = new Set(["name", "type", "default", "min", "max", "var"]);
  const opt = { vars: [] };
  let key = null;
  let value = [];
  const flush = () => {
    if (!key) return;
    const v = value.join(" ");
    if (key === "var") opt.vars.push(v);
    else opt[key] = v;
  };
  for (const w of words.slice(1)) {
    if (keys.has(w)) {
      flush();
      key = w;
      value = [];
    } else value.push(w);
  }
  flush();
  return opt;
}

// The answer to `legalmoves`:
//   legalmove <route> [captures <sq>...] [promotes]   (one per route)
//   legalmoves <n> state <state> fen <fen>
export function parseLegalMoves(lines) {
  const routes = [];
  let summary = null;
  for (const l of lines) {
    const w = l.split(" ");
    if (w[0] === "legalmove") {
      const text = w[1];
      const squares = text.split(/[-x]/);
      const ci = w.indexOf("captures");
      const captures = [];
      if (ci >= 0) {
        for (let i = ci + 1; i < w.length && /^[a-h][1-8]$/.test(w[i]); i++) captures.push(w[i]);
      }
      routes.push({
        text,
        from: squares[0],
        landings: squares.slice(1),
        captures,
        promotes: w.includes("promotes"),
        // Routes of one move share this (the landing squares may differ).
        id: squares[0] + ">" + squares[squares.length - 1] + ":" + [...captures].sort().join(",") + (w.includes("promotes") ? "=K" : ""),
      });
    } else if (w[0] === "legalmoves") {
      summary = { count: Number(w[1]), state: w[w.indexOf("state") + 1], fen: w[w.indexOf("fen") + 1] };
    }
  }
  if (!summary) throw new Error("the engine gave no legalmoves summary");
  return { routes, ...summary };
}

// `info depth 9 seldepth 12 multipv 1 score cp 35 ... pv d3-d4 e6-e5`
export function parseInfo(line) {
  const w = line.split(" ");
  if (w[0] !== "info" || w[1] === "string") return null;
  const info = { multipv: 1, pv: [] };
  for (let i = 1; i < w.length; i++) {
    switch (w[i]) {
      case "depth": info.depth = Number(w[++i]); break;
      case "seldepth": info.seldepth = Number(w[++i]); break;
      case "multipv": info.multipv = Number(w[++i]); break;
      case "nodes": info.nodes = Number(w[++i]); break;
      case "nps": info.nps = Number(w[++i]); break;
      case "time": info.time = Number(w[++i]); break;
      case "hashfull": i++; break;
      case "score":
        info.scoreKind = w[++i];
        info.score = Number(w[++i]);
        if (w[i + 1] === "lowerbound" || w[i + 1] === "upperbound") info.bound = w[++i];
        break;
      case "pv": info.pv = w.slice(i + 1); i = w.length; break;
    }
  }
  return info.depth === undefined ? null : info;
}
