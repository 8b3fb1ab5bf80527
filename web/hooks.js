// The demo's test hooks, read before shim.js runs: ?delay=MS holds every
// frame this tab sends MS ms (globalThis.__ticnetHoldOutgoingMS).
(function () {
  "use strict";
  const delay = Number(new URLSearchParams(location.search).get("delay"));
  if (delay > 0) globalThis.__ticnetHoldOutgoingMS = delay;
})();
