// Drives three copies of the demo, each in a frame of this page (frames
// of one origin share a BroadcastChannel as tabs do, and are not throttled
// as background tabs are): waits for one server, launches, reports every
// copy's status each second for PLAY_S seconds, removes the server's frame
// (its page says goodbye as a closing tab does), waits for the others to
// resume, and reports them for AFTER_S seconds more.
const N = 3;
const PLAY_S = 30;
const AFTER_S = 10;
const engine = new URLSearchParams(location.search).get("engine") || "unknown";
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function post(kind, body) {
  await fetch(`/report/${kind}?engine=${engine}`, { method: "POST", body: JSON.stringify(body) });
}

let frames = [];
for (let i = 0; i < N; i++) {
  const f = document.createElement("iframe");
  f.src = `/index.html?bot=${3000 + i}&name=frame${i}`;
  document.body.append(f);
  frames.push(f);
}

function demo(f) {
  try {
    return f.contentWindow.ticnetDemo || null;
  } catch {
    return null;
  }
}

function statuses() {
  return frames.map((f) => {
    const d = demo(f);
    return d ? JSON.parse(d.status()) : null;
  });
}

async function until(what, ms, cond) {
  const end = performance.now() + ms;
  for (;;) {
    const sts = statuses();
    if (sts.every(Boolean) && cond(sts)) return sts;
    if (performance.now() > end) {
      throw new Error(`${what}: not within ${ms} ms: ` +
        JSON.stringify(sts.map((s) => s && { role: s.role, gametic: s.gametic, started: s.started, lobby: s.lobby })));
    }
    await sleep(100);
  }
}

async function report(kind, seconds, t0) {
  for (let i = 0; i < seconds; i++) {
    await sleep(1000);
    await post(kind, { ms: Math.round(performance.now() - t0), statuses: statuses() });
  }
}

async function main() {
  const lobby = await until("one server and every copy in its lobby", 60000,
    (sts) => sts.filter((s) => s.role === "server").length === 1 && sts.every((s) => s.lobby && s.lobby.players.length === N));
  demo(frames[lobby.findIndex((s) => s.lobby.controller)]).launch();
  await until("every copy in the game", 60000, (sts) => sts.every((s) => s.started && s.gametic >= 10));
  const t0 = performance.now();
  await post("play", { ms: 0, statuses: statuses() });
  await report("play", PLAY_S, t0);

  const sts = statuses();
  const server = sts.findIndex((s) => s.role === "server");
  frames[server].remove();
  const removed = performance.now();
  frames = frames.filter((_, i) => i !== server);
  await until("every other copy resumed under a new server", 60000, () =>
    frames.every((f) => JSON.parse(demo(f).events()).some((e) => e.kind === "resumed")));
  const t1 = performance.now();
  await post("resumed", { ms: Math.round(t1 - removed), statuses: statuses() });
  await report("after", AFTER_S, t1);
  await post("done", {});
}

main().catch((e) => post("error", String((e && e.stack) || e)));
