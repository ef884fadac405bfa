"""``sequence replay FILE``: check a game record; step through it on a terminal.

On a terminal it opens the interactive viewer (forward, back, jump); with ``--print`` (or
when the output is not a terminal) it prints the board at the end, or after ``--to N`` moves,
with a key to its symbols, each team's sequences and chips, and the result;
``--position`` adds the position in the engine's notation (every hand and the draw pile). An
invalid record says which move is wrong and why, with exit code 1.

The viewer is the terminal game's (``sequence.tui``), a front end this one does not import: the
entry point (:mod:`sequence.cli.main`) hands it over as ``args.open_viewer``.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

from ..engine import RESIGNATION, TEAM_LETTERS, GameRecord, RecordError, State
from ..engine.board import BoardLayout
from ..i18n.terms import outcome_text

OpenViewer = Callable[[GameRecord, int | None], int | None]
"""Opens the interactive viewer on a record after move N (``None``: the last) and returns the exit
status once it is closed; returns ``None`` at once where no full-screen app can run."""

WIDTH = 78
"""The width the board's key is wrapped to."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a game record (JSON or text), or - for standard input")
    parser.add_argument(
        "--to", type=int, default=None, metavar="N", help="show the position after N moves"
    )
    parser.add_argument("--print", dest="print_only", action="store_true",
                        help="print instead of opening the interactive viewer")  # fmt: skip
    parser.add_argument("--position", action="store_true",
                        help="with --print: add the position in the engine's notation"
                             " (every hand and the draw pile)")  # fmt: skip
    parser.set_defaults(open_viewer=None)  # an OpenViewer, given by the entry point


def board_key(state: State) -> str:
    """What the symbols of :meth:`State.board_text` mean for the game of ``state``: one symbol
    a line, its meaning beside it."""
    layout = state.config.spec.layout
    letters = TEAM_LETTERS[: state.config.teams]
    rows = [
        (" ".join(f"[{x.lower() * 2}]" for x in letters), "a chip of team " + ", ".join(letters)),
        (" ".join(f"[{x * 2}]" for x in letters), "in capitals: a chip of a completed sequence"),
    ]
    if layout.free:
        rows.append(("**", "a free corner: it counts for every team"))
    rows.append(_labels_key(layout))
    width = max(len(symbol) for symbol, _ in rows)
    lines = []
    for i, (symbol, meaning) in enumerate(rows):
        head = f"{'key:' if i == 0 else '':<5}{symbol:<{width}}  "
        text = textwrap.fill(meaning, WIDTH, initial_indent=head, subsequent_indent=" " * len(head))
        lines.append(text.replace(_KEEP, " "))
    return "\n".join(lines)


_KEEP = "\u00a0"
"""A space the key's lines are not broken at (a code and its meaning stay together)."""


def _labels_key(layout: BoardLayout) -> tuple[str, str]:
    """An empty space's label and what it is: a number (Dice), a card's code, an animal's first
    letters (Kids)."""
    labels = [layout.label_name(s) for s in layout.spaces if not layout.free >> s & 1]
    if layout.numbered:
        return "7", "an empty space: the dice total that puts a chip on it"
    if all(len(label) == 2 for label in labels):
        codes = "2-9, T ten, Q queen, K king, A ace; C clubs, D diamonds, H hearts, S spades"
        return "5C", f"an empty space: its card, rank then suit ({_together(codes)})"
    animals = ", ".join(f"{name[:2]}{_KEEP}{name.lower()}" for name in sorted(set(labels)))
    return labels[0][:2], f"an empty space: its animal's first two letters ({animals})"


def _together(codes: str) -> str:
    """``T ten, Q queen`` with each code kept on the line of its meaning."""
    return ", ".join(code.replace(" ", _KEEP) for code in codes.split(", "))


def result_line(state: State, record: GameRecord, forfeit: str | None, whole: bool) -> str:
    """How the game stands after the moves shown: its result at the end (the engine's, or the
    record's where a side resigned or a bot forfeited), else whose turn it is."""
    outcome = state.outcome
    if outcome:
        return f"result: {outcome_text(outcome, 'en')}"
    winner = record.winner
    if whole and record.termination == RESIGNATION and winner is not None:
        return f"result: Team {TEAM_LETTERS[winner]} wins by resignation."
    if forfeit:
        return f"result: ended by a forfeit: {forfeit}"
    return f"the game goes on: seat {state.to_move + 1} to act ({state.phase.name.lower()})"


def describe(state: State, result: str, position: bool = False) -> str:
    """The board in words: the board, its key, each team's sequences and chips, ``result``
    (:func:`result_line`) and the number of moves; ``position``: the position's notation too."""
    lines = [state.board_text(), "", board_key(state), ""]
    for team in range(state.config.teams):
        colour = state.config.spec.colours[team]
        sequences = len(state.sequence_spaces(team))
        noun = "sequence" if sequences == 1 else "sequences"
        lines.append(f"team {TEAM_LETTERS[team]} ({colour}): {sequences} {noun},"
                     f" {state.supply(team)} chips left")  # fmt: skip
    lines.append(result)
    lines.append(f"moves: {len(state.move_stack)}")
    if position:
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
    forfeit = record.tags.get("Forfeit") if args.to is None else None
    print(describe(state, result_line(state, record, forfeit, whole), args.position))
    return 0
