/* Reading the table at a glance: the log in words, the coordinates of the board and sequences, the
   end, your turn noticed, Dice drawn and explained, the invite link copied. Loaded before app.js
   and called from it; t(), tn(), h() and cardText() come from app.js, used at call time.
   Every fact comes from the server: view.log (who made each move and whose chip it took, from
   the history in the engine), view.roll_reason (what a roll allows, from the Dice rules of the engine),
   view.outcome and view.sequences. Nothing here decides a rule. */
"use strict"; // i18n: ignore (a directive)

const TEAM_MARKS = ["●", "■", "▲", "◆"]; // the chip shapes (app.js SHAPES) as text: i18n: ignore
const SVG_NS = "http://www.w3.org/2000/svg";

/* A translated message whose {placeholders} may be DOM nodes: t("...") first (so the extractor
   sees the literal), then the nodes put in. */
function withNodes(text, params) {
  return text.split(/(\{\w+\})/).filter((p) => p !== "").map((part) => {
    const k = /^\{(\w+)\}$/.exec(part);
    if (!k || !(k[1] in params)) return part;
    const v = params[k[1]];
    return v instanceof Node ? v : String(v);
  });
}

function teamMark(view, team) {
  return h("span", { class: "mark", style: `color:var(--${view.teams[team].colour})` }, TEAM_MARKS[team % 4]);
}
function cardSpan(name) {
  if (kidsPicture(name)) return h("b", { class: ["logcard", "kids"] }, kidsImg(name, ["pic", "small"]), cardText(name));
  return h("b", { class: ["logcard", isRed(name) && "red"] }, cardText(name));
}

/* ---- Sequence for Kids in pictures ------------------------------------------------------------
   Each animal, the Unicorn and the Dragon has a picture (static/kids/, Twemoji, CC-BY 4.0: see
   static/kids/LICENSE.txt), shown on the board, in the hand and in the log with its word (in the
   language of the reader) under it. The name of the card, as the engine spells it, picks the file. */
const KIDS_PICTURES = new Set(["BEAR", "CAT", "COW", "DOG", "DUCK", "ELEPHANT", "FOX", "FROG", "GIRAFFE", "HORSE",
  "LION", "MONKEY", "OWL", "PANDA", "PENGUIN", "PIG", "RABBIT", "TIGER", "ZEBRA", "UNICORN", "DRAGON"]); // i18n: ignore (card names)
function kidsPicture(name) {
  return KIDS_PICTURES.has(name) ? `/static/kids/${name.toLowerCase()}.svg` : null;
}
function kidsImg(name, cls) {
  return h("img", { class: cls, src: kidsPicture(name), alt: cardText(name), "data-card": name, draggable: "false" });
}
/* A card of the hand: the picture, the word under it. */
function cardFace(name) {
  if (!kidsPicture(name)) return cardText(name);
  return [kidsImg(name, "pic"), h("span", { class: "word" }, cardText(name))];
}
/* A Kids space of the board: the picture (smaller, at the top, under a chip) and the word under
   it; false for a space that is not a Kids picture (app.js draws its label). */
function kidsSpace(g, sp, x, y, S) {
  const href = kidsPicture(sp.label);
  if (!href) return false;
  const word = cardText(sp.label);
  const size = sp.chip === null ? S * 0.56 : S * 0.34;
  const img = document.createElementNS(SVG_NS, "image");
  img.setAttribute("href", href);
  img.setAttribute("x", x + (S - size) / 2); img.setAttribute("y", y + 3);
  img.setAttribute("width", size); img.setAttribute("height", size);
  img.setAttribute("class", "pic"); img.setAttribute("role", "img"); img.setAttribute("aria-label", word);
  img.setAttribute("data-card", sp.label);
  g.append(img);
  if (sp.chip === null) {
    const text = document.createElementNS(SVG_NS, "text");
    text.setAttribute("x", x + S / 2); text.setAttribute("y", y + S - 9);
    text.setAttribute("class", "kidsword");
    text.textContent = word;
    if ([...word].length >= 5) { text.setAttribute("textLength", S - 6); text.setAttribute("lengthAdjust", "spacingAndGlyphs"); }
    g.append(text);
  }
  return true;
}
function whoNode(m, seat) {
  const v = m.view;
  const team = m.table.seats[seat].team;
  return h("span", { class: "who" }, seatLabel(m, seat), " ", teamMark(v, team));
}
/* Whose chip a removal took: "your" when it was the team of the reader. */
function myTeam(m) {
  return m.you.seat === null ? null : m.table.seats[m.you.seat].team;
}

function rollMeaning(e) {
  if (e.meaning === "defence") return t("defence");
  if (e.meaning === "wild") return t("wild");
  return null;
}

/* One move of view.log as a sentence. */
function logSentence(m, e) {
  const v = m.view;
  const who = e.seat === null ? t("Someone") : whoNode(m, e.seat);
  const yours = e.removed !== null && e.removed === myTeam(m);
  const other = e.removed === null ? "" : h("span", {}, v.teams[e.removed].letter, " ", teamMark(v, e.removed));
  const sp = e.space ? h("b", { class: "coord" }, e.space) : "";
  const card = e.card ? cardSpan(e.card) : "";
  switch (e.kind) {
    case "place":
      return e.card ? withNodes(t("{who} played {card} on {space}"), { who, card, space: sp })
        : withNodes(t("{who} placed a chip on {space}"), { who, space: sp });
    case "remove":
      if (e.card) return yours ? withNodes(t("{who} removed your chip from {space} with {card}"), { who, card, space: sp })
        : withNodes(t("{who} removed a chip of team {team} from {space} with {card}"), { who, card, space: sp, team: other });
      return yours ? withNodes(t("{who} removed your chip from {space}"), { who, space: sp })
        : withNodes(t("{who} removed a chip of team {team} from {space}"), { who, space: sp, team: other });
    case "replace":
      return yours ? withNodes(t("{who} replaced your chip on {space}"), { who, space: sp })
        : withNodes(t("{who} replaced a chip of team {team} on {space}"), { who, space: sp, team: other });
    case "dead": return withNodes(t("{who} exchanged the dead card {card}"), { who, card });
    case "discard": return withNodes(t("{who} discarded {card} and passed"), { who, card });
    case "pass": return withNodes(t("{who} passed"), { who });
    case "draw": return withNodes(t("{who} drew a card"), { who });
    case "pick": return withNodes(t("{who} took {card} from the draft"), { who, card });
    case "forfeit": return withNodes(t("{who} gave up {card}"), { who, card });
    case "penalty": return withNodes(t("Table-talk penalty for team {team}"), { team: h("span", {}, v.teams[e.team].letter, " ", teamMark(v, e.team)) });
    case "roll": {
      const meaning = rollMeaning(e);
      const params = { who, a: e.dice[0], b: e.dice[1], total: e.total, meaning };
      return meaning ? withNodes(t("{who} rolled {a}+{b} = {total}: {meaning}"), params)
        : withNodes(t("{who} rolled {a}+{b} = {total}"), params);
    }
    default: return [e.move];
  }
}

/* The sequences a move completed (view.log's completed, from the engine's history), in words. */
function completedLine(m, e) {
  if (!e.completed || !e.completed.length) return null;
  const who = e.seat === null ? t("Someone") : whoNode(m, e.seat);
  const spaces = h("b", { class: "coord" }, e.completed.map(seqNames).join(", "));
  return h("div", { class: "seqdone" }, withNodes(tn("{who} completed {n} sequence: {spaces}",
    "{who} completed {n} sequences: {spaces}", e.completed.length, { n: e.completed.length }), { who, spaces }));
}

/* Who deals and who plays first (view.setup: the cut, the dealer drawn or the roll-off), in the
   words of the terminal's log. */
function setupLines(m) {
  const s = m.view.setup;
  if (!s) return [];
  const who = (seat) => whoNode(m, seat);
  const first = who(s.first);
  const lines = [];
  if (s.rolls.length) {
    for (const round of s.rolls) lines.push(withNodes(t("Roll-off: {rolls}"), { rolls: h("span", {},
      round.flatMap(([seat, d], i) => [i ? ", " : "", who(seat), ` ${d[0]}+${d[1]}`])) }));
    lines.push(withNodes(t("{first} rolled highest and plays first."), { first }));
  } else if (s.cuts.length && s.dealer !== null) {
    for (const round of s.cuts) lines.push(withNodes(t("Cut for dealer: {cuts}"), { cuts: h("span", {},
      round.flatMap(([seat, card], i) => [i ? ", " : "", who(seat), " ", cardSpan(card)])) }));
    lines.push(withNodes(t("{dealer} cut lowest and deals; {first} plays first."), { dealer: who(s.dealer), first }));
  } else if (s.dealer !== null) {
    lines.push(withNodes(t("{dealer} was drawn to deal; {first} plays first."), { dealer: who(s.dealer), first }));
  } else lines.push(withNodes(t("{first} plays first."), { first }));
  return lines;
}

/* Since the reader's own last move (a spectator: over the last round), each other player's last
   move: the space it was on -> the seat that made it, for the board to mark until the reader's
   turn ends. */
function recentMoves(m) {
  const marks = new Map(), seen = new Set();
  const log = m.view.log || [];
  for (let i = log.length - 1; i >= 0; i--) {
    const e = log[i];
    if (e.seat === null || e.kind === "draw" || e.kind === "roll") continue;
    if (e.seat === m.you.seat || (m.you.seat === null && seen.has(e.seat))) break;
    seen.add(e.seat);
    if (e.space && !marks.has(e.space)) marks.set(e.space, e.seat);
  }
  return marks;
}

/* The log panel: who deals and starts, then the moves as sentences (or the notation for those
   who want it: one click, remembered); redraw() draws the page again after the switch (the
   table, or the replay at its move). On a narrow screen the table shows it as a sheet one tap
   away (logSheet). */
function logPanel(m, redraw = renderTable) {
  const v = m.view;
  const notation = localStorage.getItem("seq.notation") === "1";
  const entries = v.log || v.moves.map((mv) => ({ move: mv, kind: "", seat: null }));
  const toggle = h("button", { id: "log-notation", class: "small", "aria-pressed": notation ? "true" : "false", onclick: () => {
    localStorage.setItem("seq.notation", notation ? "0" : "1"); redraw();
  } }, notation ? t("Show words") : t("Show notation"));
  return h("section", { class: ["panel", "log", notation && "notation"], id: "log" },
    h("div", { class: "loghead" }, h("h2", {}, t("Moves")), toggle),
    notation ? null : h("div", { class: "setup", id: "log-setup" }, setupLines(m).map((line) => h("p", {}, line))),
    h("ol", {}, entries.map((e) => h("li", { "data-move": e.move }, notation ? e.move : [...logSentence(m, e), completedLine(m, e)]))));
}

/* On a narrow screen the log is a sheet over the page, opened by a bar fixed at the bottom that
   reads the last move: one tap away wherever the page is scrolled. (Wide screens show the log
   beside the board and hide the bar.) The sheet stays open through redraws until closed. */
function logSheet(m, log) {
  const v = m.view;
  const entries = v.log || [];
  const last = entries.length ? logSentence(m, entries[entries.length - 1]) : setupLines(m).slice(-1)[0] || [];
  log.classList.add("sheet");
  if (table.logOpen) log.classList.add("open");
  log.querySelector(".loghead").append(h("button", { id: "log-close", class: ["small", "sheet-only"], onclick: () => {
    table.logOpen = false; log.classList.remove("open");
  } }, t("Close")));
  return h("button", { id: "log-open", class: "logbar", "aria-controls": "log", onclick: () => {
    table.logOpen = true; log.classList.add("open");
    const ol = log.querySelector("ol"); ol.scrollTop = ol.scrollHeight;
  } }, h("b", {}, t("Moves")), " ", h("span", { class: "lastmove" }, last));
}

/* ---- the board: coordinates on its edges, completed sequences as lines ------------------- */
const BOARD_MARGIN = 22;
function boardEdges(svg, rows, cols, S) {
  const M = BOARD_MARGIN;
  for (let c = 0; c < cols; c++) {
    const tx = document.createElementNS(SVG_NS, "text");
    tx.setAttribute("class", "edge"); tx.setAttribute("x", M + c * S + S / 2); tx.setAttribute("y", M / 2 + 1);
    tx.textContent = "abcdefghij"[c];
    svg.append(tx);
  }
  for (let r = 0; r < rows; r++) {
    const tx = document.createElementNS(SVG_NS, "text");
    tx.setAttribute("class", "edge"); tx.setAttribute("x", M / 2); tx.setAttribute("y", M + r * S + S / 2);
    tx.textContent = String(r + 1);
    svg.append(tx);
  }
}
/* A word label (Kids animals) in a smaller size, squeezed to the width of the space when long. */
function fitLabel(text, S) {
  const n = [...text.textContent].length;
  if (!/\p{L}{3}/u.test(text.textContent)) return; // card labels ("10♥") keep their size
  text.classList.add("word");
  if (n >= 6) { text.setAttribute("textLength", S - 6); text.setAttribute("lengthAdjust", "spacingAndGlyphs"); }
}
function spaceCentre(name, S) {
  const col = name.charCodeAt(0) - 97, row = Number(name.slice(1)) - 1;
  return [BOARD_MARGIN + col * S + S / 2, BOARD_MARGIN + row * S + S / 2 + 9];
}
/* Each completed sequence (view.sequences: its spaces, in reading order) drawn through its chips. */
function sequenceLines(svg, view, S, winnerOnly) {
  view.sequences.forEach((seqs, team) => {
    if (winnerOnly && view.outcome && view.outcome.winner !== team) return;
    for (const spaces of seqs) {
      const [x1, y1] = spaceCentre(spaces[0], S);
      const [x2, y2] = spaceCentre(spaces[spaces.length - 1], S);
      const line = document.createElementNS(SVG_NS, "line");
      line.setAttribute("x1", x1); line.setAttribute("y1", y1); line.setAttribute("x2", x2); line.setAttribute("y2", y2);
      line.setAttribute("class", "seqline"); line.setAttribute("stroke", `var(--${view.teams[team].colour})`);
      line.setAttribute("data-team", team);
      svg.append(line);
    }
  });
}

/* ---- the end ----------------------------------------------------------------------------- */
function seqNames(spaces) { return `${spaces[0]}–${spaces[spaces.length - 1]}`; } // i18n: ignore (space names)

function endPanel(m) {
  const v = m.view, o = v.outcome, you = m.you;
  const mine = myTeam(m);
  const teamGame = v.teams.some((tm) => tm.seats.length > 1);
  // Who won, as the table knows them: a team by its letter, a player alone on a side (every
  // Kids and Dice game for two) by name, with the mark of their chips.
  const winnerWins = () => {
    const w = o.winner, seats = v.teams[w].seats;
    if (teamGame) return withNodes(t("Team {team} wins!"), { team: h("span", {}, v.teams[w].letter, " ", teamMark(v, w)) });
    return withNodes(t("{name} wins!"), { name: h("span", {}, seatLabel(m, seats[0]), " ", teamMark(v, w)) });
  };
  let headline, cls;
  if (o.winner === null) { headline = t("The game is drawn."); cls = "draw"; }
  else if (mine === null) { headline = winnerWins(); cls = "won"; }
  else if (mine === o.winner) { headline = teamGame ? t("Your team won!") : t("You won!"); cls = "won"; }
  else { headline = teamGame ? t("Your team lost.") : t("You lost."); cls = "lost"; }
  const box = h("div", { class: ["end", cls], id: "end" });
  box.append(h("div", { class: "result", id: "result" }, headline));
  if (o.winner !== null && mine !== null && mine !== o.winner) box.append(h("p", { id: "winner" }, winnerWins()));
  const reasons = {
    sequences: null,
    heart: t("The winners hold the heart of the board."),
    stalemate: t("No card or roll could change the board any more."),
    max_turns: t("The turn limit was reached."),
    deck_empty: t("The draw pile ran out."),
  };
  // A resignation says who resigned (from the table events).
  // Or whose days ran out, at a correspondence table that chose so.
  const ended = { resigned: "resign", timeout: "timeout" }[o.termination];
  const resigned = ended ? (m.table.events || []).filter((e) => e.kind === ended && e.detail === "lost").pop() : null;
  if (resigned) box.append(h("p", { id: "end-reason" }, eventText(m, resigned)));
  if (reasons[o.termination]) box.append(h("p", { id: "end-reason" }, reasons[o.termination]));
  if (o.winner !== null && v.sequences[o.winner].length) {
    box.append(h("p", { id: "winning-sequences" }, teamMark(v, o.winner), " ",
      tn("Winning sequence: {list}", "Winning sequences: {list}", v.sequences[o.winner].length,
        { list: v.sequences[o.winner].map(seqNames).join(", ") })));
  }
  // The turns, and the moves the log and the replay number when a turn had more than one (a
  // dead card exchanged, a draw, a roll): in some languages turns and moves are one word, so the
  // sentence says why the two counts differ.
  const moves = v.moves.length;
  const turnCount = tn("{n} turn", "{n} turns", v.turns), moveCount = tn("{n} move", "{n} moves", moves);
  box.append(h("p", { id: "game-length" }, moves === v.turns
    ? tn("The game lasted {n} turn.", "The game lasted {n} turns.", v.turns)
    : t("The game lasted {turns} ({moves} in the move list, where exchanging a dead card, drawing or rolling the dice counts as a move).",
      { turns: turnCount, moves: moveCount })));
  const acts = h("div", { class: "actions" });
  if (you.seat !== null || you.host) acts.append(h("button", { class: "primary", id: "rematch", onclick: async () => {
    try { const r = await api("POST", `/api/tables/${m.table.code}/rematch`, { token: seatToken(m.table.code) || hostToken(m.table.code) }); remember(r.code, seatToken(m.table.code), hostToken(m.table.code)); passplay.carry(m.table.code, r.code); go(r.url, true); }
    catch (e) { table.error = e.message; renderTable(); }
  } }, t("Rematch")));
  acts.append(h("button", { id: "to-replay", onclick: () => go(`/replay/${m.table.code}`) }, t("Replay")));
  acts.append(h("button", { id: "to-lobby", onclick: () => go("/") }, t("Back to the lobby")));
  box.append(acts);
  return box;
}

/* ---- your turn, noticed ------------------------------------------------------------------ */
const notice = { mine: false, icon: null };
function isMyTurn(m) {
  const v = m.view;
  if (!v || v.outcome || m.you.seat === null) return false;
  return v.legal_moves.length > 0 || (m.table.chance && v.to_move === m.you.seat);
}
function soundOn() { return localStorage.getItem("seq.sound") === "1"; }
function beep() {
  try {
    const ctx = new (window.AudioContext || window.webkitAudioContext)();
    const osc = ctx.createOscillator(), gain = ctx.createGain();
    osc.frequency.value = 660; gain.gain.value = 0.08;
    osc.connect(gain); gain.connect(ctx.destination);
    osc.start(); osc.stop(ctx.currentTime + 0.18);
  } catch (e) { /* no audio: the title and the banner still say it */ }
}
/* The title of the tab and icon say whose turn it is; a sound (if asked for) when it becomes yours. */
function noticeTurn(m) {
  const mine = !!(m && isMyTurn(m));
  const base = t("Sequence");
  // Words outside template literals, where the extractor of the catalogue finds them.
  const over = m && m.view && m.view.outcome;
  const state = mine ? t("Your turn") : over ? t("Game over") : null;
  document.title = state ? state + " · " + base : base; // i18n: ignore (a separator)
  const link = document.querySelector('link[rel="icon"]');
  if (link) link.setAttribute("href", mine ? "/static/favicon-turn.svg" : "/static/favicon.svg");
  if (mine && !notice.mine && soundOn()) beep();
  notice.mine = mine;
}
function soundToggle() {
  const on = soundOn();
  return h("button", { id: "sound", class: "small", "aria-pressed": on ? "true" : "false", onclick: () => {
    localStorage.setItem("seq.sound", on ? "0" : "1"); if (!on) beep(); renderTable();
  } }, on ? t("Sound: on") : t("Sound: off"));
}
function turnBanner(m) {
  // On a device several people share (passplay.js), the banner names whose hand is shown.
  const text = passplay.active(m.table.code) ? t("{name}, your turn", { name: seatLabel(m, m.you.seat) }) : t("Your turn");
  return h("div", { class: "turn banner", id: "turn", role: "status" }, text); // i18n: ignore (class names)
}

/* ---- Dice you can see -------------------------------------------------------------------- */
const PIPS = { 1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]], 4: [[1, 1], [3, 1], [1, 3], [3, 3]],
  5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]], 6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]] };
function dieFace(n) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 40 40"); svg.setAttribute("class", "die"); svg.setAttribute("data-value", n);
  svg.setAttribute("role", "img"); svg.setAttribute("aria-label", String(n));
  const r = document.createElementNS(SVG_NS, "rect");
  r.setAttribute("x", 1.5); r.setAttribute("y", 1.5); r.setAttribute("width", 37); r.setAttribute("height", 37); r.setAttribute("rx", 7);
  svg.append(r);
  for (const [cx, cy] of PIPS[n]) {
    const c = document.createElementNS(SVG_NS, "circle");
    c.setAttribute("cx", cx * 10); c.setAttribute("cy", cy * 10); c.setAttribute("r", 3.6);
    svg.append(c);
  }
  return svg;
}
/* What the roll being acted on allows: said to the roller as what to do, and to everyone else
   as what that player may do (name null: the reader rolled), never as an order to the reader. */
function rollExplanation(reason, name) {
  const n = reason.total;
  const mine = name === null;
  const texts = mine ? {
    defence: t("10 is defence: remove a chip of another team (not from a 2 or a 12 space)."),
    defence_none: t("10 is defence, but no chip of another team can be removed: the only choice is to pass."),
    wild: t("11 is wild: place a chip on any open space."),
    wild_full: t("11 is wild, and no space is open: replace a chip of another team, or pass."),
    wild_none: t("11 is wild, but no space is open and no chip can be replaced: the only choice is to pass."),
    number: t("Place a chip on an open {n} space.", { n }),
    number_replace: t("Every {n} space is taken: replace a chip of another team on one.", { n }),
    number_none: t("Every {n} space holds your team's chip: the only choice is to pass.", { n }),
    out_of_chips: t("No chip is left to place: the only choice is to pass."),
  } : {
    defence: t("10 is defence: {name} may remove a chip of another team (not from a 2 or a 12 space).", { name }),
    defence_none: t("10 is defence, but no chip of another team can be removed: {name} can only pass.", { name }),
    wild: t("11 is wild: {name} may place a chip on any open space.", { name }),
    wild_full: t("11 is wild, and no space is open: {name} may replace a chip of another team, or pass.", { name }),
    wild_none: t("11 is wild, but no space is open and no chip can be replaced: {name} can only pass.", { name }),
    number: t("{name} may place a chip on an open {n} space.", { n, name }),
    number_replace: t("Every {n} space is taken: {name} may replace a chip of another team on one.", { n, name }),
    number_none: t("Every {n} space already holds a chip of their team: {name} can only pass.", { n, name }),
    out_of_chips: t("No chip is left to place: {name} can only pass.", { name }),
  };
  const out = [texts[reason.code]];
  if (reason.extra_turn) out.push(" ", t("A {n}: the same player rolls again after this.", { n }));
  return out;
}
function dicePanel(m) {
  const v = m.view;
  const reason = v.roll_reason;
  const name = v.to_move === m.you.seat ? null : seatLabel(m, v.to_move);
  return h("div", { class: "dicebox", id: "dice" },
    h("div", { class: "faces" }, dieFace(v.roll[0]), dieFace(v.roll[1]), h("span", { class: "total", id: "dice-total" }, "= ", v.roll[0] + v.roll[1])),
    reason ? h("p", { class: "explain", id: "roll-reason" }, rollExplanation(reason, name)) : null);
}
/* The key to the rolls, always beside a Dice board (before any roll too): what each total lets
   the roller do. The rules are the engine's (narrate.roll_reason); this is their summary. */
function diceKey() {
  return h("details", { class: "dicekey", id: "dice-key", open: true },
    h("summary", {}, t("What the rolls do")),
    h("ul", {},
      h("li", {}, h("b", {}, "2 · 12"), " ", t("place a chip on a space of that number, then roll again.")),
      h("li", {}, h("b", {}, "10"), " ", t("defence: remove a chip of another team (not from a 2 or a 12 space).")),
      h("li", {}, h("b", {}, "11"), " ", t("wild: place a chip on any open space.")),
      h("li", {}, h("b", {}, "3–9"), " ", t("place a chip on an open space of that number; all taken: replace a chip of another team on one."))));
}

/* ---- the invite link --------------------------------------------------------------------- */
// Where friends reach this server (GET /api/meta's invite_base: the network address of a server
// listening on the network, or its public URL), else the address this page was opened at.
function inviteLink(code) {
  return `${(meta && meta.invite_base) || location.origin}/t/${code}`;
}
async function copyText(text) {
  try { await navigator.clipboard.writeText(text); return true; } catch (e) { /* below */ }
  const area = h("textarea", { class: "offscreen" }); area.value = text; document.body.append(area);
  area.select();
  let ok = false;
  try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
  area.remove();
  return ok;
}
function copyLinkButton(link) {
  const done = h("span", { class: "copied", id: "copied", role: "status" });
  const btn = h("button", { id: "copy-link", onclick: async () => {
    done.textContent = (await copyText(link)) ? t("Copied") : t("Copy it from the address bar");
  } }, t("Copy the invite link"));
  const code = /\/t\/(\w+)/.exec(link);
  const qr = code ? h("img", { class: "qr", id: "invite-qr", src: `/api/tables/${code[1]}/qr.svg`, alt: t("QR code of the invite link") }) : null;
  return h("span", { class: "copylink" }, btn, " ", done, qr);
}
