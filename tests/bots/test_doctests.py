"""The examples in the bots' and the tournament's docstrings run."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "sequence.bots",
    "sequence.bots.arena",
    "sequence.bots.errors",
    "sequence.bots.loading",
    "sequence.bots.specs",
    "sequence.bots.greedy",
    "sequence.bots.heuristic",
    "sequence.bots.levels",
    "sequence.bots.lookahead",
    "sequence.bots.mcts",
    "sequence.bots.explain",
    "sequence.bots.review",
    "sequence.bots.tournament.schedule",
    "sequence.bots.tournament.stats",
    "sequence.cli.tournament_output",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
