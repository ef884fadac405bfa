"""A user's ``module:Class`` bot in the terminal game: named as written, run in its own process."""

from __future__ import annotations

import argparse

import pytest

from sequence.cli.main import build_parser
from sequence.tui import cli


def parse(*argv: str) -> argparse.Namespace:
    args = build_parser("play").parse_args(["play", *argv])
    args.lang = args.lang or "en"
    return args


def test_seats_keep_a_users_class_name_as_written() -> None:
    setup = cli.setup_from_args(parse("--seats", "Human, mypackage.mybot:FirstMove@Depth=2 ,HARD"))
    assert setup.seats == ("human", "mypackage.mybot:FirstMove@Depth=2", "hard")


def test_vs_takes_a_level_in_any_case_and_a_class_as_written() -> None:
    assert cli.setup_from_args(parse("--vs", "HARD")).seats == ("human", "hard")
    setup = cli.setup_from_args(parse("--vs", "pkg.mod:MyBot"))
    assert setup.seats == ("human", "pkg.mod:MyBot")


def test_bots_started_for_a_game_that_cannot_start_are_stopped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from sequence.bots import Bot
    from sequence.tui import session as session_module
    from sequence.tui.session import GameSetup, Session

    closed: list[str] = []

    class Started(Bot):
        def close(self) -> None:
            closed.append("closed")

    def contained(kind: str, seed: int = 0, output: str = "stderr") -> Bot:
        if kind == "hard":
            raise ValueError("cannot start bot 'hard'")
        return Started(seed)

    monkeypatch.setattr(session_module, "contained_bot", contained)
    with pytest.raises(ValueError):
        Session.start(GameSetup(game="kids", players=3, seats=("human", "easy", "hard")))
    assert closed == ["closed"]
