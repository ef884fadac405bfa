"""GET /api/tables/{code}/review: a finished game's review, computed once in the bots' worker
pool (202 while it is), the same as ``sequence review`` gives, its notes in the reader's
language; refused while the game goes on."""

from __future__ import annotations

import time

from sequence.bots.review import Reviewer
from sequence.engine import GameRecord
from sequence.i18n.moves import move_words
from sequence.i18n.notes import translate_note

from .conftest import ServerThread, create_table


def finished_game(server: ServerThread, game: str = "kids") -> tuple[str, GameRecord]:
    """A finished game between two easy bots at ``server``: its code and record."""
    made = create_table(server, game=game, players=2, bots=["easy", "easy"])
    code = made["code"]
    with server.http() as http:
        http.post(f"/api/tables/{code}/start", json={"host_token": made["host_token"]})
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            r = http.get(f"/api/tables/{code}/record")
            if r.status_code == 200:
                return code, GameRecord.from_dict(r.json()["record"])
            time.sleep(0.1)
    raise AssertionError("the bots' game did not end")


def reviewed(server: ServerThread, code: str, lang: str = "en") -> dict:  # type: ignore[type-arg]
    """Ask until the review is ready; every answer before is a 202 saying how far it is."""
    with server.http() as http:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            r = http.get(f"/api/tables/{code}/review", params={"lang": lang})
            if r.status_code == 200:
                body = r.json()
                assert body["status"] == "ready"
                return body["review"]  # type: ignore[no-any-return]
            assert r.status_code == 202, r.text
            working = r.json()
            # Counted from the first answer on: a page can show "0 of N" at once.
            assert working["status"] == "working" and 0 <= working["done"] < working["total"]
            time.sleep(0.2)
    raise AssertionError("the review never came")


def test_the_review_is_sequence_reviews_with_notes_in_the_readers_language(
    server: ServerThread,
) -> None:
    code, record = finished_game(server)
    got = reviewed(server, code, "fr")
    want = Reviewer().review_game(record)
    expected = want.to_dict()
    assert got["format"] == "sequence-review/1"
    words = ("move_says", "best_says")  # each move also in words
    for key in ("moves", "chances", "turning_points", "players"):
        plain = [
            {k: ([{a: b for a, b in n.items() if a != "says"} for n in v] if k in ("flags", "notes")
                 else v) for k, v in item.items() if k not in words}
            if isinstance(item, dict) else item
            for item in got[key]
        ]  # fmt: skip
        assert plain == expected[key], key
    said = [n["says"] for m in got["moves"] for n in m["notes"]]
    notes = [translate_note(n, "fr") for m in want.moves for n in m.notes]
    assert said == notes and said
    for got_move, move in zip(got["moves"], want.moves, strict=True):
        assert got_move["move_says"] == move_words(move.move, "fr")
        assert got_move["best_says"] == move_words(move.best, "fr")
    for got_point, point in zip(got["turning_points"], want.turning_points, strict=True):
        assert got_point["move_says"] == move_words(point.move, "fr")
    # Asked again (another language): the same review, from memory at once.
    with server.http() as http:
        again = http.get(f"/api/tables/{code}/review", headers={"Accept-Language": "ru"})
        assert again.status_code == 200
        first = again.json()["review"]["moves"][0]
        assert [n["says"] for n in first["notes"]] == [
            translate_note(n, "ru") for n in want.moves[0].notes
        ]


def test_no_review_while_the_game_goes_on(server: ServerThread) -> None:
    made = create_table(server, game="classic", players=2, name="Ann")
    with server.http() as http:
        r = http.get(f"/api/tables/{made['code']}/review")
        assert r.status_code == 403 and r.json()["error"] == "not_finished"
        assert http.get("/api/tables/NOSUCH/review").status_code == 404
