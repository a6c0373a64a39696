// Analyse mode: an infinite search of the position on the board, its lines
// and the evaluation bar.

import { parseInfo } from "./engine.js";
import { FULL_STRENGTH, playRoute } from "./game.js";
import { renderArrows } from "./render.js";
import { $, S, current, job, other, sideOf } from "./state.js";

export async function analyse() {
  const gen = S.generation;
  await S.engine.stop();
  if (gen !== S.generation || S.mode !== "analyse") return;
  S.lines = [];
  S.stats = "";
  // A review on the server has the cores: the board's own search waits
  // until it ends (the review starts this again), so neither starves.
  if (S.reviewing) S.stats = "analysis paused while the review runs";
  renderLines();
  if (S.reviewing) return;
  const pos = current();
  if (pos.state !== "ongoing") return;
  await S.engine.setOption("MultiPV", S.multipv);
  await S.engine.setOption("Skill Level", FULL_STRENGTH);
  // A draw is shown as 0 here, not at the price the engine pays for one
  // when it plays (Contempt).
  await S.engine.setOption("UCI_AnalyseMode", "true");
  await S.engine.position(S.startFen, S.moves.slice(0, S.ply).map((m) => m.text));
  if (gen !== S.generation || S.mode !== "analyse") return;
  // Its bestmove comes after the `stop` of the next change; a closed
  // session is reported by onClose.
  S.engine.go("infinite").catch(() => {});
}

export function onInfo(line) {
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
export function whiteScore(info, fen) {
  const sign = sideOf(fen) === "white" ? 1 : -1;
  if (info.scoreKind === "mate") {
    const n = info.score * sign;
    return { value: n > 0 ? 100000 - n : -100000 - n, text: (n > 0 ? "+" : "-") + "#" + Math.abs(info.score) };
  }
  const v = info.score * sign;
  return { value: v, text: (v > 0 ? "+" : v < 0 ? "\u2212" : "") + (Math.abs(v) / 100).toFixed(2) };
}

export function movesWithNumbers(fen, texts, firstPly) {
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
export function renderLines() {
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
export function startPly() {
  return sideOf(S.startFen) === "black" ? 1 : 0;
}

export function renderEvalBar() {
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
