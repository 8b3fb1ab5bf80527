// The demo page: the arena game on ticnet's public JS API, with a lobby, a
// stats overlay, keyboard and touch controls. `?bot=SEED` plays random
// input from SEED (tests use it); `?name=NAME` sets the player's name
// (else the chat member's name inside a messenger, "Player" elsewhere);
// `?ticcost=MS` makes each tic cost MS of CPU; `?predict=0` turns
// prediction off (the game then shows confirmed tics only);
// `?inputdelay=N` or `?inputdelay=auto` sets the input delay, and
// `?maxinputdelay=N` the most the automatic one may be; `?corruptAt=TIC`
// corrupts this copy's state at that tic (hooks.js); `?watch=1` watches
// the game rather than play it (the Watch button too, and a copy that
// finds the game full); `?draw=0` draws no arena (a benchmark of many
// tabs on a few cores measures the netcode, not the rendering).
import { start } from "./ticnet.js";
import { Game, describe } from "./game.js";
import { COLORS, fitCanvas, drawArena } from "./draw.js";

const params = new URLSearchParams(location.search);
const botSeed = params.get("bot");
// `?ticcost=MS` makes every tic cost MS of CPU, as a heavier game's would
// (tests: catching up runs in batches that keep the page responsive).
const ticCost = Number(params.get("ticcost")) || 0;

let game = new Game();
let prev = game.snapshot(), cur = prev;
// The checksum after each tic, by tic: a tic run again after a rollback
// overwrites its sum, so the sums of confirmed tics are their last.
const sums = new Map();
let role = "undecided", uid = 0, lobby = null, started = false, myPlayer = -1, lastEvent = null;
// joining: this copy joins a game in progress and is not in it yet;
// progress: how far, 0-100 (the state's bytes, then the tics to catch up).
let joining = false, progress = 0, rejoining = false;
let refused = null; // why the server last refused this copy, until it gets in
let migrating = false; // the server went mid-game; the game waits for the next one
let startedAt = null; // the last start: { tic, joined }
let joinedWith = null; // stats().transferMS and joinMS as this copy's player entered a game in progress
const log = [];
/** @type {import("./ticnet.js").DesyncStatesEvent | null} */
let desyncStates = null; // the game's first desync, as this copy kept it
/** @type {import("./ticnet.js").DesyncStatesEvent | null} */
let fetchedStates = null; // and as a copy of the majority kept it, when this copy diverged
const downloadStatesEl = document.getElementById("download-states");
const timing = { role: null, lobby: null }; // ms from navigation to the first role and lobby

// Input: keyboard, touch, or a seeded bot.
const keys = new Set();
addEventListener("keydown", (e) => { keys.add(e.key); if (e.key === "Escape") globalThis.ticnetDemo?.net.endGame(); });
addEventListener("keyup", (e) => keys.delete(e.key));
const touch = { active: false, dx: 0, dy: 0, fire: false };
let botState = (Number(botSeed) >>> 0) || 1;
function botRand() { botState ^= botState << 13; botState >>>= 0; botState ^= botState >>> 17; botState ^= botState << 5; botState >>>= 0; return botState; }

/** @returns {import("./ticnet.js").TicCmd} */
function input() {
  if (botSeed !== null) {
    const r = botRand();
    return { forward: (r & 0xff) % 101 - 50, side: ((r >> 8) & 0xff) % 41 - 20, turn: ((r >> 16) & 0x7ff) - 1024, buttons: (r >>> 28) & 1 };
  }
  let forward = 0, side = 0, turn = 0, buttons = 0;
  if (keys.has("w") || keys.has("ArrowUp")) forward += 50;
  if (keys.has("s") || keys.has("ArrowDown")) forward -= 50;
  if (keys.has("a")) side -= 40;
  if (keys.has("d")) side += 40;
  if (keys.has("ArrowLeft") || keys.has("q")) turn -= 1200;
  if (keys.has("ArrowRight") || keys.has("e")) turn += 1200;
  if (keys.has(" ")) buttons |= 1;
  if (touch.active) { forward -= Math.round(touch.dy / 2); turn += Math.round(touch.dx * 20); }
  if (touch.fire) buttons |= 1;
  return { forward, side, turn, buttons };
}

let throwAt = globalThis.__ticnetDemoThrowAt || -1; // a test hook (hooks.js)
// A test hook (hooks.js): this copy's player gains 1000 points after the
// tic, each time it runs (a rollback that runs it again corrupts again):
// the copy diverges, and ticnet sets it right.
const corruptAt = globalThis.__ticnetDemoCorruptAt || -1;

function onTic(tic, cmds, ingame) {
  if (tic === throwAt) {
    throwAt = -1;
    throw new Error(`the demo's test hook throws at tic ${tic}`);
  }
  game.step(tic, cmds, ingame);
  if (tic === corruptAt) game.players[Math.max(myPlayer, 0)].score += 1000;
  for (const end = performance.now() + ticCost; performance.now() < end;) { /* a heavier game */ }
  sums.set(tic, game.checksum());
  sums.delete(tic - 200);
  prev = cur; cur = game.snapshot();
}

/** @param {import("./ticnet.js").TicnetEvent} e */
function onEvent(e) {
  lastEvent = e;
  log.push(e);
  if (log.length > 100) log.shift();
  switch (e.kind) {
    case "role": role = e.role; uid = e.uid; if (timing.role === null) timing.role = performance.now(); break;
    case "lobby": lobby = e.lobby; refused = null; if (timing.lobby === null) timing.lobby = performance.now(); break;
    case "start":
      // A new game (a new server's, say) starts from the beginning; a game
      // joined in progress starts from the state that load brings.
      if (!e.joined) { game = new Game(); prev = cur = game.snapshot(); }
      sums.clear();
      desyncStates = fetchedStates = null; downloadStatesEl.hidden = true;
      started = true; myPlayer = e.player; joining = e.joined; rejoining = e.rejoined; progress = 0;
      startedAt = { tic: e.tic, joined: e.joined, rejoined: e.rejoined }; refused = null;
      // A copy that came to play a full game watches it.
      if (e.player < 0 && !options.watch) showNotice("The game is full: watching", 3000);
      break;
    case "catchup":
      progress = Math.floor((e.unit === "tics" ? 50 : 0) + 50 * e.done / Math.max(1, e.total));
      // A watcher has no "join" of its own: it watches once caught up.
      if (myPlayer < 0 && e.unit === "tics" && e.done === e.total) joining = false;
      break;
    case "join":
      if (e.player !== myPlayer) break;
      joining = false;
      // What the stats said as this copy's player entered (the overlay shows it too).
      { const st = net.stats(); joinedWith = { transferMS: st.transferMS, joinMS: st.joinMS }; }
      break;
    // The server went mid-game: the game goes on under a new one.
    case "migrating": migrating = true; showNotice("Host left — the game goes on…"); break;
    case "resumed": migrating = false; showNotice("Host left — the game goes on", 3000); break;
    case "migrateFailed": migrating = false; started = false; lobby = null; showNotice("The game could not go on without its host", 3000); break;
    case "serverLost": case "newServer": if (!migrating) { started = false; lobby = null; } break;
    case "disconnect": started = false; joining = false; break;
    case "rejected":
      refused = e.reason;
      // A full lobby: watch its game instead.
      // (After this event: the session is in its pass.)
      if (/full/i.test(e.reason) && !options.watch) { showNotice("The game is full: watching", 3000); setTimeout(() => watch(true)); }
      break;
    // The first desync of the game: this copy's states around its tic,
    // to compare with another copy's on the diff page.
    // A copy that diverged then fetches a copy of the majority's.
    case "desyncStates": if (e.fetched) fetchedStates = e; else desyncStates = e; downloadStatesEl.hidden = false; break;
    // A copy went astray and took the majority's state.
    case "repaired": showNotice(e.diverged ? "This copy's game went astray and was set right" : `${e.name || "A player"}'s game went astray and was set right`, 3000); break;
    // The game's own code threw: this copy left the game.
    case "error": started = false; lobby = null; showNotice(`The game failed (${e.callback}, tic ${e.tic}): ${e.message}`); break;
    // Esc ends the game: the controller's ends it, another's asks the controller.
    case "endAsked": showNotice(`Player ${e.player + 1} asks to end the game: Esc ends it`, 5000); break;
    case "end": started = false; showNotice("Game over: back to the lobby", 3000); break;
  }
  renderLobby();
}

// A short notice over the arena: for ms, or until the next one.
const noticeEl = document.getElementById("notice");
let noticeTimer = 0;
function showNotice(text, ms) {
  noticeEl.textContent = text;
  noticeEl.hidden = false;
  clearTimeout(noticeTimer);
  if (ms) noticeTimer = setTimeout(() => { noticeEl.hidden = true; }, ms);
}

// load brings a state: a game joined in progress, or the state before a
// tic that prediction got wrong.
function load(state) {
  game.load(state);
  prev = cur = game.snapshot();
}

const options = { name: params.get("name") ?? undefined, input, onTic,
  checksum: () => game.checksum(), save: () => game.save(), load, onEvent,
  // Each player's own checksum, kept in the replay: a playback names the
  // player whose state differs (one call more per tic).
  playerChecksum: (p) => game.playerChecksum(p),
  // A chat's relays take 100-300 ms each way: a window of 16 tics (457 ms)
  // covers a round trip there; ticnet's default, 8 (228 ms), one of 200.
  predict: params.get("predict") !== "0", predictTics: 16,
  // At a desync, keep this copy's states around its first tic, for the
  // diff page: the arena's state is a few hundred bytes.
  keepStates: true,
  // Watch rather than play: no input, never a player or the server.
  watch: params.get("watch") === "1" };
const inputDelay = params.get("inputdelay"), maxInputDelay = params.get("maxinputdelay");
if (inputDelay !== null) options.inputDelay = inputDelay === "auto" ? "auto" : Number(inputDelay);
if (maxInputDelay !== null) options.maxInputDelay = Number(maxInputDelay);
let net = await start(options);

// watch leaves the game and comes back to watch it (on), or to play it
// at the next free place (off).
function watch(on) {
  options.watch = on;
  net.leave();
  return rejoin();
}
const watchEl = document.getElementById("watch");
watchEl.onclick = () => watch(!options.watch);

// rejoin starts a new session after this one ended (leave, or an "error"):
// it finds the lobby, or the game in progress, as a page opened now would.
async function rejoin() {
  role = "undecided"; lobby = null; started = false; joining = false; migrating = false; myPlayer = -1;
  net = await start(options);
  globalThis.ticnetDemo.net = net;
  showNotice("Joining again…", 2000);
  renderLobby();
}

// The checksums of the last 64 confirmed tics (before gametic).
function confirmedSums(gametic) {
  const out = [];
  for (let t = gametic - 64; t < gametic; t++) if (sums.has(t)) out.push({ tic: t, sum: sums.get(t) });
  return out;
}

// For tests and for people: the page's state as JSON.
globalThis.ticnetDemo = {
  status() {
    const st = net.stats();
    return JSON.stringify({ role, uid, players: st.players, gametic: st.gametic, started, start: startedAt, joining, progress, migrating,
      notice: noticeEl.hidden ? "" : noticeEl.textContent, player: myPlayer,
      me: globalThis.ticnetDemo.me(), // as displayed: predicted
      protocol: st.protocol, checksums: confirmedSums(st.gametic), lobby, stats: st, timing, joinedWith });
  },
  launch() { launchGame(); },
  net, // the session, for tests
  leave() { net.leave(); },
  // rejoin: a new session, after leave() or an "error"; its promise's error, if any, as a string.
  rejoin() { return rejoin().then(() => "", (e) => String(e.message)); },
  // watch(on): the Watch button's, for tests.
  watch(on) { return watch(on).then(() => "", (e) => String(e.message)); },
  // The local player as displayed, cheaply (tests poll it).
  me() { const p = myPlayer >= 0 ? game.players[myPlayer] : null; return p && { x: p.x, y: p.y, angle: p.angle, dead: p.dead > 0 }; },
  events() { return JSON.stringify(log); },
  // The "desyncStates" events' states, as arrays of bytes (null before
  // one): this copy's, and the majority's it fetched.
  desyncStates() { return statesJSON(desyncStates); },
  fetchedStates() { return statesJSON(fetchedStates); },
  describe, // the game's reading of a state
};

// "Download replay": this copy's replay of the game so far (in a game),
// or of the last game (in the lobby after it), as a file that
// replay.html plays back. Inside a messenger the file goes to a chat.
const downloadEl = document.getElementById("download-replay");
function downloadReplay() {
  const bytes = net.replay();
  if (!bytes) { showNotice("No replay yet: it starts with the game", 3000); return; }
  saveFile(`ticnet-arena-${new Date().toISOString().slice(0, 19).replace(/[T:]/g, "-")}.ticnet`, bytes);
}

// saveFile downloads bytes as a file named name; inside a messenger the
// file goes to a chat.
function saveFile(name, bytes) {
  const blob = new Blob([bytes], { type: "application/octet-stream" });
  const webxdc = globalThis.webxdc;
  if (webxdc && webxdc.sendToChat) {
    webxdc.sendToChat({ file: { name, blob } }).catch((e) => showNotice(`${name} could not be sent: ${e}`, 5000));
    return;
  }
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 60000);
}
downloadEl.onclick = downloadReplay;

// "Download states": this copy's state after the first tic of the game's
// first desync ("desyncStates"), and on the copy that diverged the
// majority's it fetched, which diff.html compares field by field.
downloadStatesEl.onclick = () => {
  for (const e of [desyncStates, fetchedStates]) {
    if (e) saveFile(`ticnet-arena-tic-${e.tic}-${e.diverged ? "diverged" : "majority"}-${uid.toString(16)}.state`, e.after);
  }
};

/** @param {import("./ticnet.js").DesyncStatesEvent | null} e */
function statesJSON(e) {
  return JSON.stringify(e && { tic: e.tic, diverged: e.diverged, fetched: e.fetched, before: [...e.before], after: [...e.after] });
}

// Lobby.
const lobbyEl = document.getElementById("lobby");
// launch rejects on a copy that may not launch, with the reason.
function launchGame() { net.launch().catch((e) => showNotice(e.message, 3000)); }
document.getElementById("launch").onclick = launchGame;
function renderLobby() {
  lobbyEl.hidden = started && !joining;
  const list = document.getElementById("lobby-players");
  list.replaceChildren(...((lobby && lobby.players) || []).map((p) => {
    const li = document.createElement("li");
    li.textContent = `${p.name}${p.player === (lobby && lobby.player) ? " (you)" : ""}`;
    li.style.color = COLORS[p.player % COLORS.length];
    return li;
  }));
  document.getElementById("launch").hidden = !(lobby && lobby.controller) || started;
  watchEl.textContent = options.watch ? "Play" : "Watch";
  document.getElementById("lobby-status").textContent =
    joining ? `${rejoining ? `Back to your place (player ${myPlayer + 1}) in the game in progress` : "Joining the game in progress"}… ${progress} %` :
    refused ? `The server said: ${refused}. Trying again…` :
    role === "undecided" ? "Looking for other players…" :
    lobby ? `${lobby.players.length} of ${lobby.maxPlayers} players${options.watch ? " · you watch" : ""}` : "Joining…";
}
renderLobby();

// Touch: drag on the left half to move and turn, touch the right half to fire.
const canvas = /** @type {HTMLCanvasElement} */ (document.getElementById("arena"));
canvas.addEventListener("touchstart", (e) => { for (const t of e.changedTouches) touchAt(t, true); e.preventDefault(); }, { passive: false });
canvas.addEventListener("touchmove", (e) => { for (const t of e.changedTouches) touchAt(t, true); e.preventDefault(); }, { passive: false });
canvas.addEventListener("touchend", (e) => { for (const t of e.changedTouches) touchAt(t, false); e.preventDefault(); }, { passive: false });
let touchOrigin = null;
function touchAt(t, down) {
  const r = canvas.getBoundingClientRect();
  if (t.clientX - r.left > r.width / 2) { touch.fire = down; return; }
  if (!down) { touch.active = false; touchOrigin = null; return; }
  if (!touchOrigin) touchOrigin = { x: t.clientX, y: t.clientY };
  touch.active = true; touch.dx = t.clientX - touchOrigin.x; touch.dy = t.clientY - touchOrigin.y;
}

// Drawing, interpolated between the last two tics.
const ctx = canvas.getContext("2d");
const graphEl = /** @type {HTMLCanvasElement} */ (document.getElementById("graph")), graph = graphEl.getContext("2d");
const history = [];  // {rtt, lead, rollbacks, peers: each player's round trip, by number}, one every 250 ms
const GRAPH_SAMPLES = 40; // 10 s
// GRAPH_HEADROOM keeps a line that holds steady at 80 % of the graph's
// height or lower, under its top.
const GRAPH_HEADROOM = 1.25;
const topEls = { rtt: document.getElementById("top-rtt"), lead: document.getElementById("top-lead"), rollbacks: document.getElementById("top-rollbacks") };

// graphTop is a line's top: the largest of the values in the window (or
// least) with headroom, rounded up to 1, 2 or 5 times a power of ten.
// Before the game starts the values are not numbers yet.
function graphTop(key, least) {
  const vals = history.flatMap((h) => key === "rtt" ? [h.rtt, ...h.peers] : [h[key]]);
  const v = Math.max(least, ...vals.filter(Number.isFinite)) * GRAPH_HEADROOM;
  const p = 10 ** Math.floor(Math.log10(v));
  return [1, 2, 5, 10].map((m) => m * p).find((t) => t >= v);
}

let lastRollbacks = 0, lastRolledBack = 0;
setInterval(() => {
  const st = net.stats();
  const rollbacks = (st.rollbacks - lastRollbacks) * 4, reran = (st.rolledBack - lastRolledBack) * 4; // per second
  lastRollbacks = st.rollbacks; lastRolledBack = st.rolledBack;
  const peers = st.peers || [];
  const rtts = []; // by player number
  for (const p of peers) rtts[p.player] = p.rttMS < 0 ? NaN : p.rttMS;
  history.push({ rtt: st.rttMS, lead: st.maketic - st.gametic, rollbacks, peers: rtts });
  downloadEl.hidden = st.replayBytes === 0;
  downloadEl.textContent = `Download replay (${Math.ceil(st.replayBytes / 1024)} KB)`;
  if (history.length > GRAPH_SAMPLES) history.shift();
  document.getElementById("stats").textContent =
    `${role} uid ${uid.toString(16)}  ${st.protocol || "-"}${options.watch ? "  watching" : ""}${st.watchers ? `  ${st.watchers} watch${watcherNames(st.watcherNames)}` : ""}\n` +
    `tic ${st.gametic} recv ${st.recvtic} make ${st.maketic}  rtt ${st.rttMS} ms\n` +
    `in ${st.framesInPerSec} f/s ${st.bytesInPerSec} B/s  out ${st.framesOutPerSec} f/s ${st.bytesOutPerSec} B/s\n` +
    `dropped ${st.dropped + st.channel.dropped}  resends ${st.resends}  substituted ${st.substituted}\n` +
    `net ${st.passMedianUS}/${st.passP99US} µs per pass (median/p99)\n` +
    `predicted to ${st.predictedTic}: ${rollbacks} rollbacks/s, ${reran} tics re-run/s` +
    (st.transferBytesIn ? `\ngame state received: ${st.transferBytesIn} B` + (st.transferMS ? ` in ${st.transferMS} ms` : "") +
      (st.joinMS ? `, playing after ${st.joinMS} ms` : "") : "") +
    // Every player's network, a row each (TICNET_1): the round trip to the
    // server (ms), how early its commands arrive (ms), the share lost, its
    // commands substituted, its input delay (tics).
    (peers.length ? "\nplayer      rtt early lost subst delay" : "") +
    peers.map((p) => "\n" + (p.name || `player ${p.player}`).slice(0, 9).padEnd(9) + String(p.rttMS < 0 ? "-" : p.rttMS).padStart(6) +
      String(p.marginMS).padStart(6) + `${Math.round(p.loss * 100)}%`.padStart(5) + String(p.substituted).padStart(6) +
      String(p.inputDelay).padStart(6)).join("");
  // Each line has its own top, which follows its data and the legend says.
  const { w, h } = fitCanvas(graphEl, graph);
  graph.clearRect(0, 0, w, h);
  const plot = (value, top, color, dash = []) => {
    graph.strokeStyle = color; graph.setLineDash(dash); graph.beginPath();
    let pen = false; // a point before this one was drawn
    history.forEach((s, i) => {
      const v = value(s);
      if (!Number.isFinite(v)) { pen = false; return; }
      const x = i * w / (GRAPH_SAMPLES - 1), y = h - 1 - (h - 2) * Math.min(1, v / top);
      pen ? graph.lineTo(x, y) : graph.moveTo(x, y);
      pen = true;
    });
    graph.stroke();
    graph.setLineDash([]);
  };
  const top = { rtt: graphTop("rtt", 10), lead: graphTop("lead", 1), rollbacks: graphTop("rollbacks", 1) };
  // Each player's round trip to the server, dashed, in the player's colour.
  for (const p of peers) plot((s) => s.peers[p.player], top.rtt, COLORS[p.player % COLORS.length], [3, 3]);
  plot((s) => s.rtt, top.rtt, "#4af"); plot((s) => s.lead, top.lead, "#fa4"); plot((s) => s.rollbacks, top.rollbacks, "#f4a");
  topEls.rtt.textContent = `${top.rtt} ms`; topEls.lead.textContent = `${top.lead} tics`; topEls.rollbacks.textContent = `${top.rollbacks}/s`;
  graphEl.dataset.rttTopMs = String(top.rtt); // for tests
}, 250);

// The arena is the largest square at the canvas's top, centred; on a
// phone the canvas goes on below it, a touch pad clear of the arena.
const PAD_HINT_MIN_PX = 64; // a pad this tall or more says how to use it
const touchScreen = navigator.maxTouchPoints > 0;
const drawing = params.get("draw") !== "0";
function draw() {
  if (!drawing) return;
  const { w, h } = fitCanvas(canvas, ctx);
  // net.fraction(): of the way from the last tic to the next
  const { left, side } = drawArena(ctx, w, h, prev, cur, net.fraction(), myPlayer);
  const where = JSON.stringify({ left, top: 0, side });
  if (canvas.dataset.arena !== where) canvas.dataset.arena = where; // for tests
  if (touchScreen && h - side >= PAD_HINT_MIN_PX) drawPadHint(side, w, h);
  requestAnimationFrame(draw);
}
requestAnimationFrame(draw);

// drawPadHint marks the touch pad below the arena (from y top to h): its
// halves do what touchAt says.
function drawPadHint(top, w, h) {
  ctx.save();
  ctx.strokeStyle = ctx.fillStyle = "#333";
  ctx.setLineDash([4, 6]);
  ctx.beginPath(); ctx.moveTo(w / 2, top + 12); ctx.lineTo(w / 2, h - 12); ctx.stroke();
  ctx.font = "14px system-ui, sans-serif"; ctx.textAlign = "center"; ctx.textBaseline = "middle";
  ctx.fillText("drag: move, turn", w / 4, (top + h) / 2);
  ctx.fillText("tap: fire", 3 * w / 4, (top + h) / 2);
  ctx.restore();
}

// watcherNames is the first few watchers' names, for the status line.
function watcherNames(names) {
  if (names.length === 0) return "";
  const shown = names.slice(0, 4).join(", ");
  return `: ${shown}${names.length > 4 ? `, +${names.length - 4}` : ""}`;
}
