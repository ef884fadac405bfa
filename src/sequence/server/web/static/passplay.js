/* Pass-and-play: several seats on one device (issue 18), as the terminal's hot-seat hand-over.
   The browser keeps every local seat's token; it connects as the seat whose hand is shown, or as
   a spectator (no hand at all) between their turns, and tells the server it holds every one of
   them ("local" in hello), so none shows as away while the page is open. When a local seat is to play and its hand is
   not the one shown, a full-screen hand-over hides the table; the hand is asked of the server
   only after the tap. The shown seat is stored, and cleared before a hand-over is drawn, so a
   reload or the back button during a hand-over comes back to the hand-over, never to a hand. */
"use strict"; // i18n: ignore (a directive)

const passplay = (() => {
  const key = (code) => `seq.local.${code}`; // i18n: ignore (a storage key)
  const shownKey = (code) => `seq.shown.${code}`; // i18n: ignore (a storage key)
  const seats = (code) => { try { return JSON.parse(localStorage.getItem(key(code)) || "{}"); } catch (e) { return {}; } };
  const active = (code) => Object.keys(seats(code)).length > 1;
  const shown = (code) => { const s = localStorage.getItem(shownKey(code)); return s === null ? null : Number(s); };
  function setShown(code, seat) {
    if (seat === null) localStorage.removeItem(shownKey(code)); else localStorage.setItem(shownKey(code), String(seat));
  }
  const isLocal = (code, seat) => seat !== null && seat !== undefined && String(seat) in seats(code);

  /* The create form: "On this device" for a seat, with the name the hand-over calls out. */
  function seatOption() { return h("option", { value: "local" }, t("On this device")); }
  function nameInput(i, sel) {
    const input = h("input", { class: "local-name", id: `local-name-${i}`, maxlength: 24, placeholder: t("Name"), "aria-label": t("Name of seat {n}", { n: i + 1 }), hidden: true });
    sel.addEventListener("change", () => { input.hidden = sel.value !== "local"; });
    return input;
  }
  /* The other seats on this device, for POST /api/tables's "local" (the creator's is "mine"). */
  function localSeats(form, mine) {
    const nameOf = (i) => { const el = document.getElementById(`local-name-${i}`); return (el && el.value.trim()) || t("Seat {n}", { n: i + 1 }); };
    return [...form.querySelectorAll("select[data-seat]")].filter((s) => s.value === "local")
      .map((s) => Number(s.dataset.seat)).filter((i) => i !== mine).map((i) => ({ seat: i, name: nameOf(i) }));
  }
  /* After POST /api/tables: keep every seat token of this device (one request took them all). */
  function afterCreate(r) {
    const tokens = {};
    if (r.seat !== null && r.seat !== undefined) tokens[r.seat] = r.seat_token;
    for (const s of r.local || []) tokens[s.seat] = s.seat_token;
    if (Object.keys(tokens).length > 1) { localStorage.setItem(key(r.code), JSON.stringify(tokens)); setShown(r.code, null); }
  }
  /* The name a local seat takes when the table is created (the creator's seat, if it is local). */
  function creatorName(form, i, fallback) {
    const el = document.getElementById(`local-name-${i}`);
    const sel = form.querySelector(`select[data-seat="${i}"]`);
    return sel && sel.value === "local" && el && el.value.trim() ? el.value.trim() : fallback;
  }

  /* In the lobby, another player sits at this device ("Sit here too"): the device now holds
     that seat's token beside its own (the one it sat with first, if it had only that one). */
  function adopt(code, mine, mineToken, seat, seatToken) {
    const held = seats(code);
    if (mine !== null && mineToken) held[mine] = mineToken;
    held[seat] = seatToken;
    localStorage.setItem(key(code), JSON.stringify(held));
    setShown(code, null);
  }

  /* A rematch keeps the same people, and their seat tokens: this device holds the same seats. */
  function carry(from, to) {
    const held = localStorage.getItem(key(from));
    if (held && !localStorage.getItem(key(to))) { localStorage.setItem(key(to), held); setShown(to, null); }
  }

  /* Signing in handed a seat of this device to the account (account.js): its new token
     replaces the guest token this device held for it, if it holds that seat. */
  function retoken(code, seat, seatToken) {
    const held = seats(code);
    if (!(String(seat) in held)) return;
    held[seat] = seatToken;
    localStorage.setItem(key(code), JSON.stringify(held));
  }

  /* The token to say hello with: the shown seat's, or none (a spectator) between turns. */
  function token(code, fallback) {
    if (!active(code)) return fallback;
    const s = shown(code);
    return s === null ? null : seats(code)[s] || null;
  }

  /* Every seat token of this device, for hello's "local": the server counts those seats as
     present whichever of them (if any) the page shows. */
  const held = (code) => (active(code) ? Object.values(seats(code)) : []);

  function reconnect(code) { table.msg = null; connect(code); }

  /* A state message arrived: true when this module drew the page instead of the table. */
  function intercept(msg, code) {
    if (!active(code) || !msg.view || msg.view.outcome) return false;
    const v = msg.view, you = msg.you.seat, s = shown(code);
    const toAct = v.to_move;
    const drawOpen = you !== null && v.legal_moves.some((m) => m.startsWith("draw:"));
    if (you !== null && you === s && (toAct === s || drawOpen)) { // the shown hand plays (or draws)
      table.drawFirst = drawOpen && toAct !== s && isLocal(code, toAct) ? toAct : null;
      return false;
    }
    const person = msg.table.seats[toAct] && (msg.table.seats[toAct].kind === "human" || msg.table.seats[toAct].stand_in);
    if (isLocal(code, toAct) && person) { // not a seat resigned to a bot; a stand-in's player takes it back by the tap
      setShown(code, null); // before anything is drawn: a reload comes back here
      handOver(msg, code, toAct);
      if (you !== null) reconnect(code); // drop the previous hand: watch until the tap
      return true;
    }
    if (you !== null) { // a bot or a remote player is to play: hide the hand that just played
      setShown(code, null);
      reconnect(code);
      app.innerHTML = "";
      if (window.keys) window.keys.forget();
      app.append(h("p", {}, t("Connecting…")));
      return true;
    }
    return false;
  }

  function handOver(msg, code, seat) {
    if (msg.you.seat === null) table.msg = msg; // the spectators' view only: no hand in memory
    const name = seatLabel(msg, seat);
    app.innerHTML = "";
    if (window.keys) window.keys.forget();
    const reveal = h("button", { class: "primary", id: "reveal", autofocus: true, onclick: () => {
      setShown(code, seat);
      reconnect(code);
      app.innerHTML = "";
      app.append(h("p", {}, t("Connecting…")));
    } }, t("I am {name}: show my hand", { name }));
    app.append(h("section", { class: "handover", id: "handover", role: "dialog", "aria-modal": "true", "aria-labelledby": "handover-title", "data-seat": seat },
      h("h2", { id: "handover-title" }, t("Pass the tablet to {name}", { name })),
      h("p", {}, t("Everyone else, look away.")),
      reveal));
    reveal.focus();
    document.title = t("Pass the tablet to {name}", { name });
  }

  return { seatOption, nameInput, localSeats, afterCreate, creatorName, adopt, carry, retoken, token, held, intercept, active, seats, isLocal };
})();
window.passplay = passplay;
