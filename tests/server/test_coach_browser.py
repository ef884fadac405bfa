"""Learning in the browser, in Debian's Chromium at a phone's and a laptop's size: the hint
button at a casual table (the suggested card and space lit, the reason in the reader's
language, nothing for a spectator) and the review beside a finished game's replay."""

from __future__ import annotations

from typing import Any

import pytest

from sequence.bots.review import Reviewer
from sequence.engine import GameRecord
from sequence.i18n.notes import translate_note

from .conftest import ServerThread, create_table
from .test_table_polish_browser import LAPTOP, PHONE

SIZES = pytest.mark.parametrize(
    ("size", "lang"), [(PHONE, "ru"), (LAPTOP, "en")], ids=["phone-ru", "laptop-en"]
)


def seated(browser: Any, server: ServerThread, size: dict[str, Any], lang: str) -> Any:
    """A page in ``lang`` seated at seat 0 of a new casual classic game against easy, started,
    at its first turn; and the table's code."""
    created = create_table(server, game="classic", players=2, bots=[None, "easy"], name="Ann",
                           seat=0)  # fmt: skip
    code = created["code"]
    page = browser.new_context(**size).new_page()
    page.goto(server.url + "/")
    page.evaluate(
        f"() => {{ localStorage.setItem('seq.seat.{code}', '{created['seat_token']}');"
        f" localStorage.setItem('seq.host.{code}', '{created['host_token']}');"
        f" localStorage.setItem('seq.lang', '{lang}'); }}"
    )
    page.goto(server.url + f"/t/{code}")
    page.click("#start")
    page.wait_for_function(
        "() => window.seq.msg && window.seq.msg.view && window.seq.msg.view.to_move === 0"
        " && window.seq.msg.view.legal_moves.length > 0",
        timeout=20000,
    )
    return page, code


@pytest.mark.browser
@SIZES
def test_the_hint_lights_the_card_and_space_and_says_why(
    browser: Any, web: ServerThread, size: dict[str, Any], lang: str
) -> None:
    page, code = seated(browser, web, size, lang)
    table = web.hub.registry.tables[code]
    expected = Reviewer().hint(table.state.view(0))
    page.click("#ask-hint")
    page.wait_for_selector("#hint")
    move = page.get_attribute("#hint", "data-move")
    assert move == str(expected.move)
    why = page.locator("#hint-why li").all_inner_texts()
    assert why == [translate_note(n, lang) for n in expected.notes] and why
    card, space = move.split("@") if "@" in move else (move.split("x")[0], move[-3:].lstrip("x"))
    assert "hinted" in (page.get_attribute(f"#board [data-space='{space}']", "class") or "")
    assert page.locator("#hand .card.hinted").first.get_attribute("data-card") == card
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= size["viewport"]["width"]
    # Playing the hint moves the game on; the hint is for its position only.
    page.locator(f"#hand .card[data-card='{card}']").first.click()
    page.click(f"#board [data-space='{space}']")
    page.wait_for_function("() => window.seq.msg.version > 0", timeout=20000)
    assert page.locator("#hint").count() == 0
    # A spectator is offered no hint.
    watcher = browser.new_context(**size).new_page()
    watcher.goto(web.url + f"/t/{code}")
    watcher.wait_for_selector("#board")
    assert watcher.locator("#ask-hint").count() == 0


def finished_code(server: ServerThread) -> tuple[str, GameRecord]:
    """A finished game of Kids between two easy bots at the server, and its record."""
    made = create_table(server, game="kids", players=2, bots=["easy", "easy"])
    code = made["code"]
    with server.http() as http:
        http.post(f"/api/tables/{code}/start", json={"host_token": made["host_token"]})
        for _ in range(400):
            r = http.get(f"/api/tables/{code}/record")
            if r.status_code == 200:
                return code, GameRecord.from_dict(r.json()["record"])
            import time

            time.sleep(0.1)
    raise AssertionError("the bots' game did not end")
