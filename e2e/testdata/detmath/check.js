// The determinism check of js/detmath.js: each function for N seeded
// arguments, a hash of the results' bits, the largest difference from
// Math.* in ulps, and Math.*'s own results (raw, for the test to compare
// across engines). The arguments come from detmath's own PRNG and exp, so
// that every engine computes the same ones.
import * as dm from "./detmath.js";

const N = 100000;
const engine = new URLSearchParams(location.search).get("engine") || "unknown";
const s = dm.random(20261127);
const uniform = (lo, hi) => lo + dm.nextFloat(s) * (hi - lo);
// logUniform: |x| spread evenly over the orders of magnitude in [lo, hi].
const logUniform = (lo, hi) => dm.exp(dm.log(lo) + dm.nextFloat(s) * (dm.log(hi) - dm.log(lo)));
const sign = () => ((dm.nextUint32(s) & 1) === 0 ? 1 : -1);

// The cases: a name, the function and its arguments (the ranges
// docs/guide.md states); the "huge" cases take sin, cos and tan past
// 2^20·π/2, where the reduction multiplies by 2/π's bits.
const huge = () => sign() * logUniform(1.7e6, 1e308);
const cases = [
  ["sin", "sin", () => [sign() * logUniform(1e-8, 1e6)]],
  ["cos", "cos", () => [sign() * logUniform(1e-8, 1e6)]],
  ["tan", "tan", () => [sign() * logUniform(1e-8, 1e6)]],
  ["atan2", "atan2", () => [sign() * logUniform(1e-6, 1e6), sign() * logUniform(1e-6, 1e6)]],
  ["asin", "asin", () => [uniform(-1, 1)]],
  ["acos", "acos", () => [uniform(-1, 1)]],
  ["exp", "exp", () => [uniform(-745, 709.78)]],
  ["log", "log", () => [logUniform(1e-300, 1e300)]],
  ["pow", "pow", () => [logUniform(1e-4, 1e4), uniform(-70, 70)]],
  ["hypot", "hypot", () => [sign() * logUniform(1e-3, 1e3), sign() * logUniform(1e-3, 1e3)]],
  ["cbrt", "cbrt", () => [sign() * logUniform(1e-300, 1e300)]],
  ["sinHuge", "sin", () => [huge()]],
  ["cosHuge", "cos", () => [huge()]],
  ["tanHuge", "tan", () => [huge()]],
];

const bits = new DataView(new ArrayBuffer(8));

// ordered maps a double to an integer that counts ulps: adjacent doubles
// differ by one.
function ordered(x) {
  bits.setFloat64(0, x, true);
  const b = bits.getBigInt64(0, true);
  return b < 0n ? -(b & 0x7fffffffffffffffn) : b;
}

function ulps(a, b) {
  if (Object.is(a, b)) return 0;
  if (a !== a || b !== b) return Infinity;
  const d = ordered(a) - ordered(b);
  return Number(d < 0n ? -d : d);
}

// fnv1a hashes a Float64Array's bytes (32-bit FNV-1a, hex).
function fnv1a(f64) {
  const bytes = new Uint8Array(f64.buffer);
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 16777619);
  return (h >>> 0).toString(16).padStart(8, "0");
}

// helpers checks the PRNG and the fixed-point helpers: xoshiro128**'s
// first outputs from the state [1, 2, 3, 4] (the test holds them to the
// reference C code's), a hash of 100 000 draws, the faces of 60 000 dice,
// and fxMul and fxDiv against exact BigInt arithmetic for 100 000 seeded
// int32 pairs and the edges.
function helpers() {
  const ref = Uint32Array.of(1, 2, 3, 4);
  const firstOutputs = Array.from({ length: 8 }, () => dm.nextUint32(ref));
  const r = dm.random(7);
  const draws = new Float64Array(N);
  let outOfRange = 0;
  for (let i = 0; i < N; i++) {
    draws[i] = i % 2 === 0 ? dm.nextFloat(r) : dm.nextInt(r, 1000003);
    if (i % 2 === 0 ? !(draws[i] >= 0 && draws[i] < 1) : !(draws[i] >= 0 && draws[i] < 1000003 && Number.isInteger(draws[i]))) outOfRange++;
  }
  const dice = [0, 0, 0, 0, 0, 0];
  for (let i = 0; i < 60000; i++) dice[dm.nextInt(r, 6)]++;

  const floorDiv = (n, d) => {
    const q = n / d;
    return (n % d !== 0n) && ((n < 0n) !== (d < 0n)) ? q - 1n : q;
  };
  const edges = [0, 1, -1, 65536, -65536, 2147483647, -2147483648, 2147483646, -2147483647, 98304, -98304, 3];
  const pairs = [];
  for (const a of edges) for (const b of edges) pairs.push([a, b]);
  for (let i = 0; i < N; i++) pairs.push([dm.nextUint32(r) | 0, (dm.nextUint32(r) | 0) >> (dm.nextUint32(r) % 24)]);
  let fxChecked = 0;
  let fxWrong = 0;
  let fxFirstWrong = null;
  for (const [a, b] of pairs) {
    const mul = Number(BigInt.asIntN(32, floorDiv(BigInt(a) * BigInt(b), 65536n)));
    const checks = [["fxMul", dm.fxMul(a, b), mul]];
    if (b !== 0) checks.push(["fxDiv", dm.fxDiv(a, b), Number(BigInt.asIntN(32, floorDiv(BigInt(a) * 65536n, BigInt(b))))]);
    for (const [name, got, want] of checks) {
      fxChecked++;
      if (got !== want) {
        fxWrong++;
        fxFirstWrong = fxFirstWrong || `${name}(${a}, ${b}) = ${got}, want ${want}`;
      }
    }
  }
  let divByZero = false;
  try { dm.fxDiv(1, 0); } catch (e) { divByZero = e instanceof RangeError; }
  return { firstOutputs, drawsHash: fnv1a(draws), outOfRange, dice, fxChecked, fxWrong, fxFirstWrong, divByZero };
}

// specials lists the special arguments for which detmath and Math.*
// differ while either result is NaN, ±0 or ±Infinity.
function specials() {
  const vals = [0, -0, 1, -1, 2, -2, 0.5, -0.5, Infinity, -Infinity, NaN, 5e-324, -5e-324, 1e308, -1e308];
  const special = (v) => v !== v || v === 0 || !Number.isFinite(v);
  let checked = 0;
  const wrong = [];
  for (const name of new Set(cases.map((c) => c[1]))) {
    const two = Math[name].length === 2 || name === "hypot";
    for (const a of vals) {
      for (const b of two ? vals : [0]) {
        const args = two ? [a, b] : [a];
        const r = dm[name](...args);
        const m = Math[name](...args);
        if (!special(r) && !special(m)) continue;
        checked++;
        if (!Object.is(r, m)) wrong.push(`${name}(${args.join(", ")}) = ${r}, Math: ${m}`);
      }
    }
  }
  return { checked, wrong };
}

async function post(kind, body) {
  await fetch(`/report/${kind}?engine=${engine}`, { method: "POST", body });
}

async function main() {
  const summary = { engine, userAgent: navigator.userAgent, n: N, functions: {} };
  const mathAll = new Float64Array(N * cases.length);
  const t0 = performance.now();
  cases.forEach(([name, fn, args], c) => {
    const ours = new Float64Array(N);
    const argBits = new Float64Array(N * 2);
    let maxUlps = 0;
    let maxAt = null;
    let differ = 0;
    for (let i = 0; i < N; i++) {
      const a = args();
      argBits[2 * i] = a[0];
      argBits[2 * i + 1] = a.length > 1 ? a[1] : 0;
      const r = dm[fn](...a);
      const m = Math[fn](...a);
      ours[i] = r;
      mathAll[c * N + i] = m;
      const u = ulps(r, m);
      if (u > 0) differ++;
      if (u > maxUlps) {
        maxUlps = u;
        maxAt = a;
      }
    }
    summary.functions[name] = { hash: fnv1a(ours), argsHash: fnv1a(argBits), maxUlps, maxAt, differFromMath: differ };
  });
  summary.ms = Math.round(performance.now() - t0);
  summary.helpers = helpers();
  summary.specials = specials();
  document.getElementById("out").textContent = JSON.stringify(summary, null, 1);
  await post("math", mathAll.buffer);
  await post("summary", JSON.stringify(summary));
}

main().catch((e) => post("error", String(e && e.stack || e)));
