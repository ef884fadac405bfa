"""Pass-and-play on the server (issue 18): one request takes every seat of a device, and the
seats a connected device holds are present whichever of them it shows.

``POST /api/tables`` and ``POST /api/tables/{code}/join`` take ``local``, more (seat, name)
pairs for the same device, all or none; ``hello`` takes ``local``, the tokens of the device's
other seats, which make those seats present and show nothing of them.
"""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Client, ServerThread, create_table, join, start


def seats_of(server: ServerThread, code: str) -> list[dict[str, Any]]:
    with server.http() as http:
        return list(http.get(f"/api/tables/{code}").json()["seats"])


def test_create_takes_every_local_seat_in_one_request(server: ServerThread) -> None:
    r = create_table(
        server, game="classic", players=4, bots=[None, None, "random", None], name="Anna",
        seat=0, local=[{"seat": 1, "name": "Ben"}, {"seat": 3, "name": " Cleo "}],
    )  # fmt: skip
    assert r["seat"] == 0 and r["seat_token"]
    assert [s["seat"] for s in r["local"]] == [1, 3]
    tokens = {r["seat_token"], *(s["seat_token"] for s in r["local"])}
    assert len(tokens) == 3
    seats = seats_of(server, r["code"])
    assert [s["name"] for s in seats] == ["Anna", "Ben", "random", "Cleo"]
    assert [s["kind"] for s in seats] == ["human", "human", "bot", "human"]
    # Each token is its own seat's.
    for entry in r["local"]:
        c = Client(server, r["code"], entry["seat_token"])
        assert c.wait(lambda s: True)["you"]["seat"] == entry["seat"]
        c.close()


def test_create_without_local_answers_an_empty_list(server: ServerThread) -> None:
    r = create_table(server, game="classic", players=2, name="Anna")
    assert r["seat"] == 0 and r["local"] == []


def test_local_seats_without_a_seat_for_the_creator(server: ServerThread) -> None:
    """The creator may only host, with the seats of the device given in ``local``; a creator
    with a name but no seat sits at the first free seat ``local`` does not name."""
    r = create_table(server, game="classic", players=2, local=[{"seat": 1, "name": "Ben"}])
    assert r["seat"] is None and r["seat_token"] is None
    assert [s["seat"] for s in r["local"]] == [1]
    r = create_table(server, game="classic", players=3, name="Anna",
                     local=[{"seat": 0, "name": "Ben"}])  # fmt: skip
    assert r["seat"] == 1 and [s["seat"] for s in r["local"]] == [0]


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"seat": 0, "local": [{"seat": 0, "name": "Ben"}]}, "seat 0 is named twice"),
        ({"local": [{"seat": 1, "name": "Ben"}, {"seat": 1, "name": "Cleo"}]},
         "seat 1 is named twice"),
        ({"local": [{"seat": 2, "name": "Ben"}]}, "seat 2 is not free"),
        ({"local": [{"seat": 7, "name": "Ben"}]}, "there is no seat 7 at this table"),
        ({"local": [{"seat": 1, "name": "  "}]}, "choose a name"),
        ({"local": [{"seat": "1", "name": "Ben"}]}, "local.0.seat must be a whole number"),
        ({"local": [{"seat": 1}]}, "local.0.name"),
        ({"local": [{"seat": 1, "name": "Ben", "colour": "red"}]}, "colour is not a field"),
        ({"local": {"seat": 1, "name": "Ben"}}, "local"),
    ],
)  # fmt: skip
def test_bad_local_seats_are_refused_and_create_nothing(
    server: ServerThread, body: dict[str, Any], says: str
) -> None:
    request = {"game": "classic", "players": 3, "bots": [None, None, "random"], "name": "Anna"}
    with server.http() as http:
        before = http.get("/api/tables").json()["tables"]
        r = http.post("/api/tables", json={**request, **body})
        # A 400 for what does not fit the description, a 422 for what the table refuses.
        malformed = "named" not in says and "seat 7" not in says and "choose" not in says
        assert r.status_code == (400 if malformed else 422), r.text
        assert r.json()["error"] == "bad_message"
        assert says in r.json()["message"]
        assert http.get("/api/tables").json()["tables"] == before


def test_join_takes_local_seats_all_or_none(server: ServerThread) -> None:
    r = create_table(server, game="classic", players=4, name="Anna")
    code = r["code"]
    with server.http() as http:
        # Seat 2 is free but seat 0 is not: nothing is taken.
        body = {"name": "Ben", "seat": 2, "local": [{"seat": 0, "name": "Cleo"}]}
        bad = http.post(f"/api/tables/{code}/join", json=body)
        assert bad.status_code == 409 and "seat 0 is taken" in bad.json()["message"]
        assert [s["kind"] for s in seats_of(server, code)] == ["human", "empty", "empty", "empty"]
        ok = http.post(f"/api/tables/{code}/join",
                       json={"name": "Ben", "local": [{"seat": 1, "name": "Cleo"}]})  # fmt: skip
        assert ok.status_code == 200, ok.text
    j = ok.json()
    # The first free seat that local does not name.
    assert j["seat"] == 2 and [s["seat"] for s in j["local"]] == [1]
    assert [s["name"] for s in seats_of(server, code)] == ["Anna", "Cleo", "Ben", None]
    # The old way still works: one join, one seat.
    assert join(server, code, "Dan")["seat"] == 3


def test_seats_a_device_holds_are_present_and_show_nothing(server: ServerThread) -> None:
    """A device showing seat 0 (or nothing, between turns) holds seat 1 too: seat 1 is not
    away, nobody may hand it to a bot, and the connection never gets seat 1's hand."""
    r = create_table(server, game="classic", players=3, bots=[None, None, None], name="Anna",
                     local=[{"seat": 1, "name": "Ben"}])  # fmt: skip
    code, host, anna = r["code"], r["host_token"], r["seat_token"]
    ben = r["local"][0]["seat_token"]
    cleo = join(server, code, "Cleo")["seat_token"]
    remote = Client(server, code, cleo)
    # Between turns the device watches, holding both seats.
    device = Client(server, code, None, host, local=[anna, ben])
    device.wait(lambda s: all(x["connected"] for x in s["table"]["seats"]))
    start(server, code, host)
    st = remote.wait(lambda s: s["view"] is not None)
    assert [s["connected"] for s in st["table"]["seats"]] == [True, True, True]
    device.wait(lambda s: s["view"] is not None)
    with server.http() as http:
        refused = http.post(f"/api/tables/{code}/seats/1/bot", json={"host_token": cleo})
        assert refused.status_code == 409 and "is here" in refused.json()["message"]
    # Showing Anna: Anna's hand only, Ben still present.
    device.close()
    device = Client(server, code, anna, host, local=[anna, ben])
    st = device.wait(lambda s: s["you"]["seat"] == 0 and s["view"] is not None)
    assert st["view"]["hand"] is not None
    assert all(x["connected"] for x in st["table"]["seats"])
    hands = [m["view"]["hand"] for m in device.received if m["type"] == "state" and m["view"]]
    ben_hand = server.hub.registry.tables[code].state.view(1).hand
    assert all(h is None or h != list(ben_hand) for h in hands)
    # The device goes: both seats are away.
    device.close()
    st = remote.wait(lambda s: not s["table"]["seats"][1]["connected"])
    assert [s["connected"] for s in st["table"]["seats"]] == [False, False, True]
    remote.close()


def test_hello_local_tokens_are_checked(server: ServerThread) -> None:
    r = create_table(server, game="classic", players=2, name="Anna")
    other = create_table(server, game="classic", players=2, name="Zed")
    for local, code in [
        ([other["seat_token"]], "bad_token"),
        ("not a list", "bad_message"),
        ([3], "bad_message"),
        (["x"] * 13, "bad_message"),
    ]:
        c = Client(server, r["code"], r["seat_token"], local=local)
        assert c.error()["code"] == code
        c.close()
    assert [s["connected"] for s in seats_of(server, r["code"])] == [False, False]


def test_a_device_between_turns_is_no_spectator(server: ServerThread) -> None:
    """A pass-and-play device watching between its seats' turns is not counted as watching,
    may not chat during play (its players' table talk), and hears no spectator's chat."""
    r = create_table(server, game="classic", players=4, bots=[None, None, "random", "random"],
                     name="Anna", local=[{"seat": 1, "name": "Ben"}])  # fmt: skip
    code, host = r["code"], r["host_token"]
    tokens = [r["seat_token"], r["local"][0]["seat_token"]]
    device = Client(server, code, None, host, local=tokens)
    watcher = Client(server, code)
    st = watcher.wait(lambda s: s["table"]["spectators"] == 1)
    assert [s["connected"] for s in st["table"]["seats"]] == [True, True, True, True]
    start(server, code, host)
    device.wait(lambda s: s["view"] is not None)
    device.send({"type": "chat", "text": "play the jack"})
    assert device.error()["code"] == "table_talk"
    watcher.send({"type": "chat", "text": "the jack!"})
    while (msg := watcher.recv())["type"] != "chat":
        pass
    assert msg["text"] == "the jack!"  # spectators hear it; it was sent to everyone by now
    device.send({"type": "ping"})
    while (msg := device.recv())["type"] != "pong":
        assert msg["type"] != "chat", msg
    device.close()
    watcher.close()
