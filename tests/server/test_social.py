"""Friends and challenges between signed-in players (issue 35): asking and accepting by name,
who is online, blocking, challenges accepted (a private table, seated by account, started) and
declined, and every refusal changing nothing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .conftest import Client, ServerThread
from .test_accounts import Browser, account_server, unique


@pytest.fixture
def srv(sqlite_url: str) -> Iterator[ServerThread]:
    with account_server(sqlite_url) as s:
        yield s


def players(srv: ServerThread, *prefixes: str) -> list[tuple[Browser, str]]:
    found = []
    for prefix in prefixes:
        b, name = Browser(srv), unique(prefix)
        b.sign_up(name)
        found.append((b, name))
    return found


def test_friends_ask_accept_see_online_and_block(srv: ServerThread) -> None:
    (anna, a), (ben, b), (cleo, c) = players(srv, "anna", "ben", "cleo")
    assert Browser(srv).get("/api/friends").status_code == 401
    assert anna.post("/api/friends", {"name": "nobody-here"}).status_code == 404
    assert anna.post("/api/friends", {"name": a}).status_code == 422  # one's own name
    assert anna.post("/api/friends", {"name": b}, csrf=False).status_code == 403
    r = anna.post("/api/friends", {"name": b.upper()})  # a name is found whatever its case
    assert r.status_code == 200 and r.json()["status"] == "asked" and r.json()["asked"] == [b]
    assert ben.get("/api/friends").json()["asking_me"] == [a]
    r = ben.post("/api/friends", {"name": a})
    assert r.json()["status"] == "friend"
    assert r.json()["friends"] == [{"name": a, "online": True}]  # Anna's page asked a moment ago
    assert anna.get("/api/friends").json()["friends"] == [{"name": b, "online": True}]
    # Cleo asks; Anna blocks her: the request goes, and Cleo cannot tell she was blocked.
    cleo.post("/api/friends", {"name": a})
    r = anna.post("/api/friends/block", {"name": c})
    assert r.json()["blocked"] == [c] and r.json()["asking_me"] == []
    assert cleo.post("/api/friends", {"name": a}).json()["status"] == "asked"
    assert anna.get("/api/friends").json()["asking_me"] == []
    r = anna.post("/api/friends/remove", {"name": c})  # lift the block
    assert r.json()["blocked"] == []


def befriend(x: tuple[Browser, str], y: tuple[Browser, str]) -> None:
    x[0].post("/api/friends", {"name": y[1]})
    assert y[0].post("/api/friends", {"name": x[1]}).json()["status"] == "friend"


def test_a_challenge_accepted_is_a_started_private_table_seated_by_account(
    srv: ServerThread,
) -> None:
    anna, ben, cleo = players(srv, "anna", "ben", "cleo")
    befriend(anna, ben)
    befriend(anna, cleo)
    (a, an), (b, bn), (c, cn) = anna, ben, cleo
    strangers = {"friends": [cn, "nobody-here"], "game": "classic", "players": 3}
    assert a.post("/api/challenges", strangers).status_code == 404
    r = b.post("/api/challenges", {"friends": [cn], "game": "classic", "players": 2})
    assert r.status_code == 422 and "not your friend" in r.json()["message"]
    r = a.post("/api/challenges", {"friends": [bn], "game": "classic", "players": 3})
    assert r.status_code == 422 and "3 seats are for people" in r.json()["message"]
    r = a.post("/api/challenges", {"friends": [bn], "game": "chess", "players": 2})
    assert r.status_code == 400
    assert a.get("/api/challenges").json()["challenges"] == []  # nothing was stored

    # A team game: Anna, Ben and Cleo with a bot, in two teams.
    body = {"friends": [bn, cn], "game": "classic", "players": 4, "teams": 2,
            "bots": [None, None, None, "easy"]}  # fmt: skip
    r = a.post("/api/challenges", body)
    assert r.status_code == 200, r.text
    challenge = r.json()
    assert [(i["name"], i["seat"], i["answer"]) for i in challenge["invited"]] == [
        (bn, 1, "waiting"), (cn, 2, "waiting")]  # fmt: skip
    cid = challenge["id"]
    assert [ch["id"] for ch in c.get("/api/challenges").json()["challenges"]] == [cid]
    assert a.post(f"/api/challenges/{cid}/accept").status_code == 404  # not Anna's to answer
    r = b.post(f"/api/challenges/{cid}/accept")
    assert r.json()["status"] == "open" and r.json()["table"] is None
    r = c.post(f"/api/challenges/{cid}/accept")
    assert r.json()["status"] == "accepted"
    code = r.json()["table"]
    table = srv.stored(code)
    assert table.status == "playing" and not table.public
    owners = [s.account_id for s in table.seats]
    assert owners[3] is None and len({*owners[:3]}) == 3
    for browser, seat in ((a, 0), (b, 1), (c, 2)):
        [mine] = browser.post(f"/api/account/seats/{code}").json()["seats"]
        assert mine["seat"] == seat
        client = Client(srv, code, mine["seat_token"])
        assert client.wait(lambda s: s["view"] is not None)["view"]["seat"] == seat
        client.close()
    assert c.post(f"/api/challenges/{cid}/accept").status_code == 404  # settled

    # Declined: closed for everyone; a challenger's cancel.
    cid = a.post("/api/challenges", {"friends": [bn], "game": "kids", "players": 2}).json()["id"]
    assert b.post(f"/api/challenges/{cid}/decline").json()["status"] == "declined"
    cid = a.post("/api/challenges", {"friends": [bn], "game": "kids", "players": 2}).json()["id"]
    assert b.post(f"/api/challenges/{cid}/cancel").status_code == 404
    states = {ch["id"]: ch["status"] for ch in a.post(f"/api/challenges/{cid}/cancel").json()[
        "challenges"]}  # fmt: skip
    assert states[cid] == "cancelled"
    # A block ends the open challenges between the two.
    cid = a.post("/api/challenges", {"friends": [bn], "game": "kids", "players": 2}).json()["id"]
    b.post("/api/friends/block", {"name": an})
    assert b.post(f"/api/challenges/{cid}/accept").status_code == 404
    assert a.get("/api/friends").json()["friends"] == [{"name": cn, "online": True}]
