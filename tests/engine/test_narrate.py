"""The public facts of each move (who made it, whose chip it took) and what a Dice roll allows."""

from __future__ import annotations

import random

from sequence.engine import State, history, make_config, roll_reason


def test_history_names_the_actor_and_the_team_whose_chip_went() -> None:
    state = State.new(make_config("dice", players=2), seed=3)
    first = state.to_move
    state.push_text("roll:3+4")
    place = next(m for m in state.legal_moves if str(m).startswith("@"))
    state.push(place)
    other = state.to_move
    assert other != first
    state.push_text("roll:4+6")
    reason = roll_reason(state)
    assert reason is not None and reason["code"] == "defence"
    take = next(m for m in state.legal_moves if str(m).startswith("x"))
    state.push(take)
    log = history(state)
    assert [e["seat"] for e in log] == [first, first, other, other]
    assert log[1]["space"] == str(place)[1:] and log[1]["removed"] is None
    assert log[3]["kind"] == "remove" and log[3]["removed"] == first % 2
    assert log[2]["meaning"] == "defence" and log[2]["dice"] == [4, 6]
    assert roll_reason(state) is None  # the next seat has not rolled


def test_roll_reason_explains_a_forced_pass() -> None:
    state = State.new(make_config("dice", players=2), seed=3)
    state.push_text("roll:4+6")  # nothing on the board to remove
    assert roll_reason(state) == {
        "code": "defence_none", "total": 10, "dice": [4, 6], "extra_turn": False,
    }  # fmt: skip
    assert [str(m) for m in state.legal_moves] == ["pass"]


def test_history_of_a_card_game_names_card_and_space() -> None:
    state = State.new(make_config("classic", players=2), seed=5)
    move = state.legal_moves[0]
    seat = state.to_move
    state.push(move)
    (entry,) = history(state)
    assert entry["seat"] == seat and entry["move"] == str(move)
    assert entry["card"] is not None and entry["kind"] in {"place", "remove", "dead"}


def test_history_says_which_move_completed_each_sequence() -> None:
    state = State.new(make_config("kids", players=2), seed=7)
    while state.outcome is None:
        state.push(state.legal_moves[0])
    log = history(state)
    completed = [(i, spaces) for i, e in enumerate(log) for spaces in e["completed"]]
    final = state.view(None).to_dict()["sequences"]
    assert completed and sorted(s for _, s in completed) == sorted(s for t in final for s in t)
    for i, spaces in completed:
        assert log[i]["kind"] in ("place", "replace") and log[i]["space"] in spaces
    # Every other move completed none.
    assert sum(len(e["completed"]) for e in log) == len(completed)


def test_history_from_a_move_on_is_the_end_of_the_whole_history_and_never_changes() -> None:
    state = State.new(make_config("classic", players=2), seed=5)
    rng = random.Random(5)
    seen: list[dict[str, object]] = []
    while not state.is_over() and len(state.move_stack) < 60:
        state.push(rng.choice(state.legal_moves))
        seen += history(state, len(seen))  # a client holding the start gets only the rest
        assert seen == history(state)  # the entries it holds stay true
    assert history(state, len(state.move_stack)) == []
    assert history(state, 10) == history(state)[10:]
