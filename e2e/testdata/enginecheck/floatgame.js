// A small float game: four ships turn, thrust and fall toward a star,
// with sin, cos, atan2, hypot and exp in every tic. floatGame(m) takes the
// math to use: Math (its last bits differ between engines) or detmath.
export function floatGame(m) {
  return (seed) => {
    const s = new Float64Array(4 * 5); // per ship: x, y, vx, vy, angle
    for (let i = 0; i < 4; i++) {
      s[5 * i] = 100 + 37 * i + (seed % 7);
      s[5 * i + 1] = 50 + 13 * i;
      s[5 * i + 4] = i;
    }
    const bytes = new Uint8Array(s.buffer);
    return {
      onTic(tic, cmds) {
        for (let i = 0; i < 4; i++) {
          const o = 5 * i;
          const c = cmds[i];
          if (c & 1) s[o + 4] += 0.07;
          if (c & 2) s[o + 4] -= 0.07;
          s[o + 4] %= 2 * Math.PI;
          const thrust = c & 4 ? 0.05 : 0;
          s[o + 2] += m.cos(s[o + 4]) * thrust;
          s[o + 3] += m.sin(s[o + 4]) * thrust;
          // Gravity toward the star at (200, 200).
          const dx = 200 - s[o];
          const dy = 200 - s[o + 1];
          const r = m.hypot(dx, dy) + 1;
          const a = m.atan2(dy, dx);
          const g = 30 / (r * r);
          s[o + 2] += m.cos(a) * g;
          s[o + 3] += m.sin(a) * g;
          // Drag.
          const drag = m.exp(-0.002 * (1 + (c >> 4)));
          s[o + 2] *= drag;
          s[o + 3] *= drag;
          s[o] = (s[o] + s[o + 2] + 400) % 400;
          s[o + 1] = (s[o + 1] + s[o + 3] + 400) % 400;
        }
      },
      checksum() {
        let h = 0x811c9dc5;
        for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 16777619);
        return h >>> 0;
      },
    };
  };
}
