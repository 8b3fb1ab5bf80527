// detmath.js: math that returns the same bits in every browser engine.
//
// V8, SpiderMonkey and JavaScriptCore each compute Math.sin, Math.exp,
// Math.atan2, Math.cbrt, Math.hypot... with their own approximations, and
// their last bits differ (TestDetMathAgreesAcrossEngines counts how often).
// A lockstep game whose state reads them desyncs when its players' engines
// differ. Every function here is built from + - * / and Math.sqrt, which
// IEEE 754 makes correctly rounded everywhere, and from exact operations
// (comparisons, Math.floor/abs, reading and writing a double's bits): the
// same arguments give the same bits in every engine. JS engines neither
// fuse a*b+c nor keep wider intermediates, so the order written is the
// order computed.
//
// The algorithms: range reduction to a small interval (Cody-Waite, with
// the constant split into parts whose products are exact; Payne-Hanek
// for sin, cos and tan past 2^20·π/2), then a
// truncated Taylor series evaluated by Horner's rule, its first terms kept
// apart so that their rounding stays below half an ulp; pow, hypot and cbrt
// carry their intermediate in double-double (two doubles, ~106 bits). The
// accuracy against Math.* is measured and asserted in every engine by
// e2e/detmath_test.go and stated in docs/guide.md.
//
// Also: a seeded PRNG whose state the game keeps (xoshiro128**), and
// fixed-point 16.16 multiply and divide on int32.

// ---------- a double's bits (exact) ----------

const view = new DataView(new ArrayBuffer(8));

function highWord(x) {
  view.setFloat64(0, x, true);
  return view.getInt32(4, true);
}

function lowWord(x) {
  view.setFloat64(0, x, true);
  return view.getUint32(0, true);
}

function fromWords(hi, lo) {
  view.setInt32(4, hi, true);
  view.setUint32(0, lo, true);
  return view.getFloat64(0, true);
}

// pow2 is 2^n for -1022 <= n <= 1023, exactly.
function pow2(n) {
  return fromWords((n + 1023) << 20, 0);
}

// scale is x * 2^n with one rounding at most (only when the result is
// subnormal).
function scale(x, n) {
  if (n > 1023) {
    x *= pow2(1023);
    n -= 1023;
    if (n > 1023) {
      x *= pow2(1023);
      n -= 1023;
      if (n > 1023) n = 1023;
    }
  } else if (n < -1022) {
    x *= pow2(-1022 + 54);
    n += 1022 - 54;
    if (n < -1022) {
      x *= pow2(-1022 + 54);
      n += 1022 - 54;
      if (n < -1022) n = -1022;
    }
  }
  return x * pow2(n);
}

// ---------- double-double helpers (Dekker, Knuth) ----------

// Exact sums and products as pairs [hi, lo]; written to module-level
// slots to avoid allocating arrays on every call.
let ddHi = 0;
let ddLo = 0;

function twoSum(a, b) {
  const s = a + b;
  const bb = s - a;
  ddHi = s;
  ddLo = (a - (s - bb)) + (b - bb);
}

const SPLITTER = 134217729; // 2^27 + 1

// twoProd sets ddHi + ddLo = a * b exactly (|a|, |b| < 2^996).
function twoProd(a, b) {
  const p = a * b;
  let c = SPLITTER * a;
  const ah = c - (c - a);
  const al = a - ah;
  c = SPLITTER * b;
  const bh = c - (c - b);
  const bl = b - bh;
  ddHi = p;
  ddLo = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
}

// ddAdd sets (ddHi, ddLo) to (ah + al) + (bh + bl).
function ddAdd(ah, al, bh, bl) {
  twoSum(ah, bh);
  const s = ddHi;
  const e = ddLo + al + bl;
  ddHi = s + e;
  ddLo = e - (ddHi - s);
}

// ddMul sets (ddHi, ddLo) to (ah + al) * (bh + bl).
function ddMul(ah, al, bh, bl) {
  twoProd(ah, bh);
  const p = ddHi;
  const e = ddLo + (ah * bl + al * bh);
  ddHi = p + e;
  ddLo = e - (ddHi - p);
}

// ---------- constants (correctly rounded, from 300-bit values) ----------

// π/2 in four parts of 33 bits: n * part is exact for n < 2^20.
const PIO2_1 = 1.5707963267341256;
const PIO2_2 = 6.077100506303966e-11;
const PIO2_3 = 2.0222662487111665e-21;
const PIO2_4 = 8.4784276603689e-32;
const TWO_OVER_PI = 0.6366197723675814;
const PI_HI = 3.141592653589793;
const PI_LO = 1.2246467991473532e-16;
const PIO2_HI = 1.5707963267948966;
const PIO2_LO = 6.123233995736766e-17;
const PIO4_HI = 0.7853981633974483;
const PIO4_LO = 3.061616997868383e-17;
const ATAN_HALF_HI = 0.4636476090008061;
const ATAN_HALF_LO = 2.2698777452961687e-17;
const ATAN_3HALVES_HI = 0.982793723247329;
const ATAN_3HALVES_LO = 1.3903311031230998e-17;
// ln 2 with 42 bits in LN2_HI, so that k * LN2_HI is exact for |k| < 2^11.
const LN2_HI = 0.6931471805598903;
const LN2_LO = 5.4979230187085024e-14;
// ln 2 as a double-double, for pow.
const LN2_DD_HI = 0.6931471805599453;
const LN2_DD_LO = 2.3190468138462996e-17;
const INV_LN2 = 1.4426950408889634;
const TWO_THIRDS_HI = 0.6666666666666666;
const TWO_THIRDS_LO = 3.700743415417188e-17;
const P600 = fromWords((600 + 1023) << 20, 0);
const M600 = fromWords((-600 + 1023) << 20, 0);

// Past this |x| Cody-Waite's n * PIO2_1 is no longer exact, and reduce
// multiplies by 2/π's bits instead (Payne-Hanek).
const CODY_WAITE_LIMIT = 1647099; // 2^20 * π/2, rounded down

// 2/π in 24-bit digits: 2/π = Σ TWO_OVER_PI_24[k] * 2^(-24(k+1)), from a
// 2000-bit value; enough for every finite double.
const TWO_OVER_PI_24 = [
  10680707, 7228996, 1387004, 2578385, 16069853, 12639074, 9804092, 4427841, 16666979, 11263675,
  12935607, 2387514, 4345298, 14681673, 3074569, 13734428, 16653803, 1880361, 10960616, 8533493,
  3062596, 8710556, 7349940, 6258241, 3772886, 3769171, 3798172, 8675211, 12450088, 3874808,
  9961438, 366607, 15675153, 9132554, 7151469, 3571407, 2607881, 12013382, 4155038, 6285869,
  7677882, 13102053, 15825725, 473591, 9065106, 15363067, 6271263, 9264392, 5636912, 4652155,
  7056368, 13614112, 10155062, 1944035, 9527646, 15080200, 6658437, 6231200, 6832269, 16767104,
  5075751, 3212806, 1398474, 7579849, 6349435, 12618859,
];

// ---------- sin, cos, tan ----------

// reduce writes x - n*π/2 as (redHi, redLo) and returns n mod 4.
let redHi = 0;
let redLo = 0;

function reduce(x) {
  if (Math.abs(x) <= PIO4_HI) {
    redHi = x;
    redLo = 0;
    return 0;
  }
  if (Math.abs(x) > CODY_WAITE_LIMIT) {
    const n = reduceLarge(Math.abs(x));
    if (x > 0) return n;
    redHi = -redHi;
    redLo = -redLo;
    return (4 - n) % 4;
  }
  const n = Math.floor(x * TWO_OVER_PI + 0.5);
  const t = x - n * PIO2_1; // exact: n * PIO2_1 is exact and close to x
  twoSum(t, -n * PIO2_2);
  const a = ddHi;
  const ea = ddLo;
  twoSum(a, -n * PIO2_3);
  const b = ddHi;
  const lo = ea + ddLo - n * PIO2_4;
  redHi = b + lo;
  redLo = lo - (redHi - b);
  return ((n % 4) + 4) % 4;
}

// inverseFactorial is 1/n!, correctly rounded (n! is exact for n <= 18).
function inverseFactorial(n) {
  let f = 1;
  for (let k = 2; k <= n; k++) f *= k;
  return 1 / f;
}

// horner is terms[0] + z*(terms[1] + z*(terms[2] + ...)).
function horner(z, terms) {
  let p = terms[terms.length - 1];
  for (let i = terms.length - 2; i >= 0; i--) p = terms[i] + z * p;
  return p;
}

// reduceLarge is reduce for x > CODY_WAITE_LIMIT: x * 2/π mod 4 from x's
// three 24-bit digits times 2/π's, each product exact (< 2^48), the
// digits whose weight makes them multiples of 4 skipped, the rest summed
// mod 4 in double-double; then the fraction times π/2.
function reduceLarge(x) {
  const e0 = ((highWord(x) >> 20) & 0x7ff) - 1023 - 23;
  let z = x * pow2(-e0); // in [2^23, 2^24)
  const x0 = Math.floor(z);
  z = (z - x0) * 16777216;
  const x1 = Math.floor(z);
  const x2 = (z - x1) * 16777216; // an integer: x has 53 bits
  let hi = 0;
  let lo = 0;
  let taken = 0;
  for (let i = 0; taken < 8; i++) {
    const w = e0 - 24 * (i + 1); // the digit's weight: 2^w
    if (w >= 2) continue; // a multiple of 4
    taken++;
    let q = x0 * TWO_OVER_PI_24[i];
    if (i >= 1) q += x1 * TWO_OVER_PI_24[i - 1];
    if (i >= 2) q += x2 * TWO_OVER_PI_24[i - 2];
    let t = q * pow2(w);
    t -= 4 * Math.floor(t / 4);
    ddAdd(hi, lo, t, 0);
    hi = ddHi - 4 * Math.floor(ddHi / 4);
    lo = ddLo;
  }
  const n = Math.floor(hi + lo + 0.5);
  twoSum(hi - n, lo);
  ddMul(ddHi, ddLo, PIO2_HI, PIO2_LO);
  redHi = ddHi;
  redLo = ddLo;
  return n % 4;
}

// Taylor coefficients of sin after x: -1/3!, 1/5!, ... 1/17!.
const SIN_TERMS = [3, 5, 7, 9, 11, 13, 15, 17].map((n, i) => (i % 2 === 0 ? -1 : 1) * inverseFactorial(n));

// The kernels return their result rounded and leave it unrounded in
// (kernHi, kernLo) as well, for tan's division.
let kernHi = 0;
let kernLo = 0;

// kernel sets (kernHi, kernLo) to a + b, |a| >= |b|, and returns kernHi.
function kernel(a, b) {
  kernHi = a + b;
  kernLo = b - (kernHi - a);
  return kernHi;
}

// sinKernel is sin(x + y) for |x + y| <= π/4, |y| < ulp(x).
function sinKernel(x, y) {
  const z = x * x;
  const v = z * x;
  return kernel(x, v * horner(z, SIN_TERMS) + (y - 0.5 * z * y));
}

// Taylor coefficients of cos after 1 - x²/2: 1/4!, -1/6!, ... -1/18!.
const COS_TERMS = [4, 6, 8, 10, 12, 14, 16, 18].map((n, i) => (i % 2 === 0 ? 1 : -1) * inverseFactorial(n));

// cosKernel is cos(x + y) for |x + y| <= π/4, |y| < ulp(x).
function cosKernel(x, y) {
  const z = x * x;
  const q = horner(z, COS_TERMS);
  const hz = 0.5 * z;
  const w = 1 - hz;
  // (1 - w) - hz is the rounding error of w, exactly.
  return kernel(w, ((1 - w) - hz) + (z * z * q - x * y));
}

export function sin(x) {
  if (!Number.isFinite(x)) return NaN;
  if (Math.abs(x) < 7.450580596923828e-9) return x; // 2^-27: sin x rounds to x
  const n = reduce(x);
  switch (n) {
    case 0: return sinKernel(redHi, redLo);
    case 1: return cosKernel(redHi, redLo);
    case 2: return -sinKernel(redHi, redLo);
    default: return -cosKernel(redHi, redLo);
  }
}

export function cos(x) {
  if (!Number.isFinite(x)) return NaN;
  if (Math.abs(x) < 7.450580596923828e-9) return 1;
  const n = reduce(x);
  switch (n) {
    case 0: return cosKernel(redHi, redLo);
    case 1: return -sinKernel(redHi, redLo);
    case 2: return -cosKernel(redHi, redLo);
    default: return sinKernel(redHi, redLo);
  }
}

export function tan(x) {
  if (!Number.isFinite(x)) return NaN;
  if (Math.abs(x) < 7.450580596923828e-9) return x;
  const n = reduce(x);
  sinKernel(redHi, redLo);
  const sh = kernHi;
  const sl = kernLo;
  cosKernel(redHi, redLo);
  const ch = kernHi;
  const cl = kernLo;
  // The quotient of the two unrounded values, corrected once:
  // q + (num - q * den) / den.
  return (n & 1) === 0 ? ddDiv(sh, sl, ch, cl) : -ddDiv(ch, cl, sh, sl);
}

// ddDiv is (ah + al) / (bh + bl), rounded, to about an ulp's tenth.
function ddDiv(ah, al, bh, bl) {
  const q = ah / bh;
  twoProd(q, bh);
  return q + (((ah - ddHi) - ddLo + al) - q * bl) / bh;
}

// ---------- atan, atan2, asin, acos ----------

// Taylor coefficients of atan after t: (-1)^k / (2k+1), k = 1..24 (|t| <= 7/16).
const ATAN_TERMS = Array.from({ length: 24 }, (_, i) => (i % 2 === 0 ? -1 : 1) / (2 * i + 3));

// atanSmall is atan(t) - t for |t| <= 7/16.
function atanSmall(t) {
  const z = t * t;
  return t * z * horner(z, ATAN_TERMS);
}

// atanPos is atan(x + dx) for x >= 0 (or +Infinity), |dx| <= ulp(x):
// atan(x) = c + atan(t), with c = atan of a breakpoint and |t| <= 7/16,
// and atan(x + dx) = atan(x) + dx / (1 + x²).
function atanPos(x, dx) {
  let chi;
  let clo;
  let t;
  const d = dx / (1 + x * x);
  if (x < 0.4375) {
    if (x < 7.450580596923828e-9) return x + dx;
    return x + (atanSmall(x) + d);
  } else if (x < 0.6875) {
    chi = ATAN_HALF_HI; clo = ATAN_HALF_LO; t = (2 * x - 1) / (2 + x);
  } else if (x < 1.1875) {
    chi = PIO4_HI; clo = PIO4_LO; t = (x - 1) / (x + 1);
  } else if (x < 2.4375) {
    chi = ATAN_3HALVES_HI; clo = ATAN_3HALVES_LO; t = (x - 1.5) / (1 + 1.5 * x);
  } else {
    if (x > 9007199254740992) return PIO2_HI + PIO2_LO; // 2^53: atan(x) rounds to π/2
    chi = PIO2_HI; clo = PIO2_LO; t = -1 / x;
  }
  return chi + ((atanSmall(t) + (clo + d)) + t);
}

// atanRatio is atan((nh + nl) / (dh + dl)) for a positive ratio: the
// quotient and its remainder, exactly, passed on to atanPos.
function atanRatio(nh, nl, dh, dl) {
  if (nh > 1e300 || dh > 1e300) { // twoProd's split would overflow
    nh *= M600; nl *= M600; dh *= M600; dl *= M600;
  }
  const q = nh / dh;
  if (q === Infinity) return PIO2_HI;
  twoProd(q, dh);
  return atanPos(q, ((((nh - ddHi) - ddLo) + nl) - q * dl) / dh);
}

export function atan(x) {
  if (x !== x) return NaN;
  return x < 0 ? -atanPos(-x, 0) : atanPos(x, 0);
}

export function atan2(y, x) {
  if (x !== x || y !== y) return NaN;
  const ny = y < 0 || (y === 0 && 1 / y < 0);
  const nx = x < 0 || (x === 0 && 1 / x < 0);
  const ay = Math.abs(y);
  const ax = Math.abs(x);
  let r;
  if (ay === 0) {
    r = nx ? PI_HI : 0;
  } else if (ax === 0) {
    r = PIO2_HI;
  } else if (ax === Infinity) {
    if (ay === Infinity) r = nx ? 3 * PIO4_HI : PIO4_HI;
    else r = nx ? PI_HI : 0;
  } else if (ay === Infinity) {
    r = PIO2_HI;
  } else {
    const a = atanRatio(ay, 0, ax, 0);
    r = nx ? PI_HI - (a - PI_LO) : a;
  }
  return ny ? -r : r;
}

// rootOneMinusSquare sets (ddHi, ddLo) to √(1 - x²), |x| <= 1, with the
// square and the difference exact and √ corrected by one Newton step.
function rootOneMinusSquare(x) {
  twoProd(x, x);
  const e = ddLo;
  twoSum(1, -ddHi);
  const wh = ddHi;
  const wl = ddLo - e;
  const r = Math.sqrt(wh);
  if (r === 0) {
    ddHi = 0;
    ddLo = 0;
    return;
  }
  twoProd(r, r);
  const rl = (((wh - ddHi) - ddLo) + wl) / (2 * r);
  ddHi = r + rl;
  ddLo = rl - (ddHi - r);
}

// asin(x) = atan(x / √(1 - x²)).
export function asin(x) {
  const a = Math.abs(x);
  if (!(a <= 1)) return NaN;
  if (a < 7.450580596923828e-9) return x;
  rootOneMinusSquare(a);
  const r = atanRatio(a, 0, ddHi, ddLo);
  return x < 0 ? -r : r;
}

// acos(x) = atan(√(1 - x²) / x), from π for x < 0.
export function acos(x) {
  const a = Math.abs(x);
  if (!(a <= 1)) return NaN;
  if (x === 0) return PIO2_HI;
  rootOneMinusSquare(a);
  if (ddHi === 0) return x > 0 ? 0 : PI_HI;
  const r = atanRatio(ddHi, ddLo, a, 0);
  return x < 0 ? PI_HI - (r - PI_LO) : r;
}

// ---------- exp, log, pow ----------

// Taylor coefficients of exp after 1 + r: 1/2!, ..., 1/15! (|r| <= ln2/2).
const EXP_TERMS = Array.from({ length: 14 }, (_, i) => inverseFactorial(i + 2));

// expDD is e^(hi + lo), |lo| <= ulp(hi), without the special cases.
function expDD(hi, lo) {
  if (hi > 709.7827128933841) return Infinity;
  if (hi < -745.1332191019412) return 0;
  if (Math.abs(hi) < 1.3877787807814457e-17) return 1 + hi; // 2^-56
  const n = Math.floor(hi * INV_LN2 + 0.5);
  const rhi = hi - n * LN2_HI; // exact
  const a = lo - n * LN2_LO;
  const r = rhi + a;
  const c = a - (r - rhi); // r + c = rhi + a, exactly
  const p = horner(r, EXP_TERMS);
  // 1 + r exactly as a pair, so that the only rounding left of size is
  // the last sum's.
  twoSum(1, r);
  return scale(ddHi + (ddLo + (r * r * p + c)), n);
}

export function exp(x) {
  if (x !== x) return NaN;
  if (x === Infinity) return Infinity;
  if (x === -Infinity) return 0;
  return expDD(x, 0);
}

// 2 / (2k+1) for k = 1..12: log(1+f) = 2 atanh(f / (2+f)).
const LOG_TERMS = Array.from({ length: 12 }, (_, i) => 2 / (2 * i + 3));

// split sets splitK and splitF: x = 2^splitK * (1 + splitF), with
// 1 + splitF in [√2/2, √2); x finite and > 0.
let splitK = 0;
let splitF = 0;

function splitLog(x) {
  let k = 0;
  if (x < 2.2250738585072014e-308) {
    x *= 18014398509481984; // 2^54
    k = -54;
  }
  let hx = highWord(x);
  k += (hx >> 20) - 1023;
  hx &= 0x000fffff;
  // m's high word with the exponent of 1, or of 1/2 when m >= √2.
  let m;
  if (hx >= 0x6a09e) {
    m = fromWords(hx | 0x3fe00000, lowWord(x));
    k += 1;
  } else {
    m = fromWords(hx | 0x3ff00000, lowWord(x));
  }
  splitK = k;
  splitF = m - 1; // exact (Sterbenz)
}

export function log(x) {
  if (x !== x || x < 0) return NaN;
  if (x === 0) return -Infinity;
  if (x === Infinity) return Infinity;
  splitLog(x);
  const k = splitK;
  const f = splitF;
  const s = f / (2 + f);
  const z = s * s;
  const R = z * horner(z, LOG_TERMS);
  const hfsq = 0.5 * f * f;
  // log(1+f) = f - hfsq + s*(hfsq + R), since hfsq*(1 - s) = s*f.
  return k * LN2_HI + (f - (hfsq - (s * (hfsq + R) + k * LN2_LO)));
}

// logDD sets (ddHi, ddLo) to ln(x) for finite x > 0, to about 2^-100.
function logDD(x) {
  splitLog(x);
  const k = splitK;
  const f = splitF;
  // s = f / (2 + f) in double-double.
  twoSum(2, f);
  const th = ddHi;
  const tl = ddLo;
  const sh = f / th;
  twoProd(sh, th);
  const sl = ((f - ddHi) - ddLo - sh * tl) / th;
  // ln(1+f) = 2s + s^3 (2/3 + z (2/5 + z (2/7 + ...))), z = s^2.
  ddMul(sh, sl, sh, sl);
  const zh = ddHi;
  const zl = ddLo;
  const q = horner(zh, LOG_TERMS.slice(1)); // 2/5 + z (2/7 + ...)
  ddAdd(TWO_THIRDS_HI, TWO_THIRDS_LO, zh * q, 0);
  ddMul(zh, zl, ddHi, ddLo);
  ddAdd(2, 0, ddHi, ddLo);
  ddMul(sh, sl, ddHi, ddLo);
  const mh = ddHi;
  const ml = ddLo;
  ddMul(k, 0, LN2_DD_HI, LN2_DD_LO);
  ddAdd(ddHi, ddLo, mh, ml);
}

function isOddInteger(y) {
  return Math.abs(y) < 9007199254740992 && Math.floor(y) === y && y % 2 !== 0;
}

// pow follows Math.pow's special cases (ECMAScript's Number::exponentiate).
export function pow(x, y) {
  if (y !== y) return NaN;
  if (y === 0) return 1;
  if (x !== x) return NaN;
  const ax = Math.abs(x);
  if (y === Infinity) return ax > 1 ? Infinity : ax === 1 ? NaN : 0;
  if (y === -Infinity) return ax > 1 ? 0 : ax === 1 ? NaN : Infinity;
  const odd = isOddInteger(y);
  const neg = x < 0 || (x === 0 && 1 / x < 0);
  if (ax === Infinity || ax === 0) {
    const big = (ax === Infinity) === (y > 0);
    const r = big ? Infinity : 0;
    return neg && odd ? -r : r;
  }
  if (x < 0 && Math.floor(y) !== y) return NaN;
  let r;
  if (ax === 1) {
    r = 1;
  } else {
    logDD(ax);
    const lh = ddHi;
    const ll = ddLo;
    const ph = y * lh;
    if (ph > 710) r = Infinity;
    else if (ph < -746) r = 0;
    else {
      ddMul(y, 0, lh, ll);
      r = expDD(ddHi, ddLo);
    }
  }
  return neg && odd ? -r : r;
}

// ---------- hypot, cbrt ----------

// hypot is √(x² + y²) without overflow or underflow on the way, the sum
// of squares in double-double and √ corrected by one Newton step.
export function hypot(x, y) {
  let a = Math.abs(x);
  let b = Math.abs(y);
  if (a === Infinity || b === Infinity) return Infinity;
  if (a !== a || b !== b) return NaN;
  if (a < b) {
    const t = a;
    a = b;
    b = t;
  }
  if (b === 0) return a;
  let k = 1;
  if (a > 3.273390607896142e150) { // 2^500
    a *= M600; b *= M600; k = P600;
  } else if (a < 3.054936363499605e-151) { // 2^-500
    a *= P600; b *= P600; k = M600;
  }
  twoProd(a, a);
  const a2h = ddHi;
  const a2l = ddLo;
  twoProd(b, b);
  const b2h = ddHi;
  const b2l = ddLo;
  ddAdd(a2h, a2l, b2h, b2l);
  const sh = ddHi;
  const sl = ddLo;
  let r = Math.sqrt(sh);
  twoProd(r, r);
  r += ((sh - ddHi) - ddLo + sl) / (2 * r);
  return r * k;
}

// cbrt: a guess from the exponent, Newton's steps, then one step with the
// residual in double-double.
export function cbrt(x) {
  if (x !== x || x === 0 || x === Infinity || x === -Infinity) return x;
  let a = Math.abs(x);
  let k = 1;
  if (a < 2.2250738585072014e-308) {
    a *= 18014398509481984; // 2^54
    k = 3.814697265625e-6; // 2^-18
  }
  // The exponent divided by 3, the mantissa's top bits carried along.
  let t = fromWords(Math.floor(highWord(a) / 3) + 715128832, 0); // 682 << 20
  for (let i = 0; i < 6; i++) t = (2 * t + a / (t * t)) / 3;
  twoProd(t, t);
  const ph = ddHi;
  const pl = ddLo;
  twoProd(ph, t);
  const resid = (ddHi - a) + (ddLo + pl * t);
  t -= resid / (3 * t * t);
  t *= k;
  return x < 0 ? -t : t;
}

// ---------- a seeded PRNG whose state the game keeps ----------

// random(seed) returns a new state: four uint32 words of xoshiro128**
// (Blackman and Vigna), filled from the seed by splitmix32. Keep it in
// the game state (save writes its four words, load reads them back).
export function random(seed) {
  const s = new Uint32Array(4);
  let z = seed >>> 0;
  for (let i = 0; i < 4; i++) {
    z = (z + 0x9e3779b9) >>> 0;
    let v = z;
    v = Math.imul(v ^ (v >>> 16), 0x85ebca6b);
    v = Math.imul(v ^ (v >>> 13), 0xc2b2ae35);
    s[i] = (v ^ (v >>> 16)) >>> 0;
  }
  if ((s[0] | s[1] | s[2] | s[3]) === 0) s[0] = 1; // the all-zero state is a fixed point
  return s;
}

function rotl(v, k) {
  return (v << k) | (v >>> (32 - k));
}

// nextUint32 advances the state and returns a uint32.
export function nextUint32(s) {
  const out = Math.imul(rotl(Math.imul(s[1], 5), 7), 9) >>> 0;
  const t = s[1] << 9;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 11);
  return out;
}

// nextFloat returns a number in [0, 1) with 53 random bits.
export function nextFloat(s) {
  const hi = nextUint32(s) >>> 5; // 27 bits
  const lo = nextUint32(s) >>> 6; // 26 bits
  return (hi * 67108864 + lo) / 9007199254740992;
}

// nextInt returns an integer in [0, n), 0 < n <= 2^32, without bias.
export function nextInt(s, n) {
  const limit = 4294967296 - (4294967296 % n);
  for (;;) {
    const v = nextUint32(s);
    if (v < limit) return v % n;
  }
}

// ---------- fixed point 16.16 on int32 ----------

export const FX_ONE = 65536;

// fx converts a number to 16.16, rounded toward -Infinity, wrapped to int32.
export function fx(x) {
  return Math.floor(x * FX_ONE) | 0;
}

// fxToNumber converts 16.16 to a number (exact).
export function fxToNumber(a) {
  return a / FX_ONE;
}

// fxMul is a*b in 16.16, rounded toward -Infinity, wrapped to int32: exact
// for every pair of int32 (no product is formed above 2^47).
export function fxMul(a, b) {
  a |= 0;
  b |= 0;
  const bh = b >> 16; // b = bh * 2^16 + bl
  const bl = b & 0xffff;
  return (a * bh + Math.floor((a * bl) / FX_ONE)) | 0;
}

// fxDiv is a/b in 16.16, rounded toward -Infinity, wrapped to int32;
// b = 0 throws a RangeError.
export function fxDiv(a, b) {
  a |= 0;
  b |= 0;
  if (b === 0) throw new RangeError("fxDiv: division by zero");
  // Exact: n / b rounds by at most 2^-53 * 2^47 / |b| = 2^-6 / |b|, less
  // than its distance 1 / |b| to the next integer, so the floor of the
  // rounded quotient is the floor of the true one.
  return Math.floor((a * FX_ONE) / b) | 0;
}
