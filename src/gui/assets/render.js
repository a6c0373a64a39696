// Drawing the state: the board's marks and arrows, the move list, the
// buttons.

import { renderEvalBar } from "./analysis.js";
import { parseFen } from "./board.js";
import { goto } from "./game.js";
import { markClass } from "./graph.js";
import { renderReview, reviewed } from "./review.js";
import { candidates, renderSetup } from "./input.js";
import { $, S, current, other, sideOf } from "./state.js";
import { showVerdict } from "./tables.js";

export function marks() {
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

export function renderArrows() {
  const m = marks();
  if (S.mode === "analyse" && S.lines[0] && S.lines[0].pv.length) {
    const r = current().routes.find((x) => x.text === S.lines[0].pv[0]);
    if (r) m.arrows.push({ squares: [r.from, ...r.landings], kind: "best" });
  }
  S.board.setMarks(m);
}

export function renderMarks() {
  renderArrows();
}

export function renderMoveList() {
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
    const r = reviewed(i + 1);
    b.className = "move" + (i + 1 === S.ply ? " current" : "") + (r && r.nag ? " " + markClass(r.nag) : "");
    b.dataset.ply = String(i + 1);
    b.textContent = m.text + (r && r.nag ? r.nag : "");
    if (r) b.title = r.score + (r.mark ? " · " + r.mark : "");
    b.addEventListener("click", () => goto(i + 1));
    li.append(b);
    if (side === "black") n++;
    side = other(side);
  });
  const cur = ol.querySelector(".current");
  if (cur) cur.scrollIntoView({ block: "nearest" });
  $("result").textContent = S.over ? S.over.result + " \u2014 " + S.over.reason : "";
}

export function render() {
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
  renderReview();
  showVerdict();
}
