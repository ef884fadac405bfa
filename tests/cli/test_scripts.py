"""The scripts in scripts/ run as the docs write them: ``scripts/loadtest.py --tables 200``."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted(p.name for p in (ROOT / "scripts").glob("*.py") if not p.name.startswith("_"))


def _bare_python_path(tmp_path: Path) -> str:
    """A PATH whose ``python3`` is a Python without the project's packages (the base
    interpreter of the virtual environment), as on a shell where .venv is not activated."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(sys._base_executable)  # type: ignore[attr-defined]
    return f"{bin_dir}{os.pathsep}/usr/bin{os.pathsep}/bin"


@pytest.mark.parametrize("script", SCRIPTS)
def test_each_script_is_an_executable_with_a_working_shebang(script: str, tmp_path: Path) -> None:
    tracked = subprocess.run(
        ["git", "ls-files", "-s", f"scripts/{script}"], cwd=ROOT, capture_output=True, text=True
    ).stdout
    if tracked:  # a git checkout: the mode is recorded there, for every clone
        assert tracked.startswith("100755 "), f"scripts/{script} is not executable in git"
    path = ROOT / "scripts" / script
    assert path.read_text(encoding="utf-8").startswith("#!/usr/bin/env python3\n")
    assert os.access(path, os.X_OK)
    done = subprocess.run(
        [f"scripts/{script}", "--help"],
        cwd=ROOT,
        env={**os.environ, "PATH": _bare_python_path(tmp_path)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: ")


@pytest.mark.skipif(
    (shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/sbin")) is None,
    reason="nginx is not installed (apt-get install nginx; .ci/run does it)",
)
def test_loadtest_gives_percentiles_of_fewer_than_100_moves() -> None:
    done = subprocess.run(
        ["scripts/loadtest.py", "--setups", "sqlite:1", "--tables", "1", "--duration", "1.5",
         "--ramp", "0.2", "--think", "0.05"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    # | setup | tables | moves/s | p50 ms | p95 ms | p99 ms | CPU ms/move | ... | errors |
    row = re.search(r"^\| 1 x sqlite \| 1 \| (.*) \|$", done.stdout, re.M)
    assert row is not None, done.stdout
    cells = [c.strip() for c in row.group(1).split("|")]
    moves_per_s, p50, p95, p99, cpu = (float(c) for c in cells[:5])
    assert 0 < moves_per_s * 1.5 < 100, done.stdout  # fewer than 100 moves measured
    assert 0 < p50 <= p95 <= p99 and cpu > 0, done.stdout
    assert cells[-1] == "none", done.stdout  # errors
    assert "nan" not in done.stdout


def test_luck_bound_plays_kids_and_gives_an_interval() -> None:
    done = subprocess.run(
        ["scripts/luck_bound.py", "--game", "kids", "--games", "2", "--deals", "1", "--depth", "1",
         "--workers", "1", "--sees", "fair"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    line = re.fullmatch(
        r"kids: lookahead seeing fair .* vs greedy:"
        r" ([\d.]+)/2 = ([\d.]+)% \(([\d.]+)-([\d.]+)%\)\n",
        done.stdout,
    )
    assert line is not None, done.stdout
    score, pct, lo, hi = (float(g) for g in line.groups())
    assert pct == 50 * score and lo <= pct <= hi


def test_bot_diagnostics_counts_the_pile_and_the_choices() -> None:
    done = subprocess.run(
        ["scripts/bot_diagnostics.py", "pile", "--games", "2", "--game", "kids", "dice"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    pile = r"kids +2 greedy games: draw pile at the end mean [\d.]+, .*\n"
    assert re.fullmatch(pile, done.stdout), done.stdout
    done = subprocess.run(
        ["scripts/bot_diagnostics.py", "choices", "--games", "2", "--game", "kids",
         "--level", "hard@deals=2"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    searched = r"kids +hard@deals=2: [\d.]+ searched decisions a game .*%\)\n"
    assert re.fullmatch(searched, done.stdout), done.stdout
