// The demo's test hooks, read before shim.js runs: ?delay=MS holds every
// frame this tab sends MS ms (globalThis.__ticnetHoldOutgoingMS);
// ?throwAt=TIC makes the game's onTic throw at that tic, once
// (globalThis.__ticnetDemoThrowAt, which main.js reads).
(function () {
  "use strict";
  const params = new URLSearchParams(location.search);
  const delay = Number(params.get("delay"));
  if (delay > 0) globalThis.__ticnetHoldOutgoingMS = delay;
  const throwAt = Number(params.get("throwAt"));
  if (throwAt > 0) globalThis.__ticnetDemoThrowAt = throwAt;
})();
