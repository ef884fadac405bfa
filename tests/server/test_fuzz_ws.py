"""A WebSocket fuzz of every message type over real connections (hypothesis-generated frames).

Two players and a spectator sit at a game of Kids. Each step one of them sends a frame: a
message of every type with valid or invalid fields (legal moves among them, so the game goes
on), or text that is not a message at all. After each frame the sender pings: everything it got
meanwhile must be a state, an error or a pong, the connection must still be open, the server
must not have failed (``unavailable``), and every state must hold exactly its seat's view of
the game as the engine gives it, so no message leaks a hidden card.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sequence.server.tables import protocol

from .conftest import Client, ServerThread, create_table, join, start

TYPES = ["hello", "lang", "move", "roll", "penalty", "back", "sync", "ping"]
junk = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                  max_size=3),
    max_leaves=8,
)  # fmt: skip
versions = st.one_of(st.just("current"), st.integers(-2, 500), junk)


LEGAL = st.integers(0, 999).map(lambda i: f"<legal {i}>")
"""A legal move of the sender's, chosen when the frame is sent (the strategy cannot depend on
the game, which hypothesis does not replay)."""


def frames() -> st.SearchStrategy[Any]:
    """A frame: a message of any type with fields valid or not, or anything else."""
    field = {
        "token": st.none() | st.text(max_size=30) | junk,
        "host": st.none() | st.text(max_size=30) | junk,
        "lang": st.sampled_from(["en", "fr", "ru", "de", "uk", "xx"]) | junk,
        "move": LEGAL | st.sampled_from(["5H@c3", "JD@a1", "x", ""]) | junk,
        "version": versions,
        "team": st.sampled_from(["A", "B", "C", "Z"]) | junk,
    }
    message = st.builds(
        lambda kind, fields: {"type": kind, **fields},
        st.sampled_from(TYPES) | st.text(max_size=8) | junk,
        st.fixed_dictionaries({}, optional=field),
    )
    raw = st.one_of(
        st.text(max_size=60),
        st.binary(max_size=20),
        st.integers(1, 3000).map(lambda n: "[" * n + "]" * n),
        st.integers(1, 3000).map(lambda n: '{"type":' + "[" * n),
        junk.map(json.dumps),
        st.just("x" * 5000),
    )
    play = st.builds(lambda m: {"type": "move", "move": m, "version": "current"}, LEGAL)
    return st.one_of(message, message, message, raw, play, play)


FRAMES = frames()


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Any:
    db = f"sqlite:///{tmp_path_factory.mktemp('wsfuzz') / 'test.db'}"
    with ServerThread(db, bot_delay=0, rate=10_000, burst=10_000) as server:
        created = create_table(server, game="kids", players=2, name="Ann")
        code = created["code"]
        bob = join(server, code, "Bob")
        start(server, code, created["host_token"])
        clients = [
            Client(server, code, created["seat_token"], created["host_token"]),
            Client(server, code, bob["seat_token"]),
            Client(server, code),
        ]
        for c in clients:
            c.wait_version(0)
        yield server, code, clients
        # The fuzz played: legal moves among the frames moved the game on.
        assert server.hub.registry.tables[code].version > 5


def _check_state(server: ServerThread, code: str, seat: int | None, msg: dict[str, Any]) -> None:
    table = server.hub.registry.tables[code]
    if msg["version"] != table.version:  # an older state, superseded since: checked then
        return
    expected = json.loads(json.dumps(protocol.view_dict(table.state, seat)))
    assert msg["view"] == expected, "a state that is not the seat's own view"
    assert msg["you"]["seat"] == seat


@settings(
    max_examples=30,
    derandomize=True,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
@given(data=st.data())
def test_every_frame_gets_an_error_or_a_state(table: Any, data: st.DataObject) -> None:
    server, code, clients = table
    live = server.hub.registry.tables[code]
    for _ in range(8):
        who = data.draw(st.integers(0, 2))
        client, seat = clients[who], (0, 1, None)[who]
        state = live.state
        legal = [] if seat is None or state.is_over() else state.legal_moves_of(seat)
        frame = data.draw(FRAMES)
        if isinstance(frame, dict):
            if frame.get("version") == "current":
                frame["version"] = live.version
            if isinstance(frame.get("move"), str) and frame["move"].startswith("<legal "):
                i = int(frame["move"][7:-1])
                frame["move"] = str(legal[i % len(legal)]) if legal else "5H@c3"
            if frame.get("type") == "lang" and frame.get("lang") not in ("en", "fr"):
                frame["lang"] = "xx"  # an answer is due (a valid lang message has none)
        client.received.clear()
        client.send(frame)
        client.send({"type": "ping"})
        while not client.received or client.received[-1]["type"] != "pong":
            client.recv(timeout=10)
        for msg in client.received:
            assert msg["type"] in ("state", "error", "pong"), msg
            if msg["type"] == "error":
                assert msg["code"] != "unavailable", msg
                assert msg["message"] and isinstance(msg["message"], str)
            if msg["type"] == "state":
                _check_state(server, code, seat, msg)
        for other in clients:  # what the others were sent meanwhile: their own views
            if other is not client:
                other.received.clear()
                other.drain(quiet=0.01)
                for msg in other.received:
                    if msg["type"] == "state":
                        _check_state(server, code, clients.index(other) if other is not clients[2]
                                     else None, msg)  # fmt: skip
