"""Ratings and quick play in the browser (Playwright, Debian's Chromium): two signed-in players
play a rated game to the end and both see their rating change; quick play seats two waiting
players together, and bots after the wait (a wait shortened for the test); the leaderboard and
a player's page with its chart. ``scripts/screenshots.py player leaderboard quickplay``
photographs them."""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from typing import Any

import pytest

from sequence.bots.levels import LEVELS
from sequence.server.accounts.account import Passwords
from sequence.server.ratings.rating import display_rating

from .conftest import ServerThread
from .scenes import play_to_the_end, quick_play, sign, state, table_code

pytestmark = pytest.mark.browser


@pytest.fixture
def site(sqlite_url: str) -> Iterator[ServerThread]:
    cheap = Passwords(time_cost=1, memory_kib=8192, parallelism=1)
    with ServerThread(sqlite_url, bot_delay=0.05, passwords=cheap, quickplay_min_wait=1) as srv:
        yield srv


def test_two_signed_in_players_play_rated_and_see_their_ratings_change(
    site: ServerThread, browser: Any
) -> None:
    url = site.url
    pages = []
    names = [f"ann{secrets.token_hex(3)}", f"bob{secrets.token_hex(3)}"]
    for name in names:
        page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        sign(page, url, "signup", name)
        pages.append(page)
    a, b = pages
    a.goto(url + "/")
    a.select_option("#game", "kids")
    a.select_option("#players", "2")
    # Rated without a clock is refused with the reason, and nothing is created.
    a.check("#rated")
    a.click("#create")
    a.wait_for_selector(".error")
    assert "turn clock" in a.inner_text(".error")
    a.select_option("#clock", "casual")
    a.click("#create")
    code = table_code(a)
    a.wait_for_selector("#rated-badge")
    b.goto(f"{url}/t/{code}")
    b.click("button.sit")
    a.wait_for_selector("#start:not([disabled])")
    a.click("#start")
    for page in pages:
        page.wait_for_selector("#board")
    play_to_the_end(pages)
    for page, name in zip(pages, names, strict=True):
        page.wait_for_selector("#rating-change a", timeout=20000)
        text = page.inner_text("#rating-change")
        assert "→" in text, text
        # On the familiar scale: from a new player's 1500 to another number, "?" while provisional.
        before, after = (
            x.strip() for x in text.split(":", 1)[1].split("provisional")[0].split("→")
        )
        assert before == "1500" and after.endswith("?") and after != "1500?", text
        player = int(page.get_attribute("#rating-change a", "href").rsplit("/", 1)[1])
        kids = page.evaluate("(id) => fetch(`/api/players/${id}`).then((r) => r.json())", player)[
            "ratings"
        ]["kids"]
        assert after == f"{kids['display']}?"
        assert abs(kids["display"] - display_rating(kids["mu"])) <= 1  # mu is rounded there
        # The player's page: the rating, its chart, the game with a replay link.
        page.click("#rating-change a")
        page.wait_for_selector("#player-page svg.rating-chart")
        assert page.inner_text("#player-page h2") == name
        assert page.locator("#player-games a").first.get_attribute("href") == f"/replay/{code}"
    # The leaderboard of Kids lists both, provisional, beside the bots.
    a.goto(url + "/leaderboard?family=kids")
    a.wait_for_selector("#leaders")
    board = a.inner_text("#leaders")
    assert names[0] in board and names[1] in board and "provisional" in board
    assert "μ" not in board and re.search(r"\b1[0-9]{3}\?", board), board
    assert a.locator('#leaders tr[data-kind="bot"]').count() == len(LEVELS)  # every level


def test_quick_play_seats_two_waiting_players_then_bots_after_the_wait(
    site: ServerThread, browser: Any
) -> None:
    url = site.url
    a = browser.new_context().new_page()
    b = browser.new_context().new_page()
    quick_play(a, url, "Ann", "kids", 2)
    a.wait_for_selector("#qp-status")
    assert "Waiting for players" in a.inner_text("#qp-status")
    a.wait_for_function("() => /bots in/.test(document.querySelector('#qp-status').textContent)")
    quick_play(b, url, "Bob", "kids", 2)
    code_a, code_b = table_code(a), table_code(b)
    assert code_a == code_b
    for page in (a, b):
        page.wait_for_selector("#board")
    assert sorted(s["kind"] for s in state(a)["table"]["seats"]) == ["human", "human"]
    assert state(a)["table"]["rated"] and state(a)["you"]["seat"] != state(b)["you"]["seat"]
    # Alone, cancelling goes back to the form; waiting out a short wait brings bots.
    c = browser.new_context().new_page()
    c.goto(url + "/")
    c.fill("#name", "Cid")
    c.select_option("#qp-game", "dice")
    c.select_option("#qp-players", "3")
    c.click("#qp-start")
    c.click("#qp-cancel")
    c.wait_for_selector("#qp-start")
    # The test's server takes waits from 1 s; the page offers 10 s and more.
    c.evaluate(
        "() => document.querySelector('#qp-wait').append(new Option('2 s', '2', true, true))"
    )
    c.click("#qp-start")
    c.wait_for_selector("#qp-status")
    table_code(c)
    c.wait_for_selector("#board")
    seats = state(c)["table"]["seats"]
    assert sorted(s["kind"] for s in seats) == ["bot", "bot", "human"]
    assert state(c)["table"]["rated"]
