// The review's evaluation graph: an SVG under the board, White's expected
// score after every move (a win at the top edge, a loss at the bottom, so
// large scores are clamped by the logistic itself), a point per move in its
// mark's colour; a click on a point jumps to that move.

const NS = "http://www.w3.org/2000/svg";
const W = 600;
const H = 120;

function el(name, attrs) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

// `points`: [{ ply, expected, score, nag, move }], ply 0 the start;
// `ply`: the move on the board; `jump(ply)` is called on a click.
export function drawGraph(box, points, ply, jump) {
  box.innerHTML = "";
  if (!points.length) return;
  const last = Math.max(1, points[points.length - 1].ply);
  const x = (p) => (p / last) * W;
  const y = (e) => (1 - e) * H;
  const svg = el("svg", { viewBox: `-6 -6 ${W + 12} ${H + 12}`, role: "img", "aria-label": "evaluation graph, White's view" });
  svg.append(el("rect", { x: 0, y: 0, width: W, height: H, class: "graph-black" }));
  const line = points.map((p) => `${x(p.ply).toFixed(1)},${y(p.expected).toFixed(1)}`);
  svg.append(el("polygon", { points: `0,${H} ${line.join(" ")} ${x(last)},${H}`, class: "graph-white" }));
  svg.append(el("line", { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: "graph-even" }));
  svg.append(el("polyline", { points: line.join(" "), class: "graph-line" }));
  svg.append(el("line", { x1: x(ply), y1: 0, x2: x(ply), y2: H, class: "graph-now" }));
  for (const p of points) {
    const c = el("circle", { cx: x(p.ply).toFixed(1), cy: y(p.expected).toFixed(1), r: p.nag ? 5 : 3, class: "point" + (p.nag ? " " + markClass(p.nag) : "") });
    c.dataset.ply = String(p.ply);
    const t = el("title", {});
    t.textContent = (p.ply ? p.move + (p.nag || "") + " " : "start ") + p.score;
    c.append(t);
    c.addEventListener("click", () => jump(p.ply));
    svg.append(c);
  }
  box.append(svg);
}

// The CSS class of a mark: the move list and the graph colour alike.
export function markClass(nag) {
  return { "!": "mark-only", "?!": "mark-inaccuracy", "?": "mark-mistake", "??": "mark-blunder" }[nag] || "";
}
