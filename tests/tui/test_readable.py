"""Issue 21, the terminal's second pass: the log in words (who starts and why, who moved, which
card, whose chip), the notation one key away, the bell on request, ticked boxes that read
without colour, no `▶` after a forfeit."""

from __future__ import annotations

import pytest
from rich.text import Text

from sequence.engine import GameRecord, State, make_config, play_random_game
from sequence.tui import cli
from sequence.tui.app import SequenceApp
from sequence.tui.narration import move_lines, setup_lines
from sequence.tui.session import GameSetup, Session
from sequence.tui.widgets import Gettext, players_text, story_text

from .failing_bot import Failing
from .helpers import screen_text, settle
from .test_cli import parse


def test_moves_in_words_name_the_player_the_card_and_whose_chip() -> None:
    state = State.new(make_config("classic", 2), seed=3)
    state.push_text(str(next(m for m in state.legal_moves if m.space is not None)))
    names = ["Anna", "Bot"]
    line = move_lines(state, names, 1, Gettext("en"))[0].plain
    assert line.startswith("Anna ● played ") and " on " in line
    assert move_lines(state, names, 1, Gettext("ru"))[0].plain.startswith("Anna ● сыграл(а) ")


def test_a_roll_says_what_it_is_for() -> None:
    state = State.new(make_config("dice", players=2), seed=1)
    state.push_text("roll:4+6")
    lines = move_lines(state, ["Bot", "Anna"], None, Gettext("en"))
    assert [t.plain for t in lines] == ["Anna ▲ rolled 4+6 = 10: defence"]


def test_who_starts_and_why_in_each_game() -> None:
    _ = Gettext("en")
    names = ["You", "Bot"]
    for game, words in (
        ("classic", ("Cut for dealer: ", "cut lowest and deals")),
        ("kids", ("was drawn to deal",)),
        ("dice", ("Roll-off: ", "rolled highest and plays first")),
    ):
        state = State.new(make_config(game, 2), seed=3)
        text = "\n".join(t.plain for t in setup_lines(state.setup, state.view(None), names, _))
        first = names[state.to_move]
        assert all(w in text for w in words), (game, text)
        assert (
            f"{first} ● plays first" in text
            or f"{first} ▲ plays first" in text
            or (game == "dice" and first in text.splitlines()[-1])
        )


def test_the_log_keeps_the_newest_lines_that_fit() -> None:
    lines = [Text(f"move {n} " + "word " * (n % 3)) for n in range(50)]
    shown = story_text(lines, "Moves", 12, 6).plain.splitlines()
    assert shown[0] == "Moves" and "move 49" in "\n".join(shown)
    assert "move 40" not in "\n".join(shown)


def test_no_seat_is_marked_to_play_once_the_game_is_lost() -> None:
    view = State.new(make_config("kids", 2), seed=4).view(None)
    assert "▶" in players_text(view, ["A", "B"], Gettext("en"), None).plain
    assert "▶" not in players_text(view, ["A", "B"], Gettext("en"), None, over=True).plain


async def test_l_shows_the_log_in_notation_and_back() -> None:
    setup = GameSetup(game="classic", players=2, seats=("human", "random"), seed=3)
    app = SequenceApp(session=Session.start(setup), lang="en", bot_delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        for key in ("1", "enter"):
            await pilot.press(key)
            await settle(pilot, app)
        text = screen_text(app)
        assert "You ● played" in text and "Cut for dealer" in text
        notation = str(app.game_screen.session.state.move_stack[0])
        await pilot.press("l")
        text = screen_text(app)
        assert "You ● played" not in text and "  1. " in text
        assert notation in text
        await pilot.press("l")
        assert "You ● played" in screen_text(app)


async def test_the_log_of_a_loaded_game_shows_its_last_moves() -> None:
    state = play_random_game(State.new(make_config("classic", 2), seed=12), seed=12)
    record = GameRecord.from_state(state, tags={"Seat1": "human", "Seat2": "random"})
    session = Session.load(record.to_json())
    last = move_lines(session.state, ["You", "Bot 2 (random)"], 0, Gettext("en"))[-1].plain
    app = SequenceApp(session=session, lang="en", bot_delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        await pilot.press("escape")
        assert last[:25] in screen_text(app)


async def test_the_bell_rings_on_your_turn_only_when_asked() -> None:
    for bell in (False, True):
        setup = GameSetup(game="classic", players=2, seats=("human", "random"), seed=3, bell=bell)
        app = SequenceApp(session=Session.start(setup), lang="en", bot_delay=0)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            await pilot.press("1", "enter")
            await settle(pilot, app)
            rung = app.game_screen.bells
        assert (rung >= 2) if bell else rung == 0


def test_bell_flag() -> None:
    assert not cli.setup_from_args(parse("--vs", "random")).bell
    assert cli.setup_from_args(parse("--vs", "random", "--bell")).bell


async def test_the_start_screen_ticks_with_a_mark_and_offers_the_bell() -> None:
    app = SequenceApp(setup=GameSetup(seed=7, seats=("human", "random")), lang="en", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "[x] Undo" in text and "[ ] Difficult" in text and "[ ] Bell on your turn" in text
        await pilot.click("#bell")
        await pilot.pause()
        assert "[x] Bell on your turn" in screen_text(app)
        assert app.screen.chosen().bell  # type: ignore[attr-defined]


async def test_after_a_forfeit_the_table_marks_nobody_to_play() -> None:
    session = Session.start(GameSetup(game="kids", players=2, seats=("random", "human"), seed=4))
    session.bots[0] = Failing()
    app = SequenceApp(session=session, lang="en", bot_delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        assert session.forfeit is not None
        assert "▶" not in screen_text(app, under=True)


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_the_help_says_how_to_close_it_and_fits_a_small_terminal(lang: str) -> None:
    """`?` at 80x24: the box says, under its title, that Escape closes it, and stays on the
    screen (its list scrolls); Escape closes it."""
    from textual.containers import VerticalScroll

    from sequence.tui.dialogs import HelpScreen

    _ = Gettext(lang)
    setup = GameSetup(game="classic", players=2, seats=("human", "random"), seed=3)
    app = SequenceApp(session=Session.start(setup), lang=lang, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        box = app.screen.query_one(VerticalScroll).region
        assert box.y >= 0 and box.bottom <= 24, box
        close = app.screen.query_one("#close-help").region
        assert close.y < 5 and str(app.screen.query_one("#close-help").render()) == _(
            "Escape (or ?) closes this help."
        )
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)
