"""Whole games through real WebSockets, several clients each, every message checked.

Each client plays random legal moves from the view it was sent, and asks for a hint at its
first turn. Afterwards every message any client received is compared with what the engine's one
filter gives for that client's seat at that version: a seat's view or the spectators', exactly,
and nothing more (no seed, no other hand, no deck order), including the first state and the
errors; every hint is the one the search finds from that seat's view at that version.
"""

from __future__ import annotations

import contextlib
import json
import random
import time
from typing import Any

import pytest

from sequence.bots.review import Reviewer
from sequence.engine import GameRecord, State, history, roll_reason

from .conftest import HINT_KEYS, Client, ServerThread, create_table, fresh_postgres, join, start

ERROR_KEYS = {"type", "code", "message", "version"}


def drive(
    observer: Client,
    players: dict[int, Client],
    rng: random.Random,
    host: Client | None = None,
    limit: int = 5000,
) -> dict[str, Any]:
    """Play random legal moves for the human seats until the game ends (each asks for a hint at
    its first turn); return the last state."""
    hinted: set[int] = set()
    for _ in range(limit):
        st = observer.wait(lambda s: s["view"] is not None)
        view = st["view"]
        if view["outcome"] is not None:
            return st
        v = st["version"]
        done = any(m.startswith("penalty:") for m in view["moves"])
        if host is not None and not done and view["turns"] >= 4 and view["phase"] == "play":
            # A bot may move first (the penalty is then stale): try again at the next version.
            host.send({"type": "penalty", "team": "B", "version": v})
            progress(observer, [host], v)
            continue
        for seat, client in players.items():
            cs = client.wait(lambda s, v=v: s["view"] is not None and s["version"] >= v)
            if cs["version"] != v:
                break
            kind = cs["table"]["seats"][seat]["kind"]
            if kind != "human":
                continue
            if cs["table"]["chance"] and cs["view"]["to_move"] == seat:
                client.send({"type": "roll", "version": v})
                break
            if cs["view"]["legal_moves"]:
                if seat not in hinted and not cs["table"]["rated"]:
                    hinted.add(seat)
                    client.send({"type": "hint", "version": v})
                client.send(
                    {"type": "move", "move": rng.choice(cs["view"]["legal_moves"]), "version": v}
                )
                break
        progress(observer, players.values(), v)
    raise AssertionError("the game did not end")


def progress(observer: Client, players: Any, v: int, timeout: float = 20) -> None:
    """Wait until the observer sees version ``v + 1``; fail on an error a player got meanwhile."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for client in players:
            with contextlib.suppress(TimeoutError):
                msg = client.recv(timeout=0.001)
                if msg["type"] == "error" and msg["code"] not in ("stale", "game_over"):
                    raise AssertionError(f"refused at version {v}: {msg}")
        with contextlib.suppress(TimeoutError):
            observer.recv(timeout=0.01)
        st = observer.state
        if st is not None and st["version"] > v:
            return
    raise AssertionError(f"nothing happened after version {v}")


def check_messages(
    server: ServerThread, code: str, clients: dict[int | None, Client], racing: bool
) -> None:
    """Every message each client got is exactly its seat's view at that version."""
    stored = server.stored(code)
    record = GameRecord.from_dict(
        {
            "config": stored.config,
            "seed": stored.seed,
            "moves": stored.moves,
            "result": stored.result,
        }
    )
    wanted: dict[int, set[int | None]] = {}
    hinted: dict[int, set[int]] = {}
    for seat, client in clients.items():
        for msg in client.received:
            if msg["type"] == "state" and msg["view"] is not None:
                wanted.setdefault(msg["version"], set()).add(seat)
            if msg["type"] == "hint" and seat is not None:
                hinted.setdefault(msg["version"], set()).add(seat)
    # Players ask for a hint at their first turn (play_game); spectators never can.
    players_seen = any(seat is not None for seat in clients)
    assert hinted or racing or not players_seen, "no hint came back"
    hints: dict[tuple[int, int], Any] = {}
    views: dict[tuple[int, int | None], Any] = {}
    state = State.new(record.config, record.seed)
    for version in range(len(record.moves) + 1):
        if version:
            state.push(record.moves[version - 1])
        for seat in wanted.get(version, ()):
            # The seat's view, and the public facts of every move and of the roll (engine).
            expected = state.view(seat).to_dict()
            expected.update(log=history(state), roll_reason=roll_reason(state))
            views[version, seat] = json.loads(json.dumps(expected))
        for seat in hinted.get(version, ()):
            # What the search finds from this seat's view, and nothing else, at that version.
            hint = Reviewer().hint(state.view(seat))
            hints[version, seat] = (str(hint.move), [n.to_dict() for n in hint.notes])
    seed_text = str(stored.seed)
    deltas = 0
    for seat, client in clients.items():
        assert client.received, "a client got nothing"
        for raw, msg in zip(client.raw, client.received, strict=True):
            assert seed_text not in raw
            assert "seed" not in raw
            if msg["type"] == "error":
                assert set(msg) == ERROR_KEYS
                allowed = {"stale", "game_over"} if racing else set()
                assert msg["code"] in allowed, msg
                continue
            if msg["type"] == "hint":
                assert set(msg) == HINT_KEYS and msg["seat"] == seat
                notes = [{k: v for k, v in n.items() if k != "says"} for n in msg["notes"]]
                assert (msg["move"], notes) == hints[msg["version"], seat], msg
                continue
            assert msg["type"] == "state"
            assert set(msg) == {"type", "version", "you", "table", "view", "clock"}
            sent = json.loads(raw)
            if sent["type"] == "delta":  # msg is the state it made: that is checked below
                deltas += 1
                assert set(sent) == DELTA_KEYS
                assert sent["view"] is not None and set(sent["view"]) == set(msg["view"]) - {
                    "log",
                    "moves",
                }
                # What it holds of the log is the new moves' public facts, nothing else.
                want = views[msg["version"], seat]["log"][sent["base"] :]
                assert sent["log"] == want and sent["base"] <= sent["version"]
                assert sent["you"]["seat"] == seat
            # The clock says whose turn it times and how long is left: nothing about cards.
            assert msg["clock"] is None or set(msg["clock"]) == CLOCK_KEYS
            assert msg["you"]["seat"] == seat
            if msg["view"] is None:
                continue
            expected = views[msg["version"], seat]
            assert msg["view"] == expected, f"seat {seat} version {msg['version']}"
            if seat is not None:
                others = [h for s, h in enumerate(msg["view"]["hand_sizes"]) if s != seat]
                assert (
                    msg["view"]["hand"] is not None
                    and len(msg["view"]["hand"]) == msg["view"]["hand_sizes"][seat]
                )
                assert all(isinstance(n, int) for n in others)
            else:
                assert msg["view"]["hand"] is None
    assert deltas, "every move went out as a whole state, not as a delta"


CLOCK_KEYS = {"seat", "left", "deadline", "timed_out", "reserves"}
DELTA_KEYS = {"type", "base", "version", "you", "table", "view", "log", "clock"}

CASES = [
    pytest.param("classic", 2, {}, [None, None], id="classic-2-humans"),
    pytest.param(
        "classic", 4, {}, [None, None, "random", "random"], id="classic-4-teams-bots-penalty"
    ),
    pytest.param("kids", 3, {}, [None, None, None], id="kids-3"),
    pytest.param("dice", 4, {}, [None, None, "random", "random"], id="dice-4-teams-bots"),
    pytest.param("classic", 2, {"manual_draw": True}, [None, None], id="classic-manual-draw"),
    pytest.param("classic", 2, {"draft": True}, [None, "random"], id="classic-draft-bot"),
    pytest.param("classic", 3, {"chips_per_colour": "us"}, [None, "random", None], id="classic-3"),
]


def play_whole_game(
    server: ServerThread,
    game: str,
    players: int,
    options: dict[str, Any],
    bots: list[str | None],
    seed: int,
) -> None:
    rng = random.Random(seed)
    created = create_table(
        server, game=game, players=players, options=options, bots=bots, name="Ann", seat=0
    )
    code, host_token = created["code"], created["host_token"]
    tokens = {0: created["seat_token"]}
    for seat, level in enumerate(bots):
        if level is None and seat != 0:
            tokens[seat] = join(server, code, f"P{seat + 1}", seat)["seat_token"]
    clients: dict[int | None, Client] = {
        seat: Client(server, code, token, host_token if seat == 0 else None)
        for seat, token in tokens.items()
    }
    spectator = Client(server, code)
    clients[None] = spectator
    for c in clients.values():
        c.wait(lambda s: s["version"] == 0)
    start(server, code, host_token)
    # The record of a game still running is secret.
    with server.http() as http:
        assert http.get(f"/api/tables/{code}/record").status_code == 403
    players_clients = {s: c for s, c in clients.items() if s is not None}
    host = clients[0] if game == "classic" and players == 4 else None
    last = drive(spectator, players_clients, rng, host=host)
    for c in clients.values():
        c.wait(lambda s: s["view"] is not None and s["view"]["outcome"] is not None)
        c.drain()
    racing = any(bots) or bool(options.get("manual_draw"))
    check_messages(server, code, clients, racing)
    if host is not None:
        assert any(m.startswith("penalty:") for m in last["view"]["moves"])
    with server.http() as http:
        r = http.get(f"/api/tables/{code}/record")
        assert r.status_code == 200
        record = GameRecord.from_dict(r.json()["record"])
        assert record.replay().outcome.result() == last["view"]["outcome"]["result"]  # type: ignore[union-attr]
        finished = http.get("/api/finished").json()["games"]
        assert code in [g["code"] for g in finished]
    for c in clients.values():
        c.close()


@pytest.mark.parametrize(("game", "players", "options", "bots"), CASES)
def test_whole_game_hidden_information(
    server: ServerThread, game: str, players: int, options: dict[str, Any], bots: list[str | None]
) -> None:
    play_whole_game(server, game, players, options, bots, seed=players * 31 + len(options))


@pytest.mark.postgres
def test_whole_games_on_postgresql() -> None:
    with fresh_postgres() as url, ServerThread(url, bot_delay=0, rate=10_000, burst=10_000) as srv:
        play_whole_game(srv, "classic", 4, {}, [None, "random", None, "random"], seed=4)
        play_whole_game(srv, "dice", 2, {}, [None, None], seed=5)
