// Added to a game's page under webxdc-dev by TestXdcPlaysAcrossEnginesAndOutlivesTheServersEngine:
// reports the page's status (globalThis.ticnetDemo.status(), which the demo
// and the cycles example give) to the test twice a second, through the
// page's own origin (webxdc-dev proxies it to the test's server; the
// messenger's content security policy allows no other), and launches the
// game on the controller's copy once its lobby holds ?n= players.
const params = new URLSearchParams(location.search);
const engine = params.get("engine") || "unknown";
const n = Number(params.get("n")) || 3;
let launchedAt = -Infinity; // launch again if no game started 5 s after

async function post(kind, body) {
  await fetch(`/report/${kind}?engine=${engine}`, { method: "POST", body });
}

setInterval(() => {
  const demo = globalThis.ticnetDemo;
  if (!demo) return;
  try {
    const status = demo.status();
    const st = JSON.parse(status);
    if (!st.started && st.lobby && st.lobby.controller && st.lobby.players.length === n && performance.now() - launchedAt > 5000) {
      launchedAt = performance.now();
      demo.launch();
    }
    post("status", status).catch(() => {});
  } catch (e) {
    post("error", String((e && e.stack) || e)).catch(() => {});
  }
}, 500);
