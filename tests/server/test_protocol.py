"""Every rule of the protocol: bad input is refused with a clear error and changes nothing."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from sequence.engine import ConfigError, GameRecord, config_from_dict, history
from sequence.i18n import catalog_json, translator
from sequence.i18n.errors import translate_error
from sequence.server.tables import protocol

from .conftest import Client, ServerThread, apply_delta, create_table, free_port, join, start


def two_humans(server: ServerThread, **options: Any) -> tuple[str, str, dict[int, str]]:
    created = create_table(server, game="classic", players=2, options=options, name="Ann", seat=0)
    code = created["code"]
    bob = join(server, code, "Bob")
    return code, created["host_token"], {0: created["seat_token"], 1: bob["seat_token"]}


def started(server: ServerThread) -> tuple[str, str, dict[int, Client], Client]:
    code, host, tokens = two_humans(server)
    server.tokens = tokens
    start(server, code, host)
    clients = {s: Client(server, code, t) for s, t in tokens.items()}
    for c in clients.values():
        c.wait(lambda s: s["view"] is not None)
    watcher = Client(server, code)
    watcher.wait(lambda s: s["view"] is not None)
    return code, host, clients, watcher


def mover(clients: dict[int, Client]) -> tuple[int, Client, dict[str, Any]]:
    for seat, c in clients.items():
        st = c.state
        assert st is not None
        if st["view"]["legal_moves"]:
            return seat, c, st
    raise AssertionError("nobody to move")


def test_unknown_table_http_and_ws(server: ServerThread) -> None:
    with server.http() as http:
        r = http.get("/api/tables/NOPE42")
        assert r.status_code == 404 and r.json()["error"] == "unknown_table"
        assert http.post("/api/tables/NOPE42/join", json={"name": "x"}).status_code == 404
    c = Client(server, "NOPE42")
    msg = c.recv()
    assert msg["type"] == "error" and msg["code"] == "unknown_table"


def test_bad_create_requests(server: ServerThread) -> None:
    with server.http() as http:
        r = http.post("/api/tables", json={"game": "classic", "players": 5})
        assert r.status_code == 422 and "5 players" in r.json()["message"]
        r = http.post("/api/tables", content=b"{not json")
        assert r.status_code == 400 and r.json()["error"] == "bad_json"
        r = http.post(
            "/api/tables", json={"game": "kids", "players": 2, "bots": ["os:system", None]}
        )
        assert r.status_code == 400 and "unknown bot level" in r.json()["message"]
        r = http.post("/api/tables", content=b"x" * 20_000)
        assert r.status_code == 413 and r.json()["error"] == "too_large"
        assert http.get("/api/tables").json()["tables"] == []


def test_join_full_table_and_taken_seat(server: ServerThread) -> None:
    code, _host, _tokens = two_humans(server)
    with server.http() as http:
        r = http.post(f"/api/tables/{code}/join", json={"name": "Cy"})
        assert r.status_code == 409 and "full" in r.json()["message"]
        r = http.post(f"/api/tables/{code}/join", json={"name": "Cy", "seat": 0})
        assert r.status_code == 409
        r = http.post(f"/api/tables/{code}/join", json={"name": "", "seat": 1})
        assert r.status_code in (400, 409)


def test_start_needs_host_and_full_seats(server: ServerThread) -> None:
    created = create_table(server, game="kids", players=3, name="Ann", bots=[None, "random", None])
    code = created["code"]
    with server.http() as http:
        r = http.post(f"/api/tables/{code}/start", json={"host_token": "wrong"})
        assert r.status_code == 403 and r.json()["error"] == "not_host"
        r = http.post(f"/api/tables/{code}/start", json={"host_token": created["host_token"]})
        assert r.status_code == 409 and "empty" in r.json()["message"]
        listed = http.get("/api/tables").json()["tables"]
        assert [t["code"] for t in listed] == [code] and listed[0]["free"] == [2]
    private = create_table(server, game="kids", players=2, public=False, name="Zed")
    with server.http() as http:
        assert private["code"] not in [t["code"] for t in http.get("/api/tables").json()["tables"]]


def test_malformed_oversized_and_unknown_messages_change_nothing(server: ServerThread) -> None:
    _code, _host, clients, watcher = started(server)
    _seat, c, st = mover(clients)
    before = st["version"]
    for raw, code in [
        ("not json", "bad_json"),
        ("[1, 2]", "bad_message"),
        (json.dumps({"type": "dance"}), "bad_message"),
        (json.dumps({"type": "move", "move": "zz", "version": before}), "bad_message"),
        (json.dumps({"type": "move", "move": st["view"]["legal_moves"][0]}), "bad_message"),
        (json.dumps({"type": "move", "move": "x" * 5000, "version": before}), "too_large"),
        (b"\x00\x01", "bad_message"),
    ]:
        c.send(raw)
        err = c.error()
        assert err["code"] == code, (raw, err)
        assert err["message"]
    c.send({"type": "sync"})
    assert c.wait(lambda s: True)["version"] == before
    assert watcher.state is not None and watcher.state["version"] == before


def test_each_message_is_checked_by_its_model_and_the_error_names_the_field(
    server: ServerThread,
) -> None:
    code, _host, clients, watcher = started(server)
    _seat, c, st = mover(clients)
    v = st["version"]
    move = st["view"]["legal_moves"][0]
    for frame, message in [
        ({"type": "move", "move": move, "version": str(v)}, "version must be a whole number"),
        ({"type": "move", "move": move, "version": True}, "version must be a whole number"),
        ({"type": "move", "move": move, "version": v + 0.5}, "version must be a whole number"),
        ({"type": "move", "move": 5, "version": v}, "move is text"),
        ({"type": "move", "version": v}, "move is missing"),
        ({"type": "move", "move": move, "version": v, "colour": "red"},
         "colour is not a field of this request"),
        ({"type": "move", "move": move, "version": v, "id": "x" * 65}, "id is too long"),
        ({"type": "roll", "version": None}, "version is missing"),
        ({"type": "penalty", "team": ["B"], "version": v}, "team is text"),
        ({"type": "hello", "token": 7}, "token is text"),
        ({"type": "lang"}, "lang is missing"),
        ({"type": "chat", "text": {"a": 1}}, "text is text"),
        ({"type": "react"}, "reaction is missing"),
        ({"type": "sync", "now": 1}, "now is not a field of this request"),
        ({"type": "dance"}, "unknown message type 'dance'"),
        ({"kind": "move"}, 'a message is a JSON object with a "type"'),
    ]:  # fmt: skip
        c.send(frame)
        err = c.error()
        assert (err["code"], err["message"]) == ("bad_message", message), frame
    c.send({"type": "move", "move": move, "version": v, "id": "m1"})
    assert c.wait(lambda s: s["version"] == v + 1)
    assert watcher.wait(lambda s: s["version"] == v + 1)
    assert server.hub.registry.tables[code].version == v + 1  # only the valid move counted


def test_frame_beyond_the_server_limit_is_told_then_closed_with_message_too_big(
    server: ServerThread,
) -> None:
    code, _host, clients, watcher = started(server)
    _seat, mover_client, st = mover(clients)  # a move first: the version is 1, not 0
    mover_client.send({"type": "move", "move": st["view"]["legal_moves"][0], "version": 0})
    before = watcher.wait_version(1)["version"]
    assert before == 1
    c = clients[0]
    c.send("x" * (protocol.MAX_FRAME + 1))
    err = c.error()
    assert err["code"] == "too_large" and str(protocol.MAX_FRAME) in err["message"], err
    # Like every error after hello (a message too long, a stale move), it carries the version.
    assert err["version"] == before, err
    with pytest.raises(ConnectionClosed) as info:
        for _ in range(10):
            c.recv(timeout=5)
    assert info.value.rcvd is not None
    assert (info.value.rcvd.code, info.value.rcvd.reason) == (1009, "message too big")
    assert server.hub.registry.tables[code].version == before  # nothing changed
    # Beyond uvicorn's own limit the frame is never read, and the protocol layer closes with
    # 1009; the client is told why first all the same, in the language it chose.
    other = clients[1]
    other.send({"type": "lang", "lang": "de"})
    other.send("x" * (4 * protocol.WS_MAX_SIZE))
    err = other.error()
    assert err["code"] == "too_large" and str(protocol.MAX_FRAME) in err["message"], err
    msgid = "a frame is at most {limit} bytes; the connection is closed"
    german = translator("de").gettext(msgid)
    assert german != msgid and err["message"] == german.format(limit=protocol.MAX_FRAME)
    assert err["version"] == before, err  # the protocol layer's error carries it too
    with pytest.raises(ConnectionClosed) as info:
        for _ in range(10):
            other.recv(timeout=5)
    assert info.value.rcvd is not None and info.value.rcvd.code == 1009
    assert "exceeds limit" in info.value.rcvd.reason  # websockets' own reason, for developers


def test_an_error_before_hello_carries_no_version(server: ServerThread) -> None:
    # Before a hello is accepted the connection is at no table: version is null, for too_large
    # as for any other code (docs/server.md). After it, every error carries the table's version.
    code, _host, _clients, _watcher = started(server)
    for size in (protocol.MAX_MESSAGE + 1, protocol.MAX_FRAME + 1, 2 * protocol.WS_MAX_SIZE):
        with connect(f"{server.ws_url}/ws/{code}", open_timeout=10) as ws:
            ws.send("x" * size)
            err = json.loads(ws.recv(timeout=10))
            assert (err["type"], err["code"], err["version"]) == ("error", "too_large", None)
    with connect(f"{server.ws_url}/ws/{code}", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "sync"}))
        err = json.loads(ws.recv(timeout=10))
        assert (err["code"], err["version"]) == ("bad_message", None)
        ws.send(json.dumps({"type": "hello"}))
        assert json.loads(ws.recv(timeout=10))["type"] == "state"
        ws.send("x" * (protocol.MAX_MESSAGE + 1))
        while (msg := json.loads(ws.recv(timeout=10)))["type"] != "error":
            pass
        assert (msg["code"], msg["version"]) == ("too_large", 0)


def test_out_of_turn_stale_duplicate_and_spectator_moves(server: ServerThread) -> None:
    _code, host, clients, watcher = started(server)
    seat, c, st = mover(clients)
    other = clients[1 - seat]
    v = st["version"]
    move = st["view"]["legal_moves"][0]
    other.send({"type": "move", "move": move, "version": v})
    err = other.error()
    assert err["code"] == "illegal" and "not your turn" in err["message"]
    watcher.send({"type": "move", "move": move, "version": v})
    assert watcher.error()["code"] == "not_seated"
    watcher.send({"type": "roll", "version": v})
    assert watcher.error()["code"] == "not_seated"
    c.send({"type": "move", "move": move, "version": v})
    c.wait_version(v + 1)
    c.send({"type": "move", "move": move, "version": v})
    err = c.error()
    assert err["code"] == "stale" and f"version {v}" in err["message"] and err["version"] == v + 1
    # The host is here (the host token held again): the rights are the host's, nobody else's.
    h = Client(server, _code, server.tokens[0], host)
    h.wait(lambda s: s["you"]["host"])
    c.wait(lambda s: not s["you"]["host"])
    c.send({"type": "penalty", "team": "B", "version": v + 1})
    assert c.error()["code"] == "not_host"
    h.send({"type": "penalty", "team": "B", "version": v + 1})
    err = h.error()
    assert err["code"] == "illegal" and "alone" in err["message"]
    c.send({"type": "roll", "version": v + 1})
    assert c.error()["code"] in ("illegal",)
    watcher.send({"type": "ping"})
    assert watcher.recv()["type"] in ("pong", "state")


def test_bad_token_and_rate_limit(sqlite_url: str) -> None:
    with ServerThread(sqlite_url, bot_delay=0, rate=5, burst=5) as server:
        code, host, tokens = two_humans(server)
        start(server, code, host)
        bad = Client(server, code, "forged-token")
        err = bad.recv()
        assert err["type"] == "error" and err["code"] == "bad_token"
        c = Client(server, code, tokens[0])
        c.wait(lambda s: s["view"] is not None)
        v = c.state["version"]  # type: ignore[index]
        for _ in range(30):
            c.send({"type": "sync"})
        codes = []
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and "rate_limited" not in codes:
            msg = c.recv(timeout=5)
            if msg["type"] == "error":
                codes.append(msg["code"])
        assert "rate_limited" in codes
        assert c.state["version"] == v  # type: ignore[index]


def test_reconnect_keeps_the_seat_and_away_seat_goes_to_a_bot(server: ServerThread) -> None:
    code, host, tokens = two_humans(server)
    start(server, code, host)
    ann = Client(server, code, tokens[0], host)
    bob = Client(server, code, tokens[1])
    st = ann.wait(lambda s: s["view"] is not None and s["table"]["seats"][1]["connected"])
    hand = bob.wait(lambda s: s["view"] is not None)["view"]["hand"]
    bob.close()
    st = ann.wait(lambda s: not s["table"]["seats"][1]["connected"])
    assert st["table"]["seats"][1]["kind"] == "human"
    # Back from elsewhere with the same token: the same seat, the same hand, resynchronised.
    bob2 = Client(server, code, tokens[1])
    st2 = bob2.wait(lambda s: s["view"] is not None)
    assert st2["you"]["seat"] == 1 and st2["view"]["hand"] == hand
    assert st2["version"] == st["version"]
    bob2.close()
    ann.wait(lambda s: not s["table"]["seats"][1]["connected"])
    with server.http() as http:
        r = http.post(
            f"/api/tables/{code}/seats/1/bot", json={"host_token": "nope", "level": "random"}
        )
        assert r.status_code == 403
        r = http.post(
            f"/api/tables/{code}/seats/0/bot", json={"host_token": host, "level": "random"}
        )
        assert r.status_code == 409  # Ann is here
        r = http.post(
            f"/api/tables/{code}/seats/1/bot", json={"host_token": host, "level": "random"}
        )
        assert r.status_code == 200
    st = ann.wait(lambda s: s["table"]["seats"][1]["kind"] == "bot")
    assert st["table"]["seats"][1]["stand_in"]
    # The bot plays Bob's turns: play Ann's until the bot has moved.
    for _ in range(20):
        st = ann.wait(lambda s: s["view"] is not None)
        if (
            any(m for m in st["view"]["moves"][1:])
            and st["view"]["to_move"] == 0
            and st["version"] >= 2
        ):
            break
        if st["view"]["legal_moves"]:
            ann.send(
                {"type": "move", "move": st["view"]["legal_moves"][0], "version": st["version"]}
            )
        ann.wait_version(st["version"] + 1)
    assert st["version"] >= 2
    bob3 = Client(server, code, tokens[1])
    st3 = bob3.wait(lambda s: s["table"]["seats"][1]["kind"] == "human")
    assert st3["you"]["seat"] == 1


def test_rematch_and_replay(server: ServerThread) -> None:
    created = create_table(server, game="kids", players=2, name="Ann", bots=[None, "random"])
    code, host, token = created["code"], created["host_token"], created["seat_token"]
    start(server, code, host)
    ann = Client(server, code, token, host)
    with server.http() as http:
        assert http.post(f"/api/tables/{code}/rematch", json={"token": token}).status_code == 409
    for _ in range(500):
        st = ann.wait(lambda s: s["view"] is not None)
        if st["view"]["outcome"]:
            break
        if st["view"]["legal_moves"]:
            ann.send(
                {"type": "move", "move": st["view"]["legal_moves"][0], "version": st["version"]}
            )
        ann.wait_version(st["version"] + 1)
    plies = len(st["view"]["moves"])
    with server.http() as http:
        r = http.get(f"/api/tables/{code}/replay/0")
        assert (
            r.status_code == 200 and r.json()["view"]["hand"] is None and r.json()["plies"] == plies
        )
        answer = http.get(f"/api/tables/{code}/replay/{plies}").json()
        last = answer["view"]
        assert last["outcome"] == st["view"]["outcome"] and last["board"] == st["view"]["board"]
        # What the replay page puts into words: who sat where, and each move's public facts,
        # the same as the spectators' log at the table; nobody's hand.
        assert [(s["name"], s["kind"]) for s in answer["seats"]] == [
            ("Ann", "human"), ("random", "bot")
        ]  # fmt: skip
        assert last["log"] == history(GameRecord.from_dict(
            http.get(f"/api/tables/{code}/record").json()["record"]).replay())  # fmt: skip
        assert [e["move"] for e in last["log"]] == st["view"]["moves"]
        assert last["hand"] is None
        middle = http.get(f"/api/tables/{code}/replay/3").json()["view"]
        assert middle["log"] == last["log"][:3]
        assert http.get(f"/api/tables/{code}/replay/{plies + 1}").status_code == 404
        assert http.post(f"/api/tables/{code}/rematch", json={"token": "x"}).status_code == 403
        r = http.post(f"/api/tables/{code}/rematch", json={"token": token})
        new = r.json()["code"]
        assert r.status_code == 200 and new != code
        assert http.post(f"/api/tables/{code}/rematch", json={"token": host}).json()["code"] == new
    ann.wait(lambda s: s["table"]["rematch"] == new)
    again = Client(server, new, token, host)
    st = again.wait(lambda s: s["view"] is not None)
    assert st["you"] == {"seat": 0, "host": True} and st["table"]["status"] == "playing"


def test_i18n_catalogue_and_meta(server: ServerThread) -> None:
    with server.http() as http:
        en = http.get("/api/i18n/en").json()
        assert en["lang"] == "en" and en["plural"] == "(n != 1)"
        ru = http.get("/api/i18n/ru").json()
        assert ru == catalog_json("ru") and ru["messages"]["New table"] == "Новый стол"
        assert len(ru["messages"]["{n} card"]) == 3  # plural forms, chosen by ru["plural"]
        assert http.get("/api/i18n/xx").status_code == 404
        meta = http.get("/api/meta", headers={"Accept-Language": "de-DE,de;q=0.9"}).json()
        assert meta["language"] == "de" and "random" in meta["bots"]
        assert meta["language_names"]["uk"] == "Українська"
        assert http.get("/").status_code == 200 and "<svg" not in http.get("/").text[:0]


def _serve(db: str, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    cmd = [sys.executable, "-m", "sequence.cli.main", "serve", "--port", str(port), "--db", db,
           "--bot-threads", "--bot-delay", "0"]  # fmt: skip
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/meta", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("the server did not start")


class _Remote:
    def __init__(self, port: int) -> None:
        self.url = f"http://127.0.0.1:{port}"
        self.ws_url = f"ws://127.0.0.1:{port}"

    def http(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=20)


def test_server_killed_mid_game_resumes_the_same_position(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'restart.db'}"
    port = free_port()
    proc = _serve(db, port)
    try:
        remote: Any = _Remote(port)
        code, host, tokens = two_humans(remote)
        start(remote, code, host)
        clients = {s: Client(remote, code, t) for s, t in tokens.items()}
        for _ in range(12):
            for c in clients.values():
                c.wait(lambda s: s["view"] is not None)
            _seat, c, st = mover(clients)
            c.send(
                {"type": "move", "move": st["view"]["legal_moves"][-1], "version": st["version"]}
            )
            for cl in clients.values():
                cl.wait_version(st["version"] + 1)
        before = {s: c.state for s, c in clients.items()}
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        proc = _serve(db, port)
        after = {
            s: Client(remote, code, t).wait(lambda s: s["view"] is not None)
            for s, t in tokens.items()
        }
        for s in tokens:
            assert after[s]["version"] == before[s]["version"] == 12  # type: ignore[index]
            assert after[s]["view"] == before[s]["view"]  # type: ignore[index]
        # ... and the game goes on.
        clients = {s: Client(remote, code, t) for s, t in tokens.items()}
        for c in clients.values():
            c.wait(lambda s: s["view"] is not None)
        _seat, c, st = mover(clients)
        c.send({"type": "move", "move": st["view"]["legal_moves"][0], "version": 12})
        assert c.wait_version(13)["version"] == 13
    finally:
        proc.kill()
        proc.wait(10)


def test_http_errors_in_the_requests_language(server: ServerThread) -> None:
    with server.http() as http:
        body = {"game": "classic", "players": 5}
        with pytest.raises(ConfigError) as engine:
            config_from_dict(body)
        english = str(engine.value)
        german = http.post("/api/tables", json=body, headers={"Accept-Language": "de"}).json()
        assert german["error"] == "bad_message" and "5" in german["message"]
        assert german["message"] == translate_error(engine.value, "de") != english
        code, _host, _tokens = two_humans(server)
        r = http.post(
            f"/api/tables/{code}/join", json={"name": "Cy"}, headers={"Accept-Language": "ru"}
        )
        assert r.status_code == 409
        assert r.json()["message"] == translator("ru").gettext("the table is full")


def test_websocket_errors_in_the_connections_language(server: ServerThread) -> None:
    created = create_table(server, game="dice", players=2, name="Ann", seat=0)
    code = created["code"]
    tokens = {0: created["seat_token"], 1: join(server, code, "Bob")["seat_token"]}
    start(server, code, created["host_token"])
    clients = {s: Client(server, code, t) for s, t in tokens.items()}
    st = clients[0].wait(lambda s: s["view"] is not None)
    waiting = clients[1 - st["view"]["to_move"]]
    waiting.wait(lambda s: s["view"] is not None)

    def refusal() -> str:
        waiting.send({"type": "roll", "version": st["version"]})
        err = waiting.error()
        assert err["code"] == "illegal" and err["version"] == st["version"]
        return str(err["message"])

    english = refusal()
    assert english == f"it is not your turn (player {st['view']['to_move'] + 1} is to act)"
    expected = {
        lang: translator(lang)
        .gettext("it is not your turn (player {seat} is to act)")
        .format(seat=st["view"]["to_move"] + 1)
        for lang in ("fr", "ru")
    }
    waiting.send({"type": "hello", "token": tokens[1 - st["view"]["to_move"]], "lang": "fr"})
    waiting.wait(lambda s: True)
    assert refusal() == expected["fr"] != english
    waiting.send({"type": "lang", "lang": "ru-RU"})
    assert refusal() == expected["ru"] != english
    waiting.send({"type": "lang", "lang": "xx"})
    assert waiting.error()["code"] == "bad_message"
    assert refusal() == expected["ru"]
    # An engine refusal (a move out of turn) is translated too, and nothing changed.
    waiting.send({"type": "move", "move": "@a2", "version": st["version"]})
    err = waiting.error()
    assert err["code"] == "illegal" and re.search("[а-яё]{3}", err["message"]), err
    assert clients[0].state is not None and clients[0].state["version"] == st["version"]


def sent(client: Client) -> list[dict[str, Any]]:
    """Every message ``client`` got, as the server sent it (deltas as deltas)."""
    return [json.loads(text) for text in client.raw]


def test_after_the_first_state_each_move_is_a_delta_of_what_changed(
    server: ServerThread,
) -> None:
    code, _, clients, watcher = started(server)
    everyone = [*clients.values(), watcher]
    for c in everyone:
        c.raw.clear()
    for _ in range(3):
        _, c, st = mover(clients)
        c.send({"type": "move", "move": st["view"]["legal_moves"][0], "version": st["version"]})
        for other in everyone:
            other.wait_version(st["version"] + 1)
    table = server.hub.registry.tables[code]
    entries = history(table.state)
    for who, c in [*clients.items(), (None, watcher)]:
        deltas = [m for m in sent(c) if m["type"] == "delta"]
        assert deltas and all(m["type"] != "state" for m in sent(c))  # no whole state again
        for d in deltas:
            # The new moves' entries, the view without the parts that only grow.
            assert d["log"] == entries[d["base"] : d["version"]]
            assert "log" not in d["view"] and "moves" not in d["view"]
            assert d["view"]["seat"] == who and d["you"]["seat"] == who
        # Each delta starts where the one before ended: no version is skipped.
        assert [d["base"] for d in deltas[1:]] == [d["version"] for d in deltas[:-1]]
        whole = c.whole
        assert whole is not None and whole["version"] == 3
        assert whole["view"] == json.loads(json.dumps(protocol.view_dict(table.state, who)))
        # A delta is small: it does not grow with the game as the whole state does.
        assert len(c.raw[-1]) < len(json.dumps(whole))


def test_sync_and_a_reconnect_get_the_whole_state_then_deltas_again(server: ServerThread) -> None:
    code, _, clients, watcher = started(server)
    seat, c, st = mover(clients)
    c.send({"type": "move", "move": st["view"]["legal_moves"][0], "version": st["version"]})
    watcher.wait_version(1)
    # A client that missed a message (its version is not a delta's base) asks again.
    watcher.raw.clear()
    watcher.send({"type": "sync"})
    whole = watcher.recv()
    got = sent(watcher)
    assert [m["type"] for m in got] == ["state"] and got[0]["version"] == 1
    assert len(whole["view"]["log"]) == 1
    assert whole["view"]["moves"] == [st["view"]["legal_moves"][0]]
    # A new connection starts from the whole state, whatever version it says it last showed.
    for other in clients.values():
        other.wait_version(1)
    seat, c, st = mover(clients)
    again = Client(server, code, server.tokens[seat])
    first = again.recv()
    assert json.loads(again.raw[0])["type"] == "state"
    assert first["version"] == 1 and len(first["view"]["log"]) == 1
    again.send({"type": "hello", "token": server.tokens[seat], "version": 0})  # said again
    assert again.recv()["version"] == 1 and json.loads(again.raw[1])["type"] == "state"
    again.drain()
    again.raw.clear()
    again.send({"type": "move", "move": st["view"]["legal_moves"][0], "version": 1})
    again.wait_version(2)
    assert [m["type"] for m in sent(again) if m["type"] in ("state", "delta")] == ["delta"]
    again.close()


def test_a_delta_applies_only_on_its_base() -> None:
    held = {
        "type": "state",
        "version": 2,
        "you": {"seat": 0, "host": False},
        "table": {},
        "view": {"hand": ["5H"], "log": [{"move": "a"}, {"move": "b"}], "moves": ["a", "b"]},
        "clock": None,
    }
    delta = {
        "type": "delta",
        "base": 2,
        "version": 3,
        "you": {"seat": 0, "host": False},
        "table": {"x": 1},
        "view": {"hand": ["6H"]},
        "log": [{"move": "c"}],
        "clock": None,
    }
    whole = apply_delta(held, delta)
    assert whole is not None
    log = [{"move": m} for m in "abc"]
    assert whole["view"] == {"hand": ["6H"], "log": log, "moves": ["a", "b", "c"]}
    assert whole["version"] == 3 and whole["table"] == {"x": 1}
    # A gap (the client is behind the base), an old delta arriving late (ahead of it), or no
    # state at all: nothing to apply it to, the client syncs.
    assert apply_delta({**held, "version": 1}, delta) is None
    assert apply_delta(whole, delta) is None
    assert apply_delta(None, delta) is None


def test_the_log_is_encoded_once_a_move_and_a_new_copy_of_the_state_keeps_it(
    server: ServerThread,
) -> None:
    code, _, clients, _ = started(server)
    for _ in range(2):
        _, c, st = mover(clients)
        c.send({"type": "move", "move": st["view"]["legal_moves"][0], "version": st["version"]})
        for other in clients.values():
            other.wait_version(st["version"] + 1)
    table = server.hub.registry.tables[code]
    entries = protocol.log_entries(table)
    assert [json.loads(e) for e in entries] == history(table.state)
    # A move is made on a copy of the state: the entries already encoded are kept.
    first = entries[0]
    table.state = table.state.copy()
    assert protocol.log_entries(table)[0] is first
    # Another game's moves (never at a live table, but the cache must not trust itself): redone.
    table.log_cache = (["x", "y"], ["{}", "{}"])
    assert [json.loads(e) for e in protocol.log_entries(table)] == history(table.state)
