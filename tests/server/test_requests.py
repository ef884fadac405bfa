"""Requests a careless or hostile client sends: each is refused clearly and changes nothing."""

from __future__ import annotations

import json
import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from sequence.cli.main import main
from sequence.server.tables import registry

from .conftest import Client, ServerThread, create_table, join, start


def finished_bot_game(server: ServerThread, **body: Any) -> str:
    created = create_table(server, game="kids", players=2, bots=["random", "random"], **body)
    code = created["code"]
    start(server, code, created["host_token"])
    deadline = time.monotonic() + 60
    with server.http() as http:
        while http.get(f"/api/tables/{code}").json()["status"] != "finished":
            assert time.monotonic() < deadline, "the bot game did not finish"
            time.sleep(0.05)
    return code


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ('{"game": [], "players": 2}', "game is text"),
        ('{"game": {}, "players": 2}', "game is text"),
        ('{"game": "checkers", "players": 2}', "unknown game checkers"),
        ('{"game": "classic", "players": 2.9}', "players must be a whole number"),
        ('{"game": "classic", "players": "2"}', "players must be a whole number"),
        ('{"game": "classic", "players": true}', "players must be a whole number"),
        ('{"game": "classic", "players": 1e400}', "players must be a whole number"),
        ('{"game": "classic", "players": 2, "teams": 1.5}', "teams must be a whole number"),
        ('{"game": "classic", "players": 2, "options": {"max_turns": 1e400}}',
         "options.max_turns must be a whole number"),
        ('{"game": "kids", "players": 2, "options": {"chips_per_colour": 2.5}}',
         'options.chips_per_colour is a whole number or "us"'),
        ('{"game": "kids", "players": 2, "options": {"difficult": true}}',
         "option difficult does not apply to Sequence for Kids"),
        ('{"game": "classic", "players": 2, "options": {"colour": "red"}}',
         "unknown option colour"),
        ('{"game": "classic", "players": 2, "options": {"draft": "yes"}}',
         "options.draft is true or false"),
        ('{"game": "kids", "players": 2, "bots": "easy"}', "bots is a list"),
        ('{"game": "kids", "players": 2, "bots": [1, null]}',
         "bots.0 is a bot level (text), or null for a seat left open for a person"),
        ('{"game": "kids", "players": 2, "bots": [null, ["easy"]]}',
         "bots.1 is a bot level (text), or null for a seat left open for a person"),
        ('{"game": "kids", "players": 2, "colour": "red"}',
         "colour is not a field of this request"),
        ('{"game": "kids", "players": 2, "public": "false"}', "public is true or false"),
        ('{"game": "kids", "players": 2, "name": "Ann", "seat": -1}', "seat is at least 0"),
        ('{"game": "kids", "players": 2, "name": "Ann", "seat": 7}', "no seat 7"),
    ],
)  # fmt: skip
def test_bad_create_values_are_refused(server: ServerThread, body: str, says: str) -> None:
    # A 400 for a body that does not fit /openapi.json, a 422 for one the rules refuse.
    ruled = ("option difficult does not apply", "no seat 7")
    with server.http() as http:
        r = http.post("/api/tables", content=body.encode())
        assert r.status_code == (422 if says.startswith(ruled) else 400), r.text
        assert r.json()["error"] == "bad_message" and says in r.json()["message"]
        assert http.get("/api/tables").json()["tables"] == []


@pytest.mark.parametrize(
    ("bots", "players"),
    [(["hard"], 2), ([], 2), ([None, "easy"], 3), (["easy", None, None], 2), (["nope"], 2),
     ([None, None, "medium"], 4)],
)  # fmt: skip
def test_bots_name_every_seat_or_the_table_is_refused(
    server: ServerThread, bots: list[str | None], players: int
) -> None:
    # docs/server.md: bots is [level or null per seat]. ["hard"] at a table of two used to
    # leave the second seat open without a word; which seat was meant cannot be guessed.
    body = {"game": "kids" if players == 2 else "classic", "players": players, "bots": bots}
    with server.http() as http:
        for lang, says in [
            ("en", f"bots needs one entry per seat, in seat order (a bot level, or null for an"
                   f" open seat): {len(bots)} given for {players} seats"),
            ("fr", f"{len(bots)} données pour {players} places"),
        ]:  # fmt: skip
            if "nope" in bots:  # not a level (the description's enum): a 400 before the count
                says = "unknown bot level 'nope'" if lang == "en" else "'nope'"
            r = http.post("/api/tables", json=body, headers={"Accept-Language": lang})
            assert r.status_code == (400 if "nope" in bots else 422), r.text
            assert r.json()["error"] == "bad_message" and says in r.json()["message"]
            rated = {**body, "rated": True, "clock": "casual"}  # the count, not the rated rules
            r = http.post("/api/tables", json=rated, headers={"Accept-Language": lang})
            assert r.status_code in (400, 422) and says in r.json()["message"], r.text
        assert http.get("/api/tables").json()["tables"] == []
        assert server.hub.registry.tables == {}


def test_bots_for_every_seat_seat_them_where_they_are_listed(server: ServerThread) -> None:
    created = create_table(server, game="classic", players=4, bots=[None, "hard", None, "easy"])
    with server.http() as http:
        seats = http.get(f"/api/tables/{created['code']}").json()["seats"]
    assert [(s["kind"], s["bot"]) for s in seats] == [
        ("empty", None), ("bot", "hard"), ("empty", None), ("bot", "easy")
    ]  # fmt: skip
    unlisted = create_table(server, game="kids", players=2)  # no bots: every seat open
    with server.http() as http:
        seats = http.get(f"/api/tables/{unlisted['code']}").json()["seats"]
    assert [s["kind"] for s in seats] == ["empty", "empty"]


@pytest.mark.parametrize(
    ("body", "missing"),
    [("{}", "game"), ('{"players": 2}', "game"), ('{"game": "kids"}', "players"),
     ('{"game": null, "players": 2}', "game")],
)  # fmt: skip
def test_a_table_needs_a_game_and_a_player_count(
    server: ServerThread, body: str, missing: str
) -> None:
    # docs/server.md: POST /api/tables {game, players, teams?, ...}: game and players required.
    with server.http() as http:
        r = http.post("/api/tables", content=body.encode())
        assert r.status_code == 400, r.text
        assert r.json() == {
            "error": "bad_message",
            "message": f"{missing} is missing: a table needs a game and a number of players",
        }
        assert http.get("/api/tables").json()["tables"] == []


def test_unknown_routes_and_methods_get_the_api_error_format(server: ServerThread) -> None:
    with server.http() as http:
        r = http.get("/api/nope")
        assert r.status_code == 404
        assert r.json() == {"error": "not_found", "message": "there is nothing at /api/nope"}
        r = http.get("/static/nope.js", headers={"Accept-Language": "fr"})
        assert r.status_code == 404 and r.json()["error"] == "not_found"
        assert r.json()["message"] == "il n'y a rien à /static/nope.js"
        r = http.delete("/api/tables")
        assert r.status_code == 405 and r.headers["allow"] == "GET, POST"
        assert r.json() == {
            "error": "method_not_allowed",
            "message": "/api/tables does not take DELETE; it takes GET, POST",
        }
        r = http.get(f"/api/tables/{create_table(server, game='kids', players=2)['code']}/start")
        assert r.status_code == 405 and r.headers["allow"] == "POST"


def test_an_unknown_game_names_the_games_that_meta_lists(server: ServerThread) -> None:
    # The engine's refusal names its GAMES, the games GET /api/meta lists, then how to get each
    # of its variants (meta's "variants"): draft is classic with the option draft, and is taken
    # as a game name too.
    with server.http() as http:
        meta = http.get("/api/meta").json()
        games = list(meta["games"])
        assert meta["variants"] == {"draft": {"game": "classic", "options": {"draft": True}}}
        for lang, choose, word in [("en", "choose", "or"), ("de", "wählen Sie", "oder")]:
            r = http.post(
                "/api/tables",
                json={"game": "nope", "players": 2},
                headers={"Accept-Language": lang},
            )
            assert r.status_code == 400 and r.json()["error"] == "bad_message", r.text
            named = f"{', '.join(games[:-1])} {word} {games[-1]}"
            assert f"{choose} {named} (" in r.json()["message"], r.text
            assert "draft" in r.json()["message"] and "classic" in r.json()["message"]
        r = http.post("/api/tables", json={"game": "nope", "players": 2})
        assert r.json()["message"].endswith("(the draft variant: classic with the option draft)"), (
            r.text
        )
        created = http.post("/api/tables", json={"game": "draft", "players": 2}).json()
        config = http.get(f"/api/tables/{created['code']}").json()["config"]
    assert config["game"] == "classic" and config["draft"] is True


def _documented_error_codes() -> str:
    """The paragraph of docs/server.md that lists the HTTP API's error codes."""
    text = (Path(__file__).parents[2] / "docs" / "server.md").read_text()
    start = text.index("Errors are JSON")
    return text[start : text.index("No request gets", start)]


def test_every_404_has_a_code_the_docs_give_for_404(server: ServerThread) -> None:
    # A table, a player, or something else the path names that does not exist: unknown_table,
    # unknown_player or not_found, never bad_message (which is a malformed request's).
    documented = _documented_error_codes()
    code = finished_bot_game(server)
    with server.http() as http:
        plies = http.get(f"/api/tables/{code}/replay/0").json()["plies"]
        for path, expected in [
            ("/api/tables/NOPE99", "unknown_table"),
            ("/api/tables/NOPE99/record", "unknown_table"),
            ("/api/tables/NOPE99/replay/0", "unknown_table"),
            ("/api/tables/NOPE99/replay/99", "unknown_table"),
            ("/api/tables/NOPE99/qr.svg", "unknown_table"),
            (f"/api/tables/{code}/replay/{plies + 1}", "not_found"),
            (f"/api/tables/{code}/replay/-1", "not_found"),
            ("/api/rules/chess", "not_found"),
            ("/api/i18n/xx", "not_found"),
            ("/api/players/999999", "unknown_player"),
            ("/api/nope", "not_found"),
        ]:
            r = http.get(path, headers={"Accept-Language": "fr"})
            assert (r.status_code, r.json()["error"]) == (404, expected), (path, r.text)
            assert f"`{expected}`" in documented and f"`{expected}` (404" in documented, expected
        r = http.get(f"/api/tables/{code}/replay/{plies + 1}")
        assert r.json()["message"] == f"the game has {plies} moves"
        # The replay page of an unknown table is the app's page, which asks the API above.
        page = http.get("/replay/NOPE99")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")


def test_the_record_is_refused_until_the_game_is_over_and_saved_as_docs_say(
    server: ServerThread, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lobby = create_table(server, game="kids", players=2, name="Ann")
    playing = create_table(server, game="kids", players=2, bots=["random", "random"])
    server.hub.scheduler.delay = 30  # it stays in play
    start(server, playing["code"], playing["host_token"])
    with server.http() as http:
        for code in (lobby["code"], playing["code"]):
            for path in ("record", "replay/0"):
                r = http.get(f"/api/tables/{code}/{path}")
                assert r.status_code == 403 and r.json()["error"] == "not_finished", r.text
    server.hub.scheduler.delay = 0
    code = finished_bot_game(server)
    with server.http() as http:
        answer = http.get(f"/api/tables/{code}/record").json()
    # docs/server.md: save "text" (or "record" as JSON) for `sequence replay`.
    assert set(answer) == {"record", "text", "events"}
    (tmp_path / "game.txt").write_text(answer["text"])
    (tmp_path / "game.json").write_text(json.dumps(answer["record"]))
    for name in ("game.txt", "game.json"):
        assert main(["replay", str(tmp_path / name), "--print"]) == 0
        assert "result: " in capsys.readouterr().out


def test_tokens_that_are_not_text_are_refused(server: ServerThread) -> None:
    created = create_table(server, game="kids", players=2, name="Ann")
    code = created["code"]
    with server.http() as http:
        for path, key in [
            ("start", "host_token"),
            ("rematch", "token"),
            ("seats/1/bot", "host_token"),
        ]:
            for token in (5, [1], {"a": 1}, True):
                body = {key: token, **({"level": "random"} if path.endswith("bot") else {})}
                r = http.post(f"/api/tables/{code}/{path}", json=body)
                assert r.status_code == 400, (path, token, r.text)
                assert r.json() == {"error": "bad_message", "message": f"{key} is text"}
        assert http.get(f"/api/tables/{code}").json()["status"] == "lobby"


def test_a_missing_token_is_a_400_naming_it_before_rights_are_checked(
    server: ServerThread,
) -> None:
    # docs/server.md: a 400 names a missing field; the rights (403 not_host) come after it.
    created = create_table(server, game="kids", players=2, name="Ann")
    code = created["code"]
    with server.http() as http:
        for path, body, key in [
            ("start", {}, "host_token"),
            ("start", {"host_token": None}, "host_token"),
            ("rematch", {}, "token"),
            ("seats/1/bot", {"level": "random"}, "host_token"),
        ]:
            r = http.post(f"/api/tables/{code}/{path}", json=body)
            assert r.status_code == 400, (path, r.text)
            assert r.json() == {"error": "bad_message", "message": f"{key} is missing"}
        r = http.post(f"/api/tables/{code}/start", json={"host_token": "wrong"})
        assert r.status_code == 403 and r.json()["error"] == "not_host"
        r = http.post(
            f"/api/tables/{code}/seats/1/bot", json={"host_token": "wrong", "level": None}
        )
        assert r.status_code == 403, r.text
        assert http.get(f"/api/tables/{code}").json()["status"] == "lobby"


def test_parameters_that_are_not_numbers_get_the_api_error_format(server: ServerThread) -> None:
    created = create_table(server, game="kids", players=2, name="Ann")
    code = created["code"]
    with server.http() as http:
        for method, path, name in [
            ("POST", f"/api/tables/{code}/seats/abc/bot", "seat"),
            ("GET", f"/api/tables/{code}/replay/abc", "ply"),
            ("GET", "/api/finished?limit=abc", "limit"),
        ]:
            r = http.request(method, path, json={})
            assert r.status_code == 400, (path, r.text)
            assert r.json() == {"error": "bad_message", "message": f"{name} must be a whole number"}
        r = http.get("/api/finished?limit=x", headers={"Accept-Language": "de"})
        assert r.json()["message"] == "limit muss eine ganze Zahl sein"


def test_a_huge_body_is_refused_before_it_is_read(server: ServerThread) -> None:
    # The declared length alone is refused: the 300 MB never need to be sent.
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 314572800\r\n\r\n" + b"x" * 1000
        )
        reply = sock.recv(4096)
    assert reply.startswith(b"HTTP/1.1 413") and b"too_large" in reply

    def chunks() -> Any:  # no declared length: reading stops at the limit
        for _ in range(1000):
            yield b"x" * 1024

    with server.http() as http:
        r = http.post("/api/tables", content=chunks())
        assert r.status_code == 413 and r.json()["error"] == "too_large"
        assert http.get("/api/tables").json()["tables"] == []


def test_private_games_stay_unlisted_when_they_finish(server: ServerThread) -> None:
    private = finished_bot_game(server, public=False)
    public = finished_bot_game(server)
    with server.http() as http:
        listed = [g["code"] for g in http.get("/api/finished").json()["games"]]
    assert listed == [public] and private not in listed


def test_one_rematch_even_when_the_finished_table_was_not_in_memory(server: ServerThread) -> None:
    """After a restart a finished table is read back from the database: every request and every
    connection must share that one table, so concurrent rematches make one new table and the
    players connected to the old one hear of it."""
    created = create_table(server, game="kids", players=2, name="Ann", bots=[None, "random"])
    code, host, token = created["code"], created["host_token"], created["seat_token"]
    start(server, code, host)
    ann = Client(server, code, token, host)
    for _ in range(500):
        st = ann.wait(lambda s: s["view"] is not None)
        if st["view"]["outcome"]:
            break
        if st["view"]["legal_moves"]:
            move = st["view"]["legal_moves"][0]
            ann.send({"type": "move", "move": move, "version": st["version"]})
        ann.wait_version(st["version"] + 1)
    ann.close()
    server.hub.registry.tables.pop(code)  # as after a restart: only the database has it now
    ann = Client(server, code, token, host)
    watcher = Client(server, code)
    ann.wait(lambda s: s["view"] is not None)
    watcher.wait(lambda s: s["view"] is not None)
    codes: list[str] = []

    def ask() -> None:
        with server.http() as http:
            codes.append(
                http.post(f"/api/tables/{code}/rematch", json={"token": token}).json()["code"]
            )

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert len(codes) == 4 and len(set(codes)) == 1 and codes[0] != code
    ann.wait(lambda s: s["table"]["rematch"] == codes[0])
    watcher.wait(lambda s: s["table"]["rematch"] == codes[0])
    assert ann.state is not None and ann.state["table"]["spectators"] == 1
    with server.http() as http:
        playing = [t["code"] for t in http.get("/api/tables").json()["tables"]]
    assert playing == [codes[0]]


def test_finished_tables_in_memory_are_bounded(
    server: ServerThread, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(registry, "FINISHED_KEPT", 1)
    first, second = finished_bot_game(server), finished_bot_game(server)

    def read_back() -> None:  # as after a restart: only the database has them
        for code in (first, second):
            server.hub.registry.tables.pop(code, None)
        with server.http() as http:
            for code in (first, second):
                assert http.get(f"/api/tables/{code}").json()["status"] == "finished"

    read_back()  # both just used: a browser may be about to connect, so both stay
    assert first in server.hub.registry.tables and second in server.hub.registry.tables
    monkeypatch.setattr(registry, "FINISHED_GRACE", 0.0)
    read_back()  # beyond one, the least recently used goes
    assert first not in server.hub.registry.tables and second in server.hub.registry.tables


def test_the_host_can_free_a_lobby_seat_whose_player_left(server: ServerThread) -> None:
    created = create_table(server, game="classic", players=2, name="Ann", seat=0)
    code, host = created["code"], created["host_token"]
    bob = join(server, code, "Bob")
    here = Client(server, code, bob["seat_token"])
    here.wait(lambda s: True)
    with server.http() as http:
        r = http.post(f"/api/tables/{code}/seats/1/bot", json={"host_token": host, "level": None})
        assert r.status_code == 409 and "seat 1 is here" in r.json()["message"]
        here.close()
        deadline = time.monotonic() + 10
        while server.hub.registry.tables[code].seats[1].connections:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        r = http.post(f"/api/tables/{code}/seats/1/bot", json={"host_token": host, "level": None})
        assert r.status_code == 200, r.text
        assert http.get("/api/tables").json()["tables"][0]["free"] == [1]
        # Bob's old token no longer holds a seat; the seat can be taken again.
        assert join(server, code, "Cy", seat=1)["seat"] == 1
    stale = Client(server, code, bob["seat_token"])
    assert stale.error()["code"] == "bad_token"


def test_seat_numbers_in_messages_count_from_zero_like_the_api(server: ServerThread) -> None:
    # The API's seat (in paths, bodies and answers) is 0 for the first seat: its messages must
    # name seats the same way, or "seat 2 is taken" answers a request for seat 1.
    empty = create_table(server, game="classic", players=2)
    created = create_table(server, game="classic", players=2, name="Ann", seat=0)
    code, host = created["code"], created["host_token"]
    ann = Client(server, code, created["seat_token"])
    ann.wait(lambda s: True)
    with server.http() as http:

        def says(method: str, path: str, body: dict[str, Any]) -> str:
            return str(http.request(method, path, json=body).json()["message"])

        assert says("POST", f"/api/tables/{code}/join", {"name": "Bob", "seat": 0}) == (
            "seat 0 is taken"
        )
        no_seat_2 = "there is no seat 2 at this table: its seats are 0 to 1"
        assert says("POST", f"/api/tables/{code}/join", {"name": "Bob", "seat": 2}) == no_seat_2
        bot = {"host_token": host, "level": "random"}
        assert says("POST", f"/api/tables/{code}/seats/9/bot", bot) == (
            "there is no seat 9 at this table: its seats are 0 to 1"
        )
        assert says("POST", f"/api/tables/{code}/seats/0/bot", bot) == (
            "the player of seat 0 is here"
        )
        assert says("POST", f"/api/tables/{code}/start", {"host_token": host}) == (
            "seat 1 is still empty"
        )
        start_empty = {"host_token": empty["host_token"]}
        assert says("POST", f"/api/tables/{empty['code']}/start", start_empty) == (
            "seats 0, 1 are still empty"
        )
        taken = {"game": "kids", "players": 2, "bots": ["random", None], "name": "Ann", "seat": 0}
        assert says("POST", "/api/tables", taken) == "seat 0 is not free"
        taken["seat"] = 2
        assert says("POST", "/api/tables", taken) == no_seat_2
    ann.close()


def test_a_flood_of_lobbies_does_not_hide_games_in_play(
    server: ServerThread, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(registry, "LISTED", 2)
    playing = create_table(server, game="kids", players=2, bots=["random", "random"])
    with server.http() as http:
        # a slow game: the bots wait, so it stays in play while the lobbies arrive
        server.hub.scheduler.delay = 30
        start(server, playing["code"], playing["host_token"])
        lobbies = [create_table(server, game="kids", players=2)["code"] for _ in range(3)]
        listed = http.get("/api/tables").json()["tables"]
        assert [t["code"] for t in listed] == [lobbies[2], lobbies[1], playing["code"]]
        monkeypatch.setattr(registry, "LOBBY_IDLE", 0.0)  # nobody waits in them: they go
        listed = http.get("/api/tables").json()["tables"]
        assert [t["code"] for t in listed] == [playing["code"]]


def test_a_move_is_shown_only_once_it_is_stored(server: ServerThread) -> None:
    import asyncio

    created = create_table(server, game="classic", players=2, name="Ann", seat=0)
    code = created["code"]
    bob = join(server, code, "Bob")
    start(server, code, created["host_token"])
    tokens = {0: created["seat_token"], 1: bob["seat_token"]}
    clients = {s: Client(server, code, t) for s, t in tokens.items()}
    states = {s: c.wait(lambda st: st["view"] is not None) for s, c in clients.items()}
    seat = next(s for s, st in states.items() if st["view"]["legal_moves"])
    me, before = clients[seat], states[seat]

    async def slow_then_fail(*args: Any, **kwargs: Any) -> None:
        await asyncio.sleep(0.5)
        raise RuntimeError("the disk is full")

    server.hub.registry.store.append_move = slow_then_fail

    me.drain()
    me.send({"type": "move", "move": before["view"]["legal_moves"][0], "version": 0})
    time.sleep(0.15)
    # While the move is being stored, the same player opens a second tab.
    tab = Client(server, code, tokens[seat])
    during = tab.wait(lambda st: True)
    assert during["version"] == 0 and during["view"]["hand"] == before["view"]["hand"]
    assert me.error()["code"] == "unavailable"
    after = Client(server, code, tokens[seat]).wait(lambda st: True)
    assert after["version"] == 0 and after["view"]["hand"] == before["view"]["hand"]
    assert after["view"]["legal_moves"] == before["view"]["legal_moves"]
