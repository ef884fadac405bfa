"""The package as a distribution: the wheel and the sdist build from the checkout's files
(``python -m build``), pass ``twine check``, hold every file of ``src/sequence`` (the web
client's static files, the catalogues, the rules pages, ``bot_ratings.json``), and the wheel,
installed into a fresh virtual environment, runs ``sequence --help``, makes a Gymnasium env by
its id and loads an OpenSpiel game.

The fresh environment gets the dependencies by a ``.pth`` line naming this interpreter's
site-packages (no index is needed, and it takes seconds), and only that line: the editable
install's own ``.pth`` is not read from there, so ``sequence`` is imported from the wheel.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

pytest.importorskip("build")
pytest.importorskip("twine")
pytest.importorskip("gymnasium")
pytest.importorskip("pyspiel")

ROOT = Path(__file__).resolve().parents[1]

# Run by the installed wheel's interpreter, with no PYTHONPATH: where each module comes from.
_INSTALLED_CHECK = """
import sys, gymnasium, pyspiel, sequence
import sequence.env.openspiel
from importlib.resources import files
print(sequence.__file__)
env = gymnasium.make("sequence.env.gym:sequence/Classic-v0", opponents="random")
obs, info = env.reset(seed=0)
assert obs.shape == env.observation_space.shape and info["action_mask"].any()
game = pyspiel.load_game("python_sequence_kids", {"players": 3})
state = game.new_initial_state()
state.apply_action(0)
assert state.current_player() in (0, 1, 2) and state.legal_actions()
for path in ("server/ratings/bot_ratings.json", "server/web/static/manifest.webmanifest",
             "i18n/locales/de/LC_MESSAGES/messages.po", "i18n/rules/en"):
    assert files("sequence").joinpath(path).exists(), path
"""


def _tracked() -> list[str]:
    try:
        done = subprocess.run(
            ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
        )
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the tracked files are what a distribution is built from")
    return [p for p in done.stdout.splitlines() if (ROOT / p).is_file()]


# Without PYTHONPATH (the tests' own sources first): each step sees only what it installed.
_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


def _run(args: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(args, capture_output=True, text=True, timeout=300, env=_ENV, cwd=cwd)
    assert done.returncode == 0, f"{args}: {done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    return done


def test_wheel_and_sdist_build_check_install_and_run(tmp_path: Path) -> None:
    # A copy of the tracked files: the build writes egg-info and build/ where it runs.
    tracked = _tracked()
    tree = tmp_path / "tree"
    for path in tracked:
        (tree / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / path, tree / path)
    dist = tmp_path / "dist"
    # No isolation: this environment's setuptools (the build-system's requirement) and no index.
    _run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(dist), str(tree)])
    wheels, sdists = list(dist.glob("*.whl")), list(dist.glob("*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1
    _run([sys.executable, "-m", "twine", "check", "--strict", str(wheels[0]), str(sdists[0])])

    package = [p for p in tracked if p.startswith("src/sequence/")]
    in_wheel = set(zipfile.ZipFile(wheels[0]).namelist())
    assert [p for p in package if p.removeprefix("src/") not in in_wheel] == []
    with tarfile.open(sdists[0]) as sdist:
        in_sdist = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    assert [p for p in package if p not in in_sdist] == []
    assert {"README.md", "pyproject.toml"} <= in_sdist

    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    python = venv / "bin" / "python"
    site = Path(
        _run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"]
        ).stdout.strip()
    )
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--no-deps",
            "--no-index",
            "--quiet",
            str(wheels[0]),
        ]
    )
    # after the install: pip would take the editable install's metadata for the wheel's
    (site / "dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    done = _run([str(venv / "bin" / "sequence"), "--help"])
    assert "usage: sequence" in done.stdout
    done = _run([str(python), "-c", _INSTALLED_CHECK], cwd=tmp_path)
    assert Path(done.stdout.strip()).is_relative_to(site)  # the wheel's, not the checkout's
