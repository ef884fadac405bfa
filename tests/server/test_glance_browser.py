"""What a person reads at the table, in Debian's Chromium at 1280x800 and 390x844 (issue 21).

Two people play Sequence for Kids to the end, one on a desktop and one on a phone: the log line
of each move names its player and card, the tab's title says whose turn it is, the phone's board
has spaces of 36 px and labels of 12 px or more with coordinates on its edges, the winner's page
says they won and the loser's that they lost, with the winning sequence drawn. A Dice player sees
the roll as two dice and its explanation before acting. No text needs a hover, and every
character on the pages has a glyph in the installed fonts.

``scripts/screenshots.py won dice-phone`` photographs the same moments for the README and
docs/server.md.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from sequence.i18n import catalog_json

from .conftest import ServerThread
from .scenes import PHONE, play_to_the_end, state, two_at_a_table

pytestmark = pytest.mark.browser


# Characters with no glyph draw as the same box as a private-use character: compare pixels.
MISSING_GLYPHS = """(chars) => {
  const font = getComputedStyle(document.body).font;
  const canvas = document.createElement("canvas");
  canvas.width = 40; canvas.height = 40;
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  const draw = (c) => { ctx.clearRect(0, 0, 40, 40); ctx.font = font.replace(/\\d+px/, "28px");
    ctx.fillText(c, 4, 30); return ctx.getImageData(0, 0, 40, 40).data.join(","); };
  const box = draw("\\uE000");
  return [...new Set(chars)].filter((c) => c.trim() && draw(c) === box);
}"""
PAGE_CHARS = """() => document.body.innerText + [...document.querySelectorAll("svg text, button")]
  .map((e) => e.textContent).join("")"""


def missing_glyphs(page: Any) -> list[str]:
    chars = page.evaluate(PAGE_CHARS)
    result: list[str] = page.evaluate(MISSING_GLYPHS, list(chars))
    return result


def nothing_only_on_hover(page: Any) -> None:
    """No tooltip (title attribute) and no style that shows something only under the pointer."""
    assert page.evaluate("() => document.querySelectorAll('[title]').length") == 0
    hover_rules = page.evaluate(
        """() => [...document.styleSheets].flatMap((s) => [...s.cssRules])
        .map((r) => r.cssText).filter((t) => t.includes(":hover"))"""
    )
    assert hover_rules == []


def test_glyph_check_finds_a_missing_glyph(browser: Any, web: ServerThread) -> None:
    page = browser.new_page()
    page.goto(web.url + "/")
    page.wait_for_selector("#create")
    # The replay page's old buttons: no font of Debian's Chromium has these.
    assert page.evaluate(MISSING_GLYPHS, ["⏮", "⏭", "A", "♥", "●"]) == ["⏮", "⏭"]
    assert missing_glyphs(page) == []
    page.close()


def test_two_people_read_the_game_to_its_end(browser: Any, web: ServerThread) -> None:
    a, b = two_at_a_table(browser, web.url)
    en = catalog_json("en")["messages"]

    # The phone's board: the whole width, spaces of 36 px or more, labels of 12 px or more.
    size = b.evaluate(
        """() => { const cell = document.querySelector("#board g[data-space] rect");
        const r = cell.getBoundingClientRect();
        const tx = document.querySelector("#board g[data-space] text");
        const edge = document.querySelector("#board text.edge");
        const scale = document.querySelector("#board").getScreenCTM().a;
        return { w: r.width, h: r.height, label: parseFloat(getComputedStyle(tx).fontSize) * scale,
                 edge: parseFloat(getComputedStyle(edge).fontSize) * scale,
                 board: document.querySelector("#board").getBoundingClientRect().width }; }"""
    )
    assert size["w"] >= 36 and size["h"] >= 36, size
    assert size["label"] >= 12 and size["edge"] >= 11, size
    assert size["board"] >= 370, size
    assert b.text_content("#board text.edge >> nth=0") == "a"

    titles_checked = 0
    lines_checked = 0

    def before(me: Any, other: Any) -> None:
        nonlocal titles_checked
        if titles_checked < 4:  # the title says it on the mover's tab, and only there
            me.wait_for_function("() => document.title.startsWith('Your turn')")
            assert not other.title().startswith("Your turn")
            assert me.inner_text("#turn") == "Your turn"
            titles_checked += 1

    def after(me: Any, other: Any, msg: dict[str, Any]) -> None:
        nonlocal lines_checked
        last = state(other)["view"]["log"][-1]
        if last["card"] and lines_checked < 6:  # the log names the player and the card
            animal = last["card"].capitalize()
            name = "Anna" if msg["view"]["to_move"] == 0 else "Bob"
            # The message is in before the log is drawn from it: read the line until it is there.
            card, deadline = en.get(animal, animal), time.monotonic() + 5
            line = other.inner_text("#log li:last-child")
            while not (name in line and card in line) and time.monotonic() < deadline:
                time.sleep(0.05)
                line = other.inner_text("#log li:last-child")
            assert name in line and card in line, (line, last)
            lines_checked += 1

    play_to_the_end([a, b], before, after)
    assert titles_checked == 4 and lines_checked >= 4
    outcome = state(a)["view"]["outcome"]
    winner, loser = (a, b) if outcome["winner"] == 0 else (b, a)
    winner.wait_for_selector("#end")
    loser.wait_for_selector("#end")
    assert winner.inner_text("#result") == "You won!"
    assert loser.inner_text("#result") == "You lost."
    for page in (a, b):
        assert page.locator("#board line.seqline").count() >= 1
        assert "turn" in page.inner_text("#game-length")
        assert page.inner_text("#winning-sequences").startswith(("●", "■"))
        assert page.locator("#to-replay").is_visible() and page.locator("#to-lobby").is_visible()
        assert not page.title().startswith("Your turn")
        nothing_only_on_hover(page)
        assert missing_glyphs(page) == []
    # Notation one click away, and back.
    a.click("#log-notation")
    assert a.inner_text("#log li:first-child") == state(a)["view"]["moves"][0]
    a.click("#log-notation")
    assert "Anna" in a.inner_text("#log") or "Bob" in a.inner_text("#log")
    # The replay page's buttons are words every font shows.
    a.click("#to-replay")
    a.wait_for_selector("#board")
    assert a.inner_text("#first") == "First" and a.inner_text("#last") == "Last"
    assert missing_glyphs(a) == []
    for page in (a, b):
        page.context.close()


def test_every_dice_roll_is_explained_before_the_player_acts(
    browser: Any, web: ServerThread
) -> None:
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    page.goto(web.url + "/")
    page.fill("#name", "Dana")
    page.select_option("#game", "dice")
    page.select_option("#players", "2")
    page.select_option("#seat-1", "random")
    page.click("#create")
    page.click("#start")
    page.wait_for_selector("#board")
    explained = 0
    deadline = time.monotonic() + 60
    while explained < 8 and time.monotonic() < deadline:
        msg = state(page)
        view = msg["view"]
        if view["outcome"]:
            break
        if msg["table"]["chance"] and view["to_move"] == 0:
            page.click("#act-roll")
            page.wait_for_function(f"() => window.seq.msg.version > {msg['version']}")
            continue
        if view["legal_moves"]:
            # Before acting: two dice faces, the total and what it allows.
            page.wait_for_selector("#roll-reason")
            dice = page.eval_on_selector_all("#dice svg.die", "s => s.map(e => e.dataset.value)")
            assert dice == [str(d) for d in view["roll"]]
            assert page.inner_text("#dice-total") == f"= {sum(view['roll'])}"
            reason = page.inner_text("#roll-reason")
            assert len(reason) > 20
            if view["legal_moves"] == ["pass"]:
                assert "pass" in reason, reason
            explained += 1
            move = view["legal_moves"][0]
            if move == "pass":
                page.click("#act-pass")
            else:
                page.click(f'#board g[data-space="{move[1:]}"].target')
            page.wait_for_function(f"() => window.seq.msg.version > {msg['version']}")
        else:
            time.sleep(0.05)
    assert explained >= 4
    nothing_only_on_hover(page)
    assert missing_glyphs(page) == []
    ctx.close()
