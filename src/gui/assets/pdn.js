// The rules as the engine offers them, and games to and from PDN (through
// the server, which replays every move).

import { afterChange, newGame } from "./game.js";
import { render } from "./render.js";
import { $, S, START_FEN, current, job, refuse, say, stateText } from "./state.js";

export function renderRules() {
  const box = $("rules");
  box.innerHTML = "";
  for (const { name, label: text } of S.rules) {
    const opt = S.engine.options.find((o) => o.name === name);
    if (!opt) continue;
    const label = document.createElement("label");
    label.textContent = text + " ";
    const sel = document.createElement("select");
    sel.id = "rule-" + name;
    const values = opt.type === "combo" ? opt.vars : ["false", "true"];
    for (const v of values) sel.append(new Option(v === "false" ? "no" : v === "true" ? "yes" : v, v));
    sel.value = opt.default;
    sel.addEventListener("change", () =>
      job(async () => {
        S.generation++;
        await S.engine.stop();
        await S.engine.setOption(name, sel.value);
        // The same start position under the new rules, or the start position.
        try {
          await S.engine.position(S.startFen, []);
          await newGame(S.startFen);
        } catch (e) {
          await newGame(START_FEN);
        }
        say(text + ": " + sel.value + ". New game.");
      }),
    );
    label.append(sel);
    box.append(label);
  }
}

// ---------------------------------------------------------------- PDN

export async function pdnLoad(text) {
  const r = await fetch("/pdn/read", { method: "POST", headers: { "Content-Type": "text/plain" }, body: text });
  const body = await r.text();
  if (!r.ok) return refuse("PDN refused: " + body.trim());
  const game = JSON.parse(body);
  for (const { name } of S.rules) {
    await S.engine.setOption(name, game.rules[name]);
    const sel = $("rule-" + name);
    if (sel) sel.value = game.rules[name];
  }
  S.generation++;
  await S.engine.stop();
  // The whole game through the engine first; the page changes only if all
  // of it is accepted.
  const history = [await S.engine.position(game.fen, [])];
  const moves = [];
  for (const text of game.moves) {
    const route = history[history.length - 1].routes.find((x) => x.text === text);
    if (!route) return refuse("PDN move " + (moves.length + 1) + " (" + text + ") is not among the engine's legal moves");
    moves.push({ text: route.text, from: route.from, landings: route.landings, captures: route.captures });
    history.push(await S.engine.position(game.fen, moves.map((m) => m.text)));
  }
  S.startFen = game.fen;
  S.moves = moves;
  S.history = history;
  S.names = { white: game.white, black: game.black, event: game.event };
  S.ply = S.moves.length;
  S.over = stateText(current());
  if (S.mode === "play") S.mode = "analyse";
  render();
  say("Loaded " + (game.white || "?") + " \u2013 " + (game.black || "?") + ", " + game.moves.length + " moves" + (game.count > 1 ? " (first of " + game.count + " games)" : "") + ".");
  await afterChange();
}

// The rule options as the page has them set.
export function rulesNow() {
  const rules = {};
  for (const { name } of S.rules) rules[name] = $("rule-" + name).value;
  return rules;
}

// The players' names: a loaded game's, or You and Tama in a played one.
export function gameNames() {
  if (S.names) return S.names;
  const played = S.mode === "play";
  return {
    white: played ? (S.human === "white" ? "You" : "Tama") : "?",
    black: played ? (S.human === "black" ? "You" : "Tama") : "?",
    event: "Tama gui",
  };
}

// Offers `text` as a file to save.
export function download(text, name) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  a.download = name;
  a.click();
  URL.revokeObjectURL(a.href);
}

export async function pdnSave() {
  const game = {
    ...gameNames(),
    rules: rulesNow(),
    fen: S.startFen,
    moves: S.moves.map((m) => m.text),
    result: S.over ? S.over.result : "*",
    date: new Date().toISOString().slice(0, 10).replaceAll("-", "."),
  };
  const r = await fetch("/pdn/write", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(game) });
  const text = await r.text();
  if (!r.ok) return refuse("PDN not written: " + text.trim());
  $("pdn").value = text;
  download(text, "tama-game.pdn");
  say("Saved the game as PDN.");
}
