// Types of detmath.js: math that returns the same bits in every browser
// engine (docs/guide.md, "Determinism"). `import * as dm from "ticnet/detmath.js"`.

export function sin(x: number): number;
export function cos(x: number): number;
export function tan(x: number): number;
export function atan(x: number): number;
export function atan2(y: number, x: number): number;
export function asin(x: number): number;
export function acos(x: number): number;
export function exp(x: number): number;
export function log(x: number): number;
/** Math.pow's special cases (ECMAScript's Number::exponentiate). */
export function pow(x: number, y: number): number;
/** √(x² + y²), two arguments. */
export function hypot(x: number, y: number): number;
export function cbrt(x: number): number;

/** A PRNG state (xoshiro128**): four uint32 words the game keeps in its state and saves. */
export type RandomState = Uint32Array;
/** A new state from a 32-bit seed (the start event's seed). */
export function random(seed: number): RandomState;
/** The next uint32, advancing the state. */
export function nextUint32(s: RandomState): number;
/** A number in [0, 1) with 53 random bits. */
export function nextFloat(s: RandomState): number;
/** An integer in [0, n), 0 < n <= 2^32, without bias. */
export function nextInt(s: RandomState, n: number): number;

/** 1.0 in 16.16 fixed point. */
export const FX_ONE: number;
/** A number to 16.16 (int32), rounded toward -Infinity. */
export function fx(x: number): number;
/** 16.16 to a number, exactly. */
export function fxToNumber(a: number): number;
/** a·b in 16.16, rounded toward -Infinity, wrapped to int32; exact for every int32 pair. */
export function fxMul(a: number, b: number): number;
/** a/b in 16.16, rounded toward -Infinity, wrapped to int32; throws RangeError when b is 0. */
export function fxDiv(a: number, b: number): number;
