"""The API as described: docs/server.md and /openapi.json agree; bad input anywhere is a clear
error that changes nothing; rate limits; idle lobbies leave memory."""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from sequence.server.tables import messages, registry

from .conftest import Client, ServerThread, create_table, gone_for, join, start

DOCS = Path(__file__).parents[2] / "docs" / "server.md"
ROW = re.compile(r"^\| `(GET|POST) (/api/[^`?]*)(?:\?[^`]*)?`[^|]*\| ([\d, ]+) \|", re.M)


def test_the_docs_and_the_openapi_description_agree(server: ServerThread) -> None:
    documented = {
        (method, path): {int(s) for s in statuses.split(",")}
        for method, path, statuses in ROW.findall(DOCS.read_text())
    }
    assert len(documented) >= 13
    with server.http() as http:
        schema = http.get("/openapi.json").json()
    described = {
        (method.upper(), path): {int(s) for s in op["responses"]}
        for path, ops in schema["paths"].items()
        for method, op in ops.items()
    }
    assert documented == described
    for (method, path), statuses in described.items():
        op = schema["paths"][path][method.lower()]
        for status in {s for s in statuses if s >= 400}:  # every error answer is {error, message}
            ref = op["responses"][str(status)]["content"]["application/json"]["schema"]["$ref"]
            assert ref.endswith("/ErrorAnswer"), (method, path, status)
        if method == "POST":  # every body is declared, strict and closed
            body = op["requestBody"]["content"]["application/json"]["schema"]["$ref"]
            model = schema["components"]["schemas"][body.rsplit("/", 1)[1]]
            assert model["additionalProperties"] is False, path


OPENAPI = Path(__file__).parent / "data" / "openapi.json"
"""/openapi.json as the server serves it: it changes only on purpose. The server's cut into rooms
by concern (issue 29) left it byte for byte as commit 6295718 served it (but for one docstring
naming the moved module of a table's events); changes since are intended ones (invite_base in
/api/meta, display in a rating; issue 30: every constraint the models enforce stated, the 422s
of the rules declared). Regenerate with SEQUENCE_REGEN_OPENAPI=1."""


def test_the_openapi_description_changes_only_on_purpose(server: ServerThread) -> None:
    # Text, not dicts: the order of paths, fields and keys is part of what clients and
    # generated code see.
    with server.http() as http:
        served = json.dumps(http.get("/openapi.json").json(), indent=1, ensure_ascii=False) + "\n"
    if os.environ.get("SEQUENCE_REGEN_OPENAPI"):
        OPENAPI.write_text(served)
    assert served == OPENAPI.read_text(), "the API changed: regenerate only if intended"


BODY_ROW = re.compile(r"^\| `POST (/api/[^`]*)` `\{([^`]*)\}` \|", re.M)


def test_the_docs_name_every_field_of_every_request_body(server: ServerThread) -> None:
    with server.http() as http:
        schema = http.get("/openapi.json").json()
    rows = BODY_ROW.findall(DOCS.read_text())
    with_body = {
        path for path, ops in schema["paths"].items() if "requestBody" in ops.get("post", {})
    }
    assert {path for path, _ in rows} == with_body  # every body documented, and only those
    for path, fields in rows:
        fields = re.sub(r"\[[^\]]*\]", "", fields)
        names = [n for n in (f.split(":")[0].strip() for f in fields.split(",")) if n]  # {}: none
        body = schema["paths"][path]["post"]["requestBody"]["content"]["application/json"]
        model = schema["components"]["schemas"][body["schema"]["$ref"].rsplit("/", 1)[1]]
        assert {n.rstrip("?") for n in names} == set(model["properties"]), path
        optional = {n.rstrip("?") for n in names if n.endswith("?")}
        assert not optional & set(model.get("required", ())), path


POSTS = ["/api/tables", "/api/tables/{code}/join", "/api/tables/{code}/start",
         "/api/tables/{code}/seats/0/bot", "/api/tables/{code}/rematch"]  # fmt: skip


@pytest.mark.parametrize(
    ("body", "status", "error", "says"),
    [
        ("[" * 1500 + "]" * 1500, 400, "bad_json", "nests deeper than 32 levels"),
        ('{"a": ' + "{" * 40 + "}" * 40 + "}", 400, "bad_json", "nests deeper than 32 levels"),
        ('{"name": "' + "x" * 20_000 + '"}', 413, "too_large", "larger than 16384 bytes"),
        ('{"name": NaN}', 400, "bad_json", "not JSON"),
        ("{'name': 'x'}", 400, "bad_json", "not JSON"),
        (b"\xff\xfe{}", 400, "bad_json", "not JSON"),
        ("[]", 400, "bad_message", "must be a JSON object"),
        ('"x"', 400, "bad_message", "must be a JSON object"),
    ],
)
def test_bad_bodies_anywhere_are_clear_errors_that_change_nothing(
    server: ServerThread, body: str | bytes, status: int, error: str, says: str
) -> None:
    code = create_table(server, game="kids", players=2)["code"]
    with server.http() as http:
        before = http.get(f"/api/tables/{code}").json()
        for path in POSTS:
            raw = body.encode() if isinstance(body, str) else body
            r = http.post(path.format(code=code), content=raw)
            assert r.status_code == status, (path, r.text)
            assert r.headers["content-type"] == "application/json"
            assert r.json()["error"] == error and says in r.json()["message"], (path, r.text)
        assert http.get(f"/api/tables/{code}").json() == before
        assert [t["code"] for t in http.get("/api/tables").json()["tables"]] == [code]


def test_nested_and_malformed_frames_get_errors_and_the_connection_goes_on(
    server: ServerThread,
) -> None:
    code = create_table(server, game="kids", players=2)["code"]
    client = Client(server, code)
    client.wait_version(0)
    for frame, error in [
        ("[" * 1500 + "]" * 1500, "bad_json"),
        ('{"type": "move", "move": ' + "[" * 100 + "]" * 100 + "}", "bad_json"),
        ("{" * 2000, "bad_json"),
        ("x" * 5000, "too_large"),
        ('{"type": "ping", "x": NaN', "bad_json"),
        ('{"type": 5}', "bad_message"),
        (b"\x00\x01", "bad_message"),
    ]:
        client.send(frame)
        assert client.error()["code"] == error, frame[:40]
    client.send({"type": "ping"})
    assert client.recv()["type"] == "pong"
    client.close()


def test_close_codes_say_why(server: ServerThread) -> None:
    with connect(f"{server.ws_url}/ws/NOSUCH", open_timeout=10) as ws:
        assert json.loads(ws.recv(timeout=10))["code"] == "unknown_table"
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
    assert closed.value.rcvd is not None
    assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (4404, "unknown table")


def test_creating_and_joining_are_rate_limited_per_client(sqlite_url: str) -> None:
    with (
        ServerThread(
            sqlite_url, bot_delay=0, create_rate=0.01, create_burst=3, join_rate=0.01, join_burst=2
        ) as server,
        server.http() as http,
    ):
        codes = [create_table(server, game="kids", players=4)["code"] for _ in range(3)]
        r = http.post("/api/tables", json={"game": "kids", "players": 2})
        assert r.status_code == 429 and r.json()["error"] == "rate_limited", r.text
        assert 1 <= int(r.headers["retry-after"]) <= 100
        assert "try again in" in r.json()["message"]
        r = http.post(
            "/api/tables", json={"game": "kids", "players": 2}, headers={"Accept-Language": "fr"}
        )
        assert r.status_code == 429 and "réessayez" in r.json()["message"], r.text
        listed = {t["code"] for t in http.get("/api/tables").json()["tables"]}
        assert listed == set(codes)  # nothing made by the refused requests
        join(server, codes[0], "Ann")
        join(server, codes[0], "Bob")
        r = http.post(f"/api/tables/{codes[0]}/join", json={"name": "Cy"})
        assert r.status_code == 429 and r.headers["retry-after"], r.text
        seats = http.get(f"/api/tables/{codes[0]}").json()["seats"]
        assert [s["name"] for s in seats] == ["Ann", "Bob", None, None]


def test_idle_lobbies_leave_the_list_and_memory_and_come_back_by_their_link(
    server: ServerThread,
) -> None:
    old = create_table(server, game="kids", players=2, name="Ann")["code"]
    watched = create_table(server, game="kids", players=2)["code"]
    spectator = Client(server, watched)
    spectator.wait_version(0)
    # Age the first lobby past the limit rather than shortening the limit: a short limit would
    # also expire the new lobby on a loaded machine before the list is read.
    server.hub.registry.tables[old].active -= registry.LOBBY_IDLE + 1
    server.hub.registry._swept = 0.0
    new = create_table(server, game="kids", players=2)["code"]
    assert old not in server.hub.registry.tables
    assert {watched, new} <= server.hub.registry.tables.keys()  # someone is at one
    with server.http() as http:
        listed = {t["code"] for t in http.get("/api/tables").json()["tables"]}
        assert old not in listed and {watched, new} <= listed
        table = http.get(f"/api/tables/{old}").json()  # the link still works
        assert table["status"] == "lobby" and table["seats"][0]["name"] == "Ann"
    assert old in server.hub.registry.tables
    join(server, old, "Bob")
    spectator.close()


def test_a_game_its_players_left_leaves_the_list_and_comes_back_with_them(
    server: ServerThread,
) -> None:
    created = create_table(
        server, game="kids", players=2, name="Ann", seat=0, bots=[None, "random"]
    )
    code, token, host = created["code"], created["seat_token"], created["host_token"]
    start(server, code, host)
    table = server.hub.registry.tables[code]

    def listed() -> bool:
        with server.http() as http:
            return code in {t["code"] for t in http.get("/api/tables").json()["tables"]}

    ann = Client(server, code, token, host)
    ann.wait(lambda s: s["view"] is not None)
    gone_for(table, registry.PLAY_IDLE + 1)  # her last visit: it counts only once she leaves
    assert listed()
    ann.close()
    deadline = time.monotonic() + 10
    while table.seats[0].connections or table.host_connections:
        assert time.monotonic() < deadline, "the server did not see Ann leave"
        time.sleep(0.02)
    assert listed()  # she has just left
    gone_for(table, registry.PLAY_IDLE - 5)
    assert listed()
    gone_for(table, registry.PLAY_IDLE + 1)
    assert not listed()  # nobody of the game has been here for ten minutes
    with server.http() as http:  # not deleted: its link works, the game waits for her
        assert http.get(f"/api/tables/{code}").json()["status"] == "playing"
    ann = Client(server, code, token, host)
    ann.wait(lambda s: s["view"] is not None)
    assert listed()  # she is back
    ann.close()


WS_ROW = re.compile(r'^\| `(\{"type": "(\w+)"[^`]*\})` \|', re.M)


def test_the_docs_and_the_websocket_message_models_agree() -> None:
    documented = {
        kind: set(re.findall(r'"(\w+)":', row)) for row, kind in WS_ROW.findall(DOCS.read_text())
    }
    modelled = {kind: set(model.model_fields) for kind, model in messages.MESSAGES.items()}
    assert documented == modelled
