#!/usr/bin/env python3
"""The real check of the COMP90054 bridge, against the course's own framework (not in this repo).

CI cannot fetch the framework, so its tests run a stand-in (``sequence.compat.course_model``);
this script runs the real thing, both ways, and prints the figures:

1. **Our agents in the course's ``game.py``**: each of our levels (as ``EasyAgent``...
   ``ExpertAgent``) against each course agent given, in the framework's own ``Game`` with its
   time rules (1 s a call, 3 warnings lose), sides alternated: games, wins, draws, losses,
   our warnings and forfeits (and the opponent's).
2. **Course agents in our tournament**: ``sequence tournament --time-rules course`` with each
   course agent against our levels: games, wins, forfeits.

Get the framework (a public copy: hmooy/Sequence-COMP90054) into a folder of its own, with any
course agents under its ``agents/<name>/`` folders, and install ``func_timeout`` (its
``game.py`` needs it; ``pip install func_timeout``). Then, from this repository::

    scripts/comp90054_check.py --framework ~/Sequence-COMP90054 \\
        --agent group13.player --agent group28.player --games 20 --players 4

``--agent`` names a module under the framework's ``agents`` folder, as the course's runner
takes it (``-r group13.player``). The framework's files are read from that folder and never
copied here.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import _venv  # noqa: F401  (re-runs this script with .venv/bin/python where needed)

LEVELS = ("MediumAgent", "HardAgent", "ExpertAgent")


def ours_in_theirs(framework: Path, level: str, agent: str, games: int, players: int) -> str:
    """Play ``games`` games of our ``level`` against the course agent ``agent`` in the
    framework's own ``Game``; one line of figures."""
    sys.path.insert(0, str(framework))
    os.chdir(framework)
    import importlib

    from game import Game  # type: ignore[import-not-found]
    from Sequence.sequence_model import SequenceGameRule  # type: ignore[import-not-found]

    from sequence.compat import comp90054

    ours = getattr(comp90054, level)
    theirs = importlib.import_module(f"agents.{agent}")
    tally = dict(games=0, wins=0, draws=0, losses=0, warnings=0, forfeits=0, their_warnings=0)
    for g in range(games):
        side = g % 2  # our seats: 0 (and 2) in even games, 1 (and 3) in odd ones
        agents: list[Any] = [
            ours(i) if i % 2 == side else theirs.myAgent(i) for i in range(players)
        ]
        for a in agents:
            if a.id % 2 == side:
                a.SelectAction = _timed(a.SelectAction, _slowest_update)
        game = Game(
            SequenceGameRule, agents, players, seed=90054 + g, time_limit=1, warning_limit=3,
            agents_namelist=["ours", "theirs"] * 2,
        )  # fmt: skip
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            history = game.Run()
        scores = history["scores"]
        mine = sum(v for k, v in scores.items() if k % 2 == side)
        other = sum(v for k, v in scores.items() if k % 2 != side)
        tally["games"] += 1
        tally["wins" if mine > other else "losses" if mine < other else "draws"] += 1
        tally["warnings"] += sum(game.warnings[i] for i in range(players) if i % 2 == side)
        tally["their_warnings"] += sum(game.warnings[i] for i in range(players) if i % 2 != side)
        tally["forfeits"] += any(v == -1 for k, v in scores.items() if k % 2 == side)
    return f"{level} vs {agent} ({players} players): {tally}, slowest call {_SLOWEST[0]:.2f} s"


_SLOWEST = [0.0]
"""Our agents' longest SelectAction call, as timed around it."""


def _slowest_update(seconds: float) -> None:
    _SLOWEST[0] = max(_SLOWEST[0], seconds)


def _timed(function: Any, report: Any) -> Any:
    def call(*args: Any) -> Any:
        start = time.perf_counter()
        try:
            return function(*args)
        finally:
            report(time.perf_counter() - start)

    return call


def theirs_in_ours(framework: Path, agent: str, levels: list[str], games: int, players: int) -> str:
    """``sequence tournament --time-rules course`` with the course agent against our levels."""
    file = framework / "agents" / (agent.replace(".", "/") + ".py")
    with tempfile.TemporaryDirectory() as out:
        results = Path(out) / "results.json"
        command = [
            sys.executable, "-m", "sequence.cli.main", "tournament", "--game", "draft",
            "--players", str(players), "--mode", "gauntlet", "--bot", f"comp90054:{file}",
            *[arg for level in levels for arg in ("--bot", level)],
            "--games", str(games), "--time-limit", "1", "--time-rules", "course",
            "--workers", "1", "--seed", "1", "--quiet", "--json", str(results),
        ]  # fmt: skip
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        data = json.loads(results.read_text())
    lines = []
    for p in data["pairings"]:
        lines.append(
            f"{agent} vs {p['b']} ({players} players, our tournament): {p['games']} games,"
            f" {agent} won {p['a_wins']}, drew {p['draws']}, lost {p['b_wins']},"
            f" forfeits {p['forfeits']}"
        )
    lines += [f"  forfeit: {f}" for f in data["forfeits"][:5]]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--framework", type=Path, required=True, help="the course's folder")
    parser.add_argument(
        "--agent", action="append", required=True,
        help="a course agent: a module under agents/, e.g. group13.player",
    )  # fmt: skip
    parser.add_argument("--games", type=int, default=10, help="games a pairing (default 10)")
    parser.add_argument("--players", type=int, choices=(2, 4), default=4)
    parser.add_argument("--levels", default=",".join(LEVELS),
                        help="our agents, comma-separated (default: %(default)s)")  # fmt: skip
    parser.add_argument("--only", choices=("ours", "theirs"), help="one direction only")
    args = parser.parse_args()
    framework = args.framework.resolve()
    if not (framework / "game.py").is_file():
        parser.error(f"{framework} has no game.py: give the course framework's folder")
    levels = args.levels.split(",")
    for agent in args.agent:
        if args.only != "theirs":
            for level in levels:
                # Each in a process of its own: the framework's modules and random seed are global.
                here, call = (
                    str(Path(__file__).parent),
                    (
                        f"Path({str(framework)!r}), {level!r}, {agent!r},"
                        f" {args.games}, {args.players}"
                    ),
                )
                code = (
                    f"import sys; sys.path.insert(0, {here!r}); from pathlib import Path;"
                    f" from comp90054_check import ours_in_theirs; print(ours_in_theirs({call}))"
                )
                subprocess.run([sys.executable, "-c", code], check=True)
        if args.only != "ours":
            names = [level.removesuffix("Agent").lower() for level in levels]
            print(theirs_in_ours(framework, agent, names, args.games, args.players), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
