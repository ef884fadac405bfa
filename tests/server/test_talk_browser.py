"""Talk in the browser (talk.js): chat in the lobby, only reactions during play (issue 21)."""

from __future__ import annotations

import os
from typing import Any

import pytest

from .conftest import ServerThread

pytestmark = pytest.mark.browser
SHOTS = os.environ.get("SEQUENCE_SHOTS")


def said(page: Any, selector: str) -> str:
    return " ".join(page.inner_text(selector).split())


def test_chat_in_the_lobby_then_only_reactions_during_play(browser: Any, web: ServerThread) -> None:
    with web.http() as http:
        created = http.post(
            "/api/tables",
            json={"game": "kids", "players": 2, "bots": [None, "random"], "name": "Ann", "seat": 0},
        ).json()
    code = created["code"]
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page = ctx.new_page()
    page.goto(web.url + "/")
    page.evaluate(
        f"() => {{ localStorage.setItem('seq.seat.{code}', '{created['seat_token']}');"
        f" localStorage.setItem('seq.host.{code}', '{created['host_token']}'); }}"
    )
    page.goto(web.url + f"/t/{code}")
    page.wait_for_selector("#invite-qr")
    assert page.evaluate("() => document.querySelector('#invite-qr').naturalWidth") > 0
    page.fill("#chat-text", "hello, bot")
    page.click("#chat-send")
    page.wait_for_selector("#talk-list li.chat")
    assert said(page, "#talk-list li.chat") == "Ann hello, bot"

    page.click("#start")
    page.wait_for_selector("#reactions")
    assert page.locator("#chat-text").count() == 0  # no chat box during play: reactions only
    assert "no table talk" in page.inner_text("#no-chat")
    assert page.locator("#reactions button").count() == 4
    page.click('#reactions button[data-reaction="well_played"]')
    page.wait_for_selector("#talk-list li.reaction")
    assert said(page, "#talk-list li.reaction") == "Ann Well played"
    assert "Well played" in page.inner_text(".toast")
    assert said(page, "#talk-list li.chat") == "Ann hello, bot"  # kept through the start
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, "web-talk-phone.png"), full_page=True)
    ctx.close()
