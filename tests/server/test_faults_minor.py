"""The minor faults of issue 30, on PostgreSQL (where the first one was a 500): a table code
holding a NUL byte, a move id sent again with another move, and a name over the limit."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from websockets.exceptions import ConnectionClosedError
from websockets.sync.client import connect

from sequence.server.tables.seating import NAME_LENGTH

from .conftest import Client, ServerThread, answer, create_table, fresh_postgres, join, start

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def pg_server() -> Iterator[ServerThread]:
    with fresh_postgres() as db, ServerThread(db, bot_delay=0, rate=10_000, burst=10_000) as srv:
        yield srv


@pytest.mark.parametrize("path", ["/api/tables/AB%00CD", "/api/tables/AB%00CD/qr.svg"])
def test_a_nul_byte_in_a_code_is_refused_in_json(pg_server: ServerThread, path: str) -> None:
    """No 500: a code is six letters or digits (the OpenAPI pattern), so a 400 that says so."""
    with pg_server.http() as http:
        r = http.get(path)
    assert r.status_code == 400, r.text
    assert r.json()["error"] == "bad_message" and "code" in r.json()["message"]


def test_a_nul_byte_in_a_websockets_code_is_an_unknown_table(pg_server: ServerThread) -> None:
    """The WebSocket names its table in the URL, below the API's pattern: PostgreSQL refuses
    NUL in text, and the table is unknown, as for any code no table has (no 500, no hang)."""
    said: list[str | bytes] = []
    with (
        connect(f"{pg_server.ws_url}/ws/AB%00CD", open_timeout=10) as ws,
        pytest.raises(ConnectionClosedError) as closed,
    ):
        while True:
            said.append(ws.recv(timeout=10))
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404, said
    assert all('"unknown_table"' in str(m) for m in said), said


def test_a_move_id_sent_again_with_another_move_is_refused(pg_server: ServerThread) -> None:
    t = create_table(pg_server, game="classic", players=2, name="Ann", seat=0)
    code = t["code"]
    bob = join(pg_server, code, "Bob", 1)
    start(pg_server, code, t["host_token"])
    clients = {
        0: Client(pg_server, code, t["seat_token"]),
        1: Client(pg_server, code, bob["seat_token"]),
    }
    mover = next(
        (s, c) for s, c in clients.items()
        if c.wait(lambda x: x["view"] is not None)["view"]["to_move"] == s
    )  # fmt: skip
    _, client = mover
    view = client.state["view"]  # type: ignore[index]
    first, other = view["legal_moves"][0], view["legal_moves"][1]
    client.send({"type": "move", "move": first, "version": 0, "id": "m-1"})
    assert answer(client, "m-1") == {"type": "ack", "id": "m-1", "ply": 1, "duplicate": False}
    client.send({"type": "move", "move": first, "version": 0, "id": "m-1"})  # a resend
    assert answer(client, "m-1")["duplicate"] is True
    client.send({"type": "move", "move": other, "version": 0, "id": "m-1"})  # not a resend
    refused = answer(client, "m-1")
    assert refused["type"] == "error" and refused["code"] == "bad_message"
    assert refused["message"] == (
        f"move id m-1 was already used for another move ({first}); nothing was done"
    )
    assert len(pg_server.stored(code).moves) == 1


def test_a_name_over_the_limit_is_refused_not_cut(pg_server: ServerThread) -> None:
    long = "N" * (NAME_LENGTH + 1)
    with pg_server.http() as http:
        r = http.post(
            "/api/tables", json={"game": "classic", "players": 2, "name": long, "seat": 0}
        )
        assert r.status_code == 400  # the description's maxLength: 24
        assert r.json() == {"error": "bad_message", "message": "name is too long"}
        r = http.post(
            "/api/tables",
            json={"game": "classic", "players": 2, "name": "N" * NAME_LENGTH, "seat": 0},
        )
        assert r.status_code == 200
        code = r.json()["code"]
        r = http.post(f"/api/tables/{code}/join", json={"name": long, "seat": 1})
        assert r.status_code == 400 and "too long" in r.json()["message"]
        assert http.get(f"/api/tables/{code}").json()["seats"][1]["name"] is None
