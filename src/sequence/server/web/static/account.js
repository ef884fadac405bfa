/* Optional accounts (issue 16): the header's "Sign in" link, the account page (sign in, sign up,
   change password, export, sign out, delete), and seats that follow a signed-in player.
   The session is an HttpOnly cookie this script never sees; what it keeps is the session's CSRF
   token (from GET /api/account), which app.js's api() sends with every request. */
"use strict"; // i18n: ignore (a directive)

const account = (() => {
  const PANEL = "panel account"; // i18n: ignore (class names)
  const me = { signed_in: false, name: null, csrf: null };

  function adopt(info) {
    me.signed_in = !!info.signed_in; me.name = info.name || null; me.csrf = info.csrf || null;
    headerLink();
  }
  async function load() {
    try { adopt(await api("GET", "/api/account")); } catch (e) { adopt({ signed_in: false }); }
  }
  function headerLink() {
    const a = document.getElementById("account-link");
    if (!a) return;
    a.textContent = me.signed_in ? me.name : t("Sign in");
    a.setAttribute("aria-label", me.signed_in ? t("Your account: {name}", { name: me.name }) : t("Sign in or sign up"));
    const games = document.getElementById("games-link");
    if (games) games.hidden = !me.signed_in; // "my games": social.js
  }

  /* The guest seats this browser holds become the account's; their new tokens replace the old. */
  async function claimSeats() {
    const seats = [];
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (k && k.startsWith("seq.seat.")) seats.push({ code: k.slice(9), token: localStorage.getItem(k) });
    }
    if (!seats.length) return 0;
    const r = await api("POST", "/api/account/claim", { seats });
    for (const s of r.seats) {
      localStorage.setItem(`seq.seat.${s.code}`, s.seat_token);
      passplay.retoken(s.code, s.seat, s.seat_token); // the copy pass-and-play keeps
    }
    return r.seats.length;
  }

  /* Opening a table with no seat token here: a signed-in player gets their seat's token. */
  async function seatFor(code) {
    if (!me.signed_in || localStorage.getItem(`seq.seat.${code}`)) return;
    try {
      const r = await api("POST", `/api/account/seats/${code}`, {});
      if (r.seats.length) localStorage.setItem(`seq.seat.${code}`, r.seats[0].seat_token);
    } catch (e) { /* no such table, or the session ended: the page shows it as a guest's */ }
  }

  function field(id, label, type, autocomplete) {
    const input = h("input", { id, type, autocomplete, required: true, maxlength: type === "password" ? 256 : 24 });
    return [h("label", { for: id }, label), input];
  }
  /* A form whose button is the page's main action ("primary"), or one that cannot be undone ("danger"). */
  function form(id, title, fields, buttonText, onsubmit, kind = "primary") {
    const err = h("div", { role: "alert" });
    const f = h("form", { id, class: "account-form", "aria-label": title }, h("h2", {}, title), err,
      fields.map((pair) => h("div", { class: "field" }, pair)), h("button", { class: kind, type: "submit" }, buttonText));
    f.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      err.innerHTML = "";
      try { await onsubmit(); } catch (e) { err.append(h("div", { class: "error" }, e.message)); }
    });
    return f;
  }
  const value = (id) => document.getElementById(id).value;

  async function signedIn(info) {
    adopt(info);
    if (!localStorage.getItem("seq.name")) localStorage.setItem("seq.name", me.name);
    const n = await claimSeats();
    return n;
  }

  function signInPage() {
    app.append(h("section", { class: PANEL },
      form("signin-form", t("Sign in"), [
        field("signin-name", t("User name"), "text", "username"),
        field("signin-password", t("Password"), "password", "current-password"),
      ], t("Sign in"), async () => {
        await signedIn(await api("POST", "/api/account/signin", { name: value("signin-name"), password: value("signin-password") }));
        go("/account");
      }),
      form("signup-form", t("Sign up"), [
        field("signup-name", t("User name"), "text", "username"),
        field("signup-password", t("Password (8 characters or more)"), "password", "new-password"),
      ], t("Sign up"), async () => {
        await signedIn(await api("POST", "/api/account/signup", { name: value("signup-name"), password: value("signup-password") }));
        go("/account");
      }),
      h("p", { class: "muted" }, t("You do not need an account to play. With one, your seats follow you to every device you sign in on, and your games are kept."))));
  }

  async function accountPage() {
    app.innerHTML = "";
    await load();
    if (!me.signed_in) return signInPage();
    const games = h("section", { class: "panel", id: "account-games" }, h("h2", {}, t("Your games")));
    app.append(social.nav()); // social.js: my games, friends and challenges
    app.append(
      h("section", { class: PANEL },
        h("h2", {}, t("Signed in as {name}", { name: me.name })),
        h("div", { class: "actions" },
          h("a", { class: "button", id: "export", href: "/api/account/export", download: "sequence-games.json" }, t("Export my games")),
          h("button", { id: "signout", onclick: async () => {
            await api("POST", "/api/account/signout", {}); adopt({ signed_in: false }); go("/");
          } }, t("Sign out")))),
      games,
      await social.notifyPanel(),
      h("section", { class: PANEL },
        form("password-form", t("Change password"), [
          field("old-password", t("Current password"), "password", "current-password"),
          field("new-password", t("New password"), "password", "new-password"),
        ], t("Change password"), async () => {
          adopt(await api("POST", "/api/account/password", { password: value("old-password"), new_password: value("new-password") }));
          document.getElementById("password-form").prepend(h("div", { class: "notice", role: "status" }, t("Password changed. Other devices are signed out.")));
        }),
        form("delete-form", t("Delete account"), [
          field("delete-password", t("Password"), "password", "current-password"),
        ], t("Delete my account"), async () => {
          if (!confirm(t("Delete your account? Your games stay, shown as played by a deleted player."))) return;
          await api("POST", "/api/account/delete", { password: value("delete-password") });
          adopt({ signed_in: false }); go("/");
        }, "danger")));
    try {
      const r = await api("GET", "/api/account/games");
      if (!r.games.length) games.append(h("p", {}, t("No games yet.")));
      else games.append(h("table", { class: "list" }, r.games.map((g) => h("tr", {},
        h("td", { class: "code" }, g.code), h("td", {}, t(meta.games[g.config.game].title)),
        h("td", {}, g.status === "finished" ? resultText(g.result) : g.status === "playing" ? t("In play") : t("In the lobby")),
        h("td", {}, h("button", { onclick: () => go(g.status === "finished" ? `/replay/${g.code}` : `/t/${g.code}`) },
          g.status === "finished" ? t("Replay") : t("Open")))))));
    } catch (e) { games.append(h("div", { class: "error" }, e.message)); }
  }

  return { me, load, seatFor, accountPage, headerLink };
})();
