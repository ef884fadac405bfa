"""Command-line flags for a game configuration, shared by the commands that start games."""

from __future__ import annotations

import argparse
from typing import Any

from ..engine import GAME_NAMES, OPTIONS, Config, make_config


def add_config_arguments(parser: argparse.ArgumentParser) -> None:
    """``--game``, ``--players``, ``--teams`` and every rule option (``--option name=value``)."""
    parser.add_argument(
        "--game",
        default="classic",
        choices=GAME_NAMES,
        help="which game (draft = classic with the draft variant)",
    )
    parser.add_argument("--players", type=int, default=2, help="number of players (default 2)")
    parser.add_argument(
        "--teams",
        type=int,
        default=None,
        help="number of teams (default: each plays alone with 2-3 players and at Kids; else 2"
        " teams, or 3 for an odd count such as 9)",
    )
    parser.add_argument("--option", "-o", action="append", default=[], metavar="NAME[=VALUE]",
                        help="a rule option, repeatable: " + ", ".join(OPTIONS)
                        + " (a bare name means true)")  # fmt: skip


def parse_options(items: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in items:
        name, sep, value = item.partition("=")
        out[name.strip().replace("-", "_")] = value.strip() if sep else True
    return out


def config_from_args(args: argparse.Namespace) -> Config:
    """Build and check the configuration; raises ConfigError with a clear message."""
    return make_config(args.game, args.players, args.teams, **parse_options(args.option))


def describe(config: Config) -> str:
    """A configuration in words, e.g. ``Sequence: 4 players in 2 teams of 2; difficult``."""
    n = config.players
    if config.teams == n:
        who = f"{n} players, each alone"
    else:
        who = f"{n} players in {config.teams} teams of {config.team_size}"
    options = ", ".join(
        name if value is True else f"{name}={value}" for name, value in config.options().items()
    )
    return f"{config.spec.title}: {who}" + (f"; {options}" if options else "")


def plural(n: int, word: str) -> str:
    """``1 game``, ``2 games``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
