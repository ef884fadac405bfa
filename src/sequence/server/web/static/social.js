/* Play over days (issue 35), for signed-in players: "my games" (/games: every table of the
   account, where it is their turn first, with the deadline), friends and challenges (/friends:
   add by name or link, who is online, challenge one or several friends with chosen rules,
   accept or decline, block), and the notification settings of the account page (e-mail, Web Push
   to this browser through the service worker, sw.js). Only public facts come here: the server
   sends these pages no card of any hand. */
"use strict"; // i18n: ignore (a directive)

const social = (() => {
  const PANEL = "panel"; // i18n: ignore (a class name)
  let timer = null; // the friends page asks again every 30 s (who is online, new challenges)

  function signInFirst() {
    app.append(h("section", { class: PANEL, id: "sign-in-first" },
      h("p", {}, t("Sign in to play over days with your friends.")),
      h("a", { class: ["button", "primary"], href: "/account", onclick: (e) => { e.preventDefault(); go("/account"); } }, t("Sign in"))));
  }
  function nav() {
    const link = (path, text, id) => h("a", { href: path, id, class: ["button", location.pathname === path && "primary"],
      onclick: (e) => { e.preventDefault(); go(path); } }, text);
    return h("nav", { class: ["actions", "social-nav"] }, link("/games", t("My games"), "nav-games"),
      link("/friends", t("Friends and challenges"), "nav-friends"), link("/account", t("Account"), "nav-account"));
  }
  async function page() {
    if (timer) { clearInterval(timer); timer = null; }
    app.innerHTML = "";
    await account.load();
    if (!account.me.signed_in) { signInFirst(); return false; }
    app.append(nav());
    return true;
  }
  const failed = (box) => (e) => box.append(h("div", { class: "error", role: "alert" }, e.message));

  /* Time left until a deadline (ms, a Unix time): days and hours, or hours and minutes. */
  function leftText(ms) {
    const min = Math.max(0, Math.floor(ms / 60000));
    const d = Math.floor(min / 1440), hr = Math.floor((min % 1440) / 60), mn = min % 60;
    if (d > 0) return t("{d} d {h} h", { d, h: hr });
    return t("{h} h {m} min", { h: hr, m: mn });
  }
  function deadlineText(deadline) {
    const when = new Date(deadline).toLocaleString(chosenLanguage(), { dateStyle: "medium", timeStyle: "short" });
    return t("{left} left (until {when})", { left: leftText(deadline - Date.now()), when });
  }
  function clockName(name) {
    const days = { days1: 1, days2: 2, days3: 3, days7: 7 }[name];
    if (days) return tn("{n} day a move", "{n} days a move", days);
    return name === "casual" ? t("Casual") : name === "quick" ? t("Quick") : t("No clock");
  }

  /* ---- my games ---------------------------------------------------------------------------- */
  function gameRow(g) {
    const who = (s) => g.players[s] || t("Seat {n}", { n: s + 1 });
    const whose = g.status === "lobby" ? t("Waiting for players")
      : g.your_turn ? t("Your turn") : g.to_move === null ? t("In play") : t("{name} to play", { name: who(g.to_move) });
    const open = (e) => { e.preventDefault(); go(`/t/${g.code}`); };
    return h("li", { class: ["my-game", g.your_turn && "mine"], "data-code": g.code, "data-your-turn": g.your_turn ? "yes" : "no" },
      h("a", { href: `/t/${g.code}`, class: "code", onclick: open }, g.code), " ",
      h("span", { class: "game" }, t(meta.games[g.game].title)), " · ",
      h("span", { class: "players" }, g.players.map((n, i) => n || t("Seat {n}", { n: i + 1 })).join(", ")), " · ",
      h("strong", { class: "whose" }, whose),
      g.time_control ? h("span", { class: "muted" }, " · ", clockName(g.time_control)) : null,
      g.deadline ? h("span", { class: "deadline" }, " · ", deadlineText(g.deadline)) : null);
  }
  async function gamesPage() {
    if (!(await page())) return;
    const box = h("section", { class: PANEL, id: "my-games" }, h("h2", {}, t("My games")));
    app.append(box);
    try {
      const r = await api("GET", "/api/account/turns");
      const mine = r.turns.filter((g) => g.your_turn).length;
      box.append(h("p", { id: "my-turns" }, mine ? tn("Your turn at {n} table.", "Your turn at {n} tables.", mine) : t("It is nobody's turn but theirs: nothing to play now.")));
      if (!r.turns.length) box.append(h("p", {}, t("No games in play. Challenge a friend, or create a table.")));
      else box.append(h("ul", { class: ["list", "my-games"] }, r.turns.map(gameRow)));
    } catch (e) { failed(box)(e); }
  }

  /* ---- friends and challenges -------------------------------------------------------------- */
  function challengeForm(friends, err, refresh) {
    const games = meta.games;
    const gameSel = h("select", { id: "challenge-game" }, Object.entries(games).map(([g, d]) => h("option", { value: g }, t(d.title))));
    const playersSel = h("select", { id: "challenge-players" });
    const teamsSel = h("select", { id: "challenge-teams" });
    const clocks = Object.keys(meta.time_controls || { off: null });
    const clockSel = h("select", { id: "challenge-clock" }, clocks.map((n) => h("option", { value: n, selected: n === "days1" }, clockName(n))));
    const timeoutSel = h("select", { id: "challenge-on-timeout" },
      h("option", { value: "bot" }, t("A bot plays for them")), h("option", { value: "lost" }, t("Their team loses")));
    const levelSel = h("select", { id: "challenge-bots" }, meta.bots.map((b) => h("option", { value: b, selected: b === "medium" }, t(b))));
    const picks = friends.map((f) => h("label", { class: "choice" },
      h("input", { type: "checkbox", class: "challenge-friend", value: f.name }), " ", f.name));
    function refreshForm() {
      const g = gameSel.value, keep = playersSel.value;
      playersSel.innerHTML = "";
      for (const n of games[g].players) playersSel.append(h("option", { value: n, selected: String(n) === keep }, n));
      teamsSel.innerHTML = "";
      for (const k of games[g].teams[Number(playersSel.value)]) teamsSel.append(h("option", { value: k }, k));
      timeoutSel.parentElement && (timeoutSel.parentElement.hidden = !clockSel.value.startsWith("days"));
    }
    gameSel.onchange = refreshForm; playersSel.onchange = refreshForm; clockSel.onchange = refreshForm;
    async function send() {
      err.innerHTML = "";
      const chosen = picks.map((p) => p.querySelector("input")).filter((i) => i.checked).map((i) => i.value);
      const players = Number(playersSel.value);
      const bots = Array.from({ length: players }, (_, i) => (i <= chosen.length ? null : levelSel.value));
      try {
        await api("POST", "/api/challenges", {
          friends: chosen, game: gameSel.value, players, teams: Number(teamsSel.value), options: {}, bots,
          clock: clockSel.value, on_timeout: clockSel.value.startsWith("days") ? timeoutSel.value : null,
        });
        await refresh();
      } catch (e) { failed(err)(e); }
    }
    const form = h("section", { class: PANEL, id: "challenge-form" }, h("h2", {}, t("Challenge friends")),
      friends.length ? h("fieldset", {}, h("legend", {}, t("Friends to challenge")), picks) : h("p", {}, t("Add a friend first.")),
      h("label", {}, t("Game"), gameSel), h("label", {}, t("Players"), playersSel), h("label", {}, t("Teams"), teamsSel),
      h("label", {}, t("Turn clock"), clockSel), h("label", {}, t("When the days run out"), timeoutSel),
      h("label", {}, t("Bots in the other seats"), levelSel),
      h("button", { class: "primary", id: "challenge-send", onclick: send, disabled: !friends.length }, t("Send the challenge")));
    refreshForm();
    return form;
  }
  function challengeRow(c, refresh, err) {
    const me = account.me.name;
    const mine = c.invited.find((i) => i.name === me);
    const act = (path) => async () => {
      err.innerHTML = "";
      try {
        const r = await api("POST", path, {});
        if (r.table) { go(`/t/${r.table}`); return; }
        await refresh();
      } catch (e) { failed(err)(e); }
    };
    const answers = { waiting: t("waiting"), accepted: t("accepted"), declined: t("declined") };
    const status = { open: t("open"), accepted: t("accepted"), declined: t("declined"), cancelled: t("cancelled") };
    const s = c.settings;
    return h("li", { class: "challenge", "data-id": c.id, "data-status": c.status },
      c.by === me ? t("Your challenge") : t("{name} challenges you", { name: c.by }), ": ",
      t(meta.games[s.game].title), ", ", clockName(s.clock), " · ",
      c.invited.map((i) => `${i.name} (${answers[i.answer] || i.answer})`).join(", "), " · ", h("em", {}, status[c.status] || c.status), " ",
      mine && c.status === "open" && mine.answer === "waiting" ? [
        h("button", { class: ["primary", "challenge-accept"], onclick: act(`/api/challenges/${c.id}/accept`) }, t("Accept")),
        h("button", { class: "challenge-decline", onclick: act(`/api/challenges/${c.id}/decline`) }, t("Decline"))] : null,
      c.by === me && c.status === "open" ? h("button", { class: "challenge-cancel", onclick: act(`/api/challenges/${c.id}/cancel`) }, t("Withdraw")) : null,
      c.table ? h("a", { class: ["button", "challenge-open"], href: `/t/${c.table}`, onclick: (e) => { e.preventDefault(); go(`/t/${c.table}`); } }, t("Open the table")) : null);
  }
  async function friendsPage() {
    if (!(await page())) return;
    const me = account.me.name;
    const err = h("div", { role: "alert", id: "friends-error" });
    const nameIn = h("input", { id: "friend-name", maxlength: 24, placeholder: t("Player name"), autocomplete: "off" });
    const myLink = `${location.origin}/friends?add=${encodeURIComponent(me)}`;
    const lists = h("div", { id: "friends-lists" });
    const challenges = h("section", { class: PANEL, id: "challenges" });
    const formBox = h("div");
    const post = (path, name) => async () => {
      err.innerHTML = "";
      try { await api("POST", path, { name }); await refresh(); } catch (e) { failed(err)(e); }
    };
    async function refresh() {
      if (location.pathname !== "/friends") { clearInterval(timer); timer = null; return; }
      const [f, c] = await Promise.all([api("GET", "/api/friends"), api("GET", "/api/challenges")]);
      const person = (name, ...buttons) => h("li", { class: "friend", "data-name": name }, name, " ", buttons);
      lists.innerHTML = "";
      lists.append(h("h3", {}, t("Friends")), f.friends.length ? h("ul", { class: "list", id: "friends" }, f.friends.map((x) => h("li", { class: "friend", "data-name": x.name },
        h("span", { class: ["dot", x.online ? "online" : "offline"], title: x.online ? t("online") : t("offline"), "aria-label": x.online ? t("online") : t("offline") }),
        " ", x.name, " ", h("span", { class: "muted" }, x.online ? t("online") : t("offline")), " ",
        h("button", { class: "friend-remove", onclick: post("/api/friends/remove", x.name) }, t("Remove")),
        h("button", { class: "friend-block", onclick: post("/api/friends/block", x.name) }, t("Block"))))) : h("p", {}, t("No friends yet.")));
      if (f.asking_me.length) lists.append(h("h3", {}, t("Asking to be your friend")), h("ul", { class: "list", id: "asking-me" }, f.asking_me.map((n) => person(n,
        h("button", { class: ["primary", "friend-accept"], onclick: post("/api/friends", n) }, t("Accept")),
        h("button", { class: "friend-refuse", onclick: post("/api/friends/remove", n) }, t("Decline")),
        h("button", { class: "friend-block", onclick: post("/api/friends/block", n) }, t("Block"))))));
      if (f.asked.length) lists.append(h("h3", {}, t("Asked by you")), h("ul", { class: "list", id: "asked" }, f.asked.map((n) => person(n,
        h("button", { class: "friend-withdraw", onclick: post("/api/friends/remove", n) }, t("Withdraw"))))));
      if (f.blocked.length) lists.append(h("h3", {}, t("Blocked")), h("ul", { class: "list", id: "blocked" }, f.blocked.map((n) => person(n,
        h("button", { class: "friend-unblock", onclick: post("/api/friends/remove", n) }, t("Unblock"))))));
      challenges.innerHTML = "";
      challenges.append(h("h2", {}, t("Challenges")), c.challenges.length
        ? h("ul", { class: "list", id: "challenge-list" }, c.challenges.map((x) => challengeRow(x, refresh, err)))
        : h("p", {}, t("No challenges.")));
      if (!formBox.firstChild || formBox.dataset.friends !== f.friends.map((x) => x.name).join(",")) {
        formBox.innerHTML = "";
        formBox.dataset.friends = f.friends.map((x) => x.name).join(",");
        formBox.append(challengeForm(f.friends, err, refresh));
      }
    }
    const add = new URLSearchParams(location.search).get("add");
    if (add && add !== me) nameIn.value = add; // a link from a friend: one tap to ask them
    app.append(h("section", { class: PANEL, id: "friends-panel" }, h("h2", {}, t("Friends")), err,
      add && add !== me ? h("p", { class: "notice", id: "friend-link-notice" }, t("{name} sent you their link: add them as a friend?", { name: add })) : null,
      h("div", { class: "actions" }, nameIn,
        h("button", { class: "primary", id: "friend-add", onclick: () => nameIn.value.trim() && post("/api/friends", nameIn.value.trim())() }, t("Add a friend"))),
      h("p", {}, t("Your link for friends:"), " ", h("code", { id: "friend-link" }, myLink), " ",
        h("button", { id: "friend-link-copy", onclick: () => navigator.clipboard && navigator.clipboard.writeText(myLink) }, t("Copy"))),
      lists), challenges, formBox);
    try { await refresh(); } catch (e) { failed(err)(e); }
    timer = setInterval(() => refresh().catch(() => {}), 30000);
  }

  /* ---- notifications (the account page) --------------------------------------------------- */
  function keyBytes(b64url) {
    const s = atob(b64url.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((b64url.length + 3) % 4));
    return Uint8Array.from(s, (c) => c.charCodeAt(0));
  }
  async function pushSubscription() {
    if (!("serviceWorker" in navigator) || !("PushManager" in window)) return null;
    const reg = await navigator.serviceWorker.ready;
    return reg.pushManager.getSubscription();
  }
  async function notifyPanel() {
    const box = h("section", { class: PANEL, id: "notify" }, h("h2", {}, t("Notifications")));
    const note = h("div", { role: "status" });
    let s;
    try { s = await api("GET", "/api/notify"); } catch (e) { failed(box)(e); return box; }
    const email = h("input", { id: "notify-email", type: "email", maxlength: 254, value: s.email || "", autocomplete: "email" });
    const emailOn = h("input", { id: "notify-email-on", type: "checkbox", checked: s.email_on });
    const pushOn = h("input", { id: "notify-push-on", type: "checkbox", checked: s.push_on });
    const pushBtn = h("button", { id: "push-subscribe" }, t("Send notifications to this browser"));
    const pushStop = h("button", { id: "push-unsubscribe", hidden: true }, t("Stop on this browser"));
    const say = (text, cls) => { note.innerHTML = ""; note.append(h("div", { class: cls || "notice" }, text)); };
    // A server with no mail transport offers no e-mail: the address stored (if any) is kept as it is.
    const byEmail = s.email_available;
    async function save() {
      const mail = byEmail ? { email: email.value.trim() || null, email_on: emailOn.checked } : { email: s.email, email_on: s.email_on };
      const r = await api("POST", "/api/notify", { lang: chosenLanguage(), ...mail, push_on: pushOn.checked });
      say(r.confirmation_sent ? t("Saved. We sent a link to confirm your address.") : t("Saved."));
      return r;
    }
    pushBtn.onclick = async () => {
      try {
        if (!("serviceWorker" in navigator) || !("PushManager" in window)) throw new Error(t("This browser cannot receive push notifications."));
        if ((await Notification.requestPermission()) !== "granted") throw new Error(t("Notifications are not allowed for this site in this browser."));
        const reg = await navigator.serviceWorker.ready;
        const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(s.vapid_key) });
        await api("POST", "/api/notify/push", sub.toJSON());
        if (!pushOn.checked) { pushOn.checked = true; await save(); }
        pushBtn.hidden = true; pushStop.hidden = false;
        say(t("This browser will show your notifications."));
      } catch (e) { say(e.message, "error"); }
    };
    pushStop.onclick = async () => {
      try {
        const sub = await pushSubscription();
        if (sub) { await api("POST", "/api/notify/push/delete", { endpoint: sub.endpoint }); await sub.unsubscribe(); }
        pushBtn.hidden = false; pushStop.hidden = true;
        say(t("This browser will show no more notifications."));
      } catch (e) { say(e.message, "error"); }
    };
    pushSubscription().then((sub) => { if (sub) { pushBtn.hidden = true; pushStop.hidden = false; } }).catch(() => {});
    box.append(...[ // the DOM append would show a null as text
      h("p", { class: "muted" }, t("When you are away from the page: your turn, a friend's challenge, the end of a game. Never a card of anyone's hand.")),
      note,
      byEmail ? h("label", {}, t("E-mail address"), email) : null,
      byEmail && s.email && !s.email_confirmed ? h("p", { class: "muted", id: "notify-unconfirmed" }, t("Not confirmed yet: open the link we sent.")) : null,
      byEmail ? null : h("p", { class: "muted", id: "notify-no-email" }, t("This server sends no e-mail.")),
      byEmail ? h("label", { class: "choice" }, emailOn, " ", t("By e-mail")) : null,
      h("label", { class: "choice" }, pushOn, " ", t("By push notification")),
      h("div", { class: "actions" }, h("button", { class: "primary", id: "notify-save", onclick: () => save().catch((e) => say(e.message, "error")) }, t("Save")), pushBtn, pushStop)].filter(Boolean));
    return box;
  }

  return { gamesPage, friendsPage, notifyPanel, nav, clockName, leftText };
})();
window.social = social;
