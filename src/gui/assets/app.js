// The app: wires the page's controls to the game, the modes and the engine
// conversation (docs/gui.md). Every legal move, every FEN and the game's state
// come from the engine (`legalmoves`); the page only matches what the person
// clicks against that list.

import { onInfo, renderEvalBar } from "./analysis.js";
import { Board, parseFen, toFen } from "./board.js";
import { tickClock } from "./clock.js";
import { Engine } from "./engine.js";
import { afterChange, goto, newGame, setMode, takeBack } from "./game.js";
import { press, renderSetup, tryFen } from "./input.js";
import { pdnLoad, pdnSave, renderRules } from "./pdn.js";
import { renderMarks } from "./render.js";
import { cancelReview, saveReview, startReview } from "./review.js";
import { $, S, START_FEN, current, job, refuse, say } from "./state.js";
import { useTables } from "./tables.js";

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
  $("review-start").addEventListener("click", () => startReview().catch((e) => refuse(e.message)));
  $("review-cancel").addEventListener("click", () => cancelReview());
  $("review-save").addEventListener("click", saveReview);
  $("tables-use").addEventListener("click", () => job(() => useTables($("egtb-dir").value)));
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
    searching: S.engine ? S.engine.searching : false,
    stats: S.stats,
    message: S.message,
    lines: S.lines.filter(Boolean).map((l) => ({ multipv: l.multipv, depth: l.depth, score: l.score, kind: l.scoreKind, pv: l.pv })),
    ready: true,
    closed: S.engine ? S.engine.closed : false,
    errors: S.errors.slice(),
    log: logLines.slice(),
    sent: S.engine ? S.engine.sent : 0,
    review: {
      running: !!S.reviewing,
      done: S.reviewing ? S.reviewing.done : 0,
      points: document.querySelectorAll("#graph circle.point").length,
      marks: S.review ? S.review.moves.map((m) => m.nag) : [],
      summary: S.review ? S.review.summary : null,
      pdn: S.review ? S.review.pdn : "",
    },
    tables: { dir: S.tablesDir, verdict: $("tables-verdict").textContent },
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
    const config = await (await fetch("/config")).json();
    $("egtb-dir").value = config.egtb;
    await S.engine.connect();
  } catch (e) {
    return refuse("Cannot start the engine: " + e.message);
  }
  $("engine-id").textContent = S.engine.id;
  renderRules();
  await job(() => newGame(START_FEN));
  if ($("egtb-dir").value) await job(() => useTables($("egtb-dir").value));
}

main();
