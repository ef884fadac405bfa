"""The web app in the browser's language, and switched mid-game (Playwright, Debian's Chromium).

A Russian and a French browser (``locale``, which sets ``navigator.language`` and the
``Accept-Language`` header) open the lobby and see it in their language; a French player at a
table against a bot switches to Russian mid-game and the table's text changes while the game,
the seat and the connection stay. Every expected string is read from the catalogues, so the
test checks the client and server, not a copy of the translations.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from sequence.i18n import catalog_json

from .conftest import ServerThread
from .scenes import act, state

pytestmark = pytest.mark.browser

LOBBY_HEADINGS = ("New table", "Join with a code", "Open tables", "Finished games")
TABLE_HEADINGS = {"#hand-panel h2": "Your hand", "#players h2": "Players", "#log h2": "Moves"}


def translated(lang: str, msgid: str) -> str:
    """The catalogue's translation, which must exist (else the check would prove nothing)."""
    text = catalog_json(lang)["messages"].get(msgid)
    assert isinstance(text, str) and text != msgid, f"{msgid!r} is not translated into {lang}"
    return text


@pytest.mark.parametrize("locale", ["ru-RU", "fr-FR"])
def test_lobby_in_the_browsers_language(browser: Any, web: ServerThread, locale: str) -> None:
    lang = locale[:2]
    ctx = browser.new_context(locale=locale)
    page = ctx.new_page()
    page.goto(web.url + "/")
    page.wait_for_selector("#create")
    assert page.evaluate("() => document.documentElement.lang") == lang
    assert page.input_value("#lang") == lang
    headings = page.locator("#app h2").all_inner_texts()
    for msgid in LOBBY_HEADINGS:
        assert translated(lang, msgid) in headings, (msgid, headings)
    assert page.inner_text("#create") == translated(lang, "Create table")
    ctx.close()


def game_facts(page: Any) -> dict[str, Any]:
    """What must survive a change of language: the position, the moves, the seat, the hand."""
    return dict(
        page.evaluate(
            """() => ({version: seq.msg.version, seat: seq.msg.you.seat, code: seq.msg.table.code,
                       chips: seq.msg.view.board.chips, moves: seq.msg.view.moves,
                       hand: seq.msg.view.hand})"""
        )
    )


def headings(page: Any) -> dict[str, str]:
    return {sel: page.inner_text(sel) for sel in TABLE_HEADINGS}


def test_switch_language_mid_game_keeps_the_game(browser: Any, web: ServerThread) -> None:
    ctx = browser.new_context(locale="fr-FR", viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.goto(web.url + "/")
    page.wait_for_selector("#create")
    page.fill("#name", "Ann")
    page.select_option("#game", "classic")
    page.select_option("#players", "2")
    page.select_option("#seat-1", "random")
    page.click("#create")
    page.wait_for_selector("#start")
    page.click("#start")
    page.wait_for_selector("#board")
    # Play until a few moves are made and it is Ann's turn again (the bot waits for her).
    deadline = time.monotonic() + 60
    while state(page)["version"] < 4 or not state(page)["view"]["legal_moves"]:
        assert time.monotonic() < deadline, "the game did not reach move 4"
        if not act(page):
            time.sleep(0.05)
    before = game_facts(page)
    assert before["seat"] == 0 and len(before["moves"]) == before["version"] >= 4
    assert headings(page) == {sel: translated("fr", m) for sel, m in TABLE_HEADINGS.items()}
    assert page.inner_text("#turn") == translated("fr", "Your turn")
    page.evaluate("() => { window.socketBefore = seq.ws; }")

    page.select_option("#lang", "ru")
    page.wait_for_function(
        "(text) => document.querySelector('#hand-panel h2').textContent === text",
        arg=translated("ru", "Your hand"),
    )
    assert headings(page) == {sel: translated("ru", m) for sel, m in TABLE_HEADINGS.items()}
    assert page.inner_text("#turn") == translated("ru", "Your turn")
    assert page.evaluate("() => document.documentElement.lang") == "ru"
    assert game_facts(page) == before
    assert page.evaluate("() => seq.ws === window.socketBefore && seq.ws.readyState === 1")
    assert len(page.locator("#board g.space").all()) == 100

    # The server now answers this connection in Russian: an engine refusal of a card Ann
    # does not hold, shown on the table, with nothing changed.
    held = set(before["hand"])
    missing = next(c for c in ("2S", "3S", "4S", "5S", "6S", "7S", "8S") if c not in held)
    page.evaluate(
        "([move, version]) => seq.ws.send(JSON.stringify({type: 'move', move, version}))",
        [f"{missing}@a2", before["version"]],
    )
    page.wait_for_selector("#error")
    assert re.search("[а-яё]{3}", page.inner_text("#error")), page.inner_text("#error")
    assert game_facts(page) == before

    # The choice is remembered: a reload comes back in Russian, still seated, same game.
    page.reload()
    page.wait_for_function("() => window.seq.msg && window.seq.msg.view")
    assert page.input_value("#lang") == "ru"
    assert headings(page) == {sel: translated("ru", m) for sel, m in TABLE_HEADINGS.items()}
    assert game_facts(page) == before
    ctx.close()
