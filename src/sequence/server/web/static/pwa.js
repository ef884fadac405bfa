/* The installable app (issue 18): registers the service worker (sw.js) and says clearly when the
   connection is gone; the page stays, the game comes back from the server when it returns. */
"use strict"; // i18n: ignore (a directive)

const pwa = (() => {
  function banner() {
    let el = document.getElementById("offline");
    if (!el) {
      el = h("div", { id: "offline", class: "offline", role: "status", "aria-live": "polite", hidden: true });
      document.body.prepend(el);
    }
    return el;
  }
  let down = false; // the service worker's last word: did the server answer?
  function show(offline) {
    const el = banner();
    el.textContent = t("You are offline. This page is kept on this device; the game comes back when the connection does.");
    el.hidden = !offline;
  }
  window.addEventListener("offline", () => show(true));
  window.addEventListener("online", () => show(false));
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js").catch(() => {});
    // The service worker says when it answered from its cache because the server did not.
    navigator.serviceWorker.addEventListener("message", (e) => {
      if (e.data && "offline" in e.data) { down = e.data.offline; show(down); }
    });
  }
  /* Ask the server itself (past the service worker's cache): any answer means it is there. */
  async function check() {
    if (!navigator.onLine) { show(true); return; }
    try { await fetch("/sw.js", { cache: "no-store" }); down = false; } catch (e) { down = true; }
    show(down);
  }
  return { show, check };
})();
window.pwa = pwa;
