"""``sequence``: one command, a subcommand per job.

Each subcommand lives in its own module with ``register(subparsers)``; the module is imported
only when its command runs, so ``sequence simulate`` never loads the web server.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

# command -> (module, one-line help). The module defines add_arguments(parser) and run(args) -> int.
COMMANDS: dict[str, tuple[str, str]] = {
    "simulate": ("sequence.cli.simulate", "play games between random bots and report results"),
    "bench": ("sequence.cli.bench", "measure the engine's speed"),
    "replay": ("sequence.cli.replay", "check a game record and show its final position"),
    "tournament": ("sequence.cli.tournament", "play bots against each other and rate them"),
    "play": ("sequence.tui.cli", "play in the terminal"),
    "serve": ("sequence.server.cli", "start the web app for online play"),
    "rules": ("sequence.i18n.cli", "show how to play, in your language"),
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sequence", description="Sequence, Sequence for Kids and Sequence Dice."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        if only is None or only == name:
            importlib.import_module(module).add_arguments(p)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    command = next((a for a in argv if not a.startswith("-")), None)
    parser = build_parser(command if command in COMMANDS else None)
    args = parser.parse_args(argv)
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
