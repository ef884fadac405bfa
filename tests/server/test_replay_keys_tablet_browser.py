"""Three things a newcomer's trial found, in Debian's Chromium: the replay page tells each move in
words (the same sentences as the table's log and the terminal's, in the reader's language), a
card chosen by its number puts the keyboard cursor on its first legal space as the terminal does
(so Enter plays it), and on a landscape tablet (1180x820) the whole board is on the screen
without scrolling.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from .conftest import Client, ServerThread, create_table, start

pytestmark = pytest.mark.browser

TABLET = {"viewport": {"width": 1180, "height": 820}, "is_mobile": True, "has_touch": True}
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
MARKS = ["●", "■", "▲", "◆"]


def card_text(card: str) -> str:
    return ("10" if card[0] == "T" else card[0]) + SUITS[card[1]]


def sit(page: Any, web: ServerThread, created: dict[str, Any]) -> None:
    """Open the table as the creator's seat (its tokens in this browser's storage)."""
    code = created["code"]
    page.goto(web.url + "/")
    page.evaluate(
        f"() => {{ localStorage.setItem('seq.seat.{code}', '{created['seat_token']}');"
        f" localStorage.setItem('seq.host.{code}', '{created['host_token']}'); }}"
    )
    page.goto(web.url + f"/t/{code}")
    page.wait_for_selector("#board")


def finished_game(web: ServerThread) -> tuple[str, list[dict[str, Any]]]:
    """A short game of classic Sequence, Ann (seat 0) against a bot, played to its end over the
    WebSocket; its code and the public facts of its moves (the replay's log)."""
    options = {"max_turns": 8}
    created = create_table(
        web, game="classic", players=2, bots=[None, "random"], name="Ann", seat=0, options=options
    )
    code = created["code"]
    start(web, code, created["host_token"])
    ann = Client(web, code, created["seat_token"])
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, "the game did not end"
        st = ann.wait(lambda s: s["view"] is not None)
        if st["view"]["outcome"]:
            break
        if st["view"]["legal_moves"]:
            ann.send(
                {"type": "move", "move": st["view"]["legal_moves"][0], "version": st["version"]}
            )
        ann.wait_version(st["version"] + 1)
    ann.close()
    with web.http() as http:
        plies = http.get(f"/api/tables/{code}/replay/0").json()["plies"]
        log: list[dict[str, Any]] = http.get(f"/api/tables/{code}/replay/{plies}").json()["view"][
            "log"
        ]
    assert len(log) == plies >= 4
    return code, log


def test_the_replay_tells_each_move_in_words(browser: Any, web: ServerThread) -> None:
    code, log = finished_game(web)
    names = {0: f"Ann {MARKS[0]}", 1: f"random (bot) {MARKS[1]}"}
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.goto(web.url + f"/replay/{code}")
    page.wait_for_selector("#board")
    assert page.inner_text("#replay-move") == ""  # before the first move: nothing happened yet
    placed = 0
    for ply, entry in enumerate(log, 1):
        page.click("#next")
        page.wait_for_function(
            f"() => document.querySelector('#ply').textContent.startsWith('Move {ply} of')"
        )
        said = page.inner_text("#replay-move")
        assert page.get_attribute("#replay-move", "data-move") == entry["move"]
        assert said != entry["move"] and names[entry["seat"]] in said, (said, entry)
        if entry["kind"] == "place" and entry["card"]:
            placed += 1
            who = names[entry["seat"]]
            assert said == f"{who} played {card_text(entry['card'])} on {entry['space']}"
        # The moves so far, each in words, the notation one click away.
        items = page.locator("#log li")
        assert items.count() == ply
        assert items.nth(ply - 1).inner_text() == said
    assert placed >= 2
    page.click("#log-notation")
    page.wait_for_selector("#log.notation")
    assert page.inner_text("#log li >> nth=0") == log[0]["move"]
    page.click("#log-notation")
    page.wait_for_selector("#log:not(.notation)")
    # In French, the same facts in French words (the catalogue's, as at the table).
    page.select_option("#lang", "fr")
    page.wait_for_function("() => document.documentElement.lang === 'fr'")
    page.wait_for_selector("#board")
    page.click("#next")
    page.wait_for_function("() => document.querySelector('#replay-move').textContent !== ''")
    first = log[0]
    said = page.inner_text("#replay-move")
    if first["kind"] == "place" and first["card"]:
        who = "Ann ●" if first["seat"] == 0 else "aléatoire (bot) ■"
        assert said == f"{who} a joué {card_text(first['card'])} sur {first['space']}"
    assert "played" not in said
    page.close()


CURSOR = "() => document.querySelector('#board g.cursor').dataset.space"


def reading_order(space: str) -> tuple[int, int]:
    return int(space[1:]), ord(space[0])


def spaces_of(card: str, legal: list[str]) -> list[str]:
    """Where the server says ``card`` may go (its moves ``card@space`` and ``cardxspace``)."""
    return sorted(
        (m[len(card) + 1 :] for m in legal if m.startswith((card + "@", card + "x"))),
        key=reading_order,
    )


def test_a_card_chosen_by_its_number_puts_the_cursor_on_its_first_space(
    browser: Any, web: ServerThread
) -> None:
    created = create_table(web, game="classic", players=2, bots=[None, "random"], name="Ann")
    start(web, created["code"], created["host_token"])
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    sit(page, web, created)
    page.wait_for_function("() => window.seq.msg.view.legal_moves.length > 0", timeout=20000)
    # No cursor until the keyboard is used (on a touch screen it would read as a selection);
    # then it starts on a1.
    assert page.locator("#board g.cursor").count() == 0
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    assert page.evaluate(CURSOR) == "a1"
    msg = page.evaluate("() => window.seq.msg")
    hand, legal = msg["view"]["hand"], msg["view"]["legal_moves"]
    playable = [(i, spaces_of(card, legal)) for i, card in enumerate(hand)]
    playable = [(i, spaces) for i, spaces in playable if spaces]
    assert playable, legal
    # Each playable card in turn: its number, and the cursor is on its first space.
    for index, spaces in playable:
        page.keyboard.press(str(index + 1))
        page.wait_for_selector(f'#hand button[data-index="{index}"].selected')
        assert page.evaluate(CURSOR) == spaces[0], (hand[index], spaces)
        assert page.locator("#board g.cursor.target").count() == 1
        assert "you can play here" in page.inner_text("#cursor-says")
    # Moved by the arrows, the cursor stays where the player put it while the card is chosen.
    page.keyboard.press("ArrowRight")
    moved = page.evaluate(CURSOR)
    page.evaluate("() => renderTable()")
    assert page.evaluate(CURSOR) == moved
    # The card chosen by its number, then Enter: played on that space.
    index, spaces = playable[0]
    page.keyboard.press(str(index + 1))
    page.wait_for_function(f"() => {CURSOR[6:]} === '{spaces[0]}'")
    version = msg["version"]
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => window.seq.msg.version > {version}")
    made = next(e for e in page.evaluate("() => window.seq.msg.view.log") if e["seat"] == 0)
    assert (made["card"], made["space"]) == (hand[index], spaces[0])
    page.close()


def test_after_a_dice_roll_the_cursor_is_on_a_space_the_roll_allows(
    browser: Any, web: ServerThread
) -> None:
    created = create_table(web, game="dice", players=2, bots=[None, "random"], name="Ann")
    start(web, created["code"], created["host_token"])
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    sit(page, web, created)
    for _ in range(6):
        page.wait_for_selector("#act-roll", timeout=20000)
        version = page.evaluate("() => window.seq.msg.version")
        page.focus("#act-roll")  # rolled with the keyboard: the cursor shows
        page.keyboard.press("Enter")
        page.wait_for_function(f"() => window.seq.msg.version > {version}")
        legal = page.evaluate("() => window.seq.msg.view.legal_moves")
        spaces = sorted({m[1:] for m in legal if m[0] in "@=x"}, key=reading_order)
        if spaces:
            assert page.evaluate(CURSOR) == spaces[0]
            version = page.evaluate("() => window.seq.msg.version")
            page.keyboard.press("Enter")
            page.wait_for_function(f"() => window.seq.msg.version > {version}")
            return
        page.click("#act-pass")
    pytest.fail("no roll allowed a chip in six turns")


WHOLE_BOARD = """() => {
  const spaces = [...document.querySelectorAll("#board g[data-space] rect.cell")]
    .map((r) => r.getBoundingClientRect());
  const edges = [...document.querySelectorAll("#board text.edge")]
    .map((t) => t.getBoundingClientRect());
  const out = [...spaces, ...edges].filter((r) =>
    r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth);
  return { spaces: spaces.length, outside: out.length,
           cell: Math.min(...spaces.map((r) => r.width)), scrolled: scrollY, height: innerHeight };
}"""


@pytest.mark.parametrize("game", ["classic", "kids", "dice"])
def test_the_whole_board_is_visible_on_a_landscape_tablet(
    browser: Any, web: ServerThread, game: str
) -> None:
    created = create_table(web, game=game, players=2, bots=[None, "random"], name="Ann")
    start(web, created["code"], created["host_token"])
    ctx = browser.new_context(**TABLET)
    page = ctx.new_page()
    sit(page, web, created)
    seen = page.evaluate(WHOLE_BOARD)
    assert seen["height"] == 820 and seen["scrolled"] == 0
    assert seen["spaces"] >= 36 and seen["outside"] == 0, seen  # the last row included
    assert seen["cell"] >= 60, seen  # fitted, not shrunk to nothing
    ctx.close()
