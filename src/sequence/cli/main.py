"""``sequence``: one command, a subcommand per job.

Each subcommand lives in its own module with ``add_arguments(parser)`` and ``run(args)``; the
module is imported only when its command runs, so ``sequence simulate`` never loads the web
server.

This module is the entry point, the one module that joins the front ends: it dispatches to the
commands of ``cli``, ``tui`` (``play``), ``server`` (``serve``) and ``i18n`` (``rules``) by
module name, and gives ``sequence replay`` the terminal game's viewer (``sequence learn`` its lesson
screen). The import contracts
(``[tool.importlinter]`` in pyproject.toml) allow it that, and no other module of a front end.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import os
import sys
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from ..engine import GameRecord

# command -> (module, one-line help). The module defines add_arguments(parser) and run(args) -> int.
COMMANDS: dict[str, tuple[str, str]] = {
    "simulate": (
        "sequence.cli.simulate",
        "play games between bots (random, or --bot SPEC) and report how they ended",
    ),
    "bench": ("sequence.cli.bench", "measure the engine's speed"),
    "replay": ("sequence.cli.replay", "check a game record and step through it"),
    "tournament": ("sequence.cli.tournament", "play bots against each other and rate them"),
    "review": ("sequence.cli.review", "judge each move of finished games, as its mover saw it"),
    "play": ("sequence.tui.cli", "play in the terminal"),
    "learn": ("sequence.cli.learn", "a first game that teaches, step by step"),
    "serve": ("sequence.server.cli", "start the web app for online play"),
    "rules": ("sequence.i18n.cli", "show how to play, in your language"),
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    return _build(only)[0]


def _build(only: str | None) -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The parser, and each command's own (``only``: the one command given its arguments)."""
    parser = argparse.ArgumentParser(
        prog="sequence", description="Sequence, Sequence for Kids and Sequence Dice."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands: dict[str, argparse.ArgumentParser] = {}
    for name, (module, help_text) in COMMANDS.items():
        p = commands[name] = sub.add_parser(name, help=help_text, description=help_text)
        if only is None or only == name:
            importlib.import_module(module).add_arguments(p)
    if only is None or only == "replay":
        commands["replay"].set_defaults(open_viewer=open_replay_viewer)
    if only is None or only == "learn":
        commands["learn"].set_defaults(open_lesson=open_lesson)
    return parser, commands


def open_replay_viewer(record: GameRecord, at: int | None) -> int | None:
    """``sequence replay``'s interactive viewer, the terminal game's: opened on ``record`` after
    move ``at`` where a full-screen app can run (the exit status once closed), else ``None``."""
    from ..tui import on_a_terminal

    if not on_a_terminal():
        return None
    from ..tui.replay_app import run_replay

    return run_replay(record, at=at)


def open_lesson(game: str, lang: str | None) -> int | None:
    """``sequence learn``'s screen, the terminal game's: the first game of ``game`` where a
    full-screen app can run (the exit status once closed), else ``None``."""
    from ..tui import on_a_terminal

    if not on_a_terminal():
        return None
    from ..tui.learn_app import run_lesson

    return run_lesson(game, lang)


def refuse_unknown(parser: argparse.ArgumentParser, unknown: list[str]) -> NoReturn:
    """Exit (2) with ``parser``'s usage, naming the arguments it does not take and, for a flag
    close to one of its own (``--bots``), the one meant."""
    # argparse keeps its flags in private lists only; reading them costs a wrong guess at worst.
    flags = [flag for action in parser._actions for flag in action.option_strings]
    guesses: dict[str, str] = {}
    for arg in unknown:
        name = arg.partition("=")[0]
        if name.startswith("-") and name not in guesses:
            close = difflib.get_close_matches(name, flags, n=1, cutoff=0.75)
            if close:
                guesses[name] = close[0]
    message = "unrecognized arguments: " + " ".join(unknown)
    if len(guesses) == 1:
        message += f"; did you mean {next(iter(guesses.values()))}?"
    elif guesses:
        message += "; did you mean " + ", ".join(f"{g} for {n}" for n, g in guesses.items()) + "?"
    parser.error(message)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    command = next((a for a in argv if not a.startswith("-")), None)
    parser, commands = _build(command if command in COMMANDS else None)
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        # Told by the command whose arguments they were meant for (its name, its usage); one
        # given before the command is the top level's.
        before = argv[: argv.index(args.command)] if args.command else argv
        refuse_unknown(parser if unknown[0] in before else commands[args.command], unknown)
    if args.command is None:
        parser.print_help()
        return 2
    module = importlib.import_module(COMMANDS[args.command][0])
    try:
        return int(module.run(args) or 0)
    except BrokenPipeError:
        # The reader went away (`sequence simulate --json | head`): not an error of ours.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
