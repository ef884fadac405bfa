#!/usr/bin/env python3
"""Screenshots of the web app for the docs: every ``docs/img/web-*.png``.

Starts the server on a loopback port (a throw-away SQLite file, quick bots, cheap passwords,
a one-second quick-play wait, invite links as a server on the network gives them: ``INVITE``)
and drives Debian's Chromium headless through Playwright, through the scenes the browser tests
check (``tests/server/scenes.py``). In English unless named:

- ``web-lobby.png``: the lobby (1280x900); ``web-waiting.png``: a table for four waiting for
  players, its invite link and QR code;
- ``web-table.png``, ``web-table-ru.png``, ``web-table-fr.png``: one classic game against the
  easy bot at its 24th move, a card chosen (its spaces lit), in English, Russian and French
  (the language switched at the table, the game kept) at 1280x900; ``web-phone.png``: the same
  table on a phone (390x844);
- ``web-result.png``, ``web-replay.png``: the end of a game of Dice between bots, and its replay
  at move 12 (1280x900);
- ``web-passplay-create.png``, ``web-passplay-handover.png``, ``web-passplay-turn.png``:
  pass-and-play on a tablet (820x1180): a team game created with two seats "On this device" and
  their bot partners, a hand-over between their turns, and a turn once the hand is shown;
- ``web-won.png``: the end of a game of Sequence for Kids between two people, as the winner
  sees it, the winning sequence drawn (1280x800, the whole page);
- ``web-dice-phone.png``: Sequence Dice on a phone, a roll, its two dice and what it allows,
  the key to the rolls (the whole page); ``web-dice-key-phone.png``: another player's roll said
  as what they may do, the key under it;
- ``web-kids-tablet.png``, ``web-kids-tablet-fr.png``, ``web-kids-phone-ru.png``: Sequence for
  Kids in pictures after a first card, on a tablet in English and French and on a phone in
  Russian (the whole page); ``web-kids-rules-phone.png``: the Kids rules page's board in
  pictures on a phone;
- ``web-talk-phone.png``: chat in the lobby, a reaction during play, the invite QR code, on a
  phone (the whole page);
- ``web-account.png``: the account page of a guest who signed up, the game they play listed;
- ``web-player.png``, ``web-leaderboard.png``: a player's page after three rated games of Kids
  against the easy bot (the rating on the familiar scale, its chart), and the Kids leaderboard,
  bots and people on one scale; ``web-quickplay.png``: quick play waiting for players;
- ``web-penalty-phone.png``: the table-talk penalty's confirmation on a phone;
  ``web-table-recent.png``: a team game of four on a laptop (1280x800), the other players'
  last moves ringed, the log beside the board; ``web-log-phone.png``: the same on a phone, the
  log opened from its bar;
- ``web-kids-dragon-phone.png``: on one screen with the board, a Kids card that cannot be
  played (the Dragon, with no chip to take) crossed out, the playable cards lit;
  ``web-kids-end-phone.png``: the end of a rated Kids game on a phone, the resignation and the
  rating on the familiar scale.

    .venv/bin/python scripts/screenshots.py                 # all of them
    .venv/bin/python scripts/screenshots.py table-ru table-fr
"""

from __future__ import annotations

import _venv  # noqa: F401  (first: another Python runs this again with .venv's)

# isort: split
import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the browser tests' scenes: tests/server/scenes.py

# isort: split
from tests.server import scenes  # noqa: E402
from tests.server.conftest import (  # noqa: E402
    ServerThread,
    chromium,
    chromium_missing,
    create_table,
    start,
)

from sequence.server.accounts.account import Passwords  # noqa: E402

OUT = ROOT / "docs" / "img"
INVITE = "http://192.168.1.20:8000"
"""Where the invite links and their QR codes lead: this machine as friends on its network reach
a server started with ``--host 0.0.0.0`` (docs/server.md's example address)."""
DESKTOP = scenes.DESKTOP
Shoot = Callable[[Any, str], None]
"""Saves ``web-NAME.png`` of a page or an element, if that screenshot was asked for."""
Scene = Callable[[Any, ServerThread, Shoot], None]


def top(page: Any) -> None:
    """Scroll to the top of the page."""
    page.evaluate("() => window.scrollTo(0, 0)")


def show(page: Any, selector: str, block: str = "start") -> None:
    """Scroll the element ``selector`` to the top (``block``: or the centre) of the screen."""
    page.locator(selector).evaluate("(e, block) => e.scrollIntoView({block})", block)


def lobby_and_table(browser: Any, server: ServerThread, shoot: Shoot) -> None:
    page = scenes.new_page(browser, DESKTOP)
    scenes.lobby(page, server.url)
    page.fill("#name", "Ann")
    shoot(page, "lobby")
    scenes.create_by_form(page, server.url, "Ann", "classic", 4, seat_2="easy")
    page.wait_for_selector("#invite-qr")
    shoot(page, "waiting")
    code = scenes.against_a_bot(page, server, "classic", "easy")
    scenes.play_until(page, 24)
    scenes.my_turn(page, code)
    scenes.select_card(page)
    shoot(page, "table")
    for lang in ("ru", "fr"):
        page.select_option("#lang", lang)
        page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
        scenes.select_card(page)
        shoot(page, f"table-{lang}")
    token = page.evaluate(f"() => localStorage.getItem('seq.seat.{code}')")
    phone = scenes.new_page(browser, scenes.PHONE, **{f"seat.{code}": token})
    phone.goto(f"{server.url}/t/{code}")
    scenes.my_turn(phone, code)
    scenes.select_card(phone)
    shoot(phone, "phone")


def result_and_replay(
    browser: Any, server: ServerThread, shoot: Callable[[Any, str], None]
) -> None:
    created = create_table(server, game="dice", players=2, bots=["easy", "medium"])
    start(server, created["code"], created["host_token"])
    page = scenes.new_page(browser, DESKTOP)
    page.goto(f"{server.url}/t/{created['code']}")
    page.wait_for_selector("#result", timeout=180_000)
    shoot(page, "result")
    page.goto(f"{server.url}/replay/{created['code']}")
    page.wait_for_selector("#board")
    for _ in range(12):
        page.click("#next")
    page.wait_for_function("() => document.querySelector('#ply').textContent.includes('12')")
    shoot(page, "replay")


def passplay(browser: Any, server: ServerThread, shoot: Shoot) -> None:
    """Anna and Ben on one tablet, each with a bot partner: the create form, then some turns
    (each after its hand-over) until the board has chips, then a hand-over and a turn."""
    page = scenes.new_page(browser, scenes.TABLET)
    page.goto(server.url + "/")
    page.wait_for_selector("#create")
    page.select_option("#players", "4")
    for seat, name in enumerate(("Anna", "Ben")):
        page.select_option(f"#seat-{seat}", "local")
        page.fill(f"#local-name-{seat}", name)
    page.select_option("#seat-2", "easy")
    page.select_option("#seat-3", "easy")
    page.locator("#create").scroll_into_view_if_needed()
    shoot(page, "passplay-create")
    page.click("#create")
    page.wait_for_selector("#start:not([disabled])")
    page.click("#start")
    deadline = time.monotonic() + 120
    while True:
        if time.monotonic() > deadline:
            raise SystemExit("the pass-and-play game did not get far enough")
        page.wait_for_selector("#handover")
        if page.evaluate("() => window.seq.msg ? window.seq.msg.version : 0") >= 12:
            break
        page.click("#reveal")
        page.wait_for_selector("#hand")
        scenes.play_a_card(page)
    shoot(page, "passplay-handover")
    page.click("#reveal")
    page.wait_for_selector("#hand")
    scenes.select_card(page)
    top(page)
    shoot(page, "passplay-turn")


def won(browser: Any, server: ServerThread, shoot: Shoot) -> None:
    a, b = scenes.two_at_a_table(browser, server.url)
    scenes.play_to_the_end([a, b])
    msg = scenes.state(a)
    code, winner = msg["table"]["code"], (a, b)[msg["view"]["outcome"]["winner"]]
    token = winner.evaluate(f"() => localStorage.getItem('seq.seat.{code}')")
    page = scenes.new_page(browser, scenes.LAPTOP, **{f"seat.{code}": token})  # on a laptop
    page.goto(f"{server.url}/t/{code}")
    page.wait_for_selector("#end")
    shoot(page, "won")


def dice(browser: Any, server: ServerThread, shoot: Shoot) -> None:
    page = scenes.new_page(browser, scenes.PHONE)
    scenes.dice_game(page, server)
    scenes.roll(page)
    top(page)
    shoot(page, "dice-phone")
    page = scenes.new_page(browser, scenes.PHONE)
    clients = scenes.dice_of_two(page, server)
    for rolled in scenes.rolls_shown(page, clients):
        if rolled == 1:  # Bob's roll, on Ann's phone
            shoot(page, "dice-key-phone")
            break
    for client in clients:
        client.close()


def kids(browser: Any, server: ServerThread, shoot: Shoot) -> None:
    for size, lang, name in (
        (scenes.TABLET, "en", "kids-tablet"),
        (scenes.TABLET, "fr", "kids-tablet-fr"),
        (scenes.PHONE, "ru", "kids-phone-ru"),
    ):
        page = scenes.new_page(browser, size, lang)
        scenes.kids_table(page, server)
        card = scenes.play_a_card(page)
        page.wait_for_selector(f'#log img.pic[data-card="{card}"]', state="attached")
        top(page)
        shoot(page, name)
    page = scenes.new_page(browser, scenes.PHONE)
    scenes.rules(page, server.url, "kids")
    shoot(page.locator("#rules table.kidsboard"), "kids-rules-phone")
    page = scenes.new_page(browser, scenes.PHONE)
    scenes.kids_dragon(page, server)
    top(page)  # the board, the hand and the crossed-out card on one screen
    shoot(page, "kids-dragon-phone")
    page = scenes.new_page(browser, scenes.PHONE)
    scenes.kids_dragon(page, server, rated=True)
    scenes.resign(page)
    page.wait_for_selector("#rating-change a", timeout=20000)
    show(page, "#status")
    shoot(page, "kids-end-phone")


def talk(browser: Any, server: ServerThread, shoot: Shoot) -> None:
    created = create_table(
        server, game="kids", players=2, bots=[None, "random"], name="Ann", seat=0
    )
    page = scenes.new_page(browser, scenes.PHONE)
    scenes.sit(page, server.url, created)
    page.wait_for_selector("#invite-qr")
    scenes.chat(page, "hello, bot")
    page.click("#start")
    page.wait_for_selector("#reactions")
    scenes.react(page, "well_played")
    show(page, "#talk", "end")
    shoot(page, "talk-phone")


def account(browser: Any, server: ServerThread, shoot: Shoot) -> None:
    page = scenes.new_page(browser, DESKTOP)
    scenes.new_game_against_a_bot(page, server.url)
    scenes.play_until(page, 2)
    scenes.sign(page, server.url, "signup", "bea")
    page.wait_for_selector("#account-games td.code")
    shoot(page, "account")


def ratings(browser: Any, server: ServerThread, shoot: Shoot) -> None:
    page = scenes.new_page(browser, scenes.LAPTOP)
    player = scenes.new_player(server, "Ann")
    for _ in range(3):
        scenes.against_a_bot(page, server, "kids", "easy", player, rated=True)
        scenes.play_to_the_end([page])
        page.wait_for_selector("#rating-change a", timeout=20000)
    scenes.visit(page, server.url, f"/p/{player['player']}")
    page.wait_for_selector("#player-page svg.rating-chart")
    shoot(page, "player")
    scenes.visit(page, server.url, "/leaderboard?family=kids")
    page.wait_for_selector("#leaders")
    shoot(page, "leaderboard")
    page = scenes.new_page(browser, DESKTOP)
    scenes.quick_play(page, server.url, "Ann", "kids", 2)
    page.wait_for_selector("#qp-status")
    page.wait_for_function("() => /bots in/.test(document.querySelector('#qp-status').textContent)")
    shoot(page.locator("#quick-play"), "quickplay")
    page.click("#qp-cancel")


def table_polish(browser: Any, server: ServerThread, shoot: Shoot) -> None:
    page = scenes.new_page(browser, scenes.PHONE)
    scenes.team_game(page, server)
    scenes.tap(page, "#penalty")
    scenes.tap(page, '#penalty-dialog label.choice:has(input[value="A"])')
    shoot(page, "penalty-phone")
    scenes.tap(page, "#penalty-cancel")
    for size, name in ((scenes.LAPTOP, "table-recent"), (scenes.PHONE, "log-phone")):
        page = scenes.new_page(browser, size)
        code = scenes.team_game(page, server)
        scenes.play_beside(page)
        scenes.my_turn(page, code)
        if name == "log-phone":
            scenes.tap(page, "#log-open")
        shoot(page, name)


GROUPS: dict[Scene, tuple[str, ...]] = {
    lobby_and_table: ("lobby", "waiting", "table", "table-ru", "table-fr", "phone"),
    result_and_replay: ("result", "replay"),
    passplay: ("passplay-create", "passplay-handover", "passplay-turn"),
    won: ("won",),
    ratings: ("player", "leaderboard", "quickplay"),
    dice: ("dice-phone", "dice-key-phone"),
    kids: (
        "kids-tablet",
        "kids-tablet-fr",
        "kids-phone-ru",
        "kids-rules-phone",
        "kids-dragon-phone",
        "kids-end-phone",
    ),
    talk: ("talk-phone",),
    account: ("account",),
    table_polish: ("penalty-phone", "table-recent", "log-phone"),
}
"""Each scene and the screenshots it takes, in the order it takes them."""
SHOTS = tuple(name for names in GROUPS.values() for name in names)
WHOLE_PAGE = {"won", "account", "player", "leaderboard"}
"""The screenshots of the whole page, below the screen's height too: a laptop's (on a phone or
a tablet the bar of the log, fixed at the bottom of the screen, would stand in the middle)."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("shots", nargs="*", help=f"which of {', '.join(SHOTS)} (default: all)")
    args = parser.parse_args(argv)
    unknown = set(args.shots) - set(SHOTS)
    if unknown:
        parser.error(f"no screenshot {', '.join(sorted(unknown))}; choose from {', '.join(SHOTS)}")
    wanted = set(args.shots or SHOTS)
    why = chromium_missing()
    if why:
        raise SystemExit(why)
    OUT.mkdir(parents=True, exist_ok=True)

    def shoot(page_or_element: Any, name: str) -> None:
        """Save ``web-NAME.png`` of a page (as the screen shows it, or the whole page) or of an
        element, if asked for."""
        if name not in wanted:
            return
        path = OUT / f"web-{name}.png"
        time.sleep(0.4)  # a tap's highlight fades, a new page settles
        if name in WHOLE_PAGE:
            page_or_element.screenshot(path=str(path), full_page=True)
        else:
            page_or_element.screenshot(path=str(path))
        print(f"wrote {path.relative_to(ROOT)}", flush=True)

    cheap = Passwords(time_cost=1, memory_kib=8192, parallelism=1)
    with (
        tempfile.TemporaryDirectory() as tmp,
        ServerThread(
            f"sqlite:///{tmp}/shots.db",
            bot_delay=0.05,
            passwords=cheap,
            quickplay_min_wait=1,
            create_rate=1000,
            create_burst=1000,
            join_rate=1000,
            join_burst=1000,
            invite_base=INVITE,
        ) as server,
        chromium() as browser,
    ):
        for scene, names in GROUPS.items():
            if wanted & set(names):
                scene(browser, server, shoot)
                for context in browser.contexts:
                    context.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
