"""Hints at a casual table over a real WebSocket: the asking seat's own view only, in its
language; refused to spectators, out of turn, at a rated table, and past the rate limit."""

from __future__ import annotations

import json
from typing import Any

from sequence.bots.review import Reviewer
from sequence.engine import Move, State
from sequence.i18n.moves import move_words
from sequence.i18n.notes import translate_note
from sequence.server.tables import coaching

from .conftest import HINT_KEYS, Client, ServerThread, create_table, join, start


def hint_of(client: Client, timeout: float = 30) -> dict[str, Any]:
    """Read until a hint or an error arrives."""
    while True:
        msg = client.recv(timeout=timeout)
        if msg["type"] in ("hint", "error"):
            return msg


def casual(server: ServerThread, game: str = "classic") -> tuple[str, Client, Client, Client]:
    made = create_table(server, game=game, players=2, name="Ann", seat=0)
    code = made["code"]
    bob = join(server, code, "Bob")
    start(server, code, made["host_token"])
    ann = Client(server, code, made["seat_token"])
    ann.send({"type": "lang", "lang": "de"})
    bob_c = Client(server, code, bob["seat_token"])
    watcher = Client(server, code)
    for c in (ann, bob_c, watcher):
        c.wait_version(0)
    return code, ann, bob_c, watcher


def test_a_hint_is_the_seats_own_view_only_and_in_its_language(server: ServerThread) -> None:
    code, ann, bob, watcher = casual(server)
    state = server.hub.registry.tables[code].state
    seat = state.to_move
    asker = ann if seat == 0 else bob
    asker.send({"type": "hint", "version": 0})
    got = hint_of(asker)
    assert got["type"] == "hint" and set(got) == HINT_KEYS, got
    view = state.view(seat)
    assert got["seat"] == seat and got["version"] == 0
    assert got["move"] in [str(m) for m in view.legal_moves]
    # Anything dealt differently where this seat cannot see (the other hand, the draw pile)
    # gives the same hint: the answer holds nothing but what the view holds.
    for deal in (1, 2):
        other = State.sample_from_view(view, deal)
        assert other.view(seat).to_dict() == view.to_dict()
        again = Reviewer().hint(other.view(seat))
        assert str(again.move) == got["move"]
        assert [n.to_dict() for n in again.notes] == [
            {k: v for k, v in n.items() if k != "says"} for n in got["notes"]
        ]
    # No card of the other hand is named unless this seat holds one like it.
    theirs = {str(c) for c in state.view(1 - seat).hand or ()} - {str(c) for c in view.hand or ()}
    said = json.dumps(got)
    assert not any(f'"{c}@' in said or f'"{c}"' in said for c in theirs)
    lang = "de" if asker is ann else None
    assert got["move_says"] == move_words(Move.parse(got["move"]), lang)
    assert got["notes"] and all(
        n["says"] == translate_note(note, lang)
        for n, note in zip(got["notes"], Reviewer().hint(view).notes, strict=True)
    )
    # The others were sent no hint.
    for c in (ann, bob, watcher):
        if c is not asker:
            c.drain()
            assert all(m["type"] != "hint" for m in c.received)


def test_hints_are_refused_to_spectators_out_of_turn_and_when_stale(server: ServerThread) -> None:
    code, ann, bob, watcher = casual(server)
    to_move = server.hub.registry.tables[code].state.to_move
    waiting = bob if to_move == 0 else ann
    watcher.send({"type": "hint", "version": 0})
    assert hint_of(watcher)["code"] == "not_seated"
    waiting.send({"type": "hint", "version": 0})
    assert hint_of(waiting)["code"] == "bad_message"
    mover = ann if waiting is bob else bob
    mover.send({"type": "hint", "version": 7})
    assert hint_of(mover)["code"] == "stale"
    mover.send({"type": "hint", "version": "0"})
    assert hint_of(mover)["code"] == "bad_message"


def test_hints_are_rate_limited_per_seat(server: ServerThread) -> None:
    code, ann, bob, _ = casual(server, "kids")
    mover = ann if server.hub.registry.tables[code].state.to_move == 0 else bob
    got = []
    for _ in range(coaching.HINT_BURST + 1):
        mover.send({"type": "hint", "version": 0})
        got.append(hint_of(mover))
    assert [m["type"] for m in got[:-1]] == ["hint"] * coaching.HINT_BURST
    assert got[-1]["code"] == "rate_limited"


def test_a_rated_table_has_no_hints(server: ServerThread) -> None:
    with server.http() as http:
        me = http.post("/api/players", json={"name": "Ann"}).json()
        made = http.post("/api/tables", json={
            "game": "classic", "players": 2, "rated": True, "clock": "casual",
            "bots": [None, "easy"], "name": "Ann", "seat": 0, "player_token": me["player_token"],
        }).json()  # fmt: skip
        http.post(f"/api/tables/{made['code']}/start", json={"host_token": made["host_token"]})
    ann = Client(server, made["code"], made["seat_token"])
    st = ann.wait(lambda m: m["view"] is not None)
    ann.send({"type": "hint", "version": st["version"]})
    refused = hint_of(ann)
    assert refused["code"] == "hints_off" and "rated" in refused["message"]
