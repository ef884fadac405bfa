"""The start screen offers what the engine declares."""

from __future__ import annotations

import re

from sequence.engine import GAME_NAMES, OPTIONS, SPECS, base_game, player_counts, takes_option
from sequence.tui.session import MAX_SEATS
from sequence.tui.start import GAME_TITLES


def test_each_games_label_names_the_player_counts_the_engine_takes() -> None:
    assert set(GAME_TITLES) == set(GAME_NAMES)
    for game, label in GAME_TITLES.items():
        counts = player_counts(game)
        numbers = [int(n) for n in re.findall(r"\d+", label)]
        assert numbers in ([counts[0], counts[-1]], list(counts)), (game, label, counts)


def test_options_offered_are_those_the_engine_applies() -> None:
    assert max(max(spec.player_counts) for spec in SPECS.values()) == MAX_SEATS
    for game in GAME_NAMES:
        for name in ("difficult", "manual_draw", "dice_line_length"):
            if takes_option(game, name):
                assert base_game(game)[0] in OPTIONS[name].games
    assert not takes_option("draft", "manual_draw") and takes_option("draft", "difficult")


async def test_a_new_game_keeps_the_last_games_settings() -> None:
    from textual.widgets import Select

    from sequence.tui.app import SequenceApp
    from sequence.tui.session import GameSetup, Session

    setup = GameSetup(game="kids", players=3, seats=("human", "random", "random"), seed=2)
    app = SequenceApp(session=Session.start(setup), lang="en", bot_delay=0)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        app.game_screen.new_game()
        await pilot.pause()
        assert app.screen.query_one("#game", Select).value == "kids"
        assert app.screen.query_one("#players", Select).value == 3
