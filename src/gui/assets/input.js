// The person's input: clicks and drags matched against the engine's legal
// routes, the choice between ambiguous captures, and the set-up of a position.

import { parseFen, toFen } from "./board.js";
import { engineSide, newGame, playRoute } from "./game.js";
import { marks, render, renderMarks } from "./render.js";
import { $, S, cap, current, job, refuse, say, sideOf, stateText } from "./state.js";

export function routesFrom(sq) {
  return current().routes.filter((r) => r.from === sq);
}

export function candidates() {
  return routesFrom(S.sel).filter((r) => S.path.every((p, i) => r.landings[i] === p));
}

export function describeList(routes) {
  const names = [...new Set(routes.map((r) => r.text))];
  return names.length > 8 ? names.slice(0, 8).join(", ") + " and " + (names.length - 8) + " more" : names.join(", ");
}

// Why the person may not move right now, or null.
export function blocked() {
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
export function press(sq) {
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

export function select(sq) {
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
export function finish(routes) {
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

export function askWhich(routes) {
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

export function setupPress(sq) {
  const s = S.setup;
  const [color, kind] = s.brush.split("-");
  const now = s.pieces.get(sq);
  if (s.brush === "empty" || (now && now.color === color && now.king === (kind === "king"))) s.pieces.delete(sq);
  else s.pieces.set(sq, { color, king: kind === "king" });
  renderSetup();
}

export function renderSetup() {
  const fen = toFen(S.setup.side, S.setup.pieces);
  S.board.setPieces(S.setup.pieces);
  S.board.setMarks({});
  $("fen").value = fen;
  for (const b of document.querySelectorAll("#palette button")) b.classList.toggle("active", b.dataset.piece === S.setup.brush);
}

export function enterSetup() {
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
export async function tryFen(fen, thenMode) {
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
