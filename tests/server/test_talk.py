"""Reactions and chat over the WebSocket: talk without table talk (RULES.md §2.6, issue 21)."""

from __future__ import annotations

from typing import Any

from .conftest import Client, ServerThread, create_table, join, start


def next_of(client: Client, kind: str, timeout: float = 5) -> dict[str, Any]:
    while True:
        msg = client.recv(timeout=timeout)
        if msg["type"] in (kind, "error"):
            return msg


def nothing_of(client: Client, kind: str) -> None:
    client.drain(0.3)
    assert not [m for m in client.received if m["type"] == kind]


def team_table(server: ServerThread) -> tuple[str, list[Client], Client]:
    created = create_table(server, game="classic", players=4, name="Ann", seat=0)
    code = created["code"]
    tokens = [created["seat_token"]] + [
        join(server, code, name, seat)["seat_token"]
        for seat, name in ((1, "Bo"), (2, "Cy"), (3, "Di"))
    ]
    seats = [
        Client(server, code, tok, created["host_token"] if i == 0 else None)
        for i, tok in enumerate(tokens)
    ]
    watcher = Client(server, code)
    for c in (*seats, watcher):
        c.wait(lambda s: all(seat["connected"] for seat in s["table"]["seats"]))
    return code, seats, watcher


def test_chat_is_free_in_the_lobby_and_refused_to_players_during_a_team_game(
    server: ServerThread,
) -> None:
    code, seats, watcher = team_table(server)
    seats[1].send({"type": "chat", "text": "  hello\u0007 all  "})
    for c in (*seats, watcher):
        said = next_of(c, "chat")
        assert said == {"type": "chat", "seat": 1, "name": "Bo", "text": "hello all"}

    host = seats[0]
    start(server, code, host.host or "")
    for c in (*seats, watcher):
        c.wait(lambda s: s["view"] is not None)
        c.received.clear()
    # A seated player: table talk, refused with the reason, in the connection's language.
    seats[2].send({"type": "chat", "text": "play the jack of spades!"})
    refused = seats[2].error()
    assert refused["code"] == "table_talk" and "§2.6" in refused["message"]
    seats[3].send({"type": "lang", "lang": "ru"})
    seats[3].send({"type": "chat", "text": "b4"})
    refused = seats[3].error()
    assert refused["code"] == "table_talk" and "§2.6" in refused["message"]
    assert "реакц" in refused["message"]
    # A spectator talks to the spectators only.
    other_watcher = Client(server, code)
    other_watcher.wait(lambda s: s["table"]["spectators"] == 2)
    watcher.send({"type": "chat", "text": "nice"})
    assert next_of(other_watcher, "chat")["text"] == "nice"
    assert next_of(watcher, "chat") == {"type": "chat", "seat": None, "name": None, "text": "nice"}
    for c in seats:
        nothing_of(c, "chat")
    for c in (*seats, watcher, other_watcher):
        c.close()


def test_reactions_reach_everyone_from_a_fixed_list_and_paced(server: ServerThread) -> None:
    code, seats, watcher = team_table(server)
    start(server, code, seats[0].host or "")
    for c in (*seats, watcher):
        c.wait(lambda s: s["view"] is not None)
    seats[2].send({"type": "react", "reaction": "well_played"})
    for c in (*seats, watcher):
        got = next_of(c, "reaction")
        assert got == {"type": "reaction", "seat": 2, "name": "Cy", "reaction": "well_played"}
    # Again at once: paced (one every 2 s), and nobody hears it.
    seats[2].send({"type": "react", "reaction": "oops"})
    assert seats[2].error()["code"] == "rate_limited"
    nothing_of(seats[0], "reaction_again")
    # Anything but the fixed ids is refused: a reaction cannot carry a card or a space.
    # Text that is not an id is told the choices; anything else, the field (its model's check).
    for bad, said in [("play_jack", "good_game"), ("JS@b4", "good_game"), ("", "good_game"),
                      ("GOOD_GAME", "good_game"), (None, "reaction is missing"),
                      (["oops"], "reaction is text")]:  # fmt: skip
        seats[1].send({"type": "react", "reaction": bad})
        refused = seats[1].error()
        assert refused["code"] == "bad_message" and said in refused["message"], bad
    seats[0].received.clear()
    seats[0].drain(0.3)
    assert [m for m in seats[0].received if m["type"] == "reaction"] == []
    # Spectators react too.
    watcher.send({"type": "react", "reaction": "good_game"})
    got = next_of(seats[3], "reaction")
    assert got == {"type": "reaction", "seat": None, "name": None, "reaction": "good_game"}
    for c in (*seats, watcher):
        c.close()


def test_chat_checks_its_text(server: ServerThread) -> None:
    created = create_table(server, game="kids", players=2, name="Ann", seat=0)
    me = Client(server, created["code"], created["seat_token"])
    me.wait(lambda s: True)
    for bad, says in ((None, "text"), ("   ", "empty"), ("x" * 201, "200")):
        me.send({"type": "chat", "text": bad})
        refused = me.error()
        assert refused["code"] == "bad_message" and says in refused["message"]
    me.close()
