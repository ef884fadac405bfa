"""A game anyone can follow (issue 32), in Debian's Chromium at phone (390x844), tablet
(820x1180) and laptop (1280x800) sizes: the lobby never scrolls sideways, every word is in the
page's language, taps land on a finger-sized target, the keyboard cursor shows only to the
keyboard, the Dice key is always at hand, and the end of a game reads as the end.

``SEQUENCE_SHOTS=docs/img`` saves the screenshots the docs show.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import Any

import pytest

from sequence.engine import OPTIONS
from sequence.i18n import catalog_json
from sequence.i18n.terms import option_label

from .conftest import Client, ServerThread, create_table, join, seated_page, start

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


def word(lang: str, msgid: str) -> str:
    """The catalogue's word for ``msgid`` in ``lang`` (which must have one)."""
    text = catalog_json(lang)["messages"].get(msgid)
    assert isinstance(text, str) and text, f"{msgid!r} has no translation into {lang}"
    return text


def in_language(browser: Any, server: ServerThread, lang: str, size: dict[str, Any]) -> Any:
    ctx = browser.new_context(**size)
    page = ctx.new_page()
    page.goto(server.url + "/")
    page.evaluate(f"() => localStorage.setItem('seq.lang', '{lang}')")
    return page


def lost_to_a_bot(server: ServerThread, player_token: str | None = None) -> tuple[str, str]:
    """A finished game against the medium bot that Ann resigned: its code and Ann's seat
    token."""
    created = create_table(
        server, game="kids", players=2, name="Ann", seat=0, bots=[None, "medium"],
        player_token=player_token,
    )  # fmt: skip
    code = created["code"]
    start(server, code, created["host_token"])
    c = Client(server, code, created["seat_token"])
    c.wait(lambda s: s["view"] is not None)
    c.send({"type": "resign"})
    c.wait(lambda s: s["table"]["status"] == "finished")
    c.close()
    return code, created["seat_token"]


def only_translated_levels(text: str, lang: str) -> None:
    """The medium bot named in ``lang``; in another language, never its English key."""
    assert word(lang, "medium") in text, text
    if lang != "en":
        assert not re.search(r"\bmedium\b", text), text


@pytest.mark.parametrize("lang", LANGS)
def test_every_word_in_the_pages_language(browser: Any, web: ServerThread, lang: str) -> None:
    with web.http() as http:
        me = http.post("/api/players", json={"name": "Ann"}).json()
    code, seat = lost_to_a_bot(web, me["player_token"])
    create_table(web, game="kids", players=2, name="Bob", seat=0, bots=[None, "medium"])
    page = in_language(browser, web, lang, PHONE)
    # The lists: an open table and a finished game with the medium bot.
    page.goto(web.url + "/")
    page.wait_for_selector("#finished table")
    page.wait_for_selector("#open-tables table")
    only_translated_levels(page.inner_text("#finished"), lang)
    only_translated_levels(page.inner_text("#open-tables"), lang)
    # A player's page: the games and the bots played against.
    page.goto(web.url + f"/p/{me['player']}")
    page.wait_for_selector("#player-games")
    only_translated_levels(page.inner_text("#player-games"), lang)
    only_translated_levels(page.inner_text("#versus-bots"), lang)
    # The tab's title once the game is over.
    page.evaluate(f"() => localStorage.setItem('seq.seat.{code}', '{seat}')")
    page.goto(web.url + f"/t/{code}")
    page.wait_for_selector("#result")
    assert page.title().startswith(word(lang, "Game over") + " · "), page.title()
    # The rules pages name the options in words, never by the engine's keys.
    for game in ("classic", "kids", "dice"):
        page.goto(web.url + f"/rules/{game}")
        page.wait_for_selector("#rules h2")
        text = page.inner_text("#rules")
        codes = page.locator("#rules code").all_inner_texts()
        for key in OPTIONS:
            assert "_" not in key or key not in text, (game, key)
            assert key not in codes, (game, key)
        if game == "classic":
            assert option_label("manual_draw", lang) in text
        assert option_label("chips_per_colour", lang) in text
    page.context.close()


TOUCH_TARGETS = (
    "button, a.button, select, input:not([type=checkbox]):not([type=radio]), .top a,"
    " #ratings-links a, label:has(> input[type=checkbox]), label:has(> input[type=radio])"
)


def small_targets(page: Any) -> list[str]:
    """The visible tap targets under 44 px high (or, for a button, wide)."""
    found: list[str] = page.evaluate(
        """(sel) => [...document.querySelectorAll(sel)].filter((el) => {
             const r = el.getBoundingClientRect();
             if (!r.width || !r.height) return false;
             if (getComputedStyle(el).visibility === 'hidden') return false;
             return r.height < 43.5 || (el.tagName === 'BUTTON' && r.width < 43.5);
           }).map((el) => {
             const r = el.getBoundingClientRect();
             const what = `${el.tagName}#${el.id}.${el.className}`;
             return `${what} ${el.textContent.trim().slice(0, 30)} ${r.width}x${r.height}`;
           })""",
        TOUCH_TARGETS,
    )
    return found


def seated(browser: Any, server: ServerThread, size: dict[str, Any], **body: Any) -> Any:
    """A page seated at a new table created with ``body``, started, at the creator's turn."""
    return seated_page(browser, server, size, create_table(server, **body), learned="1")


@pytest.mark.parametrize("size", [PHONE, TABLET], ids=["phone", "tablet"])
def test_every_tap_target_is_44_px_on_a_touch_screen(
    browser: Any, web: ServerThread, size: dict[str, Any]
) -> None:
    resigned_game(web, "Ann", "Bob")
    page = browser.new_context(**size).new_page()
    page.goto(web.url + "/")
    page.wait_for_selector("#finished table")
    assert page.evaluate("() => matchMedia('(pointer: coarse)').matches")
    assert small_targets(page) == []
    page.context.close()
    page = seated(
        browser, web, size, game="classic", players=2, name="Ann", seat=0, bots=[None, "random"]
    )
    assert small_targets(page) == []
    page.context.close()


def test_a_tap_beside_a_small_space_that_can_be_played_plays_it(
    browser: Any, web: ServerThread
) -> None:
    page = seated(
        browser, web, PHONE, game="classic", players=2, name="Ann", seat=0, bots=[None, "random"]
    )
    spaces = page.evaluate(
        """() => {
          const v = window.seq.msg.view;
          for (const card of v.hand) {
            const to = v.legal_moves.filter((m) => m.startsWith(card + '@'))
              .map((m) => m.split('@')[1]);
            for (const s of to) {
              const col = s.charCodeAt(0) - 97, row = Number(s.slice(1));
              if (col === 0) continue;
              const left = String.fromCharCode(96 + col) + row;  // the space to its left
              if (!to.includes(left) && left !== 'a1' && left !== 'a10') return [card, s, left];
            }
          }
          return null;
        }"""
    )
    assert spaces, "no card with a space to tap beside"
    card, space, beside = spaces
    page.click(f'#hand button[data-card="{card}"]')
    target = page.locator(f'g[data-space="{space}"] rect.cell').bounding_box()
    assert target is not None and target["width"] < 44  # the phone's spaces are small
    # 3 px to the left of the space's edge: on the space beside it, near enough to the centre.
    x, y = target["x"] - 3, target["y"] + target["height"] / 2
    assert (
        page.evaluate(
            f"() => document.elementFromPoint({x}, {y}).closest('g[data-space]').dataset.space"
        )
        == beside
    )
    page.touchscreen.tap(x, y)
    page.wait_for_function(
        f"() => window.seq.msg.view.moves.some((m) => m.endsWith('@{space}'))", timeout=10000
    )
    page.context.close()


@SIZES
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


KEY_WORDS = (
    "What the rolls do",
    "place a chip on a space of that number, then roll again.",
    "defence: remove a chip of another team (not from a 2 or a 12 space).",
    "wild: place a chip on any open space.",
)


@pytest.mark.parametrize(
    ("size", "lang"),
    [(PHONE, "en"), (TABLET, "de"), (LAPTOP, "fr"), (PHONE, "ru"), (TABLET, "uk")],
    ids=["phone-en", "tablet-de", "laptop-fr", "phone-ru", "tablet-uk"],
)
def test_dice_the_key_is_always_there_and_another_players_roll_is_not_an_order(
    browser: Any, web: ServerThread, size: dict[str, Any], lang: str
) -> None:
    created = create_table(web, game="dice", players=2, name="Ann", seat=0)
    code = created["code"]
    bob = join(web, code, "Bob")
    start(web, code, created["host_token"])
    ann_ws = Client(web, code, created["seat_token"])
    bob_ws = Client(web, code, bob["seat_token"])
    page = in_language(browser, web, lang, size)
    page.evaluate(f"() => localStorage.setItem('seq.seat.{code}', '{created['seat_token']}')")
    page.goto(web.url + f"/t/{code}")
    page.wait_for_selector("#board")
    # Before any roll: the key to the rolls, in the page's language.
    key = page.inner_text("#dice-key")
    for msgid in KEY_WORDS:
        assert word(lang, msgid) in key, (msgid, key)
    clients = {0: ann_ws, 1: bob_ws}
    seen = {0: False, 1: False}
    for _ in range(40):  # both seats' rolls, as Ann's page shows them
        st = ann_ws.wait(lambda s: s["view"] is not None)
        v, version = st["view"], st["version"]
        seat = v["to_move"]
        if v["roll"] is None:
            clients[seat].send({"type": "roll", "version": version})
        else:
            page.wait_for_function(
                f"() => window.seq.msg.version >= {version}"
                " && document.querySelector('#roll-reason')"
            )
            said = page.inner_text("#roll-reason")
            assert page.locator("#dice-key").is_visible()
            if seat == 1:  # Bob's roll: what Bob may do, by name, never an order to Ann
                assert "Bob" in said, said
            else:
                assert "Bob" not in said and "Ann" not in said, said
            seen[seat] = True
            if all(seen.values()):
                break
            mover = clients[seat].wait(lambda s, v=version: s["version"] >= v)
            legal = mover["view"]["legal_moves"]
            clients[seat].send({"type": "move", "move": legal[0], "version": version})
        ann_ws.wait_version(version + 1)
    assert all(seen.values()), seen
    if SHOTS and size is PHONE and lang == "en":
        page.screenshot(path=os.path.join(SHOTS, "web-dice-key-phone.png"))
    for c in clients.values():
        c.close()
    page.context.close()


@SIZES
def test_the_end_clears_the_chosen_card_and_a_resignation_says_so(
    browser: Any, web: ServerThread, size: dict[str, Any]
) -> None:
    created = create_table(web, game="classic", players=2, name="Ann", seat=0)
    code = created["code"]
    bob = join(web, code, "Bob")
    start(web, code, created["host_token"])
    pages = []
    for token in (created["seat_token"], bob["seat_token"]):
        page = browser.new_context(**size).new_page()
        page.goto(web.url + "/")
        page.evaluate(f"() => localStorage.setItem('seq.seat.{code}', '{token}')")
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


KIDS_NAMES = ("UNICORN", "DRAGON", "TIGER", "LION", "GIRAFFE", "RABBIT", "PIG", "BEAR", "DUCK")


@pytest.mark.parametrize(
    ("size", "lang"),
    [(PHONE, "en"), (TABLET, "de"), (LAPTOP, "fr"), (PHONE, "ru"), (TABLET, "uk")],
    ids=["phone-en", "tablet-de", "laptop-fr", "phone-ru", "tablet-uk"],
)
def test_the_kids_rules_in_pictures(
    browser: Any, web: ServerThread, size: dict[str, Any], lang: str
) -> None:
    page = in_language(browser, web, lang, size)
    page.goto(web.url + "/rules/kids")
    page.wait_for_selector("#rules table.kidsboard")
    page.wait_for_function(
        "() => [...document.querySelectorAll('#rules img.pic')].every((i) => i.complete)"
    )
    loaded = page.evaluate(
        "() => [...document.querySelectorAll('#rules img.pic')].map((i) => i.naturalWidth > 0)"
    )
    assert len(loaded) == 38 + 21 and all(loaded)
    text = page.inner_text("#rules")
    for name in KIDS_NAMES:
        assert not re.search(rf"\b{name}\b", text), (lang, name)
    assert word(lang, "Giraffe") in page.inner_text("#rules table.kidsboard")
    no_sideways_scroll(page, size["viewport"]["width"])
    if SHOTS and size is PHONE and lang == "en":
        page.locator("#rules table.kidsboard").screenshot(
            path=os.path.join(SHOTS, "web-kids-rules-phone.png")
        )
    page.context.close()
