"""The browser client, driven by Playwright in Debian's Chromium (headless).

Two players in two browser contexts and a bot play Sequence for Kids to the end through the
real UI (clicking cards and board spaces); one reloads mid-game and keeps the seat; a third
context watches.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from .conftest import ServerThread, create_table
from .scenes import act, lobby, state

pytestmark = pytest.mark.browser


def test_create_join_play_reload_spectate(browser: Any, web: ServerThread) -> None:
    a_ctx = browser.new_context(viewport={"width": 1200, "height": 900})
    b_ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    c_ctx = browser.new_context()
    a = a_ctx.new_page()
    a.goto(web.url + "/")
    a.fill("#name", "Ann")
    a.select_option("#game", "kids")
    a.select_option("#players", "3")
    a.select_option("#seat-2", "random")
    a.click("#create")
    a.wait_for_selector("#share")
    link = a.get_attribute("#share", "href")
    assert link and "/t/" in link
    code = link.rsplit("/", 1)[1]

    b = b_ctx.new_page()
    b.goto(link)
    b.fill("#join-name", "Bob")
    b.click('button.sit[data-seat="1"]')
    b.wait_for_function("() => window.seq.msg && window.seq.msg.you.seat === 1")
    a.wait_for_function("() => window.seq.msg.table.seats[1].name === 'Bob'")
    a.click("#start")
    a.wait_for_selector("#board")
    b.wait_for_selector("#board")

    c = c_ctx.new_page()
    c.goto(link)
    c.wait_for_selector("#board")
    assert c.evaluate("() => window.seq.msg.you.seat") is None
    assert c.evaluate("() => window.seq.msg.view.hand") is None
    assert "watching" in c.inner_text("#status")

    reloaded = False
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        msg = state(a)
        if msg["view"]["outcome"]:
            break
        moved = act(a) or act(b)
        if not reloaded and msg["version"] >= 6:
            hand = a.evaluate("() => window.seq.msg.view.hand")
            a.reload()
            a.wait_for_function("() => window.seq.msg && window.seq.msg.view")
            assert a.evaluate("() => window.seq.msg.you.seat") == 0
            assert a.evaluate("() => window.seq.msg.view.hand") is not None
            assert len(a.evaluate("() => window.seq.msg.view.hand")) == len(hand)
            reloaded = True
        if not moved:
            time.sleep(0.05)
    else:
        raise AssertionError("the game did not finish in time")
    assert reloaded
    for page in (a, b, c):
        page.wait_for_selector("#result")
    a.wait_for_selector("#rematch")
    finished = c.evaluate("() => window.seq.msg.view.moves.length")
    assert finished > 6
    # The finished game is listed and replays move by move.
    a.goto(web.url + f"/replay/{code}")
    a.wait_for_selector("#board")
    a.click("#next")
    a.wait_for_function("() => document.querySelector('#ply').textContent.includes('1')")
    for ctx in (a_ctx, b_ctx, c_ctx):
        ctx.close()


def test_unknown_table_and_a_stale_seat_token(browser: Any, web: ServerThread) -> None:
    ctx = browser.new_context()
    page = ctx.new_page()
    sockets: list[Any] = []
    page.on("websocket", lambda ws: sockets.append(ws))
    page.goto(web.url + "/t/NOPE42")
    page.wait_for_selector("#back")
    assert "NOPE42" in page.inner_text("#error")
    time.sleep(1.5)  # a client that kept reconnecting would have opened more sockets by now
    assert len(sockets) == 1
    page.click("#back")
    page.wait_for_selector("#create")

    # A seat token the table does not know (another game's): the page falls back to watching.
    with web.http() as http:
        created = http.post(
            "/api/tables", json={"game": "kids", "players": 2, "bots": ["random", "random"]}
        ).json()
        http.post(
            f"/api/tables/{created['code']}/start", json={"host_token": created["host_token"]}
        )
    code = created["code"]
    page.evaluate(f"() => localStorage.setItem('seq.seat.{code}', 'not-a-token')")
    page.goto(web.url + f"/t/{code}")
    page.wait_for_function("() => window.seq.msg && window.seq.msg.view")
    assert page.evaluate("() => window.seq.msg.you.seat") is None
    assert page.evaluate(f"() => localStorage.getItem('seq.seat.{code}')") is None
    ctx.close()


def test_dice_shows_no_hand_and_rolls_by_button(browser: Any, web: ServerThread) -> None:
    with web.http() as http:
        created = http.post(
            "/api/tables",
            json={"game": "dice", "players": 2, "bots": [None, "random"], "name": "Ann", "seat": 0},
        ).json()
        http.post(
            f"/api/tables/{created['code']}/start", json={"host_token": created["host_token"]}
        )
    code = created["code"]
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(web.url + "/")
    page.evaluate(
        f"() => {{ localStorage.setItem('seq.seat.{code}', '{created['seat_token']}');"
        f" localStorage.setItem('seq.host.{code}', '{created['host_token']}'); }}"
    )
    page.goto(web.url + f"/t/{code}")
    page.wait_for_selector("#board")
    for _ in range(3):  # our roll may come after the bot's turn
        page.wait_for_selector("#act-roll", timeout=20000)
        assert page.locator("#hand").count() == 0 and "Your hand" not in page.inner_text("body")
        version = page.evaluate("() => window.seq.msg.version")
        page.click("#act-roll")
        page.wait_for_function(f"() => window.seq.msg.version > {version}")
        legal = page.evaluate("() => window.seq.msg.view.legal_moves")
        target = next((m for m in legal if m[0] in "@=x"), None)
        if target is None:
            if "pass" in legal:
                page.click("#act-pass")
            continue
        version = page.evaluate("() => window.seq.msg.version")
        page.click(f'#board g[data-space="{target[1:]}"].target')
        page.wait_for_function(f"() => window.seq.msg.version > {version}")
    ctx.close()


def test_waiting_room_says_why_start_waits_and_adds_a_bot_of_the_chosen_level(
    browser: Any, web: ServerThread
) -> None:
    with web.http() as http:
        created = http.post(
            "/api/tables",
            json={"game": "classic", "players": 3, "bots": [None, None, None], "name": "Ann"},
        ).json()
    code = created["code"]
    page = browser.new_context().new_page()
    page.goto(web.url + "/")
    page.evaluate(
        f"() => {{ localStorage.setItem('seq.seat.{code}', '{created['seat_token']}');"
        f" localStorage.setItem('seq.host.{code}', '{created['host_token']}'); }}"
    )
    page.goto(web.url + f"/t/{code}")
    page.wait_for_selector("#start[disabled]")
    assert page.inner_text("#start-why").strip() == "2 seats are still empty"
    page.select_option("#add-bot-level", "hard")
    page.click("button.add-bot")
    page.wait_for_function(
        "() => window.seq.msg.table.seats.filter((s) => s.kind === 'bot').length === 1"
    )
    bot = next(s for s in state(page)["table"]["seats"] if s["kind"] == "bot")
    assert bot["bot"] == "hard"
    page.wait_for_function(
        "() => document.querySelector('#start-why').innerText.trim() === '1 seat is still empty'"
    )
    assert page.input_value("#add-bot-level") == "hard"  # the choice stays for the next bot
    page.click("button.add-bot")
    page.wait_for_selector("#start:not([disabled])")
    assert page.locator("#start-why").count() == 0
    page.click("#start")
    page.wait_for_selector("#board")
    assert page.get_by_text("A: 0 of 1 sequence", exact=True).count() == 1  # one, not "sequences"


def test_the_replay_of_a_resigned_game_says_who_won_and_how(
    browser: Any, web: ServerThread
) -> None:
    from .conftest import Client, create_table, join, start

    created = create_table(web, game="kids", players=2, name="Ann", seat=0)
    code = created["code"]
    bob = join(web, code, "Bob", 1)
    start(web, code, created["host_token"])
    client = Client(web, code, bob["seat_token"])
    client.wait(lambda s: s["view"] is not None)
    client.send({"type": "resign"})
    client.wait(lambda s: s["table"]["status"] == "finished")
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(web.url + f"/replay/{code}")
    page.wait_for_selector("#resigned")  # no move was made: the first view is the last
    assert page.text_content("#resigned") == "Team A wins"
    assert page.text_content("#end-reason") == "Bob resigned: the game is lost."
    ctx.close()


def test_a_full_table_is_offered_to_watch_not_to_join(browser: Any, web: ServerThread) -> None:
    full = create_table(web, game="classic", players=2, bots=[None, "random"], name="Ann",
                        public=True)["code"]  # fmt: skip
    open_ = create_table(web, game="classic", players=2, bots=[None, None], name="Bob",
                         public=True)["code"]  # fmt: skip
    page = browser.new_context().new_page()
    lobby(page, web.url)
    button = "#open-tables tr:has(td.code:text-is('{}')) button.open-table"
    assert page.inner_text(button.format(full)) == "Watch"
    assert page.inner_text(button.format(open_)) == "Join"
    page.click(button.format(full))
    page.wait_for_selector("ul.seats")
    assert page.locator("#join-name").count() == 0 and page.locator("button.sit").count() == 0
    assert page.inner_text("ul.seats li >> nth=0").strip().startswith("Seat 1: Ann")
    # Nothing to join, and the page says why.
    says = "This table is full: you can watch the game once it starts."
    assert page.text_content("#table-full") == says
    page.goto(f"{web.url}/t/{open_}")
    page.wait_for_selector("button.sit")
    assert page.locator("#table-full").count() == 0
    page.context.close()
