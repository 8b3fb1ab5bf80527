// The README's quick start: a dot per player on a 32×32 grid, moved by the arrow keys.
import { start } from "ticnet";  // loads the rest (the wasm, the channel) from beside itself

let pos = new Uint8Array(16);  // the game state: each player's x and y, integers only
let here = [];                 // who is in the game, for drawing
let key = 0;                   // the arrow held: 0 none, 1-4 up, right, down, left
const KEYS = { ArrowUp: 1, ArrowRight: 2, ArrowDown: 3, ArrowLeft: 4 };
addEventListener("keydown", (e) => { key = KEYS[e.key] || key; });
addEventListener("keyup", () => { key = 0; });
const DX = [0, 0, 1, 0, -1], DY = [0, -1, 0, 1, 0];

const net = await start({
  name: new URLSearchParams(location.search).get("name") ?? undefined,  // quickstart.html?name=Ann
  inputSize: 1,                              // a byte of input per player and tic: the arrow held
  input: () => new Uint8Array([key]),
  onTic: (tic, inputs, ingame) => {          // every player's input, every tic, on every copy
    here = ingame.slice();
    inputs.forEach((b, p) => {
      if (!b) return;                        // null: player p is not in the game
      const d = b[0] % 5;
      pos[2 * p] = (pos[2 * p] + DX[d] + 32) % 32;
      pos[2 * p + 1] = (pos[2 * p + 1] + DY[d] + 32) % 32;
    });
  },
  checksum: () => pos.reduce((h, b) => Math.imul(h ^ b, 16777619) >>> 0, 2166136261),
  save: () => pos.slice(),                   // save and load: late join, rejoin and prediction
  load: (s) => { if (s.length !== 16) throw new Error("not a state"); pos = s.slice(); },
  onEvent: (e) => {
    if (e.kind === "start" && !e.joined) pos = new Uint8Array(16);
    // Who plays, on every copy, a late one's too: in the lobby, and after every change in a game.
    if (e.kind === "lobby") document.querySelector("p").textContent = e.lobby.players.map((p) => p.name).join(", ");
  },
});
document.querySelector("button").onclick = () => net.launch().catch((e) => alert(e.message));
const ctx = document.querySelector("canvas").getContext("2d");
(function draw() {
  ctx.clearRect(0, 0, 320, 320);
  here.forEach((on, p) => on && ctx.fillRect(pos[2 * p] * 10, pos[2 * p + 1] * 10, 10, 10));
  requestAnimationFrame(draw);
})();
