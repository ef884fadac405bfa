"""What a newcomer to the web app found unclear, in Debian's Chromium through Playwright: the
account page offers e-mail only where the server sends it, and its "Delete my account" looks
dangerous and still asks first; the new-table form names the bot that takes over for a player
(out of time, resigned from a team, replaced), with or without a clock; the end screen says the
turns and, where they differ, the moves the log numbers; the players panel says what its discard
card is; the replay's "Move 3 of 86" is in line with its buttons, and the move log fades a line
scrolled half out instead of cutting it. (The open-tables rule for games their players left:
test_api.py, test_cluster_lazy.py.)"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import pytest

from sequence.server.notify.mail import MailConfig
from sequence.server.notify.notifier import NotifyConfig

from .conftest import Client, ServerThread, create_table, free_port, start
from .scenes import LAPTOP, new_page, sign, visit
from .test_accounts import account_server

pytestmark = pytest.mark.browser

DANGER = "rgb(138, 28, 23)"
"""The background of ``button.danger`` (style.css)."""


@pytest.fixture
def no_mail(sqlite_url: str) -> Iterator[ServerThread]:
    with account_server(sqlite_url) as srv:
        yield srv


def test_no_mail_server_offers_no_email_and_deleting_looks_dangerous_and_asks(
    module_browser: Any, no_mail: ServerThread
) -> None:
    page = module_browser.new_context().new_page()
    sign(page, no_mail.url, "signup", f"ann{secrets.token_hex(3)}")
    page.wait_for_selector("#notify-save")
    assert page.locator("#notify-email, #notify-email-on").count() == 0
    assert page.inner_text("#notify-no-email") == "This server sends no e-mail."
    page.check("#notify-push-on")  # the choices left still save
    page.click("#notify-save")
    page.wait_for_selector("#notify [role=status] .notice")
    saved = page.evaluate("() => fetch('/api/notify').then((r) => r.json())")
    assert (saved["push_on"], saved["email"], saved["email_on"]) == (True, None, False)
    # Deleting: the danger style, unlike the other forms' buttons; the question still asked.
    delete = page.locator("#delete-form button[type=submit]")
    assert delete.get_attribute("class") == "danger"
    assert delete.evaluate("(b) => getComputedStyle(b).backgroundColor") == DANGER
    change = page.locator("#password-form button[type=submit]")
    assert change.evaluate("(b) => getComputedStyle(b).backgroundColor") != DANGER
    asked: list[str] = []

    def refuse(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", refuse)
    page.fill("#delete-password", "green tea at nine")
    delete.click()
    page.wait_for_timeout(300)
    assert asked and asked[0].startswith("Delete your account?")
    account = page.evaluate("() => fetch('/api/account').then((r) => r.json())")
    assert account["signed_in"] is True  # refused: nothing deleted
    page.context.close()


def test_a_server_with_mail_offers_email(module_browser: Any, sqlite_url: str) -> None:
    mail = MailConfig("127.0.0.1", free_port(), sender="games@sequence.test", security="none")
    with account_server(sqlite_url, notify=NotifyConfig(mail=mail)) as srv:
        page = module_browser.new_context().new_page()
        sign(page, srv.url, "signup", f"bea{secrets.token_hex(3)}")
        page.wait_for_selector("#notify-save")
        assert page.locator("#notify-email").is_visible()
        assert page.locator("#notify-email-on").is_visible()
        assert page.locator("#notify-no-email").count() == 0
        page.context.close()


def test_the_bot_that_takes_over_is_offered_with_or_without_a_clock(
    module_browser: Any, web: ServerThread
) -> None:
    # It plays for a player out of time, one who resigns from a team or one the host replaces.
    page = new_page(module_browser, LAPTOP)
    page.goto(web.url + "/")
    page.wait_for_selector("#clock")
    assert page.input_value("#clock") == "off"
    for clock in ("off", "casual", "off"):
        page.select_option("#clock", clock)
        assert page.locator("#bot-level-choice").is_visible()
        assert "takes over for a player" in page.inner_text("#bot-level-choice")
    page.context.close()


def drawn_by_hand_then_resigned(server: ServerThread) -> dict[str, Any]:
    """Ann against the random bot at classic with the manual draw (a turn of two moves: the
    card, then the draw) for a few moves, then she resigns. The table as created."""
    created = create_table(
        server, game="classic", players=2, name="Ann", seat=0, bots=[None, "random"],
        options={"manual_draw": True},
    )  # fmt: skip
    start(server, created["code"], created["host_token"])
    ann = Client(server, created["code"], created["seat_token"])
    st = ann.wait(lambda s: s["view"] is not None)
    while st["version"] < 6:
        st = ann.wait(lambda s: bool(s["view"]["legal_moves"]))
        version = st["version"]
        ann.send({"type": "move", "move": st["view"]["legal_moves"][0], "version": version})
        st = ann.wait(lambda s, v=version: s["version"] > v)
    ann.send({"type": "resign"})
    ann.wait(lambda s: s["table"]["status"] == "finished")
    ann.close()
    return created


def test_the_end_counts_turns_and_moves_the_panel_names_the_discard_the_replay_lines_up(
    module_browser: Any, web: ServerThread
) -> None:
    created = drawn_by_hand_then_resigned(web)
    code = created["code"]
    page = new_page(module_browser, LAPTOP, **{f"seat.{code}": created["seat_token"]})
    visit(page, web.url, f"/t/{code}")
    page.wait_for_selector("#end #game-length")
    view = page.evaluate("() => window.seq.msg.view")
    turns, moves = view["turns"], len(view["moves"])
    assert moves > turns  # the draws are moves of their own
    assert page.inner_text("#game-length") == (
        f"The game lasted {turns} turn{'s' * (turns != 1)} ({moves} moves in the move list, "
        "where exchanging a dead card, drawing or rolling the dice counts as a move)."
    )
    assert page.locator("#log li").count() == moves  # the list it speaks of
    # The top card of each pile, said in words, and explained on hover.
    badge = page.locator("#players .top-discard").first
    assert badge.inner_text().startswith("top discard: ")
    assert badge.get_attribute("title") is None  # nothing only on hover (a phone has none)
    # The log's list fades at its top edge, under the fixed lines, rather than cutting a line.
    mask = page.locator("#log ol").evaluate(
        "(ol) => { const s = getComputedStyle(ol); return [s.maskImage || s.webkitMaskImage,"
        " parseFloat(s.paddingTop)]; }"
    )
    assert "linear-gradient" in mask[0] and mask[1] > 0
    # The replay: "Move 1 of N" centred on its buttons' line.
    visit(page, web.url, f"/replay/{code}")
    page.wait_for_selector("#board")
    page.click("#next")
    page.wait_for_function("() => document.querySelector('#ply').textContent.startsWith('Move 1')")
    label, button = page.locator("#ply").bounding_box(), page.locator("#next").bounding_box()
    middle = lambda box: box["y"] + box["height"] / 2  # noqa: E731
    assert abs(middle(label) - middle(button)) <= 1.5
    assert label["height"] < button["height"]  # not stretched to the row: its text centred
    page.context.close()
