// The demo's replay page: plays a .ticnet file (the demo's "Download
// replay") back with the demo's game, draws it, and shows whether every
// recorded checksum matched, or the first tic and players that differ.
// ?speed=N sets the starting speed (a multiple of the recorded tic rate;
// 0: as fast as possible). For tests: globalThis.ticnetReplay has the
// page's state (status(), as JSON) and the playback (replay()).
import { playReplay } from "./ticnet.js";
import { Game } from "./game.js";
import { fitCanvas, drawArena } from "./draw.js";

const params = new URLSearchParams(location.search);
const $ = (id) => document.getElementById(id);
const fileEl = /** @type {HTMLInputElement} */ ($("file")), speedEl = /** @type {HTMLSelectElement} */ ($("speed"));
const seekEl = /** @type {HTMLInputElement} */ ($("seek")), playEl = $("play");
if (params.has("speed")) speedEl.value = params.get("speed");

let game = new Game(), prev = game.snapshot(), cur = prev;
/** @type {import("./ticnet.js").Replay | null} */
let replay = null;
// What the page shows: state is "idle", "loading", "playing", "paused",
// "done" or "error"; progressed counts the "progress" events; ms is how
// long the playback took to its end, from reading the file.
let view = newView("");
function newView(file) {
  return { state: file ? "loading" : "idle", file, start: 0, end: 0, players: [], ticRate: 0, tic: 0, progressed: 0,
    mismatch: null, result: null, error: "", bytes: 0, ms: 0 };
}
globalThis.ticnetReplay = { status: () => JSON.stringify(view), replay: () => replay };

// open plays file back, from its start.
async function open(file) {
  if (replay) replay.close();
  replay = null;
  game = new Game();
  prev = cur = game.snapshot();
  view = newView(file.name);
  render();
  const began = performance.now();
  try {
    const bytes = new Uint8Array(await file.arrayBuffer());
    view.bytes = bytes.length;
    replay = await playReplay(bytes, {
      speed: Number(speedEl.value),
      onTic(tic, cmds, ingame) {
        game.step(tic, cmds, ingame);
        if (smooth()) { prev = cur; cur = game.snapshot(); }
      },
      checksum: () => game.checksum(),
      save: () => game.save(),
      load(state) { game.load(state); prev = cur = game.snapshot(); },
      playerChecksum: (p) => game.playerChecksum(p),
    });
  } catch (e) {
    view.state = "error";
    view.error = e.message;
    render();
    return;
  }
  Object.assign(view, { state: "playing", start: replay.start, end: replay.end, players: replay.players, ticRate: replay.ticRate, tic: replay.start });
  replay.on("progress", (e) => { view.tic = e.tic + 1; view.progressed++; });
  replay.on("mismatch", (e) => { view.mismatch = e; render(); });
  replay.on("done", (e) => { view.result = e; view.state = "done"; view.ms = Math.round(performance.now() - began); render(); });
  replay.on("error", (e) => { view.state = "error"; view.error = `the game failed (${e.callback}, tic ${e.tic}): ${e.message}`; render(); });
  seekEl.min = String(replay.start);
  seekEl.max = String(replay.end);
  render();
}

// smooth: the playback runs at a pace, and the drawing goes between tics.
const smooth = () => Number(speedEl.value) > 0;

fileEl.onchange = () => { if (fileEl.files.length) open(fileEl.files[0]); };
addEventListener("dragover", (e) => e.preventDefault());
addEventListener("drop", (e) => {
  e.preventDefault();
  if (e.dataTransfer.files.length) open(e.dataTransfer.files[0]);
});
playEl.onclick = () => {
  if (!replay) return;
  if (replay.paused()) { replay.resume(); view.state = view.result && replay.tic() === replay.end ? "done" : "playing"; }
  else { replay.pause(); view.state = "paused"; }
  render();
};
speedEl.onchange = () => { if (replay) replay.setSpeed(Number(speedEl.value)); };
seekEl.onchange = () => {
  if (!replay) return;
  try {
    replay.seek(Number(seekEl.value));
    prev = cur = game.snapshot();
    view.tic = replay.tic();
    if (view.state === "done" && replay.tic() < replay.end) view.state = replay.paused() ? "paused" : "playing";
  } catch (e) {
    view.error = e.message;
  }
  render();
};

// render shows the playback's facts and result.
function render() {
  $("controls").hidden = !replay;
  playEl.textContent = replay && replay.paused() ? "Play" : "Pause";
  const v = view, span = Math.max(1, v.end - v.start);
  $("info").textContent = !replay ? (v.state === "loading" ? `Reading ${v.file}…` : "") :
    `${v.file}: ${v.bytes} bytes\n` +
    `players: ${v.players.join(", ")} · ${v.ticRate} tics/s\n` +
    `tic ${v.tic} of ${v.start}–${v.end} (${Math.floor(100 * (v.tic - v.start) / span)} %)`;
  const m = v.mismatch, names = (ps) => ps.map((p) => `${p + 1} (${v.players[p] || "?"})`).join(", ");
  $("result").textContent =
    v.state === "error" ? `Cannot play it back: ${v.error}` :
    m ? `Tic ${m.tic} differs${m.players.length ? `: player ${names(m.players)}` : ""} — checksum ${hex(m.got)}, recorded ${hex(m.want)}` +
      (v.result ? ` (${v.result.mismatches} of ${v.result.checked} checksums differ)` : "") :
    v.result ? `Every recorded checksum matched: ${v.result.checked} of ${v.result.tics} tics.` :
    v.error ? v.error : "";
}
const hex = (n) => "0x" + (n >>> 0).toString(16).padStart(8, "0");

// Drawing, between the last two tics at the playback's pace.
const canvas = /** @type {HTMLCanvasElement} */ ($("arena")), ctx = canvas.getContext("2d");
let shownTic = -1;
function draw() {
  const { w, h } = fitCanvas(canvas, ctx);
  if (!smooth()) prev = cur = game.snapshot();
  drawArena(ctx, w, h, prev, cur, replay ? replay.fraction() : 1, -1);
  if (view.tic !== shownTic) {
    shownTic = view.tic;
    if (document.activeElement !== seekEl) seekEl.value = String(view.tic);
    render();
  }
  requestAnimationFrame(draw);
}
requestAnimationFrame(draw);
render();
