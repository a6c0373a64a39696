// The Review: the game on the board analysed move by move by the server, in
// the background (the board stays usable, the review can be cancelled); then
// the graph, the marks in the move list, each side's summary, and the
// annotated PDN to save.

import { analyse } from "./analysis.js";
import { goto } from "./game.js";
import { drawGraph } from "./graph.js";
import { download, gameNames, rulesNow } from "./pdn.js";
import { renderMoveList } from "./render.js";
import { $, S, refuse, say } from "./state.js";

const POLL_MS = 250;

export async function startReview() {
  if (!S.moves.length) return refuse("Nothing to review: play or load a game first.");
  if (S.reviewing) return refuse("A review is running: wait for it, or cancel it.");
  const moves = S.moves.map((m) => m.text);
  const game = {
    ...gameNames(),
    rules: rulesNow(),
    fen: S.startFen,
    moves,
    result: S.over ? S.over.result : "*",
    movetime: Number($("review-time").value),
    egtb: S.tablesDir || "",
  };
  const r = await fetch("/review/start", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(game) });
  const text = await r.text();
  if (!r.ok) return refuse("Review refused: " + text.trim());
  S.reviewing = { id: JSON.parse(text).id, done: 0, total: moves.length + 1, fen: S.startFen, moves };
  S.review = null;
  say("Reviewing " + moves.length + " moves...");
  renderReview();
  if (S.mode === "analyse") analyse();
  setTimeout(poll, POLL_MS);
}

export async function cancelReview() {
  if (!S.reviewing) return;
  await fetch("/review/stop?id=" + S.reviewing.id, { method: "POST" });
}

async function poll() {
  const run = S.reviewing;
  let s;
  try {
    const r = await fetch("/review/status?id=" + run.id);
    if (!r.ok) throw new Error((await r.text()).trim());
    s = await r.json();
  } catch (e) {
    S.reviewing = null;
    if (S.mode === "analyse") analyse();
    renderReview();
    return refuse("Review lost: " + e.message);
  }
  run.done = s.done;
  run.total = s.total || run.total;
  if (!s.finished) {
    renderReview();
    setTimeout(poll, POLL_MS);
    return;
  }
  S.reviewing = null;
  if (S.mode === "analyse") analyse();
  if (s.error) {
    renderReview();
    return say("Review: " + s.error + ".");
  }
  S.review = { ...s.review, fen: run.fen, line: run.moves };
  renderReview();
  renderMoveList();
  const [w, b] = S.review.summary;
  say(`Review done: White ${w.blunders} blunders, ${w.mistakes} mistakes; Black ${b.blunders} blunders, ${b.mistakes} mistakes.`);
}

// The review's move at `ply` (from 1) if it is the game's move there: the
// marks stay on the line that was reviewed, not on a new variation.
export function reviewed(ply) {
  const r = S.review;
  if (!r || r.fen !== S.startFen) return null;
  for (let i = 0; i < ply; i++) if (!S.moves[i] || r.line[i] !== S.moves[i].text) return null;
  return r.moves[ply - 1] || null;
}

export function renderReview() {
  const run = S.reviewing;
  $("review-start").disabled = !!run || !S.moves.length;
  $("review-cancel").hidden = !run;
  $("review-save").hidden = !S.review;
  $("review-progress").textContent = run ? `Reviewing: position ${run.done} of ${run.total}` : "";
  const r = S.review;
  const box = $("graph");
  box.hidden = !r;
  const table = $("review-summary");
  table.hidden = !r;
  if (!r) return;
  const points = [{ ply: 0, expected: r.start.expected, score: r.start.score, nag: null, move: "" }].concat(
    r.moves.map((m) => ({ ply: m.ply, expected: m.expected, score: m.score, nag: m.nag, move: m.move })),
  );
  drawGraph(box, points, S.ply, (ply) => goto(ply));
  table.innerHTML = "<tr><th></th><th>moves</th><th title=\"inaccuracies\">?!</th><th title=\"mistakes\">?</th><th title=\"blunders\">??</th><th title=\"only moves\">!</th><th>avg loss</th></tr>";
  for (const s of r.summary) {
    const tr = document.createElement("tr");
    for (const v of [s.side, s.moves, s.inaccuracies, s.mistakes, s.blunders, s.only, s.average.toFixed(1) + "%"]) {
      tr.append(Object.assign(document.createElement(tr.children.length ? "td" : "th"), { textContent: String(v) }));
    }
    table.append(tr);
  }
  const m = reviewed(S.ply);
  $("review-move").textContent = m ? describe(m) : "";
}

function describe(m) {
  let t = `${m.move}${m.nag || ""} ${m.score}` + (m.depth ? `/${m.depth}` : "");
  if (m.tables) t += ` \u00b7 tables: ${m.tables}`;
  if (m.mark) t += ` \u00b7 ${m.mark}`;
  if (m.better) t += ` \u00b7 better ${m.better}`;
  if (m.refutation) t += ` \u00b7 refuted by ${m.refutation}`;
  return t;
}

export function saveReview() {
  if (!S.review) return;
  $("pdn").value = S.review.pdn;
  download(S.review.pdn, "tama-review.pdn");
  say("Saved the annotated game as PDN.");
}
