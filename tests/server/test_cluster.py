"""Several ``sequence serve`` processes on one PostgreSQL database and one Redis (issue 20).

Real parts, started by the repository's own files: the processes are ``sequence serve``
subprocesses (:mod:`.cluster`), PostgreSQL is a fresh database (``fresh_postgres``), Redis the
one at 127.0.0.1:6379 under a key prefix of the test's own. Players and spectators are attached
to different processes: they see one game, a move sent to two processes at once is stored once,
and when the process running a table's bots and clock is killed with SIGKILL another takes
over: the game goes on and ends, the clock runs out when it was due, and no process is left.
"""

from __future__ import annotations

import contextlib
import random
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from sequence.engine import GameRecord

from .cluster import ServeCluster, alive, children, redis_available
from .conftest import Client, answer, create_table, fresh_postgres, join, start
from .test_accounts import PASSWORD, Browser
from .test_games import check_messages, drive

pytestmark = pytest.mark.postgres

BOTS = ("--bot-workers", "1", "--bot-delay", "0.2")


@contextlib.contextmanager
def running(processes: int, *extra: str) -> Iterator[ServeCluster]:
    why = redis_available()
    if why:
        pytest.skip(why)
    with fresh_postgres() as db, ServeCluster(db, processes=processes, extra=extra) as cluster:
        yield cluster


@pytest.fixture
def cluster() -> Iterator[ServeCluster]:
    with running(3, *BOTS) as c:
        yield c


def said(client: Client, text: str, timeout: float = 10) -> dict[str, Any]:
    """Read until a chat line ``text`` arrives."""
    deadline = time.monotonic() + timeout
    while True:
        msg = client.recv(timeout=max(0.01, deadline - time.monotonic()))
        if msg["type"] == "chat" and msg["text"] == text:
            return msg


def at_once(*sends: tuple[Client, dict[str, Any]]) -> None:
    """Send each frame from its own thread, all released together."""
    barrier = threading.Barrier(len(sends))

    def go(client: Client, frame: dict[str, Any]) -> None:
        barrier.wait()
        client.send(frame)

    threads = [threading.Thread(target=go, args=pair) for pair in sends]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def first_answer(client: Client) -> dict[str, Any]:
    """A new connection's first state, or the error that refused it."""
    while True:
        msg = client.recv()
        if msg["type"] in ("state", "error"):
            return msg


def stored_plies_are_the_game(cluster: ServeCluster, code: str, version: int) -> None:
    """The database holds each ply once, 1 to ``version``, and they replay."""
    stored = cluster.servers[-1].stored(code)
    assert len(stored.moves) == version
    record = GameRecord.from_dict(
        {"config": stored.config, "seed": stored.seed, "moves": stored.moves}
    )
    assert len(record.replay().move_stack) == version


def test_a_whole_game_with_people_on_three_processes(cluster: ServeCluster) -> None:
    a, b, c = cluster.servers
    t = create_table(a, game="kids", players=3, bots=[None, None, "random"], name="Ann", seat=0)
    code = t["code"]
    bob = join(b, code, "Bob", 1)  # seated through another process
    ann = Client(a, code, t["seat_token"], t["host_token"])
    bob_c = Client(b, code, bob["seat_token"])
    watcher = Client(c, code)
    # Who is connected is known everywhere: Ann's process sees Bob and the spectator.
    ann.wait(lambda s: s["table"]["seats"][1]["connected"] and s["table"]["spectators"] == 1)
    watcher.wait(lambda s: s["table"]["seats"][0]["connected"] and s["table"]["seats"][1]["name"])
    # Chat in the lobby reaches the other processes' connections.
    ann.send({"type": "chat", "text": "hello from the first process"})
    assert said(bob_c, "hello from the first process")["name"] == "Ann"
    assert said(watcher, "hello from the first process")["seat"] == 0
    bob_c.send({"type": "react", "reaction": "good_game"})
    for client in (ann, bob_c, watcher):  # Bob's own page shows it too
        deadline = time.monotonic() + 10
        while client.recv(timeout=max(0.01, deadline - time.monotonic()))["type"] != "reaction":
            pass
    for client in (ann, bob_c, watcher):  # what is checked below is the game's messages
        client.received.clear()
        client.raw.clear()
    start(c, code, t["host_token"])  # started through the third
    # During play a spectator's chat reaches the spectators on every process, never a player.
    chatter = Client(b, code)
    chatter.wait(lambda s: s["view"] is not None)  # its process knows the game started
    watcher.wait(lambda s: s["table"]["spectators"] == 2 and s["view"] is not None)
    chatter.send({"type": "chat", "text": "spectators only"})
    said(chatter, "spectators only")
    final = drive(watcher, {0: ann, 1: bob_c}, random.Random(20))
    assert final["view"]["outcome"] is not None
    for client in (ann, bob_c):
        client.wait(lambda s: s["version"] == final["version"])
        assert all(m["type"] != "chat" for m in client.received)
    chats = [i for i, m in enumerate(watcher.received) if m["type"] == "chat"]
    assert [watcher.received[i]["text"] for i in chats] == ["spectators only"]
    for i in reversed(chats):  # the rest is the game's states
        del watcher.received[i], watcher.raw[i]
    check_messages(a, code, {0: ann, 1: bob_c, None: watcher}, racing=True)  # type: ignore[arg-type]
    stored_plies_are_the_game(cluster, code, final["version"])


def test_a_move_sent_to_two_processes_at_once_is_stored_once(cluster: ServeCluster) -> None:
    a, b, _ = cluster.servers
    t = create_table(a, game="classic", players=2, name="Ann", seat=0)
    code = t["code"]
    bob = join(b, code, "Bob", 1)
    start(a, code, t["host_token"])
    tokens = {0: t["seat_token"], 1: bob["seat_token"]}
    # Each seat connected to both processes (a page open twice, a reconnect through another).
    both = {seat: (Client(a, code, tok), Client(b, code, tok)) for seat, tok in tokens.items()}
    rng = random.Random(5)
    version = 0
    for turn in range(12):
        on_a = both[0][0].wait(lambda s, v=version: s["version"] == v and s["view"] is not None)
        seat = on_a["view"]["to_move"]
        first, second = both[seat]
        st = first.wait(lambda s, v=version: s["version"] == v)
        second.wait(lambda s, v=version: s["version"] == v)
        legal = st["view"]["legal_moves"]
        if turn % 2 == 0:
            # The same move with the same id through both: stored once, both acknowledged.
            frame = {
                "type": "move",
                "move": rng.choice(legal),
                "version": version,
                "id": f"m{turn}",
            }
            at_once((first, frame), (second, dict(frame)))
            answers = [answer(first, f"m{turn}"), answer(second, f"m{turn}")]
            assert [m["type"] for m in answers] == ["ack", "ack"], answers
            assert sorted(m["duplicate"] for m in answers) == [False, True]
            assert {m["ply"] for m in answers} == {version + 1}
        else:
            # Two different moves at the same version, one through each: one of them is the
            # game's, the other is refused as stale.
            one, other = rng.sample(legal, 2) if len(legal) > 1 else (legal[0], legal[0])
            at_once(
                (first, {"type": "move", "move": one, "version": version, "id": f"x{turn}"}),
                (second, {"type": "move", "move": other, "version": version, "id": f"y{turn}"}),
            )
            answers = [answer(first, f"x{turn}"), answer(second, f"y{turn}")]
            kinds = sorted(m["type"] for m in answers)
            assert kinds == ["ack", "error"], answers
            refused = next(m for m in answers if m["type"] == "error")
            assert refused["code"] == "stale" and "nothing was done" in refused["message"]
        version += 1
        for pair in both.values():
            for client in pair:
                client.wait(lambda s, v=version: s["version"] == v)
    stored_plies_are_the_game(cluster, code, version)
    stored = cluster.servers[0].stored(code)
    assert len(stored.move_ids) == version  # each applied move once, with its id


def test_the_process_running_the_bots_is_killed_mid_game(cluster: ServeCluster) -> None:
    a, b, c = cluster.servers
    t = create_table(a, game="kids", players=2, bots=["random", "random"])
    code = t["code"]
    start(a, code, t["host_token"])
    owner = cluster.owner(code)
    assert owner is a  # the process that made the table runs it
    watchers = [Client(b, code), Client(c, code)]
    st = watchers[0].wait(lambda s: s["version"] >= 3)
    workers = children(owner.pid)  # the bot worker and multiprocessing's resource tracker
    assert workers
    owner.kill()
    killed_at = st["version"]
    # Another process takes the bots over: the game goes on to its end.
    final = watchers[0].wait(lambda s: s["view"]["outcome"] is not None, timeout=120)
    assert final["version"] > killed_at + 1
    watchers[1].wait(lambda s: s["version"] == final["version"])
    stored = b.stored(code)
    assert stored.status == "finished" and stored.result == final["table"]["result"]
    stored_plies_are_the_game(cluster, code, final["version"])
    for client in watchers:  # every message the spectators got is the game's public view
        check_messages(b, code, {None: client}, racing=False)  # type: ignore[arg-type]
    # Nothing of the killed process is left running.
    deadline = time.monotonic() + 15
    while any(alive(pid) for pid in workers):
        assert time.monotonic() < deadline, f"orphans left: {[p for p in workers if alive(p)]}"
        time.sleep(0.2)


def test_a_clock_runs_out_on_a_table_whose_owner_died() -> None:
    with running(2, *BOTS, "--time-control", "casual=10,0") as cluster:
        a, b = cluster.servers
        t = create_table(
            a, game="classic", players=2, bots=[None, "random"], name="Ann", seat=0,
            clock="casual", bot_level="random",
        )  # fmt: skip
        code = t["code"]
        start(a, code, t["host_token"])
        assert cluster.owner(code) is a
        ann = Client(b, code, t["seat_token"])  # the player is on the other process
        st = ann.wait(lambda s: s["clock"] is not None and s["clock"]["seat"] == 0)
        assert st["table"]["time_control"] == {"name": "casual", "turn": 10.0, "reserve": 0.0}
        turn_left = st["clock"]["left"]
        seen = time.monotonic()
        a.kill()
        # Ann does nothing. The survivor takes the table over (the lease expires in 5 s) and
        # the turn's clock goes on from what it had (not a fresh 10 s from the take-over): a
        # bot plays her turn when it was due, and she is marked away.
        v = st["version"]
        st = ann.wait(lambda s: s["table"]["seats"][0]["timeouts"] == 1, timeout=40)
        waited = time.monotonic() - seen
        assert st["table"]["seats"][0]["away"] and st["clock"]["timed_out"]
        assert cluster.owner(code) is b
        # A fresh turn at the take-over would have run 5 s + 10 s at least.
        assert waited < turn_left + 3, (waited, turn_left)
        st = ann.wait(lambda s: s["version"] > v, timeout=40)  # the bot played the turn
        assert st["view"]["log"][-1]["seat"] == 0
        assert b.stored(code).seats[0].timeouts == 1


def test_a_stopped_process_hands_its_tables_over_at_once() -> None:
    with running(2, *BOTS) as cluster:
        a, b = cluster.servers
        t = create_table(a, game="kids", players=2, bots=["random", "random"])
        code = t["code"]
        start(a, code, t["host_token"])
        watcher = Client(b, code)
        st = watcher.wait(lambda s: s["version"] >= 2)
        a.stop()  # SIGTERM, as systemctl stop sends: the lease is given up, not left to expire
        stopped = time.monotonic()
        deadline = stopped + 10
        while cluster.owner(code) is not b:
            assert time.monotonic() < deadline, "nobody took the table over"
            time.sleep(0.05)
        assert time.monotonic() - stopped < 3  # a beat or two, not the lease's 5 s
        final = watcher.wait(lambda s: s["view"]["outcome"] is not None, timeout=120)
        assert final["version"] > st["version"]
        stored_plies_are_the_game(cluster, code, final["version"])


@contextlib.contextmanager
def own_redis() -> Iterator[tuple[str, Any]]:
    """A Redis server of the test's own on a free port (no persistence), and a function that
    stops it (``kill -9``) or starts it again on the same port."""
    import shutil
    import subprocess

    from .conftest import free_port

    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server)")
    port = free_port()
    procs: list[subprocess.Popen[bytes]] = []

    def up(on: bool) -> None:
        if not on:
            procs[-1].kill()
            procs[-1].wait(10)
            return
        cmd = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", ""]
        procs.append(subprocess.Popen([*cmd, "--appendonly", "no"], stdout=subprocess.DEVNULL))
        deadline = time.monotonic() + 10
        while redis_available(f"redis://127.0.0.1:{port}/0"):
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)

    up(True)
    try:
        yield f"redis://127.0.0.1:{port}/0", up
    finally:
        for p in procs:
            p.kill()
            p.wait(10)


def test_a_seat_a_start_and_a_rematch_asked_of_two_processes_at_once() -> None:
    """Also: a process started later learns who is connected to the others."""
    with running(2, *BOTS) as cluster:
        a, b = cluster.servers
        t = create_table(a, game="classic", players=2, name="Ann", seat=0)
        code = t["code"]

        def both(path: str, first: dict[str, Any], second: dict[str, Any]) -> list[Any]:
            """POST ``first`` to the first process and ``second`` to the second, at once."""
            answers: list[Any] = [None, None]
            barrier = threading.Barrier(2)

            def go(i: int, server: Any, body: dict[str, Any]) -> None:
                with server.http() as http:
                    barrier.wait()
                    answers[i] = http.post(f"/api/tables/{code}/{path}", json=body)

            threads = [
                threading.Thread(target=go, args=(0, a, first)),
                threading.Thread(target=go, args=(1, b, second)),
            ]
            for th in threads:
                th.start()
            for th in threads:
                th.join()
            return answers

        joined = both("join", {"name": "Bob", "seat": 1}, {"name": "Cid", "seat": 1})
        assert sorted(r.status_code for r in joined) == [200, 409]
        loser = next(r for r in joined if r.status_code == 409)
        assert loser.json() == {"error": "bad_message", "message": "seat 1 is taken"}
        winner = next(r for r in joined if r.status_code == 200).json()
        host = {"host_token": t["host_token"]}
        started = both("start", host, host)
        assert sorted(r.status_code for r in started) == [200, 409]
        ann = Client(a, code, t["seat_token"])
        ann.wait(lambda s: s["view"] is not None)
        # A process started now learns who is connected to the others.
        late = cluster.add()
        deadline = time.monotonic() + 10
        with late.http() as http:
            while not http.get(f"/api/tables/{code}").json()["seats"][0]["connected"]:
                assert time.monotonic() < deadline, "the new process thinks Ann is away"
                time.sleep(0.1)
        ann.send({"type": "resign"})  # alone on her side: the game is over
        ann.wait(lambda s: s["table"]["status"] == "finished")
        Client(b, code).wait(lambda s: s["table"]["status"] == "finished")
        rematches = both("rematch", {"token": t["seat_token"]}, {"token": winner["seat_token"]})
        assert [r.status_code for r in rematches] == [200, 200]
        new = {r.json()["code"] for r in rematches}
        assert len(new) == 1  # one rematch, whichever process was asked
        assert b.stored(code).rematch_code == new.pop()
        import psycopg

        with psycopg.connect(a.db.replace("+psycopg", "")) as conn:
            row = conn.execute("SELECT count(*) FROM game_tables").fetchone()
        assert row is not None and row[0] == 2  # the loser's table was not kept


def test_a_signed_in_players_seat_is_the_accounts_on_every_process() -> None:
    """Accounts across processes: a seat taken or claimed on one process is the account's on
    the other (its token found there, the guest token refused there), and an account deleted
    on one shows "deleted player" on the other."""
    with running(2, *BOTS) as cluster:
        a, b = cluster.servers
        guest = create_table(a, game="classic", players=3, name="Mia")
        code, old = guest["code"], guest["seat_token"]
        watcher = Client(b, code)  # the second process holds the table in memory
        watcher.wait(lambda s: s["table"]["seats"][0]["name"] == "Mia")
        # Kim, signed in on the first process, takes a seat there.
        kim_name = f"kim{random.randrange(10**8)}"
        phone = Browser(a)
        phone.sign_up(kim_name)
        r = phone.post(f"/api/tables/{code}/join", {"name": "Kim", "seat": 1})
        assert r.status_code == 200, r.text
        kim_token = r.json()["seat_token"]
        assert a.stored(code).seats[1].account_id is not None
        watcher.wait(lambda s: s["table"]["seats"][1]["name"] == "Kim")
        # Her laptop, signed in on the second process, finds the seat there.
        laptop = Browser(b)
        laptop.sign_in(kim_name)
        assert laptop.post(f"/api/account/seats/{code}").json() == {
            "seats": [{"code": code, "seat": 1, "seat_token": kim_token}]
        }
        # Mia signs up on the second process and claims her guest seat there.
        mia = Browser(b)
        mia.sign_up(f"mia{random.randrange(10**8)}")
        r = mia.post("/api/account/claim", {"seats": [{"code": code, "token": old}]})
        [claimed] = r.json()["seats"]
        assert claimed["seat"] == 0 and claimed["seat_token"] != old
        # The first process knows: the guest token no longer opens the seat there, the new one
        # does, and the seat is the account's there too.
        deadline = time.monotonic() + 10
        while (first := first_answer(Client(a, code, old)))["type"] != "error":
            assert time.monotonic() < deadline, "the guest token still opens the seat"
            time.sleep(0.05)
        assert first["code"] == "bad_token"
        seated = Client(a, code, claimed["seat_token"])
        assert first_answer(seated)["you"]["seat"] == 0
        mia_on_a = Browser(a)
        mia_on_a.http.cookies.set("seq_session", mia.session)
        mia_on_a.me()
        assert mia_on_a.post(f"/api/account/seats/{code}").json()["seats"] == [claimed]
        # Kim deletes her account on the second process: the first shows the seat as a
        # deleted player's, and her token finds nothing there.
        r = laptop.post("/api/account/delete", {"password": PASSWORD})
        assert r.status_code == 200, r.text
        seated.wait(lambda s: s["table"]["seats"][1]["name"] == "deleted player")
        assert a.stored(code).seats[1].account_id is None
        r = Browser(a).get(f"/api/tables/{code}")
        assert r.json()["seats"][1]["name"] == "deleted player"


def posted_at_once(*posts: tuple[Any, str, dict[str, Any]]) -> list[Any]:
    """POST each (client, path, body) from its own thread, all released together; the answers
    in order (``client``: anything with ``post(path, json)``, or a server's ``http()``)."""
    answers: list[Any] = [None] * len(posts)
    barrier = threading.Barrier(len(posts))

    def go(i: int, client: Any, path: str, body: dict[str, Any]) -> None:
        barrier.wait()
        answers[i] = client.post(path, body) if isinstance(client, Browser) else None
        if answers[i] is None:
            with client.http() as http:
                answers[i] = http.post(path, json=body)

    threads = [threading.Thread(target=go, args=(i, *p)) for i, p in enumerate(posts)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return answers


def events(cluster: ServeCluster, code: str, kind: str) -> list[Any]:
    """The ``kind`` events the database holds for ``code``."""
    return [e for e in cluster.servers[0].stored(code).events if e.kind == kind]


def test_a_seat_to_a_bot_a_resignation_and_a_take_back_asked_of_two_processes_at_once() -> None:
    """Each is a conditional write: applied once (one event, one change of the seat) whichever
    process gets it first, and the other process refuses it as it would refuse it second."""
    with running(2, "--bot-workers", "1", "--bot-delay", "0.3") as cluster:
        a, b = cluster.servers
        t = create_table(a, game="classic", players=3, name="Ann", seat=0)
        code, host = t["code"], t["host_token"]
        join(b, code, "Bob", 1)
        cid = join(a, code, "Cid", 2)
        start(b, code, host)
        watcher = Client(b, code)
        watcher.wait(lambda s: s["view"] is not None)
        # The host hands Bob's seat (he never came) to a bot through both processes at once.
        path = f"/api/tables/{code}/seats/1/bot"
        body = {"host_token": host, "level": "random"}
        answers = posted_at_once((a, path, body), (b, path, dict(body)))
        assert sorted(r.status_code for r in answers) == [200, 409], [r.text for r in answers]
        refused = next(r for r in answers if r.status_code == 409).json()
        assert refused == {"error": "bad_message", "message": "a bot already plays seat 1"}
        assert len(events(cluster, code, "bot")) == 1
        seat = a.stored(code).seats[1]
        assert (seat.bot, seat.stand_in, seat.token_hash) == ("random", True, seat.token_hash)
        # Cid, connected through both processes, resigns through both at once.
        cids = (Client(a, code, cid["seat_token"]), Client(b, code, cid["seat_token"]))
        for c in cids:
            c.wait(lambda s: s["view"] is not None)
        at_once((cids[0], {"type": "resign"}), (cids[1], {"type": "resign"}))
        refusals = []
        for c in cids:
            st = c.wait(lambda s: s["table"]["seats"][2]["bot"] is not None)
            assert st["table"]["status"] == "playing"  # three sides: a bot plays on for Cid
            refusals += [m for m in c.received if m["type"] == "error"]
        deadline = time.monotonic() + 10
        while not refusals:  # the loser's refusal may come after the winner's state
            assert time.monotonic() < deadline, "nobody was refused the second resignation"
            for c in cids:
                with contextlib.suppress(TimeoutError):
                    msg = c.recv(timeout=0.2)
                    if msg["type"] == "error":
                        refusals.append(msg)
        assert [(m["code"], m["message"]) for m in refusals] == [
            ("bad_message", "you have already resigned")
        ]
        assert [(e.seat, e.detail) for e in events(cluster, code, "resign")] == [(2, "bot")]
        # Ann's clock ran out twice (as the table's owner stores it): a bot keeps her seat
        # until she takes it back. She asks through both processes at once.
        import psycopg

        with psycopg.connect(a.db.replace("+psycopg", "")) as conn:
            conn.execute(
                "UPDATE seats SET bot = 'random', stand_in = TRUE, timeouts = 2 WHERE seat = 0"
                " AND table_id = (SELECT id FROM game_tables WHERE code = %s)",
                (code,),
            )
        anns = (Client(a, code, t["seat_token"]), Client(b, code, t["seat_token"]))
        for c in anns:
            c.wait(lambda s: s["view"] is not None)
            c.received.clear()
        at_once((anns[0], {"type": "back"}), (anns[1], {"type": "back"}))
        for c in anns:
            c.wait(lambda s: s["table"]["seats"][0]["bot"] is None)
        seat = a.stored(code).seats[0]
        assert (seat.bot, seat.stand_in, seat.timeouts) == (None, False, 0)
        # Whichever process came second found the seat hers already (or both saw it so at
        # their hello, since a connection takes its seat back): never a second change.
        for c in anns:
            for m in c.received:
                assert m["type"] != "error" or m["message"] == "you are already playing your seat"


def test_a_guest_seat_claimed_twice_at_once() -> None:
    """Claiming a guest's seat is a conditional write: of two accounts claiming it through two
    processes at once, exactly one gets it; one account claiming it twice at once gets it once,
    with one token."""
    with running(2, *BOTS) as cluster:
        a, b = cluster.servers
        guest = create_table(a, game="classic", players=3, name="Mia")
        code, old = guest["code"], guest["seat_token"]
        other = join(b, code, "Max", 1)
        Client(b, code).wait(lambda s: s["table"]["seats"][1]["name"] == "Max")
        browsers = []
        for server in (a, b):
            browser = Browser(server)
            browser.sign_up(f"claim{random.randrange(10**9)}")
            browsers.append(browser)
        claim = {"seats": [{"code": code, "token": old}]}
        answers = posted_at_once(
            (browsers[0], "/api/account/claim", claim), (browsers[1], "/api/account/claim", claim)
        )
        assert [r.status_code for r in answers] == [200, 200], [r.text for r in answers]
        won = [r.json()["seats"] for r in answers]
        assert sorted(len(s) for s in won) == [0, 1], won
        [claimed] = won[0] or won[1]
        winner, loser = browsers if won[0] else browsers[::-1]
        assert a.stored(code).seats[0].account_id is not None
        assert winner.post(f"/api/account/seats/{code}").json()["seats"] == [claimed]
        assert loser.post(f"/api/account/seats/{code}").json()["seats"] == []
        assert first_answer(Client(b, code, claimed["seat_token"]))["you"]["seat"] == 0
        assert first_answer(Client(a, code, old))["code"] == "bad_token"
        # One account claims Max's guest seat through both processes at once.
        max_browser = Browser(b)
        max_browser.sign_up(f"max{random.randrange(10**9)}")
        on_a = Browser(a)
        on_a.http.cookies.set("seq_session", max_browser.session)
        on_a.me()
        claim = {"seats": [{"code": code, "token": other["seat_token"]}]}
        answers = posted_at_once(
            (on_a, "/api/account/claim", claim), (max_browser, "/api/account/claim", claim)
        )
        seats = [r.json()["seats"] for r in answers]
        # Both name the seat with one token, or (the second judged after the first was stored:
        # the guest token is spent) the second leaves it out; the account has it either way.
        [won] = seats[0] or seats[1]
        assert won["seat"] == 1 and all(s in ([], [won]) for s in seats), seats
        assert max_browser.post(f"/api/account/seats/{code}").json()["seats"] == [won]


def test_host_rights_pass_after_the_away_time_whichever_process_the_host_left() -> None:
    """The table's owner decides, on its own timer: the host, connected through the other
    process, drops; the rights pass once the host has been away 2 s, not before, with nothing
    else happening; the host back through that process takes them back."""
    with running(2, "--away-seconds", "2") as cluster:
        a, b = cluster.servers
        t = create_table(a, game="kids", players=2, name="Ann", seat=0)
        code, host = t["code"], t["host_token"]
        assert cluster.owner(code) is a
        bob_seat = join(a, code, "Bob", 1)["seat_token"]
        ann = Client(b, code, t["seat_token"], host)
        bob = Client(a, code, bob_seat)
        bob.wait(lambda s: s["table"]["seats"][0]["connected"])
        ann.close()
        gone = time.monotonic()
        st = bob.wait(lambda s: not s["table"]["seats"][0]["connected"])
        assert not st["you"]["host"]
        st = bob.wait(lambda s: s["you"]["host"])
        assert time.monotonic() - gone >= 1.9 and st["table"]["host_seat"] == 1
        Client(b, code, t["seat_token"], host)
        st = bob.wait(lambda s: not s["you"]["host"])
        assert st["table"]["host_seat"] is None
        assert [(e.kind, e.seat) for e in events(cluster, code, "host")] == [
            ("host", 1), ("host", None)
        ]  # fmt: skip


def test_a_client_gets_each_rate_limit_once_across_processes() -> None:
    """The limits per client are buckets in the shared Redis: tables made through two
    processes in turn count against one limit (10 at once), not one per process."""
    with running(2) as cluster:
        a, b = cluster.servers
        answers = []
        for i in range(14):
            with (a if i % 2 else b).http() as http:
                answers.append(http.post("/api/tables", json={"game": "kids", "players": 2}))
        made = [r.status_code for r in answers]
        # 10 at once, then one every 6 s (one more may have come while these were made).
        assert made[:10] == [200] * 10 and made.count(200) <= 11, made
        refused = next(r for r in answers if r.status_code == 429)
        assert refused.json()["error"] == "rate_limited" and int(refused.headers["Retry-After"]) > 0
        keys = list(cluster.redis_client().scan_iter(f"{cluster.prefix}:limits:creates:*"))
        assert len(keys) == 1


def test_each_table_keeps_the_clock_lengths_it_was_made_with_on_every_process() -> None:
    """``--time-control`` sets the lengths of the tables a process makes: two processes
    started with different ones make different tables, each shown the same everywhere and run
    by its stored lengths by whichever process runs it (here the other one, after the first
    stopped)."""
    with running(1, *BOTS, "--time-control", "quick=6,0") as cluster:
        cluster.serve_args = [*BOTS, "--time-control", "quick=300,30"]
        a, b = cluster.servers[0], cluster.add()
        short = create_table(
            a, game="classic", players=2, bots=[None, "random"], name="Ann", seat=0,
            clock="quick", bot_level="random",
        )  # fmt: skip
        long = create_table(b, game="kids", players=2, name="Bob", clock="quick")
        for server in (a, b):
            with server.http() as http:
                got = http.get(f"/api/tables/{short['code']}").json()["time_control"]
                assert got == {"name": "quick", "turn": 6.0, "reserve": 0.0}
                got = http.get(f"/api/tables/{long['code']}").json()["time_control"]
                assert got == {"name": "quick", "turn": 300.0, "reserve": 30.0}
        code = short["code"]
        start(a, code, short["host_token"])
        ann = Client(b, code, short["seat_token"])  # on the process whose quick is 300 s
        ann.wait(lambda s: s["clock"] is not None and s["clock"]["seat"] == 0)
        a.stop()  # b runs the table from now on, by the lengths stored with it
        stopped = time.monotonic()
        st = ann.wait(lambda s: s["table"]["seats"][0]["timeouts"] == 1, timeout=40)
        assert cluster.owner(code) is b
        assert time.monotonic() - stopped < 20  # 6 s a turn, not 300
        assert st["table"]["time_control"]["turn"] == 6.0
