// Runs a game module in this engine and reports its checksum after every
// tic. A game module's default export is a function of a seed returning
// { onTic(tic, cmds), checksum() }, as ticnet's start options have them;
// the commands are seeded (one byte per player, 4 players), so every
// engine runs the same inputs.
import * as dm from "./detmath.js";

const params = new URLSearchParams(location.search);
const engine = params.get("engine") || "unknown";
const games = (params.get("games") || "").split(",").filter(Boolean);
const TICS = Number(params.get("tics")) || 3000;
const PLAYERS = 4;

async function run(url) {
  const make = (await import(url)).default;
  const game = make(12345);
  const rng = dm.random(777);
  const sums = [];
  for (let tic = 0; tic < TICS; tic++) {
    const cmds = Array.from({ length: PLAYERS }, () => dm.nextUint32(rng) & 0xff);
    game.onTic(tic, cmds);
    sums.push(game.checksum() >>> 0);
  }
  return sums;
}

async function main() {
  const out = { engine, userAgent: navigator.userAgent, games: {} };
  for (const g of games) out.games[g] = await run(`./${g}`);
  document.getElementById("out").textContent = `${games.length} games run`;
  await fetch(`/report/sums?engine=${engine}`, { method: "POST", body: JSON.stringify(out) });
}

main().catch((e) => fetch(`/report/error?engine=${engine}`, { method: "POST", body: String((e && e.stack) || e) }));
