"""A game anyone can follow (issue 32), in Debian's Chromium at phone (390x844), tablet
(820x1180) and laptop (1280x800) sizes: the lobby never scrolls sideways, every word is in the
page's language, taps land on a finger-sized target, the keyboard cursor shows only to the
keyboard, the Dice key is always at hand, and the end of a game reads as the end.

``SEQUENCE_SHOTS=docs/img`` saves the screenshots the docs show.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import Client, ServerThread, create_table, join, start

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
TABLET = {"viewport": {"width": 820, "height": 1180}, "is_mobile": True, "has_touch": True}
LAPTOP = {"viewport": {"width": 1280, "height": 800}}
SIZES = pytest.mark.parametrize("size", [PHONE, TABLET, LAPTOP], ids=["phone", "tablet", "laptop"])
LANGS = ("en", "de", "fr", "ru", "uk")
SHOTS = os.environ.get("SEQUENCE_SHOTS")


@pytest.fixture
def web(sqlite_url: str) -> Iterator[ServerThread]:
    """Quick bots, and no limit on creating tables (a test makes a dozen finished games)."""
    with ServerThread(
        sqlite_url, bot_delay=0.05, create_rate=1000, create_burst=1000,
        join_rate=1000, join_burst=1000,
    ) as srv:  # fmt: skip
        yield srv


def resigned_game(server: ServerThread, winner: str, loser: str, game: str = "classic") -> str:
    """A finished public game for two: ``loser`` resigns at once. Its code."""
    created = create_table(server, game=game, players=2, name=winner, seat=0)
    code = created["code"]
    other = join(server, code, loser)
    start(server, code, created["host_token"])
    c = Client(server, code, other["seat_token"])
    c.wait(lambda s: s["view"] is not None)
    c.send({"type": "resign"})
    c.wait(lambda s: s["table"]["status"] == "finished")
    c.close()
    return code


def no_sideways_scroll(page: Any, width: int) -> None:
    overflow = page.evaluate("() => document.documentElement.scrollWidth")
    assert overflow <= width, f"the page is {overflow} px wide on a {width} px screen"


@SIZES
def test_the_lobby_never_scrolls_sideways_with_many_finished_games(
    browser: Any, web: ServerThread, size: dict[str, Any]
) -> None:
    for i in range(12):
        resigned_game(web, f"Bartholomew-{i:02d}xxxxxx", f"Wilhelmina-{i:02d}yyyyyy")
    ctx = browser.new_context(**size)
    page = ctx.new_page()
    page.goto(web.url + "/")
    page.wait_for_selector("#finished table")
    width = size["viewport"]["width"]
    assert page.locator("#finished tr").count() == 12
    no_sideways_scroll(page, width)
    for button in page.locator("#finished button").all():
        box = button.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    page.locator("#finished button").last.click()
    page.wait_for_selector("#board")
    ctx.close()
