// ticnet cycles: a light-cycle game for 2-8 players in one file, on
// ticnet's opaque input (inputSize, eventBits). A cycle that hits a wall or
// a trail is out until the next round, which starts when one or none is
// left; a player who joins mid-round rides from the next. `?bot=SEED` plays
// seeded random input, `?name=NAME` names the player; tests drive the page
// through globalThis.ticnetDemo, as they drive the demo's (web/main.js).

// ticnet's runtime sits beside this page, in build/web/examples/cycles
// (make web) as in the .xdc (make xdc GAME=web/examples/cycles): the
// import is all it takes.
import { start } from "./ticnet.js";

const SIDE = 64, MAX_PLAYERS = 8; // the arena's side, in cells
// A cycle gains SPEED (BOOST_SPEED boosted) each tic and moves a cell at
// STEP: every 3 tics, 11.7 cells a second (boosted every 2). A boost lasts
// BOOST_TICS (1 s), then needs BOOST_COOL (4 s) before the next.
const STEP = 6, SPEED = 2, BOOST_SPEED = 3, BOOST_TICS = 35, BOOST_COOL = 140;
const COUNTDOWN = 105, PAUSE = 70; // 3 s from laying a round out to the start; 2 s to see who won the last
const DX = [0, 1, 0, -1], DY = [-1, 0, 1, 0]; // by direction: 0 up, 1 right, 2 down, 3 left

// The input, two bytes per player per tic:
//   byte 0, held state: the direction a key or a swipe holds (0-3), NONE if none;
//   byte 1, events: TURN_LEFT, TURN_RIGHT, BOOST, one bit per press.
// When a player's command reaches the server late, the server runs the tic
// with that player's previous command instead. For held state that is
// right: the key is most likely still down. A press is one instant: repeated,
// it would turn the cycle twice; dropped, it would be lost. So byte 1's bits
// are events (eventBits): the server clears them in the substitute, and
// ticnet puts them into that player's next command instead, so every press
// acts once, about a round trip late.
const NONE = 4, TURN_LEFT = 1, TURN_RIGHT = 2, BOOST = 4;
const EVENT_BITS = [0, TURN_LEFT | TURN_RIGHT | BOOST];

// A cycle's fields, a byte each in the saved state, with their largest valid value.
const FIELDS = { playing: 1, alive: 1, x: SIDE - 1, y: SIDE - 1, dir: 3, last: 3, queued: 3, acc: STEP - 1, boost: BOOST_TICS + BOOST_COOL, score: 255 };
const NAMES = Object.keys(FIELDS);
const VERSION = 1, HEAD = 12; // version, tic u32, rng u32, wait, winner, racers
const STATE_BYTES = HEAD + MAX_PLAYERS * NAMES.length + SIDE * SIDE;

// The game: integers only, so every copy that runs the same inputs holds
// the same state, bit for bit.
class Game {
  // seed: the "start" event's, the same on every copy.
  constructor(seed = 0) {
    this.tic = 0;
    this.rng = seed >>> 0 || 0x9e3779b9; // xorshift32: where the cycles start
    this.wait = COUNTDOWN + 1; // tics before the cycles move; the round is laid out at COUNTDOWN
    this.winner = 0;           // 1 + the last round's winner; 0: none
    this.racers = 0;           // cycles that started this round
    this.cycles = Array.from({ length: MAX_PLAYERS }, () => Object.fromEntries(NAMES.map((f) => [f, 0])));
    this.grid = new Uint8Array(SIDE * SIDE); // 0 free, 1 + p: player p's trail
  }

  rand() { let s = this.rng; s ^= s << 13; s ^= s >>> 17; s ^= s << 5; return (this.rng = s >>> 0); }

  // step runs one tic: inputs[p] is player p's input, null where ingame[p] is false.
  step(tic, inputs, ingame) {
    this.tic = tic;
    this.cycles.forEach((c, p) => {
      c.playing = ingame[p] ? 1 : 0;
      if (!c.playing) c.alive = 0; // it left; its trail stays until the round ends
      else if (c.alive && inputs[p]) this.steer(c, inputs[p][0], inputs[p][1]);
    });
    if (this.wait > 0) {
      if (--this.wait === COUNTDOWN) this.layOut();
      return;
    }
    this.move();
    const alive = this.cycles.filter((c) => c.alive);
    if (alive.length > (this.racers > 1 ? 1 : 0)) return;
    // The round is over: the last one standing scores.
    this.winner = this.racers > 1 && alive.length === 1 ? this.cycles.indexOf(alive[0]) + 1 : 0;
    if (this.winner) alive[0].score = (alive[0].score + 1) & 0xff;
    this.wait = PAUSE + COUNTDOWN;
  }

  // layOut begins a round: a clear arena, and a cycle for every player in
  // the game at one of 8 places (a 3×3 grid without its middle, shuffled,
  // a few cells of jitter), heading a random way.
  layOut() {
    this.grid.fill(0);
    this.winner = this.racers = 0;
    const places = [0, 1, 2, 3, 5, 6, 7, 8];
    for (let i = places.length - 1; i > 0; i--) {
      const j = this.rand() % (i + 1);
      [places[i], places[j]] = [places[j], places[i]];
    }
    this.cycles.forEach((c, p) => {
      const r = this.rand();
      Object.assign(c, { alive: c.playing, queued: 0, acc: 0, boost: 0, dir: r & 3, last: r & 3,
        x: 12 + 20 * (places[p] % 3) + ((r >>> 2) & 7) - 3, y: 12 + 20 * Math.floor(places[p] / 3) + ((r >>> 5) & 7) - 3 });
      if (c.playing) { this.grid[c.y * SIDE + c.x] = p + 1; this.racers++; }
    });
  }

  // steer applies a player's input: the held direction, then the presses.
  steer(c, held, events) {
    if (held < 4) this.turn(c, held, 0);
    if (events & TURN_LEFT) this.turn(c, (c.dir + 3) & 3, 3);
    if (events & TURN_RIGHT) this.turn(c, (c.dir + 1) & 3, 1);
    if ((events & BOOST) && c.boost === 0) c.boost = BOOST_TICS + BOOST_COOL;
  }

  // turn heads c to dir, unless that is straight back into its own trail:
  // then a press (delta, a quarter turn) waits for the next cell, so that
  // two quick taps make a U-turn.
  turn(c, dir, delta) {
    if (dir !== ((c.last + 2) & 3)) c.dir = dir;
    else if (delta) c.queued = delta;
  }

  // move advances the cycles that reach their next cell, all at once: one
  // that reaches a wall or a trail crashes, and two that reach one cell both do.
  move() {
    const moves = [];
    this.cycles.forEach((c, p) => {
      if (!c.alive) return;
      if (c.boost > 0) c.boost--;
      c.acc += c.boost > BOOST_COOL ? BOOST_SPEED : speed;
      if (c.acc < STEP) return;
      c.acc -= STEP;
      moves.push({ c, p, x: c.x + DX[c.dir], y: c.y + DY[c.dir] });
    });
    for (const m of moves) {
      if (m.x < 0 || m.y < 0 || m.x >= SIDE || m.y >= SIDE || this.grid[m.y * SIDE + m.x] !== 0 ||
        moves.some((o) => o !== m && o.x === m.x && o.y === m.y)) m.c.alive = 0;
    }
    for (const { c, p, x, y } of moves) {
      if (!c.alive) continue;
      c.x = x; c.y = y; c.last = c.dir;
      if (c.queued) { c.dir = (c.dir + c.queued) & 3; c.queued = 0; }
      this.grid[y * SIDE + x] = p + 1;
    }
  }

  save() {
    const b = new Uint8Array(STATE_BYTES), v = new DataView(b.buffer);
    b[0] = VERSION; v.setUint32(1, this.tic, true); v.setUint32(5, this.rng, true);
    b[9] = this.wait; b[10] = this.winner; b[11] = this.racers;
    let o = HEAD;
    for (const c of this.cycles) for (const f of NAMES) b[o++] = c[f];
    b.set(this.grid, o);
    return b;
  }

  // load takes a state save made, maybe on another copy; on bytes it
  // cannot read (they come from the network) it throws, the state unchanged.
  load(b) {
    if (!(b instanceof Uint8Array) || b.length !== STATE_BYTES) throw new Error(`cycles: a state is ${STATE_BYTES} bytes, not ${b && b.length}`);
    if (b[0] !== VERSION) throw new Error(`cycles: state version ${b[0]}, not ${VERSION}`);
    if (b[9] > PAUSE + COUNTDOWN + 1 || b[10] > MAX_PLAYERS || b[11] > MAX_PLAYERS) throw new Error("cycles: the state's round is out of range");
    let o = HEAD;
    const cycles = Array.from({ length: MAX_PLAYERS }, (_, p) => Object.fromEntries(NAMES.map((f) => {
      if (b[o] > FIELDS[f]) throw new Error(`cycles: player ${p}'s ${f} is ${b[o]}, at most ${FIELDS[f]}`);
      return [f, b[o++]];
    })));
    const grid = b.slice(o);
    if (grid.some((cell) => cell > MAX_PLAYERS)) throw new Error("cycles: a cell of the state's arena holds no player");
    const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
    Object.assign(this, { tic: v.getUint32(1, true), rng: v.getUint32(5, true), wait: b[9], winner: b[10], racers: b[11], cycles, grid });
  }

  // checksum is FNV-1a over the saved state, every byte of it.
  checksum() { return this.save().reduce((h, x) => Math.imul(h ^ x, 0x01000193), 0x811c9dc5) >>> 0; }
}

// Input: keyboard, touch, or a seeded bot.
const params = new URLSearchParams(location.search);
// ?delay=MS holds every frame this tab sends MS ms (a test hook, as the
// demo's hooks.js): set before start loads the shim, which reads it.
if (Number(params.get("delay")) > 0) globalThis.__ticnetHoldOutgoingMS = Number(params.get("delay"));
const botSeed = params.get("bot");
let botState = (Number(botSeed) >>> 0) || 1;
function botRand() { botState ^= botState << 13; botState ^= botState >>> 17; botState ^= botState << 5; return (botState >>>= 0); }
// A key or a swipe holds its direction at least HOLD_MIN_TICS tics, so
// that even a brief one is in several commands: a late one's substitute
// (the command before it) cannot swallow it.
const HOLD_MIN_TICS = 4;
let held = NONE, heldDown = false, heldTics = 0;
const presses = []; // events not sent yet, one per tic: two quick taps stay two
function hold(dir) { held = dir; heldDown = true; heldTics = HOLD_MIN_TICS; }

function input() {
  if (botSeed !== null) {
    const r = botRand(), e = (r >>> 8) % 40;
    return new Uint8Array([(r & 15) === 0 ? (r >>> 4) & 3 : NONE, e === 0 ? TURN_LEFT : e === 1 ? TURN_RIGHT : e === 2 ? BOOST : 0]);
  }
  const dir = heldDown || heldTics > 0 ? held : NONE;
  if (heldTics > 0) heldTics--;
  return new Uint8Array([dir, presses.shift() || 0]);
}

const KEY_DIRS = { ArrowUp: 0, w: 0, ArrowRight: 1, d: 1, ArrowDown: 2, s: 2, ArrowLeft: 3, a: 3 };
const keyDir = (e) => KEY_DIRS[e.key.length === 1 ? e.key.toLowerCase() : e.key];
addEventListener("keydown", (e) => {
  if (e.repeat) return;
  if (keyDir(e) !== undefined) hold(keyDir(e)); else if (e.key === " ") presses.push(BOOST);
  else if (e.key === "Escape") globalThis.ticnetDemo?.net.endGame(); // once the engine runs
});
addEventListener("keyup", (e) => { if (keyDir(e) === held) heldDown = false; });

// Touch: a swipe holds its direction while the finger stays down; a tap
// turns (left on the screen's left half, right on its right); a second
// finger boosts. Keys: arrows or WASD steer, Space boosts.
const SWIPE_PX = 24;
let touch = null; // the gesture's first finger: where it began, and whether lifting it turns
const play = document.getElementById("play"), touchOpts = { passive: false }; // preventDefault: no scrolling, no zoom
play.addEventListener("touchstart", (e) => {
  e.preventDefault();
  const t = e.changedTouches[0];
  if (touch) { touch.tap = false; presses.push(BOOST); } else touch = { id: t.identifier, x: t.clientX, y: t.clientY, tap: true };
}, touchOpts);
play.addEventListener("touchmove", (e) => {
  e.preventDefault();
  const t = touch && touch.tap && [...e.changedTouches].find((f) => f.identifier === touch.id);
  const dx = t ? t.clientX - touch.x : 0, dy = t ? t.clientY - touch.y : 0;
  if (Math.max(Math.abs(dx), Math.abs(dy)) < SWIPE_PX) return;
  touch.tap = false;
  hold(Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? 1 : 3) : (dy > 0 ? 2 : 0));
}, touchOpts);
const touchEnd = (e, cancelled) => {
  e.preventDefault();
  if (!touch || e.touches.length > 0) return;
  if (touch.tap && !cancelled) presses.push(touch.x < innerWidth / 2 ? TURN_LEFT : TURN_RIGHT);
  heldDown = false; touch = null;
};
play.addEventListener("touchend", (e) => touchEnd(e, false), touchOpts);
play.addEventListener("touchcancel", (e) => touchEnd(e, true), touchOpts);

// The network: the page's bookkeeping is web/main.js's, for the same tests.
let game = new Game(), substituted = []; // whose input the server stood in for at the last tic: shown, not state
// The checksum after each tic, by tic: a tic run again after a rollback
// overwrites its sum, so the sums of confirmed tics are their last.
const sums = new Map();
// What each tic ran, by tic, as sums are: a test that finds copies apart shows
// where they parted.
const ran = new Map();
const loaded = []; // the states loaded (a joiner's, a rollback's): the tic each is after, and its checksum
const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
let role = "undecided", uid = 0, lobby = null, started = false, myPlayer = -1, names = [];
let joining = false, progress = 0, rejoining = false, refused = null, migrating = false, startedAt = null;
let speed = SPEED; // what a cycle adds to acc a tic: the launch options say
const log = [];
const timing = { role: null, lobby: null }; // ms from navigation to the first role and lobby

function onTic(tic, inputs, ingame, subs) {
  game.step(tic, inputs, ingame);
  sums.set(tic, game.checksum());
  sums.delete(tic - 200);
  ran.set(tic, inputs.map((b, p) => ingame[p] ? hex(b) + (subs[p] ? "*" : "") : "-").join(" "));
  ran.delete(tic - 200);
  substituted = subs;
}

function onEvent(e) {
  log.push(e);
  if (log.length > 100) log.shift();
  switch (e.kind) {
    case "role": role = e.role; uid = e.uid; if (timing.role === null) timing.role = performance.now(); break;
    case "lobby": lobby = e.lobby; names = []; for (const p of lobby.players) names[p.player] = p.name; refused = null; if (timing.lobby === null) timing.lobby = performance.now(); break;
    case "start": // a joined game's state comes with load: keep it
      if (!e.joined) game = new Game(e.seed);
      // The controller's launch options: the same on every copy.
      speed = Math.max(1, Math.min(BOOST_SPEED, (e.options && e.options.speed) | 0 || SPEED));
      sums.clear(); ran.clear(); presses.length = 0; // taps on the lobby are no turns
      started = true; myPlayer = e.player; joining = e.joined; rejoining = e.rejoined; progress = 0;
      startedAt = { tic: e.tic, joined: e.joined, rejoined: e.rejoined, seed: e.seed, options: e.options, ticRate: e.ticRate };
      if (e.player < 0 && !watching) showNotice("The game is full: watching", 3000); // a copy that came to play
      refused = null; break;
    case "catchup":
      progress = Math.floor((e.unit === "tics" ? 50 : 0) + 50 * e.done / Math.max(1, e.total));
      if (myPlayer < 0 && e.unit === "tics" && e.done === e.total) joining = false; // a watcher has no "join" of its own
      break;
    case "join": if (e.player === myPlayer) joining = false; break;
    case "migrating": migrating = true; showNotice("Host left — the game goes on…"); break;
    case "resumed": migrating = false; showNotice("Host left — the game goes on", 3000); break;
    case "migrateFailed": migrating = false; started = false; lobby = null; showNotice("The game could not go on without its host", 3000); break;
    case "serverLost": case "newServer": if (!migrating) { started = false; lobby = null; } break;
    case "disconnect": started = false; joining = false; break;
    case "rejected":
      refused = e.reason;
      // A full lobby: watch its game instead (after this event).
      if (/full/i.test(e.reason) && !watching) setTimeout(() => watch(true));
      break;
    case "error": started = false; lobby = null; showNotice(`The game failed (${e.callback}, tic ${e.tic}): ${e.message}`); break;
    // Esc ends the game: the controller's ends it, another's asks the controller.
    case "endAsked": showNotice(`Player ${e.player + 1} asks to end the game: Esc ends it`, 5000); break;
    case "end": started = false; showNotice("Game over: back to the lobby", 3000); break;
  }
  renderLobby();
}

const noticeEl = document.getElementById("notice");
let noticeTimer = 0;
function showNotice(text, ms) {
  noticeEl.textContent = text;
  noticeEl.hidden = false;
  clearTimeout(noticeTimer);
  if (ms) noticeTimer = setTimeout(() => { noticeEl.hidden = true; }, ms);
}

// ?watch=1 watches the game rather than plays it: the Watch button, and a
// copy that finds the game full. watch(on) leaves and opens the page again
// so.
const watching = params.get("watch") === "1";
function watch(on) {
  const p = new URLSearchParams(location.search);
  if (on) p.set("watch", "1"); else p.delete("watch");
  net.leave();
  location.search = p.toString();
}
document.getElementById("watch").onclick = () => watch(!watching);

const net = await start({ name: params.get("name") || "player", watch: watching,
  inputSize: 2, eventBits: EVENT_BITS, input, onTic, checksum: () => game.checksum(),
  save: () => game.save(),
  load: (state) => { game.load(state); loaded.push({ tic: game.tic, sum: game.checksum() }); if (loaded.length > 20) loaded.shift(); }, onEvent,
  // ?predict=0: lockstep. 16 tics (457 ms) of prediction cover a chat relay's round trip, as in the demo.
  predict: params.get("predict") !== "0", predictTics: 16,
  ticRate: Number(params.get("ticrate")) || undefined }); // ?ticrate=N: N tics a second

// The checksums of the last 64 confirmed tics (before gametic).
function confirmedSums(gametic) {
  const out = [];
  for (let t = gametic - 64; t < gametic; t++) if (sums.has(t)) out.push({ tic: t, sum: sums.get(t) });
  return out;
}

// For tests and for people: the page's state, in the demo's shape.
globalThis.ticnetDemo = {
  status() {
    const st = net.stats();
    return JSON.stringify({ role, uid, players: st.players, gametic: st.gametic, started, start: startedAt, joining, progress, migrating,
      notice: noticeEl.hidden ? "" : noticeEl.textContent, player: myPlayer, me: globalThis.ticnetDemo.me(),
      protocol: st.protocol, checksums: confirmedSums(st.gametic), lobby, stats: st, timing });
  },
  launch() { launchGame(); },
  net,
  leave() { net.leave(); },
  // The local cycle as displayed (predicted).
  me() { const c = game.cycles[myPlayer]; return c ? { x: c.x, y: c.y, dir: c.dir, alive: c.alive === 1 } : null; },
  events() { return JSON.stringify(log); },
  // The commands of every tic run and kept: "0400 04*00 -": hex, * a substitute, - out of the game.
  // loaded: the last states loaded; start: the "start" event's facts.
  ran() { return JSON.stringify({ ran: [...ran].map(([tic, cmds]) => ({ tic, sum: sums.get(tic), cmds })), loaded, start: startedAt }); },
};

// The lobby: the controller (its first player) starts the game.
const COLORS = [[230, 25, 75], [60, 180, 75], [255, 225, 25], [67, 99, 216], [245, 130, 49], [145, 30, 180], [70, 240, 240], [240, 50, 230]];
const PALETTE = [[0, 0, 0], ...COLORS], css = (rgb) => `rgb(${rgb.join()})`;
const lobbyEl = document.getElementById("lobby"), launchEl = document.getElementById("launch");
// ?speed=N (1-3) on the controller's page: how fast the cycles go, for everyone.
function launchGame() { net.launch({ options: { speed: Number(params.get("speed")) || SPEED } }).catch((e) => showNotice(e.message, 3000)); }
launchEl.onclick = launchGame;
function renderLobby() {
  lobbyEl.hidden = started && !joining;
  launchEl.hidden = !(lobby && lobby.controller) || started;
  document.getElementById("lobby-players").replaceChildren(...((lobby && lobby.players) || []).map((p, i) =>
    Object.assign(document.createElement("li"), { textContent: `${p.name}${i === lobby.player ? " (you)" : ""}`, style: `color:${css(COLORS[i])}` })));
  document.getElementById("lobby-status").textContent =
    joining ? `${rejoining ? "Back to your place in" : "Joining"} the game in progress… ${progress} %` :
    refused ? `The server said: ${refused}. Trying again…` :
    role === "undecided" ? "Looking for other players…" :
    lobby ? `${lobby.players.length} of ${lobby.maxPlayers} players${watching ? " · you watch" : ""}` : "Joining…";
  document.getElementById("watch").textContent = watching ? "Play" : "Watch";
}
renderLobby();

// Drawing: a pixel a cell, which CSS scales up; the heads white.
const who = (p) => names[p] || `P${p + 1}`, WHITE = [255, 255, 255];
const canvas = /** @type {HTMLCanvasElement} */ (document.getElementById("arena"));
const ctx = canvas.getContext("2d"), img = ctx.createImageData(SIDE, SIDE);
const hud = document.getElementById("hud"), banner = document.getElementById("banner");
function draw() {
  const px = img.data;
  game.grid.forEach((cell, i) => { px.set(PALETTE[cell], i * 4); px[i * 4 + 3] = 255; });
  game.cycles.forEach((c) => { if (c.alive) px.set(WHITE, (c.y * SIDE + c.x) * 4); });
  ctx.putImageData(img, 0, 0);
  const me = game.cycles[myPlayer];
  banner.textContent = !started || joining ? "" :
    game.wait > COUNTDOWN ? (game.winner ? `${who(game.winner - 1)} wins the round` : "Round over") :
    game.wait > 0 ? String(Math.ceil(game.wait / 35)) : me && me.playing && !me.alive ? "Out until the next round" : "";
  requestAnimationFrame(draw);
}
requestAnimationFrame(draw);
// The scores, and ⌛ by a player whose input came late at the last tic.
setInterval(() => {
  hud.replaceChildren(...game.cycles.flatMap((c, p) => c.playing ? [Object.assign(document.createElement("span"), {
    textContent: `${who(p)}${p === myPlayer ? " (you)" : ""} ${c.score}${substituted[p] ? " ⌛" : ""}`, style: `color:${css(COLORS[p])}` })] : []));
}, 250);
