"""Rated games and quick play: OpenSkill updates for sides, teams, draws and three sides, bots
rated beside people, refusals of tables that cannot be rated, and the quick-play queue pairing
waiting players and filling with bots after the wait -- on SQLite and on PostgreSQL."""

from __future__ import annotations

import random
import time
from typing import Any

import httpx
import pytest

from sequence.server.ratings.players import PlayerBook, load_calibration
from sequence.server.ratings.rating import Rating, rate
from sequence.server.tables.store import TableStore

from .conftest import Client, ServerThread, fresh_postgres
from .test_games import drive


def post(http: httpx.Client, path: str, body: dict[str, Any], status: int = 200) -> Any:
    r = http.post(path, json=body)
    assert r.status_code == status, r.text
    return r.json()


def guest(http: httpx.Client, name: str) -> dict[str, Any]:
    return dict(post(http, "/api/players", {"name": name}))


def rating_of(http: httpx.Client, player: int, family: str) -> dict[str, Any] | None:
    page = http.get(f"/api/players/{player}").json()
    return page["ratings"].get(family)


def bot_id(http: httpx.Client, level: str, family: str) -> int:
    board = http.get("/api/leaderboard", params={"family": family}).json()
    return next(r["player"] for r in board["players"] if r["kind"] == "bot" and r["name"] == level)


def finish_by_hand(srv: ServerThread, code: str, result: str) -> None:
    """End a stored rated game with ``result`` and rate it, as the hub does at a game's end
    (for results a test cannot steer a real game to, a draw say)."""
    store = TableStore(srv.db)
    try:
        data = store.load(code)
        assert data is not None
        store.finish(data.id, result)
        assert PlayerBook(store.engine).apply(data.id)
        assert not PlayerBook(store.engine).apply(data.id)  # exactly once
    finally:
        store.close()


# --- the arithmetic ----------------------------------------------------------------------------


def test_rate_two_sides_teams_draws_three_sides() -> None:
    a, b = Rating(), Rating()
    [[w], [lo]] = rate([[a], [b]], winner=0)
    assert w.mu > 25 > lo.mu and w.sigma < a.sigma and w.games == lo.games == 1
    [[d1], [d2]] = rate([[a], [b]], winner=None)
    assert d1.mu == pytest.approx(d2.mu) and d1.sigma < a.sigma
    # Two teams of two: both members of the winning team go up.
    [[t1, t2], [t3, t4]] = rate([[a, Rating(30, 2)], [b, Rating(20, 2)]], winner=1)
    assert t1.mu < 25 and t2.mu < 30 and t3.mu > 25 and t4.mu > 20
    # The stronger member, surer of, moves less than the new one.
    assert abs(t2.mu - 30) < abs(t1.mu - 25)
    # Three sides: the losers tie for second.
    [[x], [y], [z]] = rate([[a], [b], [Rating()]], winner=1)
    assert y.mu > x.mu == pytest.approx(z.mu)
    assert Rating().provisional and not Rating(25, 2, 30).provisional


def test_calibration_file_has_every_level_and_family() -> None:
    from sequence.bots.levels import LEVELS
    from sequence.server.ratings.rating import FAMILIES

    calibration = load_calibration()
    assert set(calibration) == set(FAMILIES)
    for levels in calibration.values():
        assert set(levels) == set(LEVELS)
        # Surer than a new player's, and easy (which overlooks cards) the weakest.
        assert all(r.sigma < Rating().sigma and r.games > 0 for r in levels.values())
        assert levels["easy"].mu < min(levels["medium"].mu, levels["hard"].mu)


# --- rated tables over HTTP --------------------------------------------------------------------


def test_rated_tables_refused_without_a_clock_or_with_other_rules(server: ServerThread) -> None:
    with server.http() as http:
        me = guest(http, "Ann")
        base = {"game": "classic", "players": 2, "rated": True, "name": "Ann",
                "player_token": me["player_token"]}  # fmt: skip
        cases = [
            ({}, "turn clock"),
            ({"clock": "casual", "options": {"max_turns": 40}}, "max_turns"),
            ({"clock": "casual", "options": {"draft": True}}, "draft"),
            ({"clock": "casual", "bots": [None, "random"]}, "bot levels"),
            ({"clock": "casual", "bot_level": "mcts"}, "bot levels"),
            ({"clock": "casual", "player_token": None}, "player_token"),
            ({"clock": "casual", "player_token": "forged"}, "unknown player token"),
            ({"clock": "casual", "local": [{"seat": 1, "name": "Sam"}]}, "own device"),
        ]
        before = http.get("/api/tables").json()["tables"]
        for extra, reason in cases:
            r = http.post("/api/tables", json={**base, **extra})
            assert r.status_code == 422, r.text
            assert reason in r.json()["message"], (extra, r.json())
        assert http.get("/api/tables").json()["tables"] == before  # nothing was made
        ok = post(http, "/api/tables", {**base, "clock": "casual", "bots": [None, "easy"]})
        assert http.get(f"/api/tables/{ok['code']}").json()["rated"] is True
        # A rated table seats players, each once; and only rated bot levels.
        r = http.post(f"/api/tables/{ok['code']}/join", json={"name": "Bob"})
        assert r.status_code == 422 and "player_token" in r.json()["message"]
        bob = guest(http, "Bob")  # pass-and-play seats have no player of their own
        body = {"name": "Bob", "player_token": bob["player_token"],
                "local": [{"seat": 1, "name": "Sam"}]}  # fmt: skip
        r = http.post(f"/api/tables/{ok['code']}/join", json=body)
        assert r.status_code == 422 and "own device" in r.json()["message"], r.text
        r = http.post(
            f"/api/tables/{ok['code']}/seats/1/bot",
            json={"host_token": ok["host_token"], "level": "random"},
        )
        assert r.status_code == 422 and "bot levels" in r.json()["message"]
        # In play too: a bot standing in for an away player is one of the levels.
        post(http, f"/api/tables/{ok['code']}/start", {"host_token": ok["host_token"]})
        for level in ("mcts", None):
            r = http.post(
                f"/api/tables/{ok['code']}/seats/0/bot",
                json={"host_token": ok["host_token"], "level": level},
            )
            if level == "mcts":
                assert r.status_code == 422 and "bot levels" in r.json()["message"]
            else:
                assert r.status_code == 200 and r.json()["bot"] == "medium"
        r = http.get("/api/leaderboard", params={"family": "chess"})
        assert r.status_code == 400 and "classic2" in r.json()["message"]


def _rated_against_bot_resigned(srv: ServerThread) -> None:
    with srv.http() as http:
        me = guest(http, "Ann")
        before_bot = rating_of(http, bot_id(http, "easy", "classic2"), "classic2")
        assert before_bot is not None
        body = {"game": "classic", "players": 2, "rated": True, "clock": "casual",
                "bots": [None, "easy"], "name": "Ann"}  # fmt: skip
        body["player_token"] = me["player_token"]
        made = post(http, "/api/tables", body)
        post(http, f"/api/tables/{made['code']}/start", {"host_token": made["host_token"]})
        c = Client(srv, made["code"], made["seat_token"])
        c.wait(lambda m: m["type"] == "state" and m["view"] is not None)
        c.send({"type": "resign"})
        c.wait(lambda m: m["type"] == "state" and m["table"]["status"] == "finished")
        c.close()
        deadline = time.monotonic() + 10
        while rating_of(http, me["player"], "classic2") is None:
            assert time.monotonic() < deadline, "the rating never moved"
            time.sleep(0.05)
        mine = rating_of(http, me["player"], "classic2")
        bot = rating_of(http, bot_id(http, "easy", "classic2"), "classic2")
        assert mine is not None and bot is not None
        assert mine["mu"] < 25 and mine["games"] == 1 and mine["provisional"]
        assert mine["rating"] == pytest.approx(mine["mu"] - 3 * mine["sigma"], abs=0.1)
        # On the scale people read: below the 1500 every player starts at, after a loss.
        assert mine["display"] == pytest.approx(1500 + 40 * (mine["mu"] - 25), abs=1)
        assert mine["display"] < 1500 and bot["display"] == pytest.approx(
            1500 + 40 * (bot["mu"] - 25), abs=1
        )
        assert bot["mu"] > before_bot["mu"] and bot["games"] == before_bot["games"] + 1
        page = http.get(f"/api/players/{me['player']}").json()
        assert page["versus_bots"] == {"easy": {"win": 0, "draw": 0, "loss": 1}}
        assert page["games"][0]["code"] == made["code"] and page["games"][0]["result"] == "loss"
        assert len(page["history"]["classic2"]) == 1
        board = http.get("/api/leaderboard", params={"family": "classic2"}).json()
        names = [(r["name"], r["kind"]) for r in board["players"]]
        assert ("Ann", "guest") in names and ("easy", "bot") in names
        shown = [r["rating"] for r in board["players"]]
        assert shown == sorted(shown, reverse=True)
        # Nothing secret in what anybody can read.
        text = http.get(f"/api/players/{me['player']}").text + str(board)
        assert me["player_token"] not in text and made["seat_token"] not in text


def test_rated_game_against_a_bot_moves_both_ratings(server: ServerThread) -> None:
    _rated_against_bot_resigned(server)


def _teams_and_three_sides(srv: ServerThread) -> None:
    with srv.http() as http:
        ids = {}
        tokens = {}
        for name in ("Ann", "Bob", "Cid", "Dee"):
            g = guest(http, name)
            ids[name], tokens[name] = g["player"], g["player_token"]
        # Two teams of two people: Ann+Cid (seats 0, 2) beat Bob+Dee (seats 1, 3).
        made = post(http, "/api/tables", {"game": "classic", "players": 4, "rated": True,
                                          "clock": "casual", "name": "Ann", "seat": 0,
                                          "player_token": tokens["Ann"]})  # fmt: skip
        for seat, name in ((1, "Bob"), (2, "Cid"), (3, "Dee")):
            post(http, f"/api/tables/{made['code']}/join",
                 {"name": name, "seat": seat, "player_token": tokens[name]})  # fmt: skip
        r = http.post(f"/api/tables/{made['code']}/join",
                      json={"name": "Ann", "player_token": tokens["Ann"]})  # fmt: skip
        assert r.status_code == 409  # full, and Ann is seated already anyway
        finish_by_hand(srv, made["code"], "A wins")
        got = {n: rating_of(http, ids[n], "classic2") for n in ids}
        assert all(g is not None and g["games"] == 1 for g in got.values())
        mu = {n: g["mu"] for n, g in got.items() if g is not None}
        assert mu["Ann"] == pytest.approx(mu["Cid"]) and mu["Ann"] > 25
        assert mu["Bob"] == pytest.approx(mu["Dee"]) and mu["Bob"] < 25
        # Three sides, a draw: everybody's sigma shrinks, nobody's mu moves (equal ratings).
        made = post(http, "/api/tables", {"game": "dice", "players": 3, "rated": True,
                                          "clock": "quick", "name": "Ann",
                                          "player_token": tokens["Ann"]})  # fmt: skip
        for name in ("Bob", "Cid"):
            post(http, f"/api/tables/{made['code']}/join",
                 {"name": name, "player_token": tokens[name]})  # fmt: skip
        finish_by_hand(srv, made["code"], "draw")
        for name in ("Ann", "Bob", "Cid"):
            r3 = rating_of(http, ids[name], "dice")
            assert r3 is not None and r3["mu"] == pytest.approx(25, abs=0.01) and r3["sigma"] < 8.3
        # Three sides, a win: the winner up, the two others tied below.
        made = post(http, "/api/tables", {"game": "classic", "players": 3, "rated": True,
                                          "clock": "casual", "name": "Ann",
                                          "bots": [None, None, "medium"],
                                          "player_token": tokens["Ann"]})  # fmt: skip
        post(http, f"/api/tables/{made['code']}/join",
             {"name": "Bob", "player_token": tokens["Bob"]})  # fmt: skip
        finish_by_hand(srv, made["code"], "B wins")
        ann, bob = rating_of(http, ids["Ann"], "classic3"), rating_of(http, ids["Bob"], "classic3")
        assert ann is not None and bob is not None and bob["mu"] > 25 > ann["mu"]
        medium = rating_of(http, bot_id(http, "medium", "classic3"), "classic3")
        assert medium is not None and medium["games"] > 1


def test_teams_draws_and_three_sides(server: ServerThread) -> None:
    _teams_and_three_sides(server)


def test_a_seat_given_away_in_the_lobby_is_rated_as_its_new_player(server: ServerThread) -> None:
    with server.http() as http:
        ann, bob, cid = (guest(http, n) for n in ("Ann", "Bob", "Cid"))
        made = post(http, "/api/tables", {"game": "kids", "players": 2, "rated": True,
                                          "clock": "casual", "name": "Ann",
                                          "player_token": ann["player_token"]})  # fmt: skip
        code = made["code"]
        post(http, f"/api/tables/{code}/join", {"name": "Bob", "player_token": bob["player_token"]})
        # Bob left: the host opens his seat again, Cid takes it, then the host gives it to a
        # bot and back to Cid: Cid is rated for it, Bob is not.
        for level in (None, "hard", None):
            post(http, f"/api/tables/{code}/seats/1/bot",
                 {"host_token": made["host_token"], "level": level})  # fmt: skip
            if level is None:
                post(http, f"/api/tables/{code}/join",
                     {"name": "Cid", "player_token": cid["player_token"]})  # fmt: skip
        finish_by_hand(server, code, "B wins")
        cid_r = rating_of(http, cid["player"], "kids")
        assert cid_r is not None and cid_r["mu"] > 25
        assert rating_of(http, bob["player"], "kids") is None
        assert http.get(f"/api/players/{bob['player']}").json()["games"] == []


def test_unrated_tables_move_no_rating(server: ServerThread) -> None:
    with server.http() as http:
        me = guest(http, "Ann")
        made = post(http, "/api/tables", {"game": "kids", "players": 2, "name": "Ann",
                                          "bots": [None, "easy"],
                                          "player_token": me["player_token"]})  # fmt: skip
        store = TableStore(server.db)
        try:
            data = store.load(made["code"])
            assert data is not None
            store.finish(data.id, "A wins")
            assert not PlayerBook(store.engine).apply(data.id)
        finally:
            store.close()
        page = http.get(f"/api/players/{me['player']}").json()
        assert page["ratings"] == {} and page["games"][0]["rated"] is False


# --- quick play --------------------------------------------------------------------------------


def _quickplay(srv: ServerThread) -> None:
    with srv.http() as http:
        bad = [
            ({"game": "kids", "players": 9, "wait": 10, "name": "A"}, 422),
            ({"game": "chess", "players": 2, "wait": 10, "name": "A"}, 400),
            ({"game": "kids", "players": 2, "wait": 10_000, "name": "A"}, 400),
            ({"game": "kids", "players": 2, "wait": 10, "name": "   "}, 422),
            ({"game": "kids", "players": 2, "wait": 10, "name": "A", "player_token": "x"}, 422),
        ]
        for body, status in bad:
            post(http, "/api/quickplay", body, status)
        post(http, "/api/quickplay/status", {"ticket": "nope"}, 403)
        # Two players waiting for the same game are seated together, rated, at once.
        a = post(http, "/api/quickplay", {"game": "kids", "players": 2, "wait": 60, "name": "Ann"})
        sa = post(http, "/api/quickplay/status", {"ticket": a["ticket"]})
        assert sa["status"] == "waiting" and sa["code"] is None and sa["left"] > 50
        b = post(http, "/api/quickplay", {"game": "kids", "players": 2, "wait": 60, "name": "Bob"})
        sa = post(http, "/api/quickplay/status", {"ticket": a["ticket"]})
        sb = post(http, "/api/quickplay/status", {"ticket": b["ticket"]})
        assert sa["status"] == sb["status"] == "seated"
        assert sa["code"] == sb["code"] and {sa["seat"], sb["seat"]} == {0, 1}
        assert sa["seat_token"] and sb["seat_token"]
        again = post(http, "/api/quickplay/status", {"ticket": a["ticket"]})
        assert again["seat_token"] is None  # given once
        info = http.get(f"/api/tables/{sa['code']}").json()
        assert info["rated"] and info["status"] == "playing" and info["time_control"]
        assert sorted(s["name"] for s in info["seats"]) == ["Ann", "Bob"]
        c = Client(srv, sa["code"], sa["seat_token"])
        st = c.wait(lambda m: m["type"] == "state" and m["view"] is not None)
        assert st["you"]["seat"] == sa["seat"]
        c.close()
        # A player waiting in another pool is not seated with them; with nobody else, bots
        # fill the table once the wait is over.
        d = post(http, "/api/quickplay", {"game": "dice", "players": 3, "wait": 1, "name": "Dee",
                                          "player_token": a["player_token"]})  # fmt: skip
        assert d["player"] == a["player"] and d["player_token"] is None
        sd = post(http, "/api/quickplay/status", {"ticket": d["ticket"]})
        assert sd["status"] == "waiting"
        time.sleep(1.2)
        sd = post(http, "/api/quickplay/status", {"ticket": d["ticket"]})
        assert sd["status"] == "seated", sd
        info = http.get(f"/api/tables/{sd['code']}").json()
        kinds = sorted(s["kind"] for s in info["seats"])
        assert kinds == ["bot", "bot", "human"] and info["rated"]
        # Cancelled: never seated.
        e = post(http, "/api/quickplay", {"game": "kids", "players": 2, "wait": 1, "name": "Eve"})
        assert post(http, "/api/quickplay/cancel", {"ticket": e["ticket"]})["status"] == (
            "cancelled"
        )
        time.sleep(1.2)
        assert post(http, "/api/quickplay/status", {"ticket": e["ticket"]})["code"] is None


def test_quickplay_pairs_waiting_players_then_fills_with_bots(sqlite_url: str) -> None:
    with ServerThread(sqlite_url, bot_delay=0, quickplay_min_wait=1) as srv:
        _quickplay(srv)


def test_quickplay_matches_by_rating() -> None:
    """Of three waiting players, the two with close ratings are seated together at once."""
    from datetime import timedelta

    from sequence.server.ratings.matchmaking import Matchmaker
    from sequence.server.storage.db import now
    from sequence.server.storage.ratingdb import TicketRow

    at = now()

    def ticket(mu: float, n: int) -> TicketRow:
        return TicketRow(id=n, mu=mu, created_at=at, deadline=at + timedelta(seconds=60))

    far, near1, near2 = ticket(40.0, 1), ticket(20.0, 2), ticket(21.0, 3)
    group = Matchmaker._close_group([far, near1, near2], 2, at)
    assert group == [near1, near2]
    assert Matchmaker._close_group([far, near1], 2, at) is None
    # Waiting widens the window: after a minute, 20 points apart is near enough.
    assert Matchmaker._close_group([far, near1], 2, at + timedelta(seconds=70)) == [far, near1]


# --- PostgreSQL --------------------------------------------------------------------------------


@pytest.mark.postgres
def test_ratings_and_quickplay_on_postgres() -> None:
    with fresh_postgres() as url, ServerThread(url, bot_delay=0, quickplay_min_wait=1) as srv:
        _rated_against_bot_resigned(srv)
        _teams_and_three_sides(srv)
        _quickplay(srv)


@pytest.mark.postgres
def test_quickplay_queue_shared_by_two_server_processes() -> None:
    """Two servers (two apps, each with its own hub, tables in memory and database connections)
    on one PostgreSQL database, eight players asking at once, half on each: every player is
    seated exactly once, two to a table (the queue is the database's, matched under its lock)."""
    from concurrent.futures import ThreadPoolExecutor

    with (
        fresh_postgres() as url,
        ServerThread(url, bot_delay=0) as one,
        ServerThread(url, bot_delay=0) as two,
    ):

        def ask(i: int) -> str:
            with (one if i % 2 else two).http() as http:
                body = {"game": "kids", "players": 2, "wait": 60, "name": f"P{i}"}
                return str(post(http, "/api/quickplay", body)["ticket"])

        with ThreadPoolExecutor(8) as pool:
            tickets = list(pool.map(ask, range(8)))
        seated: dict[str, list[int]] = {}
        with one.http() as h1, two.http() as h2:
            for i, ticket in enumerate(tickets):
                got = post(h1 if i % 3 else h2, "/api/quickplay/status", {"ticket": ticket})
                assert got["status"] == "seated", got
                seated.setdefault(got["code"], []).append(got["seat"])
            assert len(seated) == 4
            assert all(sorted(seats) == [0, 1] for seats in seated.values())
            for code in seated:  # each table is known to both servers
                assert h2.get(f"/api/tables/{code}").json()["rated"]
                assert h1.get(f"/api/tables/{code}").json()["status"] == "playing"


# --- accounts ----------------------------------------------------------------------------------


def test_a_signed_in_account_is_rated_keeps_its_guest_games_and_deletes_its_ratings(
    sqlite_url: str,
) -> None:
    """A guest who played rated signs up: the account's player is that guest (ratings, games);
    a rated game played signed in moves it; deleting the account deletes the player."""
    from .test_accounts import PASSWORD, Browser, account_server

    with account_server(sqlite_url) as srv:
        b = Browser(srv)
        g = b.post("/api/players", {"name": "Gus"}).json()
        body = {"game": "kids", "players": 2, "rated": True, "clock": "casual", "name": "Gus",
                "bots": [None, "medium"], "player_token": g["player_token"]}  # fmt: skip
        made = b.post("/api/tables", body).json()
        finish_by_hand(srv, made["code"], "A wins")
        assert b.get("/api/players/me").json() == {"player": None}
        b.sign_up("gustav")
        made = b.post("/api/tables", body).json()  # signed in, the guest's token sent
        assert b.get("/api/players/me").json() == {"player": g["player"]}
        finish_by_hand(srv, made["code"], "B wins")
        page = b.get(f"/api/players/{g['player']}").json()
        assert page["kind"] == "account" and page["name"] == "gustav"
        assert page["ratings"]["kids"]["games"] == 2 and len(page["games"]) == 2
        # The guest token names nobody now: signed out, it is refused with its reason.
        with srv.http() as other:  # another browser, signed out
            r = other.post("/api/quickplay", json={"game": "kids", "players": 2, "name": "Gus",
                                                   "player_token": g["player_token"]})  # fmt: skip
        assert r.status_code == 422 and "player token" in r.json()["message"]
        assert b.post("/api/account/delete", {"password": PASSWORD}).status_code == 200
        assert b.get(f"/api/players/{g['player']}").status_code == 404
        board = b.get("/api/leaderboard", params={"family": "kids"}).json()["players"]
        assert all(row["player"] != g["player"] for row in board)


@pytest.mark.postgres
def test_quickplay_on_a_cluster_of_sequence_serve_processes() -> None:
    """Two ``sequence serve`` processes on one PostgreSQL database and one Redis: quick play
    asked of both seats the two players together; the process that matched them runs the table
    (its bots and clock), the other learns of it from the cluster's ``new`` notice before anyone
    asks it, and the two play through different processes to the end, stored once."""
    from .test_cluster import running, stored_plies_are_the_game

    with running(2, "--bot-delay", "0") as cluster:
        a, b = cluster.servers
        tickets = []
        for i, srv in enumerate((a, b)):  # matched when the second asks, by b
            with srv.http() as http:
                body = {"game": "kids", "players": 2, "wait": 60, "name": f"P{i}"}
                tickets.append(str(post(http, "/api/quickplay", body)["ticket"]))
        with b.http() as http:
            got = [post(http, "/api/quickplay/status", {"ticket": t}) for t in tickets]
        assert [g["status"] for g in got] == ["seated", "seated"], got
        code = got[0]["code"]
        assert got[1]["code"] == code and {g["seat"] for g in got} == {0, 1}
        assert cluster.owner(code) is b
        # a was told: its list of open tables (its memory) has the table before a is asked of it.
        deadline = time.monotonic() + 10
        with a.http() as http:
            while code not in {t["code"] for t in http.get("/api/tables").json()["tables"]}:
                assert time.monotonic() < deadline, "the other process never heard of the table"
                time.sleep(0.1)
        players = {
            g["seat"]: Client(srv, code, g["seat_token"])
            for g, srv in zip(got, (a, b), strict=True)
        }
        watcher = Client(a, code)
        for client in (*players.values(), watcher):
            client.wait(lambda s: s["view"] is not None)
        assert cluster.owner(code) is b  # the players' connections to a did not move it
        final = drive(watcher, players, random.Random(3))
        assert final["view"]["outcome"] is not None
        stored_plies_are_the_game(cluster, code, final["version"])
