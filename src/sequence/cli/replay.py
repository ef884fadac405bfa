"""``sequence replay FILE``: check a game record; step through it on a terminal.

On a terminal it opens the interactive viewer (forward, back, jump); with ``--print`` (or
when the output is not a terminal) it prints the final position, or the position after
``--to N`` moves. An invalid record says which move is wrong and why, with exit code 1.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..engine import TEAM_LETTERS, GameRecord, RecordError, State
from ..tui import on_a_terminal


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a game record (JSON or text), or - for standard input")
    parser.add_argument(
        "--to", type=int, default=None, metavar="N", help="show the position after N moves"
    )
    parser.add_argument("--print", dest="print_only", action="store_true",
                        help="print instead of opening the interactive viewer")  # fmt: skip


def describe(state: State, forfeit: str | None = None) -> str:
    """The position in words; ``forfeit``: why a bot lost the game (a tournament record's tag)."""
    lines = [state.board_text(), ""]
    for team in range(state.config.teams):
        colour = state.config.spec.colours[team]
        sequences = len(state.sequence_spaces(team))
        lines.append(f"team {TEAM_LETTERS[team]} ({colour}): {sequences} sequence(s),"
                     f" {state.supply(team)} chips left")  # fmt: skip
    outcome = state.outcome
    if forfeit and not outcome:
        lines.append(f"result: ended by a forfeit: {forfeit}")
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
    if not args.print_only and on_a_terminal():
        from ..tui.replay_app import run_replay

        return run_replay(record, at=args.to)
    print(describe(state, record.tags.get("Forfeit") if args.to is None else None))
    return 0
