// Drawing the arena: the demo (main.js) and its replay page (replay.js)
// draw the game alike.
import { ARENA, MAX_PLAYERS, isin, icos } from "./game.js";

export const COLORS = ["#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4", "#46f0f0", "#f032e6"];

// fitCanvas sizes el's pixels to its box at the screen's density and
// returns its box in CSS px, the context drawing in them.
/** @param {HTMLCanvasElement} el @param {CanvasRenderingContext2D} c */
export function fitCanvas(el, c) {
  const dpr = devicePixelRatio || 1, w = el.clientWidth, h = el.clientHeight;
  if (el.width !== Math.round(w * dpr) || el.height !== Math.round(h * dpr)) {
    el.width = Math.round(w * dpr); el.height = Math.round(h * dpr);
  }
  c.setTransform(dpr, 0, 0, dpr, 0, 0);
  return { w, h };
}

// drawArena clears a w×h canvas and draws the arena as the largest square
// at its top, centred: the game between the snapshots prev and cur (as
// Game.snapshot makes them) at a, 0 to 1 of the way; me is the player
// marked "you" (-1: none). It returns the square, in CSS px.
/** @param {CanvasRenderingContext2D} ctx */
export function drawArena(ctx, w, h, prev, cur, a, me) {
  const side = Math.min(w, h), left = (w - side) / 2, s = side / ARENA;
  ctx.fillStyle = "#111"; ctx.fillRect(0, 0, w, h);
  ctx.save();
  ctx.translate(left, 0);
  ctx.strokeStyle = "#444"; ctx.strokeRect(0.5, 0.5, side - 1, side - 1);
  for (let i = 0; i < MAX_PLAYERS; i++) {
    const p = cur.players[i], q = prev.players[i];
    if (!p.in || p.dead > 0) continue;
    const x = (q.x + (p.x - q.x) * a) * s, y = (q.y + (p.y - q.y) * a) * s;
    ctx.fillStyle = COLORS[i];
    ctx.beginPath(); ctx.arc(x, y, Math.max(4, 12 * 256 * s), 0, 2 * Math.PI); ctx.fill();
    ctx.strokeStyle = "#fff"; ctx.beginPath(); ctx.moveTo(x, y);
    ctx.lineTo(x + icos(p.angle) / 16384 * 20, y + isin(p.angle) / 16384 * 20); ctx.stroke();
    ctx.fillText(`${p.score}${i === me ? " you" : ""}`, x + 10, y - 10);
  }
  ctx.fillStyle = "#ff8";
  for (const b of cur.bullets) ctx.fillRect(b.x * s - 2, b.y * s - 2, 4, 4);
  ctx.restore();
  return { left, side };
}
