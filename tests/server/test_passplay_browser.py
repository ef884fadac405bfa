"""Pass-and-play in Debian's Chromium at a tablet's size, 820x1180 (issue 18).

Two people and a bot share one browser: the create form puts seats 1 and 2 "on this device", the
third is a bot. Between the people's turns a full-screen hand-over hides the table; it shows no
card, the spectators' view is all the page holds, and a reload during a hand-over comes back to
the hand-over. The game is short (``max_turns``, added to the create request) and played to its
end. A team game mixes the tablet's two seats with two players in browsers of their own, and
the table-talk penalty and the manual draw are played as a family would. (The screenshots of
the README and docs/server.md are made by ``scripts/screenshots.py``.)
"""

from __future__ import annotations

import base64
import json
import time
from typing import Any

import pytest

from .conftest import ServerThread

pytestmark = pytest.mark.browser

TABLET = {"viewport": {"width": 820, "height": 1180}, "has_touch": True}

WAIT_FOR_SOMETHING = """() => {
  const m = window.seq && window.seq.msg;
  if (document.querySelector("#handover")) return "handover";
  if (m && m.view && m.view.outcome && document.querySelector("#status")) return "over";
  const mine = m && m.view && m.you.seat !== null && m.view.legal_moves.length;
  if (mine && document.querySelector("#hand")) return "turn";
  return null;
}"""


def short_game(turns: int = 18) -> Any:
    """A route handler adding ``max_turns`` to the create request: a whole game in seconds."""

    def handle(route: Any) -> None:
        request = route.request
        if request.method != "POST":
            route.continue_()
            return
        body = json.loads(request.post_data)
        body["options"] = {**body.get("options", {}), "max_turns": turns}
        route.continue_(post_data=json.dumps(body))

    return handle


def play_first_move(page: Any) -> None:
    """The first legal move of the hand shown, by clicks."""
    msg = page.evaluate("() => window.seq.msg")
    move = msg["view"]["legal_moves"][0]
    if "@" in move or ("x" in move and ":" not in move):
        card, space = move.split("@" if "@" in move else "x")
        page.click(f'#hand [data-card="{card}"]')
        page.click(f'#board g[data-space="{space}"].target')
    elif move.startswith(("dead:", "discard:", "draw:", "forfeit:")):
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
    """The hand-over covers the page: no card, no board, no hand in the page's memory."""
    assert page.locator("#handover").is_visible()
    assert page.locator(".card").count() == 0
    assert page.locator("#hand").count() == 0
    assert page.locator("#board").count() == 0
    text = page.inner_text("body")
    assert not any(suit in text for suit in "♠♥♦♣"), text
    held = page.evaluate("() => window.seq.msg && window.seq.msg.view && window.seq.msg.view.hand")
    assert held is None


def fill_the_form(
    page: Any,
    url: str,
    people: tuple[str, ...],
    bots: tuple[str, ...] = (),
    players: int | None = None,
    teams: int | None = None,
    options: tuple[str, ...] = (),
) -> None:
    """Open the lobby at ``url`` and fill its create form: ``people`` (their names) sit at this
    device in the first seats, ``bots`` (levels) take the next ones; ``players`` (the number of
    seats: all of them by default), ``teams`` and the checked ``options`` as given."""
    page.goto(url + "/")
    page.wait_for_selector("#create")
    page.select_option("#players", str(players or len(people) + len(bots)))
    if teams is not None:
        page.select_option("#teams", str(teams))
    for option in options:
        page.check(f"#opt-{option}")
    for seat, name in enumerate(people):
        page.select_option(f"#seat-{seat}", "local")
        page.fill(f"#local-name-{seat}", name)
    for seat, level in enumerate(bots, len(people)):
        page.select_option(f"#seat-{seat}", level)


def test_two_people_and_a_bot_on_one_tablet(browser: Any, web: ServerThread) -> None:
    ctx = browser.new_context(**TABLET)
    page = ctx.new_page()
    page.route("**/api/tables", short_game())
    fill_the_form(page, web.url, ("Anna", "Ben"), ("random",))
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
        play_first_move(page)
        turns += 1
    else:
        raise AssertionError("the game did not end within a minute")
    assert turns >= 6
    assert any("Anna" in n for n in handovers) and any("Ben" in n for n in handovers)
    assert page.evaluate("() => window.seq.msg.view.outcome") is not None
    # A rematch: the same people, so the same seats on this tablet, handed over as before.
    first = page.evaluate("() => window.seq.code")
    page.click("#rematch")
    page.wait_for_function("(code) => window.seq.code && window.seq.code !== code", arg=first)
    page.wait_for_selector("#handover")
    no_card_shown(page)
    seats = page.evaluate("() => window.seq.msg.table.seats.map((s) => s.connected)")
    assert seats == [True, True, True]
    ctx.close()


SHOT_COLOURS = """async (data) => {
  const img = new Image();
  img.src = "data:image/png;base64," + data;
  await img.decode();
  const c = document.createElement("canvas");
  c.width = img.width; c.height = img.height;
  const g = c.getContext("2d");
  g.drawImage(img, 0, 0);
  const px = g.getImageData(0, 0, c.width, c.height).data;
  const [r0, g0, b0] = [px[0], px[1], px[2]];
  let red = 0, background = 0;
  for (let i = 0; i < px.length; i += 4) {
    const [r, gr, b] = [px[i], px[i + 1], px[i + 2]];
    if (r > 150 && gr < 90 && b < 90) red++;
    if (r === r0 && gr === g0 && b === b0) background++;
  }
  return { red, background: background / (px.length / 4) };
}"""
"""What a screenshot (PNG, base64) shows, decoded by the browser: how many pixels are a red
suit's colour, and the share of the background's (the top-left pixel's)."""


def shows_no_card(browser: Any, png: bytes) -> None:
    """The screenshot is the hand-over alone: its background nearly everywhere, and not one
    pixel of a red suit (a card of the hand or a space of the board)."""
    viewer = browser.new_page()
    try:
        seen = viewer.evaluate(SHOT_COLOURS, base64.b64encode(png).decode())
    finally:
        viewer.close()
    assert seen["red"] == 0, seen
    assert seen["background"] > 0.85, seen


PRESENT = """(seats) => {
  const m = window.seq && window.seq.msg;
  if (!m || !m.view || m.view.outcome) return true;
  const here = seats.every((s) => m.table.seats[s].connected);
  return here && !document.querySelector("button.to-bot");
}"""
"""Whether a page shows ``seats`` as present: connected, and no "Hand to a bot" button."""


def sit(browser: Any, url: str, name: str, seat: int) -> Any:
    """A remote player in a browser of their own takes ``seat``."""
    page = browser.new_context(**TABLET).new_page()
    page.goto(url)
    page.wait_for_selector(f'button.sit[data-seat="{seat}"]')
    page.fill("#join-name", name)
    page.click(f'button.sit[data-seat="{seat}"]')
    page.wait_for_function(f"() => window.seq.msg && window.seq.msg.you.seat === {seat}")
    return page


def test_a_team_game_two_on_the_tablet_and_two_remote(
    browser: Any, web: ServerThread, tmp_path: Any
) -> None:
    """Four players in two teams: Anna and Ben share the tablet, Cleo and Dan play from their
    own browsers. Every hand-over is photographed and shows no card; a reload, and the back
    button, during a hand-over come back to it; the tablet's seats are never away for the
    others (no "Hand to a bot") while it is open; the game is played to its end."""
    ctx = browser.new_context(**TABLET)
    tablet = ctx.new_page()
    tablet.route("**/api/tables", short_game(16))
    fill_the_form(tablet, web.url, ("Anna", "Ben"), players=4, teams=2)
    with tablet.expect_request("**/api/tables") as created:
        tablet.click("#create")
    body = json.loads(created.value.post_data)
    assert body["local"] == [{"seat": 1, "name": "Ben"}]  # one request for both seats
    tablet.wait_for_selector("#start")
    code = tablet.evaluate("() => window.seq.code")
    cleo = sit(browser, f"{web.url}/t/{code}", "Cleo", 2)
    dan = sit(browser, f"{web.url}/t/{code}", "Dan", 3)
    tablet.wait_for_selector("#start:not([disabled])")
    # both seats: "On this device" (waited for: the page draws after the message)
    tablet.wait_for_function("() => document.querySelectorAll('.badge.local').length === 2")
    tablet.click("#start")
    remote = {2: cleo, 3: dan}
    handovers: list[str] = []
    turns = {0: 0, 1: 0, 2: 0, 3: 0}
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        for page in (cleo, dan):
            assert page.evaluate(PRESENT, [0, 1]), "a seat of the tablet shows as away"
        what = tablet.evaluate(WAIT_FOR_SOMETHING)
        if what == "over":
            break
        if what == "handover":
            name = tablet.locator("#handover h2").inner_text()
            png = tablet.screenshot(path=str(tmp_path / f"handover-{len(handovers)}.png"))
            no_card_shown(tablet)
            shows_no_card(browser, png)
            if len(handovers) == 1:  # a reload during a hand-over: the hand-over again
                tablet.reload()
                tablet.wait_for_selector("#handover")
                no_card_shown(tablet)
            if len(handovers) == 2:  # back and forward again: still the hand-over
                tablet.go_back()
                tablet.wait_for_selector("#create")
                tablet.go_forward()
                tablet.wait_for_selector("#handover")
                no_card_shown(tablet)
            handovers.append(name)
            tablet.click("#reveal")
            tablet.wait_for_function(
                "() => document.querySelector('#hand') || "
                "(window.seq.msg && window.seq.msg.view && window.seq.msg.view.outcome)"
            )
            continue
        if what == "turn":
            seat = tablet.evaluate("() => window.seq.msg.you.seat")
            play_first_move(tablet)
            turns[seat] += 1
            continue
        for seat, page in remote.items():
            if page.evaluate(WAIT_FOR_SOMETHING) == "turn":
                play_first_move(page)
                turns[seat] += 1
        time.sleep(0.05)
    else:
        raise AssertionError(f"the game did not end within two minutes: {turns}")
    assert all(n >= 3 for n in turns.values()), turns
    assert len(handovers) >= 6
    assert any("Anna" in n for n in handovers) and any("Ben" in n for n in handovers)
    for page in (tablet, cleo, dan):
        page.wait_for_function("() => window.seq.msg.view && window.seq.msg.view.outcome")
    # Nobody was handed to a bot. The host's rights moved only while the reload and the back
    # button had the tablet's page closed (a hand-over's reconnection keeps them).
    events = tablet.evaluate("() => window.seq.msg.table.events")
    assert {e["kind"] for e in events} <= {"host"}, events
    assert len(events) <= 4, events
    ctx.close()


def reveal(page: Any, name: str, keyboard: bool = False) -> dict[str, Any]:
    """Wait for the hand-over to ``name``, check it hides everything, then tap (or press
    Enter: the button has the focus); return the state shown."""
    page.wait_for_selector("#handover")
    assert name in page.locator("#handover h2").inner_text()
    no_card_shown(page)
    if keyboard:
        assert page.evaluate("() => document.activeElement.id") == "reveal"
        page.keyboard.press("Enter")
    else:
        page.click("#reveal")
    page.wait_for_selector("#hand")
    msg: dict[str, Any] = page.evaluate("() => window.seq.msg")
    return msg


def sizes(page: Any) -> list[int]:
    return list(page.evaluate("() => window.seq.msg.view.hand_sizes"))


def test_the_penalty_and_the_manual_draw_with_two_on_the_tablet(
    browser: Any, web: ServerThread
) -> None:
    """Anna and Ben (teams A and B) share the tablet, two bots are their partners; the draw is
    manual. The host's table-talk penalty on team B hands the tablet to Ben, who gives up a card
    of his own; Anna's open draw keeps her hand (never Ben's) until she draws, and only then is
    the tablet handed over; Ben's draw left open lapses when the next seat has played and drawn,
    and his hand is hidden then."""
    ctx = browser.new_context(**TABLET)
    page = ctx.new_page()
    fill_the_form(
        page, web.url, ("Anna", "Ben"), ("random", "random"), teams=2, options=("manual_draw",)
    )
    page.click("#create")
    page.wait_for_selector("#start:not([disabled])")
    page.click("#start")
    # Whoever the deal names first, play on until Anna's turn (Ben leaves his draw, if any).
    while "Anna" not in page.wait_for_selector("#handover h2").inner_text():
        reveal(page, "Ben")
        play_first_move(page)
    msg = reveal(page, "Anna")
    assert msg["you"]["seat"] == 0 and msg["view"]["to_move"] == 0
    anna_hand = msg["view"]["hand"]
    base = sizes(page)
    assert base[0] == 6

    # Table talk in team B: the tablet goes to Ben, who gives up a card of his own.
    page.click("#penalty")  # a confirmation that explains it, no team chosen for the host
    page.check('#penalty-dialog input[value="B"]')
    page.click("#penalty-confirm")
    msg = reveal(page, "Ben", keyboard=True)
    assert msg["you"]["seat"] == 1
    assert "Ben, your turn" in page.locator("#turn").inner_text()
    ben_hand = msg["view"]["hand"]
    assert ben_hand != anna_hand
    assert all(m.startswith("forfeit:") for m in msg["view"]["legal_moves"])
    assert page.locator("#actions").inner_text().startswith("Table talk")
    card = ben_hand[0]
    page.click(f'#hand [data-card="{card}"]')
    page.click("#act-forfeit")
    # The bot partner gives up its card too, then play goes back to Anna: handed over again.
    msg = reveal(page, "Anna")
    assert msg["view"]["hand"] == anna_hand  # Anna kept every card
    assert sizes(page) == [base[0], base[1] - 1, base[2], base[3] - 1]
    assert msg["view"]["discards"][1][-1] == card

    # Anna plays; her draw is open while Ben is to play: her hand stays, no hand-over yet.
    play_first_move(page)
    page.wait_for_selector("#act-draw")
    msg = page.evaluate("() => window.seq.msg")
    assert msg["you"]["seat"] == 0 and msg["view"]["to_move"] == 1
    assert page.locator("#handover").count() == 0
    assert "Ben" in page.locator("#draw-first").inner_text()
    assert sizes(page)[0] == 5  # played, not drawn yet
    page.reload()  # a reload keeps Anna's hand, never Ben's
    page.wait_for_selector("#act-draw")
    assert page.evaluate("() => window.seq.msg.you.seat") == 0
    page.click("#act-draw")
    msg = reveal(page, "Ben")
    assert sizes(page)[:2] == [6, base[1] - 1]

    # Ben plays and leaves his draw: the bot after him plays and draws, and Ben's draw lapses.
    play_first_move(page)
    page.wait_for_function(
        "() => document.querySelector('#handover') || (window.seq.msg && window.seq.msg.view"
        " && window.seq.msg.you.seat === null)",
        timeout=15000,
    )
    msg = reveal(page, "Anna")
    assert msg["view"]["hand_sizes"][1] == base[1] - 2  # one forfeited, one played, no draw
    assert not any(m.startswith("draw:") for m in msg["view"]["legal_moves"])
    ctx.close()


def test_a_second_player_sits_at_the_same_device_in_the_lobby(
    browser: Any, web: ServerThread
) -> None:
    """A friend's link opened on a tablet: Anna sits, then "Sit here too" seats Ben at the same
    tablet; from the start it hands over between them, and both seats are present."""
    with web.http() as http:
        r = http.post("/api/tables", json={"game": "classic", "players": 2}).json()
    page = browser.new_context(**TABLET).new_page()
    page.goto(f"{web.url}/t/{r['code']}")
    page.wait_for_selector('button.sit[data-seat="0"]')
    page.fill("#join-name", "Anna")
    page.click('button.sit[data-seat="0"]')
    page.wait_for_selector('button.sit-too[data-seat="1"]')
    page.fill("#too-name", "Ben")
    page.click('button.sit-too[data-seat="1"]')
    page.wait_for_function(
        "() => window.seq.msg && window.seq.msg.table.seats.every((s) => s.kind === 'human')"
    )
    # The message comes before the page draws it: wait for the drawing, then count.
    page.wait_for_function("() => document.querySelectorAll('.badge.local').length === 2")
    assert page.locator("button.sit, button.sit-too").count() == 0
    with web.http() as http:
        http.post(f"/api/tables/{r['code']}/start", json={"host_token": r["host_token"]})
    page.wait_for_selector("#handover")
    no_card_shown(page)
    name = page.locator("#handover h2").inner_text()
    assert "Anna" in name or "Ben" in name
    page.click("#reveal")
    page.wait_for_selector("#hand")
    with web.http() as http:
        seats = http.get(f"/api/tables/{r['code']}").json()["seats"]
    assert [(s["name"], s["connected"]) for s in seats] == [("Anna", True), ("Ben", True)]
    play_first_move(page)
    page.wait_for_selector("#handover")
    assert page.locator("#handover h2").inner_text() != name  # the other one now
    page.context.close()
