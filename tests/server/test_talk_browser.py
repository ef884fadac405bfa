"""Talk in the browser (talk.js): chat in the lobby, only reactions during play (issue 21).
``scripts/screenshots.py talk-phone`` photographs the same moments."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import ServerThread, create_table
from .scenes import PHONE, chat, new_page, react, sit

pytestmark = pytest.mark.browser


def said(page: Any, selector: str) -> str:
    return " ".join(page.inner_text(selector).split())


def test_chat_in_the_lobby_then_only_reactions_during_play(browser: Any, web: ServerThread) -> None:
    created = create_table(web, game="kids", players=2, bots=[None, "random"], name="Ann", seat=0)
    page = new_page(browser, PHONE)
    sit(page, web.url, created)
    page.wait_for_selector("#invite-qr")
    assert page.evaluate("() => document.querySelector('#invite-qr').naturalWidth") > 0
    chat(page, "hello, bot")
    assert said(page, "#talk-list li.chat") == "Ann hello, bot"

    page.click("#start")
    page.wait_for_selector("#reactions")
    assert page.locator("#chat-text").count() == 0  # no chat box during play: reactions only
    assert "no table talk" in page.inner_text("#no-chat")
    assert page.locator("#reactions button").count() == 4
    react(page, "well_played")
    assert said(page, "#talk-list li.reaction") == "Ann Well played"
    assert "Well played" in page.inner_text(".toast")
    assert said(page, "#talk-list li.chat") == "Ann hello, bot"  # kept through the start
    page.context.close()
