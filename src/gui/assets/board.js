// The board on the page: draws a position and its marks, and turns presses,
// clicks and drags into square names for the app. It knows squares and
// pieces, not rules.

const FILES = "abcdefgh";
const SVG = "http://www.w3.org/2000/svg";

// `W:Wa2,b2,Kd4:Ba7,Kh8` -> { side: "white", pieces: Map(square -> {color, king}) }
export function parseFen(fen) {
  const parts = fen.trim().split(":");
  const side = parts[0] === "B" ? "black" : "white";
  const pieces = new Map();
  for (const part of parts.slice(1)) {
    const color = part[0] === "B" ? "black" : "white";
    for (const tok of part.slice(1).split(",")) {
      if (!tok) continue;
      const king = tok[0] === "K";
      pieces.set(king ? tok.slice(1) : tok, { color, king });
    }
  }
  return { side, pieces };
}

export function toFen(side, pieces) {
  const list = (color) =>
    [...pieces.entries()]
      .filter(([, p]) => p.color === color)
      .sort(([a], [b]) => squareIndex(a) - squareIndex(b))
      .map(([sq, p]) => (p.king ? "K" : "") + sq)
      .join(",");
  return (side === "black" ? "B" : "W") + ":W" + list("white") + ":B" + list("black");
}

export function squareIndex(sq) {
  return (Number(sq[1]) - 1) * 8 + FILES.indexOf(sq[0]);
}

function pieceSvg(p) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("class", "piece " + p.color + (p.king ? " king" : " man"));
  svg.innerHTML =
    '<circle class="rim" cx="50" cy="54" r="40"/>' +
    '<circle class="body" cx="50" cy="49" r="40"/>' +
    '<circle class="ring" cx="50" cy="49" r="29"/>' +
    (p.king
      ? '<path class="crown" d="M29 60 L25 36 L39 47 L50 29 L61 47 L75 36 L71 60 Z"/>' +
        '<rect class="crown" x="29" y="63" width="42" height="7" rx="2"/>'
      : "");
  return svg;
}

export class Board {
  constructor(el, handlers) {
    this.el = el;
    this.handlers = handlers; // { press(square), drop(from, to) }
    this.flipped = false;
    this.pieces = new Map();
    this.marks = {};
    this.squares = new Map();
    this.grid = document.createElement("div");
    this.grid.className = "grid";
    this.overlay = document.createElementNS(SVG, "svg");
    this.overlay.setAttribute("class", "overlay");
    this.overlay.setAttribute("viewBox", "0 0 8 8");
    this.overlay.innerHTML =
      '<defs><marker id="head" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3" markerHeight="3" orient="auto-start-reverse">' +
      '<path d="M0 0 L10 5 L0 10 Z"/></marker>' +
      '<marker id="head-best" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3" markerHeight="3" orient="auto-start-reverse">' +
      '<path d="M0 0 L10 5 L0 10 Z"/></marker></defs>';
    el.append(this.grid, this.overlay);
    for (let i = 0; i < 64; i++) {
      const d = document.createElement("div");
      this.grid.append(d);
    }
    this.layout();
    this.attachPointer();
  }

  layout() {
    const cells = [...this.grid.children];
    cells.forEach((d, i) => {
      const row = Math.floor(i / 8);
      const col = i % 8;
      const file = this.flipped ? 7 - col : col;
      const rank = this.flipped ? row : 7 - row;
      const sq = FILES[file] + (rank + 1);
      d.dataset.square = sq;
      d.className = "sq " + ((file + rank) % 2 ? "light" : "dark");
      d.setAttribute("aria-label", sq);
      d.innerHTML = "";
      if (col === 0) d.insertAdjacentHTML("beforeend", '<span class="coord rank">' + (rank + 1) + "</span>");
      if (row === 7) d.insertAdjacentHTML("beforeend", '<span class="coord file">' + FILES[file] + "</span>");
      this.squares.set(sq, d);
    });
    this.draw();
  }

  flip() {
    this.flipped = !this.flipped;
    this.layout();
  }

  setPieces(pieces) {
    this.pieces = pieces;
    this.draw();
  }

  // marks: { selected, dests: [], finals: [], path: [], last: {from, landings, captures},
  //          arrows: [{from, to, kind}] }
  setMarks(marks) {
    this.marks = marks || {};
    this.draw();
  }

  draw() {
    const m = this.marks;
    const has = (list, sq) => (list || []).includes(sq);
    for (const [sq, d] of this.squares) {
      d.querySelectorAll(".piece").forEach((n) => n.remove());
      const p = this.pieces.get(sq);
      if (p) d.append(pieceSvg(p));
      d.classList.toggle("selected", m.selected === sq);
      d.classList.toggle("dest", has(m.dests, sq));
      d.classList.toggle("final", has(m.finals, sq));
      d.classList.toggle("path", has(m.path, sq));
      d.classList.toggle("occupied", !!p);
      d.classList.toggle("last", !!m.last && (m.last.from === sq || m.last.landings[m.last.landings.length - 1] === sq));
      d.classList.toggle("taken", !!m.last && m.last.captures.includes(sq));
    }
    this.drawOverlay();
  }

  center(sq) {
    const file = FILES.indexOf(sq[0]);
    const rank = Number(sq[1]) - 1;
    const x = (this.flipped ? 7 - file : file) + 0.5;
    const y = (this.flipped ? rank : 7 - rank) + 0.5;
    return [x, y];
  }

  drawOverlay() {
    this.overlay.querySelectorAll(".arrow").forEach((n) => n.remove());
    const lines = [];
    const m = this.marks;
    if (m.last && m.last.landings.length) {
      lines.push({ squares: [m.last.from, ...m.last.landings], kind: "last" });
    }
    for (const a of m.arrows || []) lines.push(a);
    for (const l of lines) {
      const pts = l.squares.map((sq) => this.center(sq));
      const poly = document.createElementNS(SVG, "polyline");
      // Stop short of the last centre so the head sits on the square.
      const [x1, y1] = pts[pts.length - 2];
      const [x2, y2] = pts[pts.length - 1];
      const len = Math.hypot(x2 - x1, y2 - y1) || 1;
      pts[pts.length - 1] = [x2 - ((x2 - x1) / len) * 0.25, y2 - ((y2 - y1) / len) * 0.25];
      poly.setAttribute("points", pts.map((p) => p.join(",")).join(" "));
      poly.setAttribute("class", "arrow " + l.kind);
      poly.setAttribute("marker-end", l.kind === "best" ? "url(#head-best)" : "url(#head)");
      this.overlay.append(poly);
    }
  }

  squareAt(x, y) {
    const el = document.elementFromPoint(x, y);
    const sq = el && el.closest(".sq");
    return sq && this.el.contains(sq) ? sq.dataset.square : null;
  }

  // Everything happens on press (so a tap or a WebDriver click is a move
  // step); a drag that ends on another square presses that square too.
  attachPointer() {
    let drag = null;
    this.grid.addEventListener("pointerdown", (e) => {
      const cell = e.target.closest(".sq");
      if (!cell || e.button > 0) return;
      e.preventDefault();
      const sq = cell.dataset.square;
      const picked = this.handlers.press(sq);
      if (picked && this.pieces.get(sq)) {
        drag = { from: sq, x: e.clientX, y: e.clientY, ghost: null, id: e.pointerId };
      }
    });
    window.addEventListener("pointermove", (e) => {
      if (!drag || e.pointerId !== drag.id) return;
      if (!drag.ghost && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) > 6) {
        const cell = this.squares.get(drag.from);
        const size = cell.getBoundingClientRect().width;
        drag.ghost = pieceSvg(this.pieces.get(drag.from));
        drag.ghost.classList.add("ghost");
        drag.ghost.style.width = drag.ghost.style.height = size + "px";
        document.body.append(drag.ghost);
        cell.classList.add("dragging");
      }
      if (drag.ghost) {
        const size = parseFloat(drag.ghost.style.width);
        drag.ghost.style.left = e.clientX - size / 2 + "px";
        drag.ghost.style.top = e.clientY - size / 2 + "px";
      }
    });
    const end = (e) => {
      if (!drag || e.pointerId !== drag.id) return;
      const d = drag;
      drag = null;
      if (!d.ghost) return;
      d.ghost.remove();
      this.squares.get(d.from).classList.remove("dragging");
      const to = this.squareAt(e.clientX, e.clientY);
      if (to && to !== d.from) this.handlers.drop(d.from, to);
    };
    window.addEventListener("pointerup", end);
    window.addEventListener("pointercancel", (e) => {
      if (drag && drag.ghost) {
        drag.ghost.remove();
        this.squares.get(drag.from).classList.remove("dragging");
      }
      drag = null;
    });
  }
}
