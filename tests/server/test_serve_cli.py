"""`sequence serve` as an operator runs it: its flags, and stopping it."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from sequence.cli.main import main

from .conftest import free_port


def test_an_unknown_log_level_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["serve", "--log-level", "bogus", "--db", f"sqlite:///{tmp_path / 'x.db'}"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'bogus'" in err and "Traceback" not in err


def _children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (read from /proc: no psutil needed)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdecimal():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # gone meanwhile
            continue
        # "pid (comm) state ppid ...": comm may hold spaces, so split after its ")".
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has finished


def _serve_a_bot_game(tmp_path: Path) -> tuple[subprocess.Popen[bytes], Path]:
    """``sequence serve`` in a subprocess, with a game of two bots under way."""
    port = free_port()
    cmd = [sys.executable, "-m", "sequence.cli.main", "serve", "--port", str(port),
           "--db", f"sqlite:///{tmp_path / 'term.db'}", "--bot-delay", "0"]  # fmt: skip
    # stderr to a file, not a pipe: an orphan would hold a pipe open and hide the exit.
    log = tmp_path / "serve.log"
    proc = subprocess.Popen(cmd, env={**os.environ, "PYTHONUNBUFFERED": "1"},
                            stdout=subprocess.DEVNULL, stderr=log.open("wb"))  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            if httpx.get(f"{url}/api/meta", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)
    with httpx.Client(base_url=url, timeout=20) as http:
        body = {"game": "kids", "players": 2, "bots": ["random", "random"]}
        created = http.post("/api/tables", json=body).json()
        code = created["code"]
        r = http.post(f"/api/tables/{code}/start", json={"host_token": created["host_token"]})
        assert r.status_code == 200, r.text
        while http.get(f"/api/tables/{code}").json()["version"] < 2:  # bots have moved
            assert time.monotonic() < deadline + 30, "the bots did not move"
            time.sleep(0.05)
    return proc, log


def _all_gone(pids: set[int], within: float) -> list[int]:
    deadline = time.monotonic() + within
    while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    return [pid for pid in pids if _alive(pid)]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
@pytest.mark.parametrize("how", ["SIGTERM", "SIGKILL"])
def test_no_bot_process_outlives_the_server(tmp_path: Path, how: str) -> None:
    # systemctl stop and docker stop send SIGTERM, a crash or the OOM killer is SIGKILL: the bot
    # worker processes and multiprocessing's resource tracker must go with the server either
    # way, not linger as orphans.
    workers: set[int] = set()
    proc, log = _serve_a_bot_game(tmp_path)
    try:
        workers.update(_children(proc.pid))
        assert len(workers) >= 2, "no bot worker process (and resource tracker) was started"
        proc.send_signal(getattr(signal, how))
        proc.wait(30)
        if how == "SIGTERM":
            assert "Traceback" not in log.read_text(), log.read_text()
        assert not _all_gone(workers, 10), "processes outlived the server"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        for pid in workers:  # orphans of a failed run: ours, ended by their id
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_a_port_already_taken_is_one_clear_line_and_no_open_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    port = free_port()
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as other:
        other.bind(("127.0.0.1", port))
        other.listen()
        status = main(["serve", "--port", str(port), "--db", f"sqlite:///{tmp_path / 'x.db'}"])
    assert status == 3
    out, err = capsys.readouterr()
    assert "open http" not in out
    assert err.strip().splitlines() == [
        f"sequence serve: port {port} is already in use on 127.0.0.1"
        " (another server? choose another port with --port)"
    ]


def test_an_unreachable_redis_and_a_bad_time_control_are_one_line_each(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = f"sqlite:///{tmp_path / 'x.db'}"
    port = str(free_port())
    # Port 1 on the loopback: nothing listens there.
    assert main(["serve", "--db", db, "--port", port, "--redis", "redis://127.0.0.1:1/0"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sequence serve: cannot reach Redis at redis://127.0.0.1:1/0")
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    monkeypatch.setenv("SEQUENCE_REDIS_URL", "redis://127.0.0.1:1/3")  # what --redis defaults to
    assert main(["serve", "--db", db, "--port", port]) == 2
    assert "cannot reach Redis at redis://127.0.0.1:1/3" in capsys.readouterr().err
    monkeypatch.delenv("SEQUENCE_REDIS_URL")
    assert main(["serve", "--db", db, "--port", port, "--time-control", "blitz=5,0"]) == 2
    err = capsys.readouterr().err
    assert "--time-control is NAME=TURN,RESERVE" in err and "casual or quick" in err
    assert main(["serve", "--db", db, "--port", port, "--time-control", "quick=0,5"]) == 2
    assert "not 'quick=0,5'" in capsys.readouterr().err
