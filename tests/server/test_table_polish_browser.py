"""The web table as friends, families and a child play it (issue 32), in Debian's Chromium on a
phone (390x844): the table-talk penalty is never one tap and says what it does, what the other
players did is marked on the board and said in the log, which stays one tap away; a Kids card
that cannot be played is shown by picture. The same points at three sizes in five languages:
test_sizes_languages_browser.py; ``scripts/screenshots.py`` photographs them (penalty-phone,
log-phone, table-recent, kids-dragon-phone, kids-end-phone).
"""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import ServerThread, create_table, seated_page
from .scenes import LAPTOP, PHONE, kids_dragon, new_page, resign

pytestmark = pytest.mark.browser


def seated(browser: Any, server: ServerThread, **body: Any) -> Any:
    """A page on a phone seated at a new table created with ``body`` (the creator's seat and
    host rights in its storage), started, at the creator's first turn."""
    return seated_page(browser, server, PHONE, create_table(server, **body))


def test_the_penalty_is_a_confirmation_that_explains_it(browser: Any, web: ServerThread) -> None:
    page = seated(
        browser, web, game="classic", players=4, teams=2,
        bots=[None, "random", "random", "random"], name="Ann", seat=0,
    )  # fmt: skip
    assert page.locator("button.penalty").count() == 0  # no one-tap team buttons
    moves_before = page.evaluate("() => window.seq.msg.view.moves.length")
    page.click("#penalty")
    dialog = page.locator("#penalty-dialog")
    assert dialog.is_visible()
    text = " ".join(dialog.inner_text().split())
    assert "gives up one card of their choice" in text and "not replaced" in text
    # Each team with its players; the host's own marked; nothing chosen, nothing to confirm.
    own = page.locator("#penalty-dialog label.choice", has_text="Team A")
    assert "Ann" in own.inner_text() and "your team" in own.inner_text()
    assert (
        "your team"
        not in page.locator("#penalty-dialog label.choice", has_text="Team B").inner_text()
    )
    assert page.is_disabled("#penalty-confirm")
    page.check('#penalty-dialog input[value="A"]')
    assert page.locator("#penalty-own").is_visible()  # your own side would give up the cards
    box = dialog.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["viewport"]["width"]
    page.click("#penalty-cancel")
    page.wait_for_selector("#penalty-dialog", state="detached")
    page.wait_for_timeout(300)
    view = page.evaluate("() => window.seq.msg.view")
    assert not any(m.startswith("penalty:") for m in view["moves"])
    assert len(view["moves"]) == moves_before
    # Chosen and confirmed: imposed on that team, and the log says so.
    page.click("#penalty")
    page.check('#penalty-dialog input[value="B"]')
    assert not page.locator("#penalty-own").is_visible()
    page.click("#penalty-confirm")
    page.wait_for_function(
        "() => window.seq.msg.view.moves.some((m) => m === 'penalty:B')", timeout=10000
    )
    page.wait_for_selector("#log li:has-text('Table-talk penalty for team B')", state="attached")
    page.context.close()


def log_entries(page: Any) -> list[dict[str, Any]]:
    return list(page.evaluate("() => window.seq.msg.view.log"))


def others_since_my_move(log: list[dict[str, Any]], me: int) -> dict[str, int]:
    """Each other seat's last move with a space since ``me`` last moved: space -> seat."""
    marks: dict[str, int] = {}
    for e in reversed(log):
        if e["seat"] is None or e["kind"] in ("draw", "roll"):
            continue
        if e["seat"] == me:
            break
        if e["space"] and e["space"] not in marks:
            marks[e["space"]] = e["seat"]
    return marks


def marked(page: Any) -> dict[str, int]:
    return {
        g.get_attribute("data-space"): int(g.get_attribute("data-by"))
        for g in page.query_selector_all("#board g.space.recent")
    }


def test_what_the_others_did_is_marked_and_the_log_is_one_tap_away(
    browser: Any, web: ServerThread
) -> None:
    page = seated(
        browser, web, game="classic", players=4, teams=2,
        bots=[None, "random", "random", "random"], name="Ann", seat=0,
    )  # fmt: skip
    width, height = PHONE["viewport"]["width"], PHONE["viewport"]["height"]
    # Who deals and who starts, in the log's first lines.
    setup = page.text_content("#log-setup") or ""
    assert "Cut for dealer:" in setup and "cut lowest and deals;" in setup, setup
    assert "plays first." in setup
    for _ in range(2):  # Ann plays, the three bots play, Ann's turn again
        before = len(log_entries(page))
        legal = page.evaluate("() => window.seq.msg.view.legal_moves")
        card, space = next(m for m in legal if "@" in m).split("@")
        page.click(f'#hand .card[data-card="{card}"] >> nth=0')
        page.click(f'#board g.space.target[data-space="{space}"]')
        page.wait_for_function(
            "(n) => window.seq.msg.view.log.length >= n + 4 && window.seq.msg.view.to_move === 0"
            " && window.seq.msg.view.legal_moves.length",
            arg=before,
            timeout=20000,
        )
    log = log_entries(page)
    expected = others_since_my_move(log, 0)
    assert expected, "the bots' moves had no space"
    assert marked(page) == expected
    assert set(expected.values()) <= {1, 2, 3}
    page.click("#hand .card >> nth=0")  # a redraw keeps the marks until Ann has moved
    assert marked(page) == expected

    # On the phone, a bar at the bottom reads the last move; one tap opens the log.
    assert page.locator("#log").is_hidden()
    bar = page.locator("#log-open")
    box = bar.bounding_box()
    assert box["y"] + box["height"] <= height and box["height"] >= 44
    page.mouse.wheel(0, 2000)  # still there however the page is scrolled
    assert page.locator("#log-open").bounding_box()["y"] == box["y"]
    bar.tap()
    log_box = page.locator("#log").bounding_box()
    assert log_box["y"] >= 0 and log_box["y"] + log_box["height"] <= height + 1
    assert log_box["width"] <= width
    page.click("#log-close")
    assert page.locator("#log").is_hidden()
    page.context.close()


def test_the_log_says_who_completed_a_sequence(browser: Any, web: ServerThread) -> None:
    created = create_table(web, game="kids", players=2, bots=["random", "random"])
    code = created["code"]
    with web.http() as http:
        r = http.post(f"/api/tables/{code}/start", json={"host_token": created["host_token"]})
        assert r.status_code == 200, r.text
    ctx = browser.new_context(**LAPTOP)
    page = ctx.new_page()
    page.goto(web.url + f"/t/{code}")
    page.wait_for_function(
        "() => window.seq.msg && window.seq.msg.view && window.seq.msg.view.outcome", timeout=60000
    )
    log = log_entries(page)
    done = [(i, e) for i, e in enumerate(log) if e["completed"]]
    assert done
    for i, e in done:
        line = page.inner_text(f"#log li >> nth={i}")
        n = len(e["completed"])
        assert f"completed {n} sequence" in line, line
        assert e["completed"][0][0] in line and e["completed"][0][-1] in line
    assert page.locator("#log .seqdone").count() == len(done)
    setup = page.text_content("#log-setup") or ""
    assert "was drawn to deal;" in setup and "plays first." in setup, setup
    ctx.close()


def test_kids_explains_by_picture_and_names_the_winner(browser: Any, web: ServerThread) -> None:
    page = new_page(browser, PHONE)
    kids_dragon(page, web)
    # The Dragon with no chip of the other side to take: crossed out, the playable cards lit.
    assert page.locator("#no-move img.pic[data-card='DRAGON']").is_visible()
    assert page.locator("#hand.flash").count() == 1
    assert page.locator("#hand .card.playable").count() >= 1
    assert page.locator("#hand .card[data-card='DRAGON'].playable").count() == 0
    # A wrong tap with an animal chosen: its spaces light up, the board does not move.
    legal = page.evaluate("() => window.seq.msg.view.legal_moves")
    card = next(m for m in legal if "@" in m).split("@")[0]
    page.click(f"#hand .card[data-card='{card}'] >> nth=0")
    targets = {g.get_attribute("data-space") for g in page.query_selector_all("#board g.target")}
    wrong = next(
        g.get_attribute("data-space")
        for g in page.query_selector_all("#board g.space")
        if g.get_attribute("data-space") not in targets and not g.query_selector(".chip")
    )
    before = page.locator("#board").bounding_box()
    page.click(f"#board g[data-space='{wrong}']")
    page.wait_for_selector(".board.flash")
    page.wait_for_selector("#error.floating")
    assert page.locator("#board").bounding_box() == before
    assert {
        g.get_attribute("data-space") for g in page.query_selector_all("#board g.target")
    } == targets
    # Ann resigns: the end names the winner, never "Team".
    resign(page)
    outcome = page.evaluate("() => window.seq.msg.view.outcome")
    shown = " ".join(page.inner_text("#end").split())
    assert "Team" not in shown, shown
    assert outcome["winner"] == 1, outcome
    assert page.inner_text("#end-reason") == "Ann resigned: the game is lost."
    assert page.inner_text("#result") == "You lost."
    assert page.inner_text("#winner") == "medium (bot) ■ wins!", shown  # the mark of its chips
    assert "The game lasted" in page.inner_text("#game-length")
    page.context.close()
