/* Sequence browser client: lobby, table, replay. No build step, nothing from the internet.
   The server decides everything; this file renders the view it is sent and sends moves. */
"use strict"; // i18n: ignore (a directive)

const $ = (sel, root = document) => root.querySelector(sel);
const app = $("#app");
let catalogue = {};
let pluralIndex = (n) => (n === 1 ? 0 : 1);
let meta = null;

/* Every user-facing string goes through t() (or tn() for a count), with {named} placeholders.
   The catalogue comes from GET /api/i18n/{lang}; a message it lacks shows in English. */
function fill(s, params) {
  return s.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}
function t(text, params = {}) {
  const s = catalogue[text];
  return fill(typeof s === "string" ? s : text, params);
}
function tn(one, many, n, params = {}) {
  const forms = catalogue[one];
  const all = { n, ...params };
  if (Array.isArray(forms)) return fill(forms[Math.min(pluralIndex(n), forms.length - 1)] || many, all);
  return fill(n === 1 ? one : many, all);
}

function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = Array.isArray(v) ? v.filter(Boolean).join(" ") : v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

async function api(method, path, body) {
  // The server answers errors in the language asked for (the browser’s, until meta is loaded).
  const headers = { "Content-Type": "application/json" };
  if (meta) headers["Accept-Language"] = chosenLanguage();
  // A signed-in page proves it is this site's own with its session's CSRF token (account.js).
  if (typeof account !== "undefined" && account.me.csrf) headers["X-CSRF-Token"] = account.me.csrf;
  const r = await fetch(path, {
    method, headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(data.message || t("Request failed ({status})", { status: r.status }));
  return data;
}

/* ---- language ---------------------------------------------------------------------------- */
function chosenLanguage() {
  return localStorage.getItem("seq.lang") || (meta && meta.language) || "en";
}
async function loadLanguage(lang) {
  try {
    const cat = await api("GET", `/api/i18n/${lang}`);
    catalogue = cat.messages;
    // The Plural-Forms expression is C, which is also JavaScript; +() turns booleans into 0/1.
    pluralIndex = new Function("n", `return +(${cat.plural});`);
  } catch (e) { catalogue = {}; pluralIndex = (n) => (n === 1 ? 0 : 1); }
  document.documentElement.lang = lang;
  document.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
  $("#lang").setAttribute("aria-label", t("Language"));
  account.headerLink();
}
function languageSwitcher() {
  const sel = $("#lang");
  sel.innerHTML = "";
  for (const l of meta.languages) sel.append(h("option", { value: l, selected: l === chosenLanguage() }, meta.language_names[l] || l));
  sel.onchange = async () => {
    localStorage.setItem("seq.lang", sel.value);
    await loadLanguage(sel.value);
    if (table.code && table.msg && location.pathname.startsWith("/t/")) {
      // Mid-game: keep the connection and the state; the server answers in the new language.
      send({ type: "lang", lang: sel.value });
      table.error = null;
      renderTable();
    } else route();
  };
}

/* ---- cards and spaces -------------------------------------------------------------------- */
const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
function cardText(name) {
  if (name.length === 2 && SUITS[name[1]]) return (name[0] === "T" ? "10" : name[0]) + SUITS[name[1]];
  return t(name.charAt(0) + name.slice(1).toLowerCase());
}
const isRed = (name) => name.length === 2 && (name[1] === "H" || name[1] === "D");
function labelText(label) {
  if (label === "**") return "★";
  if (/^\d+$/.test(label)) return label;
  return cardText(label);
}
const spaceOf = (move) => { const m = /[@x=]([a-z]\d+)$/.exec(move || ""); return m ? m[1] : null; };

/* ---- storage of secrets (this browser only) --------------------------------------------- */
const seatToken = (code) => localStorage.getItem(`seq.seat.${code}`);
const hostToken = (code) => localStorage.getItem(`seq.host.${code}`);
function remember(code, seat, host) {
  if (seat) localStorage.setItem(`seq.seat.${code}`, seat);
  if (host) localStorage.setItem(`seq.host.${code}`, host);
}

/* ---- lobby ------------------------------------------------------------------------------- */
// A newcomer is offered a first game that teaches (/learn, learn.js) until they take it or skip it.
function learnOffer() {
  if (localStorage.getItem("seq.learned")) return "";
  const lang = chosenLanguage();
  const box = h("section", { class: "panel notice", id: "learn-offer" }, // i18n: ignore (class names)
    h("strong", {}, t("New to Sequence? Learn it by playing a first game, step by step.")), " ",
    ...["classic", "kids", "dice"].map((g) => h("a", { href: `/learn/${g}?lang=${lang}`,
      onclick: () => localStorage.setItem("seq.learned", "1") },
      h("button", { class: "primary", "data-learn": g }, t(meta.games[g].title)))),
    " ", h("button", { id: "learn-skip", onclick: () => { localStorage.setItem("seq.learned", "1"); box.remove(); } },
      t("Skip")));
  return box;
}

async function lobby() {
  app.innerHTML = "";
  app.append(learnOffer());
  const err = h("div");
  const games = meta.games;
  const gameSel = h("select", { id: "game" }, Object.entries(games).map(([g, d]) => h("option", { value: g }, t(d.title))));
  const playersSel = h("select", { id: "players" });
  const teamsSel = h("select", { id: "teams" });
  const seatsBox = h("div", { id: "seatbots" });
  const opts = h("div");
  const name = h("input", { id: "name", maxlength: 24, value: localStorage.getItem("seq.name") || "", placeholder: t("Your name") });
  const pub = h("input", { type: "checkbox", id: "public", checked: true });
  // The turn clock, and the bot that plays for a seat whose time runs out.
  const clockText = (n, tc) => n === "casual" ? t("Casual: {turn} s a turn", { turn: tc.turn })
    : n === "quick" ? t("Quick: {turn} s a turn, {reserve} s reserve", tc) : n.startsWith("days") ? social.clockName(n) : t("No clock");
  // Days a move (correspondence) are for signed-in players only (account.js, social.js).
  const clockSel = h("select", { id: "clock" }, Object.entries(meta.time_controls || { off: null })
    .filter(([n]) => account.me.signed_in || !n.startsWith("days")).map(([n, tc]) => h("option", { value: n }, clockText(n, tc))));
  const timeoutSel = h("select", { id: "on-timeout" },
    h("option", { value: "bot" }, t("A bot plays for them")), h("option", { value: "lost" }, t("Their team loses")));
  const timeoutLabel = h("label", { hidden: true }, t("When the days run out"), timeoutSel);
  const levelSel = h("select", { id: "bot-level" }, meta.bots.map((b) => h("option", { value: b, selected: b === "medium" }, t(b))));
  // The level plays for a player out of time, one who resigns from a team, or one the host
  // replaces: with no clock too, so the choice is always offered.
  const levelLabel = h("label", { id: "bot-level-choice" }, t("Bot that takes over for a player"), levelSel);
  const clockChoices = () => {
    timeoutLabel.hidden = !clockSel.value.startsWith("days");
  };
  clockSel.addEventListener("change", clockChoices);
  clockChoices();
  // Labels come translated from the call sites, so the extractor sees each t("...").
  const optBox = (id, label) => h("label", {}, h("input", { type: "checkbox", id }), label);
  function refresh() {
    const g = gameSel.value;
    const keep = playersSel.value;
    playersSel.innerHTML = "";
    for (const n of games[g].players) playersSel.append(h("option", { value: n, selected: String(n) === keep }, n));
    const n = Number(playersSel.value);
    teamsSel.innerHTML = "";
    // Teams and options as the engine takes them (GET /api/meta): the client derives no rule.
    for (const k of games[g].teams[n]) teamsSel.append(h("option", { value: k }, k));
    opts.innerHTML = "";
    const takes = new Set(games[g].options);
    if (takes.has("manual_draw")) opts.append(optBox("opt-manual_draw", t("Manual draw")));
    if (takes.has("difficult")) opts.append(optBox("opt-difficult", t("Difficult variant")));
    if (takes.has("draft")) opts.append(optBox("opt-draft", t("Draft variant")));
    if (takes.has("dice_line_length") && meta.dice_line_lengths.includes(6)) opts.append(optBox("opt-line6", t("Six in a row")));
    seatsBox.innerHTML = "";
    for (let i = 0; i < n; i++) {
      const sel = h("select", { "data-seat": i, id: `seat-${i}` },
        h("option", { value: "" }, i === 0 ? t("Me") : t("Open seat")), passplay.seatOption(),
        meta.bots.map((b) => h("option", { value: b }, t("Bot: {level}", { level: t(b) }))));
      seatsBox.append(h("label", {}, t("Seat {n}", { n: i + 1 }), sel, passplay.nameInput(i, sel))); // passplay.js
    }
  }
  gameSel.onchange = refresh; playersSel.onchange = refresh;
  refresh();
  async function create() {
    err.innerHTML = "";
    try {
      const g = gameSel.value;
      const options = {};
      for (const o of ["manual_draw", "difficult", "draft"]) { const el = $(`#opt-${o}`); if (el && el.checked) options[o] = true; }
      if ($("#opt-line6") && $("#opt-line6").checked) options.dice_line_length = 6;
      const bots = [...seatsBox.querySelectorAll("select")].map((s) => (s.value === "local" ? null : s.value) || null);
      // The creator sits at the first seat left open, or with seats on this device at Me or the first of them.
      const kinds = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
      const mine = kinds.includes("local") ? kinds.findIndex((k, i) => k === "local" || (i === 0 && k === "")) : bots.findIndex((b) => b === null);
      localStorage.setItem("seq.name", name.value);
      const r = await api("POST", "/api/tables", {
        game: g, players: Number(playersSel.value), teams: Number(teamsSel.value), options, bots,
        clock: clockSel.value, bot_level: levelSel.value,
        on_timeout: clockSel.value.startsWith("days") ? timeoutSel.value : null,
        public: pub.checked, name: mine >= 0 ? passplay.creatorName(seatsBox, mine, name.value || t("Player")) : null, seat: mine >= 0 ? mine : null,
        local: passplay.localSeats(seatsBox, mine), // the other seats on this device
        ...(await ratedCreateFields(name.value)), // ratings.js
      });
      remember(r.code, r.seat_token, r.host_token);
      passplay.afterCreate(r);
      go(`/t/${r.code}`);
    } catch (e) { err.append(h("div", { class: "error" }, e.message)); }
  }
  const codeIn = h("input", { id: "code", maxlength: 8, placeholder: t("Code"), size: 8 });
  app.append(ratingsLinks(), quickPlayPanel()); // ratings.js
  app.append(
    h("section", { class: "panel" }, h("h2", {}, t("New table")), err,
      h("label", {}, t("Your name"), name),
      h("label", {}, t("Game"), gameSel), h("label", {}, t("Players"), playersSel), h("label", {}, t("Teams"), teamsSel),
      h("label", {}, t("Turn clock"), clockSel), timeoutLabel, levelLabel,
      h("label", {}, pub, t("Public")), ratedOption(), opts, h("div", {}, seatsBox),
      h("button", { class: "primary", id: "create", onclick: create }, t("Create table"))),
    h("section", { class: "panel" }, h("h2", {}, t("Join with a code")), codeIn,
      h("button", { onclick: () => codeIn.value && go(`/t/${codeIn.value.trim().toUpperCase()}`) }, t("Go"))),
  );
  const open = h("section", { class: "panel", id: "open-tables" }, h("h2", {}, t("Open tables")));
  const done = h("section", { class: "panel", id: "finished" }, h("h2", {}, t("Finished games")));
  const howto = h("section", { class: "panel", id: "how-to-play" }, h("h2", {}, t("How to play")),
    h("div", { class: "actions" }, Object.entries(games).map(([g, d]) =>
      h("button", { id: `rules-${g}`, onclick: () => go(`/rules/${g}`) }, t(d.title)))));
  app.append(open, done, howto);
  try {
    const { tables } = await api("GET", "/api/tables");
    if (!tables.length) open.append(h("p", {}, t("No open tables yet.")));
    else open.append(h("table", { class: "list" }, tables.map((tb) => h("tr", {},
      h("td", { class: "code" }, tb.code), h("td", {}, t(games[tb.config.game].title), " · ", tn("{n} player", "{n} players", tb.config.players)),
      h("td", {}, listedPlayers(tb)),
      // Join only where the server lists a free seat; a full table (never started) is watched.
      h("td", {}, h("button", { class: "open-table", onclick: () => go(`/t/${tb.code}`) }, tb.status === "lobby" && tb.free.length ? t("Join") : t("Watch")))))));
    const { games: fin } = await api("GET", "/api/finished");
    if (!fin.length) done.append(h("p", {}, t("No finished games yet.")));
    else done.append(h("table", { class: "list" }, fin.map((f) => h("tr", {},
      h("td", { class: "code" }, f.code), h("td", {}, t(games[f.config.game].title)), h("td", {}, listedPlayers(f)),
      h("td", {}, resultText(f.result)), h("td", {}, h("button", { onclick: () => go(`/replay/${f.code}`) }, t("Replay")))))));
  } catch (e) { open.append(h("div", { class: "error" }, e.message)); }
}

/* The players of a listed game (GET /api/tables, /api/finished, a player’s page): a seated
   bot by its level in the page’s language, an open seat as a dash. */
function listedPlayers(game) {
  const bots = game.bots || [];
  return game.players.map((p, i) => bots[i] ? t("{name} (bot)", { name: t(bots[i]) }) : p || "—").join(", ");
}

function resultText(result) {
  if (!result) return "";
  if (result === "draw") return t("Draw");
  return t("Team {team} wins", { team: result.split(" ")[0] });
}

/* ---- table ------------------------------------------------------------------------------- */
const table = { code: null, ws: null, msg: null, selected: null, hint: null, error: null, retry: 0, closing: false, outbox: [], botLevel: null, resyncing: false };
window.seq = table;

function send(msg) {
  if (table.ws && table.ws.readyState === 1) table.ws.send(JSON.stringify(msg));
}
function sendMove(move) { sendAct({ type: "move", move, version: table.msg.version }); table.selected = null; }

/* ---- no silent loss: every move has an id and waits in the outbox until the server answers ---- */
function newMoveId() {
  return (crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`).slice(0, 64);
}
function sendAct(msg) {
  msg.id = newMoveId();
  msg.offline = !(table.ws && table.ws.readyState === 1);
  msg.as = table.token; // the seat it was made for: sent again only as that seat
  table.outbox.push(msg);
  if (!msg.offline) send(Object.assign({}, msg, { offline: undefined, as: undefined }));
}
/* The connection is back (just after hello): send what is waiting; a move already applied is only
   acknowledged, one made at a version the game has left is refused as stale. */
function flushOutbox(ws) {
  for (const m of table.outbox) {
    if (m.as === table.token) ws.send(JSON.stringify(Object.assign({}, m, { offline: undefined, as: undefined })));
  }
}
/* An ack or an error for a move id: the move is settled; a queued one gone stale is explained. */
function settleMove(msg) {
  const i = table.outbox.findIndex((m) => m.id === msg.id);
  if (i < 0) return false;
  const [m] = table.outbox.splice(i, 1);
  if (msg.type === "error" && msg.code === "stale" && m.offline) {
    table.error = t("Your move made while offline was not played: the game moved on. Play again.");
    send({ type: "sync" });
    renderTable();
    return true;
  }
  return false;
}
/* Offline: a blocking reconnecting layer over the table, never a live-looking board. */
function showOffline(on) {
  let el = document.getElementById("reconnecting");
  if (!on) { if (el) el.remove(); return; }
  if (el || !table.code) return;
  el = h("div", { id: "reconnecting", class: "reconnecting", role: "alertdialog", "aria-live": "assertive" },
    h("div", {}, h("strong", {}, t("Reconnecting…")),
      h("p", {}, t("The connection is down. Moves you made will be sent when it is back."))));
  document.body.append(el);
}
window.addEventListener("offline", () => {
  if (!table.code || !table.ws) return;
  showOffline(true);
  table.ws.close();
});
window.addEventListener("online", () => { if (table.code) { table.retry = 0; connect(table.code); } });

/* The whole state a delta makes of the one this page holds (null when it does not hold the base
   version of the delta): the view is that of the delta, with the log this page has and the new
   entries of the delta, and the moves read off the log. */
function applyDelta(held, delta) {
  if (!held || !held.view || held.version !== delta.base || held.view.log.length !== delta.base) return null;
  const log = held.view.log.concat(delta.log);
  const view = Object.assign({}, delta.view, { log, moves: log.map((e) => e.move) });
  return { type: "state", version: delta.version, you: delta.you, table: delta.table, view, clock: delta.clock };
}

/* A new connection is made before the old one is closed (once the new one has its first answer),
   so a pass-and-play hand-over, which reconnects as another seat, never leaves the table without
   this device: its seats and the rights of the host stay where they are. */
function connect(code) {
  const old = table.ws;
  let dropped = false;
  const dropOld = () => { if (old && !dropped) { dropped = true; old.close(); } };
  table.closing = false;
  table.resyncing = false; // a new connection’s first answer is the whole state
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/${code}`);
  table.ws = ws;
  ws.onopen = () => {
    table.retry = 0;
    $("#conn").textContent = "";
    table.token = passplay.token(code, seatToken(code));
    const hello = { type: "hello", token: table.token, host: hostToken(code), lang: chosenLanguage(), version: table.msg && table.msg.version };
    if (passplay.active(code)) hello.local = passplay.held(code); // passplay.js
    ws.send(JSON.stringify(hello));
    flushOutbox(ws);
  };
  ws.onmessage = (ev) => {
    dropOld();
    if (table.ws !== ws) return; // an old connection’s last words
    let msg = JSON.parse(ev.data);
    if (msg.type === "delta") {
      // Only what changed since the state this page holds; a gap (a message missed): ask for
      // the whole state once, and skip deltas until it comes.
      const whole = applyDelta(table.msg, msg);
      if (!whole) {
        if (!table.resyncing) { table.resyncing = true; send({ type: "sync" }); }
        return;
      }
      msg = whole;
    }
    if (msg.type === "state") {
      table.resyncing = false;
      if (!table.msg || msg.version !== table.msg.version) { table.selected = null; table.hint = null; }
      // A hint is for a game going on (a move that passes the turn is a new version, above): none
      // once it is over, which a resignation does without a move.
      if (msg.view && msg.view.outcome) table.hint = null;
      // Count down from what the server says is left, by the local clock.
      table.deadline = msg.clock && msg.clock.left !== null ? performance.now() + msg.clock.left * 1000 : null;
      adoptResignation(msg);
      showOffline(false);
      if (passplay.intercept(msg, code)) return; // a hand-over between seats on this device
      table.msg = msg; table.error = null; renderTable();
    } else if (msg.type === "ack") {
      settleMove(msg);
    } else if (msg.type === "hint") {
      hintArrived(msg); // coach.js
    } else if (msg.type === "reaction" || msg.type === "chat") {
      heard(msg); // talk.js
    } else if (msg.type === "error") {
      if (msg.id && settleMove(msg)) return;
      if (table.hint && table.hint.pending) table.hint = null; // a hint refused (rated, too soon)
      if (msg.code === "stale") send({ type: "sync" });
      // No such table: the server hangs up, and there is nothing to reconnect to.
      if (msg.code === "unknown_table") table.closing = true;
      if (msg.code === "bad_token" && !table.msg) {
        // A seat token this table does not know (another game's, an old browser's): watch.
        localStorage.removeItem(`seq.seat.${code}`);
        send({ type: "hello", token: null, host: hostToken(code), lang: chosenLanguage() });
      }
      table.error = msg.message; renderTable();
    }
  };
  ws.onclose = () => {
    dropOld();
    if (table.ws !== ws || table.closing) return;
    $("#conn").textContent = t("Reconnecting…");
    showOffline(true);
    table.retry = Math.min(table.retry + 1, 6);
    setTimeout(() => { if (table.code === code) connect(code); }, 300 * table.retry);
  };
}

async function tablePage(code) {
  table.code = code; table.msg = null; talk.heard = []; table.selected = null; table.error = null; table.outbox = [];
  app.innerHTML = "";
  app.append(h("p", {}, t("Connecting…")));
  await account.seatFor(code); // signed in on another device: the account’s seat here too
  if (table.code === code) connect(code);
}

/* The clock of the seat to play, counted down every quarter second. */
function tickClock() {
  const el = $("#clock");
  const m = table.msg;
  if (!el || !m || !m.clock || m.clock.timed_out || table.deadline == null) return;
  const left = Math.max(0, Math.ceil((table.deadline - performance.now()) / 1000));
  const sec = left % 60;
  // Days a move: days and hours (social.js), not a count of minutes.
  const time = left >= 3600 ? social.leftText(left * 1000) : Math.floor(left / 60) + ":" + (sec < 10 ? "0" : "") + sec;
  el.textContent = t("{name}: {time}", { name: seatLabel(m, m.clock.seat), time });
  el.classList.toggle("low", left <= 10);
}
setInterval(tickClock, 250);

function seatLabel(m, s) {
  const seat = m.table.seats[s];
  // A seated bot is named after its level (translated); a stand-in keeps the player’s name.
  // A deleted account’s seats keep their games under one translated name.
  const name = seat.name === "deleted player" ? t("deleted player") : seat.name; // i18n: ignore (the stored marker)
  const who = seat.kind === "bot" && !seat.stand_in ? t(seat.bot) : name || t("Open seat");
  return seat.kind === "bot" ? t("{name} (bot)", { name: who }) : who;
}

function teamSwatch(view, team) {
  const colour = view ? view.teams[team].colour : ["blue", "green", "red", "yellow"][team];
  return h("span", { class: "swatch", style: `background:var(--${colour})` });
}

function lobbyView(m) {
  const code = m.table.code;
  const you = m.you;
  const link = inviteLink(code);
  // The level of a bot the host adds, from the levels GET /api/meta lists; kept between renders.
  const botLevel = h("select", { id: "add-bot-level", onchange: () => { table.botLevel = botLevel.value; } },
    meta.bots.map((b) => h("option", { value: b, selected: b === (table.botLevel || meta.bots[0]) }, t(b))));
  const nameIn = h("input", { id: "join-name", maxlength: 24, value: localStorage.getItem("seq.name") || account.me.name || "", placeholder: t("Your name") });
  // A device already seated here may seat another player of its own (pass-and-play).
  const here = you.seat !== null || passplay.active(code);
  const tooName = h("input", { id: "too-name", maxlength: 24, placeholder: t("Name") });
  const list = h("ul", { class: "seats" }, m.table.seats.map((s) => h("li", {},
    teamSwatch(null, s.team), " ", t("Seat {n}:", { n: s.seat + 1 }), " ",
    s.kind === "empty" ? "" : seatLabel(m, s.seat),
    you.seat === s.seat ? h("span", { class: "badge" }, t("you")) : null,
    you.seat !== s.seat && passplay.isLocal(code, s.seat) ? h("span", { class: "badge local" }, t("On this device")) : null, // i18n: ignore (a class)
    s.kind === "empty" && you.seat === null && !passplay.active(code) ? h("button", { class: "sit", "data-seat": s.seat, onclick: async () => {
      try {
        localStorage.setItem("seq.name", nameIn.value);
        const r = await api("POST", `/api/tables/${code}/join`, { seat: s.seat, name: nameIn.value || t("Player"),
          ...(await ratedJoinFields(m, nameIn.value)) }); // ratings.js
        remember(code, r.seat_token); connect(code);
      } catch (e) { table.error = e.message; renderTable(); }
    } }, t("Sit here")) : null,
    s.kind === "empty" && here && !m.table.rated ? h("button", { class: "sit-too", "data-seat": s.seat, onclick: async () => {
      try { // passplay.js: one more seat on this device
        const r = await api("POST", `/api/tables/${code}/join`, { seat: s.seat, name: tooName.value || t("Player") });
        passplay.adopt(code, you.seat, seatToken(code), r.seat, r.seat_token);
        connect(code);
      } catch (e) { table.error = e.message; renderTable(); }
    } }, t("Sit here too")) : null,
    s.kind === "empty" && you.host ? h("button", { class: "add-bot", onclick: () => setBot(s.seat, botLevel.value) }, t("Add a bot")) : null)));
  const empty = m.table.seats.filter((s) => s.kind === "empty").length;
  const full = empty === 0;
  return h("section", { class: "panel" },
    h("h2", {}, t("Table {code}", { code }), m.table.rated ? h("span", { class: "badge", id: "rated-badge" }, t("Rated")) : null),
    h("p", {}, t("Send this link to your friends:"), " ", h("a", { href: link, id: "share" }, link)),
    h("p", {}, copyLinkButton(link)),
    you.seat === null && !passplay.active(code) && !full ? h("label", {}, t("Your name"), nameIn) : null,
    // Nobody seated from this device and no seat left: say so, rather than offer nothing.
    !here && full ? h("p", { id: "table-full" }, t("This table is full: you can watch the game once it starts.")) : null,
    list,
    here && !m.table.rated && m.table.seats.some((s) => s.kind === "empty") ? h("label", {}, t("Another player on this device"), " ", tooName) : null,
    you.host && !full ? h("label", {}, t("Level of an added bot"), " ", botLevel) : null,
    you.host ? h("p", {}, h("button", { class: "primary", id: "start", disabled: !full, onclick: async () => {
      try { await api("POST", `/api/tables/${code}/start`, { host_token: hostToken(code) }); } catch (e) { table.error = e.message; renderTable(); }
    } }, t("Start")), full ? null : h("span", { id: "start-why" }, " ", tn("{n} seat is still empty", "{n} seats are still empty", empty)))
      : h("p", {}, t("Waiting for the host to start.")));
}

async function setBot(seat, level) {
  // The host token, or else a seat token (host rights passed on, or a seat away a while).
  const token = hostToken(table.code) || seatToken(table.code);
  try { await api("POST", `/api/tables/${table.code}/seats/${seat}/bot`, { host_token: token, level }); }
  catch (e) { table.error = e.message; renderTable(); }
}

/* ---- nobody is indispensable: resigning, and the table events in words ---------------------- */
/* A game ended by a resignation has no engine outcome: show it as the end all the same. */
function adoptResignation(msg) {
  const v = msg.view;
  if (!v || v.outcome || msg.table.status !== "finished" || !msg.table.result) return;
  const letter = msg.table.result.split(" ")[0];
  const last = (msg.table.events || []).slice(-1)[0];
  const how = last && last.kind === "timeout" && last.detail === "lost" ? "timeout" : "resigned";
  v.outcome = { winner: v.teams.findIndex((tm) => tm.letter === letter), termination: how };
  v.legal_moves = [];
}
function resignButton(m) {
  const mine = m.you.seat !== null && m.table.seats[m.you.seat];
  if (!mine || mine.kind !== "human" || m.view.outcome) return null;
  return h("button", { id: "resign", onclick: () => {
    if (confirm(t("Resign? Alone on your side you lose the game; with a partner a bot takes your seat."))) send({ type: "resign" });
  } }, t("Resign"));
}
// The table-talk penalty (RULES.md §2.6) is never one tap: a dialog says what it does, names each
// team's players, marks the host's own team, and imposes nothing until a team is chosen and the
// choice confirmed.
function penaltyDialog(m) {
  const v = m.view;
  const ownTeam = m.you.seat !== null ? m.table.seats[m.you.seat].team : null;
  const old = $("#penalty-dialog"); if (old) old.remove();
  const confirmBtn = h("button", { id: "penalty-confirm", class: "danger", disabled: true }, t("Impose the penalty"));
  const own = h("p", { class: "explain", id: "penalty-own", hidden: true }, t("That is your own team: your side gives up the cards."));
  let chosen = null;
  const choices = v.teams.map((tm, i) => h("label", { class: "choice" },
    h("input", { type: "radio", name: "penalty-team", value: tm.letter, onchange: () => {
      chosen = tm.letter; confirmBtn.disabled = false; own.hidden = i !== ownTeam;
    } }),
    " ", teamSwatch(v, i), " ", h("span", { class: "who" }, t("Team {team}", { team: tm.letter }), ": ",
      tm.seats.map((s) => seatLabel(m, s)).join(", "),
      i === ownTeam ? h("span", { class: "badge" }, t("your team")) : null)));
  const dialog = h("dialog", { id: "penalty-dialog", class: "confirm", "aria-labelledby": "penalty-title" },
    h("h2", { id: "penalty-title" }, t("Table-talk penalty")),
    h("p", {}, t("For a player who told a team-mate what to play. Every player of the team you choose gives up one card of their choice, which is not replaced.")),
    h("fieldset", {}, h("legend", {}, t("Which team talked?")), choices), own,
    h("div", { class: "actions" },
      h("button", { id: "penalty-cancel", onclick: () => dialog.close() }, t("Cancel")), confirmBtn));
  confirmBtn.onclick = () => {
    if (chosen === null || !table.msg) return;
    send({ type: "penalty", team: chosen, version: table.msg.version });
    dialog.close();
  };
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}
/* A table with days a move: away is how it is played (no "Hand to a bot"; the days decide). */
const days = (m) => !!(m.table.time_control && m.table.time_control.name.startsWith("days"));
function eventText(m, e) {
  const name = e.seat === null ? "" : seatLabel(m, e.seat);
  if (e.kind === "host") return e.seat === null ? t("The host is back.") : t("{name} holds the host's rights while the host is away.", { name });
  if (e.kind === "bot") return e.by === null ? t("The host handed {name}'s seat to a bot.", { name }) : t("{by} handed {name}'s seat to a bot.", { by: seatLabel(m, e.by), name });
  if (e.kind === "resign") return e.detail === "lost" ? t("{name} resigned: the game is lost.", { name }) : t("{name} resigned: a bot plays the seat.", { name });
  if (e.kind === "timeout") return e.detail === "lost" ? t("{name}'s days ran out: the game is lost.", { name }) : t("{name}'s days ran out: a bot plays the seat until they are back.", { name });
  return e.kind;
}
function eventsPanel(m) {
  const events = m.table.events || [];
  if (!events.length) return null;
  return h("section", { class: "panel", id: "events" }, h("h2", {}, t("Table events")),
    h("ul", {}, events.map((e) => h("li", {}, eventText(m, e)))));
}

const SHAPES = ["circle", "square", "triangle", "diamond"];
function chipShape(team, x, y, r, colour, locked) {
  const cls = `chip${locked ? " locked" : ""}`;
  const fill = `var(--${colour})`;
  const ns = "http://www.w3.org/2000/svg";
  let el;
  const shape = SHAPES[team % 4];
  if (shape === "circle") { el = document.createElementNS(ns, "circle"); el.setAttribute("cx", x); el.setAttribute("cy", y); el.setAttribute("r", r); }
  else if (shape === "square") { el = document.createElementNS(ns, "rect"); el.setAttribute("x", x - r * .85); el.setAttribute("y", y - r * .85); el.setAttribute("width", r * 1.7); el.setAttribute("height", r * 1.7); }
  else if (shape === "triangle") { el = document.createElementNS(ns, "polygon"); el.setAttribute("points", `${x},${y - r} ${x + r},${y + r * .8} ${x - r},${y + r * .8}`); }
  else { el = document.createElementNS(ns, "polygon"); el.setAttribute("points", `${x},${y - r} ${x + r},${y} ${x},${y + r} ${x - r},${y}`); }
  el.setAttribute("class", cls); el.setAttribute("fill", fill); el.setAttribute("data-team", team);
  return el;
}

/* The view sends the board in columns, spaces in reading order; one object per space here. */
function boardSpaces(board) {
  const locked = new Set(board.locked);
  return board.labels.map((label, i) => {
    const row = Math.floor(i / board.cols), col = i % board.cols;
    const name = "abcdefghij"[col] + (row + 1);
    return { name, row, col, label, free: label === "**", chip: board.chips[i], locked: locked.has(name) };
  });
}

// recent: the spaces of other players’ last moves -> the seat (glance.js recentMoves), outlined
// in that seat’s team colour.
function boardSvg(view, targets, onSpace, onOther, recent = new Map()) {
  const ns = "http://www.w3.org/2000/svg";
  const S = 52, M = BOARD_MARGIN; // the margin holds the coordinates (glance.js)
  const { rows, cols } = view.board;
  const spaces = boardSpaces(view.board);
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${cols * S + M} ${rows * S + M}`);
  boardEdges(svg, rows, cols, S);
  svg.setAttribute("id", "board");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("Board"));
  const last = spaceOf(view.last_move);
  for (const sp of spaces) {
    const g = document.createElementNS(ns, "g");
    const target = targets.has(sp.name);
    const by = recent.has(sp.name) ? recent.get(sp.name) : null;
    g.setAttribute("class", `space${sp.free ? " free" : ""}${target ? " target" : ""}${last === sp.name ? " last" : ""}${by !== null ? " recent" : ""}`);
    g.setAttribute("data-space", sp.name);
    const x = M + sp.col * S, y = M + sp.row * S;
    const rect = document.createElementNS(ns, "rect");
    rect.setAttribute("class", "cell"); rect.setAttribute("x", x + 1); rect.setAttribute("y", y + 1);
    rect.setAttribute("width", S - 2); rect.setAttribute("height", S - 2); rect.setAttribute("rx", 5);
    g.append(rect);
    if (by !== null) {
      const ring = document.createElementNS(ns, "rect");
      ring.setAttribute("class", "recent-ring"); ring.setAttribute("x", x + 3); ring.setAttribute("y", y + 3);
      ring.setAttribute("width", S - 6); ring.setAttribute("height", S - 6); ring.setAttribute("rx", 4);
      ring.setAttribute("stroke", `var(--${view.teams.find((tm) => tm.seats.includes(by)).colour})`);
      g.setAttribute("data-by", by);
      g.append(ring);
    }
    if (!kidsSpace(g, sp, x, y, S)) { // glance.js: a Kids space is a picture and its word
      const text = document.createElementNS(ns, "text");
      text.setAttribute("x", x + S / 2); text.setAttribute("y", y + (sp.chip === null ? S / 2 : 12));
      if (isRed(sp.label)) text.setAttribute("class", "red");
      text.textContent = labelText(sp.label);
      fitLabel(text, S); // glance.js: long words squeezed to the space
      g.append(text);
    }
    if (sp.chip !== null) g.append(chipShape(sp.chip, x + S / 2, y + S / 2 + 9, S * 0.24, view.teams[sp.chip].colour, sp.locked));
    if (target) g.addEventListener("click", () => onSpace(sp.name));
    else g.addEventListener("click", (e) => {
      const near = nearTarget(svg, e);
      if (near) onSpace(near); else if (onOther) onOther(sp.name);
    });
    svg.append(g);
  }
  sequenceLines(svg, view, S, false);
  return svg;
}

/* A tap beside a space that can be played counts for it (tap.js nearestTap): its name, or null. */
function nearTarget(svg, e) {
  const g = nearestTap(svg.querySelectorAll("g.target[data-space]"), e, (el) => el.querySelector("rect.cell").getBoundingClientRect());
  return g ? g.dataset.space : null;
}

function renderTable() {
  const m = table.msg;
  app.innerHTML = "";
  // At a game the error floats over the top of the page rather than pushing the board down.
  if (table.error) app.append(h("div", { class: ["error", m && m.view && "floating"], id: "error", role: "alert" }, table.error));
  if (!m) {
    if (table.closing) app.append(h("button", { id: "back", onclick: () => go("/") }, t("Back")));
    return;
  }
  if (m.table.rematch) {
    app.append(h("div", { class: "notice" }, t("A rematch is ready."), " ",
      h("button", { id: "go-rematch", onclick: () => go(`/t/${m.table.rematch}`, true) }, t("Go to the rematch"))));
  }
  if (!m.view) { app.append(lobbyView(m), talkPanel(m)); noticeTurn(null); return; }
  const v = m.view, you = m.you;
  const legal = v.legal_moves;
  const myTurn = legal.length > 0 || (m.table.chance && v.to_move === you.seat);
  // Once the game is over no card stays chosen.
  if (v.outcome) { table.selected = null; table.selectedIndex = null; }
  const sel = table.selected;
  const targets = new Set();
  const dice = v.game === "dice";
  for (const mv of legal) {
    if (dice && /^[@=x]/.test(mv)) targets.add(spaceOf(mv));
    else if (sel && (mv.startsWith(sel + "@") || mv.startsWith(sel + "x"))) targets.add(spaceOf(mv));
  }
  const onSpace = (name) => {
    const mv = legal.find((x) => spaceOf(x) === name && (dice ? /^[@=x]/.test(x) : x.startsWith(sel)));
    if (mv) sendMove(mv);
  };
  // A tap on a space the move cannot go to lights the spaces that would work (with no card
  // chosen, the cards that can be played) for a moment, and asks the server, which says why.
  const onOther = (name) => {
    if (myTurn && !o) { table.flashUntil = Date.now() + 1800; renderTable(); }
    if (dice && v.roll && v.to_move === you.seat && legal.length) sendAct({ type: "move", move: `@${name}`, version: m.version });
    else if (!dice && sel && v.hand && v.hand.includes(sel)) sendAct({ type: "move", move: `${sel}@${name}`, version: m.version });
  };
  const flash = (table.flashUntil || 0) > Date.now();
  const board = h("section", { class: ["panel", "board", flash && "flash"] }, boardSvg(v, targets, onSpace, onOther, v.outcome ? new Map() : recentMoves(m)));
  const side = h("div");
  // Status: whose turn, the sound and the hint in one row (a phone shows the board and the hand
  // at once); what a roll allows and the hint said under it.
  const o = v.outcome;
  const status = h("section", { class: "panel", id: "status" });
  const row = h("div", { class: "statusrow" });
  if (o) {
    status.append(endPanel(m)); // glance.js: who won, which sequences, how long, what next
    const change = ratingChange(m); // ratings.js: how a rated game moved the rating of this player
    if (change) status.append(change);
  } else {
    const actor = v.to_move;
    if (myTurn && v.to_move === you.seat) row.append(turnBanner(m)); // glance.js: #turn, large
    else row.append(h("div", { class: "turn", id: "turn" }, t("{name} to play", { name: seatLabel(m, actor) })));
    // The sound and the hint side by side, on a row of their own where the words are long.
    const tools = h("div", { class: "actions" }, you.seat !== null ? soundToggle() : null,
      hintButton(m)); // coach.js: the hint of a casual table for the seat to play
    if (tools.childElementCount) row.append(tools);
    status.append(row);
  }
  const clock = m.clock;
  if (clock && clock.seat !== null && !o) {
    status.append(h("div", { class: ["clock", clock.seat === you.seat && "mine"], id: "clock", "data-seat": clock.seat },
      clock.timed_out ? t("Time is up: a bot plays this turn") : ""));
    tickClock();
  }
  const mine = you.seat !== null ? m.table.seats[you.seat] : null;
  if (mine && mine.stand_in && !o) {
    status.append(h("p", {}, t("A bot is playing your seat.")),
      h("button", { class: "primary", id: "take-back", onclick: () => send({ type: "back" }) }, t("Take my seat back")));
  } else if (mine && mine.away && !o) status.append(h("p", { id: "away-note" }, t("Your time ran out: a bot played your turn.")));
  if (v.roll && !o) status.append(dicePanel(m)); // two dice faces, the total, what it allows
  const said = hintSaid(m); // coach.js: the hinted move in words, its reasons a tap away
  if (said) status.append(said);
  if (you.seat === null) status.append(h("p", {}, t("You are watching.")));
  // Hand and actions
  const handBox = h("section", { class: "panel", id: "hand-panel" });
  if (v.hand && !dice) {
    const dead = new Set(legal.filter((x) => x.startsWith("dead:")).map((x) => x.slice(5)));
    const chosen = sel === null ? -1 : table.selectedIndex != null && v.hand[table.selectedIndex] === sel ? table.selectedIndex : v.hand.indexOf(sel);
    const playable = new Set(legal.map((x) => /^([A-Z0-9]+)[@x]/.exec(x)).filter(Boolean).map((x) => x[1]));
    // A chosen card the engine offers no move for (the Dragon with no chip to take).
    const noMove = sel && myTurn && v.hand.includes(sel) && !dead.has(sel) && !legal.some((x) => x.startsWith(sel) || x.endsWith(`:${sel}`));
    handBox.append(h("h2", {}, t("Your hand")), h("div", { class: ["hand", ((flash && !sel) || noMove) && "flash"], id: "hand" }, v.hand.map((c, i) => h("button", {
      class: `card${isRed(c) ? " red" : ""}${kidsPicture(c) ? " kids" : ""}${chosen === i ? " selected" : ""}${dead.has(c) ? " dead" : ""}${playable.has(c) ? " playable" : ""}`,
      "data-card": c, "data-index": i,
      onclick: () => { if (v.outcome) return; const again = chosen === i; table.selected = again ? null : c; table.selectedIndex = again ? null : i; renderTable(); },
    }, cardFace(c), dead.has(c) ? h("small", { class: "deadtag" }, t("Dead card")) : null))));
    if (sel && dead.has(sel)) handBox.append(h("p", { class: "explain", id: "dead-explain" },
      t("No open space is left for this card: it is dead. Exchange it for a new card.")));
    // Said by picture: the card crossed out, the cards that can be played lit.
    else if (noMove) {
      handBox.append(h("div", { class: ["explain", "pictorial"], id: "no-move" },
        h("span", { class: "nope" }, cardFace(sel), h("span", { class: "cross", "aria-hidden": "true" })),
        h("span", {}, t("This card cannot be played now: choose a lit card."))));
    }
    const acts = h("div", { class: "actions", id: "actions" });
    const cardMove = (prefix) => sel && legal.includes(`${prefix}:${sel}`) ? `${prefix}:${sel}` : null;
    if (cardMove("dead")) acts.append(h("button", { id: "act-dead", onclick: () => sendMove(cardMove("dead")) }, t("Exchange dead card")));
    if (cardMove("discard")) acts.append(h("button", { id: "act-discard", onclick: () => sendMove(cardMove("discard")) }, t("Discard and pass")));
    if (cardMove("forfeit")) acts.append(h("button", { id: "act-forfeit", onclick: () => sendMove(cardMove("forfeit")) }, t("Give up this card")));
    if (cardMove("pick")) acts.append(h("button", { id: "act-pick", onclick: () => sendMove(cardMove("pick")) }, t("Take this card")));
    if (legal.some((x) => x.startsWith("forfeit:")) && !sel) acts.append(h("span", {}, t("Table talk: choose a card to give up.")));
    if (legal.some((x) => x.startsWith("pick:")) && !sel) acts.append(h("span", {}, t("Choose a card to take from the draft.")));
    if (legal.length === 1 && legal[0] === "pass" && v.hand.length) acts.append(h("p", { class: "explain", id: "pass-explain" },
      t("No card can be played now: pass. You keep your cards.")));
    if (legal.includes("pass")) acts.append(h("button", { id: "act-pass", onclick: () => sendMove("pass") }, t("Pass")));
    const draw = legal.find((x) => x.startsWith("draw:"));
    if (draw) acts.append(h("button", { id: "act-draw", class: "primary", onclick: () => sendMove(draw) }, t("Draw a card")));
    if (draw && table.drawFirst != null && table.drawFirst === v.to_move) { // passplay.js: the next seat is on this device too
      acts.append(h("p", { id: "draw-first" }, t("Draw your card, then pass the tablet to {name}.", { name: seatLabel(m, v.to_move) })));
    }
    if (m.table.chance && v.to_move === you.seat && !o) acts.append(h("button", { id: "act-roll", class: "primary", onclick: () => sendAct({ type: "roll", version: m.version }) }, t("Roll the dice")));
    handBox.append(acts);
    if (v.draft && v.draft.length) handBox.append(h("h2", {}, t("Draft")), h("div", { class: "hand", id: "draft" }, v.draft.map((c) => h("button", {
      class: ["card", "small", isRed(c) && "red", sel === c && "selected"], "data-card": c,
      onclick: () => { table.selected = sel === c ? null : c; renderTable(); } }, cardText(c)))));
  } else if (dice) {
    if (you.seat !== null) {
      const acts = h("div", { class: "actions", id: "actions" });
      if (m.table.chance && v.to_move === you.seat && !o) acts.append(h("button", { id: "act-roll", class: "primary", onclick: () => sendAct({ type: "roll", version: m.version }) }, t("Roll the dice")));
      if (legal.includes("pass")) acts.append(h("button", { id: "act-pass", onclick: () => sendMove("pass") }, t("Pass")));
      if (acts.childElementCount) handBox.append(acts);
    }
    if (!o) handBox.append(diceKey()); // glance.js: what each total does, at every turn, under the roll
  }
  // Players and public information
  const players = h("section", { class: "panel", id: "players" }, h("h2", {}, t("Players")),
    h("ul", { class: "seats" }, m.table.seats.map((s) => h("li", {},
      teamSwatch(v, s.team), " ", h("b", {}, v.teams[s.team].letter), " ", seatLabel(m, s.seat),
      s.seat === you.seat ? h("span", { class: "badge" }, t("you")) : null,
      s.seat === v.to_move && !o ? h("span", { class: ["badge", "turn"] }, t("to play")) : null,
      !s.connected || s.away ? h("span", { class: ["badge", "away"] }, t("away")) : null,
      v.game !== "dice" ? h("span", { class: "badge" }, tn("{n} card", "{n} cards", v.hand_sizes[s.seat])) : null,
      v.discards[s.seat] && v.discards[s.seat].length ? h("span", { class: ["badge", "top-discard"] },
        t("top discard: {card}", { card: cardText(v.discards[s.seat][v.discards[s.seat].length - 1]) })) : null,
      (you.host || you.seat !== null) && !s.connected && s.kind === "human" && s.seat !== you.seat && !o && !days(m) ? h("button", { class: "to-bot", onclick: () => setBot(s.seat, you.host ? meta.bots[0] : null) }, t("Hand to a bot")) : null))),
    h("p", {}, v.game !== "dice" ? t("Draw pile: {n}", { n: v.deck_size }) : null),
    h("p", {}, v.teams.map((tm, i) => h("span", { class: "badge" }, teamSwatch(v, i), " ", tn("{team}: {n} of {need} sequence", "{team}: {n} of {need} sequences", v.sequences_to_win, { team: tm.letter, n: v.sequences[i].length, need: v.sequences_to_win })))),
    h("p", {}, t("Link:"), " ", h("span", { class: "code" }, m.table.code), " · ", t("{n} watching", { n: m.table.spectators })),
    h("p", {}, copyLinkButton(inviteLink(m.table.code))));
  if (you.host && !o && v.config.game === "classic" && v.teams.some((tm) => tm.seats.length > 1)) {
    players.append(h("div", { class: "actions" }, h("button", { id: "penalty", onclick: () => penaltyDialog(m) }, t("Table-talk penalty…"))));
  }
  const log = logPanel(m); // glance.js: each move in words, the notation one click away
  side.append(status);
  if (handBox.querySelector("button, span, p, details")) side.append(handBox); // i18n: ignore (a selector)
  side.append(log); // beside the board, under the hand; on a phone a sheet (logSheet)
  const resign = resignButton(m);
  if (resign) players.append(h("div", { class: "actions" }, resign));
  side.append(players);
  const events = eventsPanel(m);
  if (events) side.append(events);
  side.append(talkPanel(m)); // talk.js: reactions, chat where the rules allow it
  app.append(h("div", { class: "game" }, h("div", {}, board), side), logSheet(m, log));
  const ol = $("#log ol"); if (ol) ol.scrollTop = ol.scrollHeight;
  markHint(); // coach.js: the hinted space and card lit
  keys.decorate(); // keys.js: labels, and the cursor for keyboard play
  noticeTurn(m);
}

/* ---- replay ------------------------------------------------------------------------------ */
async function replayPage(code) {
  app.innerHTML = "";
  let ply = 0, plies = 0;
  const holder = h("div");
  const label = h("span", { id: "ply" });
  async function show(n) {
    try {
      const r = await api("GET", `/api/tables/${code}/replay/${n}`);
      ply = r.ply; plies = r.plies;
      label.textContent = t("Move {n} of {total}", { n: ply, total: plies });
      holder.innerHTML = "";
      // The moves in words, as at the table and in the terminal: the server sends the public
      // facts of each move (view.log, from the history of the engine) and the names of the
      // seats; glance.js puts them into sentences. The view of a spectator: no hand, nothing
      // that was hidden.
      const m = { view: r.view, table: { seats: r.seats, events: r.events }, you: { seat: null, host: false } };
      const log = r.view.log || [];
      const last = log.length ? logSentence(m, log[log.length - 1]) : [];
      holder.append(h("section", { class: ["panel", "board"] }, boardSvg(r.view, new Set(), () => {})),
        h("p", { id: "replay-move", "data-move": r.view.last_move || "" }, last));
      if (r.view.outcome) holder.append(h("p", { class: "result" }, resultText(r.view.outcome.result)));
      else if (r.termination === "resignation" && r.result) { // no engine outcome: a side resigned
        holder.append(h("p", { class: "result", id: "resigned" }, resultText(r.result)));
        const resigned = (r.events || []).filter((e) => e.kind === "resign" && e.detail === "lost").pop();
        if (resigned) holder.append(h("p", { id: "end-reason" }, eventText(m, resigned)));
      }
      holder.append(logPanel(m, () => show(ply)));
      const ol = holder.querySelector("#log ol"); if (ol) ol.scrollTop = ol.scrollHeight;
      reviewAt(ply, plies, r.view); // coach.js: the verdict of this move, the chances’ cursor
    } catch (e) { holder.innerHTML = ""; holder.append(h("div", { class: "error" }, e.message)); }
  }
  app.append(h("section", { class: "panel" }, h("h2", {}, t("Replay of {code}", { code })),
    h("div", { class: "actions" },
      h("button", { id: "first", onclick: () => show(0) }, t("First")),
      h("button", { id: "prev", onclick: () => show(Math.max(0, ply - 1)) }, t("Back")),
      h("button", { id: "next", onclick: () => show(Math.min(plies, ply + 1)) }, t("Next")),
      h("button", { id: "last", onclick: () => show(plies) }, t("Last")), label)), holder,
    reviewPanel(code, show)); // coach.js: the review, computed by the server
  await show(0);
}

/* ---- how to play ------------------------------------------------------------------------- */
async function rulesPage(game) {
  app.innerHTML = "";
  const back = h("button", { id: "back", onclick: () => go("/") }, t("Back"));
  try {
    const r = await api("GET", `/api/rules/${game}`);
    const page = h("section", { class: ["panel", "rules"], id: "rules" });
    page.innerHTML = r.html; // built by the server from the project pages, raw HTML escaped
    // The pages link to their other languages as files (../ru/kids.md): here, switch language.
    for (const a of page.querySelectorAll("a[href$='.md']")) {
      const m = /^\.\.\/([a-z]{2})\/([a-z]+)\.md$/.exec(a.getAttribute("href"));
      if (!m) continue;
      a.setAttribute("href", `/rules/${m[2]}`);
      a.onclick = (e) => { e.preventDefault(); const sel = $("#lang"); sel.value = m[1]; sel.onchange(); };
    }
    app.append(h("div", { class: "actions" }, back), page);
  } catch (e) {
    app.append(h("div", { class: "error", id: "error" }, e.message), back);
  }
}

/* ---- routing ----------------------------------------------------------------------------- */
function go(path, replace) {
  if (replace) history.replaceState(null, "", path); else history.pushState(null, "", path);
  route();
}
function route() {
  const p = location.pathname;
  let m;
  if ((m = /^\/t\/([A-Za-z0-9]+)/.exec(p))) {
    const code = m[1].toUpperCase();
    // A rematch keeps the same people: their tokens carry over.
    if (table.msg && table.msg.table.rematch === code) {
      remember(code, seatToken(table.msg.table.code), hostToken(table.msg.table.code));
      passplay.carry(table.msg.table.code, code); // passplay.js: the seats on this device
    }
    return tablePage(code);
  }
  if (table.ws) { table.closing = true; table.ws.close(); table.ws = null; table.code = null; }
  showOffline(false);
  stopWaiting(); // ratings.js: a quick-play wait belongs to the lobby
  if (p === "/leaderboard") return leaderboardPage(new URLSearchParams(location.search).get("family"));
  if ((m = /^\/p\/(\d+)$/.exec(p))) return playerPage(m[1]);
  if ((m = /^\/replay\/([A-Za-z0-9]+)/.exec(p))) return replayPage(m[1].toUpperCase());
  if ((m = /^\/rules\/([a-z]+)/.exec(p))) return rulesPage(m[1]);
  if (p === "/account") return account.accountPage(); // account.js
  if (p === "/games") return social.gamesPage(); // social.js
  if (p === "/friends") return social.friendsPage();
  return lobby();
}
window.addEventListener("popstate", route);

(async function main() {
  try { meta = await api("GET", "/api/meta"); } catch (e) { pwa.show(true); return; } // pwa.js
  await loadLanguage(chosenLanguage());
  await account.load();
  languageSwitcher();
  pwa.check();
  route();
})();
