"""``sequence tournament`` as a student met it: a bot entered twice, a Ctrl-C before any game
ended, a mistyped flag, a bot whose figures are junk. (The games themselves, and bots that
cheat or crash, are tested in tests/bots.)"""

from __future__ import annotations

import json
import math
import textwrap
from pathlib import Path
from typing import Any

import pytest

from sequence.bots import Bot, make_bot
from sequence.bots.base import RandomBot
from sequence.bots.tournament import Task, entry_labels, stats_problem, worker
from sequence.cli.main import main
from sequence.engine import GameRecord, Move, View

TINY = ["tournament", "--game", "kids", "--games", "2", "--workers", "1", "--seed", "3"]


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any], str]:
    """Run a tiny tournament with ``--json -``: exit code, the JSON, and stderr."""
    rc = main([*TINY, "--json", "-", "--quiet", *args])
    out, err = capsys.readouterr()
    return rc, json.loads(out), err


# --- a bot entered more than once ---------------------------------------------------------------


def test_entry_labels_number_only_what_is_entered_twice() -> None:
    assert entry_labels(["random", "greedy"]) == ["random", "greedy"]
    assert entry_labels(["random", "greedy", "random", "random"]) == [
        "random #1",
        "greedy",
        "random #2",
        "random #3",
    ]


def test_a_bot_against_itself_is_two_entries_everywhere(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, data, _ = run_json(
        capsys, "--bot", "random", "--bot", "greedy", "--bot", "random", "--save", str(tmp_path)
    )
    assert rc == 0
    assert data["bots"] == ["random #1", "greedy", "random #2"]
    assert data["specs"] == ["random", "greedy", "random"]
    assert {(p["a"], p["b"]) for p in data["pairings"]} == {
        ("random #1", "greedy"),
        ("random #1", "random #2"),
        ("greedy", "random #2"),
    }
    # Per entry, not merged: each played its own two pairings of two games.
    ratings = {r["bot"]: r for r in data["ratings"]}
    assert set(ratings) == {"random #1", "greedy", "random #2"}
    assert all(r["games"] == 4 for r in ratings.values())
    # Records: the seat tag is still a spec a game can be loaded with; the name tells them apart.
    names = set()
    for path in sorted(tmp_path.glob("game-*.json")):
        tags = GameRecord.load(path.read_text()).tags
        assert {tags["Seat1"], tags["Seat2"]} <= {"random", "greedy"}
        names |= {tags[k] for k in ("Name1", "Name2") if k in tags}
    assert names == {"random #1", "random #2"}


def test_a_forfeit_names_the_entry_that_lost(capsys: pytest.CaptureFixture[str]) -> None:
    # No move is quicker than a nanosecond: whoever moves first loses on time.
    rc, data, _ = run_json(capsys, "--bot", "random", "--bot", "random", "--time-limit", "1e-9")
    assert rc == 0 and len(data["forfeits"]) == 2
    assert any("bot 'random #1'" in f for f in data["forfeits"])
    assert any("bot 'random #2'" in f for f in data["forfeits"])


def test_the_table_tells_the_entries_apart(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*TINY, "--bot", "random", "--bot", "random", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "random #1" in out and "random #2" in out


def test_piped_tables_keep_long_names_on_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    """Piped (``| less``, ``> results.txt``), a bot's full name is one line, not folded at 80."""
    name = "sequence.bots.greedy:GreedyBot"
    assert main([*TINY, "--bot", "random", "--bot", name, "--bot", "easy", "--quiet"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(name in line and "random" in line for line in lines), "\n".join(lines)


# --- stopped before any game finished -----------------------------------------------------------


def interrupt_after(games: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C once ``games`` games are over (in-process, as with --workers 1 and built-in
    bots, the KeyboardInterrupt reaches the loop that plays them)."""
    play = worker.run_task
    played: list[Task] = []

    def run_task(task: Task) -> dict[str, Any]:
        if len(played) == games:
            raise KeyboardInterrupt
        played.append(task)
        return play(task)

    monkeypatch.setattr(worker, "run_task", run_task)


def test_ctrl_c_before_any_game_says_so_and_still_writes_the_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    interrupt_after(0, monkeypatch)
    path = tmp_path / "results.json"
    assert main([*TINY, "--bot", "random", "--bot", "greedy", "--json", str(path)]) == 130
    out, err = capsys.readouterr()
    assert "stopped before any game finished: interrupted; there are no results" in err
    assert "the --json output has 0 games" in err
    assert "results below" not in err and "ratings" not in out  # no empty tables either
    data = json.loads(path.read_text())
    assert data["games"] == 0 and data["stopped"] == "interrupted"
    assert data["pairings"] == [] and data["ratings"] == [] and data["forfeits"] == []
    assert data["bots"] == ["random", "greedy"]


def test_ctrl_c_before_any_game_without_json(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    interrupt_after(0, monkeypatch)
    assert main([*TINY, "--bot", "random", "--bot", "greedy", "--quiet"]) == 130
    err = capsys.readouterr().err
    assert err.strip().endswith(
        "stopped before any game finished: interrupted; there are no results"
    )


def test_ctrl_c_after_a_game_keeps_it_and_the_json_says_stopped(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    interrupt_after(1, monkeypatch)
    rc, data, err = run_json(capsys, "--bot", "random", "--bot", "greedy")
    assert rc == 130
    assert "stopped after 1 of 2 games: interrupted" in err
    assert data["games"] == 1 and data["stopped"] == "interrupted"
    assert [r["games"] for r in data["ratings"]] == [1, 1]


def test_a_finished_run_is_not_stopped(capsys: pytest.CaptureFixture[str]) -> None:
    rc, data, err = run_json(capsys, "--bot", "random", "--bot", "greedy")
    assert rc == 0 and data["stopped"] is None and data["games"] == 2 and "stopped" not in err


# --- a mistyped flag ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "command", "guess"),
    [
        ("tournament --bots random --bots greedy", "tournament", "did you mean --bot?"),
        ("simulate --gmaes 3", "simulate", "did you mean --games?"),
        ("bench --secnds 1", "bench", "did you mean --seconds?"),
        ("replay a.json b.json", "replay", None),
        ("tournament --bot random --zzzz", "tournament", None),
        (
            "tournament --bots random --sed 1",
            "tournament",
            "did you mean --bot for --bots, --seed for --sed?",
        ),
        ("tournament --time_limit=3", "tournament", "did you mean --time-limit?"),
    ],
)
def test_an_unknown_argument_is_told_by_its_command(
    argv: str, command: str, guess: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit:
        main(argv.split())
    assert exit.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"usage: sequence {command} ")
    assert f"sequence {command}: error: unrecognized arguments: " in err
    if guess is None:
        assert "did you mean" not in err
    else:
        assert guess in err


def test_an_unknown_argument_before_the_command_is_the_top_levels(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit:
        main(["--bogus", "simulate"])
    assert exit.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: sequence [-h] COMMAND")
    assert "sequence: error: unrecognized arguments: --bogus" in err


@pytest.mark.parametrize("argv", [["--help"], ["tournament", "--help"]])
def test_help_is_unchanged(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit:
        main(argv)
    assert exit.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: sequence {'tournament ' * (len(argv) > 1)}")


# --- a bot's stats() that raises or gives junk ------------------------------------------------


class Figures(Bot):
    def __init__(self, figures: Any) -> None:
        super().__init__(0)
        self.figures = figures

    def choose(self, view: View) -> Move:
        return view.legal_moves[0]

    def stats(self) -> Any:
        if isinstance(self.figures, Exception):
            raise self.figures
        return self.figures


@pytest.mark.parametrize(
    ("figures", "problem"),
    [
        ({}, None),
        ({"deals": 3.0}, None),
        ({"iterations": 12}, None),
        ({"iterations": 0.0}, None),
        (RuntimeError("no figures"), "stats() raised RuntimeError: no figures"),
        ([1, 2], "stats() returned [1, 2], not a dict"),
        ({"iterations": "lots"}, "stats() gave iterations = 'lots', not a number of 0 or more"),
        ({"iterations": -5.0}, "iterations = -5.0"),
        ({"iterations": math.nan}, "iterations = nan"),
        ({"iterations": True}, "iterations = True"),
    ],
)
def test_stats_problem(figures: Any, problem: str | None) -> None:
    found = stats_problem(Figures(figures))
    assert found == problem if problem is None else problem in (found or "")


class BrokenStats(RandomBot):
    def stats(self) -> dict[str, float]:
        raise RuntimeError("no figures")


def test_a_bot_whose_stats_raise_is_named_once_and_the_run_goes_on(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A bot playing in this process (the built-in "random", made to fail here), so the arena
    # sees the exception itself.
    from sequence.bots import isolated

    def contained_bot(spec: str, seed: int = 0, output: str = "stderr") -> Bot:
        return BrokenStats(seed) if spec == "random" else make_bot(spec, seed)

    monkeypatch.setattr(isolated, "contained_bot", contained_bot)
    assert main([*TINY, "--bot", "random", "--bot", "greedy"]) == 0
    out = capsys.readouterr().out
    note = "note: bot 'random': stats() raised RuntimeError: no figures;"
    assert out.count(note) == 1
    rc, data, _ = run_json(capsys, "--bot", "random", "--bot", "greedy")
    assert rc == 0 and data["games"] == 2
    assert data["stats_problems"] == {"random": "stats() raised RuntimeError: no figures"}


USER_BOTS = """
from sequence.bots import Bot


class Negative(Bot):
    def choose(self, view):
        return view.legal_moves[0]

    def stats(self):
        return {"iterations": -5}


class Lots(Negative):
    def stats(self):
        return {"iterations": "lots"}


class Raising(Negative):
    def stats(self):
        raise KeyError("gone")
"""


@pytest.fixture
def user_bots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "stats_bots_for_test.py").write_text(textwrap.dedent(USER_BOTS))
    monkeypatch.syspath_prepend(str(tmp_path))
    return "stats_bots_for_test"


def test_a_users_bot_with_negative_iterations_is_named(
    user_bots: str, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, data, _ = run_json(capsys, "--bot", f"{user_bots}:Negative", "--bot", "random")
    assert rc == 0
    problem = data["stats_problems"][f"{user_bots}:Negative"]
    assert "iterations = -5.0, not a number of 0 or more" in problem
    by_bot = {r["bot"]: r for r in data["ratings"]}
    assert by_bot[f"{user_bots}:Negative"]["iterations_per_move"] == 0.0  # shown as "-"


def test_a_users_bot_with_non_numeric_iterations_is_named(
    user_bots: str, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, data, _ = run_json(
        capsys, "--bot", f"{user_bots}:Lots", "--bot", f"{user_bots}:Raising", "--bot", "random"
    )
    assert rc == 0 and not data["forfeits"]  # broken figures cost nothing but the figures
    problems = data["stats_problems"]
    assert problems[f"{user_bots}:Lots"] == "stats() gave 'iterations': 'lots', not a finite number"
    assert problems[f"{user_bots}:Raising"] == "stats() raised KeyError: 'gone'"
