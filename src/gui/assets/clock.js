// The clocks of a timed game against Tama.

import { render } from "./render.js";
import { $, S, cap, current, job, other, say, sideOf } from "./state.js";

export function startClock() {
  const [kind, base, inc] = S.level.split(" ");
  if (S.mode !== "play" || kind !== "clock") {
    S.clock = null;
    return;
  }
  S.clock = { white: Number(base), black: Number(base), inc: Number(inc), since: performance.now(), running: true };
}

export function chargeClock(mover) {
  const c = S.clock;
  if (!c || !c.running) return;
  const now = performance.now();
  c[mover] -= now - c.since;
  c[mover] += c.inc;
  c.since = now;
}

export function stopClock() {
  if (S.clock) S.clock.running = false;
}

export function tickClock() {
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
