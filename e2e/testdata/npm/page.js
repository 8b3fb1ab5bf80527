// A small game on the npm package, for e2e/npm_test.go, which installs
// the package into a scratch project and serves this page bundled and
// unbundled: a walker per player, moved by a byte of seeded random input
// (?bot=SEED), named by ?name=NAME. The page answers the tests' status()
// and launch() as the demo does (globalThis.ticnetDemo).
import { start } from "ticnet";

const params = new URLSearchParams(location.search);
let rng = Number(params.get("bot")) >>> 0 || 1;
const pos = new Int32Array(8); // each player's position: the game state
let role = "undecided", uid = 0, started = false, protocol = "", gametic = 0;
/** @type {import("ticnet").Lobby | null} */
let lobby = null;
const sums = new Map(); // the checksum after each tic, by tic

const checksum = () => pos.reduce((h, v) => Math.imul(h ^ v, 16777619) >>> 0, 2166136261);
const net = await start({
  name: params.get("name") || "npm",
  inputSize: 1,
  input: () => {
    rng = (Math.imul(rng, 1103515245) + 12345) >>> 0;
    return new Uint8Array([rng >>> 24]);
  },
  onTic: (tic, inputs) => {
    inputs.forEach((b, p) => { if (b) pos[p] = (pos[p] + b[0] - 128) | 0; });
    sums.set(tic, checksum());
    if (sums.size > 400) sums.delete(sums.keys().next().value);
    gametic = tic + 1;
  },
  checksum,
  onEvent: (e) => {
    if (e.kind === "role") { role = e.role; uid = e.uid; }
    if (e.kind === "lobby") lobby = e.lobby;
    if (e.kind === "start") { started = true; protocol = e.protocol; lobby = null; }
  },
});

globalThis.ticnetDemo = {
  net,
  launch() { net.launch().catch((e) => console.error(e)); },
  status: () => JSON.stringify({
    role, uid, started, gametic, protocol,
    lobby: lobby && { players: lobby.players, controller: lobby.controller },
    checksums: [...sums].map(([tic, sum]) => ({ tic, sum })),
  }),
};
