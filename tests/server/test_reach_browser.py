"""A game anyone can follow (issue 32), in Debian's Chromium: the keyboard cursor shows only to
the keyboard, another player's Dice roll is said as what they may do, and the end of a game
reads as the end. What depends on the screen's size or the language (the lobby never scrolls
sideways, every word in the page's language, taps on a finger-sized target, the Dice key at
hand) is checked at three sizes in five languages by test_sizes_languages_browser.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import ServerThread, create_table, join, seated_page, start
from .scenes import LAPTOP, PHONE, SIZES, dice_of_two, new_page, rolls_shown

pytestmark = pytest.mark.browser

ALL_SIZES = pytest.mark.parametrize("size", list(SIZES.values()), ids=list(SIZES))


def seated(browser: Any, server: ServerThread, size: dict[str, Any], **body: Any) -> Any:
    """A page seated at a new table created with ``body``, started, at the creator's turn."""
    return seated_page(browser, server, size, create_table(server, **body), learned="1")


@ALL_SIZES
def test_the_keyboard_cursor_shows_only_after_the_keyboard_is_used(
    browser: Any, web: ServerThread, size: dict[str, Any]
) -> None:
    page = seated(
        browser, web, size, game="classic", players=2, name="Ann", seat=0, bots=[None, "random"]
    )
    cursor = page.locator("#board g.cursor")
    assert cursor.count() == 0  # no box on a1 that reads as a selection
    card = page.locator("#hand button.card").first
    if size.get("has_touch"):
        # As a player would: the hand scrolled up from under the log bar (a tablet's hand sits
        # at the bottom of the screen, below the board), then tapped.
        card.evaluate("e => e.scrollIntoView({block: 'center'})")
        box = card.bounding_box()
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    else:
        card.click()
    page.wait_for_selector("#hand button.card.selected")
    assert cursor.count() == 0
    page.keyboard.press("ArrowRight")
    assert cursor.count() == 1
    # A tap or click again: the cursor goes until the next key.
    page.locator("#players h2").click()
    assert cursor.count() == 0
    page.keyboard.press("ArrowDown")
    assert cursor.count() == 1
    page.context.close()


def test_dice_another_players_roll_is_what_they_may_do_not_an_order(
    browser: Any, web: ServerThread
) -> None:
    page = new_page(browser, PHONE)
    clients = dice_of_two(page, web)
    seen = {0: False, 1: False}
    for seat in rolls_shown(page, clients):  # both seats' rolls, as Ann's page shows them
        said = page.inner_text("#roll-reason")
        assert page.locator("#dice-key").is_visible()
        if seat == 1:  # Bob's roll: what Bob may do, by name, never an order to Ann
            assert "Bob" in said, said
        else:
            assert "Bob" not in said and "Ann" not in said, said
        seen[seat] = True
        if all(seen.values()):
            break
    assert all(seen.values()), seen
    for c in clients:
        c.close()
    page.context.close()


@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_end_clears_the_chosen_card_and_a_resignation_says_so(
    browser: Any, web: ServerThread, size: dict[str, Any]
) -> None:
    created = create_table(web, game="classic", players=2, name="Ann", seat=0)
    code = created["code"]
    bob = join(web, code, "Bob")
    start(web, code, created["host_token"])
    pages = []
    for token in (created["seat_token"], bob["seat_token"]):
        page = new_page(browser, size, **{f"seat.{code}": token})
        page.goto(web.url + f"/t/{code}")
        page.wait_for_selector("#hand button.card")
        pages.append(page)
    ann, bob_page = pages
    ann.locator("#hand button.card").first.click()
    bob_page.locator("#hand button.card").first.click()
    assert ann.locator("#hand button.card.selected").count() == 1
    bob_page.once("dialog", lambda d: d.accept())
    bob_page.click("#resign")
    for page, headline in ((ann, "You won!"), (bob_page, "You lost.")):
        page.wait_for_selector("#end")
        assert page.inner_text("#result") == headline
        assert page.locator(".card.selected").count() == 0  # no card stays chosen
        assert page.inner_text("#end-reason") == "Bob resigned: the game is lost."
    ann.locator("#hand button.card").first.click()  # a card tapped after the end: nothing
    assert ann.locator(".card.selected").count() == 0
    # Coming back to the table later, and its replay, say it too.
    ann.reload()
    ann.wait_for_selector("#end-reason")
    assert ann.inner_text("#end-reason") == "Bob resigned: the game is lost."
    ann.goto(web.url + f"/replay/{code}")
    ann.wait_for_selector("#board")
    ann.click("#last")
    ann.wait_for_selector("#end-reason")
    assert ann.inner_text("#end-reason") == "Bob resigned: the game is lost."
    assert ann.inner_text("#app .result") == "Team A wins"
    for page in pages:
        page.context.close()
