// The game: a new game, a move played, Tama's reply, the navigation along
// the moves and the modes.

import { analyse } from "./analysis.js";
import { chargeClock, startClock, stopClock } from "./clock.js";
import { enterSetup } from "./input.js";
import { render } from "./render.js";
import { S, cap, current, job, other, refuse, say, sideOf, stateText } from "./state.js";

// A new game from `fen` (already accepted by the engine).
export async function newGame(fen) {
  S.generation++;
  await S.engine.stop();
  const first = await S.engine.position(fen, []);
  S.startFen = fen;
  S.names = null;
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
export async function playRoute(route, applied = () => {}) {
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
export async function afterChange() {
  if (S.mode === "analyse") return analyse();
  if (S.mode === "play") return maybeEngineMove();
}

export function engineSide() {
  return other(S.human);
}

export async function maybeEngineMove() {
  const pos = current();
  if (S.mode !== "play" || S.over || S.ply !== S.moves.length) return;
  if (sideOf(pos.fen) !== engineSide() || pos.state !== "ongoing") return;
  const gen = S.generation;
  S.thinking = true;
  render();
  say("Tama is thinking...");
  await S.engine.setOption("Skill Level", skillLevel());
  await S.engine.setOption("UCI_AnalyseMode", "false");
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
export const FULL_STRENGTH = 9;

export function skillLevel() {
  const [kind, n] = S.level.split(" ");
  return kind === "skill" ? Number(n) : FULL_STRENGTH;
}

export function goArgs() {
  const [kind, a, b] = S.level.split(" ");
  if (kind === "skill") return "movetime 1000";
  if (kind === "depth") return "depth " + a;
  if (kind === "movetime") return "movetime " + a;
  const c = S.clock;
  return `wtime ${Math.round(c.white)} btime ${Math.round(c.black)} winc ${c.inc} binc ${c.inc}`;
}
export function goto(ply) {
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

export function takeBack() {
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

export function setMode(mode) {
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
