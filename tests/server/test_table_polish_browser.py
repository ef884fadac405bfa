"""The web table as friends, families and a child play it (issue 32), in Debian's Chromium at
phone (390x844) and laptop (1280x800) sizes: the table-talk penalty is never one tap, what the
other players did is marked on the board and said in the log, which stays in view.

``SEQUENCE_SHOTS=docs/img`` saves the screenshots the README shows.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from .conftest import ServerThread, create_table

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
LAPTOP = {"viewport": {"width": 1280, "height": 800}}
SIZES = pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["phone", "laptop"])
SHOTS = os.environ.get("SEQUENCE_SHOTS")


def seated(browser: Any, server: ServerThread, size: dict[str, Any], **body: Any) -> Any:
    """A page seated at a new table created with ``body`` (the creator's seat and host rights
    in its storage), started, at the creator's first turn."""
    created = create_table(server, **body)
    code = created["code"]
    ctx = browser.new_context(**size)
    page = ctx.new_page()
    page.goto(server.url + "/")
    page.evaluate(
        f"() => {{ localStorage.setItem('seq.seat.{code}', '{created['seat_token']}');"
        f" localStorage.setItem('seq.host.{code}', '{created['host_token']}'); }}"
    )
    page.goto(server.url + f"/t/{code}")
    page.click("#start")
    page.wait_for_function(
        "() => window.seq.msg && window.seq.msg.view && window.seq.msg.view.to_move === 0"
        " && window.seq.msg.view.legal_moves.length > 0",
        timeout=20000,
    )
    return page


@SIZES
def test_the_penalty_is_a_confirmation_that_explains_it(
    browser: Any, web: ServerThread, size: dict[str, Any]
) -> None:
    page = seated(
        browser, web, size, game="classic", players=4, teams=2,
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
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["viewport"]["width"]
    if SHOTS and size is PHONE:
        page.screenshot(path=os.path.join(SHOTS, "web-penalty-phone.png"))
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
    page.wait_for_selector("#log li:has-text('Table-talk penalty for team B')")
    page.context.close()
