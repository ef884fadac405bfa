"""A move made while the connection is down: queued behind a blocking "reconnecting" layer, sent
when the connection is back, stored exactly once (Playwright, headless Chromium)."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import ServerThread

pytestmark = pytest.mark.browser


def test_a_move_made_offline_lands_exactly_once(browser: Any, web: ServerThread) -> None:
    with web.http() as http:
        created = http.post(
            "/api/tables",
            json={"game": "classic", "players": 2, "bots": [None, "random"], "name": "Ann"},
        ).json()
        http.post(
            f"/api/tables/{created['code']}/start", json={"host_token": created["host_token"]}
        )
    code = created["code"]
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(web.url + "/")
    page.evaluate(
        f"() => {{ localStorage.setItem('seq.seat.{code}', '{created['seat_token']}');"
        f" localStorage.setItem('seq.host.{code}', '{created['host_token']}'); }}"
    )
    page.goto(web.url + f"/t/{code}")
    page.wait_for_function(
        "() => window.seq.msg && window.seq.msg.view && window.seq.msg.view.to_move === 0"
        " && window.seq.msg.view.legal_moves.length > 0",
        timeout=20000,
    )
    assert page.locator("#reconnecting").count() == 0
    version = page.evaluate("() => window.seq.msg.version")
    move = page.evaluate("() => window.seq.msg.view.legal_moves[0]")
    ctx.set_offline(True)
    page.wait_for_selector("#reconnecting", state="visible", timeout=5000)
    assert "Reconnecting" in page.inner_text("#reconnecting")
    # The layer blocks the board: a click on it does not reach a space.
    assert page.evaluate(
        "() => { const r = document.querySelector('#board').getBoundingClientRect();"
        " return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)"
        ".closest('#reconnecting') !== null; }"
    )
    # A move made as the connection went down (a click that raced it) waits in the outbox.
    page.evaluate(f"() => sendMove({move!r})")
    assert page.evaluate("() => window.seq.outbox.length") == 1
    mid = page.evaluate("() => window.seq.outbox[0].id")
    assert len(web.stored(code).moves) == version
    ctx.set_offline(False)
    page.wait_for_function(
        f"() => window.seq.msg.version > {version} && window.seq.outbox.length === 0",
        timeout=20000,
    )
    page.wait_for_selector("#reconnecting", state="detached", timeout=5000)
    stored = web.stored(code)
    assert [m for m in stored.move_ids if m[2] == mid] == [(version + 1, 0, mid)]
    assert stored.moves[version] == move
    ctx.close()


def test_resigning_in_the_browser_ends_the_game_and_lists_the_event(
    browser: Any, web: ServerThread
) -> None:
    with web.http() as http:
        created = http.post(
            "/api/tables",
            json={"game": "classic", "players": 2, "bots": [None, "random"], "name": "Ann"},
        ).json()
        http.post(
            f"/api/tables/{created['code']}/start", json={"host_token": created["host_token"]}
        )
    code = created["code"]
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(web.url + "/")
    page.evaluate(f"() => localStorage.setItem('seq.seat.{code}', '{created['seat_token']}')")
    page.goto(web.url + f"/t/{code}")
    page.wait_for_selector("#resign")
    page.on("dialog", lambda d: d.accept())
    page.click("#resign")
    page.wait_for_selector("#end", timeout=10000)
    assert "You lost." in page.inner_text("#end")
    assert "resigned: the game is lost" in page.inner_text("#events")
    assert page.locator("#resign").count() == 0
    assert web.stored(code).result == "B wins"
    ctx.close()
