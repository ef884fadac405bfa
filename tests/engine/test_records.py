"""Game records (JSON and text) and golden playthroughs.

Golden files under ``golden/`` hold whole games, one per game kind, with the position after
every move. The test regenerates each game and compares it with the file, so any change of
behaviour shows up as a diff. After a deliberate rule change, regenerate them with::

    SEQUENCE_REGEN_GOLDEN=1 .venv/bin/pytest tests/engine/test_records.py -k golden

and review the diff before committing.
"""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path

import pytest

from sequence.engine import (
    GameRecord,
    IllegalMoveError,
    Move,
    RecordError,
    State,
    card_name,
    make_config,
    space_name,
)
from sequence.engine.games import Config

GOLDEN_DIR = Path(__file__).parent / "golden"
REGEN = os.environ.get("SEQUENCE_REGEN_GOLDEN") == "1"


def play(cfg: Config, seed: int, limit: int = 10_000) -> State:
    """A random game whose choices do not depend on the order of ``legal_moves()``."""
    rnd = random.Random(seed)
    st = State.new(cfg, seed)
    while not st.is_over() and len(st.move_stack) < limit:
        if st.is_chance():
            st.push(st.sample_chance())
            continue
        seat = st.to_move
        st.push(rnd.choice(sorted(st.legal_moves, key=str)))
        if seat in st.pending_draws and rnd.random() < 0.8:
            st.push(Move.parse(f"draw:{seat + 1}"))
    return st


GAMES = [
    ("classic", make_config("classic", 2), 4),
    ("classic-4-manual", make_config("classic", 4, manual_draw=True), 2),
    ("classic-3-difficult", make_config("classic", 3, difficult=True), 8),
    ("kids", make_config("kids", 3), 1),
    ("dice", make_config("dice", 4), 3),
    ("draft", make_config("classic", 2, draft=True), 5),
]


@pytest.mark.parametrize(("name", "cfg", "seed"), GAMES)
def test_records_round_trip_and_replay_exactly(name: str, cfg: Config, seed: int) -> None:
    st = play(cfg, seed)
    record = GameRecord.from_state(st, tags={"Event": 'the "test" cup'})
    assert GameRecord.load(record.to_json()) == record
    assert GameRecord.load(record.to_json(indent=2)) == record
    from_text = GameRecord.load(record.to_text())
    assert from_text == record and from_text.tags == record.tags
    assert record.result == st.outcome.result()  # type: ignore[union-attr]
    replayed = record.replay()
    assert replayed == st and replayed.position() == st.position()
    again = State.new(cfg, seed)
    for i, (move, state) in enumerate(zip(record.moves, record.states()[1:], strict=True)):
        again.push(move)
        assert state == again and state.position() == again.position(), f"move {i + 1}"
    assert record.replay(upto=3) == record.states()[3]


def test_record_of_a_position_is_refused() -> None:
    st = State.from_position(State.new(make_config(), 1).position())
    with pytest.raises(RecordError, match="not set up from a seed"):
        GameRecord.from_state(st)


@pytest.mark.parametrize(
    "value",
    [
        "Bob\\",
        'a "quoted" name\\"',
        "two\nlines\r\tand a tab",
        "\\n is not a newline",
        "a\u2028b\x85c\x0bd\x1ce\u2029",
        "\\u2028 is text",
    ],
)
def test_tag_values_survive_the_text_form(value: str) -> None:
    record = GameRecord.from_state(State.new(make_config("kids", 2), 5), tags={"Seat1": value})
    text = record.to_text()
    header = [line for line in text.splitlines() if line.startswith("[Seat1 ")]
    assert len(header) == 1 and header[0].endswith('"]')  # one line, whatever the value holds
    back = GameRecord.load(text)
    assert back == record and back.tags == {"Seat1": value} and back.seed == 5


@pytest.mark.parametrize("name", ["Seed", "Game", "Result", "Draft", "Teams", "two words", ""])
def test_tags_cannot_take_the_records_own_headers(name: str) -> None:
    st = State.new(make_config("kids", 2), 5)
    with pytest.raises(RecordError, match="tag"):
        GameRecord.from_state(st, tags={name: "7"})
    data = json.loads(GameRecord.from_state(st).to_json())
    with pytest.raises(RecordError, match="tag"):
        GameRecord.from_json(json.dumps({**data, "tags": {name: "7"}}))


def test_a_header_given_twice_is_refused() -> None:
    text = GameRecord.from_state(State.new(make_config("kids", 2), 5)).to_text()
    with pytest.raises(RecordError, match=r"the header \[Seed ...\] is given twice"):
        GameRecord.load(text.replace('[Seed "5"]', '[Seed "5"]\n[Seed "6"]'))


def corrupt(data: dict, **changes: object) -> str:  # type: ignore[type-arg]
    return json.dumps({**data, **changes})


@pytest.fixture(scope="module")
def classic_record() -> dict:  # type: ignore[type-arg]
    return json.loads(GameRecord.from_state(play(make_config("classic", 2), 4)).to_json())


@pytest.fixture(scope="module")
def dice_record() -> dict:  # type: ignore[type-arg]
    return json.loads(GameRecord.from_state(play(make_config("dice", 2), 3)).to_json())


def test_illegal_move_names_the_move(classic_record: dict) -> None:  # type: ignore[type-arg]
    moves = list(classic_record["moves"])
    moves[4] = moves[2]  # the same card again, on a space now taken (or not held)
    record = GameRecord.load(corrupt(classic_record, moves=moves))
    with pytest.raises(RecordError, match=rf"move 5 \({moves[4]}\) is illegal: .+"):
        record.replay()


def test_an_illegal_move_names_the_seat_that_made_it(classic_record: dict) -> None:  # type: ignore[type-arg]
    # The refusal told to a player ("you do not hold AS") is said about the seat in a record,
    # with its name from the tags; one that does not address the player names the seat first.
    moves = list(classic_record["moves"])
    record = GameRecord.load(corrupt(classic_record))
    k = next(k for k in range(len(moves)) if record.replay(k).to_move == 1)
    state = record.replay(k)  # seat 2 (index 1) is to make move k + 1
    foreign = card_name(next(c for c in state.hand_of(0) if c not in state.hand_of(1)))
    space = space_name(next(m.space for m in state.legal_moves if m.space is not None))
    bad = [*moves[:k], f"{foreign}@{space}", *moves[k + 1 :]]
    refused = GameRecord.load(corrupt(classic_record, moves=bad, tags={"Name2": "Bob"}))
    with pytest.raises(RecordError) as caught:
        refused.replay()
    assert str(caught.value) == (
        f"move {k + 1} ({foreign}@{space}) is illegal: seat 2 (Bob) does not hold {foreign}"
    )
    assert "you" not in str(caught.value)
    unnamed = GameRecord.load(corrupt(classic_record, moves=bad))
    with pytest.raises(RecordError, match=rf"is illegal: seat 2 does not hold {foreign}$"):
        unnamed.replay()
    held = next(n for n in map(card_name, state.hand_of(1)) if not n.startswith("J"))
    corner = [*moves[:k], f"{held}@a1", *moves[k + 1 :]]
    with pytest.raises(
        RecordError, match=rf"^move {k + 1} \({held}@a1\) by seat 2 is illegal: a1 is a free corner"
    ):
        GameRecord.load(corrupt(classic_record, moves=corner)).replay()
    # The player's own message is unchanged.
    with pytest.raises(IllegalMoveError, match=rf"you do not hold {foreign}$"):
        state.copy().push(Move.parse(f"{foreign}@{space}"))


def test_bad_notation_names_the_move(classic_record: dict) -> None:  # type: ignore[type-arg]
    moves = list(classic_record["moves"])
    moves[6] = "5H@z9"
    with pytest.raises(RecordError, match=r"move 7: not a move: 5H@z9"):
        GameRecord.load(corrupt(classic_record, moves=moves))
    text = GameRecord.load(json.dumps(classic_record)).to_text().replace(" 3. ", " 3. bogus ", 1)
    with pytest.raises(RecordError, match="move 3: not a move"):
        GameRecord.load(text)


def test_wrong_roll_for_the_seed(dice_record: dict) -> None:  # type: ignore[type-arg]
    moves = list(dice_record["moves"])
    i = next(k for k, m in enumerate(moves) if m.startswith("roll:") and k > 4)
    moves[i] = "roll:1+1" if moves[i] != "roll:1+1" else "roll:6+6"
    record = GameRecord.load(corrupt(dice_record, moves=moves))
    with pytest.raises(RecordError, match=rf"move {i + 1} \(roll:.+\): the seed rolls \d\+\d here"):
        record.replay()


def test_bad_config_and_other_damage(classic_record: dict) -> None:  # type: ignore[type-arg]
    cases = [
        (
            corrupt(classic_record, config={"game": "classic", "players": 5}),
            "bad configuration: .*5",
        ),
        (corrupt(classic_record, config={"game": "poker"}), "bad configuration: unknown game"),
        (corrupt(classic_record, seed="x"), "seed must be an integer"),
        (corrupt(classic_record, moves="5H@e5"), "moves must be a list"),
        (corrupt(classic_record, moves=[1]), "move 1 is not text"),
        (corrupt(classic_record, format="other/9"), "unknown record format"),
        ("{not json", "not valid JSON"),
    ]
    for text, why in cases:
        with pytest.raises(RecordError, match=why):
            GameRecord.load(text)
    with pytest.raises(RecordError, match="a record is a JSON object"):
        GameRecord.from_json("[1, 2]")
    bad_text = (
        GameRecord.load(json.dumps(classic_record))
        .to_text()
        .replace('[Players "2"]', '[Players "5"]')
    )
    with pytest.raises(RecordError, match="bad headers"):
        GameRecord.load(bad_text)
    with pytest.raises(RecordError, match="no \\[Seed"):
        GameRecord.load('[Game "classic"]\n[Players "2"]\n\n1. pass\n')


def test_wrong_result_is_caught(classic_record: dict) -> None:  # type: ignore[type-arg]
    winner = classic_record["result"]
    other = "B wins" if winner != "B wins" else "A wins"
    with pytest.raises(RecordError, match="the record says"):
        GameRecord.load(corrupt(classic_record, result=other)).replay()
    cut = corrupt(classic_record, moves=classic_record["moves"][:-1])
    with pytest.raises(RecordError, match="the moves leave the game unfinished"):
        GameRecord.load(cut).replay()


# --- golden playthroughs ----------------------------------------------------------------------


def playthrough(cfg: Config, seed: int) -> str:
    """A whole game as text: the set-up, then every move with the position after it."""
    st = play(cfg, seed)
    record = GameRecord.from_state(st)
    states = record.states()
    lines = [
        f"# Golden playthrough: {cfg.to_dict()} seed {seed}",
        "# Regenerate: SEQUENCE_REGEN_GOLDEN=1 .venv/bin/pytest tests/engine -k golden",
        f"setup {states[0].setup}",
        f"0. start {states[0].position()}",
    ]
    for i, (move, after) in enumerate(zip(record.moves, states[1:], strict=True), start=1):
        lines.append(f"{i}. {move} {after.position()}")
    lines.append(f"outcome {st.outcome}")
    lines.append("")
    lines.append(record.to_text())
    return "\n".join(lines)


@pytest.mark.parametrize(("name", "cfg", "seed"), GAMES)
def test_golden_playthrough(name: str, cfg: Config, seed: int) -> None:
    path = GOLDEN_DIR / f"{name}.txt"
    text = playthrough(cfg, seed)
    if REGEN:
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{path} is missing: run with SEQUENCE_REGEN_GOLDEN=1 to write it"
    expected = path.read_text(encoding="utf-8")
    assert text == expected, f"{name}: behaviour changed; see the diff, or regenerate if intended"
    # the file also replays on its own: its record reproduces each listed position
    record = GameRecord.load(expected[expected.index("[Game ") :])
    body = expected[: expected.index("\noutcome ")].splitlines()[3:]
    listed = [line.split(" ", 2)[2] for line in body]
    assert [s.position() for s in record.states()] == listed


def test_record_with_penalty_draws_and_passes_replays() -> None:
    st = State.new(make_config("classic", 4, manual_draw=True), 9)
    st.push(st.legal_moves[0])
    st.push(Move.parse("penalty:A"))
    while st.forfeits_due:
        st.push(st.legal_moves[0])
    st.push(Move.parse(f"draw:{(st.to_move - 1) % 4 + 1}"))
    record = GameRecord.from_state(st)
    assert "penalty:A" in record.to_text() and "forfeit:" in record.to_text()
    for text in (record.to_json(), record.to_text()):
        again = GameRecord.load(text).replay()
        assert again == st and again.position() == st.position()


def test_loading_says_what_is_wrong_with_a_record() -> None:
    record = GameRecord.from_state(State.new(make_config("kids", 2), 5))
    text, data = record.to_text(), record.to_json()
    # A byte-order mark (some editors write one) is not an error.
    assert GameRecord.load("\ufeff" + text) == GameRecord.load("\ufeff" + data) == record
    for bad, says in [
        (text.replace('[Game "kids"]', "[Game kids]"), "line 1: not a header: [Game kids]"),
        (text.replace('[Players "2"]', '[Players "x"]'), "[Players ...] is a whole number"),
        ("42", "a record is a JSON object"),
        ("null", "a record is a JSON object"),
        ("{bad", "not valid JSON"),
    ]:
        with pytest.raises(RecordError, match=re.escape(says)):
            GameRecord.load(bad)


def _resigned_record() -> GameRecord:
    state = State.new(make_config("classic", players=2), seed=3)
    for _ in range(6):
        state.push(state.legal_moves[0])
    return GameRecord.from_state(state, {"Seat1": "Ann"}, resigned="B wins")


def test_a_resigned_game_has_a_result_and_says_how_it_ended() -> None:
    rec = _resigned_record()
    assert (rec.result, rec.termination, rec.winner) == ("B wins", "resignation", 1)
    text = rec.to_text()
    assert '[Result "B wins"]' in text and '[Termination "resignation"]' in text
    assert rec.to_dict()["result"] == "B wins" and rec.to_dict()["termination"] == "resignation"
    for again in (GameRecord.load(text), GameRecord.load(rec.to_json())):
        assert again == rec and again.termination == "resignation"
        state = again.replay()  # to the position the side gave up in: no outcome from the moves
        assert state.outcome is None and len(state.move_stack) == 6


def test_an_older_record_of_a_resigned_game_reads_as_resigned() -> None:
    # Before: "result": null, and the result in a Resigned tag (the server's records of 2026).
    data = _resigned_record().to_dict()
    data["result"] = None
    del data["termination"]
    data["tags"]["Resigned"] = "B wins"
    old = GameRecord.from_dict(data)
    assert (old.result, old.termination, old.tags) == ("B wins", "resignation", {"Seat1": "Ann"})
    text = _resigned_record().to_text().replace('[Result "B wins"]', '[Result "*"]')
    text = text.replace('[Termination "resignation"]', '[Resigned "B wins"]')
    assert GameRecord.load(text) == old
    # A record that simply is unfinished stays so.
    data["tags"] = {}
    assert GameRecord.from_dict(data).result is None


def test_a_resignation_that_cannot_be_is_refused() -> None:
    data = _resigned_record().to_dict()
    with pytest.raises(RecordError, match="unknown termination 'timeout'"):
        GameRecord.from_dict({**data, "termination": "timeout"})
    for result in ("draw", None, "C wins"):
        with pytest.raises(RecordError, match="has a winner"):
            GameRecord.from_dict({**data, "result": result})
    # A game the moves ended cannot also have been resigned.
    state = play(make_config("kids", players=2), 1)
    assert state.outcome is not None
    over = GameRecord.from_state(state).to_dict()
    with pytest.raises(RecordError, match=r"\(resignation\) but the moves give"):
        GameRecord.from_dict({**over, "termination": "resignation"}).replay()
