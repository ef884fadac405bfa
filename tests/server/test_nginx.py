"""nginx in front of ``sequence serve`` (the repository's own configuration and launcher).

The shipped site configuration is the rendered one and nginx accepts it; through nginx a whole
game is played over WebSockets (every message checked against the engine's view of its seat),
the rate limits count each client's own address (not nginx's, not one a client forged), and
stopping the cluster leaves no process behind. Skipped where nginx is not installed
(``.ci/run`` installs it).
"""

from __future__ import annotations

import json
import secrets
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from sequence.server.cluster.launcher import Cluster
from sequence.server.cluster.nginx import site_config, standalone_config
from sequence.server.tables.models import ErrorAnswer

from .cluster import REDIS_URL, redis_available
from .conftest import fresh_postgres, load_stored
from .test_games import play_whole_game

ROOT = Path(__file__).resolve().parents[2]
NGINX = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/sbin")

needs_nginx = pytest.mark.skipif(
    NGINX is None, reason="nginx is not installed (apt-get install nginx; .ci/run does it)"
)


class Behind:
    """A cluster as the game tests' helpers see a server: nginx's address, the database."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self.url, self.ws_url = cluster.url, cluster.ws_url

    def http(self, local_address: str | None = None) -> httpx.Client:
        transport = httpx.HTTPTransport(local_address=local_address)
        return httpx.Client(base_url=self.url, timeout=20, transport=transport)

    def stored(self, code: str) -> Any:
        return load_stored(self.cluster.db, code)


@pytest.fixture
def one(tmp_path: Path) -> Iterator[Behind]:
    """nginx in front of one process on SQLite."""
    if NGINX is None:
        pytest.skip("nginx is not installed (apt-get install nginx; .ci/run does it)")
    # The test's players answer at once: more than a person's 20 messages a second.
    serve_args = ["--bot-threads", "--bot-delay", "0", "--message-rate", "1000"]
    with Cluster(1, serve_args=serve_args, workdir=tmp_path) as c:
        yield Behind(c)
    assert c.leftovers() == []


def test_the_shipped_configuration_is_the_rendered_one() -> None:
    upstreams = ["127.0.0.1:8001", "127.0.0.1:8002", "127.0.0.1:8003"]
    shipped = (ROOT / "deploy" / "nginx" / "sequence.conf").read_text()
    assert shipped == site_config(upstreams, "80"), (
        "deploy/nginx/sequence.conf is out of date: python -m sequence.server.cluster.nginx"
        " --listen 80 127.0.0.1:8001 127.0.0.1:8002 127.0.0.1:8003 > deploy/nginx/sequence.conf"
    )
    for line in (
        "proxy_set_header Upgrade $http_upgrade;",
        "proxy_set_header X-Forwarded-For $remote_addr;",
        "proxy_set_header X-Forwarded-Proto $scheme;",
        "proxy_read_timeout 120s;",
    ):
        assert line in shipped


@needs_nginx
def test_nginx_accepts_the_configuration(tmp_path: Path) -> None:
    site = tmp_path / "sequence.conf"
    site.write_text((ROOT / "deploy" / "nginx" / "sequence.conf").read_text())
    conf = tmp_path / "nginx.conf"
    conf.write_text(standalone_config(tmp_path, site))
    assert NGINX is not None
    result = subprocess.run(
        [NGINX, "-t", "-p", str(tmp_path), "-e", str(tmp_path / "error.log"), "-c", str(conf)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 0, result.stderr
    assert "syntax is ok" in result.stderr


def test_a_whole_game_over_websockets_through_nginx(one: Behind) -> None:
    play_whole_game(one, "classic", 2, {}, [None, None], seed=7)
    play_whole_game(one, "dice", 4, {}, [None, None, "random", "random"], seed=8)
    log = (one.cluster.workdir / "access.log").read_text()
    assert '"GET /ws/' in log and " 101 " in log  # the sockets went through nginx


def test_a_body_up_to_the_limit_gets_the_apis_answer_through_nginx(one: Behind) -> None:
    """nginx (its workers ``nobody`` when it runs as root, the launcher's folder closed to
    them) keeps bodies in memory: 15,000 bytes get the API's own 400, 20,000 its JSON 413
    (over nginx's 64 KiB: nginx's own 413, in the same format: the test below)."""
    with one.http() as http:
        padding = "x" * 15_000
        answer = http.post("/api/tables", json={"game": "kids", "players": 2, "name": padding})
        assert answer.status_code == 400 and answer.json()["error"] == "bad_message", answer.text
        big = http.post("/api/tables", content=b"{" + b" " * 20_000 + b"}")
        assert big.status_code == 413 and "error" in big.json(), big.text


def _raw(url: str, request: bytes) -> tuple[int, str, str]:
    """``request`` sent as is to nginx at ``url``: the answer's status, content type and body
    (httpx cannot send a request that is not valid HTTP)."""
    host, port = url.removeprefix("http://").rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(request)
        answer = b""
        while chunk := sock.recv(65536):  # nginx closes the connection after a 400
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers.get("Content-Type", ""), body.decode("utf-8")


def _api_error(answer: httpx.Response, code: str) -> dict[str, str]:
    """An answer in the API's error format (the description's ErrorAnswer), with ``code``."""
    assert answer.headers["content-type"] == "application/json", answer.text
    error = ErrorAnswer.model_validate(answer.json()).model_dump()
    assert error["error"] == code, answer.text
    return error


def test_nginxs_own_errors_under_api_are_the_apis(one: Behind) -> None:
    """What nginx refuses itself (a request that is not HTTP: 400; a body over its 64 KiB: 413)
    or cannot pass on (no process answers: 502) gets the API's JSON error under /api/, with the
    message in the request's language; any other path keeps nginx's HTML page."""
    url = one.url
    with one.http() as http:
        huge = b"{" + b" " * 70_000 + b"}"
        too_large = http.post("/api/tables", content=huge, headers={"Accept-Language": "de"})
        assert too_large.status_code == 413
        error = _api_error(too_large, "too_large")
        assert error["message"] == "die Anfrage ist größer als 65536 Bytes"
        page = http.post("/t/ABCDEF", content=huge)
        assert page.status_code == 413 and page.headers["content-type"] == "text/html"
    # HTTP/1.1 without Host, and a header line without a colon: nginx's 400.
    for request in (
        b"GET /api/tables HTTP/1.1\r\n\r\n",
        b"POST /api/tables HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n",
    ):
        status, kind, body = _raw(url, request)
        assert (status, kind) == (400, "application/json"), body
        assert json.loads(body)["error"] == "bad_message"
    status, kind, body = _raw(url, b"GET /t/ABCDEF HTTP/1.1\r\n\r\n")
    assert (status, kind) == (400, "text/html") and "<html>" in body
    status, kind, body = _raw(url, b"NOT HTTP AT ALL\r\n\r\n")  # no path to judge by: HTML
    assert (status, kind) == (400, "text/html"), body
    # The API's own errors pass through as they are.
    with one.http() as http:
        own = http.get("/api/tables/NOPE42", headers={"Accept-Language": "fr"})
        assert own.status_code == 404 and _api_error(own, "unknown_table")
        one.cluster.kill(0)  # no process left
        down = http.get("/api/tables", headers={"Accept-Language": "ru"})
        assert down.status_code == 502
        assert _api_error(down, "unavailable")["message"] != (
            "the server is not answering; try again in a moment"  # in Russian
        )
        posted = http.post("/api/tables", json={"game": "kids", "players": 2})
        assert posted.status_code == 502 and _api_error(posted, "unavailable")
        page = http.get("/")
        assert page.status_code == 502 and page.headers["content-type"] == "text/html"
        assert "<html>" in page.text


def _create(http: httpx.Client) -> httpx.Response:
    return http.post("/api/tables", json={"game": "kids", "players": 2, "public": False})


def test_the_rate_limit_counts_each_client_behind_nginx(one: Behind) -> None:
    # Loopback has every 127.x.y.z: each address here is another player's machine.
    with one.http("127.0.0.2") as ann, one.http("127.0.0.3") as bob:
        for _ in range(10):  # the burst of table creations
            assert _create(ann).status_code == 200
        refused = _create(ann)
        assert refused.status_code == 429 and refused.json()["error"] == "rate_limited"
        # A forged X-Forwarded-For changes nothing: nginx sends the address it saw.
        forged = ann.post(
            "/api/tables",
            json={"game": "kids", "players": 2},
            headers={"X-Forwarded-For": "198.51.100.7"},
        )
        assert forged.status_code == 429
        assert _create(bob).status_code == 200  # another client is not held up by Ann
    # Straight to the process, not through nginx: a forged header is not believed either
    # (--forwarded-allow-ips names nginx's address only).
    direct = httpx.Client(
        base_url=one.cluster.servers[0].url,
        transport=httpx.HTTPTransport(local_address="127.0.0.4"),
    )
    with direct:
        for _ in range(10):
            r = direct.post(
                "/api/tables",
                json={"game": "kids", "players": 2},
                headers={"X-Forwarded-For": "127.0.0.2"},  # Ann's, who is over her limit
            )
            assert r.status_code == 200, r.text


def test_without_trusting_nginx_every_player_is_one_client(tmp_path: Path) -> None:
    """What ``--forwarded-allow-ips`` is for: trusting another address than nginx's, the
    server counts nginx's address for everybody, and one player's tables hold up the next."""
    if NGINX is None:
        pytest.skip("nginx is not installed (apt-get install nginx; .ci/run does it)")
    args = ["--bot-threads", "--forwarded-allow-ips", "192.0.2.1"]
    with Cluster(1, serve_args=args, workdir=tmp_path) as cluster:
        behind = Behind(cluster)
        with behind.http("127.0.0.2") as ann, behind.http("127.0.0.3") as bob:
            for _ in range(10):
                assert _create(ann).status_code == 200
            assert _create(bob).status_code == 429


def test_stopping_leaves_no_process(tmp_path: Path) -> None:
    if NGINX is None:
        pytest.skip("nginx is not installed (apt-get install nginx; .ci/run does it)")
    cluster = Cluster(1, workdir=tmp_path).start()  # bots in worker processes: the default
    try:
        with httpx.Client(base_url=cluster.url, timeout=20) as http:
            created = http.post(
                "/api/tables", json={"game": "kids", "players": 2, "bots": ["random", "random"]}
            ).json()
            r = http.post(
                f"/api/tables/{created['code']}/start", json={"host_token": created["host_token"]}
            )
            assert r.status_code == 200
            deadline = time.monotonic() + 30
            while http.get(f"/api/tables/{created['code']}").json()["version"] < 2:
                assert time.monotonic() < deadline, "the bots did not move"
                time.sleep(0.1)
        members = cluster.leftovers()
        assert len(members) >= 3  # the server, its bot workers, nginx and its worker
    finally:
        cluster.stop()
    assert cluster.leftovers() == []


@contextmanager
def _three_processes(tmp_path: Path, *, spread: bool) -> Iterator[Cluster]:
    """Three server processes on PostgreSQL and Redis behind nginx (skipped where nginx or
    Redis is missing); ``spread``: nginx spreads a table's sockets over them."""
    if NGINX is None:
        pytest.skip("nginx is not installed (apt-get install nginx; .ci/run does it)")
    why = redis_available()
    if why:
        pytest.skip(why)
    prefix = f"nginx-test-{secrets.token_hex(4)}"
    args = ["--bot-threads", "--bot-delay", "0", "--message-rate", "1000"]
    with (
        fresh_postgres() as db,
        Cluster(
            3, db, REDIS_URL, redis_prefix=prefix, serve_args=args, workdir=tmp_path, spread=spread
        ) as cluster,
    ):
        yield cluster


@pytest.mark.postgres
def test_whole_games_with_players_on_different_processes_through_nginx(tmp_path: Path) -> None:
    """Three processes on PostgreSQL and Redis behind nginx, as docs/deploy.md sets them up but
    with ``--spread``: nginx spreads each table's players and spectator over the processes, and
    every message each one gets is still exactly its seat's view."""
    with _three_processes(tmp_path, spread=True) as cluster:
        behind = Behind(cluster)
        play_whole_game(behind, "classic", 2, {}, [None, None], seed=11)
        play_whole_game(behind, "dice", 4, {}, [None, None, "random", "random"], seed=12)
        log = (tmp_path / "access.log").read_text().splitlines()
        sockets = [line.rsplit(" ", 1)[1] for line in log if '"GET /ws/' in line]
        assert len(set(sockets)) == 3, sockets  # the clients sat on all three processes
        # A process killed: nginx sends every request to the two others (docs/deploy.md).
        cluster.kill(0)
        with behind.http() as http:
            for _ in range(12):
                assert http.get("/api/tables").status_code == 200
    assert cluster.leftovers() == []


def test_a_tables_sockets_go_to_one_process_and_tables_spread_over_all(tmp_path: Path) -> None:
    """The shipped configuration: nginx hashes a WebSocket's table code, so every player of a
    table sits on one process (which alone applies and shows its moves) while the tables share
    the processes; with one of them killed, games go on being played through the others."""
    with _three_processes(tmp_path, spread=False) as cluster:
        behind = Behind(cluster)
        for seed in range(6):
            play_whole_game(behind, "kids", 2, {}, [None, None], seed=20 + seed)

        def sockets() -> dict[str, set[str]]:
            by_table: dict[str, set[str]] = {}
            for line in (tmp_path / "access.log").read_text().splitlines():
                if '"GET /ws/' in line:
                    code = line.split('"GET /ws/', 1)[1].split("?", 1)[0].split(" ", 1)[0]
                    by_table.setdefault(code, set()).add(line.rsplit(" ", 1)[1])
            return by_table

        placed = sockets()
        assert len(placed) == 6 and all(len(p) == 1 for p in placed.values()), placed
        assert len(set().union(*placed.values())) >= 2, placed  # six tables, not all on one
        # The process of a table killed: nginx finds the others for what comes next.
        first = sorted(placed)[0]
        port = int(next(iter(placed[first])).rsplit(":", 1)[1])
        cluster.kill(next(i for i, s in enumerate(cluster.servers) if s.port == port))
        play_whole_game(behind, "kids", 2, {}, [None, None], seed=40)
    assert cluster.leftovers() == []


@pytest.mark.postgres
def test_the_rate_limit_holds_across_the_processes_behind_nginx(tmp_path: Path) -> None:
    """nginx spreads one player's requests over three processes; their limit is counted in the
    shared Redis, so the player gets 10 tables at once in all, not 10 from each process."""
    with _three_processes(tmp_path, spread=False) as cluster:
        with Behind(cluster).http("127.0.0.2") as ann, Behind(cluster).http("127.0.0.3") as bob:
            made = [_create(ann).status_code for _ in range(16)]
            assert made[:10] == [200] * 10 and made.count(200) <= 11, made
            assert _create(bob).status_code == 200  # another client is not held up by Ann
        log = (tmp_path / "access.log").read_text().splitlines()
        served = {line.rsplit(" ", 1)[1] for line in log if '"POST /api/tables ' in line}
        assert len(served) == 3, served  # the requests went to all three processes
