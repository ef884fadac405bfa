/* Keyboard play and the screen reader's basics on the table (issue 18), as in the terminal:
   the arrows move a cursor over the board, Enter plays the chosen card on the space under it
   (or taps that space, which the server answers), 1 to 9 choose a card of the hand, and the
   cursor then goes to the first space that card may go to (after a Dice roll too), so that Enter
   plays it at once; Tab goes through the cards and the buttons as usual. Every space is
   labelled with its name, its card and its chip. What is legal is still the server's list
   (the spaces app.js marks as targets from view.legal_moves): this file only clicks. */
"use strict"; // i18n: ignore (a directive)

const keys = (() => {
  const cursor = { row: 0, col: 0 };
  const board = () => document.getElementById("board");
  const spaceAt = (row, col) => "abcdefghij"[col] + (row + 1);
  let shownFor = null; // the position and choice the targets were last drawn for
  // The cursor shows only once the keyboard is used, and hides at the next tap or click: on a
  // touch screen a box on a1 would read as a selection.
  let keyboard = false;

  /* A card chosen (or a roll made): the cursor goes to the first of its spaces in reading
     order, as in the terminal; a redraw of the same choice leaves it where it is. */
  function followChoice(svg) {
    const m = table.msg;
    const key = m && m.view ? `${m.table.code} ${m.version} ${table.selected} ${table.selectedIndex}` : null;
    if (key === shownFor) return;
    shownFor = key;
    const first = svg.querySelector("g.target[data-space]"); // the board is drawn in reading order
    if (!first) return;
    const name = first.dataset.space;
    cursor.col = name.charCodeAt(0) - 97;
    cursor.row = Number(name.slice(1)) - 1;
  }

  function spaceLabel(g) {
    const name = g.dataset.space;
    const label = g.querySelector("text") ? g.querySelector("text").textContent : "";
    const what = g.classList.contains("free") ? t("free corner") : label;
    const chip = g.querySelector(".chip");
    const team = chip && table.msg && table.msg.view ? table.msg.view.teams[Number(chip.dataset.team)].letter : null;
    const text = team === null ? t("{space}: {label}", { space: name, label: what })
      : t("{space}: {label}, chip of team {team}", { space: name, label: what, team });
    return g.classList.contains("target") ? t("{space}, you can play here", { space: text }) : text;
  }

  /* After each render of the table: labels, and the cursor where it was. */
  function decorate() {
    const svg = board();
    if (!svg) return;
    svg.setAttribute("role", "group");
    svg.setAttribute("tabindex", "0");
    svg.setAttribute("aria-label", t("Board: arrows move, Enter plays"));
    for (const g of svg.querySelectorAll("g[data-space]")) {
      g.setAttribute("role", g.classList.contains("target") ? "button" : "img");
      g.setAttribute("aria-label", spaceLabel(g));
    }
    const hand = document.getElementById("hand");
    if (hand) {
      hand.setAttribute("role", "group");
      hand.setAttribute("aria-label", t("Your hand"));
      for (const b of hand.querySelectorAll("button.card")) {
        b.setAttribute("aria-label", t("Card {n}: {card}", { n: Number(b.dataset.index) + 1, card: b.textContent }));
        b.setAttribute("aria-pressed", b.classList.contains("selected") ? "true" : "false");
      }
    }
    followChoice(svg);
    showCursor();
  }

  function showCursor() {
    const svg = board();
    if (!svg) return;
    for (const g of svg.querySelectorAll("g.cursor")) g.classList.remove("cursor");
    if (!keyboard) return;
    const g = svg.querySelector(`g[data-space="${spaceAt(cursor.row, cursor.col)}"]`);
    if (!g) return;
    g.classList.add("cursor");
    const live = document.getElementById("cursor-says") || h("div", { id: "cursor-says", class: "sr-only", "aria-live": "polite" });
    if (!live.isConnected) document.body.append(live);
    live.textContent = g.getAttribute("aria-label");
  }

  const MOVES = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  document.addEventListener("keydown", (e) => {
    const svg = board();
    if (!svg || e.altKey || e.ctrlKey || e.metaKey) return;
    const typing = e.target.closest && e.target.closest("input, select, textarea"); // i18n: ignore (a selector)
    if (typing) return;
    const v = table.msg && table.msg.view;
    if (!v) return;
    if (MOVES[e.key] || e.key === "Enter" || /^[1-9]$/.test(e.key)) keyboard = true;
    if (MOVES[e.key]) {
      const [dr, dc] = MOVES[e.key];
      cursor.row = Math.max(0, Math.min(v.board.rows - 1, cursor.row + dr));
      cursor.col = Math.max(0, Math.min(v.board.cols - 1, cursor.col + dc));
      showCursor();
      e.preventDefault();
    } else if (e.key === "Enter" && (e.target === document.body || e.target === svg)) {
      const g = svg.querySelector(`g[data-space="${spaceAt(cursor.row, cursor.col)}"]`);
      if (g) g.dispatchEvent(new MouseEvent("click", { bubbles: true }));
      e.preventDefault();
    } else if (/^[1-9]$/.test(e.key)) {
      const card = document.querySelector(`#hand button[data-index="${Number(e.key) - 1}"]`);
      if (card) { card.click(); e.preventDefault(); }
    }
  });
  document.addEventListener("pointerdown", () => {
    if (!keyboard) return;
    keyboard = false;
    showCursor();
  }, true);
  // The board reached with Tab shows the cursor too.
  document.addEventListener("focusin", (e) => {
    if (e.target === board() && e.target.matches(":focus-visible")) { keyboard = true; showCursor(); }
  });
  /* The board is gone (a pass-and-play hand-over, a reconnection): what the cursor last said
     goes too, since it named the spaces the previous player could play on. */
  function forget() {
    shownFor = null;
    const live = document.getElementById("cursor-says");
    if (live) live.textContent = "";
  }

  return { decorate, cursor, forget };
})();
window.keys = keys;
