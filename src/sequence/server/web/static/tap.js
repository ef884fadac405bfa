/* A finger on a board (the table, app.js boardSvg; the first game that teaches, learn.js): a tap
   just beside a space that can be played counts for that space. Each such space answers within
   a square of at least TAP px around its centre (44 px, the least a finger needs, and a
   margin), larger than the space itself where the board is small (a 10-column board on a
   phone). Loaded before app.js and learn.js. */
"use strict"; // i18n: ignore (a directive)

const TAP = 52;

/* Of the elements `spaces` (each drawn in the box `box(el)`), the one whose tap square holds
   the click `e`, the nearest of several; null if none, or if `e` is no real click (the
   Enter of the keyboard, which has no position). */
function nearestTap(spaces, e, box = (el) => el.getBoundingClientRect()) {
  if (!e.detail || (!e.clientX && !e.clientY)) return null;
  let best = null, bestD = Infinity;
  for (const el of spaces) {
    const r = box(el);
    const dx = Math.abs(e.clientX - (r.left + r.width / 2)), dy = Math.abs(e.clientY - (r.top + r.height / 2));
    if (dx > Math.max(r.width, TAP) / 2 || dy > Math.max(r.height, TAP) / 2) continue;
    const d = dx * dx + dy * dy;
    if (d < bestD) { bestD = d; best = el; }
  }
  return best;
}
