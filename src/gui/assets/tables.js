// The endgame databases in the page: a directory (`tama gui --egtb DIR`, or
// typed in), checked by the server before the engine is told (EGTBPath), so
// that Tama plays their positions perfectly; the exact result of a position
// they hold, with its best moves, shown under the board.

import { parseFen } from "./board.js";
import { rulesNow } from "./pdn.js";
import { $, S, current, refuse, say } from "./state.js";

const MAX_PIECES = 5;

async function probe(dir, fen) {
  const r = await fetch("/tables/probe", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ egtb: dir, rules: rulesNow(), fen }) });
  const text = await r.text();
  if (!r.ok) throw new Error(text.trim());
  return JSON.parse(text);
}

// Checks `dir` with the server; only a directory it opens reaches the engine.
export async function useTables(dir) {
  dir = dir.trim();
  if (!dir) {
    S.tablesDir = "";
    await S.engine.setOption("EGTBPath", "");
    $("tables-status").textContent = "No endgame databases.";
    return showVerdict();
  }
  let answer;
  try {
    answer = await probe(dir, current().fen);
  } catch (e) {
    $("tables-status").textContent = "";
    return refuse(e.message);
  }
  S.tablesDir = dir;
  await S.engine.setOption("EGTBPath", dir);
  const pieces = answer.pieces ? `complete to ${answer.pieces} pieces` : "incomplete";
  $("tables-status").textContent = `Endgame databases: ${dir} (${pieces}).`;
  say("Endgame databases in use: " + dir + ".");
  showVerdict();
}

// The position on the board as the databases judge it, if they hold it.
export async function showVerdict() {
  const box = $("tables-verdict");
  const fen = S.history[S.ply] ? current().fen : null;
  if (!S.tablesDir || !fen || parseFen(fen).pieces.size > MAX_PIECES) {
    box.textContent = "";
    return;
  }
  try {
    const a = await probe(S.tablesDir, fen);
    if (fen !== current().fen) return;
    box.textContent = a.held ? `Tables: ${a.verdict}` + (a.best.length ? ` \u00b7 best: ${a.best.join(", ")}` : "") : "";
  } catch (e) {
    box.textContent = "Tables: " + e.message;
  }
}
