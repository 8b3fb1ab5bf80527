// ticnet: the public JS API. An ES module; the types are in ticnet.d.ts.
//
//   import { start } from "./ticnet.js";
//   const net = await start({
//     name: "ann",
//     input: (tic) => ({ forward: 0, side: 0, turn: 0, buttons: 0 }),
//     onTic: (tic, cmds, ingame) => game.step(cmds, ingame),
//     checksum: () => game.hash(),
//     save: () => game.save(), load: (state) => game.load(state), // optional: late join
//     onEvent: (e) => console.log(e),
//   });
//   net.launch(); net.stats(); net.leave();
//   const bytes = net.replay();   // the game so far, as a replay file
//
//   import { playReplay } from "./ticnet.js";  // in any page: the game played back
//   const r = await playReplay(bytes, { setup: (facts) => game.reset(facts.seed, facts.options),
//                                       onTic, checksum, save, load, speed: 0 }); // setup: before any load
//   r.on("done", (e) => console.log(e.checked, e.mismatches));
//
// The import is all a page needs: this module loads what it uses from
// beside itself, once, when first used: wasm_exec.js (Go's loader) and
// ticnet.wasm for everything; for start also the messenger's webxdc.js
// (beside the page, when the page has not loaded it) and then shim.js,
// which joins the channel. syncTest and playReplay join none. The two
// scripts are imported with literal paths, so a bundler carries them; the
// wasm is new URL("./ticnet.wasm", import.meta.url), which webpack, Vite
// and Parcel carry (esbuild does not: copy it beside the bundle, or give
// wasmURL). A page that loads shim.js or wasm_exec.js with its own script
// tags, as earlier versions asked, keeps working: what is there already is
// not loaded again.

// WASM_URL is where ticnet.wasm is unless options.wasmURL says: beside
// this module (written out in full so that bundlers see it).
const WASM_URL = new URL("./ticnet.wasm", import.meta.url);

// runtime loads wasm_exec.js, once, unless the page did.
let runtimePromise = null;
function runtime() {
  if (typeof globalThis.Go === "function") return Promise.resolve();
  runtimePromise ||= import("./wasm_exec.js").then(() => {
    if (typeof globalThis.Go !== "function") throw new Error("ticnet: wasm_exec.js did not define Go");
  });
  return runtimePromise;
}

// channelShim loads the messenger's webxdc.js when the page has not (it
// is the messenger's, beside the page: a failed load means no messenger),
// then shim.js, which joins its realtime channel or else a
// BroadcastChannel: once, unless the page loaded the shim itself.
let shimPromise = null;
function channelShim() {
  if (globalThis.__ticnetShim) return Promise.resolve(globalThis.__ticnetShim);
  shimPromise ||= (async () => {
    if (globalThis.webxdc === undefined && globalThis.document) {
      await new Promise((resolve) => {
        const s = Object.assign(document.createElement("script"), { src: new URL("webxdc.js", document.baseURI).href });
        s.onload = s.onerror = resolve;
        document.head.append(s);
      });
    }
    await import("./shim.js");
    if (!globalThis.__ticnetShim) throw new Error("ticnet: shim.js did not start");
    return globalThis.__ticnetShim;
  })();
  return shimPromise;
}

// chatName is the chat member's name inside a messenger (webxdc.selfName),
// cut to the bytes a player's name may have; undefined elsewhere, where
// the wasm's default applies.
function chatName(shim, maxBytes) {
  const self = shim.kind === "webxdc" ? globalThis.webxdc?.selfName : undefined;
  if (typeof self !== "string" || self === "") return undefined;
  const utf8 = new TextEncoder();
  let name = "";
  for (const ch of self) {
    if (utf8.encode(name + ch).length > maxBytes) break;
    name += ch;
  }
  return name;
}

// The options' limits and defaults, and the fields of each event, are
// the wasm's (session's schema.go): it hands the first over as
// core.schema, and builds every event with all the fields of its kind.
// Launch options travel as a tag byte, then the bytes (OPTIONS_BYTES) or
// JSON in UTF-8 (OPTIONS_JSON).
const OPTIONS_BYTES = 0, OPTIONS_JSON = 1;

// encodeLaunch checks what launch was given and returns its seed and its
// options' bytes (at most maxBytes), or throws naming what is wrong.
function encodeLaunch(opts, maxBytes) {
  if (opts === null || typeof opts !== "object") throw new Error("ticnet: launch: its argument must be an object");
  for (const k of Object.keys(opts)) if (k !== "options" && k !== "seed") throw new Error(`ticnet: launch: unknown option ${k}`);
  let seed = opts.seed;
  if (seed === undefined) seed = crypto.getRandomValues(new Uint32Array(1))[0];
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new Error("ticnet: launch: seed must be an integer from 0 to 2^32-1");
  let bytes = new Uint8Array(0);
  if (opts.options instanceof Uint8Array) {
    bytes = new Uint8Array(1 + opts.options.length);
    bytes[0] = OPTIONS_BYTES;
    bytes.set(opts.options, 1);
  } else if (opts.options !== undefined) {
    const text = JSON.stringify(opts.options);
    if (text === undefined) throw new Error("ticnet: launch: options must be a Uint8Array or a JSON value");
    const utf8 = new TextEncoder().encode(text);
    bytes = new Uint8Array(1 + utf8.length);
    bytes[0] = OPTIONS_JSON;
    bytes.set(utf8, 1);
  }
  if (bytes.length > maxBytes) {
    throw new Error(`ticnet: launch: options take ${bytes.length} bytes, at most ${maxBytes}`);
  }
  return { seed, bytes };
}

// decodeOptions turns the options of a "start" event (a Uint8Array, as the
// Go side sends them; undefined for none) back into what launch was given:
// a Uint8Array, a JSON value, or undefined for none.
function decodeOptions(bytes) {
  if (!bytes || bytes.length === 0) return undefined;
  if (bytes[0] === OPTIONS_BYTES) return bytes.subarray(1);
  try { return JSON.parse(new TextDecoder().decode(bytes.subarray(1))); } catch { return undefined; }
}
const CMD_BYTES = 8; // per player: forward i8, side i8, turn i16 LE, buttons u8, chat u8, 2 spare
const MAX_PLAYERS = 8;
const SUM_BYTES = 4; // per player: a playerChecksum, u32 LE

async function instantiate(url, imports) {
  // Old Android webviews serve .wasm with a wrong MIME type, which
  // instantiateStreaming refuses: fall back to fetching the bytes.
  if (WebAssembly.instantiateStreaming) {
    try {
      return await WebAssembly.instantiateStreaming(fetch(url), imports);
    } catch (e) {
      console.warn("ticnet: instantiateStreaming failed, falling back:", e);
    }
  }
  const bytes = await (await fetch(url)).arrayBuffer();
  return WebAssembly.instantiate(bytes, imports);
}

function decodeCmds(buf, ingameMask) {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const cmds = [], ingame = [];
  for (let p = 0; p < MAX_PLAYERS; p++) {
    const on = (ingameMask >> p & 1) === 1;
    ingame.push(on);
    if (!on) { cmds.push(null); continue; }
    const o = p * CMD_BYTES;
    cmds.push({
      forward: view.getInt8(o), side: view.getInt8(o + 1), turn: view.getInt16(o + 2, true),
      buttons: view.getUint8(o + 4), chat: view.getUint8(o + 5),
    });
  }
  return { cmds, ingame };
}

// decodeInputs is decodeCmds for opaque input: each player's bytes, a copy
// the game may keep.
function decodeInputs(buf, ingameMask, size) {
  const cmds = [], ingame = [];
  for (let p = 0; p < MAX_PLAYERS; p++) {
    const on = (ingameMask >> p & 1) === 1;
    ingame.push(on);
    cmds.push(on ? buf.slice(p * size, (p + 1) * size) : null);
  }
  return { cmds, ingame };
}

// cmdBufFor is the buffer the wasm writes each tic's commands into.
const cmdBufFor = (options) => new Uint8Array(MAX_PLAYERS * Math.max(CMD_BYTES, options.inputSize | 0));

// rejoinToken returns this copy's rejoin token (32 hex digits) and keeps
// it: in sessionStorage, which a reload keeps, and in localStorage, which
// a restart of the app inside a messenger keeps. Tabs of one browser share
// localStorage, so a tab holds a Web Lock named after its token while it
// lives: a token whose lock another tab holds is that tab's, and this copy
// takes a new one. (Without Web Locks the server sorts it out: a token
// whose player is still connected joins as a new player.)
async function rejoinToken(key) {
  const valid = (t) => typeof t === "string" && /^[0-9a-f]{32}$/.test(t);
  const read = (store) => { try { return store.getItem(key); } catch (e) { return null; } };
  const write = (store, t) => { try { store.setItem(key, t); } catch (e) { /* storage off */ } };
  // hold takes the token's lock for the life of the page; waitMS > 0 waits
  // that long for it (a reloaded page's lock is freed a moment after).
  const hold = (t, waitMS) => {
    const locks = globalThis.navigator && navigator.locks;
    if (!locks) return Promise.resolve(true);
    return new Promise((resolve) => {
      const opts = {};
      let timer;
      if (waitMS > 0) {
        const abort = new AbortController();
        opts.signal = abort.signal;
        timer = setTimeout(() => abort.abort(), waitMS);
      } else {
        opts.ifAvailable = true;
      }
      locks.request("ticnet-token:" + t, opts, (lock) => {
        clearTimeout(timer);
        resolve(lock !== null);
        if (lock !== null) return new Promise(() => {}); // held until the page goes
      }).catch(() => resolve(false)); // aborted: another tab has it
    });
  };
  let token = read(sessionStorage);
  if (!valid(token) || !(await hold(token, 1500))) {
    token = read(localStorage);
    if (!valid(token) || !(await hold(token, 0))) {
      token = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
      await hold(token, 0);
    }
  }
  write(sessionStorage, token);
  write(localStorage, token);
  return token;
}

function clamp8(v) { return Math.max(-128, Math.min(127, v | 0)); }

// The wasm, started once per page: start and syncTest share it.
let corePromise = null;
function loadCore(wasmURL) {
  if (!corePromise) {
    corePromise = (async () => {
      await runtime();
      const go = new globalThis.Go();
      const { instance } = await instantiate(wasmURL || WASM_URL, go.importObject);
      go.run(instance); // returns when the Go program exits; the engine keeps running
      for (let i = 0; i < 200 && !globalThis.__ticnetGo; i++) await new Promise((r) => setTimeout(r, 5));
      if (!globalThis.__ticnetGo) throw new Error("ticnet: the wasm did not start");
      return globalThis.__ticnetGo;
    })();
  }
  return corePromise;
}

// checkGame throws unless options has the callbacks a game must give
// (required), and save and load together (needSave: both).
function checkGame(options, needSave, required = ["input", "onTic", "checksum"]) {
  if (options === null || typeof options !== "object") throw new Error("ticnet: options must be an object");
  for (const f of required) {
    if (typeof options[f] !== "function") throw new Error(`ticnet: options.${f} must be a function`);
  }
  if ((options.save === undefined) !== (options.load === undefined)) {
    throw new Error("ticnet: give both options.save and options.load, or neither");
  }
  if (needSave && typeof options.save !== "function") {
    throw new Error("ticnet: options.save and options.load must be functions");
  }
}

// wrongIn returns what is wrong with v as the option spec (one of the
// schema's: check, min, max, maxBytes, values) has it, or "".
function wrongIn(spec, v) {
  switch (spec.check) {
    case "int": {
      const also = spec.values || [];
      if ((Number.isInteger(v) && v >= spec.min && v <= spec.max) || also.includes(v)) return "";
      return `must be an integer from ${spec.min} to ${spec.max}` + also.map((x) => ` or ${JSON.stringify(x)}`).join("");
    }
    case "number":
      return typeof v === "number" && Number.isFinite(v) && v >= spec.min ? "" : `must be a number, ${spec.min} or more`;
    case "oneOf":
      return spec.values.includes(v) ? "" : `must be ${spec.values.map((x) => JSON.stringify(x)).join(" or ")}`;
    case "object":
      return v === null || typeof v !== "object" ? "must be an object" : "";
    case "bytes":
      return !Array.isArray(v) && !(v instanceof Uint8Array) ? "must be an array of bytes" :
        [...v].some((b) => !Number.isInteger(b) || b < 0 || b > 255) ? "must hold integers from 0 to 255" : "";
    case "string": {
      if (typeof v !== "string") return "must be a string";
      const n = spec.maxBytes ? new TextEncoder().encode(v).length : 0;
      return n > spec.maxBytes ? `is ${n} bytes in UTF-8, at most ${spec.maxBytes}` : "";
    }
    default: // "boolean", "function"
      return typeof v === spec.check ? "" : `must be a ${spec.check}`;
  }
}

// checkKeys throws, naming the option (prefix: where it sits), on a key
// of obj that specs (the schema's options by name) does not know, or
// whose value is wrong.
function checkKeys(specs, obj, prefix, where = "") {
  for (const [key, v] of Object.entries(obj)) {
    if (!Object.hasOwn(specs, key)) throw new Error(`ticnet: ${where}unknown option ${prefix}${key}`);
    if (v === undefined) continue;
    const wrong = wrongIn(specs[key], v);
    if (wrong) throw new Error(`ticnet: ${where}options.${prefix}${key} ${wrong}`);
  }
}

// checkOptions throws, naming the option, on one start does not know or
// whose value is out of range.
function checkOptions(schema, options) {
  checkKeys(schema.start, options, "");
  if (options.settings) checkKeys(schema.settings, options.settings, "settings.");
  if (Number.isInteger(options.minInputDelay) && Number.isInteger(options.maxInputDelay) && options.minInputDelay > options.maxInputDelay) {
    throw new Error(`ticnet: options.minInputDelay (${options.minInputDelay}) is more than options.maxInputDelay (${options.maxInputDelay})`);
  }
  if (options.eventBits !== undefined && options.eventBits.length > (options.inputSize | 0)) {
    throw new Error(`ticnet: options.eventBits has ${options.eventBits.length} bytes, more than options.inputSize (${options.inputSize | 0})`);
  }
}

// gameCallbacks are the game's callbacks as the wasm calls them. An
// exception in one is kept in failure (the first: callback, tic, message,
// stack) and thrown on: the wasm sees it, and the copy leaves its game.
function gameCallbacks(options, cmdBuf) {
  let tic = 0; // the tic the game is at: the last run, or being built
  const size = options.inputSize | 0; // opaque input of this many bytes; 0: TicCmd
  const guard = (name, fn) => {
    try {
      return fn();
    } catch (e) {
      if (!callbacks.failure) {
        callbacks.failure = { callback: name, tic, message: String((e && e.message) || e), stack: String((e && e.stack) || "") };
      }
      throw e;
    }
  };
  // input writes the local player's command into inBuf, which the wasm
  // copies in one call: as a player's command in cmdBuf, or the opaque
  // input.
  const inBuf = new Uint8Array(Math.max(CMD_BYTES, size)), inView = new DataView(inBuf.buffer);
  const callbacks = {
    cmdBuf,
    inBuf,
    failure: null,
    ranAt: 0, // performance.now() when onTic last returned
    input(t) {
      tic = t;
      guard("input", () => {
        if (size) {
          const v = options.input(t);
          if (!(v instanceof Uint8Array) || v.length !== size) {
            throw new Error(`ticnet: options.input must return a Uint8Array of inputSize (${size}) bytes, not ${v instanceof Uint8Array ? v.length + " bytes" : typeof v}`);
          }
          inBuf.set(v);
          return;
        }
        const c = options.input(t) || {};
        inView.setInt8(0, clamp8(c.forward));
        inView.setInt8(1, clamp8(c.side));
        inView.setInt16(2, Math.max(-32768, Math.min(32767, c.turn | 0)), true);
        inView.setUint8(4, (c.buttons | 0) & 0x7f);
        inView.setUint8(5, (c.chat | 0) & 0xff);
      });
    },
    // onTic returns whether the game is over after the tic (its over,
    // asked in the same call: no second crossing a tic).
    onTic(t, mask, subs) {
      tic = t;
      guard("onTic", () => {
        const { cmds, ingame } = size ? decodeInputs(cmdBuf, mask, size) : decodeCmds(cmdBuf, mask);
        const substituted = [];
        for (let p = 0; p < MAX_PLAYERS; p++) substituted.push((subs >> p & 1) === 1);
        options.onTic(t, cmds, ingame, substituted);
      });
      callbacks.ranAt = performance.now();
      return options.over ? guard("over", () => options.over() === true) : false;
    },
    checksum() { return guard("checksum", () => options.checksum() >>> 0); },
  };
  if (options.save) {
    // With both, this copy can join a game in progress, and give the state
    // to a copy that joins.
    // save copies the state into saveBuf (a new, larger one when it does
    // not fit) and returns its length: the wasm copies it from there.
    callbacks.saveBuf = new Uint8Array(1024);
    callbacks.save = () => guard("save", () => {
      const state = options.save();
      if (!(state instanceof Uint8Array)) throw new Error("ticnet: options.save must return a Uint8Array");
      if (state.length > callbacks.saveBuf.length) callbacks.saveBuf = new Uint8Array(Math.max(state.length, 2 * callbacks.saveBuf.length));
      callbacks.saveBuf.set(state);
      return state.length;
    });
    callbacks.load = (state) => { guard("load", () => options.load(state)); };
  }
  if (options.onConfirmed) {
    callbacks.onConfirmed = (t, sum) => {
      tic = t;
      guard("onConfirmed", () => options.onConfirmed(t, sum >>> 0));
    };
  }
  if (options.playerChecksum) {
    // One call from the engine a tic: every player in the game's own
    // checksum, into sumBuf.
    const sumBuf = new Uint8Array(MAX_PLAYERS * SUM_BYTES), sums = new DataView(sumBuf.buffer);
    callbacks.sumBuf = sumBuf;
    callbacks.playerSums = (mask) => guard("playerChecksum", () => {
      for (let p = 0; p < MAX_PLAYERS; p++) {
        if (mask >> p & 1) sums.setUint32(p * SUM_BYTES, options.playerChecksum(p) >>> 0, true);
      }
    });
  }
  return callbacks;
}

/**
 * Checks that a game is deterministic (GGRS's SyncTest), in this page and
 * without a network: runs it tic by tic and after every tic loads the
 * state of the last options.rollback tics back (default 8) and runs them
 * again with the same commands, for options.tics tics (default 1000), with
 * options.players players (default 2; player 0's commands come from
 * input, the others' from a fixed pseudo-random sequence). Resolves to
 * { ok: true, tics } or { ok: false, tic, at, checksum, rerun,
 * stateOffset, message }: the first tic that ran differently, the tic
 * after which it was run again, both checksums and the first byte where
 * the saved states differ (-1: they do not), or only a message (a
 * callback threw). Run it before start, not during a game.
 */
export async function syncTest(options) {
  checkGame(options, true);
  const core = await loadCore(options.wasmURL);
  const cmdBuf = cmdBufFor(options);
  const config = { tics: options.tics | 0, rollback: options.rollback | 0, players: options.players | 0,
    inputSize: options.inputSize | 0, eventBits: [...(options.eventBits || [])] };
  return core.syncTest(config, gameCallbacks(options, cmdBuf));
}

// eventHub hands each event to onEvent, then to the listeners of its
// kind (on, off). A listener that throws is logged, and stops neither the
// others nor the engine.
function eventHub(onEvent) {
  const listeners = new Map();
  return {
    /** Whether anyone hears events of kind. */
    heard: (kind) => !!onEvent || (listeners.get(kind) || []).length > 0,
    emit(e) {
      const call = (fn) => { try { fn(e); } catch (err) { console.error("ticnet: an event listener threw:", err); } };
      if (onEvent) call(onEvent);
      for (const fn of [...(listeners.get(e.kind) || [])]) call(fn);
    },
    on(kind, fn) {
      if (typeof fn !== "function") throw new Error("ticnet: on: fn must be a function");
      if (!listeners.has(kind)) listeners.set(kind, []);
      listeners.get(kind).push(fn);
    },
    off(kind, fn) {
      const fns = listeners.get(kind) || [];
      const i = fns.indexOf(fn);
      if (i >= 0) fns.splice(i, 1);
    },
  };
}

// tokens are the rejoin tokens this page holds, by storage key: a
// session started again keeps its copy's.
const tokens = {};
// sessions counts the sessions start started: the last is the live one.
let sessions = 0;

// watchPage has the page's life reach the session, once per page.
let watching = false;
function watchPage(core) {
  if (watching) return;
  watching = true;
  // A closing page says goodbye, so that the others need not wait for the
  // timeout. (pagehide, not unload: unload is unreliable, and forbidden in
  // some messengers.)
  addEventListener("pagehide", (e) => { if (!e.persisted) core.leaveNow(); else core.setHidden(true); });
  // A hidden page (another tab, a backgrounded messenger, a locked phone)
  // runs its timers once a second at best, and a frozen one not at all:
  // its server hands the game over at once to a visible copy and plays on
  // as a client; and it serves again only when no visible copy can.
  const visibility = () => core.setHidden(document.hidden);
  document.addEventListener("visibilitychange", visibility);
  document.addEventListener("freeze", () => core.setHidden(true));
  document.addEventListener("resume", visibility);
  addEventListener("pageshow", (e) => { if (e.persisted) visibility(); });
}

/**
 * Starts ticnet: loads the shim (joining the channel) and the wasm, joins
 * the election, and reports through options.onEvent. Resolves once the
 * engine runs. A page runs one session at a time: start rejects while
 * the last runs, and after its leave() or its "error" event makes a new
 * one (the old Session's launch, leave and endGame then do nothing).
 */
export async function start(options) {
  checkGame(options, false);
  // The channel joins while the wasm loads, and queues what arrives.
  const [shim, core] = await Promise.all([channelShim(), loadCore(options.wasmURL)]);
  checkOptions(core.schema, options);
  const opt = (name) => options[name] === undefined ? core.schema.start[name].default : options[name];
  // Prediction needs save and load; it is on by default when the game
  // gives them.
  const predict = options.predict === undefined ? typeof options.save === "function" : options.predict === true;
  if (predict && typeof options.save !== "function") throw new Error("ticnet: options.predict needs options.save and options.load");
  const key = "ticnet-token:" + (options.storageKey || location.pathname);
  // A page that starts again keeps its token (it holds its lock).
  const token = opt("rejoin") ? await (tokens[key] ||= rejoinToken(key)) : "";

  const cmdBuf = cmdBufFor(options);
  const hub = eventHub(options.onEvent);
  const emit = (e) => {
    if (e.kind === "start") {
      e.options = decodeOptions(e.options);
      ticMS = 1000 / e.ticRate;
    }
    if (e.kind === "lobby") lobby = e.lobby;
    if (e.kind === "start" || e.kind === "serverLost" || e.kind === "disconnect" || e.kind === "error") lobby = null;
    hub.emit(e);
  };
  let lobby = null; // the lobby as last reported, while this copy is in one
  let ticMS = 1000 / opt("ticRate"); // the running game's, once it starts
  const profile = options.profile || (shim.kind === "webxdc" ? "gossip" : "local");
  // The options as the page gave them (the wasm gives an absent one its
  // default), and what this page computes.
  const config = {
    name: options.name ?? chatName(shim, core.schema.start.name.maxBytes), maxPlayers: options.maxPlayers, timeout: options.timeout, record: options.record,
    keepStates: options.keepStates, watch: options.watch, predictTics: options.predictTics, inputDelay: options.inputDelay, minInputDelay: options.minInputDelay, maxInputDelay: options.maxInputDelay,
    ticRate: options.ticRate, settings: options.settings,
    inputSize: options.inputSize | 0,
    eventBits: [...(options.eventBits || [])],
    predict,
    profile,
    startTime: Date.now(),
    token,
  };
  const callbacks = gameCallbacks(options, cmdBuf);
  callbacks.onEvent = emit;

  // A page runs one session at a time: it may start again once the last
  // has ended (leave, or an "error"), and the new one replaces it.
  const refused = core.start(config, callbacks);
  if (refused !== "") throw new Error(`ticnet: start: ${refused || "the wasm did not start"}`);
  const session = ++sessions;
  const live = () => session === sessions;
  watchPage(core);
  if (document.hidden) core.setHidden(true);

  return {
    /**
     * Launches the game, with options (a Uint8Array or a JSON value, at
     * most 1 KB) and a seed (default: random) that every copy gets in its
     * "start" event. Only the lobby's controller may: on another copy, or
     * outside a lobby, it rejects with the reason; so it does on bad
     * options.
     */
    launch(opts = {}) {
      if (!live()) return Promise.reject(new Error("ticnet: launch: this session has ended: start made another"));
      if (!lobby) return Promise.reject(new Error("ticnet: launch: this copy is in no lobby"));
      if (!lobby.controller) return Promise.reject(new Error("ticnet: launch: only the lobby's controller may launch (its first player)"));
      let l;
      try { l = encodeLaunch(opts, core.schema.launchOptionsBytes); } catch (e) { return Promise.reject(e); }
      core.launch(l.seed, l.bytes);
      return Promise.resolve();
    },
    /** Leaves the game cleanly; start may then start another session. */
    leave() { if (live()) core.leave(); },
    /**
     * Ends the game (TICNET_1 only): on the lobby's controller it ends it,
     * and every copy gets "end" and is back in its lobby; on another copy
     * it asks the controller, which gets "endAsked" and decides.
     */
    endGame() { if (live()) core.end(); },
    /**
     * How far the game is from its last tic to the next, 0 to 1, by the
     * clock: draw the state between the last two tics at this fraction.
     */
    fraction() { return Math.min(1, Math.max(0, (performance.now() - callbacks.ranAt) / ticMS)); },
    /** The netcode's live numbers. */
    stats() { return Object.assign(core.stats(), { channel: { ...shim.stats, kind: shim.kind } }); },
    /**
     * This copy's replay file of its game so far (or of its last game,
     * until the next records its first tic), a new Uint8Array; null when
     * it records none (options.record false, or no game yet).
     */
    replay() { return core.replay(); },
    /** Calls fn for every event of kind. */
    on: hub.on,
    /** Stops calling fn for events of kind (as on added it). */
    off: hub.off,
  };
}

// REPLAY_PASS_MS bounds the game work of one pass of a playback, as the
// engine's catching up does (~40 ms): at speed 0 the page stays
// responsive between passes.
const REPLAY_PASS_MS = 40;

/**
 * Plays a replay file (net.replay()'s bytes, a Uint8Array or an
 * ArrayBuffer) back into a game: options are the game's callbacks as
 * start takes them (onTic, checksum; save and load to start from a
 * snapshot and to seek back; playerChecksum to name the players whose
 * state differs; inputSize when its input is its own bytes), wasmURL,
 * onEvent, speed (a multiple of the recorded tic rate, default 1; 0: as
 * fast as the page allows), paused (default false) and setup, called
 * with the replay's facts (players, start, ticRate, seed, options,
 * protocol, inputSize) before any other callback, the first snapshot's
 * load included: set the game up there from seed and options, as a start
 * event would. Resolves, once the game stands at the replay's first tic,
 * to a controller: the replay's
 * facts, seek, pause, resume, setSpeed and events ("progress" every tic,
 * "mismatch" at the first recorded checksum that differs, "done" at the
 * end, "error" when a callback throws). Rejects, with the reason, on bytes
 * that are not a whole replay file, a replay of another kind of input, a
 * setup that throws, and a state the game's load refuses.
 */
export async function playReplay(bytes, options) {
  if (bytes instanceof ArrayBuffer) bytes = new Uint8Array(bytes);
  if (!(bytes instanceof Uint8Array)) throw new Error("ticnet: playReplay: bytes must be a Uint8Array or an ArrayBuffer");
  checkGame(options, false, ["onTic", "checksum"]);
  const core = await loadCore(options.wasmURL);
  const specs = core.schema.replay;
  checkKeys(specs, options, "", "playReplay: ");
  const opt = (name) => options[name] === undefined ? specs[name].default : options[name];
  const hub = eventHub(options.onEvent);
  let facts = null;
  // The game's onTic, then the tic's "progress" (from the same call from
  // the engine: none more per tic).
  const game = {
    ...options,
    onTic(tic, cmds, ingame, substituted) {
      options.onTic(tic, cmds, ingame, substituted);
      if (hub.heard("progress")) hub.emit({ kind: "progress", tic, start: facts.start, end: facts.end });
    },
  };
  const callbacks = gameCallbacks(game, new Uint8Array(MAX_PLAYERS * Math.max(CMD_BYTES, specs.inputSize.max)));
  // setup sets the game up from the replay's facts before any load: the
  // launch options as launch was given them.
  if (options.setup) callbacks.setup = (facts) => options.setup({ ...facts, options: decodeOptions(facts.options) });
  const opened = core.replayOpen(bytes, callbacks, options.inputSize | 0);
  if (opened.error) throw new Error(`ticnet: playReplay: ${opened.error}`);
  facts = opened;
  const id = opened.id, ticRate = opened.ticRate;

  let speed = opt("speed");
  let paused = opt("paused"), closed = false, timer = 0;
  // Where the playback stands (the last replayStatus), and what the page
  // was told of it.
  let status = { tic: opened.start, tics: 0, checked: 0, mismatches: 0, done: false, failed: false, mismatch: null, error: "" };
  let toldMismatch = false;
  // The pace: tic paceTic was due at paceMS, and each after it 1000 /
  // (ticRate * speed) ms later.
  let paceMS = 0, paceTic = 0;
  const repace = () => { paceMS = performance.now(); paceTic = status.tic; };
  const ticMS = () => 1000 / (ticRate * speed);

  // take applies a status from the wasm and tells what changed.
  const take = (st) => {
    const was = status;
    status = st;
    if (st.mismatch && !toldMismatch) {
      toldMismatch = true;
      hub.emit({ kind: "mismatch", ...st.mismatch });
    }
    if (st.failed && !was.failed) {
      hub.emit(Object.assign({ kind: "error", reason: st.error },
        callbacks.failure || { callback: "", tic: st.tic, message: st.error, stack: "" }));
    } else if (st.done && !was.done) {
      hub.emit({ kind: "done", tics: st.tics, checked: st.checked, mismatches: st.mismatches, mismatch: st.mismatch || null });
    }
    return st;
  };
  const running = () => !paused && !closed && !status.failed && !status.done;
  const schedule = (ms) => { clearTimeout(timer); timer = running() ? setTimeout(pass, Math.max(0, ms)) : 0; };
  // pass runs the tics due (at speed 0: a pass's worth) in one call.
  function pass() {
    timer = 0;
    if (!running()) return;
    let n = opened.end - status.tic;
    if (speed > 0) n = Math.min(n, paceTic + Math.floor((performance.now() - paceMS) / ticMS()) + 1 - status.tic);
    if (n > 0 || status.tic === opened.end) take(core.replayRun(id, n, REPLAY_PASS_MS));
    schedule(speed > 0 ? paceMS + (status.tic - paceTic) * ticMS() - performance.now() : 0);
  }

  const controller = {
    /** The first tic recorded, and one past the last. */
    start: opened.start, end: opened.end,
    /** The players' names, by player number. */
    players: opened.players,
    /** The recorded game's tics a second, seed, launch options and protocol. */
    ticRate, seed: opened.seed || 0, options: decodeOptions(opened.options), protocol: opened.protocol,
    /** Bytes of input per player (0: Doom's ticcmd). */
    inputSize: opened.inputSize,
    /** The tics seek can load a state at (the game can save and load). */
    snapshots: opened.snapshots,
    /** The next tic to run: the game's state is the state before it. */
    tic() { return status.tic; },
    /** What the playback has run and compared so far. */
    result() { return { tics: status.tics, checked: status.checked, mismatches: status.mismatches, mismatch: status.mismatch || null, done: status.done }; },
    /**
     * Sets the game at tic (the state before it), from the newest
     * snapshot at or before it (load), running the tics after; it throws
     * when it cannot (outside the recording; back, without a snapshot).
     */
    seek(tic) {
      if (closed) throw new Error("ticnet: seek: the playback is closed");
      if (status.failed) throw new Error("ticnet: seek: the playback stopped: the game's callback threw");
      if (!Number.isInteger(tic)) throw new Error("ticnet: seek: tic must be an integer");
      const st = core.replaySeek(id, tic);
      if (st.error && !st.failed) throw new Error(`ticnet: seek: ${st.error}`);
      take(st);
      repace();
      schedule(0);
    },
    pause() { paused = true; schedule(0); },
    resume() { paused = false; repace(); schedule(0); },
    paused() { return paused; },
    /** Plays at speed times the recorded tic rate (0: as fast as the page allows). */
    setSpeed(s) {
      const wrong = wrongIn(specs.speed, s);
      if (wrong) throw new Error(`ticnet: setSpeed: speed ${wrong}`);
      speed = s;
      repace();
      schedule(0);
    },
    /** How far from the last tic to the next, 0 to 1, at the playback's pace (1 when it stands). */
    fraction() { return running() && speed > 0 ? Math.min(1, Math.max(0, (performance.now() - callbacks.ranAt) / ticMS())) : 1; },
    /** Calls fn for every event of kind. */
    on: hub.on,
    /** Stops calling fn, as on added it. */
    off: hub.off,
    /** Stops the playback and frees it. */
    close() { closed = true; schedule(0); core.replayClose(id); },
  };
  // The first pass comes on the next task: the page's code after its
  // await (its listeners) runs first.
  repace();
  schedule(0);
  return controller;
}

/**
 * diffStates compares two states the game's save returned (a
 * "desyncStates" event's after, say, beside a copy of the majority's):
 * the runs of bytes where they differ (past the shorter one's end, every
 * byte), and, given describe (the game's own reading of a state, a flat
 * object of field name to value), the fields whose values differ, in the
 * order describe gives them. Runs no wasm and joins no channel.
 * @param {Uint8Array} a
 * @param {Uint8Array} b
 * @param {(state: Uint8Array) => Record<string, unknown>} [describe]
 */
export function diffStates(a, b, describe) {
  if (!(a instanceof Uint8Array) || !(b instanceof Uint8Array)) throw new Error("ticnet: diffStates: the states must be Uint8Arrays");
  /** @type {{offset: number, length: number}[]} */
  const runs = [];
  let bytes = 0;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (i < a.length && i < b.length && a[i] === b[i]) continue;
    bytes++;
    const last = runs[runs.length - 1];
    if (last && last.offset + last.length === i) last.length++;
    else runs.push({ offset: i, length: 1 });
  }
  let fields = null;
  if (describe) {
    const fa = describe(a), fb = describe(b);
    fields = [];
    for (const name of new Set([...Object.keys(fa), ...Object.keys(fb)])) {
      if (JSON.stringify(fa[name]) !== JSON.stringify(fb[name])) fields.push({ name, a: fa[name], b: fb[name] });
    }
  }
  return { same: bytes === 0, bytes, runs, fields };
}
