"""No silent loss and nobody indispensable: move ids applied once (across a restart), the host's
rights passed on and back, an away seat handed to a bot by another player, resignations; each
change a recorded event."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

from sequence.engine import GameRecord

from .conftest import Client, ServerThread, answer, create_table, join, start
from .test_protocol import two_humans


def test_a_move_id_is_applied_once_even_after_a_restart(sqlite_url: str) -> None:
    with ServerThread(sqlite_url, bot_delay=0) as server:
        code, host, tokens = two_humans(server)
        start(server, code, host)
        first_seat = Client(server, code).wait(lambda s: s["view"] is not None)["view"]["to_move"]
        ann = Client(server, code, tokens[first_seat])  # whoever plays first
        st = ann.wait(lambda s: s["view"] is not None)
        move = {"type": "move", "move": st["view"]["legal_moves"][0], "version": 0, "id": "m-1"}
        ann.send(move)
        first = answer(ann, "m-1")
        assert first == {"type": "ack", "id": "m-1", "ply": 1, "duplicate": False}
        ann.send(move)  # the resend after a reconnect: acknowledged, not applied (nor "stale")
        again = answer(ann, "m-1")
        assert again["duplicate"] and again["ply"] == 1
        ann.drain()
        assert ann.state is not None and ann.state["version"] == 1
        # A move id the server never saw, at an old version: refused, with its id.
        ann.send({**move, "id": "m-2"})
        refused = answer(ann, "m-2")
        assert refused["type"] == "error" and refused["code"] == "stale"
        ann.close()
        assert server.stored(code).move_ids == [(1, first_seat, "m-1")]
    with ServerThread(sqlite_url, bot_delay=0) as server:
        ann = Client(server, code, tokens[first_seat])
        ann.wait(lambda s: s["view"] is not None)
        ann.send(move)
        again = answer(ann, "m-1")
        assert again["duplicate"] and again["ply"] == 1
        ann.drain()
        assert ann.state is not None and ann.state["version"] == 1
        assert len(server.stored(code).moves) == 1


@pytest.fixture
def quick_away(sqlite_url: str) -> Iterator[ServerThread]:
    """A server whose players count as away after 1 s (not 60)."""
    with ServerThread(sqlite_url, bot_delay=0, away_seconds=1.0) as server:
        yield server


def test_host_rights_pass_to_a_connected_player_and_come_back(quick_away: ServerThread) -> None:
    server = quick_away
    code, host, tokens = two_humans(server)
    ann = Client(server, code, tokens[0], host)
    bob = Client(server, code, tokens[1])
    bob.wait(lambda s: s["table"]["seats"][0]["connected"])
    ann.close()
    st = bob.wait(lambda s: s["you"]["host"])
    assert st["table"]["host_seat"] == 1
    assert st["table"]["events"] == [
        {"ply": 0, "kind": "host", "seat": 1, "by": None, "detail": None}
    ]
    # Bob, holding the host's rights, starts the game with his own seat token.
    with server.http() as http:
        r = http.post(f"/api/tables/{code}/start", json={"host_token": tokens[1]})
        assert r.status_code == 200, r.text
    bob.wait(lambda s: s["view"] is not None)
    # The host is back: the rights go back to them.
    ann = Client(server, code, tokens[0], host)
    st = bob.wait(lambda s: not s["you"]["host"])
    assert st["table"]["host_seat"] is None
    assert [e["kind"] for e in st["table"]["events"]] == ["host", "host"]
    assert st["table"]["events"][1]["seat"] is None
    with server.http() as http:  # Bob no longer may
        r = http.post(
            f"/api/tables/{code}/seats/0/bot", json={"host_token": tokens[1], "level": "random"}
        )
        assert r.status_code == 409  # Ann is here (and Bob is a player, not the host)
    assert [e.kind for e in server.stored(code).events] == ["host", "host"]


def test_host_rights_wait_for_the_host_to_be_away_as_long_as_a_seat_must_be(
    sqlite_url: str,
) -> None:
    # 3 s: long enough that the checks during the host's blip come before it on a loaded machine.
    with ServerThread(sqlite_url, bot_delay=0, away_seconds=3.0) as server:
        code, host, tokens = two_humans(server)
        start(server, code, host)
        ann = Client(server, code, tokens[0], host)
        bob = Client(server, code, tokens[1])
        bob.wait(lambda s: s["view"] is not None and s["table"]["seats"][0]["connected"])
        ann.close()  # the host's connection drops for a second
        st = bob.wait(lambda s: not s["table"]["seats"][0]["connected"])
        assert not st["you"]["host"] and st["table"]["host_seat"] is None
        with server.http() as http:  # Bob may not hand the host's seat to a bot, as host or not
            for body in ({"host_token": tokens[1]}, {"host_token": tokens[1], "level": "random"}):
                r = http.post(f"/api/tables/{code}/seats/0/bot", json=body)
                assert r.status_code in (403, 409), r.text
        time.sleep(1.0)
        ann = Client(server, code, tokens[0], host)  # back in time: the host keeps everything
        ann.wait(lambda s: s["you"]["host"])
        bob.wait(lambda s: s["table"]["seats"][0]["connected"])
        time.sleep(3.0)
        bob.drain()
        assert bob.state is not None and not bob.state["you"]["host"]
        assert bob.state["table"]["events"] == []
        assert bob.state["table"]["seats"][0]["kind"] == "human"
        # Away for good: the rights pass once the 3 s are over, with nothing else happening.
        ann.close()
        gone = time.monotonic()
        st = bob.wait(lambda s: s["you"]["host"])
        assert time.monotonic() - gone >= 2.9
        assert st["table"]["host_seat"] == 1
        # Bob, holding them, may now hand the seat to a bot (the host's seat is away 3 s too).
        with server.http() as http:
            r = http.post(
                f"/api/tables/{code}/seats/0/bot", json={"host_token": tokens[1], "level": "random"}
            )
            assert r.status_code == 200, r.text
        # The host is back: the seat and the rights go back to them.
        Client(server, code, tokens[0], host)
        st = bob.wait(lambda s: not s["you"]["host"] and s["table"]["seats"][0]["kind"] == "human")
        assert st["table"]["host_seat"] is None
        assert [(e.kind, e.seat) for e in server.stored(code).events] == [
            ("host", 1), ("bot", 0), ("host", None)
        ]  # fmt: skip


def test_host_rights_and_events_survive_a_restart(sqlite_url: str) -> None:
    with ServerThread(sqlite_url, bot_delay=0, away_seconds=1.0) as server:
        code, host, tokens = two_humans(server)
        start(server, code, host)
        bob = Client(server, code, tokens[1])
        assert bob.wait(lambda s: s["you"]["host"])["table"]["host_seat"] == 1
        bob.close()
    with ServerThread(sqlite_url, bot_delay=0) as server:
        bob = Client(server, code, tokens[1])
        st = bob.wait(lambda s: s["view"] is not None and s["you"]["host"])
        time.sleep(0.2)
        bob.drain()
        assert bob.state is not None and bob.state["table"]["events"] == st["table"]["events"]
        assert [(e["kind"], e["seat"]) for e in st["table"]["events"]] == [("host", 1)]


def test_any_player_hands_a_seat_away_a_while_to_a_bot(sqlite_url: str) -> None:
    # 3 s: long enough that the refusal below comes before it on a loaded machine.
    with ServerThread(sqlite_url, bot_delay=0, away_seconds=3.0) as server:
        code, host, tokens = two_humans(server)
        start(server, code, host)
        Client(server, code, None, host)  # the host watches: Ann has no host's rights
        ann = Client(server, code, tokens[0])
        bob = Client(server, code, tokens[1])
        ann.wait(lambda s: s["view"] is not None and s["table"]["seats"][1]["connected"])
        bob.close()
        ann.wait(lambda s: not s["table"]["seats"][1]["connected"])
        url = f"/api/tables/{code}/seats/1/bot"
        with server.http() as http:
            r = http.post(url, json={"host_token": tokens[0]})
            assert r.status_code == 409 and "wait" in r.json()["message"]
            r = http.post(url, json={"host_token": "forged"})
            assert r.status_code == 403
            time.sleep(3.1)
            r = http.post(url, json={"host_token": tokens[0]})
            assert r.status_code == 200, r.text
        st = ann.wait(lambda s: s["table"]["seats"][1]["kind"] == "bot")
        assert st["table"]["seats"][1]["stand_in"]
        assert st["table"]["events"][-1] == {
            "ply": 0, "kind": "bot", "seat": 1, "by": 0, "detail": "medium"
        }  # fmt: skip
        stored = server.stored(code).events
        assert [(e.kind, e.seat, e.by_seat) for e in stored] == [("bot", 1, 0)]


def test_resigning_alone_loses_the_game_and_is_in_the_record(server: ServerThread) -> None:
    code, host, tokens = two_humans(server)
    start(server, code, host)
    ann = Client(server, code, tokens[0])
    bob = Client(server, code, tokens[1])
    ann.wait(lambda s: s["view"] is not None)
    bob.send({"type": "resign"})
    st = ann.wait(lambda s: s["table"]["status"] == "finished")
    assert st["table"]["result"] == "A wins"
    assert {"ply": 0, "kind": "resign", "seat": 1, "by": 1, "detail": "lost"} in st["table"][
        "events"
    ]
    bob.send({"type": "resign"})
    assert bob.error()["code"] == "game_over"
    ann.send({"type": "move", "move": "5H@c3", "version": 0})
    assert ann.error()["code"] == "game_over"
    stored = server.stored(code)
    assert stored.status == "finished" and stored.result == "A wins"
    with server.http() as http:
        rec = http.get(f"/api/tables/{code}/record").json()
        last = http.get(f"/api/tables/{code}/replay/0").json()  # the web replay's last move
    assert rec["events"][-1]["kind"] == "resign"  # nothing changes hands after the end
    assert "0 resign 1 1 lost" in rec["text"]
    # The record says who won and how, and reads back so (sequence replay, review, export).
    assert rec["record"]["result"] == "A wins" and rec["record"]["termination"] == "resignation"
    assert '[Result "A wins"]' in rec["text"] and '[Termination "resignation"]' in rec["text"]
    for read in (GameRecord.load(rec["text"]), GameRecord.from_dict(rec["record"])):
        assert read.result == "A wins" and read.winner == 0 and read.replay().outcome is None
    assert (last["plies"], last["result"], last["termination"]) == (0, "A wins", "resignation")


def test_resigning_in_a_team_gives_the_seat_to_a_bot(server: ServerThread) -> None:
    created = create_table(
        server, game="classic", players=4, bots=[None, "random", None, "random"], name="Ann"
    )
    code = created["code"]
    carl = join(server, code, "Carl")
    assert carl["seat"] == 2
    start(server, code, created["host_token"])
    ann = Client(server, code, created["seat_token"])
    st = ann.wait(lambda s: s["view"] is not None)
    assert st["table"]["seats"][2]["team"] == st["table"]["seats"][0]["team"]
    carl_c = Client(server, code, carl["seat_token"])
    carl_c.wait(lambda s: s["view"] is not None)
    carl_c.send({"type": "resign"})
    st = ann.wait(lambda s: s["table"]["seats"][2]["kind"] == "bot")
    carl_c.send({"type": "move", "move": "5H@c3", "version": 0})
    assert carl_c.error()["code"] == "not_seated"  # the bot plays the seat now
    assert st["table"]["status"] == "playing" and not st["table"]["seats"][2]["stand_in"]
    assert st["table"]["events"][-1]["kind"] == "resign"
    assert st["table"]["events"][-1]["detail"] == "bot"
    # Reconnecting does not give the seat back: the player resigned.
    carl_c.close()
    carl2 = Client(server, code, carl["seat_token"])
    assert carl2.wait(lambda s: s["view"] is not None)["table"]["seats"][2]["kind"] == "bot"
    with httpx.Client(base_url=server.url) as http:
        assert http.get(f"/api/tables/{code}").json()["events"][-1]["seat"] == 2
