"""Cards, spaces, moves and positions as text: they read back exactly, and bad text is refused."""

from __future__ import annotations

import pytest
from engine_testkit import position

from sequence.engine import (
    CLASSIC_BOARD,
    GAMES,
    InvalidNotationError,
    InvalidPositionError,
    Move,
    MoveKind,
    State,
    card_name,
    make_config,
    parse_card,
    parse_space,
    space_name,
)


def test_cards() -> None:
    assert card_name(parse_card("10h")) == "TH"
    assert card_name(parse_card("10♥")) == "TH"
    assert card_name(parse_card("q♠")) == "QS"
    assert card_name(parse_card("lion")) == "LION"
    for bad in ("1H", "ZZ", "", "JX", "10"):
        with pytest.raises(InvalidNotationError, match="unknown card"):
            parse_card(bad)


def test_spaces() -> None:
    assert parse_space("a1") == 0 and parse_space("J10") == 99 and parse_space("c2") == 12
    assert all(parse_space(space_name(s)) == s for s in range(100))
    for bad in ("k1", "a0", "a11", "a", "11", ""):
        with pytest.raises(InvalidNotationError, match="not a space"):
            parse_space(bad)
    assert CLASSIC_BOARD.label_name(parse_space("e5")) == "5H"
    assert CLASSIC_BOARD.label_name(parse_space("a1")) == "**"


@pytest.mark.parametrize(
    "text",
    ["5H@c3", "JSxc3", "JD@j9", "@c3", "=c3", "xc3", "roll:3+4", "dead:5H", "discard:5H", "pass",
     "draw:2", "pick:5H", "penalty:B", "forfeit:5H", "UNICORN@b2", "DRAGONxb2", "LION@c1"],
)  # fmt: skip
def test_move_notation_round_trips(text: str) -> None:
    move = Move.parse(text)
    assert str(move) == text
    assert Move.parse(str(move)) == move


def test_move_aliases_and_fields() -> None:
    assert str(Move.parse("10h@C3")) == "TH@c3"
    assert str(Move.parse("roll:4+3")) == "roll:3+4"
    assert Move.parse("draw:2").seat == 1
    assert Move.parse("penalty:b").team == 1
    assert Move.parse("JSxc3").kind is MoveKind.REMOVE
    assert Move.parse("=c3").kind is MoveKind.REPLACE


@pytest.mark.parametrize(
    "bad",
    ["", "hello", "5H@", "5H@k3", "5H-c3", "5H=c3", "roll:7+1", "roll:3", "draw:0", "draw:x",
     "penalty:E", "pick:ZZ", "dead:"],
)  # fmt: skip
def test_bad_move_notation(bad: str) -> None:
    with pytest.raises(InvalidNotationError):
        Move.parse(bad)


@pytest.mark.parametrize("game", GAMES)
def test_positions_round_trip_from_new_games(game: str) -> None:
    for players in make_config(game).spec.player_counts:
        st = State.new(make_config(game, players), seed=players)
        again = State.from_position(st.position())
        assert again == st and again.position() == st.position()


def test_position_with_every_extra_field_round_trips() -> None:
    text = position(
        "classic",
        4,
        board={"a": "b2 c3", "b": "d4"},
        hands=["5H", "6H 7H", "", "8H"],
        discards=["2S", "", "3S", ""],
        turn="2:forfeit",
        extras="turns=7 passes=1 dead=1 pending=1 forfeit=2,4>1:play rng=ff",
        manual_draw=True,
    )
    st = State.from_position(text)
    assert st.position() == text
    assert st.forfeits_due == (1, 3) and st.pending_draws == (0,) and st.dead_card_exchanged


ROW1 = "*........*/"


@pytest.mark.parametrize(
    ("mutate", "error", "why"),
    [
        (lambda p: p.replace("classic/2", "classic/5"), InvalidPositionError, "5 players"),
        (lambda p: p.replace("classic/2", "classic"), InvalidNotationError, "bad game field"),
        (lambda p: p.replace(" 1:play", " 3:play"), InvalidNotationError, "bad player number"),
        (lambda p: p.replace(" 1:play", " 1:dance"), InvalidNotationError, "unknown phase"),
        (lambda p: p.replace(ROW1, "*.......a./", 1), InvalidPositionError, "free corners"),
        (lambda p: p.replace(ROW1, ".........*/", 1), InvalidPositionError, "free corners"),
        (lambda p: p.replace(ROW1, "*c.......*/", 1), InvalidPositionError, "no team C"),
        (lambda p: p.replace(ROW1, "*q.......*/", 1), InvalidNotationError, "unknown board mark"),
        (lambda p: p.replace("5H,6H/", "5H/", 1), InvalidPositionError, "missing 6H"),
        (lambda p: p.replace("5H,6H/", "5H,6H,6H/", 1), InvalidPositionError, "too many 6H"),
        (lambda p: p + " bogus=1", InvalidNotationError, "unknown field"),
        (lambda p: p + " roll=3+4", InvalidPositionError, "roll is given only"),
        (lambda p: " ".join(p.split()[:5]), InvalidNotationError, "at least 7 fields"),
    ],
)  # fmt: skip
def test_bad_positions_are_refused(mutate: object, error: type, why: str) -> None:
    good = position("classic", 2, hands=["5H 6H", "7H"])
    State.from_position(good)
    with pytest.raises(error, match=why):
        State.from_position(mutate(good))  # type: ignore[operator]


def test_position_sequences_are_checked() -> None:
    base = {"a": "a2 a3 a4 a5 a6 a7 a8 a9"}
    ok = position("classic", 2, board=base, seqs="A:a1-a5")
    assert State.from_position(ok).sequence_spaces(0)
    with pytest.raises(InvalidPositionError, match="not all team A's chips"):
        State.from_position(position("classic", 2, board=base, seqs="A:b1-f1"))
    with pytest.raises(InvalidPositionError, match="not a line of 5"):
        State.from_position(position("classic", 2, board=base, seqs="A:a1-a4"))
    with pytest.raises(InvalidPositionError, match="shares more than one space"):
        State.from_position(position("classic", 2, board=base, seqs="A:a1-a5,A:a4-a8"))
    two = position("classic", 2, board=base, seqs="A:a1-a5,A:a5-a9")
    with pytest.raises(
        InvalidPositionError, match="team A has 2 sequences: the game would be over"
    ):
        State.from_position(two)
    over = position(
        "classic", 2, board=base, seqs="A:a1-a5,A:a5-a9", turn="1:over", extras="over=sequences:A"
    )
    assert State.from_position(over).outcome.winner == 0  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("ending", "says"),
    [("sequences:E", "not 'E'"), ("sequences:C", "not 'C'"), ("sequences:AB", "not 'AB'")],
)
def test_position_winner_must_be_a_team_of_the_game(ending: str, says: str) -> None:
    text = position("classic", 2, turn="1:over", extras=f"over={ending}")
    with pytest.raises(InvalidNotationError, match=says):
        State.from_position(text)


def test_draft_fields_need_the_draft_variant() -> None:
    with pytest.raises(InvalidPositionError, match="phase pick belongs to the draft variant"):
        State.from_position(position("classic", 2, turn="1:pick"))
    plain = position("classic", 2, extras="draft=5H,6H,7H,8H,9H")
    with pytest.raises(InvalidPositionError, match="belong to the draft variant"):
        State.from_position(plain)


def test_too_many_chips_for_the_supply() -> None:
    with pytest.raises(InvalidPositionError, match="more chips on the board than its supply"):
        State.from_position(position("classic", 2, board={"a": "b2 b3 b4"}, chips_per_colour=2))


def test_dice_positions_have_no_cards() -> None:
    text = position("dice", 2, board={"a": "a1", "b": "b1"}, turn="2:act", extras="roll=2+5")
    assert State.from_position(text).roll == (2, 5)
    with pytest.raises(InvalidNotationError, match="no cards"):
        State.from_position(text.replace(" - - - ", " - 5H - - "))
    with pytest.raises(InvalidPositionError, match="needs the roll"):
        State.from_position(text.replace(" roll=2+5", ""))


def test_docs_show_the_current_boards() -> None:
    from pathlib import Path

    from sequence.engine import DICE_BOARD, KIDS_BOARD

    doc = Path(__file__).resolve().parents[2] / "docs" / "engine.md"
    text = doc.read_text(encoding="utf-8")
    for layout in (CLASSIC_BOARD, KIDS_BOARD, DICE_BOARD):
        assert layout.render() in text, f"docs/engine.md does not show the {layout.name} board"
