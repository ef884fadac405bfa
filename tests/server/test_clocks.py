"""Turn clocks: a bot plays a turn whose time ran out, two in a row keep the seat for a bot
until its player takes it back, and what a clock has left survives a restart and an upgrade of
the database."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from sequence.engine import State, make_config
from sequence.server.tables import scheduler
from sequence.server.tables.registry import table_from
from sequence.server.tables.store import TableStore
from sequence.server.tables.table import TimeControl

from .conftest import Client, ServerThread, create_table, fresh_postgres, old_database, start


@pytest.fixture
def short_clocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Quick is 1 s a turn and a 0.5 s reserve; casual 3 s a turn, no reserve."""
    monkeypatch.setitem(scheduler.TIME_CONTROLS, "quick", TimeControl("quick", 1.0, 0.5))
    monkeypatch.setitem(scheduler.TIME_CONTROLS, "casual", TimeControl("casual", 3.0, 0.0))


def person_vs_bot(server: ServerThread, clock: str) -> tuple[dict[str, Any], Client]:
    """A two-player table: a person in seat 0 and a bot in seat 1, started; seat 0's client."""
    t = create_table(
        server, game="classic", players=2, bots=[None, "random"], name="Ann", seat=0,
        clock=clock, bot_level="random",
    )  # fmt: skip
    start(server, t["code"], t["host_token"])
    return t, Client(server, t["code"], t["seat_token"])


def my_turn(c: Client) -> dict[str, Any]:
    return c.wait(lambda s: s["clock"] is not None and s["clock"]["seat"] == 0)


def test_time_runs_out_twice_then_the_player_takes_the_seat_back(
    server: ServerThread, short_clocks: None
) -> None:
    t, ann = person_vs_bot(server, "quick")
    st = my_turn(ann)
    assert st["table"]["time_control"] == {"name": "quick", "turn": 1.0, "reserve": 0.5}
    assert 1.0 < st["clock"]["left"] <= 1.5  # the turn and the whole reserve
    v = st["version"]
    # Ann does nothing: after 1.5 s a bot of the table's level plays her turn; she is away.
    st = ann.wait(lambda s: s["version"] > v, timeout=10)
    assert st["table"]["seats"][0]["away"] and st["table"]["seats"][0]["timeouts"] == 1
    assert st["table"]["seats"][0]["kind"] == "human"
    stored = server.stored(t["code"])
    assert len(stored.moves) > v and stored.seats[0].timeouts == 1
    st = my_turn(ann)
    assert st["clock"]["reserves"][0] == 0  # spent on the first turn
    assert st["clock"]["left"] <= 1.0
    # A second turn in a row: the bot keeps the seat.
    st = ann.wait(lambda s: s["table"]["seats"][0]["stand_in"], timeout=10)
    assert st["table"]["seats"][0]["bot"] == "random"
    assert server.stored(t["code"]).seats[0].stand_in
    # The bot plays on for her (no clock for a bot) until she takes her seat back.
    v = st["version"]
    st = ann.wait(lambda s: s["version"] >= v + 2)
    ann.send({"type": "back"})
    st = ann.wait(lambda s: not s["table"]["seats"][0]["stand_in"])
    seat = st["table"]["seats"][0]
    assert seat["kind"] == "human" and seat["timeouts"] == 0 and not seat["away"]
    assert server.stored(t["code"]).seats[0].bot is None
    # Taking back a seat nobody keeps is refused.
    ann.send({"type": "back"})
    assert ann.error()["code"] == "bad_message"
    ann.close()


def test_a_move_in_time_clears_the_away_mark(server: ServerThread, short_clocks: None) -> None:
    t, ann = person_vs_bot(server, "quick")
    v = my_turn(ann)["version"]
    st = ann.wait(lambda s: s["version"] > v and s["table"]["seats"][0]["away"], timeout=10)
    st = my_turn(ann)
    ann.send({"type": "move", "move": st["view"]["legal_moves"][0], "version": st["version"]})
    st = ann.wait(lambda s: s["version"] > st["version"])
    assert st["table"]["seats"][0]["timeouts"] == 0
    assert server.stored(t["code"]).seats[0].timeouts == 0
    ann.close()


def test_no_clock_no_timeout(server: ServerThread) -> None:
    _, ann = person_vs_bot(server, "off")
    st = ann.wait(lambda s: s["view"] is not None and s["view"]["to_move"] == 0)
    assert st["clock"] is None and st["table"]["time_control"] is None
    ann.close()


def test_the_clock_goes_on_after_a_restart(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 10 s a turn: a busy machine's restart must not use up what is left.
    monkeypatch.setitem(scheduler.TIME_CONTROLS, "casual", TimeControl("casual", 10.0, 0.0))
    with ServerThread(sqlite_url, bot_delay=0) as srv:
        t, ann = person_vs_bot(srv, "casual")
        st = my_turn(ann)
        assert 9.0 < st["clock"]["left"] <= 10.0
        ann.drain(1.2)  # 1.2 s of her 10 s go by
        ann.close()
    stored = TableStore(sqlite_url)
    data = stored.load(t["code"])
    stored.close()
    assert data is not None and data.clock_seat == 0
    assert data.clock_left is not None and 7.0 < data.clock_left < 9.5
    started = time.monotonic()
    with ServerThread(sqlite_url, bot_delay=0) as srv:
        ann = Client(srv, t["code"], t["seat_token"])
        st = my_turn(ann)
        since_start = time.monotonic() - started
        # What was left, not a new turn; only the time since the server came back counts.
        assert st["clock"]["left"] <= data.clock_left + 0.01
        assert st["clock"]["left"] >= data.clock_left - since_start - 0.05
        ann.close()


def test_create_refuses_an_unknown_time_control_or_level(server: ServerThread) -> None:
    with server.http() as http:
        for body, word in (({"clock": "blitz"}, "blitz"), ({"bot_level": "god"}, "god")):
            r = http.post("/api/tables", json={"game": "classic", "players": 2, **body})
            assert r.status_code == 400, r.text
            assert r.json()["error"] == "bad_message" and word in r.json()["message"]
        meta = http.get("/api/meta").json()
    assert meta["time_controls"]["off"] is None and set(meta["time_controls"]) >= {
        "casual",
        "quick",
    }


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def empty_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of an empty database: a SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'old.db'}"
        return
    with fresh_postgres() as url:
        yield url


def test_migration_keeps_stored_games(empty_db: str) -> None:
    """A database of revision 0001 holding a game in play is upgraded; the game replays."""
    url = empty_db
    config = make_config("classic", players=2)
    state = State.new(config, 7)
    for _ in range(6):
        state.push(state.legal_moves[0], seat=state.next_step().seat)
    moves = [str(m) for m in state.move_stack]
    engine = old_database(url, "0001", config)
    with engine.begin() as conn:
        for seat in range(2):
            conn.execute(
                text(
                    "INSERT INTO seats (table_id, seat, name, token_hash, bot, stand_in)"
                    " VALUES (1, :seat, :name, NULL, 'random', FALSE)"
                ),
                {"seat": seat, "name": f"p{seat}"},
            )
        for ply, move in enumerate(moves, 1):
            conn.execute(
                text(
                    "INSERT INTO moves (table_id, ply, move, seat, created_at)"
                    " VALUES (1, :ply, :move, NULL, '2025-01-01')"
                ),
                {"ply": ply, "move": move},
            )
    engine.dispose()
    store = TableStore(url)  # migrates to the newest revision
    try:
        data = store.load("OLDONE")
        assert data is not None and data.moves == moves
        assert data.time_control == "off" and data.turn_seconds is None
        assert [s.timeouts for s in data.seats] == [0, 0]
        table = table_from(data)
        assert table.clock is None and table.state is not None
        assert [str(m) for m in table.state.move_stack] == moves
        assert [d.code for d in store.load_active()] == ["OLDONE"]
    finally:
        store.close()
