"""The installable app and keyboard play, in Debian's Chromium (issue 18).

The manifest meets the installability criteria (a name, ``display: standalone``, a start URL in
scope, PNG icons of 192 and 512 pixels that are served); the service worker registers, and when
the server is gone a reload still shows the page with a clear offline notice. A move is played
with the keyboard only, and the board's spaces and the hand's cards carry labels.
"""

from __future__ import annotations

import re
import struct
from typing import Any

import httpx
import pytest

from .conftest import ServerThread

pytestmark = pytest.mark.browser


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_manifest_meets_the_installability_criteria(server: ServerThread) -> None:
    page = server.http().get("/").text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert '<meta name="theme-color"' in page
    r = server.http().get("/manifest.webmanifest")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/manifest+json")
    manifest = r.json()
    assert manifest["name"] and manifest["short_name"]
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["theme_color"].startswith("#")
    sizes = set()
    for icon in manifest["icons"]:
        got = server.http().get(icon["src"])
        assert got.status_code == 200, icon["src"]
        if icon["type"] == "image/png":
            w, h = png_size(got.content)
            assert icon["sizes"] == f"{w}x{h}"
            sizes.add(w)
    assert {192, 512} <= sizes
    sw = server.http().get("/sw.js")
    assert sw.status_code == 200 and "javascript" in sw.headers["content-type"]


def test_the_page_survives_the_server_going_away(browser: Any, sqlite_url: str) -> None:
    srv = ServerThread(sqlite_url, bot_delay=0.05).__enter__()
    ctx = browser.new_context()
    page = ctx.new_page()
    try:
        page.goto(srv.url + "/")
        page.wait_for_selector("#create")
        page.evaluate("() => navigator.serviceWorker.ready")
        page.reload()  # now under the service worker, which caches what the page asks for
        page.wait_for_selector("#create")
        assert page.evaluate("() => !!navigator.serviceWorker.controller")
        assert not page.locator("#offline").is_visible()
    finally:
        srv.__exit__(None, None, None)
    with pytest.raises(httpx.TransportError):
        httpx.get(srv.url + "/", timeout=2)
    page.reload()
    page.wait_for_selector("#offline:not([hidden])", timeout=10000)
    assert "offline" in page.locator("#offline").inner_text()
    assert page.locator("header .brand").is_visible()
    assert page.locator("#create").is_visible()  # the page's shell, from the cache
    # A table's link opened while the server is gone: the page, the notice, and a clear
    # "Reconnecting…" over where the game will be, never a blank page or a made-up game.
    page.goto(srv.url + "/t/ABCDEF")
    page.wait_for_selector("#offline:not([hidden])", timeout=10000)
    page.wait_for_selector("#reconnecting", timeout=10000)
    assert "Reconnecting" in page.locator("#reconnecting").inner_text()
    assert page.locator("#board").count() == 0
    ctx.close()


def test_a_move_by_keyboard_only(browser: Any, web: ServerThread) -> None:
    page = browser.new_page(viewport={"width": 820, "height": 1180})
    page.goto(web.url + "/")
    page.wait_for_selector("#create")
    page.select_option("#seat-1", "random")
    page.click("#create")
    page.wait_for_selector("#start:not([disabled])")
    page.click("#start")
    page.wait_for_function(
        "() => window.seq.msg && window.seq.msg.view && window.seq.msg.view.legal_moves.length"
    )
    msg = page.evaluate("() => window.seq.msg")
    labels = page.eval_on_selector_all("#board g[data-space]", "gs => gs.map(g => g.ariaLabel)")
    assert len(labels) == 100 and all(labels)
    assert page.eval_on_selector_all("#hand .card", "bs => bs.every(b => b.ariaLabel)")
    move = next(m for m in msg["view"]["legal_moves"] if "@" in m)
    card, space = move.split("@")
    page.locator("#board").focus()
    page.keyboard.press(str(msg["view"]["hand"].index(card) + 1))
    page.locator("#board").focus()
    # Choosing the card put the cursor on its first space in reading order, as the terminal
    # does; the arrows go from there.
    here = page.get_attribute("#board g.cursor", "data-space")
    first = page.get_attribute("#board g.target", "data-space")
    assert here == first, (here, first)
    cols = "abcdefghij".index(space[0]) - "abcdefghij".index(here[0])
    rows = int(space[1:]) - int(here[1:])
    for _ in range(abs(cols)):
        page.keyboard.press("ArrowRight" if cols > 0 else "ArrowLeft")
    for _ in range(abs(rows)):
        page.keyboard.press("ArrowDown" if rows > 0 else "ArrowUp")
    assert page.locator(f'#board g[data-space="{space}"]').get_attribute("class").count("cursor")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => window.seq.msg.version > {msg['version']}", timeout=10000)
    assert page.locator(f'#board g[data-space="{space}"] .chip').count() == 1
    page.close()


CONTROLS = {"button", "checkbox", "combobox", "textbox", "link", "radio", "slider", "spinbutton",
            "img", "image", "dialog", "alertdialog"}  # fmt: skip
"""Roles a screen reader announces by name: each must have one."""


def unnamed(page: Any) -> list[str]:
    """The controls of the page that Chromium's accessibility tree gives no name, by role (what
    a screen reader reads: labels, aria-label, text; the tree's own computation)."""
    cdp = page.context.new_cdp_session(page)
    try:
        nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        cdp.detach()
    missing = []
    for node in nodes:
        role = node.get("role", {}).get("value")
        if node.get("ignored") or role not in CONTROLS:
            continue
        if not str(node.get("name", {}).get("value", "")).strip():
            missing.append(role)
    return missing


def test_every_control_has_a_name_for_a_screen_reader(browser: Any, web: ServerThread) -> None:
    """The create form (with a seat on this device), the hand-over, and a turn with the hand:
    every button, field, choice, picture and dialog has an accessible name."""
    page = browser.new_page(viewport={"width": 820, "height": 1180})
    page.goto(web.url + "/")
    page.wait_for_selector("#create")
    page.select_option("#seat-0", "local")
    page.fill("#local-name-0", "Anna")
    page.select_option("#seat-1", "local")
    page.fill("#local-name-1", "Ben")
    assert unnamed(page) == []
    page.click("#create")
    page.wait_for_selector("#start:not([disabled])")
    assert unnamed(page) == []
    page.click("#start")
    page.wait_for_selector("#handover")
    assert unnamed(page) == []
    assert page.get_by_role(
        "dialog", name=re.compile(r"^Pass the tablet to (Anna|Ben)$")
    ).is_visible()
    page.click("#reveal")
    page.wait_for_selector("#hand")
    assert unnamed(page) == []
    assert page.get_by_role("group", name="Your hand").is_visible()
    assert page.get_by_role("group", name="Board: arrows move, Enter plays").is_visible()
    page.close()
