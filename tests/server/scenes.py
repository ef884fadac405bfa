"""Moments of play in the web app, in Debian's Chromium through Playwright, shared by the
browser tests (which check what each shows) and ``scripts/screenshots.py`` (which photographs
them for docs/img). Each scene drives a page to its moment and returns; it checks nothing but
that the moment came.

A page here is one browser context at a screen size (:data:`SIZES`), opened by :func:`new_page`
with the page's language and any secrets (seat and host tokens) already in its storage; the
pages after the first are reached in the app (:func:`visit`), as a person's clicks would, so a
test of many pages pays for one load.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from typing import Any

import sqlalchemy

from .conftest import Client, ServerThread, create_table, join, start

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
TABLET = {"viewport": {"width": 820, "height": 1180}, "is_mobile": True, "has_touch": True}
LAPTOP = {"viewport": {"width": 1280, "height": 800}}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
SIZES = {"phone": PHONE, "tablet": TABLET, "laptop": LAPTOP}
"""The screens the issues name: a phone (390x844), a tablet (820x1180), a laptop (1280x800)."""
SMALL_PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
"""A small Android phone (360x740): the least screen the table is laid out for."""

FINGER = 44
"""The least a tap target measures on a touch screen (WCAG 2.5.5), in CSS pixels."""


def touch(page: Any) -> bool:
    """Whether the page is on a touch screen (where taps, not clicks, are made)."""
    return bool(page.evaluate("() => matchMedia('(pointer: coarse)').matches"))


def new_page(browser: Any, size: dict[str, Any], lang: str | None = None, **stored: str) -> Any:
    """A new page at ``size`` in a context of its own, not yet opened, whose storage holds the
    language ``lang`` and ``seq.KEY`` = value for each of ``stored``."""
    page = browser.new_context(**size).new_page()
    remember(page, **dict(stored, **({"lang": lang} if lang else {})))
    return page


def remember(page: Any, **stored: str) -> None:
    """Put ``seq.KEY`` = value in the page's storage for each of ``stored`` (a page not open
    yet: on every page it opens)."""
    items = {f"seq.{k}": v for k, v in stored.items()}
    if not items:
        return
    if page.url.startswith("http"):
        page.evaluate(
            "(items) => Object.entries(items).forEach(([k, v]) => localStorage.setItem(k, v))",
            items,
        )
    else:
        page.add_init_script(
            f"for (const [k, v] of Object.entries({json.dumps(items)})) localStorage.setItem(k, v);"
        )


def visit(page: Any, url: str, path: str) -> None:
    """Go to ``path`` in the app: a link followed in the open page (no reload), or the page
    loaded if the app is not open yet."""
    if page.url.startswith(url) and page.evaluate("() => typeof go === 'function'"):
        page.evaluate("(path) => go(path)", path)
    else:
        page.goto(url + path)


def tap(page: Any, selector_or_point: str | tuple[float, float]) -> None:
    """A tap on a touch screen, a click elsewhere: on the element, or at a point of the
    screen."""
    if isinstance(selector_or_point, str):
        if touch(page):
            page.tap(selector_or_point)
        else:
            page.click(selector_or_point)
        return
    x, y = selector_or_point
    if touch(page):
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)


# ---- the lobby and the rules --------------------------------------------------------------


def lobby(page: Any, url: str) -> None:
    """The first page, its lists of open tables and finished games loaded."""
    visit(page, url, "/")
    page.wait_for_selector("#open-tables :is(table, p)")
    page.wait_for_selector("#finished :is(table, p)")


def rules(page: Any, url: str, game: str) -> None:
    """How to play ``game``, its pictures loaded."""
    visit(page, url, f"/rules/{game}")
    page.wait_for_selector("#rules h2")
    page.wait_for_function(
        "() => [...document.querySelectorAll('#rules img')].every((i) => i.complete)"
    )


def resign_at_once(server: ServerThread, code: str, token: str) -> None:
    """The seat of ``token`` at the started table ``code`` resigns at once; wait for the end."""
    c = Client(server, code, token)
    c.wait(lambda s: s["view"] is not None)
    c.send({"type": "resign"})
    c.wait(lambda s: s["table"]["status"] == "finished")
    c.close()


def resigned_game(server: ServerThread, winner: str, loser: str, game: str = "classic") -> str:
    """A finished public game for two: ``loser`` resigns at once. Its code."""
    created = create_table(server, game=game, players=2, name=winner, seat=0)
    code = str(created["code"])
    other = join(server, code, loser)
    start(server, code, created["host_token"])
    resign_at_once(server, code, other["seat_token"])
    return code


def lost_to_a_bot(server: ServerThread, level: str = "medium") -> str:
    """A finished public game of Sequence for Kids that Ann resigned at once against the bot
    ``level``. Its code."""
    created = create_table(server, game="kids", players=2, name="Ann", seat=0, bots=[None, level])
    code = str(created["code"])
    start(server, code, created["host_token"])
    resign_at_once(server, code, created["seat_token"])
    return code


# ---- a table ----------------------------------------------------------------------------------


def state(page: Any) -> Any:
    """The last state the page's table holds (``window.seq.msg``)."""
    return page.evaluate("() => window.seq && window.seq.msg")


def act(page: Any) -> bool:
    """Make the first legal move by clicking, if this page may move; return whether it did."""
    msg = state(page)
    if not msg or not msg["view"] or msg["view"]["outcome"]:
        return False
    legal = msg["view"]["legal_moves"]
    if not legal:
        return False
    move = legal[0]
    version = msg["version"]
    if "@" in move or ("x" in move and not move.startswith(("dead:", "discard:"))):
        sep = "@" if "@" in move else "x"
        card, space = move.split(sep)
        page.click(f'#hand [data-card="{card}"]')
        page.click(f'#board g[data-space="{space}"].target')
    elif move.startswith("dead:"):
        page.click(f'#hand [data-card="{move[5:]}"]')
        page.click("#act-dead")
    elif move.startswith("discard:"):
        page.click(f'#hand [data-card="{move[8:]}"]')
        page.click("#act-discard")
    elif move == "pass":
        page.click("#act-pass")
    else:
        raise AssertionError(f"no UI path for {move}")
    page.wait_for_function(f"() => window.seq.msg.version > {version}", timeout=15000)
    return True


def play_until(page: Any, version: int, seconds: float = 60) -> None:
    """Make the page's moves (:func:`act`) until the game has reached ``version``."""
    deadline = time.monotonic() + seconds
    while state(page)["version"] < version:
        assert time.monotonic() < deadline, "the game did not move on"
        if not act(page):
            time.sleep(0.05)


def play_to_the_end(
    pages: Sequence[Any],
    before: Callable[[Any, Any], None] | None = None,
    after: Callable[[Any, Any, dict[str, Any]], None] | None = None,
    seconds: float = 240,
) -> None:
    """Play the game the ``pages`` sit at (one seat each) to its end, each making its first
    legal move by clicks (:func:`act`) in turn; ``before(mover, other)`` is called before each
    move, ``after(mover, other, state before the move)`` after it (``other``: the first page
    that is not the mover's)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        msg = state(pages[0])
        if msg["view"]["outcome"]:
            return
        seats = [state(p)["you"]["seat"] for p in pages]
        mover = (
            pages[seats.index(msg["view"]["to_move"])] if msg["view"]["to_move"] in seats else None
        )
        if mover is None:  # a bot's turn
            time.sleep(0.05)
            continue
        other = next((p for p in pages if p is not mover), None)
        if before:
            before(mover, other)
        if not act(mover):
            time.sleep(0.05)
            continue
        if after:
            after(mover, other, msg)
    raise AssertionError("the game did not finish in time")


def select_card(page: Any) -> None:
    """Choose the card of the hand that places a chip on the fewest spaces (a two-eyed Jack
    lights them all), so that its spaces are lit."""
    legal = page.evaluate("() => window.seq.msg.view.legal_moves")
    cards = [m.split("@")[0] for m in legal if "@" in m]
    card = min(cards, key=cards.count)
    if not page.locator("#hand .card.selected").count():  # a tap on a chosen card lets it go
        tap(page, f'#hand [data-card="{card}"] >> nth=0')
    page.wait_for_selector("#board g.target")


def play_a_card(page: Any) -> str:
    """Play the first card of the hand that places a chip, by taps; the card."""
    msg = state(page)
    card, space = next(m for m in msg["view"]["legal_moves"] if "@" in m).split("@")
    tap(page, f'#hand button.card[data-card="{card}"] >> nth=0')
    tap(page, f'#board g[data-space="{space}"].target')
    # (On a device several seats share, the page may have let go of the table for a hand-over.)
    page.wait_for_function(f"() => !window.seq.msg || window.seq.msg.version > {msg['version']}")
    return str(card)


def create_by_form(page: Any, url: str, name: str, game: str, players: int, **seats: str) -> str:
    """Fill the lobby's form as ``name`` (``seats``: ``seat_N`` = a bot level, or ``local``)
    and create the table; its code, the page at its lobby."""
    page.goto(url + "/")
    page.fill("#name", name)
    page.select_option("#game", game)
    page.select_option("#players", str(players))
    for seat, kind in seats.items():
        page.select_option(f"#{seat.replace('_', '-')}", kind)
    page.click("#create")
    page.wait_for_selector("#share")
    return str(page.get_attribute("#share", "href")).rsplit("/", 1)[1]


def two_at_a_table(browser: Any, url: str, game: str = "kids") -> tuple[Any, Any]:
    """Anna creates a table for two by the lobby's form on a laptop; Bob opens it on a phone
    and sits; Anna starts it. Their pages, at the board."""
    a = new_page(browser, LAPTOP)
    code = create_by_form(a, url, "Anna", game, 2)
    b = new_page(browser, PHONE)
    b.goto(f"{url}/t/{code}")
    b.fill("#join-name", "Bob")
    b.click('button.sit[data-seat="1"]')
    a.wait_for_function("() => window.seq.msg.table.seats[1].name === 'Bob'")
    a.click("#start")
    for page in (a, b):
        page.wait_for_selector("#board")
    return a, b


def my_turn(page: Any, code: str | None = None, timeout: float = 30000) -> None:
    """Wait until the page shows its table (``code``, if given) with a move of its own to
    make."""
    page.wait_for_function(
        """(code) => { const m = window.seq && window.seq.msg;
          return !!(m && (code === null || m.table.code === code) && m.view && !m.view.outcome
            && m.view.legal_moves.length > 0); }""",
        arg=code,
        timeout=timeout,
    )


def sit(page: Any, url: str, created: dict[str, Any], **stored: str) -> str:
    """Open the table ``created`` (an answer of ``POST /api/tables``) in ``page`` as its
    creator (seat and host rights, and ``stored``); its code."""
    code = str(created["code"])
    remember(
        page,
        **{f"seat.{code}": created["seat_token"], f"host.{code}": created["host_token"]},
        **stored,
    )
    visit(page, url, f"/t/{code}")
    page.wait_for_function(
        "(code) => window.seq.msg && window.seq.msg.table.code === code", arg=code
    )
    return code


def team_game(page: Any, server: ServerThread) -> str:
    """Ann at a started classic game of four in two teams with three random bots, at her turn;
    its code."""
    created = create_table(
        server, game="classic", players=4, teams=2, name="Ann", seat=0,
        bots=[None, "random", "random", "random"],
    )  # fmt: skip
    start(server, created["code"], created["host_token"])
    code = sit(page, server.url, created)
    my_turn(page, code)
    return code


BESIDE = """() => {
  const v = window.seq.msg.view;
  const at = (s) => [s.charCodeAt(0) - 97, Number(s.slice(1))];
  const name = (c, r) => String.fromCharCode(97 + c) + r;
  for (const card of v.hand) {
    const to = v.legal_moves.filter((m) => m.startsWith(card + '@')).map((m) => m.split('@')[1]);
    for (const s of to) {
      const [c, r] = at(s);
      for (const side of [-1, 1]) {  // a neighbour that is no space of this card, or the edge
        const n = name(c + side, r);
        if (!to.includes(n)) return [card, s, side];
      }
    }
  }
  return null;
}"""


def play_beside(page: Any) -> tuple[str, str | None]:
    """Play a card of the hand on one of its spaces by a tap (a click without a touch screen)
    ``FINGER / 2 - 1`` px beside the space's centre, on the side where no other space of that
    card lies: within the square a finger needs, so it plays there however small the space.
    The space played, and the space the tap landed on (``None``: the board's edge)."""
    found = page.evaluate(BESIDE)
    assert found, "no card with a space to play"
    card, space, side = found
    version = page.evaluate("() => window.seq.msg.version")
    tap(page, f'#hand button[data-card="{card}"] >> nth=0')
    cell = page.locator(f'#board g[data-space="{space}"] rect.cell')
    cell.scroll_into_view_if_needed()
    box = cell.bounding_box()
    x, y = box["x"] + box["width"] / 2 + side * (FINGER / 2 - 1), box["y"] + box["height"] / 2
    landed = page.evaluate(
        "([x, y]) => { const g = document.elementFromPoint(x, y).closest('g[data-space]');"
        " return g && g.dataset.space; }",
        [x, y],
    )
    tap(page, (x, y))
    page.wait_for_function(
        "([v, s]) => window.seq.msg.version > v && window.seq.msg.view.moves[v].endsWith('@' + s)",
        arg=[version, space],
        timeout=10000,
    )
    return str(space), landed


def dice_game(page: Any, server: ServerThread) -> str:
    """Ann at a started game of Sequence Dice against the random bot, her dice to roll; its
    code."""
    created = create_table(
        server, game="dice", players=2, name="Ann", seat=0, bots=[None, "random"]
    )
    start(server, created["code"], created["host_token"])
    code = sit(page, server.url, created)
    page.wait_for_selector("#act-roll", timeout=30000)
    return code


def roll(page: Any) -> None:
    """Roll the dice; wait for what the roll allows."""
    version = page.evaluate("() => window.seq.msg.version")
    tap(page, "#act-roll")
    page.wait_for_function(f"() => window.seq.msg.version > {version}")
    page.wait_for_selector("#roll-reason")


def dice_of_two(page: Any, server: ServerThread) -> tuple[Client, Client]:
    """Ann and Bob at a started game of Sequence Dice, both played through the server's
    WebSocket (the tests' :class:`~.conftest.Client`), Ann's seat shown in ``page``: their
    clients."""
    created = create_table(server, game="dice", players=2, name="Ann", seat=0)
    code = created["code"]
    bob = join(server, code, "Bob")
    start(server, code, created["host_token"])
    clients = Client(server, code, created["seat_token"]), Client(server, code, bob["seat_token"])
    remember(page, **{f"seat.{code}": created["seat_token"]})
    visit(page, server.url, f"/t/{code}")
    page.wait_for_selector("#board")
    return clients


def rolls_shown(page: Any, clients: tuple[Client, Client], most: int = 40) -> Iterator[int]:
    """Play the game of :func:`dice_of_two` (each seat rolls, then makes its first legal
    move), stopping at each roll once the page shows it with what it allows: yields the seat
    that rolled."""
    ann = clients[0]
    for _ in range(most):
        st = ann.wait(lambda s: s["view"] is not None)
        view, version = st["view"], st["version"]
        seat = view["to_move"]
        if view["roll"] is None:
            clients[seat].send({"type": "roll", "version": version})
        else:
            page.wait_for_function(
                "(v) => window.seq.msg.version >= v && document.querySelector('#roll-reason')",
                arg=version,
            )
            yield seat
            mover = clients[seat].wait(lambda s, v=version: s["version"] >= v)
            move = mover["view"]["legal_moves"][0]
            clients[seat].send({"type": "move", "move": move, "version": version})
        ann.wait_version(version + 1)


@cache
def dragon_first_seed() -> int:
    """A seed of Kids for two that deals seat 0 the Dragon and has it play first."""
    from sequence.engine import State, card_name, make_config

    config = make_config("kids", players=2)
    for seed in range(10_000):
        state = State.new(config, seed)
        if state.to_move == 0 and "DRAGON" in map(card_name, state.hand_of(0)):
            return seed
    raise AssertionError("no such seed")


def deal(server: ServerThread, code: str, seed: int) -> None:
    """Give table ``code`` (in its lobby) the deal of ``seed``, here and stored."""
    server.hub.registry.tables[code].seed = seed
    with sqlalchemy.create_engine(server.db).begin() as db:
        db.execute(
            sqlalchemy.text("UPDATE game_tables SET seed = :s WHERE code = :c"),
            {"s": seed, "c": code},
        )


def new_player(server: ServerThread, name: str = "Ann") -> dict[str, Any]:
    """A new guest player (``POST /api/players``): its ``player`` id and ``player_token``."""
    with server.http() as http:
        return dict(http.post("/api/players", json={"name": name}).json())


def against_a_bot(
    page: Any,
    server: ServerThread,
    game: str = "kids",
    level: str = "random",
    player: dict[str, Any] | None = None,
    rated: bool = False,
    seed: int | None = None,
) -> str:
    """Ann at a started game of ``game`` for two against the bot ``level``, as ``player``
    (:func:`new_player`, the page's player too), ``rated`` (on the casual clock) or not, dealt
    from ``seed`` if given; its code."""
    extra = {"rated": True, "clock": "casual"} if rated else {}
    token = player and player["player_token"]
    created = create_table(
        server, game=game, players=2, name="Ann", seat=0, bots=[None, level], player_token=token,
        **extra,
    )  # fmt: skip
    if seed is not None:
        deal(server, created["code"], seed)
    start(server, created["code"], created["host_token"])
    stored = {"player": json.dumps({"id": player["player"], "token": token})} if player else {}
    return sit(page, server.url, created, **stored)


def kids_dragon(page: Any, server: ServerThread, rated: bool = False) -> str:
    """Ann, a new player, at a game of Sequence for Kids against the medium bot (``rated``: a
    rated one) dealt so that she plays first with the Dragon, and no chip of the bot's to
    take: she has chosen the Dragon, which cannot be played. Its code."""
    player = new_player(server)
    code = against_a_bot(page, server, "kids", "medium", player, rated, dragon_first_seed())
    my_turn(page, code)
    tap(page, "#hand .card[data-card='DRAGON'] >> nth=0")
    page.wait_for_selector("#no-move .cross")
    return code


def resign(page: Any) -> str:
    """Resign, confirming the browser's question; wait for the end. The question asked."""
    asked: list[str] = []

    def confirm(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.accept()

    page.once("dialog", confirm)
    tap(page, "#resign")
    page.wait_for_selector("#end")
    return asked[0]


def kids_table(page: Any, server: ServerThread) -> str:
    """Ann at a started game of Sequence for Kids against the random bot, every picture
    loaded; its code."""
    code = against_a_bot(page, server)
    page.wait_for_selector("#hand button.card img.pic")
    page.wait_for_function(
        "() => [...document.querySelectorAll('img.pic')].every((i) => i.complete)"
    )
    return code


# ---- talk, accounts, ratings ------------------------------------------------------------------


def chat(page: Any, text: str) -> None:
    """Say ``text`` in the table's chat; wait until it is in the list."""
    page.fill("#chat-text", text)
    page.click("#chat-send")
    page.wait_for_selector("#talk-list li.chat")


def react(page: Any, reaction: str) -> None:
    """Send the quick reaction ``reaction`` (``well_played``...); wait until it is in the list."""
    page.click(f'#reactions button[data-reaction="{reaction}"]')
    page.wait_for_selector("#talk-list li.reaction")


PASSWORD = "green tea at nine"
"""The password of the accounts the scenes make."""


def sign(page: Any, url: str, form: str, name: str) -> None:
    """Sign up or in (``form``: ``signup`` or ``signin``) through the account page."""
    page.goto(url + "/account")
    page.fill(f"#{form}-name", name)
    page.fill(f"#{form}-password", PASSWORD)
    page.click(f"#{form}-form button[type=submit]")
    page.wait_for_selector("#signout")
    assert page.inner_text("#account-link") == name


def new_game_against_a_bot(page: Any, url: str) -> str:
    """Ann creates a game of Sequence for Kids against the random bot by the lobby's form and
    starts it; its code."""
    code = create_by_form(page, url, "Ann", "kids", 2, seat_1="random")
    page.wait_for_selector("#start:not([disabled])")
    page.click("#start")
    page.wait_for_selector("#board")
    return code


def table_code(page: Any) -> str:
    """The code of the table the page has gone to (quick play, a rated game)."""
    page.wait_for_function("() => location.pathname.startsWith('/t/')", timeout=20000)
    return str(page.evaluate("() => location.pathname")).rsplit("/", 1)[1]


def quick_play(page: Any, url: str, name: str, game: str, players: int, wait: int = 60) -> None:
    """Ask for quick play as ``name`` from the lobby (the page then waits for players, or
    goes to the table the player is seated at)."""
    page.goto(url + "/")
    page.fill("#name", name)
    page.select_option("#qp-game", game)
    page.select_option("#qp-players", str(players))
    page.select_option("#qp-wait", str(wait))
    page.click("#qp-start")


# ---- the first game that teaches ----------------------------------------------------------


def lesson(page: Any, url: str, game: str, lang: str) -> None:
    """The first game of ``game`` that teaches, at its first step."""
    page.goto(f"{url}/learn/{game}?lang={lang}")
    page.wait_for_selector("#board button")


def tap_beside_the_point(page: Any) -> None:
    """Tap ``FINGER / 2 - 1`` px left of the centre of the space the lesson points at, which
    a finger's tap must play however small the space; wait for the lesson's answer (the next
    step, or its refusal)."""
    step = page.inner_text(".step")
    space = page.locator(".lboard button.point").first
    space.scroll_into_view_if_needed()
    box = space.bounding_box()
    tap(page, (box["x"] + box["width"] / 2 - (FINGER / 2 - 1), box["y"] + box["height"] / 2))
    page.wait_for_function(
        "(step) => document.querySelector('#refused')"
        " || document.querySelector('.step').textContent !== step",
        arg=step,
    )
