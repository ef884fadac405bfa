/* Ratings and quick play (the server ratings.py, matchmaking.py, players.py): the quick-play
   panel with its wait and its "waiting…" state, the "Rated" choice of the create form, the
   leaderboard (/leaderboard), a player page (/p/ID) with the rating history drawn as an inline
   SVG chart, and a rated game, the rating change at its end.
   This browsers player is a secret player token in localStorage (seq.player), made on first
   need by POST /api/players: a guest ratings follow it, no account needed.
   Loaded before app.js; h(), t(), tn(), api(), go(), remember() come from it, used at call time. */
"use strict"; // i18n: ignore (a directive)

const rated = { waiting: null };

function familyName(f) {
  if (f === "classic2") return t("Sequence, two sides");
  if (f === "classic3") return t("Sequence, three sides");
  if (f === "kids") return t("Sequence for Kids");
  if (f === "dice") return t("Sequence Dice");
  return f;
}
function familyOf(config) {
  if (config.game === "classic") return config.teams === 3 ? "classic3" : "classic2"; // i18n: ignore
  return config.game;
}
function me() {
  try { return JSON.parse(localStorage.getItem("seq.player") || "null"); } catch (e) { return null; }
}
const signedIn = () => typeof account !== "undefined" && account.me.signed_in; // account.js
/* This browsers player id: the signed-in account, else the guest. */
function myId() {
  if (signedIn()) return rated.account || null;
  const p = me();
  return p ? p.id : null;
}
/* Who this browser plays as, checked with the server: the account player when signed in;
   a guest player that became an account (its owner signed up) is no longer this browsers. */
async function syncPlayer() {
  try {
    if (signedIn()) { rated.account = (await api("GET", "/api/players/me")).player; return; }
    rated.account = null;
    const p = me();
    if (p && (await api("GET", `/api/players/${p.id}`)).kind !== "guest") localStorage.removeItem("seq.player");
  } catch (e) { if (me() && /\b404\b|no player/.test(e.message)) localStorage.removeItem("seq.player"); }
}
/* This browsers player, made on first need. */
async function ensurePlayer(name) {
  const p = me();
  if (p && p.token) return p;
  const r = await api("POST", "/api/players", { name: name || t("Player") });
  const made = { id: r.player, token: r.player_token };
  localStorage.setItem("seq.player", JSON.stringify(made));
  return made;
}
// A rating as people read it: the server's display value (1500 to start, computed in one place
// from OpenSkill's mu), with "?" while it is provisional.
function ratingText(r) {
  return `${r.display}${r.provisional ? "?" : ""}`;
}
function provisionalMark(r) {
  return r.provisional ? h("span", { class: ["badge", "provisional"] }, t("provisional")) : null;
}

/* ---- quick play --------------------------------------------------------------------------- */
function quickPlayPanel() {
  const games = meta.games;
  const err = h("div", { role: "alert" });
  const gameSel = h("select", { id: "qp-game" }, Object.entries(games).map(([g, d]) => h("option", { value: g }, t(d.title))));
  const playersSel = h("select", { id: "qp-players" });
  const waitSel = h("select", { id: "qp-wait" }, [10, 30, 60, 120].map((s) =>
    h("option", { value: s, selected: s === 30 }, tn("{n} second", "{n} seconds", s))));
  const fillPlayers = () => {
    playersSel.innerHTML = "";
    for (const n of games[gameSel.value].players) playersSel.append(h("option", { value: n }, n));
  };
  gameSel.onchange = fillPlayers; fillPlayers();
  const box = h("div", { id: "qp-box", "aria-live": "polite" });
  const panel = h("section", { class: "panel", id: "quick-play" }, h("h2", {}, t("Quick play")),
    h("p", {}, t("Play a rated game now with people of a similar rating; if nobody comes in time, bots of a fitting level take the other seats.")),
    err, h("label", {}, t("Game"), gameSel), h("label", {}, t("Players"), playersSel),
    h("label", {}, t("Wait for people"), waitSel), box);
  const lock = (on) => { for (const sel of [gameSel, playersSel, waitSel]) sel.disabled = on; };
  function idle() {
    lock(false);
    box.innerHTML = "";
    box.append(h("button", { class: "primary", id: "qp-start", onclick: start }, t("Play now")));
  }
  async function start() {
    err.innerHTML = "";
    try {
      const name = ($("#name") && $("#name").value) || localStorage.getItem("seq.name") || t("Player");
      const p = me();
      const r = await api("POST", "/api/quickplay", {
        game: gameSel.value, players: Number(playersSel.value), wait: Number(waitSel.value), name,
        player_token: p && p.token ? p.token : null,
      });
      if (r.player_token) localStorage.setItem("seq.player", JSON.stringify({ id: r.player, token: r.player_token }));
      if (signedIn()) rated.account = r.player;
      waiting(r.ticket);
    } catch (e) { err.append(h("div", { class: "error" }, e.message)); }
  }
  function waiting(ticket) {
    const status = h("p", { id: "qp-status" }, t("Waiting for players…"));
    lock(true); // what the wait is for is chosen: cancel to choose again
    box.innerHTML = "";
    box.append(status, h("button", { id: "qp-cancel", onclick: async () => {
      stop();
      try { await api("POST", "/api/quickplay/cancel", { ticket }); } catch (e) { /* gone already */ }
      idle();
    } }, t("Cancel")));
    const poll = async () => {
      try {
        const s = await api("POST", "/api/quickplay/status", { ticket });
        if (s.status === "seated") { stop(); remember(s.code, s.seat_token); go(`/t/${s.code}`); return; }
        if (s.status !== "waiting") { stop(); idle(); return; }
        status.textContent = t("Waiting for players… bots in {n} s", { n: Math.ceil(s.left) });
      } catch (e) { stop(); idle(); err.append(h("div", { class: "error" }, e.message)); }
    };
    rated.waiting = setInterval(poll, 1000);
    poll();
  }
  function stop() { if (rated.waiting) clearInterval(rated.waiting); rated.waiting = null; }
  idle();
  return panel;
}
/* Leaving the lobby stops a waits polling (the server drops a ticket nobody asks after). */
function stopWaiting() { if (rated.waiting) clearInterval(rated.waiting); rated.waiting = null; }

/* ---- the create form: rated or not -------------------------------------------------------- */
function ratedOption() {
  return h("label", {}, h("input", { type: "checkbox", id: "rated" }), t("Rated (needs a turn clock; the usual rules)"));
}
/* What a create request adds: the creator sits as this browser player (whose page lists the
   game), and whether the game is rated. */
async function ratedCreateFields(name) {
  const box = $("#rated");
  return { rated: !!(box && box.checked), player_token: await playerToken(name) };
}
/* The token a rated seat is taken with: signed in, the account is the player (a guest token
   this browser holds is sent so that its games become the account); else this guest. */
async function playerToken(name) {
  if (signedIn()) { const p = me(); return p && p.token ? p.token : null; }
  return (await ensurePlayer(name)).token;
}
/* What a join adds: the seat is taken as this browser player (a rated table needs one). */
async function ratedJoinFields(m, name) {
  return { player_token: await playerToken(name) };
}

/* ---- the end of a rated game: the change of this player rating ---------------------------- */
function ratingChange(m) {
  if (!m.table.rated || m.you.seat === null || (!signedIn() && !me())) return null;
  const code = m.table.code;
  rated.change = rated.change || {};
  const box = h("p", { id: "rating-change", "aria-live": "polite" });
  const show = () => {
    const c = rated.change[code];
    const el = document.getElementById("rating-change") || box;
    if (!c || !c.now) return;
    el.innerHTML = "";
    el.append(t("Your rating: {before} → {rating}", { before: c.before, rating: ratingText(c.now) }),
    " ", provisionalMark(c.now), " ", h("a", { href: `/p/${c.id}`, id: "my-page", onclick: (e) => { e.preventDefault(); go(`/p/${c.id}`); } }, t("Your page")));
  };
  if (!rated.change[code]) {
    rated.change[code] = {};
    const family = familyOf(m.table.config);
    // The ratings move just after the end: ask until this game is in the history of the player.
    const look = async (tries) => {
      try {
        if (signedIn() && !rated.account) await syncPlayer();
        const id = myId();
        if (!id) throw new Error("no player"); // i18n: ignore (never shown)
        const page = await api("GET", `/api/players/${id}`);
        const hist = page.history[family] || [];
        if (page.games.some((g) => g.code === code && g.rated) && hist.length) {
          rated.change[code] = { id, now: page.ratings[family], before: hist[hist.length - 1].before_display };
          show();
          return;
        }
      } catch (e) { /* the page works without it */ }
      if (tries > 0) setTimeout(() => look(tries - 1), 500);
    };
    look(20);
  }
  show();
  return box;
}

/* ---- the leaderboard ---------------------------------------------------------------------- */
async function leaderboardPage(family) {
  app.innerHTML = "";
  family = family || "classic2"; // i18n: ignore
  const panel = h("section", { class: "panel", id: "leaderboard" }, h("h2", {}, t("Leaderboard")));
  app.append(panel);
  try {
    const board = await api("GET", `/api/leaderboard?family=${encodeURIComponent(family)}`);
    const tabs = h("div", { class: "actions", role: "group", "aria-label": t("Game") }, Object.keys(board.families).map((f) =>
      h("button", { "data-family": f, "aria-pressed": String(f === family), onclick: () => go(`/leaderboard?family=${f}`) }, familyName(f))));
    panel.append(tabs, h("p", {}, t("Ratings are OpenSkill's: the rating shown is μ − 3σ, so it grows as the games make it surer. Bots are rated on the same scale.")));
    if (!board.players.length) { panel.append(h("p", {}, t("Nobody is rated in this game yet."))); return; }
    panel.append(h("table", { class: "list", id: "leaders" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("Player")),
        h("th", { scope: "col" }, t("Rating")), h("th", { scope: "col" }, t("Games")))),
      h("tbody", {}, board.players.map((r, i) => h("tr", { "data-kind": r.kind },
        h("td", {}, String(i + 1)),
        h("td", {}, h("a", { href: `/p/${r.player}`, onclick: (e) => { e.preventDefault(); go(`/p/${r.player}`); } },
          r.kind === "bot" ? t("Bot: {level}", { level: t(r.name) }) : r.name)),
        h("td", {}, ratingText(r), " ", provisionalMark(r) || ""),
        h("td", {}, String(r.games)))))));
  } catch (e) { panel.append(h("div", { class: "error" }, e.message)); }
}

/* ---- a player page ---------------------------------------------------------------------- */
/* The rating history as a line chart in SVG (no script library): one point per rated game. */
function historyChart(points) {
  const W = 560, H = 200, P = 44;
  const svg = (tag, attrs, ...kids) => {
    const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    for (const k of kids) el.append(k);
    return el;
  };
  const values = points.map((p) => p.display);
  const lo = Math.min(...values), hi = Math.max(...values);
  const x = (i) => P + (points.length === 1 ? (W - 2 * P) / 2 : i * (W - 2 * P) / (points.length - 1));
  const y = (v) => H - P - (v - lo) * (H - 2 * P) / (hi - lo || 1);
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-chart", role: "img",
    "aria-label": t("Rating after each rated game: from {first} to {last}", { first: values[0], last: values[values.length - 1] }) });
  chart.append(svg("line", { x1: P, y1: H - P, x2: W - P, y2: H - P, class: "axis" }),
    svg("line", { x1: P, y1: P, x2: P, y2: H - P, class: "axis" }),
    svg("text", { x: 2, y: y(hi) + 4, class: "tick" }, String(hi)),
    svg("text", { x: 2, y: y(lo) + 4, class: "tick" }, String(lo)));
  chart.append(svg("polyline", { points: points.map((p, i) => `${x(i)},${y(p.display)}`).join(" "), class: "line" }));
  points.forEach((p, i) => chart.append(svg("circle", { cx: x(i), cy: y(p.display), r: 3, class: "dot" })));
  return chart;
}
function outcomeText(r) {
  if (r === "win") return t("Won");
  if (r === "loss") return t("Lost");
  return t("Draw");
}
async function playerPage(id) {
  app.innerHTML = "";
  const panel = h("section", { class: "panel", id: "player-page" });
  app.append(panel);
  try {
    const page = await api("GET", `/api/players/${id}`);
    panel.append(h("h2", {}, page.kind === "bot" ? t("Bot: {level}", { level: t(page.name) }) : page.name));
    const families = Object.keys(page.ratings);
    if (!families.length) panel.append(h("p", {}, t("No rated games yet.")));
    for (const f of families) {
      const r = page.ratings[f];
      const sec = h("section", { class: "family", "data-family": f }, h("h3", {}, familyName(f)),
        h("p", {}, t("Rating"), ": ", h("b", { class: "rating" }, ratingText(r)), " ", provisionalMark(r) || "", " · ",
          tn("{n} rated game", "{n} rated games", r.games)));
      const hist = page.history[f] || [];
      // The line starts where the first rated game started from.
      if (hist.length) sec.append(historyChart([{ display: hist[0].before_display }, ...hist]));
      panel.append(sec);
    }
    const vs = Object.entries(page.versus_bots);
    panel.append(h("h3", {}, t("Against the bots")));
    if (!vs.length) panel.append(h("p", {}, t("No games against bots yet.")));
    else panel.append(h("table", { class: "list", id: "versus-bots" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Bot")), h("th", { scope: "col" }, t("Won")),
        h("th", { scope: "col" }, t("Draw")), h("th", { scope: "col" }, t("Lost")))),
      h("tbody", {}, vs.map(([level, s]) => h("tr", {}, h("td", {}, t(level)),
        h("td", {}, String(s.win)), h("td", {}, String(s.draw)), h("td", {}, String(s.loss)))))));
    panel.append(h("h3", {}, t("Games")));
    if (!page.games.length) panel.append(h("p", {}, t("No finished games yet.")));
    else panel.append(h("table", { class: "list", id: "player-games" }, h("tbody", {}, page.games.map((g) => h("tr", {},
      h("td", {}, familyName(g.family)), h("td", {}, outcomeText(g.result)),
      h("td", {}, g.rated ? t("Rated") : t("Unrated")), h("td", {}, listedPlayers(g)),
      h("td", {}, g.code ? h("a", { href: `/replay/${g.code}`, onclick: (e) => { e.preventDefault(); go(`/replay/${g.code}`); } }, t("Replay"))
        : t("Private game")))))));
  } catch (e) { panel.append(h("div", { class: "error" }, e.message)); }
}

/* Links to the leaderboard and this browsers page, for the lobby. */
function ratingsLinks() {
  const link = (href, text, id) => h("a", { href, id, onclick: (e) => { e.preventDefault(); go(href); } }, text);
  const box = h("p", { class: "actions", id: "ratings-links" }, link("/leaderboard", t("Leaderboard"), "to-leaderboard"));
  syncPlayer().then(() => { const id = myId(); if (id) box.append(" ", link(`/p/${id}`, t("Your page"), "to-my-page")); });
  return box;
}
