"""A user's bot cannot cheat its way to the hidden cards or to a win through the tournament
itself: each bot below tries a way that worked before the fix beside it (bots/isolated.py,
bots/tournament/), and each test checks it no longer does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from sequence.bots.tournament import deal_seed
from sequence.cli.main import main

CHEATS = """
import os
import signal
import sys
import threading
import time
from pathlib import Path

from sequence.bots import Bot
from sequence.engine import State

# Runs wherever this module is imported: in the arena's process it could rewrite the engine.
os.environ["FAIR_PLAY_CHEATS_IMPORTED_IN"] = os.environ.get("FAIR_PLAY_CHEATS_IMPORTED_IN", "")
os.environ["FAIR_PLAY_CHEATS_IMPORTED_IN"] += f" {os.getpid()}"


class First(Bot):
    def choose(self, view):
        return view.legal_moves[0]


class Evil:
    # Unpickled by whoever reads it: the arena used to, so this ran there.
    def __reduce__(self):
        return (open, (os.environ["FAIR_PLAY_MARKER"], "w"))


class PipeCheat(Bot):
    def choose(self, view):
        frame = sys._getframe(1)
        while "conn" not in frame.f_locals:
            frame = frame.f_back
        frame.f_locals["conn"].send(Evil())
        return view.legal_moves[0]


class Alarm(Bot):
    # Sends the arena's process the signal its move timer uses, to make the other bot forfeit.
    def choose(self, view):
        parent = os.getppid()

        def ring():
            for _ in range(5):
                time.sleep(0.05)
                os.kill(parent, signal.SIGALRM)

        threading.Thread(target=ring, daemon=True).start()
        return view.legal_moves[0]


class Argv(Bot):
    # The arena's command line (an explicit --seed) used to be copied into the bot's process.
    # Only the program's name stays, as docs/bots.md says.
    def choose(self, view):
        if len(sys.argv) != 1 or "123456789" in sys.argv[0]:
            raise RuntimeError(f"sees the arena's arguments: {sys.argv}")
        return view.legal_moves[0]


class SaveCheat(Bot):
    # Reads the --save folder for a record of the deal it is playing.
    def choose(self, view):
        import json

        for path in Path(os.environ["FAIR_PLAY_SAVE"]).glob("game-*.json"):
            seed = json.loads(path.read_text())["seed"]
            state = State.new(view.config, seed)
            if state.hand_of(view.seat) == view.hand or any(
                state.hand_of(s) == view.hand for s in range(view.config.players)
            ):
                raise RuntimeError(f"found its deal in {path.name}")
        return view.legal_moves[0]


class StartsOnlyWhenChecked(Bot):
    # Passes the check made before the run (seed 0), then fails in the games.
    def __init__(self, seed=0):
        super().__init__(seed)
        if seed != 0:
            raise RuntimeError("model file not found")

    def choose(self, view):
        return view.legal_moves[0]


def started():
    # How many of these bots' processes have started (the check's included).
    path = Path(os.environ["FAIR_PLAY_COUNT"])
    count = int(path.read_text() or 0) + 1 if path.exists() else 1
    path.write_text(str(count))
    return count


class KillsItsArena(Bot):
    # Kills the process running its game, from its sixth start on.
    def __init__(self, seed=0):
        super().__init__(seed)
        self.killer = started() >= 6

    def choose(self, view):
        if self.killer:
            os.kill(os.getppid(), signal.SIGKILL)
            time.sleep(5)
        return view.legal_moves[0]


def arena_pipe():
    frame = sys._getframe(1)
    while "conn" not in frame.f_locals:
        frame = frame.f_back
    return frame.f_locals["conn"]


class DeepAnswer(Bot):
    # Passes the check (seed 0), then answers its start with JSON nested too deep to parse.
    def __init__(self, seed=0):
        super().__init__(seed)
        if seed:
            arena_pipe().send_bytes(b"[" * 50_000)  # under the 64 KiB cap

    def choose(self, view):
        return view.legal_moves[0]


class HalfAnswer(Bot):
    # Passes the check, then starts an answer in a game and never ends it.
    def __init__(self, seed=0):
        super().__init__(seed)
        if seed:
            import struct

            os.write(arena_pipe().fileno(), struct.pack("!i", 100))
            time.sleep(600)

    def choose(self, view):
        return view.legal_moves[0]


class Markup(Bot):
    def choose(self, view):
        raise RuntimeError("oops [/] [bold]x\x1b[2J")


class Interrupts(Bot):
    def choose(self, view):
        os.kill(os.getppid(), signal.SIGINT)
        time.sleep(0.05)
        return view.legal_moves[0]


class LeavesAChild(Bot):
    def __init__(self, seed=0):
        super().__init__(seed)
        import subprocess

        child = subprocess.Popen(["sleep", "300"])
        with open(os.environ["FAIR_PLAY_CHILDREN"], "a") as f:
            f.write(f"{child.pid}\\n")

    def choose(self, view):
        return view.legal_moves[0]


class Sleeper(Bot):
    # Thinks for ever (the run has no time limit), having written down its process.
    def __init__(self, seed=0):
        super().__init__(seed)
        with open(os.environ["FAIR_PLAY_CHILDREN"], "a") as f:
            f.write(f"{os.getpid()}\\n")

    def choose(self, view):
        time.sleep(300)


class HugeFigures(Bot):
    def choose(self, view):
        return view.legal_moves[0]

    def stats(self):
        return {"iterations": 1e308}


class Readable(Bot):
    # Another bot of the same user could read this process's memory (its hand) if it were.
    def choose(self, view):
        import ctypes

        if ctypes.CDLL(None).prctl(3, 0, 0, 0, 0) != 0:  # PR_GET_DUMPABLE
            raise RuntimeError("my process can be read by others")
        return view.legal_moves[0]


class Chatty(Bot):
    def choose(self, view):
        print("thinking... " * 20)
        return view.legal_moves[0]
"""

MODULE = "fair_play_cheats"


@pytest.fixture()
def cheats(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / f"{MODULE}.py").write_text(textwrap.dedent(CHEATS))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("FAIR_PLAY_CHEATS_IMPORTED_IN", "")
    monkeypatch.setenv("FAIR_PLAY_MARKER", str(tmp_path / "ran-in-the-arena"))
    monkeypatch.setenv("FAIR_PLAY_COUNT", str(tmp_path / "count"))
    monkeypatch.setenv("FAIR_PLAY_CHILDREN", str(tmp_path / "children"))
    sys.modules.pop(MODULE, None)
    return MODULE


def tournament(*args: str) -> int:
    return main(["tournament", "--game", "kids", "--json", "-", "--quiet", *args])


def forfeits(capsys: pytest.CaptureFixture[str]) -> list[str]:
    return list(json.loads(capsys.readouterr().out)["forfeits"])


def test_a_users_module_is_never_imported_where_the_game_is(
    cheats: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert tournament("--bot", f"{cheats}:First", "--bot", "random", "--games", "2",
                      "--workers", "1") == 0  # fmt: skip
    assert forfeits(capsys) == []
    assert MODULE not in sys.modules
    imported_in = os.environ["FAIR_PLAY_CHEATS_IMPORTED_IN"].split()
    assert str(os.getpid()) not in imported_in  # its import-time code never ran here


def test_a_bad_spec_is_still_refused_before_playing(
    cheats: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert tournament("--bot", f"{cheats}:Nobody", "--bot", "random") == 2
    assert "Nobody" in capsys.readouterr().err
    assert tournament("--bot", f"{cheats}:First@depth=2", "--bot", "random") == 2
    assert "bad arguments for bot" in capsys.readouterr().err
    assert MODULE not in sys.modules


def test_nothing_a_bot_sends_is_run_in_the_arena(
    cheats: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert tournament("--bot", f"{cheats}:PipeCheat", "--bot", "random", "--games", "2",
                      "--workers", "1") == 0  # fmt: skip
    lost = forfeits(capsys)
    assert len(lost) == 2 and all("not an answer" in f for f in lost), lost
    assert not (tmp_path / "ran-in-the-arena").exists()


def test_an_alarm_from_a_bots_process_costs_the_other_bot_nothing(
    cheats: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert tournament("--bot", f"{cheats}:Alarm", "--bot", "lookahead@time=0.3,deals=0",
                      "--games", "2", "--workers", "2", "--time-limit", "5") == 0  # fmt: skip
    assert forfeits(capsys) == []


def test_a_bot_does_not_get_the_arenas_arguments(
    cheats: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert tournament("--bot", f"{cheats}:Argv", "--bot", "random", "--games", "2",
                      "--workers", "1", "--seed", "123456789") == 0  # fmt: skip
    assert forfeits(capsys) == []


def test_saved_records_do_not_give_away_a_deal_still_to_play(
    cheats: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    # Classic, not Kids: SaveCheat knows its deal by its hand, and a few Kids cards of 21 kinds
    # often match another deal's first hand (a false alarm); seven classic cards never do.
    save = tmp_path / "games"
    monkeypatch.setenv("FAIR_PLAY_SAVE", str(save))
    assert tournament("--bot", f"{cheats}:SaveCheat", "--bot", "random", "--games", "6",
                      "--workers", "1", "--save", str(save), "--game", "classic") == 0  # fmt: skip
    assert forfeits(capsys) == []
    assert len(list(save.glob("game-*.json"))) == 6
    # With three bots every pairing plays the same deals: none is written until all have.
    third = tmp_path / "three"
    monkeypatch.setenv("FAIR_PLAY_SAVE", str(third))
    assert tournament("--bot", f"{cheats}:SaveCheat", "--bot", "random", "--bot", "greedy",
                      "--games", "4", "--workers", "1", "--save", str(third),
                      "--game", "classic") == 0  # fmt: skip
    assert forfeits(capsys) == []
    assert len(list(third.glob("game-*.json"))) == 12
    # Deals are not seed, seed+1, ...: one game's seed says nothing of the next deal's.
    assert deal_seed(5, 1) - deal_seed(5, 0) != 1 and deal_seed(5, 0) != 5


def test_a_save_folder_holding_records_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "game-00001.json").write_text("{}")
    assert tournament("--bot", "random", "--bot", "random", "--save", str(tmp_path)) == 2
    assert "already holds game records" in capsys.readouterr().err
    (tmp_path / "afile").write_text("x")
    assert tournament("--bot", "random", "--bot", "random", "--save",
                      str(tmp_path / "afile" / "sub")) == 2  # fmt: skip
    assert "cannot make that folder" in capsys.readouterr().err


def test_a_bot_that_fails_to_start_in_a_game_loses_it_and_the_run_goes_on(
    cheats: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert tournament("--bot", f"{cheats}:StartsOnlyWhenChecked", "--bot", "random",
                      "--games", "2", "--workers", "1") == 0  # fmt: skip
    lost = forfeits(capsys)
    assert len(lost) == 2
    assert all("it did not start" in f and "model file not found" in f for f in lost), lost


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_killed_worker_stops_the_run_and_keeps_the_games_played(
    cheats: str, workers: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "results.json"
    rc = main(["tournament", "--bot", f"{cheats}:KillsItsArena", "--bot", "random", "--game",
               "kids", "--games", "20", "--workers", workers, "--quiet",
               "--json", str(out)])  # fmt: skip
    assert rc == 1
    assert "a worker process was killed" in capsys.readouterr().err
    assert 0 < json.loads(out.read_text())["games"] < 20


def test_a_bot_that_answers_its_start_with_junk_or_half_an_answer_loses(
    cheats: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import sequence.bots.isolated

    monkeypatch.setattr(sequence.bots.isolated, "START_TIMEOUT", 3.0)
    assert tournament("--bot", f"{cheats}:DeepAnswer", "--bot", "random", "--games", "2",
                      "--workers", "1") == 0  # fmt: skip
    lost = forfeits(capsys)
    assert len(lost) == 2 and all("not an answer" in f for f in lost), lost
    assert tournament("--bot", f"{cheats}:HalfAnswer", "--bot", "random", "--games", "2",
                      "--workers", "1") == 0  # fmt: skip
    lost = forfeits(capsys)
    assert len(lost) == 2 and all("did not start in 3 s" in f for f in lost), lost


def test_a_bots_words_are_shown_as_words(
    cheats: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "results.json"
    assert main(["tournament", "--bot", f"{cheats}:Markup", "--bot", "random", "--game", "kids",
                 "--games", "2", "--workers", "1", "--json", str(out)]) == 0  # fmt: skip
    shown = capsys.readouterr().out
    assert "oops [/] [bold]x\\x1b[2J" in shown and "\x1b[2J" not in shown
    assert len(json.loads(out.read_text())["forfeits"]) == 2


def test_a_ctrl_c_sent_by_a_bot_to_its_worker_changes_nothing(
    cheats: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert tournament("--bot", f"{cheats}:Interrupts", "--bot", "random", "--games", "2",
                      "--workers", "2") == 0  # fmt: skip
    assert forfeits(capsys) == []


@pytest.mark.skipif(not Path("/proc/self").exists(), reason="reads /proc")
def test_a_bots_own_processes_end_with_it(cheats: str, tmp_path: Path) -> None:
    assert tournament("--bot", f"{cheats}:LeavesAChild", "--bot", "random", "--games", "2",
                      "--workers", "1") == 0  # fmt: skip
    pids = [int(p) for p in (tmp_path / "children").read_text().split()]
    assert len(pids) == 3  # the check and two games
    assert not any(running(pid) for pid in pids)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl is Linux's")
def test_no_process_of_the_run_can_be_read_by_a_bots(
    cheats: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import sequence.bots.isolated

    calls: list[str] = []
    check = sequence.bots.isolated.check_bot
    monkeypatch.setattr(sequence.bots.isolated, "protect_process", lambda: calls.append("protect"))
    monkeypatch.setattr(
        sequence.bots.isolated, "check_bot", lambda spec: (calls.append("check"), check(spec))
    )
    assert tournament("--bot", f"{cheats}:Readable", "--bot", "random", "--games", "2",
                      "--workers", "1") == 0  # fmt: skip
    assert calls[0] == "protect"  # before a user's code first runs
    assert forfeits(capsys) == []  # and every bot's own process is protected


def test_a_bots_prints_do_not_spoil_json_on_stdout(cheats: str, tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    done = subprocess.run(
        [sys.executable, "-m", "sequence.cli.main", "tournament", "--bot", f"{cheats}:Chatty",
         "--bot", "random", "--game", "kids", "--games", "2", "--workers", "1", "--json", "-",
         "--quiet"],
        capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games"] == 2
    assert "thinking..." in done.stderr  # the bot's author still sees them


def test_a_terminal_game_never_imports_a_users_bot_in_its_own_process(cheats: str) -> None:
    from sequence.tui.session import GameSetup, Session

    session = Session.start(GameSetup(game="kids", seats=("human", f"{cheats}:First"), seed=1))
    try:
        assert MODULE not in sys.modules
    finally:
        for bot in session.bots.values():
            bot.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl is Linux's")
def test_protect_process_makes_the_arena_unreadable_to_other_processes() -> None:
    code = (
        "import ctypes; from sequence.bots.isolated import protect_process;"
        " protect_process(); print(ctypes.CDLL(None).prctl(3, 0, 0, 0, 0))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)  # fmt: skip
    assert done.stdout.strip() == "0", done.stderr  # PR_GET_DUMPABLE


def running(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\tZ (zombie)" not in status


@pytest.mark.skipif(not Path("/proc/self").exists(), reason="reads /proc")
def test_ctrl_c_stops_the_run_and_every_bot_in_play(cheats: str, tmp_path: Path) -> None:
    import signal
    import time

    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    run = subprocess.Popen(
        [sys.executable, "-m", "sequence.cli.main", "tournament", "--bot", f"{cheats}:Sleeper",
         "--bot", "random", "--game", "kids", "--games", "4", "--workers", "2",
         "--time-limit", "0", "--quiet"],
        env=env, cwd=tmp_path, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    children = tmp_path / "children"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # the check's process and the two games' bots
        if children.exists() and len(children.read_text().split()) >= 3:
            break
        time.sleep(0.2)
    time.sleep(1)
    run.send_signal(signal.SIGINT)
    _, err = run.communicate(timeout=60)
    assert run.returncode == 130, err
    assert "interrupted" in err
    time.sleep(0.5)
    assert not any(running(int(pid)) for pid in children.read_text().split())


def test_a_bots_figures_cannot_make_the_json_invalid(
    cheats: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert tournament("--bot", f"{cheats}:HugeFigures", "--bot", "random", "--games", "2",
                      "--workers", "1") == 0  # fmt: skip
    text = capsys.readouterr().out
    json.loads(text, parse_constant=lambda name: pytest.fail(f"{name} in the JSON"))


def test_closing_an_isolated_bot_twice_is_harmless() -> None:
    from sequence.bots.isolated import IsolatedBot

    bot = IsolatedBot("random", seed=1)
    bot.close()
    bot.close()
