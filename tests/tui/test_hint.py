"""The hint key ``h`` of a casual terminal game: the strongest bot's move from the player's own
view, and why, in the player's language; off (with a message) in a rated game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from sequence.bots.review import Reviewer
from sequence.tui.app import SequenceApp
from sequence.tui.game import GameScreen, hint_text
from sequence.tui.session import GameSetup, Session

from .helpers import settle

Snap = Callable[..., bool]


def app_for(lang: str, rated: bool = False, game: str = "classic") -> SequenceApp:
    setup = GameSetup(game=game, players=2, seats=("human", "random"), seed=3, rated=rated)
    return SequenceApp(session=Session.start(setup), lang=lang, bot_delay=0)


def keys_bar(app: SequenceApp) -> str:
    """The key bar under the board, as shown."""
    return str(app.screen.query_one("#keys", Static).render())


def asking(app: SequenceApp) -> Callable[[Pilot[Any]], Any]:
    """Settle, press ``h``, and wait for the hint (found in a worker thread)."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot, app)
        await pilot.press("h")
        screen = app.screen
        assert isinstance(screen, GameScreen)
        for _ in range(2000):
            if screen.hinted is not None or screen.session.hints_allowed is False:
                break
            await pilot.pause(0.02)
        await pilot.pause()

    return run_before


@pytest.mark.parametrize(("lang", "size"), [("en", (80, 24)), ("ru", (120, 40))])
def test_the_hint_is_shown_with_its_card_chosen(
    snap_compare: Snap, lang: str, size: tuple[int, int]
) -> None:
    app = app_for(lang)
    assert snap_compare(app, terminal_size=size, run_before=asking(app))


async def test_the_hint_is_the_seats_own_and_enter_plays_it() -> None:
    app = app_for("fr")
    async with app.run_test(size=(100, 32)) as pilot:
        await asking(app)(pilot)
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.hinted is not None
        view = screen.session.view(0)
        expected = Reviewer().hint(view)
        assert screen.hinted == expected
        assert str(screen.message) == hint_text(expected, screen._)
        assert "Conseil" in str(screen.message)
        assert "h conseil" in keys_bar(app)  # the key bar names the key
        before = len(screen.session.state.move_stack)
        await pilot.press("enter")
        await settle(pilot, app)
        assert screen.session.state.move_stack[before] == expected.move


async def test_a_rated_game_has_no_hints() -> None:
    app = app_for("en", rated=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await asking(app)(pilot)
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.hinted is None
        assert str(screen.message) == "Hints are off in a rated game."
        assert "h hint" not in keys_bar(app) and "? help" in keys_bar(app)
