"""Pass-and-play in Debian's Chromium at a tablet's size, 820x1180 (issue 18).

Two people and a bot share one browser: the create form puts seats 1 and 2 "on this device", the
third is a bot. Between the people's turns a full-screen hand-over hides the table; it shows no
card, the spectators' view is all the page holds, and a reload during a hand-over comes back to
the hand-over. The game is short (``max_turns``, added to the create request) and played to its
end. ``SEQUENCE_SHOTS=docs/img`` saves the screenshots of the README and docs/server.md.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

import pytest

from .conftest import ServerThread

pytestmark = pytest.mark.browser

TABLET = {"viewport": {"width": 820, "height": 1180}, "has_touch": True}
SHOTS = os.environ.get("SEQUENCE_SHOTS")

WAIT_FOR_SOMETHING = """() => {
  const m = window.seq && window.seq.msg;
  if (document.querySelector("#handover")) return "handover";
  if (m && m.view && m.view.outcome && document.querySelector("#status")) return "over";
  const mine = m && m.view && m.you.seat !== null && m.view.legal_moves.length;
  if (mine && document.querySelector("#hand")) return "turn";
  return null;
}"""


def short_game(route: Any) -> None:
    """The create request with ``max_turns``: a whole game in a few seconds."""
    request = route.request
    if request.method != "POST":
        route.continue_()
        return
    body = json.loads(request.post_data)
    body["options"] = {**body.get("options", {}), "max_turns": 18}
    route.continue_(post_data=json.dumps(body))


def play_first_move(page: Any) -> None:
    """The first legal move of the hand shown, by clicks."""
    msg = page.evaluate("() => window.seq.msg")
    move = msg["view"]["legal_moves"][0]
    if "@" in move or ("x" in move and ":" not in move):
        card, space = move.split("@" if "@" in move else "x")
        page.click(f'#hand [data-card="{card}"]')
        page.click(f'#board g[data-space="{space}"].target')
    elif move.startswith(("dead:", "discard:", "draw:")):
        kind, card = move.split(":")
        if kind != "draw":
            page.click(f'#hand [data-card="{card}"]')
        page.click(f"#act-{kind}")
    else:
        page.click("#act-pass")
    page.wait_for_function(
        """(v) => !window.seq.msg || window.seq.msg.version > v
        || document.querySelector("#handover")""",
        arg=msg["version"],
        timeout=15000,
    )


def no_card_shown(page: Any) -> None:
    assert page.locator("#handover").is_visible()
    assert page.locator(".card").count() == 0
    assert page.locator("#hand").count() == 0
    held = page.evaluate("() => window.seq.msg && window.seq.msg.view && window.seq.msg.view.hand")
    assert held is None


def test_two_people_and_a_bot_on_one_tablet(browser: Any, web: ServerThread) -> None:
    ctx = browser.new_context(**TABLET)
    page = ctx.new_page()
    page.route("**/api/tables", short_game)
    page.goto(web.url + "/")
    page.wait_for_selector("#create")
    page.select_option("#players", "3")
    page.select_option("#seat-0", "local")
    page.fill("#local-name-0", "Anna")
    page.select_option("#seat-1", "local")
    page.fill("#local-name-1", "Ben")
    page.select_option("#seat-2", "random")
    page.click("#create")
    page.wait_for_selector("#start:not([disabled])")
    page.click("#start")
    handovers: list[str] = []
    turns = 0
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        handle = page.wait_for_function(WAIT_FOR_SOMETHING, timeout=15000)
        what = handle.json_value()
        if what == "over":
            break
        if what == "handover":
            name = page.locator("#handover h2").inner_text()
            assert "Anna" in name or "Ben" in name
            no_card_shown(page)
            if not handovers and SHOTS:
                page.screenshot(path=os.path.join(SHOTS, "web-passplay-handover.png"))
            if len(handovers) == 2:  # a reload during a hand-over: the hand-over again
                page.reload()
                page.wait_for_selector("#handover")
                no_card_shown(page)
            handovers.append(name)
            page.click("#reveal")
            page.wait_for_function(
                "() => document.querySelector('#hand') || "
                "(window.seq.msg && window.seq.msg.view && window.seq.msg.view.outcome)"
            )
            continue
        if turns == 1 and SHOTS:
            page.screenshot(path=os.path.join(SHOTS, "web-passplay-turn.png"))
        play_first_move(page)
        turns += 1
    else:
        raise AssertionError("the game did not end within a minute")
    assert turns >= 6
    assert any("Anna" in n for n in handovers) and any("Ben" in n for n in handovers)
    assert page.evaluate("() => window.seq.msg.view.outcome") is not None
    ctx.close()
