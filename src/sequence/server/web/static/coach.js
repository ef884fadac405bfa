/* Learning at the table and after it: the hint at a casual table (the server's coaching.py) and
   the review of a finished game beside its replay (GET /api/tables/{code}/review).
   The server decides both from what each seat could see; this shows what it sends. Loaded
   before app.js; h(), t(), send(), cardText() and table come from it, used at call time. */
"use strict"; // i18n: ignore (a directive)

/* ---- the hint ------------------------------------------------------------------------------ */
/* A move's notation in words: 5H@c3, JSxc3, =c3, @c3 (Dice), dead:5H, pass, draw:1. */
function moveWords(mv) {
  let m;
  if ((m = /^([A-Z0-9]+)@([a-j]\d+)$/.exec(mv))) return t("play {card} on {space}", { card: cardText(m[1]), space: m[2] });
  if ((m = /^([A-Z0-9]+)x([a-j]\d+)$/.exec(mv))) return t("remove the chip on {space} with {card}", { card: cardText(m[1]), space: m[2] });
  if ((m = /^@([a-j]\d+)$/.exec(mv))) return t("put a chip on {space}", { space: m[1] });
  if ((m = /^x([a-j]\d+)$/.exec(mv))) return t("remove the chip on {space}", { space: m[1] });
  if ((m = /^=([a-j]\d+)$/.exec(mv))) return t("replace the chip on {space}", { space: m[1] });
  if ((m = /^dead:([A-Z0-9]+)$/.exec(mv))) return t("exchange the dead card {card}", { card: cardText(m[1]) });
  if (mv === "pass") return t("pass");
  if (mv.startsWith("draw:")) return t("draw a card");
  return mv;
}
function hintSpace(mv) { const m = /([a-j]\d+)$/.exec(mv || ""); return m ? m[1] : null; }
function hintCard(mv) { const m = /^(?:dead:)?([A-Z0-9]+)(?:[@x]|$)/.exec(mv || ""); return m && mv !== "pass" ? m[1] : null; }

/* The hint box for the seat to play at a casual table (a rated table offers none; nor does the
   page of a spectator): the button, then what the server found and why. */
function hintBox(m) {
  const v = m.view, you = m.you;
  if (you.seat === null || m.table.rated || v.outcome || !v.legal_moves.length) return null;
  const box = h("div", { class: "hint-box", id: "hint-box" });
  const hint = table.hint && table.hint.version === m.version ? table.hint : null;
  if (hint && hint.move) {
    box.append(h("p", { id: "hint", "data-move": hint.move }, h("b", {}, t("Hint:")), " ", moveWords(hint.move)),
      h("ul", { id: "hint-why" }, hint.notes.map((n) => h("li", { "data-code": n.code }, n.says))));
  } else {
    box.append(h("button", { id: "ask-hint", disabled: hint && hint.pending, onclick: () => {
      table.hint = { pending: true, version: m.version };
      send({ type: "hint", version: m.version });
      renderTable();
    } }, hint && hint.pending ? t("Thinking…") : t("Hint")));
  }
  return box;
}
/* The server's answer: kept for its position only (a new state drops it). */
function hintArrived(msg) {
  if (!table.msg || msg.version !== table.msg.version) return;
  table.hint = msg;
  renderTable();
}
/* After the table is drawn: the hinted space and card light up. */
function markHint() {
  const hint = table.hint;
  if (!hint || !hint.move || !table.msg || hint.version !== table.msg.version) return;
  const space = hintSpace(hint.move), card = hintCard(hint.move);
  if (space) { const g = document.querySelector(`#board [data-space='${space}']`); if (g) g.classList.add("hinted"); }
  if (card) { const c = document.querySelector(`#hand .card[data-card='${card}']`); if (c) c.classList.add("hinted"); }
}
