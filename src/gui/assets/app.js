// The app: a game (start position + moves), the modes (play, analyse, set
// up), and the engine conversation that drives them. Every legal move, every
// FEN and the game's state come from the engine (`legalmoves`); the page only
// matches what the person clicks against that list.

import { Engine, parseInfo } from "./engine.js";
import { Board, parseFen, toFen } from "./board.js";

const START_FEN =
  "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7";

const $ = (id) => document.getElementById(id);

const S = {
  engine: null,
  board: null,
  startFen: START_FEN,
  moves: [],        // the game line: { text, from, landings, captures }
  history: [],      // history[i]: the engine's view of the position after i moves
  ply: 0,           // the ply on the board
  mode: "play",
  human: "white",
  level: "skill 4",
  sel: null,        // selected square
  path: [],         // landing squares entered so far
  thinking: false,
  generation: 0,    // bumped whenever the game changes under a running search
  over: null,       // { result, reason }
  rules: [],        // the rule options, { name, label }, as the server names them (GET /rules)
  clock: null,      // { white, black, inc, since, side }
  lines: [],        // analysis lines by multipv
  stats: "",
  multipv: 3,
  setup: null,      // { pieces, side, brush }
  message: "",
  busy: Promise.resolve(),
  applying: null,   // a move entered by hand, until the engine confirmed it
  errors: [],
};

// ---------------------------------------------------------------- messages

function say(text, kind = "info") {
  S.message = text;
  const m = $("message");
  m.textContent = text;
  m.className = kind;
}

function refuse(text) {
  say(text, "error");
}

// Engine work one step at a time: a search is stopped before the position
// changes, and answers are never mixed up.
function job(fn) {
  const p = S.busy.then(fn, fn);
  S.busy = p.catch((e) => {
    S.errors.push(String(e.message || e));
    refuse(String(e.message || e));
  });
  return p;
}

// Script errors are kept (and shown): the browser tests require none.
window.addEventListener("error", (e) => S.errors.push(e.message));
window.addEventListener("unhandledrejection", (e) => S.errors.push(String(e.reason && e.reason.message || e.reason)));

// ---------------------------------------------------------------- positions

const sideOf = (fen) => (fen[0] === "B" ? "black" : "white");
const other = (side) => (side === "white" ? "black" : "white");
const cap = (s) => s[0].toUpperCase() + s.slice(1);
const current = () => S.history[S.ply];

function stateText(pos) {
  switch (pos.state) {
    case "ongoing":
      return null;
    case "won-by-white":
      return { result: "2-0", reason: "White wins: Black has no legal move" };
    case "won-by-black":
      return { result: "0-2", reason: "Black wins: White has no legal move" };
    case "drawn-by-repetition":
      return { result: "1-1", reason: "Draw by threefold repetition" };
    default:
      return { result: "*", reason: "Game over (" + pos.state + ")" };
  }
}

// A new game from `fen` (already accepted by the engine).
async function newGame(fen) {
  S.generation++;
  await S.engine.stop();
  const first = await S.engine.position(fen, []);
  S.startFen = fen;
  S.moves = [];
  S.history = [first];
  S.ply = 0;
  S.over = stateText(first);
  S.sel = null;
  S.path = [];
  startClock();
  render();
  say("New game. " + cap(sideOf(fen)) + " to move.");
  await afterChange();
}

// Plays a route (one of current().routes) at the viewed ply; later moves of
// the line are dropped (a new variation replaces them).
async function playRoute(route, applied = () => {}) {
  S.generation++;
  await S.engine.stop();
  const mover = sideOf(current().fen);
  const line = S.moves.slice(0, S.ply).concat([{ text: route.text, from: route.from, landings: route.landings, captures: route.captures }]);
  const next = await S.engine.position(S.startFen, line.map((m) => m.text));
  // Only now, all at once: the state is never half-updated.
  S.history.length = S.ply + 1;
  S.history.push(next);
  S.moves = line;
  S.ply = line.length;
  S.sel = null;
  S.path = [];
  chargeClock(mover);
  const over = stateText(current());
  if (over) {
    S.over = over;
    stopClock();
  }
  render();
  const who = S.mode === "play" ? (mover === S.human ? "You" : "Tama") + " (" + mover + ")" : cap(mover);
  say(over ? over.reason : who + " played " + route.text + ".");
  applied();
  await afterChange();
}

// What happens after the position changed: Tama's move in play mode, a new
// search in analysis mode.
async function afterChange() {
  if (S.mode === "analyse") return analyse();
  if (S.mode === "play") return maybeEngineMove();
}

function engineSide() {
  return other(S.human);
}

async function maybeEngineMove() {
  const pos = current();
  if (S.mode !== "play" || S.over || S.ply !== S.moves.length) return;
  if (sideOf(pos.fen) !== engineSide() || pos.state !== "ongoing") return;
  const gen = S.generation;
  S.thinking = true;
  render();
  say("Tama is thinking...");
  await S.engine.setOption("Skill Level", skillLevel());
  await S.engine.position(S.startFen, S.moves.map((m) => m.text));
  const line = await S.engine.go(goArgs());
  S.thinking = false;
  if (gen !== S.generation || S.mode !== "play") return render();
  const text = line.split(" ")[1];
  if (text === "(none)") return render();
  const route = current().routes.find((r) => r.text === text);
  if (!route) {
    refuse("Tama answered " + text + ", which is not among the legal moves; the game stops here.");
    return render();
  }
  await playRoute(route);
}

// A named level plays at its Skill Level, a second a move at most (the
// level's own depth ends it sooner); every other choice at full strength.
const FULL_STRENGTH = 9;

function skillLevel() {
  const [kind, n] = S.level.split(" ");
  return kind === "skill" ? Number(n) : FULL_STRENGTH;
}

function goArgs() {
  const [kind, a, b] = S.level.split(" ");
  if (kind === "skill") return "movetime 1000";
  if (kind === "depth") return "depth " + a;
  if (kind === "movetime") return "movetime " + a;
  const c = S.clock;
  return `wtime ${Math.round(c.white)} btime ${Math.round(c.black)} winc ${c.inc} binc ${c.inc}`;
}

// ---------------------------------------------------------------- clocks

function startClock() {
  const [kind, base, inc] = S.level.split(" ");
  if (S.mode !== "play" || kind !== "clock") {
    S.clock = null;
    return;
  }
  S.clock = { white: Number(base), black: Number(base), inc: Number(inc), since: performance.now(), running: true };
}

function chargeClock(mover) {
  const c = S.clock;
  if (!c || !c.running) return;
  const now = performance.now();
  c[mover] -= now - c.since;
  c[mover] += c.inc;
  c.since = now;
}

function stopClock() {
  if (S.clock) S.clock.running = false;
}

function tickClock() {
  const c = S.clock;
  if (!c) return;
  const side = sideOf(current().fen);
  const left = { white: c.white, black: c.black };
  if (c.running && S.ply === S.moves.length && !S.over) {
    left[side] -= performance.now() - c.since;
    if (left[side] <= 0) {
      c[side] = 0;
      c.running = false;
      S.over = { result: side === "white" ? "0-2" : "2-0", reason: cap(side) + " lost on time" };
      S.generation++;
      job(() => S.engine.stop());
      S.thinking = false;
      say(S.over.reason);
      render();
    }
  }
  const fmt = (ms) => {
    const s = Math.max(0, Math.ceil(ms / 1000));
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  };
  const top = S.board.flipped ? "white" : "black";
  for (const [id, color] of [["clock-top", top], ["clock-bottom", other(top)]]) {
    const el = $(id);
    el.hidden = false;
    el.textContent = cap(color) + " " + fmt(left[color]);
    el.classList.toggle("running", c.running && side === color && !S.over);
  }
}

// ---------------------------------------------------------------- analysis

async function analyse() {
  const gen = S.generation;
  await S.engine.stop();
  if (gen !== S.generation || S.mode !== "analyse") return;
  S.lines = [];
  S.stats = "";
  renderLines();
  const pos = current();
  if (pos.state !== "ongoing") return;
  await S.engine.setOption("MultiPV", S.multipv);
  await S.engine.setOption("Skill Level", FULL_STRENGTH);
  await S.engine.position(S.startFen, S.moves.slice(0, S.ply).map((m) => m.text));
  if (gen !== S.generation || S.mode !== "analyse") return;
  // Its bestmove comes after the `stop` of the next change; a closed
  // session is reported by onClose.
  S.engine.go("infinite").catch(() => {});
}

function onInfo(line) {
  if (S.mode !== "analyse" || !S.engine.searching) return;
  const info = parseInfo(line);
  if (!info || !info.pv.length) return;
  S.lines[info.multipv - 1] = info;
  S.stats = `depth ${info.depth} \u00b7 ${Math.round((info.nodes || 0) / 1000)}k nodes \u00b7 ${Math.round((info.nps || 0) / 1000)}k nodes/s`;
  // Drawn at most once a frame: a deep search prints many lines a second.
  if (!S.linesQueued) {
    S.linesQueued = true;
    requestAnimationFrame(() => {
      S.linesQueued = false;
      renderLines();
    });
  }
}

// Centi-men from the side to move's view -> White's view, and a text.
function whiteScore(info, fen) {
  const sign = sideOf(fen) === "white" ? 1 : -1;
  if (info.scoreKind === "mate") {
    const n = info.score * sign;
    return { value: n > 0 ? 100000 - n : -100000 - n, text: (n > 0 ? "+" : "-") + "#" + Math.abs(info.score) };
  }
  const v = info.score * sign;
  return { value: v, text: (v > 0 ? "+" : v < 0 ? "\u2212" : "") + (Math.abs(v) / 100).toFixed(2) };
}

function movesWithNumbers(fen, texts, firstPly) {
  let side = sideOf(fen);
  let n = Math.floor(firstPly / 2) + 1;
  const out = [];
  texts.forEach((t, i) => {
    if (side === "white") out.push(n + ". " + t);
    else out.push(i === 0 ? n + "... " + t : t);
    if (side === "black") n++;
    side = other(side);
  });
  return out.join(" ");
}

// The lines are updated in place (not rebuilt), so a click on one is not
// lost to the next info line.
function renderLines() {
  const ol = $("lines");
  const pos = current();
  $("search-stats").textContent = S.stats;
  ol.style.setProperty("--lines", String(S.multipv));
  const shown = S.lines.filter(Boolean);
  while (ol.children.length > shown.length) ol.lastChild.remove();
  shown.forEach((info, k) => {
    let li = ol.children[k];
    if (!li) {
      li = document.createElement("li");
      li.className = "line";
      li.append(Object.assign(document.createElement("span"), { className: "score" }));
      li.append(Object.assign(document.createElement("span"), { className: "pv" }));
      li.addEventListener("click", () => {
        const first = li.dataset.first;
        const r = current().routes.find((x) => x.text === first);
        if (r) job(() => playRoute(r));
      });
      ol.append(li);
    }
    const sc = whiteScore(info, pos.fen);
    const bound = info.bound ? (info.bound === "lowerbound" ? "\u2265" : "\u2264") : "";
    li.children[0].textContent = bound + sc.text;
    const pv = movesWithNumbers(pos.fen, info.pv, startPly() + S.ply);
    li.children[1].textContent = pv;
    li.dataset.first = info.pv[0];
    // A line shows one row (the panel must not change height); the whole
    // line is in the tooltip.
    li.title = "depth " + info.depth + ": " + pv + "\nclick to play " + info.pv[0];
  });
  renderEvalBar();
  renderArrows();
}

// Ply number of the start position (Black to move at the start = odd).
function startPly() {
  return sideOf(S.startFen) === "black" ? 1 : 0;
}

function renderEvalBar() {
  const bar = $("evalbar");
  const best = S.lines[0];
  bar.classList.toggle("idle", !(S.mode === "analyse" && best));
  if (!(S.mode === "analyse" && best)) {
    $("evalbar-white").style.height = "50%";
    $("evalbar-text").textContent = "";
    return;
  }
  const sc = whiteScore(best, current().fen);
  // A man up is about 73%, two men about 88%.
  const share = 1 / (1 + Math.exp(-sc.value / 100));
  $("evalbar-white").style.height = (share * 100).toFixed(1) + "%";
  $("evalbar-text").textContent = sc.text;
  bar.classList.toggle("flipped", S.board.flipped);
}

// ---------------------------------------------------------------- input

function routesFrom(sq) {
  return current().routes.filter((r) => r.from === sq);
}

function candidates() {
  return routesFrom(S.sel).filter((r) => S.path.every((p, i) => r.landings[i] === p));
}

function describeList(routes) {
  const names = [...new Set(routes.map((r) => r.text))];
  return names.length > 8 ? names.slice(0, 8).join(", ") + " and " + (names.length - 8) + " more" : names.join(", ");
}

// Why the person may not move right now, or null.
function blocked() {
  if (S.mode === "setup") return null;
  if (S.over) return "The game is over: " + S.over.reason + ". Start a new game, or step back.";
  if (S.thinking) return "Tama is thinking; wait for its move.";
  const pos = current();
  if (pos.state !== "ongoing") return "The game is over here: " + stateText(pos).reason + ".";
  if (S.mode === "play" && S.ply === S.moves.length && sideOf(pos.fen) === engineSide())
    return "It is Tama's move.";
  return null;
}

// A press on a square (click, tap, or the end of a drag). Returns true when
// a piece got selected (so the board may start a drag).
function press(sq) {
  // A quick hand enters the next move before the engine has confirmed the
  // last one: the press waits for the position it was meant for.
  if (S.applying && S.mode !== "setup") {
    S.applying.then(() => press(sq));
    return false;
  }
  if (S.mode === "setup") {
    setupPress(sq);
    return false;
  }
  const why = blocked();
  if (why) {
    refuse(why);
    return false;
  }
  const pos = current();
  const side = sideOf(pos.fen);
  const piece = parseFen(pos.fen).pieces.get(sq);

  if (S.sel) {
    const cands = candidates();
    const next = cands.filter((r) => r.landings[S.path.length] === sq);
    if (next.length) {
      S.path.push(sq);
      const done = next.filter((r) => r.landings.length === S.path.length);
      if (done.length) return finish(done), false;
      say("Capture on: go on to " + [...new Set(next.map((r) => r.landings[S.path.length]))].join(" or ") + ".");
      renderMarks();
      return false;
    }
    const ending = cands.filter((r) => r.landings[r.landings.length - 1] === sq);
    if (ending.length) return finish(ending), false;
    if (piece && piece.color === side && sq !== S.sel && S.path.length === 0) return select(sq);
    if (sq === S.sel && S.path.length === 0) {
      S.sel = null;
      renderMarks();
      return false;
    }
    const where = S.path.length ? S.sel + "x" + S.path.join("x") : S.sel;
    refuse(`${where} cannot go on to ${sq}. Legal: ${describeList(cands)}.`);
    return false;
  }

  if (!piece) {
    refuse(`No piece on ${sq}. ${cap(side)} to move.`);
    return false;
  }
  if (piece.color !== side) {
    refuse(`The piece on ${sq} is ${piece.color}, and ${side} is to move.`);
    return false;
  }
  return select(sq);
}

function select(sq) {
  const pos = current();
  const mine = routesFrom(sq);
  if (!mine.length) {
    const first = pos.routes[0];
    if (first && first.captures.length) {
      const n = first.captures.length;
      const movers = [...new Set(pos.routes.map((r) => r.from))].join(", ");
      refuse(`Capture is compulsory, and the most pieces (${n}) must be taken: the piece${movers.includes(",") ? "s" : ""} on ${movers} can do it, not ${sq}.`);
    } else {
      refuse(`The piece on ${sq} has no legal move.`);
    }
    S.sel = null;
    S.path = [];
    renderMarks();
    return false;
  }
  S.sel = sq;
  S.path = [];
  say("");
  renderMarks();
  return true;
}

// The entered squares match these routes: play, or ask which one.
function finish(routes) {
  const moves = new Map();
  for (const r of routes) if (!moves.has(r.id)) moves.set(r.id, r);
  if (moves.size === 1) {
    const r = routes.find((x) => x.landings.length === S.path.length && x.landings.every((l, i) => l === S.path[i])) || routes[0];
    let resolve;
    const applying = new Promise((res) => (resolve = res));
    const applied = () => {
      if (S.applying === applying) S.applying = null;
      resolve();
    };
    S.applying = applying;
    job(async () => {
      try {
        await playRoute(r, applied);
      } finally {
        applied();
      }
    });
    return;
  }
  askWhich([...moves.values()]);
}

function askWhich(routes) {
  const box = $("choice");
  const list = $("choice-list");
  list.innerHTML = "";
  for (const r of routes) {
    const b = document.createElement("button");
    b.className = "choice";
    b.dataset.route = r.text;
    b.textContent = r.text + " (takes " + r.captures.join(", ") + ")";
    b.addEventListener("mouseenter", () => S.board.setMarks({ ...marks(), arrows: [{ squares: [r.from, ...r.landings], kind: "choice" }] }));
    b.addEventListener("click", () => {
      box.hidden = true;
      job(() => playRoute(r));
    });
    list.append(b);
  }
  box.hidden = false;
  say("Ambiguous capture: choose which pieces to take.");
}

// ---------------------------------------------------------------- set-up

function setupPress(sq) {
  const s = S.setup;
  const [color, kind] = s.brush.split("-");
  const now = s.pieces.get(sq);
  if (s.brush === "empty" || (now && now.color === color && now.king === (kind === "king"))) s.pieces.delete(sq);
  else s.pieces.set(sq, { color, king: kind === "king" });
  renderSetup();
}

function renderSetup() {
  const fen = toFen(S.setup.side, S.setup.pieces);
  S.board.setPieces(S.setup.pieces);
  S.board.setMarks({});
  $("fen").value = fen;
  for (const b of document.querySelectorAll("#palette button")) b.classList.toggle("active", b.dataset.piece === S.setup.brush);
}

function enterSetup() {
  const p = parseFen(current().fen);
  S.setup = { pieces: p.pieces, side: p.side, brush: S.setup ? S.setup.brush : "white-man", returnTo: S.mode === "setup" ? "analyse" : S.mode };
  $("setup-side").value = p.side;
  S.mode = "setup";
  S.generation++;
  job(() => S.engine.stop());
  say("Click squares to place or remove pieces; then Done.");
  render();
}

// Tries a FEN on the engine; on success starts a new game from it.
async function tryFen(fen, thenMode) {
  try {
    await S.engine.position(fen, []);
  } catch (e) {
    // The engine kept its previous position; so does the page.
    refuse("FEN refused: " + e.message);
    return false;
  }
  if (thenMode) S.mode = thenMode;
  await newGame(fen);
  return true;
}

// ---------------------------------------------------------------- rendering

function marks() {
  const m = { last: S.ply > 0 ? S.moves[S.ply - 1] : null, arrows: [] };
  if (S.sel) {
    const cands = candidates();
    m.selected = S.sel;
    m.path = S.path.slice();
    m.dests = [...new Set(cands.map((r) => r.landings[S.path.length]).filter(Boolean))];
    m.finals = [...new Set(cands.map((r) => r.landings[r.landings.length - 1]))].filter((f) => !m.dests.includes(f));
    if (S.path.length) m.arrows.push({ squares: [S.sel, ...S.path], kind: "entered" });
  }
  return m;
}

function renderArrows() {
  const m = marks();
  if (S.mode === "analyse" && S.lines[0] && S.lines[0].pv.length) {
    const r = current().routes.find((x) => x.text === S.lines[0].pv[0]);
    if (r) m.arrows.push({ squares: [r.from, ...r.landings], kind: "best" });
  }
  S.board.setMarks(m);
}

function renderMarks() {
  renderArrows();
}

function renderMoveList() {
  const ol = $("movelist");
  ol.innerHTML = "";
  let side = sideOf(S.startFen);
  let n = 1;
  let li = null;
  S.moves.forEach((m, i) => {
    if (!li || side === "white") {
      li = document.createElement("li");
      li.value = n;
      if (side === "black") li.append(Object.assign(document.createElement("span"), { className: "move filler", textContent: "\u2026" }));
      ol.append(li);
    }
    const b = document.createElement("button");
    b.className = "move" + (i + 1 === S.ply ? " current" : "");
    b.dataset.ply = String(i + 1);
    b.textContent = m.text;
    b.addEventListener("click", () => goto(i + 1));
    li.append(b);
    if (side === "black") n++;
    side = other(side);
  });
  const cur = ol.querySelector(".current");
  if (cur) cur.scrollIntoView({ block: "nearest" });
  $("result").textContent = S.over ? S.over.result + " \u2014 " + S.over.reason : "";
}

function render() {
  document.body.dataset.mode = S.mode;
  for (const b of document.querySelectorAll("#modes button")) b.setAttribute("aria-selected", String(b.dataset.mode === S.mode));
  if (S.mode === "setup") {
    renderSetup();
  } else {
    const pos = current();
    S.board.setPieces(parseFen(pos.fen).pieces);
    renderArrows();
    $("fen").value = pos.fen;
  }
  renderMoveList();
  renderEvalBar();
  $("takeback").disabled = S.moves.length === 0 || S.mode === "setup";
  $("prev").disabled = $("first").disabled = S.ply === 0;
  $("next").disabled = $("last").disabled = S.ply === S.moves.length;
  if (!S.clock) {
    $("clock-top").hidden = $("clock-bottom").hidden = true;
  }
  document.body.classList.toggle("thinking", S.thinking);
}

// ---------------------------------------------------------------- navigation

function goto(ply) {
  if (S.mode === "setup") return;
  ply = Math.max(0, Math.min(S.moves.length, ply));
  if (ply === S.ply) return;
  S.generation++;
  S.ply = ply;
  S.sel = null;
  S.path = [];
  say(ply === S.moves.length ? "" : "Move " + ply + " of " + S.moves.length + ".");
  render();
  job(afterChange);
}

function takeBack() {
  if (!S.moves.length) return;
  S.generation++;
  job(async () => {
    await S.engine.stop();
    S.thinking = false;
    let keep = S.moves.length - 1;
    // In play mode, back to the person's own turn.
    if (S.mode === "play" && keep > 0 && sideOf(S.history[keep].fen) !== S.human) keep--;
    S.moves.length = keep;
    S.history.length = keep + 1;
    S.ply = keep;
    S.over = null;
    S.sel = null;
    S.path = [];
    if (S.clock) S.clock.running = true, (S.clock.since = performance.now());
    render();
    say("Taken back.");
    await afterChange();
  });
}

function setMode(mode) {
  if (mode === S.mode) return;
  if (mode === "setup") return enterSetup();
  S.generation++;
  S.mode = mode;
  S.sel = null;
  S.path = [];
  S.lines = [];
  job(async () => {
    await S.engine.stop();
    S.thinking = false;
    if (mode === "play") startClock();
    else S.clock = null;
    render();
    await afterChange();
  });
  render();
}

// ---------------------------------------------------------------- rules

function renderRules() {
  const box = $("rules");
  box.innerHTML = "";
  for (const { name, label: text } of S.rules) {
    const opt = S.engine.options.find((o) => o.name === name);
    if (!opt) continue;
    const label = document.createElement("label");
    label.textContent = text + " ";
    const sel = document.createElement("select");
    sel.id = "rule-" + name;
    const values = opt.type === "combo" ? opt.vars : ["false", "true"];
    for (const v of values) sel.append(new Option(v === "false" ? "no" : v === "true" ? "yes" : v, v));
    sel.value = opt.default;
    sel.addEventListener("change", () =>
      job(async () => {
        S.generation++;
        await S.engine.stop();
        await S.engine.setOption(name, sel.value);
        // The same start position under the new rules, or the start position.
        try {
          await S.engine.position(S.startFen, []);
          await newGame(S.startFen);
        } catch (e) {
          await newGame(START_FEN);
        }
        say(text + ": " + sel.value + ". New game.");
      }),
    );
    label.append(sel);
    box.append(label);
  }
}

// ---------------------------------------------------------------- PDN

async function pdnLoad(text) {
  const r = await fetch("/pdn/read", { method: "POST", headers: { "Content-Type": "text/plain" }, body: text });
  const body = await r.text();
  if (!r.ok) return refuse("PDN refused: " + body.trim());
  const game = JSON.parse(body);
  for (const { name } of S.rules) {
    await S.engine.setOption(name, game.rules[name]);
    const sel = $("rule-" + name);
    if (sel) sel.value = game.rules[name];
  }
  S.generation++;
  await S.engine.stop();
  // The whole game through the engine first; the page changes only if all
  // of it is accepted.
  const history = [await S.engine.position(game.fen, [])];
  const moves = [];
  for (const text of game.moves) {
    const route = history[history.length - 1].routes.find((x) => x.text === text);
    if (!route) return refuse("PDN move " + (moves.length + 1) + " (" + text + ") is not among the engine's legal moves");
    moves.push({ text: route.text, from: route.from, landings: route.landings, captures: route.captures });
    history.push(await S.engine.position(game.fen, moves.map((m) => m.text)));
  }
  S.startFen = game.fen;
  S.moves = moves;
  S.history = history;
  S.ply = S.moves.length;
  S.over = stateText(current());
  if (S.mode === "play") S.mode = "analyse";
  render();
  say("Loaded " + (game.white || "?") + " \u2013 " + (game.black || "?") + ", " + game.moves.length + " moves" + (game.count > 1 ? " (first of " + game.count + " games)" : "") + ".");
  await afterChange();
}

async function pdnSave() {
  const rules = {};
  for (const { name } of S.rules) rules[name] = $("rule-" + name).value;
  const game = {
    rules,
    fen: S.startFen,
    moves: S.moves.map((m) => m.text),
    result: S.over ? S.over.result : "*",
    date: new Date().toISOString().slice(0, 10).replaceAll("-", "."),
    white: S.mode === "play" ? (S.human === "white" ? "You" : "Tama") : "?",
    black: S.mode === "play" ? (S.human === "black" ? "You" : "Tama") : "?",
  };
  const r = await fetch("/pdn/write", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(game) });
  const text = await r.text();
  if (!r.ok) return refuse("PDN not written: " + text.trim());
  $("pdn").value = text;
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  a.download = "tama-game.pdn";
  a.click();
  URL.revokeObjectURL(a.href);
  say("Saved the game as PDN.");
}

// ---------------------------------------------------------------- start

// The protocol log: the last lines in memory, drawn (at most once a frame)
// only while the Protocol panel is open.
const LOG_LINES = 400;
const logLines = [];
let logQueued = false;

function log(dir, line) {
  logLines.push(dir + " " + line);
  if (logLines.length > LOG_LINES) logLines.splice(0, logLines.length - LOG_LINES);
  if (!logQueued && $("protocol").open) {
    logQueued = true;
    requestAnimationFrame(drawLog);
  }
}

function drawLog() {
  logQueued = false;
  const pre = $("log");
  pre.textContent = logLines.join("\n");
  pre.scrollTop = pre.scrollHeight;
}

function wire() {
  for (const b of document.querySelectorAll("#modes button")) b.addEventListener("click", () => setMode(b.dataset.mode));
  $("first").addEventListener("click", () => goto(0));
  $("prev").addEventListener("click", () => goto(S.ply - 1));
  $("next").addEventListener("click", () => goto(S.ply + 1));
  $("last").addEventListener("click", () => goto(S.moves.length));
  $("flip").addEventListener("click", () => {
    S.board.flip();
    renderEvalBar();
  });
  $("takeback").addEventListener("click", takeBack);
  $("newgame").addEventListener("click", () => {
    if (S.mode === "setup") S.mode = S.setup.returnTo;
    job(() => newGame(S.startFen));
  });
  $("human").addEventListener("change", (e) => {
    S.human = e.target.value;
    if ((S.human === "black") !== S.board.flipped) S.board.flip();
    job(() => newGame(S.startFen));
  });
  $("level").addEventListener("change", (e) => {
    S.level = e.target.value;
    job(() => newGame(S.startFen));
  });
  $("multipv").addEventListener("change", (e) => {
    S.multipv = Number(e.target.value);
    S.generation++;
    job(afterChange);
  });
  for (const b of document.querySelectorAll("#palette button")) {
    b.addEventListener("click", () => {
      S.setup.brush = b.dataset.piece;
      renderSetup();
    });
  }
  $("setup-side").addEventListener("change", (e) => {
    S.setup.side = e.target.value;
    renderSetup();
  });
  $("setup-start").addEventListener("click", () => {
    S.setup.pieces = parseFen(START_FEN).pieces;
    S.setup.side = "white";
    $("setup-side").value = "white";
    renderSetup();
  });
  $("setup-clear").addEventListener("click", () => {
    S.setup.pieces = new Map();
    renderSetup();
  });
  $("setup-done").addEventListener("click", () => job(() => tryFen(toFen(S.setup.side, S.setup.pieces), S.setup.returnTo)));
  $("fen-load").addEventListener("click", () => {
    const fen = $("fen").value.trim();
    if (!fen) return refuse("Paste a FEN first, e.g. " + START_FEN);
    job(() => tryFen(fen, S.mode === "setup" ? S.setup.returnTo : null));
  });
  $("pdn-load").addEventListener("click", () => {
    const text = $("pdn").value;
    if (!text.trim()) return refuse("Paste a PDN game first (or choose a file).");
    job(() => pdnLoad(text));
  });
  $("pdn-file").addEventListener("change", async (e) => {
    const f = e.target.files[0];
    if (!f) return;
    const text = await f.text();
    $("pdn").value = text;
    job(() => pdnLoad(text));
  });
  $("pdn-save").addEventListener("click", () => job(pdnSave));
  $("choice-cancel").addEventListener("click", () => {
    $("choice").hidden = true;
    S.sel = null;
    S.path = [];
    renderMarks();
    say("");
  });
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof Element && e.target.closest("input, textarea, select")) return;
    if (e.key === "ArrowLeft") goto(S.ply - 1);
    else if (e.key === "ArrowRight") goto(S.ply + 1);
    else if (e.key === "Home") goto(0);
    else if (e.key === "End") goto(S.moves.length);
    else if (e.key === "Escape") {
      S.sel = null;
      S.path = [];
      renderMarks();
    }
  });
  $("protocol").addEventListener("toggle", drawLog);
  setInterval(tickClock, 100);
}

// A read-only view of the state, for the browser tests.
window.tama = {
  state: () => (!S.history[S.ply] ? { ready: false } : {
    mode: S.mode,
    fen: current().fen,
    ply: S.ply,
    moves: S.moves.map((m) => m.text),
    legal: current().routes.map((r) => ({ text: r.text, from: r.from, landings: r.landings, captures: r.captures })),
    state: current().state,
    over: S.over,
    thinking: S.thinking,
    message: S.message,
    lines: S.lines.filter(Boolean).map((l) => ({ multipv: l.multipv, depth: l.depth, score: l.score, kind: l.scoreKind, pv: l.pv })),
    ready: true,
    closed: S.engine ? S.engine.closed : false,
    errors: S.errors.slice(),
    log: logLines.slice(),
    sent: S.engine ? S.engine.sent : 0,
  }),
};

async function main() {
  S.board = new Board($("board"), { press, drop: (from, to) => press(to) });
  wire();
  S.engine = new Engine();
  S.engine.onLine((dir, line) => {
    log(dir, line);
    if (dir === "<" && line.startsWith("info ")) onInfo(line);
  });
  S.engine.onClose = (why) => refuse("Engine session ended: " + why + ". Reload the page to start a new one.");
  try {
    const r = await fetch("/rules");
    if (!r.ok) throw new Error("GET /rules: " + r.status);
    S.rules = await r.json();
    await S.engine.connect();
  } catch (e) {
    return refuse("Cannot start the engine: " + e.message);
  }
  $("engine-id").textContent = S.engine.id;
  renderRules();
  await job(() => newGame(START_FEN));
}

main();
