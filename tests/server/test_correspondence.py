"""Correspondence tables (issue 35): days a move, for signed-in players only; a seat whose days
run out gets what the table chose (a bot plays for it, or its team loses), says so in the
table's log and tells its player; the turn's deadline holds across a real restart of the
server process, the time it was down included; ``GET /api/account/turns`` lists the account's
tables, its turn first, with the deadline.

Time is moved on by days with the server's test clock (:class:`FileClock`: the real time plus
the seconds written in a file), never waited for.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from sequence.engine import State, make_config
from sequence.server.cluster.launcher import Cluster
from sequence.server.common.clock import CLOCK_FILE_VARIABLE, FileClock, use_clock
from sequence.server.tables.registry import table_from
from sequence.server.tables.store import TableStore

from .cluster import ServeProcess
from .conftest import Client, ServerThread, old_database, start
from .notify_parts import Browser as PushBrowser
from .notify_parts import Inbox, PushService, decrypt, parts
from .test_accounts import Browser, account_server, unique
from .test_notify import assert_no_card, hidden_cards, notify_server

DAY = 86400.0
HOUR = 3600.0


class TestClock:
    """The file a :class:`FileClock` reads: ``advance`` moves the server's time on."""

    __test__ = False

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0.0
        path.write_text("0")

    def advance(self, seconds: float) -> None:
        self.offset += seconds
        self.path.write_text(repr(self.offset))


@pytest.fixture
def test_clock(tmp_path: Path) -> Iterator[TestClock]:
    """The in-process server's clock, moved on by the test."""
    clock = TestClock(tmp_path / "clock")
    old = use_clock(FileClock(clock.path, poll=0.05))
    try:
        yield clock
    finally:
        use_clock(old)


@pytest.fixture
def srv(sqlite_url: str) -> Iterator[ServerThread]:
    with account_server(sqlite_url) as s:
        yield s


def days_table(host: Browser, guest: Browser, **body: Any) -> tuple[str, str, str, str]:
    """A two-player table with days a move, its creator in seat 0 and ``guest`` in seat 1, not
    started: its code, the host token and both seat tokens."""
    body = {"game": "classic", "players": 2, "name": "Anna", "clock": "days1", **body}
    r = host.post("/api/tables", body)
    assert r.status_code == 200, r.text
    created = r.json()
    r = guest.post(f"/api/tables/{created['code']}/join", {"name": "Ben"})
    assert r.status_code == 200, r.text
    return created["code"], created["host_token"], created["seat_token"], r.json()["seat_token"]


def move(client: Client, seat: int) -> dict[str, Any]:
    """Wait for ``seat``'s turn as ``client`` sees it, play its first legal move, and return the
    state after it."""
    st = client.wait(lambda s: s["view"] is not None and s["view"]["to_move"] == seat)
    client.send({"type": "move", "version": st["version"],
                 "move": st["view"]["legal_moves"][0]})  # fmt: skip
    return client.wait_version(st["version"] + 1)


def test_days_are_for_signed_in_players_and_each_choice_is_checked(srv: ServerThread) -> None:
    guest, anna, ben = Browser(srv), Browser(srv), Browser(srv)
    anna.sign_up(unique("anna"))
    ben.sign_up(unique("ben"))
    body = {"game": "classic", "players": 2, "name": "Gus", "clock": "days2"}
    r = guest.post("/api/tables", body)
    assert r.status_code == 401 and r.json()["error"] == "signed_out"
    assert "signed-in players" in r.json()["message"]
    assert guest.post("/api/tables", {**body, "name": None}).status_code == 401
    r = anna.post("/api/tables", {**body, "clock": "quick", "on_timeout": "bot"})
    assert r.status_code == 422 and "days a move" in r.json()["message"]
    r = anna.post("/api/tables", {**body, "on_timeout": "pass"})
    assert r.status_code == 400 and "bot, lost" in r.json()["message"]
    r = anna.post("/api/tables", {**body, "players": 3, "on_timeout": "lost"})
    assert r.status_code == 422 and "two teams" in r.json()["message"]
    r = anna.post("/api/tables", {**body, "local": [{"seat": 1, "name": "Kid"}]})
    assert r.status_code == 422 and "this device" in r.json()["message"]
    r = anna.post("/api/tables", {**body, "on_timeout": "lost"})
    assert r.status_code == 200, r.text
    code = r.json()["code"]
    info = srv.http().get(f"/api/tables/{code}").json()
    assert info["time_control"] == {"name": "days2", "turn": 2 * DAY, "reserve": 0.0}
    assert info["on_timeout"] == "lost"
    # A guest cannot sit at it; a signed-in player can. Nothing changed by the refusal.
    r = guest.post(f"/api/tables/{code}/join", {"name": "Gus"})
    assert r.status_code == 401 and srv.stored(code).seats[1].token_hash is None
    assert ben.post(f"/api/tables/{code}/join", {"name": "Ben"}).status_code == 200
    # Left out, a correspondence table's choice is a bot; other clocks have none.
    r = anna.post("/api/tables", {**body, "clock": "days7"})
    assert srv.http().get(f"/api/tables/{r.json()['code']}").json()["on_timeout"] == "bot"
    r = anna.post("/api/tables", {**body, "clock": "quick"})
    assert srv.http().get(f"/api/tables/{r.json()['code']}").json()["on_timeout"] is None
    # A challenge checks the same.
    anna.post("/api/friends", {"name": ben.me()["name"]})
    ben.post("/api/friends", {"name": anna.me()["name"]})
    dare = {"friends": [ben.me()["name"]], "game": "classic", "players": 3, "clock": "days1",
            "on_timeout": "lost"}  # fmt: skip
    assert anna.post("/api/challenges", {**dare, "bots": [None, None, "easy"]}).status_code == 422


@pytest.fixture
def real_parts() -> Iterator[tuple[Any, Inbox, PushService]]:
    yield from parts()


def test_days_run_out_a_bot_plays_the_player_is_told_and_my_games_shows_the_deadline(
    sqlite_url: str, test_clock: TestClock, real_parts: tuple[Any, Inbox, PushService]
) -> None:
    controller, _, service = real_parts
    with notify_server(sqlite_url, controller.port) as srv:
        anna, ben = Browser(srv), Browser(srv)
        anna.sign_up(unique("anna"))
        ben.sign_up(unique("ben"))
        phone = PushBrowser(service.endpoint("ben-phone"))
        r = ben.post("/api/notify", {"lang": "en", "email_on": False, "push_on": True})
        assert r.status_code == 200, r.text
        assert ben.post("/api/notify/push", phone.subscription()).status_code == 200
        code, host, anna_token, ben_token = days_table(anna, ben, on_timeout="bot")
        assert anna.get("/api/account/turns").json()["turns"][0]["status"] == "lobby"
        start(srv, code, host)
        a = Client(srv, code, anna_token)
        st = a.wait(lambda s: s["view"] is not None)
        if st["view"]["to_move"] == 0:
            st = move(a, 0)
        # Ben's turn, and he is not on the page.
        st = a.wait(lambda s: s["clock"] is not None and s["clock"]["seat"] == 1)
        assert DAY - 5 < st["clock"]["left"] <= DAY
        [mine] = ben.get("/api/account/turns").json()["turns"]
        assert mine["your_turn"] and mine["to_move"] == 1 and mine["seats"] == [1]
        assert mine["time_control"] == "days1" and mine["on_timeout"] == "bot"
        assert abs(mine["deadline"] - st["clock"]["deadline"]) < 5000
        [theirs] = anna.get("/api/account/turns").json()["turns"]
        assert not theirs["your_turn"] and theirs["deadline"] == mine["deadline"]
        assert Browser(srv).get("/api/account/turns").status_code == 401
        for who in (anna, ben):  # public facts only: no card of any hand, no token
            text = who.get("/api/account/turns").text
            assert_no_card(text, hidden_cards(srv, code))
            assert anna_token not in text and ben_token not in text
        # Twenty-three hours later the turn is still his; a day and a minute, and a bot plays.
        test_clock.advance(23 * HOUR)
        a.drain(0.3)
        assert a.state is not None and not a.state["table"]["seats"][1]["stand_in"]
        test_clock.advance(HOUR + 60)
        st = a.wait(lambda s: s["table"]["seats"][1]["stand_in"])
        assert {"ply": st["version"], "kind": "timeout", "seat": 1, "by": None,
                "detail": "bot"} in st["table"]["events"]  # fmt: skip
        a.wait(lambda s: s["view"]["to_move"] == 0)  # the bot played his move
        stored = srv.stored(code)
        assert stored.seats[1].stand_in and stored.events[-1].kind == "timeout"
        # He is told why (by push, as he chose), with nothing of any hand.
        texts = []
        for _ in range(50):
            texts = [decrypt(p, phone)["body"] for p in service.received]
            if any("time ran out" in t for t in texts):
                break
            service.wait(len(service.received) + 1)
        assert f"Your time ran out at table {code}: a bot plays for you until you are back." in (
            "\n".join(texts)
        )
        for text in texts:
            assert_no_card(text, hidden_cards(srv, code))
        # Anna's turn now comes first in her games; back at the table, Ben plays his seat again.
        assert anna.get("/api/account/turns").json()["turns"][0]["your_turn"]
        b = Client(srv, code, ben_token)
        b.wait(lambda s: not s["table"]["seats"][1]["stand_in"])
        b.close()
        # Away is how a game over days is played: nobody hands his seat to a bot meanwhile.
        r = anna.post(f"/api/tables/{code}/seats/1/bot", {"host_token": host, "level": None})
        assert r.status_code == 409 and "days run out" in r.json()["message"]
        assert srv.stored(code).seats[1].bot is None
        a.close()


class OneServer(Cluster):
    server_type = ServeProcess


def test_a_correspondence_game_is_played_to_its_end_over_days_across_a_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = TestClock(tmp_path / "clock")
    monkeypatch.setenv(CLOCK_FILE_VARIABLE, str(clock.path))
    db = f"sqlite:///{tmp_path / 'days.db'}"
    first = OneServer(1, db, serve_args=["--bot-delay", "0"], workdir=tmp_path, nginx=None)
    first.start()
    try:
        server: Any = first.servers[0]
        anna, ben = Browser(server), Browser(server)
        anna.sign_up(unique("anna"))
        ben.sign_up(unique("ben"))
        code, host, anna_token, ben_token = days_table(anna, ben, on_timeout="lost")
        start(server, code, host)
        clients = {0: Client(server, code, anna_token), 1: Client(server, code, ben_token)}
        # Six moves, ten hours apart: each turn has a whole day.
        for ply in range(6):
            st = clients[0].wait(
                lambda s, v=ply: s["version"] == v and s["clock"]["seat"] is not None
            )
            seat = st["clock"]["seat"]
            assert DAY - 60 < st["clock"]["left"] <= DAY
            clock.advance(10 * HOUR)
            move(clients[seat], seat)
        st = clients[0].wait(lambda s: s["version"] == 6 and s["clock"]["seat"] is not None)
        waiting, version = st["clock"]["seat"], st["version"]
        for c in clients.values():
            c.close()
        clock.advance(10 * HOUR)
    finally:
        first.stop()
    clock.advance(5 * HOUR)  # the server is down for five hours: they count
    second = OneServer(1, db, serve_args=["--bot-delay", "0"], workdir=tmp_path, nginx=None)
    second.start()
    try:
        server = second.servers[0]
        tokens = {0: anna_token, 1: ben_token}
        c = Client(server, code, tokens[waiting])
        st = c.wait(lambda s: s["view"] is not None)
        assert st["version"] == version and st["clock"]["seat"] == waiting
        assert 9 * HOUR - 60 < st["clock"]["left"] <= 9 * HOUR
        mover = waiting
        move(c, mover)  # in time
        c.close()
        other = 1 - mover
        [turn] = Browser(server).get("/api/tables/" + code).json()["seats"][other : other + 1]
        assert turn["kind"] == "human"
        # The other player never moves again: a day later the game is lost.
        clock.advance(DAY + 60)
        watcher = Client(server, code)
        st = watcher.wait(lambda s: s["table"]["status"] == "finished", timeout=30)
        winner = "AB"[mover % 2]
        assert st["table"]["result"] == f"{winner} wins"
        timeout = {"ply": version + 1, "kind": "timeout", "seat": other, "by": None,
                   "detail": "lost"}  # fmt: skip
        assert st["table"]["events"][-1] == timeout
        stored = server.stored(code)
        assert stored.status == "finished" and stored.result == f"{winner} wins"
        assert len(stored.moves) == version + 1
        watcher.close()
    finally:
        second.stop()


def test_an_upgrade_from_0007_keeps_a_clock_game_going(tmp_path: Path) -> None:
    """A database of revision 0007 with a quick-clock game in play is upgraded to 0008: the game
    replays, its clock goes on from what was left (a live clock), and it has no timeout choice."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    config = make_config("classic", players=2)
    state = State.new(config, 7)
    for _ in range(4):
        state.push(state.legal_moves[0], seat=state.next_step().seat)
    engine = old_database(url, "0007", config)
    with engine.begin() as conn:
        conn.execute(text("UPDATE game_tables SET time_control = 'quick', turn_seconds = 30,"
                          " reserve_seconds = 60, clock_seat = 0, clock_left = 42.5"))  # fmt: skip
        for seat in range(2):
            conn.execute(
                text("INSERT INTO seats (table_id, seat, name, token_hash, bot, stand_in,"
                     " reserve, timeouts) VALUES (1, :seat, :name, 'x', NULL, FALSE, 60, 0)"),
                {"seat": seat, "name": f"p{seat}"},
            )  # fmt: skip
        for ply, move in enumerate(state.move_stack, 1):
            conn.execute(
                text("INSERT INTO moves (table_id, ply, move, seat, created_at)"
                     " VALUES (1, :ply, :move, NULL, '2025-01-01')"),
                {"ply": ply, "move": str(move)},
            )  # fmt: skip
    engine.dispose()
    store = TableStore(url)  # migrates to the newest revision
    try:
        data = store.load("OLDONE")
        assert data is not None and data.on_timeout is None and data.clock_deadline is None
        table = table_from(data)
        assert table.clock is not None and not table.clock.correspondence
        assert table.turn is not None and table.turn.left == 42.5
        assert table.state is not None and len(table.state.move_stack) == 4
    finally:
        store.close()
