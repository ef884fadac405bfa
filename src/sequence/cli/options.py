"""Command-line flags for a game configuration, shared by the commands that start games."""

from __future__ import annotations

import argparse
from typing import Any

from ..engine import OPTIONS, Config, make_config


def add_config_arguments(parser: argparse.ArgumentParser) -> None:
    """``--game``, ``--players``, ``--teams`` and every rule option (``--option name=value``)."""
    parser.add_argument(
        "--game",
        default="classic",
        choices=("classic", "kids", "dice", "draft"),
        help="which game (draft = classic with the draft variant)",
    )
    parser.add_argument("--players", type=int, default=2, help="number of players (default 2)")
    parser.add_argument(
        "--teams",
        type=int,
        default=None,
        help="number of teams (default: alone for 2-3 players, else 2)",
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
    options = parse_options(args.option)
    game = args.game
    if game == "draft":
        game = "classic"
        options["draft"] = True
    return make_config(game, args.players, args.teams, **options)
