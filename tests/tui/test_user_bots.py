"""A user's ``module:Class`` bot in the terminal game: named as written, run in its own process."""

from __future__ import annotations

import argparse

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
