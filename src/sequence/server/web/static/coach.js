/* Learning at the table and after it: the hint at a casual table (coaching.py on the server) and
   the review of a finished game beside its replay (GET /api/tables/{code}/review).
   The server decides both from what each seat could see, and says every move and reason in
   words in the language of the reader (move_says, says); this shows what it sends. Loaded
   before app.js; h(), t(), send() and table come from it, used at call time. */
"use strict"; // i18n: ignore (a directive)

/* ---- the hint ------------------------------------------------------------------------------ */
function hintSpace(mv) { const m = /([a-j]\d+)$/.exec(mv || ""); return m ? m[1] : null; }
function hintCard(mv) { const m = /^(?:dead:)?([A-Z0-9]+)(?:[@x]|$)/.exec(mv || ""); return m && mv !== "pass" ? m[1] : null; }

/* The hint for the seat to play at a casual table (a rated table offers none; nor does the page
   of a spectator): a button beside the sound toggle, then what the server found and why. */
function hintOffered(m) {
  const v = m.view;
  return m.you.seat !== null && !m.table.rated && !v.outcome && v.legal_moves.length > 0;
}
const heldHint = (m) => (table.hint && table.hint.version === m.version ? table.hint : null);
/* The Hint button (null where none is offered, or once the hint has come). */
function hintButton(m) {
  const hint = heldHint(m);
  if (!hintOffered(m) || (hint && hint.move)) return null;
  return h("button", { id: "ask-hint", disabled: hint && hint.pending, onclick: () => {
    table.hint = { pending: true, version: m.version };
    send({ type: "hint", version: m.version });
    renderTable();
  } }, hint && hint.pending ? t("Thinking…") : t("Hint"));
}
/* On a narrow screen the reasons wait a tap away (the board and the hand stay in view). */
const NARROW = "(max-width: 860px)"; // i18n: ignore (style.css: the board above the panels)
/* The hint come: the move in words, one line that opens on its reasons (open at first on a wide
   screen; then as the reader last left them). Null until it has come. */
function hintSaid(m) {
  const hint = heldHint(m);
  if (!hintOffered(m) || !hint || !hint.move) return null;
  const open = table.hintOpen != null ? table.hintOpen : !matchMedia(NARROW).matches;
  const box = h("details", { class: "hint-box", id: "hint-box", open },
    h("summary", {}, h("span", { id: "hint", "data-move": hint.move }, h("b", {}, t("Hint:")), " ", hint.move_says)),
    h("ul", { id: "hint-why" }, hint.notes.map((n) => h("li", { "data-code": n.code }, n.says))));
  box.addEventListener("toggle", () => { table.hintOpen = box.open; });
  return box;
}
/* The answer of the server: kept for its position only (a new state drops it). */
function hintArrived(msg) {
  if (!table.msg || msg.version !== table.msg.version) return;
  table.hint = msg;
  renderTable();
}
/* After the table is drawn: the hinted space and card light up. */
function markHint() {
  const hint = table.hint;
  if (!hint || !hint.move || !table.msg || hint.version !== table.msg.version) return;
  if (!table.msg.view || table.msg.view.outcome) return; // the end screen shows no hint
  const space = hintSpace(hint.move), card = hintCard(hint.move);
  if (space) { const g = document.querySelector(`#board [data-space="${space}"]`); if (g) g.classList.add("hinted"); }
  if (card) { const c = document.querySelector(`#hand .card[data-card="${card}"]`); if (c) c.classList.add("hinted"); }
}

/* ---- the review of a finished game, beside its replay ------------------------------------- */
const review = { code: null, data: null, timer: null, ply: 0, plies: 1, view: null, go: null };
function verdictText(v) {
  if (v === "best") return t("Best move");
  if (v === "good") return t("Good move");
  if (v === "inaccuracy") return t("Inaccuracy");
  if (v === "mistake") return t("Mistake");
  if (v === "blunder") return t("Blunder");
  return v;
}
/* The review panel of the replay of game `code`; `go(n)` shows the position after n moves. The
   server computes the review once (202 until then: asked again every 1.5 s). */
function reviewPanel(code, go) {
  if (review.timer) clearTimeout(review.timer);
  Object.assign(review, { code, data: null, timer: null, go });
  const box = h("section", { class: ["panel", "review"], id: "review" }, h("h2", {}, t("Review")),
    h("p", { class: "explain", id: "review-method" },
      t("Each move is judged only by what its mover could see. The chances are an estimate: how often each side wins when the game is played on from many guesses of the hidden cards.")),
    h("div", { id: "review-body" }, h("p", { id: "review-status" }, t("Reviewing the game…"))));
  fetchReview(code);
  return box;
}
async function fetchReview(code) {
  if (review.code !== code) return;
  try {
    const r = await fetch(`/api/tables/${code}/review?lang=${chosenLanguage()}`);
    const data = await r.json();
    if (review.code !== code) return;
    if (r.status === 202) {
      const st = $("#review-status");
      if (st) st.textContent = data.total ? t("Reviewing the game… {done} of {total} moves", { done: data.done, total: data.total }) : t("Reviewing the game…");
      review.timer = setTimeout(() => fetchReview(code), 1500);
      return;
    }
    if (!r.ok) throw new Error(data.message || t("Request failed ({status})", { status: r.status }));
    review.data = data.review;
    drawReview();
  } catch (e) {
    const body = $("#review-body");
    if (body) { body.innerHTML = ""; body.append(h("div", { class: "error" }, e.message)); }
  }
}
/* The replay moved to `ply` of `plies` (`view`: what spectators saw after it): the verdict of the
   move just made, the cursor of the chart. */
function reviewAt(ply, plies, view) {
  Object.assign(review, { ply, plies: Math.max(1, plies), view });
  drawReview();
}
function teamOf(seat) { return review.view ? review.view.teams.findIndex((tm) => tm.seats.includes(seat)) : 0; }
function saidList(notes, id) { return notes.length ? h("ul", { id }, notes.map((n) => h("li", { "data-code": n.code }, n.says))) : null; }

function drawReview() {
  const body = $("#review-body"), rv = review.data;
  if (!body || !rv) return;
  body.innerHTML = "";
  const judged = rv.moves.find((mv) => mv.index === review.ply - 1);
  const here = h("div", { id: "review-move", "data-ply": review.ply, "data-verdict": judged ? judged.verdict : "" });
  if (review.ply === 0) here.append(h("p", {}, t("Step through the game to see each move judged.")));
  else if (!judged) here.append(h("p", {}, t("There was no choice to judge in this move.")));
  else {
    here.append(h("p", {}, h("span", { class: ["verdict", judged.verdict] }, verdictText(judged.verdict)),
      " ", t("Move {n}: {move}", { n: judged.number, move: judged.move_says })));
    if (judged.best !== judged.move && judged.verdict !== "best" && judged.verdict !== "good") {
      here.append(h("p", { id: "review-better" }, t("Better: {move}", { move: judged.best_says })));
    }
    const flags = saidList(judged.flags, "review-flags"); if (flags) here.append(flags);
    const notes = saidList(judged.notes, "review-notes"); if (notes) here.append(notes);
  }
  body.append(here, chancesChart(rv), h("h3", {}, t("Turning points")));
  if (!rv.turning_points.length) body.append(h("p", { id: "turning-points" }, t("No move swung the chances much.")));
  else body.append(h("ol", { id: "turning-points" }, rv.turning_points.map((tp) => h("li", {},
    h("button", { class: "link", "data-ply": tp.number, onclick: () => review.go && review.go(tp.number) },
      t("Move {n}", { n: tp.number })), " ",
    t("Team {team}: {swing}", { team: rv.teams[teamOf(tp.seat)] || "", swing: `${tp.swing > 0 ? "+" : ""}${Math.round(tp.swing * 100)}%` }),
    saidList(tp.notes, null)))));
}
/* The estimated chance of each side to win over the game, as lines; the cursor at the move shown. */
function chancesChart(rv) {
  const ns = "http://www.w3.org/2000/svg";
  const W = 320, H = 120, P = 4;
  const plies = review.plies;
  const x = (i) => P + (W - 2 * P) * i / plies, y = (c) => P + (H - 2 * P) * (1 - c);
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`); svg.setAttribute("id", "chances");
  svg.setAttribute("role", "img"); svg.setAttribute("aria-label", t("Each side's chances over the game"));
  const mid = document.createElementNS(ns, "line");
  mid.setAttribute("x1", P); mid.setAttribute("x2", W - P); mid.setAttribute("y1", y(0.5)); mid.setAttribute("y2", y(0.5));
  mid.setAttribute("class", "half"); svg.append(mid);
  rv.teams.forEach((letter, team) => {
    const line = document.createElementNS(ns, "polyline");
    line.setAttribute("points", rv.chances.map((c) => `${x(c.index).toFixed(1)},${y(c.chances[team]).toFixed(1)}`).join(" "));
    const colour = review.view ? review.view.teams[team].colour : ["blue", "green", "red"][team];
    line.setAttribute("stroke", `var(--${colour})`); line.setAttribute("data-team", letter);
    line.setAttribute("class", "chance"); svg.append(line);
  });
  const cursor = document.createElementNS(ns, "line");
  cursor.setAttribute("x1", x(review.ply)); cursor.setAttribute("x2", x(review.ply));
  cursor.setAttribute("y1", P); cursor.setAttribute("y2", H - P); cursor.setAttribute("class", "cursor");
  svg.append(cursor);
  const legend = h("p", { class: "legend" }, rv.teams.map((letter, team) => h("span", { class: "badge" },
    review.view ? teamSwatch(review.view, team) : null, " ", t("Team {team}", { team: letter }))));
  return h("div", { class: "chart" }, svg, legend);
}
