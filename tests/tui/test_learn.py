"""``sequence learn`` in the terminal: each first game played to its end with the keys a learner
presses; a key the step does not want is refused in words and changes nothing; snapshots."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from sequence.cli.main import main
from sequence.engine import MoveKind
from sequence.i18n import SUPPORTED
from sequence.learn import LESSONS
from sequence.tui.learn_app import LessonApp

Snap = Callable[..., bool]


def keys_for(app: LessonApp) -> list[str]:
    """The keys that do the current step: roll, choose its card, go to its space, act."""
    lesson = app.lesson
    step = lesson.step
    assert step is not None
    keys = ["r"] if step.roll is not None else []
    view = lesson.view()
    move = step.accepted[0]
    if move.card is not None:
        assert view.hand is not None
        keys.append(str(view.hand.index(move.card) + 1))
    if move.kind is MoveKind.DEAD:
        return [*keys, "x"]
    return [*keys, "enter"]  # the cursor starts on the step's first space


@pytest.mark.parametrize("game", sorted(LESSONS))
async def test_each_first_game_is_played_to_its_end_with_keys(game: str) -> None:
    app = LessonApp(game, "en")
    async with app.run_test(size=(100, 32)) as pilot:
        for _ in LESSONS[game].steps:
            for key in keys_for(app):
                await pilot.press(key)
            await pilot.pause()
            assert not app.message, app.message
        assert app.lesson.over
        says = str(app.query_one("#says", Static).render())
        assert "won" in says


async def test_a_wrong_space_is_refused_in_the_learners_language() -> None:
    app = LessonApp("classic", "de")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("1", "down", "enter")  # 3D chosen, the cursor off its space
        await pilot.pause()
        assert app.message and app.lesson.index == 0
        await pilot.press("up", "enter")
        await pilot.pause()
        assert app.lesson.index == 1 and not app.message


def test_sequence_learn_prints_the_walkthrough_off_a_terminal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["learn", "dice", "--lang", "uk"]) == 0
    out = capsys.readouterr().out
    assert "10 — захист" in out and "f3" in out and out.count(" + ") >= 6  # the learner's rolls
    assert NOTATION.search(out) is None
    with pytest.raises(SystemExit) as exited:
        main(["learn", "kids", "--lang", "xx"])
    assert exited.value.code == 2


NOTATION = re.compile(r"@|roll:[1-6]|dead:|\b[2-9TJQKA][SHDC]x[a-j]")
"""A move written as the engine's notation (``3D@d3``, ``roll:2+4``, ``dead:6H``, ``JSxh4``)."""


@pytest.mark.parametrize("game", ["classic", "kids", "dice"])
@pytest.mark.parametrize("lang", SUPPORTED)
def test_the_printed_lesson_says_its_moves_in_words(
    game: str, lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["learn", game, "--print", "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert NOTATION.search(out) is None, NOTATION.search(out)
    assert out.count("\n   ") >= 5  # each step's move, and the computer's answers


def waiting(*keys: str) -> Callable[[Pilot[Any]], Any]:
    async def run_before(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        for key in keys:
            await pilot.press(key)
            await pilot.pause()

    return run_before


def test_snapshot_classic_first_step(snap_compare: Snap) -> None:
    assert snap_compare(LessonApp("classic", "en"), terminal_size=(80, 24))


def test_snapshot_classic_one_eyed_jack_chosen_russian(snap_compare: Snap) -> None:
    app = LessonApp("classic", "ru")
    assert snap_compare(app, terminal_size=(100, 32), run_before=waiting("1", "enter", "2"))


def test_snapshot_kids_dragon(snap_compare: Snap) -> None:
    app = LessonApp("kids", "en")
    assert snap_compare(app, terminal_size=(80, 24), run_before=waiting("1", "enter"))


def test_snapshot_dice_rolled_ten(snap_compare: Snap) -> None:
    app = LessonApp("dice", "fr")
    assert snap_compare(app, terminal_size=(80, 24), run_before=waiting("r", "enter", "r"))
