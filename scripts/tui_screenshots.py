#!/usr/bin/env python3
"""Screenshots of the terminal game for the docs: ``docs/img/tui-*.svg``.

Runs ``sequence play``'s app headless (Textual's test pilot, no terminal needed) on fixed games
against the random bot, plays a few moves by keys as a person would, and saves what the screen
shows as SVG:

- ``tui-classic-80x24.svg``: classic at 80x24 after a few moves, the log in words;
- ``tui-classic-4p-120x36.svg``: a 4-player team game at 120x36;
- ``tui-kids.svg``, ``tui-dice.svg``: Sequence for Kids and Sequence Dice at 80x24;
- ``tui-start.svg``: the start screen.

    .venv/bin/python scripts/tui_screenshots.py            # all of them
    .venv/bin/python scripts/tui_screenshots.py kids dice
"""

from __future__ import annotations

import _venv  # noqa: F401  (first: another Python runs this again with .venv's)

# isort: split
import argparse
import asyncio
from pathlib import Path

from textual.pilot import Pilot

from sequence.tui.app import SequenceApp
from sequence.tui.game import GameScreen
from sequence.tui.session import GameSetup, Session

OUT = Path(__file__).resolve().parents[1] / "docs" / "img"

SHOTS: dict[str, tuple[str, GameSetup | None, tuple[int, int], tuple[str, ...]]] = {
    "classic": (
        "tui-classic-80x24.svg",
        GameSetup(game="classic", players=2, seats=("human", "random"), seed=3),
        (80, 24),
        ("1", "enter", "2", "enter", "3", "enter", "1"),
    ),
    "classic-4p": (
        "tui-classic-4p-120x36.svg",
        GameSetup(game="classic", players=4, seats=("human", "random", "random", "random"), seed=5),
        (120, 36),
        ("1", "enter", "2", "enter"),
    ),
    "kids": (
        "tui-kids.svg",
        GameSetup(game="kids", players=3, seats=("human", "random", "random"), seed=2),
        (80, 24),
        ("1", "enter", "2"),
    ),
    "dice": (
        "tui-dice.svg",
        GameSetup(game="dice", players=2, seats=("human", "random"), seed=4),
        (80, 24),
        ("r",),
    ),
    "start": ("tui-start.svg", None, (80, 24), ()),
}


async def settle(pilot: Pilot[int], app: SequenceApp) -> None:
    """Wait until no bot is thinking (a person is to act, or a dialog or the end is up)."""
    for _ in range(400):
        await pilot.pause()
        screen = app.screen
        if not isinstance(screen, GameScreen) or screen.thinking is None:
            return


async def shoot(name: str) -> Path:
    filename, setup, size, keys = SHOTS[name]
    if setup is None:
        app = SequenceApp(setup=GameSetup(seed=7, seats=("human", "random")), lang="en")
    else:
        app = SequenceApp(session=Session.start(setup), lang="en", bot_delay=0)
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        for key in keys:
            await pilot.press(key)
            await settle(pilot, app)
        path = OUT / filename
        app.save_screenshot(filename=path.name, path=str(path.parent))
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("shots", nargs="*", choices=[[], *SHOTS], help="which (default: all)")
    names = parser.parse_args().shots or list(SHOTS)
    for name in names:
        print(asyncio.run(shoot(name)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
