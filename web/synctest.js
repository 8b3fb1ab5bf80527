// The demo game's determinism check (ticnet's syncTest): open
// synctest.html. With ?plant=TIC the game reads Math.random from that tic
// on, a planted non-determinism the check must find at that tic. The
// result is shown, and kept as globalThis.ticnetSyncTest for tests.
import { syncTest } from "./ticnet.js";
import { Game } from "./game.js";

const params = new URLSearchParams(location.search);
const plant = params.has("plant") ? Number(params.get("plant")) : -1;
const game = new Game();

// A fixed, varied input for the local player: it moves, turns and fires.
function input(tic) {
  const r = Math.imul(tic + 1, 2654435761) >>> 0;
  return { forward: (r & 63) - 20, side: ((r >> 6) & 31) - 15, turn: ((r >> 11) & 1023) - 400, buttons: (r >> 21) & 1 };
}

function onTic(tic, cmds, ingame) {
  game.step(tic, cmds, ingame);
  if (plant >= 0 && tic >= plant) game.players[0].x += Math.floor(Math.random() * 256); // the planted bug
}

const result = await syncTest({ input, onTic, checksum: () => game.checksum(),
  save: () => game.save(), load: (s) => game.load(s), tics: Number(params.get("tics")) || 1000, players: 4 });
globalThis.ticnetSyncTest = result;
document.getElementById("result").textContent = result.ok
  ? `Deterministic: ${result.tics} tics, each run again 8 times, came out the same.`
  : `Not deterministic: ${result.message}`;
