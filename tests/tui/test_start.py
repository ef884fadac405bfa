"""The start screen offers what the engine declares."""

from __future__ import annotations

import re

from sequence.engine import GAME_NAMES, OPTIONS, SPECS, base_game
from sequence.tui.session import MAX_SEATS, player_counts, takes_option
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
