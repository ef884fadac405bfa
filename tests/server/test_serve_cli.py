"""`sequence serve` as an operator runs it: its flags, and stopping it."""

from __future__ import annotations

import signal
import socket
import time
from pathlib import Path

import httpx
import pytest

from sequence.cli.main import main
from sequence.server.cluster.launcher import Cluster

from .cluster import alive, children
from .conftest import free_port


def test_an_unknown_log_level_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["serve", "--log-level", "bogus", "--db", f"sqlite:///{tmp_path / 'x.db'}"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'bogus'" in err and "Traceback" not in err


def _serve_a_bot_game(tmp_path: Path) -> Cluster:
    """``sequence serve`` in a subprocess, with a game of two bots under way."""
    db = f"sqlite:///{tmp_path / 'term.db'}"
    cluster = Cluster(1, db, serve_args=["--bot-delay", "0"], workdir=tmp_path, nginx=None)
    cluster.start()
    deadline = time.monotonic() + 30
    with httpx.Client(base_url=cluster.servers[0].url, timeout=20) as http:
        body = {"game": "kids", "players": 2, "bots": ["random", "random"]}
        created = http.post("/api/tables", json=body).json()
        code = created["code"]
        r = http.post(f"/api/tables/{code}/start", json={"host_token": created["host_token"]})
        assert r.status_code == 200, r.text
        while http.get(f"/api/tables/{code}").json()["version"] < 2:  # bots have moved
            assert time.monotonic() < deadline, "the bots did not move"
            time.sleep(0.05)
    return cluster


def _all_gone(pids: set[int], within: float) -> list[int]:
    deadline = time.monotonic() + within
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    return [pid for pid in pids if alive(pid)]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
@pytest.mark.parametrize("how", ["SIGTERM", "SIGKILL"])
def test_no_bot_process_outlives_the_server(tmp_path: Path, how: str) -> None:
    # systemctl stop and docker stop send SIGTERM, a crash or the OOM killer is SIGKILL: the bot
    # worker processes and multiprocessing's resource tracker must go with the server either
    # way, not linger as orphans.
    cluster = _serve_a_bot_game(tmp_path)
    try:
        server = cluster.servers[0]
        workers = children(server.pid)
        assert len(workers) >= 2, "no bot worker process (and resource tracker) was started"
        server.kill(getattr(signal, how))
        if how == "SIGTERM":
            assert "Traceback" not in server.log.read_text(), server.log.read_text()
        assert not _all_gone(workers, 10), "processes outlived the server"
    finally:
        cluster.stop()  # orphans of a failed run too: what is left in the server's session


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
