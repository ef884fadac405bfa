"""Play over days in the browser (issue 35; Playwright, Debian's Chromium): two signed-in players
become friends through a friend's link, one challenges the other to a table with days a move,
the other accepts; they play several moves each opening the page for their move and closing it
after, and "my games" shows each of them whose turn it is, with the deadline. No page or answer
they see carries a card of the other's hand."""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from typing import Any

import pytest

from sequence.server.accounts.account import Passwords

from .conftest import ServerThread
from .scenes import act, my_turn, sign, state
from .test_notify import assert_no_card, hidden_cards

pytestmark = pytest.mark.browser


@pytest.fixture
def site(sqlite_url: str) -> Iterator[ServerThread]:
    cheap = Passwords(time_cost=1, memory_kib=8192, parallelism=1)
    with ServerThread(sqlite_url, bot_delay=0.05, passwords=cheap) as srv:
        yield srv


def my_games(context: Any, url: str) -> tuple[Any, list[dict[str, str]]]:
    """Open "my games" in a new page of ``context``: the page and its rows."""
    page = context.new_page()
    page.goto(url + "/games")
    page.wait_for_selector("#my-games ul.my-games li")
    rows = page.eval_on_selector_all(
        "#my-games li.my-game",
        "els => els.map(e => ({code: e.dataset.code, mine: e.dataset.yourTurn,"
        " whose: e.querySelector('.whose').textContent,"
        " deadline: (e.querySelector('.deadline') || {}).textContent || ''}))",
    )
    return page, rows


def test_friends_challenge_accept_and_play_over_days_with_pages_closed_between(
    browser: Any, site: ServerThread
) -> None:
    names = {0: f"ann{secrets.token_hex(3)}", 1: f"ben{secrets.token_hex(3)}"}
    contexts = {n: browser.new_context(viewport={"width": 1100, "height": 900}) for n in names}
    seen: list[str] = []  # every page the players saw outside the table, checked for cards
    ann, ben = contexts[0].new_page(), contexts[1].new_page()
    sign(ann, site.url, "signup", names[0])
    sign(ben, site.url, "signup", names[1])

    # Ann sends Ben her link; Ben opens it and adds her; Ann accepts him on her friends page.
    ann.goto(site.url + "/friends")
    link = ann.inner_text("#friend-link")
    assert link.endswith(f"/friends?add={names[0]}")
    ben.goto(link)
    ben.wait_for_selector("#friend-link-notice")
    assert ben.input_value("#friend-name") == names[0]
    ben.click("#friend-add")
    ben.wait_for_selector(f'#asked li[data-name="{names[0]}"]')
    ann.goto(site.url + "/friends")
    ann.click(f'#asking-me li[data-name="{names[1]}"] .friend-accept')
    ann.wait_for_selector(f'#friends li[data-name="{names[1]}"] .dot.online')  # he was just here

    # Ben wants push notifications: the account page's toggle, saved.
    ben.goto(site.url + "/account")
    ben.check("#notify-push-on")
    ben.click("#notify-save")
    ben.wait_for_selector("#notify [role=status] .notice")
    assert ben.evaluate("() => fetch('/api/notify').then(r => r.json())")["push_on"] is True
    ben.goto(site.url + "/friends")

    # Ann challenges Ben: classic, two players, a day a move, a game lost when the days run out.
    ann.check(f'.challenge-friend[value="{names[1]}"]')
    ann.select_option("#challenge-game", "classic")
    ann.select_option("#challenge-players", "2")
    ann.select_option("#challenge-clock", "days1")
    ann.select_option("#challenge-on-timeout", "lost")
    ann.click("#challenge-send")
    ann.wait_for_selector('#challenge-list li[data-status="open"]')
    ann.close()
    ben.goto(site.url + "/friends")
    ben.click('#challenge-list li[data-status="open"] .challenge-accept')
    ben.wait_for_url("**/t/*")
    code = ben.url.rsplit("/", 1)[1]
    ben.wait_for_selector("#board")
    ben.close()

    # Six moves, each player opening "my games" for theirs, then the table, and closing both.
    for _ in range(6):
        pages, rows = {}, {}
        for n, ctx in contexts.items():
            pages[n], found = my_games(ctx, site.url)
            [rows[n]] = [r for r in found if r["code"] == code]
        [mover] = [n for n in names if rows[n]["mine"] == "yes"]
        other = 1 - mover
        assert rows[mover]["whose"] == "Your turn"
        assert rows[other]["whose"] == f"{names[mover]} to play"
        assert "left (until" in rows[mover]["deadline"]  # a day a move: "23 h 59 min left"
        seen.extend(p.content() for p in pages.values())
        pages[other].close()
        page = pages[mover]
        page.click(f'li.my-game[data-code="{code}"] a.code')
        page.wait_for_selector("#board")
        my_turn(page)
        version = state(page)["version"]
        deadline = time.monotonic() + 20
        while not act(page):
            assert time.monotonic() < deadline, "no move to make"
            time.sleep(0.05)
        assert state(page)["version"] > version
        assert state(page)["table"]["time_control"]["name"] == "days1"
        page.close()

    # Nothing the players' pages showed, nor any answer of the API they read, holds a card of
    # a hand (the table's own state carries only the viewer's: the protocol's leak tests).
    cards = hidden_cards(site, code)
    for ctx in contexts.values():
        page = ctx.new_page()
        page.goto(site.url + "/friends")
        page.wait_for_selector("#challenge-list")
        seen.append(page.content())
        for path in ("/api/account/turns", "/api/friends", "/api/challenges", "/api/notify"):
            seen.append(page.evaluate("p => fetch(p).then(r => r.text())", path))
    for text in seen:
        assert_no_card(text, cards)
    stored = site.stored(code)
    assert stored.status == "playing" and len(stored.moves) == 6
    for ctx in contexts.values():
        ctx.close()
