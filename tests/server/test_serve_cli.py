"""`sequence serve` as an operator runs it: its flags, and stopping it."""

from __future__ import annotations

import os
import signal
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


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_sigterm_shuts_the_bot_pool_down_like_ctrl_c(tmp_path: Path) -> None:
    # systemctl stop and docker stop send SIGTERM: the bot worker processes (and
    # multiprocessing's resource tracker) must go with the server, not linger as orphans.
    port = free_port()
    workers: set[int] = set()
    cmd = [sys.executable, "-m", "sequence.cli.main", "serve", "--port", str(port),
           "--db", f"sqlite:///{tmp_path / 'term.db'}", "--bot-delay", "0"]  # fmt: skip
    # stderr to a file, not a pipe: an orphan would hold a pipe open and hide the exit.
    log = tmp_path / "serve.log"
    proc = subprocess.Popen(cmd, env={**os.environ, "PYTHONUNBUFFERED": "1"},
                            stdout=subprocess.DEVNULL, stderr=log.open("wb"))  # fmt: skip
    try:
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
        workers.update(_children(proc.pid))
        assert workers, "no bot worker process was started"
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
        assert "Traceback" not in log.read_text(), log.read_text()
        deadline = time.monotonic() + 10
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [pid for pid in workers if _alive(pid)], "bot processes outlived the server"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        for pid in workers:  # orphans of a failed run: ours, ended by their id
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
