/* Reactions and chat (the server's talk.py): talk without table talk (RULES.md §2.6).
   During play a player sends only a reaction from the server's fixed list, which carries no game
   information; chat is open in the lobby, after the game and among spectators. The server decides
   who may say what and who hears it; this shows what arrives and offers what the rules allow.
   Loaded before app.js; h(), t(), send() and seatLabel() come from it, used at call time. */
"use strict"; // i18n: ignore (a directive)

const REACTION_IDS = ["good_game", "well_played", "hurry_up", "oops"]; // i18n: ignore (protocol ids)
function reactionText(id) {
  if (id === "good_game") return t("Good game");
  if (id === "well_played") return t("Well played");
  if (id === "hurry_up") return t("Hurry up");
  if (id === "oops") return t("Oops");
  return id;
}
const talk = { heard: [] };

function speaker(msg) {
  return msg.name === null ? t("A spectator") : msg.name;
}
function heardLine(msg) {
  return h("li", { class: ["said", msg.type], "data-seat": msg.seat === null ? "" : msg.seat },
    h("b", {}, speaker(msg)), " ", msg.type === "reaction" ? h("span", { class: "reaction" }, reactionText(msg.reaction)) : msg.text);
}
/* A reaction or chat message from the server: kept (the last 30), added to the panel, and a
   reaction shown for a moment over the page. */
function heard(msg) {
  talk.heard.push(msg);
  if (talk.heard.length > 30) talk.heard.shift();
  const list = document.getElementById("talk-list");
  if (list) { list.append(heardLine(msg)); list.scrollTop = list.scrollHeight; }
  if (msg.type === "reaction") {
    const toast = h("div", { class: "toast", role: "status" }, h("b", {}, speaker(msg)), " ", reactionText(msg.reaction));
    document.body.append(toast);
    setTimeout(() => toast.remove(), 2500);
  }
}

/* The talk panel: the reactions, then chat where the rules allow it. */
function talkPanel(m) {
  const playing = m.table.status === "playing";
  const seated = m.you.seat !== null;
  const list = h("ul", { id: "talk-list", class: "talk-list" }, talk.heard.map(heardLine));
  const panel = h("section", { class: ["panel", "talk"], id: "talk" }, h("h2", {}, t("Talk")));
  if (playing) {
    panel.append(h("div", { class: "reactions", id: "reactions" }, REACTION_IDS.map((id) =>
      h("button", { class: "small", "data-reaction": id, onclick: () => send({ type: "react", reaction: id }) }, reactionText(id)))));
  }
  panel.append(list);
  if (playing && seated) {
    panel.append(h("p", { class: "explain", id: "no-chat" }, t("Chat opens after the game: during play, only these reactions (no table talk).")));
  } else {
    const input = h("input", { id: "chat-text", maxlength: 200, placeholder: t("Say something") });
    const say = () => { if (input.value.trim()) { send({ type: "chat", text: input.value }); input.value = ""; } };
    input.addEventListener("keydown", (e) => { if (e.key === "Enter") say(); });
    panel.append(h("div", { class: "chat" }, input, h("button", { id: "chat-send", onclick: say }, t("Send"))));
    if (playing) panel.append(h("p", { class: "muted", id: "spectators-only" }, t("Spectators only: the players do not see this chat.")));
  }
  setTimeout(() => { list.scrollTop = list.scrollHeight; }, 0);
  return panel;
}
