// The demo's test hooks, read before shim.js runs: ?delay=MS holds every
// frame this tab sends MS ms (globalThis.__ticnetHoldOutgoingMS);
// ?throwAt=TIC makes the game's onTic throw at that tic, once
// (globalThis.__ticnetDemoThrowAt, which main.js reads); ?corruptAt=TIC
// adds 1000 to this copy's player's score after that tic, each time the
// tic runs (globalThis.__ticnetDemoCorruptAt): a state gone astray, which
// ticnet sets right.
(function () {
  "use strict";
  const params = new URLSearchParams(location.search);
  const delay = Number(params.get("delay"));
  if (delay > 0) globalThis.__ticnetHoldOutgoingMS = delay;
  const throwAt = Number(params.get("throwAt"));
  if (throwAt > 0) globalThis.__ticnetDemoThrowAt = throwAt;
  const corruptAt = Number(params.get("corruptAt"));
  if (corruptAt > 0) globalThis.__ticnetDemoCorruptAt = corruptAt;
})();
