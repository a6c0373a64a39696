// The page's state and what every part of it shares: the game, the mode,
// messages, the engine work queue, and reading the engine's positions.

export const START_FEN =
  "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7";

export const $ = (id) => document.getElementById(id);

export const S = {
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
  names: null,      // a loaded game's { white, black, event }
  review: null,     // the last review: { start, moves, summary, pdn, fen, line }
  reviewing: null,  // the review running: { id, done, total, fen, moves }
  tablesDir: "",    // the endgame databases in use (checked by the server)
};

// ---------------------------------------------------------------- messages

export function say(text, kind = "info") {
  S.message = text;
  const m = $("message");
  m.textContent = text;
  m.className = kind;
}

export function refuse(text) {
  say(text, "error");
}

// Engine work one step at a time: a search is stopped before the position
// changes, and answers are never mixed up.
export function job(fn) {
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
export const sideOf = (fen) => (fen[0] === "B" ? "black" : "white");
export const other = (side) => (side === "white" ? "black" : "white");
export const cap = (s) => s[0].toUpperCase() + s.slice(1);
export const current = () => S.history[S.ply];

export function stateText(pos) {
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
