// ticnet channel shim: joins the channel before the wasm is ready, and
// queues what arrives. ticnet.js imports it when start is first called,
// after the messenger's webxdc.js; a page may load it itself, as a classic
// script, after webxdc.js in a WebXDC app (ticnet.js then uses that one).
//
// The channel is webxdc.joinRealtimeChannel() inside a messenger, else a
// BroadcastChannel named after the page. Go pulls every queued frame with
// one call (drain) and pushes its frames with one call (sendBatch): calls
// between JS and Go are costly, so there are none per packet.
(function () {
  "use strict";
  const MAX_FRAME = 128000;      // the realtime channel's limit
  const MAX_QUEUED = 4096;       // frames; the oldest are kept, new ones dropped
  const MAX_QUEUED_BYTES = 4 << 20;

  const stats = { framesIn: 0, bytesIn: 0, framesOut: 0, bytesOut: 0, dropped: 0, filtered: 0, oversize: 0 };
  const queue = [];
  let queuedBytes = 0, woken = false;
  let inbox = new Uint8Array(0), outbox = new Uint8Array(0); // the wasm's (setBuffers)
  let uids = null;  // Set of UIDs to keep frames for; null keeps all (before Go says)
  let stallUntil = 0, stallQueue = []; // test hook: hold outgoing frames

  function keep(f) {
    if (f.length === 4 || f.length === 16) return true; // election messages have no frame header
    if (f.length < 8) return false;
    const to = (f[0] | f[1] << 8 | f[2] << 16 | f[3] << 24) >>> 0;
    return uids === null || to === 0 || uids.has(to);
  }

  // Test hook: a page that sets globalThis.__ticnetTestDelay = { min, max,
  // loss, duplicate } before this script runs (the e2e tests inject it
  // before the page's own scripts) gets every frame it receives
  // after its own uniform random delay in [min, max] ms: each link has its
  // own delays and frames overtake each other, as on a real relay. With
  // loss (0 to 1) it loses that share of the frames it receives, and with
  // duplicate it receives that share twice, each copy with its own delay.
  // Unset, frames are taken at once.
  const testDelay = globalThis.__ticnetTestDelay;
  const testLost = { frames: 0, duplicated: 0 }; // what the hook did
  // Test hook: a page that sets globalThis.__ticnetHoldOutgoingMS = MS
  // before this script runs (the demo does for ?delay=MS) has every frame
  // it sends held MS ms first: with it in every tab, a round trip takes
  // at least twice MS.
  const holdOutgoingMS = Number(globalThis.__ticnetHoldOutgoingMS) || 0;

  function onFrame(data) {
    const f = data instanceof Uint8Array ? data : new Uint8Array(data);
    if (!testDelay) { take(f); return; }
    if (Math.random() < (testDelay.loss || 0)) { testLost.frames++; return; }
    const copies = Math.random() < (testDelay.duplicate || 0) ? 2 : 1;
    testLost.duplicated += copies - 1;
    const min = testDelay.min || 0, max = testDelay.max || min;
    for (let i = 0; i < copies; i++) setTimeout(take, min + Math.random() * (max - min), f);
  }

  function take(f) {
    if (!keep(f)) { stats.filtered++; return; }
    if (queue.length >= MAX_QUEUED || queuedBytes + f.length > MAX_QUEUED_BYTES) { stats.dropped++; return; }
    queue.push(f);
    queuedBytes += f.length;
    stats.framesIn++;
    stats.bytesIn += f.length;
    // A hidden page's timers run once a second at best: the frame wakes
    // the net loop (once until it drains).
    const go = globalThis.__ticnetGo;
    if (!woken && go && go.wake && globalThis.document && document.hidden) {
      woken = true;
      go.wake();
    }
  }

  let channel, kind;
  const wx = globalThis.webxdc;
  if (wx && wx.joinRealtimeChannel !== undefined) {
    kind = "webxdc";
    // Delta Chat desktop throws on a second join after a reload: keep the
    // channel on window.top and leave it before joining again.
    const top = globalThis.top || globalThis;
    try { if (top.__ticnetChannel) top.__ticnetChannel.leave(); } catch (e) { /* already gone */ }
    channel = wx.joinRealtimeChannel();
    try { top.__ticnetChannel = channel; } catch (e) { /* cross-origin top */ }
    channel.setListener(onFrame);
  } else {
    kind = "broadcast";
    channel = new BroadcastChannel("ticnet:" + location.pathname);
    channel.onmessage = (e) => onFrame(e.data);
  }

  function rawSend(f) {
    if (f.length > MAX_FRAME) { stats.oversize++; return; }
    if (holdOutgoingMS > 0) { setTimeout(put, holdOutgoingMS, f); return; }
    put(f);
  }

  function put(f) {
    stats.framesOut++;
    stats.bytesOut += f.length;
    if (kind === "webxdc") channel.send(f); else channel.postMessage(f);
  }

  globalThis.__ticnetShim = {
    kind,
    stats,
    testDelay, // the delay hook's { min, max, loss, duplicate }, or undefined: tests check it is on
    testLost, // the frames the delay hook lost and duplicated
    holdOutgoingMS, // the outgoing hold hook's ms, or 0
    // setBuffers gives the shim the Uint8Arrays frames cross in, from the
    // channel to the wasm and back: the wasm makes them once, and anew,
    // larger, when frames do not fit.
    setBuffers(into, from) { inbox = into; outbox = from; },
    // drain writes every queued frame into the inbox as [u32 LE
    // length][frame]... and returns the bytes written: 0 when none is
    // queued. When they do not fit it writes nothing and returns the bytes
    // they need, more than the inbox's length: the wasm calls again with
    // an inbox that large.
    drain() {
      woken = false;
      const need = queuedBytes + 4 * queue.length, buf = inbox;
      if (need > buf.length) return need;
      let o = 0;
      for (const f of queue) {
        buf[o] = f.length; buf[o + 1] = f.length >> 8; buf[o + 2] = f.length >> 16; buf[o + 3] = f.length >>> 24;
        buf.set(f, o + 4);
        o += 4 + f.length;
      }
      queue.length = 0; queuedBytes = 0;
      return o;
    },
    // sendBatch sends every frame of the outbox's first n bytes, laid out
    // as drain's.
    sendBatch(n) {
      const now = performance.now(), buf = outbox;
      for (let o = 0; o + 4 <= n;) {
        const k = (buf[o] | buf[o + 1] << 8 | buf[o + 2] << 16 | buf[o + 3] << 24) >>> 0;
        const f = buf.slice(o + 4, o + 4 + k);
        o += 4 + k;
        if (now < stallUntil) stallQueue.push(f); else rawSend(f);
      }
      if (now >= stallUntil && stallQueue.length) { stallQueue.forEach(rawSend); stallQueue = []; }
    },
    // setUIDs keeps, from now on, only frames for these UIDs (and for all).
    setUIDs(list) { uids = new Set(list.map((u) => u >>> 0)); },
    // stall holds this tab's outgoing frames for ms, then sends them: a
    // test hook that makes this player lag.
    stall(ms) { stallUntil = performance.now() + ms; },
    // inject delivers a frame as if it came from the channel (tests).
    inject(f) { onFrame(f); },
    // send puts raw frames on the channel (tests: junk).
    send(f) { rawSend(f); },
    leave() { if (kind === "webxdc") channel.leave(); else channel.close(); },
  };
})();
