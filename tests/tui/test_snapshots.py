"""Snapshots of the main screens at 80x24 (fixed seeds, no bot delay); the screens issue 21
fixed, in English and Russian, at 80x24 and 120x40."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot

from sequence.engine import GameRecord, State, make_config, play_random_game
from sequence.tui.app import SequenceApp
from sequence.tui.dialogs import GameOverScreen
from sequence.tui.replay_app import ReplayApp
from sequence.tui.session import GameSetup, Session
from sequence.tui.start import StartScreen

from .asleep_bot import Asleep
from .failing_bot import Failing
from .helpers import settle

Snap = Callable[..., bool]


def game(setup: GameSetup) -> SequenceApp:
    return SequenceApp(session=Session.start(setup), lang="en", bot_delay=0)


def waiting(app: SequenceApp, *keys: str) -> Callable[[Pilot[Any]], Any]:
    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot, app)
        for key in keys:
            await pilot.press(key)
            await settle(pilot, app)

    return run_before


def test_start_screen(snap_compare: Snap) -> None:
    app = SequenceApp(setup=GameSetup(seed=7, seats=("human", "random")), lang="en", bot_delay=0)
    assert snap_compare(app, terminal_size=(80, 24))


def test_classic_card_chosen(snap_compare: Snap) -> None:
    app = game(GameSetup(game="classic", players=2, seats=("human", "random"), seed=3))
    assert snap_compare(app, terminal_size=(80, 24), run_before=waiting(app, "1"))


def test_classic_after_a_few_moves_large_terminal(snap_compare: Snap) -> None:
    app = game(
        GameSetup(game="classic", players=4, seats=("human", "random", "random", "random"), seed=5)
    )
    assert snap_compare(
        app, terminal_size=(120, 36), run_before=waiting(app, "1", "enter", "2", "enter")
    )


def test_kids(snap_compare: Snap) -> None:
    app = game(GameSetup(game="kids", players=3, seats=("human", "random", "random"), seed=2))
    assert snap_compare(app, terminal_size=(80, 24), run_before=waiting(app, "2"))


def test_dice_after_a_roll(snap_compare: Snap) -> None:
    app = game(GameSetup(game="dice", players=2, seats=("human", "random"), seed=3))
    assert snap_compare(app, terminal_size=(80, 24), run_before=waiting(app, "r"))


def test_hotseat_handoff(snap_compare: Snap) -> None:
    app = game(GameSetup(game="classic", players=2, seats=("human", "human"), seed=3))
    assert snap_compare(app, terminal_size=(80, 24), run_before=waiting(app))


def test_game_over(snap_compare: Snap) -> None:
    state = play_random_game(State.new(make_config("classic", 2), seed=12), seed=12)
    record = GameRecord.from_state(state, tags={"Seat1": "human", "Seat2": "random"})
    app = SequenceApp(session=Session.load(record.to_json()), lang="en", bot_delay=0)
    assert snap_compare(app, terminal_size=(80, 24), run_before=waiting(app))


def test_replay(snap_compare: Snap) -> None:
    state = play_random_game(State.new(make_config("kids", 2), seed=4), seed=4)
    app = ReplayApp(GameRecord.from_state(state), lang="en")
    assert snap_compare(app, terminal_size=(80, 24), press=["home", "right", "right", "right"])


BOTH = pytest.mark.parametrize("lang", ["en", "ru"])
SIZES = pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])


@BOTH
@SIZES
def test_hint_names_the_mark_not_a_colour(
    snap_compare: Snap, lang: str, size: tuple[int, int]
) -> None:
    """A chosen card: "choose a space marked +" (team B is green); the side panel fits."""
    setup = GameSetup(game="classic", players=2, seats=("human", "random"), seed=3)
    app = SequenceApp(session=Session.start(setup), lang=lang, bot_delay=0)
    assert snap_compare(app, terminal_size=size, run_before=waiting(app, "1"))


@BOTH
@SIZES
def test_dice_hint_names_the_mark(snap_compare: Snap, lang: str, size: tuple[int, int]) -> None:
    setup = GameSetup(game="dice", players=2, seats=("human", "random"), seed=3)
    app = SequenceApp(session=Session.start(setup), lang=lang, bot_delay=0)
    assert snap_compare(app, terminal_size=size, run_before=waiting(app, "r"))


@BOTH
@SIZES
def test_the_loser_is_told_and_sequences_are_marked(
    snap_compare: Snap, lang: str, size: tuple[int, int]
) -> None:
    """ "You lost.", the winning sequences, how long; every sequence chip shows `=`."""
    state = play_random_game(State.new(make_config("classic", 2), seed=12), seed=12)
    record = GameRecord.from_state(state, tags={"Seat1": "human", "Seat2": "random"})
    app = SequenceApp(session=Session.load(record.to_json()), lang=lang, bot_delay=0)
    assert snap_compare(app, terminal_size=size, run_before=waiting(app))


@BOTH
@SIZES
def test_the_board_after_the_end(snap_compare: Snap, lang: str, size: tuple[int, int]) -> None:
    """The dialog closed: the status line says who won, the log shows the newest moves, the
    keys fit one line."""
    state = play_random_game(State.new(make_config("classic", 2), seed=12), seed=12)
    record = GameRecord.from_state(state, tags={"Seat1": "human", "Seat2": "random"})
    app = SequenceApp(session=Session.load(record.to_json()), lang=lang, bot_delay=0)
    assert snap_compare(app, terminal_size=size, run_before=waiting(app, "escape"))


@BOTH
@SIZES
def test_a_failing_bot_loses(snap_compare: Snap, lang: str, size: tuple[int, int]) -> None:
    session = Session.start(GameSetup(game="kids", players=2, seats=("random", "human"), seed=4))
    session.bots[0] = Failing()
    app = SequenceApp(session=session, lang=lang, bot_delay=0)
    assert snap_compare(app, terminal_size=size, run_before=waiting(app))


@BOTH
@SIZES
def test_hotseat_offers_no_undo(snap_compare: Snap, lang: str, size: tuple[int, int]) -> None:
    setup = GameSetup(game="dice", players=2, seats=("human", "human"), seed=3)
    app = SequenceApp(session=Session.start(setup), lang=lang, bot_delay=0)
    assert snap_compare(app, terminal_size=size, run_before=waiting(app))


@BOTH
@SIZES
def test_the_log_in_words(snap_compare: Snap, lang: str, size: tuple[int, int]) -> None:
    """Who dealt and why, then "You ● played A♥ on f2", "Bot 2 (random) ▲ played K♣ on e8"."""
    setup = GameSetup(game="classic", players=2, seats=("human", "random"), seed=3)
    app = SequenceApp(session=Session.start(setup), lang=lang, bot_delay=0)
    keys = ("1", "enter", "2", "enter")
    assert snap_compare(app, terminal_size=size, run_before=waiting(app, *keys))


@BOTH
@SIZES
def test_the_log_in_notation(snap_compare: Snap, lang: str, size: tuple[int, int]) -> None:
    """`l`: the same log in notation."""
    setup = GameSetup(game="classic", players=2, seats=("human", "random"), seed=3)
    app = SequenceApp(session=Session.start(setup), lang=lang, bot_delay=0)
    keys = ("1", "enter", "2", "enter", "l")
    assert snap_compare(app, terminal_size=size, run_before=waiting(app, *keys))


@BOTH
@SIZES
def test_dice_says_who_won_the_roll_off(
    snap_compare: Snap, lang: str, size: tuple[int, int]
) -> None:
    setup = GameSetup(game="dice", players=3, seats=("human", "random", "random"), seed=5)
    app = SequenceApp(session=Session.start(setup), lang=lang, bot_delay=0)
    assert snap_compare(app, terminal_size=size, run_before=waiting(app))


@BOTH
@SIZES
def test_kids_names_are_whole(snap_compare: Snap, lang: str, size: tuple[int, int]) -> None:
    """A name longer than a cell goes on in the cell's second line ("Gira" / "ffe")."""
    setup = GameSetup(game="kids", players=3, seats=("human", "random", "random"), seed=2)
    app = SequenceApp(session=Session.start(setup), lang=lang, bot_delay=0)
    assert snap_compare(app, terminal_size=size, run_before=waiting(app, "1", "enter"))


@BOTH
@SIZES
def test_start_screen_boxes_read_without_colour(
    snap_compare: Snap, lang: str, size: tuple[int, int]
) -> None:
    """[x] ticked, [ ] not; the bell is offered, off."""
    app = SequenceApp(setup=GameSetup(seed=7, seats=("human", "random")), lang=lang, bot_delay=0)
    assert snap_compare(app, terminal_size=size)


@BOTH
@SIZES
def test_after_a_forfeit_no_seat_is_to_play(
    snap_compare: Snap, lang: str, size: tuple[int, int]
) -> None:
    """The dialog closed: the table marks no seat with `▶`, the status says who lost."""
    session = Session.start(GameSetup(game="kids", players=2, seats=("random", "human"), seed=4))
    session.bots[0] = Failing()
    app = SequenceApp(session=session, lang=lang, bot_delay=0)
    assert snap_compare(app, terminal_size=size, run_before=waiting(app, "escape"))


async def until_over(pilot: Pilot[Any], app: SequenceApp, seconds: float = 15) -> None:
    """Wait (in real time: a time limit must pass) for the game-over dialog."""
    for _ in range(int(seconds / 0.05)):
        await pilot.pause(0.05)
        if isinstance(app.screen, GameOverScreen):
            await pilot.pause()
            return
    raise AssertionError("the game did not end")


@BOTH
@SIZES
def test_a_bot_that_never_answers_loses_at_the_time_limit(
    snap_compare: Snap, lang: str, size: tuple[int, int]
) -> None:
    """`--bot-time-limit 0.2`: the bot still thinking a second later loses, as in a tournament;
    the game says so instead of showing "thinking" for ever."""
    session = Session.start(GameSetup(game="kids", players=2, seats=("random", "human"), seed=4))
    session.bots[0] = Asleep()
    app = SequenceApp(session=session, lang=lang, bot_delay=0, bot_time_limit=0.2)

    async def run_before(pilot: Pilot[Any]) -> None:
        await until_over(pilot, app)

    assert snap_compare(app, terminal_size=size, run_before=run_before)
    assert session.forfeit is not None and session.forfeit.seat == 0
    assert session.forfeit.reason == "still thinking after 1.20 s; the limit is 0.20 s a move"
    assert session.forfeit.late is not None  # its code: the dialog says it in the player's words
    assert not session.state.move_stack or all(
        a != 0 for a in session.actors
    )  # its late answer was never played


USER_BOT = "mypackage.mybot:MyBot"


@BOTH
@SIZES
def test_a_new_game_keeps_ones_own_bot_in_its_seat(
    snap_compare: Snap, lang: str, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a game against one's own bot (a ``module:Class``), N on the result's New game: the
    start screen keeps the bot in its seat (it came up as Human), and so does the next game."""
    from sequence.tui import session as session_module

    monkeypatch.setattr(session_module, "contained_bot", lambda kind, seed=0, output="": Failing())
    setup = GameSetup(game="kids", players=2, seats=(USER_BOT, "human"), seed=4)
    app = SequenceApp(session=Session.start(setup), lang=lang, bot_delay=0)

    async def run_before(pilot: Pilot[Any]) -> None:
        await until_over(pilot, app)
        await pilot.press("enter")  # New game, the dialog's first button
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        chosen.append(app.screen.chosen().seats)

    chosen: list[tuple[str, ...]] = []
    assert snap_compare(app, terminal_size=size, run_before=run_before)
    assert chosen == [(USER_BOT, "human")]
