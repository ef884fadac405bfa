"""``sequence replay FILE``: check a game record; step through it on a terminal.

On a terminal it opens the interactive viewer (forward, back, jump); with ``--print`` (or
when the output is not a terminal) it prints the final position, or the position after
``--to N`` moves. An invalid record says which move is wrong and why, with exit code 1.

The viewer is the terminal game's (``sequence.tui``), a front end this one does not import: the
entry point (:mod:`sequence.cli.main`) hands it over as ``args.open_viewer``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from ..engine import RESIGNATION, TEAM_LETTERS, GameRecord, RecordError, State

OpenViewer = Callable[[GameRecord, int | None], int | None]
"""Opens the interactive viewer on a record after move N (``None``: the last) and returns the exit
status once it is closed; returns ``None`` at once where no full-screen app can run."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a game record (JSON or text), or - for standard input")
    parser.add_argument(
        "--to", type=int, default=None, metavar="N", help="show the position after N moves"
    )
    parser.add_argument("--print", dest="print_only", action="store_true",
                        help="print instead of opening the interactive viewer")  # fmt: skip
    parser.set_defaults(open_viewer=None)  # an OpenViewer, given by the entry point


def describe(state: State, forfeit: str | None = None, resigned: str | None = None) -> str:
    """The position in words; ``forfeit``: why a bot lost the game (a tournament record's tag);
    ``resigned``: the result of a game a side resigned (the record's)."""
    lines = [state.board_text(), ""]
    for team in range(state.config.teams):
        colour = state.config.spec.colours[team]
        sequences = len(state.sequence_spaces(team))
        lines.append(f"team {TEAM_LETTERS[team]} ({colour}): {sequences} sequence(s),"
                     f" {state.supply(team)} chips left")  # fmt: skip
    outcome = state.outcome
    if forfeit and not outcome:
        lines.append(f"result: ended by a forfeit: {forfeit}")
    elif resigned and not outcome:
        lines.append(f"result: {resigned} (resignation)")
    else:
        lines.append(f"result: {outcome.result()} ({outcome.termination.value})" if outcome else
                     f"game goes on: seat {state.to_move + 1} to act"
                     f" ({state.phase.name.lower()})")  # fmt: skip
    lines.append(f"moves: {len(state.move_stack)}")
    lines.append(f"position: {state.position()}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
    except OSError as exc:
        print(f"sequence replay: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    except UnicodeDecodeError:
        print(f"sequence replay: {args.file} is not a text file (UTF-8)", file=sys.stderr)
        return 2
    try:
        record = GameRecord.load(text)
        if args.to is not None and not 0 <= args.to <= len(record.moves):
            print(f"sequence replay: --to must be 0-{len(record.moves)}", file=sys.stderr)
            return 2
        state = record.replay(args.to)
    except RecordError as exc:
        print(f"sequence replay: invalid record: {exc}", file=sys.stderr)
        return 1
    open_viewer: OpenViewer | None = args.open_viewer
    if not args.print_only and open_viewer is not None:
        status = open_viewer(record, args.to)
        if status is not None:
            return status
    whole = args.to is None or args.to == len(record.moves)
    resigned = record.result if whole and record.termination == RESIGNATION else None
    print(describe(state, record.tags.get("Forfeit") if args.to is None else None, resigned))
    return 0
