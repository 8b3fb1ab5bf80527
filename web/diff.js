// The demo's diff page: compares two states the arena's save returned
// (the demo's "Download states" at a desync) with ticnet's diffStates and
// the game's own describe: the fields that differ, then the bytes. For
// tests: globalThis.ticnetDiff.compare(a, b) compares two arrays of bytes
// and returns what the page shows, as JSON.
import { diffStates } from "./ticnet.js";
import { describe } from "./game.js";

const $ = (id) => document.getElementById(id);
const inputs = [/** @type {HTMLInputElement} */ ($("a")), /** @type {HTMLInputElement} */ ($("b"))];

// show compares a and b and shows the result; it returns what it shows.
function show(a, b) {
  let diff, error = "";
  try {
    diff = diffStates(a, b, describe);
  } catch (e) {
    diff = diffStates(a, b); // not arena states: the bytes only
    error = `these are not both arena states (${e.message}): the bytes only`;
  }
  $("result").textContent = diff.same ? `The states are the same (${a.length} bytes).` :
    `${diff.bytes} of ${Math.max(a.length, b.length)} bytes differ` + (diff.fields ? `, in ${diff.fields.length} field${diff.fields.length === 1 ? "" : "s"}:` : ".") +
    (error ? ` ${error}` : "");
  const rows = (diff.fields || []).map((f) => {
    const tr = document.createElement("tr");
    for (const v of [f.name, f.a, f.b]) {
      const td = document.createElement("td");
      td.textContent = String(v);
      tr.append(td);
    }
    return tr;
  });
  $("fields").querySelector("tbody").replaceChildren(...rows);
  $("fields").hidden = rows.length === 0;
  const hex = (s, r) => [...s.subarray(r.offset, r.offset + Math.min(r.length, 16))].map((v) => v.toString(16).padStart(2, "0")).join(" ");
  $("bytes").textContent = diff.runs.map((r) => `bytes ${r.offset} to ${r.offset + r.length - 1}: A ${hex(a, r)}, B ${hex(b, r)}`).join("\n");
  return { ...diff, error };
}

async function compareFiles() {
  if (!inputs.every((i) => i.files.length)) return;
  const [a, b] = await Promise.all(inputs.map(async (i) => new Uint8Array(await i.files[0].arrayBuffer())));
  show(a, b);
}
for (const i of inputs) i.onchange = compareFiles;

globalThis.ticnetDiff = { compare: (a, b) => JSON.stringify(show(new Uint8Array(a), new Uint8Array(b))) };
