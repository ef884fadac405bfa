"""On a phone, one's turn on one screen: the whole board and the whole hand (seven cards in one
row) in view at once, nothing under the log's bar fixed at the bottom, before and after the hint,
in Debian's Chromium at 390x844 (in English) and on a small Android phone at 360x740 (in French,
whose words are long), for classic, Sequence for Kids (pictures) and Sequence Dice (the roll
button, the dice and the key to the rolls).

Touch targets stay 44 px or more (``fits``), and a tap beside a space still plays it.
``scripts/screenshots.py phone kids-phone-ru dice-phone`` photographs such turns.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from . import scenes
from .conftest import ServerThread
from .test_sizes_languages_browser import fits, out_of_view

pytestmark = pytest.mark.browser

PHONES = pytest.mark.parametrize(
    ("size", "lang"), [(scenes.PHONE, "en"), (scenes.SMALL_PHONE, "fr")], ids=["390-en", "360-fr"]
)


def one_row(page: Any) -> bool:
    """Whether the hand's cards stand in one row."""
    tops = {round(card.bounding_box()["y"]) for card in page.locator("#hand .card").all()}
    return len(tops) == 1


def hint(page: Any) -> None:
    """Ask for the hint; wait for it, said in one line."""
    scenes.tap(page, "#ask-hint")
    page.wait_for_selector("#hint", timeout=30000)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    db = Path(tmp_path_factory.mktemp("phone")) / "test.db"
    with ServerThread(
        f"sqlite:///{db}", bot_delay=0.05, create_rate=1000, create_burst=1000
    ) as srv:
        yield srv


@PHONES
def test_classic_board_and_seven_cards_in_view(
    module_browser: Any, site: ServerThread, size: dict[str, Any], lang: str
) -> None:
    page = scenes.new_page(module_browser, size, lang)
    try:
        code = scenes.against_a_bot(page, site, "classic", "easy")
        scenes.my_turn(page, code)
        assert page.locator("#hand .card").count() == 7
        board_and_hand_in_view_through_a_hint(page, lang, "the hint")
        assert page.locator("#hint-box summary").bounding_box()["height"] >= scenes.FINGER
        scenes.play_beside(page)  # a tap beside a space plays it, however small it is drawn
    finally:
        page.context.close()


def board_and_hand_in_view_through_a_hint(page: Any, lang: str, where: str) -> None:
    """On my turn, the board and every card of my hand (one row) on the first screen, before
    and after a hint; every word in ``lang``."""
    assert out_of_view(page, "#board", "#hand .card", "#ask-hint") == []
    assert one_row(page)
    fits(page, lang, where)
    hint(page)
    assert out_of_view(page, "#board", "#hand .card", "#hint-box summary") == []
    assert one_row(page)
    fits(page, lang, where)


@PHONES
def test_kids_board_and_pictures_in_view(
    module_browser: Any, site: ServerThread, size: dict[str, Any], lang: str
) -> None:
    page = scenes.new_page(module_browser, size, lang)
    try:
        code = scenes.kids_table(page, site)
        scenes.my_turn(page, code)
        board_and_hand_in_view_through_a_hint(page, lang, "the Kids hint")
    finally:
        page.context.close()


@PHONES
def test_dice_board_roll_and_key_in_view(
    module_browser: Any, site: ServerThread, size: dict[str, Any], lang: str
) -> None:
    page = scenes.new_page(module_browser, size, lang)
    try:
        scenes.dice_game(page, site)
        # The roll button, and under it the heading of the key to the rolls.
        assert out_of_view(page, "#board", "#act-roll", "#dice-key summary") == []
        fits(page, lang, "the Dice turn")
        scenes.roll(page)
        assert out_of_view(page, "#board", "#dice") == []
        assert page.locator("#dice-key").bounding_box()["y"] < size["viewport"]["height"]
        if page.locator("#ask-hint").count():  # a roll that places a chip
            hint(page)
            assert out_of_view(page, "#board", "#dice", "#hint-box summary") == []
        fits(page, lang, "the Dice roll")
    finally:
        page.context.close()
