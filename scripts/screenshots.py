#!/usr/bin/env python3
"""Screenshots of the web app for the docs: ``docs/img/web-*.png``.

Starts the server on a loopback port (a throw-away SQLite file, quick bots) and drives Debian's
Chromium headless through Playwright:

- ``web-lobby.png``: the lobby; ``web-waiting.png``: a table waiting for players;
- ``web-table.png``, ``web-table-ru.png``, ``web-table-fr.png``: one classic game against a bot,
  mid-game with a card selected (its spaces highlighted), in English, Russian and French (the
  language switched on the table, the game kept);
- ``web-phone.png``: the same table on a phone-sized screen;
- ``web-result.png``, ``web-replay.png``: the end of a game of Dice between bots, and its replay;
- ``web-passplay-create.png``, ``web-passplay-handover.png``, ``web-passplay-turn.png``:
  pass-and-play on a tablet (820x1180): a team game created with two seats "On this device" and
  their bot partners, a hand-over between their turns, and a turn once the hand is shown.

    .venv/bin/python scripts/screenshots.py                 # all of them
    .venv/bin/python scripts/screenshots.py table-ru table-fr
"""

from __future__ import annotations

import _venv  # noqa: F401  (first: another Python runs this again with .venv's)

# isort: split
import argparse
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from sequence.server.web.app import create_app

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "img"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 820, "height": 1180}
PASSPLAY = ("passplay-create", "passplay-handover", "passplay-turn")
SHOTS = ("lobby", "waiting", "table", "table-ru", "table-fr", "phone", "result", "replay",
         *PASSPLAY)  # fmt: skip


@contextmanager
def serve(db: str) -> Iterator[str]:
    """The web app on a free loopback port; yields its URL."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = create_app(db=db, bot_delay=0.05)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        if not thread.is_alive():
            raise SystemExit("the server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)


def shoot(page: Any, name: str, wanted: set[str]) -> None:
    if name in wanted:
        path = OUT / f"web-{name}.png"
        page.screenshot(path=str(path))
        print(f"wrote {path.relative_to(ROOT)}")


def play_until(page: Any, moves: int) -> None:
    """Make the player's moves (a chip placed where possible) until ``moves`` have been made
    and it is the player's turn again."""
    deadline = time.monotonic() + 120
    while True:
        msg = page.evaluate("() => window.seq.msg")
        legal = msg["view"]["legal_moves"]
        if msg["version"] >= moves and legal:
            return
        if time.monotonic() > deadline:
            raise SystemExit("the game did not get far enough")
        if legal:
            move = next((m for m in legal if "@" in m), legal[0])
            page.evaluate(
                "([move, version]) => seq.ws.send(JSON.stringify({type: 'move', move, version}))",
                [move, msg["version"]],
            )
            page.wait_for_function(f"() => window.seq.msg.version > {msg['version']}")
        else:
            time.sleep(0.05)


def select_card(page: Any) -> None:
    """Select a card of the hand that places a chip, so its spaces are highlighted."""
    legal = page.evaluate("() => window.seq.msg.view.legal_moves")
    card = next(m.split("@")[0] for m in legal if "@" in m)
    if not page.locator("#hand .card.selected").count():  # a click on a selected card unselects
        page.click(f'#hand [data-card="{card}"]')
    page.wait_for_selector("#board g.target")


def lobby_and_table(browser: Any, url: str, wanted: set[str]) -> None:
    ctx = browser.new_context(locale="en-GB", viewport=DESKTOP)
    page = ctx.new_page()
    page.goto(url + "/")
    page.wait_for_selector("#create")
    page.fill("#name", "Ann")
    shoot(page, "lobby", wanted)

    # A table for four waiting for players.
    page.select_option("#players", "4")
    page.select_option("#seat-2", "easy")
    page.click("#create")
    page.wait_for_selector("#share")
    shoot(page, "waiting", wanted)

    # Classic for two against a bot, mid-game.
    page.goto(url + "/")
    page.wait_for_selector("#create")
    page.fill("#name", "Ann")
    page.select_option("#seat-1", "easy")
    page.click("#create")
    page.wait_for_selector("#start")
    page.click("#start")
    page.wait_for_selector("#board")
    play_until(page, 24)
    select_card(page)
    shoot(page, "table", wanted)
    for lang in ("ru", "fr"):
        page.select_option("#lang", lang)
        page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
        select_card(page)
        shoot(page, f"table-{lang}", wanted)
    page.select_option("#lang", "en")

    if "phone" in wanted:
        storage = ctx.storage_state()
        phone = browser.new_context(
            storage_state=storage, viewport=PHONE, is_mobile=True, has_touch=True, locale="en-GB"
        )
        p = phone.new_page()
        p.goto(page.url)
        p.wait_for_selector("#board")
        select_card(p)
        shoot(p, "phone", wanted)
        phone.close()
    ctx.close()


def result_and_replay(browser: Any, url: str, wanted: set[str]) -> None:
    body = {"game": "dice", "players": 2, "bots": ["easy", "medium"], "name": None}
    with httpx.Client(base_url=url, timeout=20) as http:
        created = http.post("/api/tables", json=body).json()
        code = created["code"]
        http.post(f"/api/tables/{code}/start", json={"host_token": created["host_token"]})
    ctx = browser.new_context(locale="en-GB", viewport=DESKTOP)
    page = ctx.new_page()
    page.goto(f"{url}/t/{code}")
    page.wait_for_selector("#result", timeout=180_000)
    shoot(page, "result", wanted)
    page.goto(f"{url}/replay/{code}")
    page.wait_for_selector("#board")
    for _ in range(12):
        page.click("#next")
    page.wait_for_function("() => document.querySelector('#ply').textContent.includes('12')")
    shoot(page, "replay", wanted)
    ctx.close()


def passplay(browser: Any, url: str, wanted: set[str]) -> None:
    """Anna and Ben on one tablet, each with a bot partner: the create form, then some turns
    (each after its hand-over) until the board has chips, then a hand-over and a turn."""
    ctx = browser.new_context(locale="en-GB", viewport=TABLET, has_touch=True)
    page = ctx.new_page()
    page.goto(url + "/")
    page.wait_for_selector("#create")
    page.select_option("#players", "4")
    page.select_option("#seat-0", "local")
    page.fill("#local-name-0", "Anna")
    page.select_option("#seat-1", "local")
    page.fill("#local-name-1", "Ben")
    page.select_option("#seat-2", "easy")
    page.select_option("#seat-3", "easy")
    page.locator("#create").scroll_into_view_if_needed()
    shoot(page, "passplay-create", wanted)
    page.click("#create")
    page.wait_for_selector("#start:not([disabled])")
    page.click("#start")
    deadline = time.monotonic() + 120
    while True:
        if time.monotonic() > deadline:
            raise SystemExit("the pass-and-play game did not get far enough")
        page.wait_for_selector("#handover")
        version = page.evaluate("() => window.seq.msg ? window.seq.msg.version : 0")
        if version >= 12:
            break
        page.click("#reveal")
        page.wait_for_selector("#hand")
        msg = page.evaluate("() => window.seq.msg")
        move = next((m for m in msg["view"]["legal_moves"] if "@" in m), None)
        if move is None:
            move = msg["view"]["legal_moves"][0]
        page.evaluate(
            "([move, version]) => seq.ws.send(JSON.stringify({type: 'move', move, version}))",
            [move, msg["version"]],
        )
        page.wait_for_function(
            f"() => !window.seq.msg || window.seq.msg.version > {msg['version']}"
        )
    shoot(page, "passplay-handover", wanted)
    page.click("#reveal")
    page.wait_for_selector("#hand")
    select_card(page)
    shoot(page, "passplay-turn", wanted)
    ctx.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("shots", nargs="*", help=f"which of {', '.join(SHOTS)} (default: all)")
    args = parser.parse_args(argv)
    unknown = set(args.shots) - set(SHOTS)
    if unknown:
        parser.error(f"no screenshot {', '.join(sorted(unknown))}; choose from {', '.join(SHOTS)}")
    wanted = set(args.shots or SHOTS)
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    with (
        tempfile.TemporaryDirectory() as tmp,
        serve(f"sqlite:///{tmp}/shots.db") as url,
        sync_playwright() as pw,
    ):
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            if wanted & {"lobby", "waiting", "table", "table-ru", "table-fr", "phone"}:
                lobby_and_table(browser, url, wanted)
            if wanted & {"result", "replay"}:
                result_and_replay(browser, url, wanted)
            if wanted & set(PASSPLAY):
                passplay(browser, url, wanted)
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
