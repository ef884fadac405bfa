/* The first game that teaches (/learn/{game}): the lesson runs on the server
 * (sequence.learn.LessonGame, POST /api/learn/{game}); this page draws the learner's view, points
 * at the step's card and spaces, and sends what the learner tries (a tap just beside a space
 * pointed at counts for it: tap.js). No rule is decided here: a move is taken from the view's
 * legal moves (the engine's), and the lesson says yes or no. */
"use strict"; // i18n: ignore (a directive)

const COLOURS = { blue: "#2f6fd6", green: "#2e9e5b", red: "#d2413a", yellow: "#e0b220" };
const PICTURES = new Set(["BEAR", "CAT", "COW", "DOG", "DUCK", "ELEPHANT", "FOX", "FROG", "GIRAFFE",
  "HORSE", "LION", "MONKEY", "OWL", "PANDA", "PENGUIN", "PIG", "RABBIT", "TIGER", "ZEBRA", "UNICORN", "DRAGON"]);
const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SPACE = (i, cols) => "abcdefghij"[i % cols] + (Math.floor(i / cols) + 1);

let lesson = null;   // the server's answer
let chosen = null;   // the card chosen in the hand
const game = location.pathname.split("/")[2] || "";
const lang = new URLSearchParams(location.search).get("lang") || localStorage.getItem("seq.lang")
  || (navigator.language || "en").slice(0, 2);

function picture(name) {
  return PICTURES.has(name) ? `/static/kids/${name.toLowerCase()}.svg` : null;
}

function cardFace(name) {
  if (name.length === 2 && SUITS[name[1]]) return (name[0] === "T" ? "10" : name[0]) + SUITS[name[1]];
  return name;
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v; else if (k.startsWith("on")) node[k] = v; else node.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

async function send(tried) {
  const answer = await fetch(`/api/learn/${game || "classic"}`, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ moves: lesson ? lesson.moves : [], tried, lang }),
  });
  if (!answer.ok) throw new Error(`the lesson answered ${answer.status}`); // i18n: ignore (for a developer)
  lesson = await answer.json();
  if (!lesson.refused) chosen = null;
  draw();
}

function tryAt(index) {
  const view = lesson.view;
  if (lesson.over) return;
  const space = SPACE(index, view.board.cols);
  if (lesson.step.must_roll) { send("roll"); return; }
  // the move the engine lists for the chosen card (Dice: no card) on this space
  const card = view.config.game === "dice" ? null : (chosen || lesson.step.card);
  const legal = view.legal_moves.filter((m) => m.endsWith(space) && /[@x=]/.test(m.slice(-space.length - 1, -space.length)));
  const move = legal.find((m) => card === null || m.startsWith(card + "@") || m.startsWith(card + "x"));
  send(move || (card ? `${card}@${space}` : `@${space}`));
}

function drawGames() {
  const main = document.getElementById("learn");
  main.replaceChildren(el("section", { class: "panel" },
    el("h2", {}, lesson.words.choose),
    el("div", { class: "lgames" }, ...Object.entries(lesson.games).map(([g, name]) =>
      el("a", { href: `/learn/${g}?lang=${lang}` }, el("button", { class: "primary" }, name))))));
}

function draw() {
  const words = lesson.words;
  document.title = words.title;
  const skip = document.getElementById("skip");
  skip.textContent = words.skip;
  if (!game) { drawGames(); return; }
  const view = lesson.view, step = lesson.step;
  const main = document.getElementById("learn");
  const cols = view.board.cols, labels = view.board.labels, chips = view.board.chips || view.chips;
  const pointed = new Set(step && !step.must_roll ? step.spaces : []);
  const says = el("div", { class: "says", id: "says" });
  if (step && step.card && picture(step.card)) says.append(el("img", { src: picture(step.card), alt: step.card_label }));
  says.append(el("span", {}, lesson.says));
  const board = el("div", { class: "lboard", id: "board", style: `grid-template-columns: repeat(${cols}, 1fr)` }); // i18n: ignore (CSS)
  labels.forEach((label, i) => {
    const name = SPACE(i, cols);
    const pic = picture(label);
    const cell = el("button", { "data-space": name, "data-index": i, "aria-label": name,
      class: [label === "**" ? "free" : "", /[HD]$/.test(label) && label.length === 2 ? "red" : "",
        pointed.has(name) ? "point" : ""].join(" ") },
      pic ? el("img", { src: pic, alt: label }) : (label === "**" ? "★" : cardFace(label)));
    const team = chips[i];
    if (team !== null && team !== undefined) {
      cell.append(el("span", { class: "chip", style: `background:${COLOURS[view.teams[team].colour]}` }));
    }
    // A finger just beside the space the step points at plays it (tap.js), as at the table:
    // the spaces of the classic board are smaller than a finger on a phone.
    cell.onclick = (e) => {
      const near = pointed.has(name) ? null : nearestTap(board.querySelectorAll("button.point"), e);
      tryAt(near ? Number(near.dataset.index) : i);
    };
    board.append(cell);
  });
  const parts = [el("section", { class: "panel" },
    lesson.moves.length === 0 ? el("p", { id: "welcome" }, lesson.welcome) : null,
    step ? el("div", { class: "step" }, `${step.number} / ${step.of}`) : null, says,
    lesson.refused ? el("div", { class: "error", id: "refused" }, lesson.refused) : null)];
  const table = el("section", { class: "panel" }, board);
  if (view.hand && view.hand.length) {
    table.append(el("div", { class: "lhand", id: "hand" }, words.hand, ...view.hand.map((card) => {
      const pic = picture(card);
      return el("button", { "data-card": card,
        class: [card === (step && step.card) ? "point" : "", card === chosen ? "chosen" : "",
          /[HD]$/.test(card) && card.length === 2 ? "red" : ""].join(" "),
        onclick: () => {
          if (step && step.key === "dead_card" && card === step.card) { send(`dead:${card}`); return; }
          chosen = card; draw();
        } }, pic ? el("img", { src: pic, alt: card }) : cardFace(card));
    })));
  }
  if (step && step.must_roll) {
    table.append(el("button", { class: "primary", id: "roll", onclick: () => send("roll") }, words.roll));
  } else if (view.roll) {
    table.append(el("p", {}, `🎲 ${view.roll[0]} + ${view.roll[1]}`));
  }
  if (lesson.over) {
    table.append(el("p", {},
      el("a", { href: "/" }, el("button", { class: "primary", id: "play" }, words.play)), " ",
      el("a", { href: `/learn/${game}?lang=${lang}` }, el("button", {}, words.again))));
  }
  parts.push(table);
  main.replaceChildren(...parts);
  main.dataset.over = lesson.over ? "yes" : "no";
}

send(null).catch((e) => { document.getElementById("learn").textContent = String(e); });
