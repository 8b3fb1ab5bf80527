// The demo's game: a small top-down arena for 2-8 players. Deterministic
// integer maths only (no Math.sin, no floats in the state), so every copy
// that runs the same commands computes the same state, bit for bit.

export const ARENA = 1 << 18;        // side of the arena, in 1/256 units
const RADIUS = 12 << 8;              // a player's radius
const SPEED = 24;                    // units per tic per unit of forward
const BULLET_SPEED = 14 << 8;
const BULLET_TTL = 45;
const COOLDOWN = 9;
const DAMAGE = 25;
const RESPAWN = 70;
export const MAX_PLAYERS = 8;
// The saved state's layout (Game.save).
const STATE_VERSION = 1;
const STATE_HEAD = 1 + 4 + 4 + 1;     // version, tic, rng, bullet count
const PLAYER_BYTES = 5 * 4 + 4;
const BULLET_BYTES = 2 * 4 + 2 * 2 + 2;

// isin returns sin of an angle in 1/65536 turns, times 16384, with
// Bhaskara's approximation in exact integer arithmetic.
export function isin(a) {
  a &= 0xffff;
  const neg = a >= 0x8000;
  const x = a & 0x7fff;               // [0, half turn)
  const p = x * (0x8000 - x);         // < 2^28: exact in a double
  const v = Math.floor((p * 4 * 16384) / (5 * 0x8000 * 0x8000 / 4 - p));
  return neg ? -v : v;
}
export const icos = (a) => isin(a + 0x4000);

function spawnPoint(rng, i) {
  const n = rng.next();
  return { x: (ARENA / 8) + (n % (ARENA * 3 / 4)), y: (ARENA / 8) + ((n >>> 8) * 7 + i * 9973) % (ARENA * 3 / 4) };
}

// Rng is a 32-bit xorshift, part of the game state.
class Rng {
  constructor(seed) { this.s = seed >>> 0 || 1; }
  next() {
    let s = this.s;
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    this.s = s;
    return s;
  }
}

export class Game {
  constructor() {
    this.tic = 0;
    this.rng = new Rng(0x7ea11);
    this.players = [];
    for (let i = 0; i < MAX_PLAYERS; i++) {
      const p = spawnPoint(this.rng, i);
      this.players.push({ x: p.x, y: p.y, angle: (i * 0x2000) & 0xffff, hp: 100, score: 0, dead: 0, cool: 0, in: false, chat: 0 });
    }
    this.bullets = [];
  }

  // step runs one tic. cmds[p] is null where ingame[p] is false.
  step(tic, cmds, ingame) {
    this.tic = tic;
    for (let i = 0; i < MAX_PLAYERS; i++) {
      const pl = this.players[i];
      pl.in = ingame[i];
      const c = cmds[i];
      if (!pl.in || !c) continue;
      if (pl.dead > 0) {
        if (--pl.dead === 0) {
          const p = spawnPoint(this.rng, i);
          pl.x = p.x; pl.y = p.y; pl.hp = 100;
        }
        continue;
      }
      pl.angle = (pl.angle + c.turn) & 0xffff;
      const ca = icos(pl.angle), sa = isin(pl.angle);
      // forward along the facing, side across it; >> 14 undoes the table's scale
      pl.x += ((c.forward * SPEED * ca) >> 14) - ((c.side * SPEED * sa) >> 14);
      pl.y += ((c.forward * SPEED * sa) >> 14) + ((c.side * SPEED * ca) >> 14);
      pl.x = Math.max(RADIUS, Math.min(ARENA - RADIUS, pl.x));
      pl.y = Math.max(RADIUS, Math.min(ARENA - RADIUS, pl.y));
      if (pl.cool > 0) pl.cool--;
      if ((c.buttons & 1) && pl.cool === 0 && this.bullets.length < 64) {
        pl.cool = COOLDOWN;
        this.bullets.push({ x: pl.x, y: pl.y, dx: (BULLET_SPEED * ca) >> 14, dy: (BULLET_SPEED * sa) >> 14, owner: i, ttl: BULLET_TTL });
      }
      if (c.chat) pl.chat = c.chat;
    }
    const alive = [];
    for (const b of this.bullets) {
      b.x += b.dx; b.y += b.dy; b.ttl--;
      let hit = false;
      for (let i = 0; i < MAX_PLAYERS && !hit; i++) {
        const pl = this.players[i];
        if (i === b.owner || !pl.in || pl.dead > 0) continue;
        const dx = (pl.x - b.x) >> 8, dy = (pl.y - b.y) >> 8, r = RADIUS >> 8;
        if (dx * dx + dy * dy <= r * r) {
          hit = true;
          pl.hp -= DAMAGE;
          if (pl.hp <= 0) { pl.dead = RESPAWN; this.players[b.owner].score++; }
        }
      }
      if (!hit && b.ttl > 0 && b.x > 0 && b.y > 0 && b.x < ARENA && b.y < ARENA) alive.push(b);
    }
    this.bullets = alive;
  }

  // checksum is FNV-1a over every number of the state.
  checksum() {
    let h = 0x811c9dc5;
    const mix = (v) => { h = Math.imul(h ^ (v | 0), 16777619); };
    mix(this.tic); mix(this.rng.s);
    for (const p of this.players) { mix(p.x); mix(p.y); mix(p.angle); mix(p.hp); mix(p.score); mix(p.dead); mix(p.cool); mix(p.in ? 1 : 0); mix(p.chat); }
    for (const b of this.bullets) { mix(b.x); mix(b.y); mix(b.dx); mix(b.dy); mix(b.owner); mix(b.ttl); }
    return h >>> 0;
  }

  // playerChecksum is FNV-1a over player p's own numbers: a replay keeps
  // it beside checksum, so that a playback names the player that differs.
  playerChecksum(p) {
    const pl = this.players[p];
    let h = 0x811c9dc5;
    for (const v of [pl.x, pl.y, pl.angle, pl.hp, pl.score, pl.dead, pl.cool, pl.in ? 1 : 0, pl.chat]) h = Math.imul(h ^ (v | 0), 16777619);
    return h >>> 0;
  }

  // save returns the whole state, compactly: a version byte, the tic and
  // the rng, each player (x, y, angle, hp, score: i32; dead, cool, in,
  // chat: u8), the bullets (x, y: i32; dx, dy: i16; owner, ttl: u8).
  save() {
    const b = new DataView(new ArrayBuffer(STATE_HEAD + MAX_PLAYERS * PLAYER_BYTES + this.bullets.length * BULLET_BYTES));
    let o = 0;
    const u8 = (v) => { b.setUint8(o, v); o += 1; };
    const i16 = (v) => { b.setInt16(o, v, true); o += 2; };
    const i32 = (v) => { b.setInt32(o, v, true); o += 4; };
    u8(STATE_VERSION); i32(this.tic); i32(this.rng.s); u8(this.bullets.length);
    for (const p of this.players) { i32(p.x); i32(p.y); i32(p.angle); i32(p.hp); i32(p.score); u8(p.dead); u8(p.cool); u8(p.in ? 1 : 0); u8(p.chat); }
    for (const t of this.bullets) { i32(t.x); i32(t.y); i16(t.dx); i16(t.dy); u8(t.owner); u8(t.ttl); }
    return new Uint8Array(b.buffer);
  }

  // load replaces the state with one save returned (maybe by another
  // copy, over the network): it throws, the game unchanged, on bytes it
  // cannot read.
  load(state) {
    const n = state.length >= STATE_HEAD ? state[STATE_HEAD - 1] : -1;
    if (state[0] !== STATE_VERSION || n > 64 || state.length !== STATE_HEAD + MAX_PLAYERS * PLAYER_BYTES + n * BULLET_BYTES) {
      throw new Error(`not an arena state (${state.length} bytes)`);
    }
    const b = new DataView(state.buffer, state.byteOffset, state.byteLength);
    let o = 1;
    const u8 = () => b.getUint8(o++);
    const i16 = () => { o += 2; return b.getInt16(o - 2, true); };
    const i32 = () => { o += 4; return b.getInt32(o - 4, true); };
    const g = new Game(); // read into a new game: this one stays as it is on an error
    g.tic = i32(); g.rng.s = i32() >>> 0; o++;
    for (const p of g.players) {
      Object.assign(p, { x: i32(), y: i32(), angle: i32(), hp: i32(), score: i32(), dead: u8(), cool: u8(), in: u8() === 1, chat: u8() });
    }
    for (let i = 0; i < n; i++) g.bullets.push({ x: i32(), y: i32(), dx: i16(), dy: i16(), owner: u8(), ttl: u8() });
    if (g.bullets.some((t) => t.owner >= MAX_PLAYERS)) throw new Error("not an arena state (a bullet's owner)");
    Object.assign(this, g);
  }

  // snapshot copies what the renderer needs to interpolate.
  snapshot() {
    return { players: this.players.map((p) => ({ ...p })), bullets: this.bullets.map((b) => ({ ...b })) };
  }
}

// describe reads a state save returned as named fields, for the diff page
// (diff.html): the tic, the rng, each player's numbers and each bullet's.
// It throws, as load does, on bytes that are not an arena state.
export function describe(state) {
  const g = new Game();
  g.load(state);
  const out = { tic: g.tic, rng: g.rng.s, bullets: g.bullets.length };
  g.players.forEach((p, i) => {
    for (const k of ["x", "y", "angle", "hp", "score", "dead", "cool", "in", "chat"]) out[`players[${i}].${k}`] = p[k];
  });
  g.bullets.forEach((b, i) => {
    for (const k of ["x", "y", "dx", "dy", "owner", "ttl"]) out[`bullets[${i}].${k}`] = b[k];
  });
  return out;
}
