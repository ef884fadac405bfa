"""What ``sequence tournament`` writes: the results tables (rich), the JSON, the saved game
records, and the checks, made before any game, that it can write them where asked.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from ..engine import config_from_dict
from .options import describe


def output_problem(json_path: str | None, save_dir: Path | None) -> str | None:
    """Why the results could not be written where asked (``None``: they can)."""
    if json_path and json_path != "-":
        path = Path(json_path)
        parent = path.parent if str(path.parent) else Path(".")
        if path.is_dir():
            return f"--json {json_path}: that is a folder; give a file name"
        if not parent.is_dir():
            return f"--json {json_path}: there is no folder {parent}"
        if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
            return f"--json {json_path}: cannot write there"
    if save_dir is not None and save_dir.exists() and not save_dir.is_dir():
        return f"--save {save_dir}: that is a file, not a folder"
    return None


def prepare_save(save_dir: Path | None) -> str | None:
    """Make the ``--save`` folder; why it cannot be used (``None``: it can)."""
    if save_dir is None:
        return None
    try:
        save_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"--save {save_dir}: cannot make that folder ({exc.strerror or exc})"
    if any(save_dir.glob("game-*.json")):
        return f"--save {save_dir}: it already holds game records; give a new or empty folder"
    if not os.access(save_dir, os.W_OK):
        return f"--save {save_dir}: cannot write there"
    return None


def write_records(save_dir: Path, records: list[tuple[int, str]]) -> None:
    """Write ``(game index, record JSON)`` pairs as ``game-00001.json``, ..."""
    for index, record in records:
        path = save_dir / f"game-{index + 1:05d}.json"
        path.write_text(record + "\n", encoding="utf-8")


def write_json(summary: dict[str, Any], json_path: str) -> None:
    """Write the results as JSON to ``json_path`` (``-``: standard output)."""
    text = json.dumps(summary, indent=2)
    if json_path == "-":
        print(text)
    else:
        Path(json_path).write_text(text + "\n", encoding="utf-8")


def stopped_message(why: str, played: int, games: int, json_path: str | None) -> str:
    """What a stopped run says on stderr, before its results (if any game finished).

    >>> stopped_message("interrupted", 0, 4, None)
    'stopped before any game finished: interrupted; there are no results'
    """
    if played:
        return (
            f"stopped after {played} of {games} games: {why};"
            " the results below are of the games that were played"
        )
    # Still written, so that a script waiting for the file finds one that says what happened.
    where = "" if json_path is None else " (the --json output has 0 games and says why)"
    return f"stopped before any game finished: {why}; there are no results{where}"


def render(summary: dict[str, Any]) -> None:
    """Print the results tables with rich (to stderr when JSON goes to stdout)."""
    from rich.console import Console
    from rich.table import Table

    to_stderr = bool(summary.get("_stderr", False))
    # Piped or redirected, nothing limits a line: rich's 80 columns would wrap long bot names.
    stream = sys.stderr if to_stderr else sys.stdout
    console = Console(stderr=to_stderr, width=None if stream.isatty() else 400)
    config = config_from_dict(summary["config"])
    seconds = summary["seconds"]
    took = f"{seconds:.1f} s" if seconds < 10 else f"{seconds:.0f} s"  # never "in 0 s"
    title = f"{describe(config)}: {summary['games']} games in {took}"
    if "seed" in summary:
        title += f" (deals from --seed {summary['seed']})"
    t = Table(title=title)
    for col in ("A", "B", "games", "A wins", "draws", "B wins", "A score", "95% interval"):
        # Bot names wrap rather than lose their ends (mypackage.mybot:A and :B look alike cut).
        t.add_column(col, justify="left" if col in ("A", "B") else "right", overflow="fold")
    for p in summary["pairings"]:
        lo, hi = p["a_score_95"]
        t.add_row(
            p["a"], p["b"], str(p["games"]), str(p["a_wins"]), str(p["draws"]), str(p["b_wins"]),
            f"{100 * p['a_score']:.1f}%", f"{100 * lo:.1f}-{100 * hi:.1f}%",
        )  # fmt: skip
    console.print(t)
    r = Table(title="ratings (Bradley-Terry Elo, first bot = 0)")
    for col in (
        "bot",
        "Elo",
        "95% interval",
        "games",
        "score",
        "ms/move",
        "iter/move",
        "iter/s",
    ):
        r.add_column(col, justify="left" if col == "bot" else "right", overflow="fold")
    for x in sorted(summary["ratings"], key=lambda x: -x["elo"]):
        lo, hi = x["elo_95"]
        r.add_row(
            x["bot"], f"{x['elo']:.0f}", "-" if lo is None else f"{lo:.0f} to {hi:.0f}",
            str(x["games"]),
            f"{100 * x['score']:.1f}%",
            f"{x['ms_per_move']:.1f}",
            f"{x['iterations_per_move']:.0f}" if x["iterations_per_move"] else "-",
            f"{x['iterations_per_second']:.0f}" if x["iterations_per_second"] else "-",
        )  # fmt: skip
    console.print(r)
    for bot, problem in summary["stats_problems"].items():
        console.print(  # a bot's words, as words
            f"note: bot {bot!r}: {problem}; its iter/move and iter/s show -",
            markup=False,
            highlight=False,
        )
    if summary["forfeits"]:
        console.print(f"[bold red]{len(summary['forfeits'])} game(s) lost by forfeit:[/]")
        for msg in summary["forfeits"][:20]:
            console.print(f"  {msg}", markup=False, highlight=False)  # a bot's words, as words
