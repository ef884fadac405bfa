"""Sequence for Kids (RULES.md §3): 4 in a row, Unicorn, Dragon, 3 cards, the board."""

from __future__ import annotations

import itertools

import pytest
from engine_testkit import assert_illegal, cards, chips_of, names, push, state

from sequence.engine import KIDS_BOARD, IllegalMoveError, Move, State, Termination, make_config
from sequence.engine.cards import DRAGON, KIDS_ANIMALS, KIDS_FIRST, UNICORN
from sequence.engine.errors import InvalidPositionError


def test_board_each_animal_twice_copies_apart() -> None:
    layout = KIDS_BOARD
    assert (layout.rows, layout.cols) == (6, 7)
    assert layout.free.bit_count() == 4
    assert {s for s in layout.spaces if layout.free >> s & 1} == {0, 6, 50, 56}
    assert len(layout.labels) == 38
    assert set(layout.spaces_by_label) == {KIDS_FIRST + i for i in range(len(KIDS_ANIMALS))}
    for animal, where in layout.spaces_by_label.items():
        assert len(where) == 2, animal
        (r1, c1), (r2, c2) = (divmod(s, 10) for s in where)
        assert r1 != r2 and c1 != c2, f"{animal}: same row or column"
        assert max(abs(r1 - r2), abs(c1 - c2)) > 1, f"{animal}: copies touch"
    assert UNICORN not in layout.spaces_by_label and DRAGON not in layout.spaces_by_label


def test_deck_and_deal() -> None:
    cfg = make_config("kids", 4)
    deck = cfg.spec.deck
    assert len(deck) == 42 and deck.count(UNICORN) == 2 and deck.count(DRAGON) == 2
    for seed in range(10):
        st = State.new(cfg, seed)
        assert all(len(st.hand_of(s)) == 3 for s in range(4))
        assert st.deck_size == 42 - 12
        assert st.to_move == (st.setup.dealer + 1) % 4  # type: ignore[union-attr]


def test_animal_card_on_either_space_then_draw_back_to_three() -> None:
    st = state("kids", 2, hands=["LION CAT DOG", "FOX COW PIG"], deck="OWL")
    assert {"LION@c1", "LION@a2"} <= names(st.legal_moves)
    push(st, "LION@a2")
    assert (
        chips_of(st, 0) == {"a2"} and len(st.hand_of(0)) == 3 and st.hand_of(0)[-1] in cards("OWL")
    )
    assert_illegal(st, "FOX@b2", "wrong_space")


def test_unicorn_anywhere_empty_dragon_removes() -> None:
    st = state("kids", 2, board={"b": "b2"}, hands=["UNICORN DRAGON CAT", "FOX COW PIG"])
    moves = names(st.legal_moves)
    assert sum(m.startswith("UNICORN@") for m in moves) == 38 - 1
    assert_illegal(st, "UNICORN@a1", "free corner")
    assert_illegal(st, "UNICORN@b2", "b2 is taken")
    assert {m for m in moves if m.startswith("DRAGON")} == {"DRAGONxb2"}
    push(st, "DRAGONxb2")
    assert chips_of(st, 1) == set() and st.to_move == 1


def test_dragon_does_not_remove_own_chip() -> None:
    st = state("kids", 3, board={"a": "b2", "c": "c2"}, hands=["DRAGON", "FOX", "COW"])
    assert names(st.legal_moves) == {"DRAGONxc2"}
    assert_illegal(st, "DRAGONxb2", "your own")


def test_dead_card_then_play() -> None:
    st = state("kids", 2, board={"a": "c1", "b": "a2"}, hands=["LION CAT DOG", "FOX"], deck="OWL")
    push(st, "dead:LION")
    assert st.to_move == 0 and sorted(st.hand_of(0)) == sorted(cards("CAT DOG OWL"))
    push(st, "CAT@b4")
    assert len(st.hand_of(0)) == 3


def test_several_dead_cards_may_be_exchanged_in_a_turn() -> None:
    # RULES.md §3 Decision (amended): up to three a turn (classic keeps one).
    board = {"a": "c1 a2 f5", "b": "d6"}
    st = state("kids", 2, board=board, hands=["LION DOG CAT", "FOX"], deck="OWL COW")
    assert {"dead:LION", "dead:DOG"} <= names(st.legal_moves)
    push(st, "dead:LION")
    assert "dead:DOG" in names(st.legal_moves)
    push(st, "dead:DOG")
    assert sorted(st.hand_of(0)) == sorted(cards("CAT OWL COW")) and st.to_move == 0
    assert st.dead_cards_exchanged == 2
    push(st, "CAT@b4")
    assert st.to_move == 1 and len(st.hand_of(0)) == 3 and st.dead_cards_exchanged == 0


# Every space of LION DOG CAT OWL COW ZEBRA covered, in no line of four.
ALL_DEAD = {"a": "c1 d6 b4 e4 a4 c4", "b": "a2 f5 e6 a3 e2 g2"}


def test_at_most_three_dead_cards_a_turn_then_the_turn_passes_keeping_three_cards() -> None:
    # RULES.md §3 Decision (amended): a dead hand can be replaced once; if no card can then be
    # played, the turn ends with a pass and the player keeps three cards.
    st = state("kids", 2, board=ALL_DEAD, hands=["LION DOG CAT", "FOX"], deck="OWL COW ZEBRA")
    push(st, "dead:LION", "dead:DOG", "dead:CAT")
    assert sorted(st.hand_of(0)) == sorted(cards("OWL COW ZEBRA"))
    assert st.dead_cards_exchanged == 3 and st.to_move == 0
    assert names(st.legal_moves) == {"pass"}
    assert_illegal(st, "dead:OWL", "dead_card_limit")
    assert_illegal(st, "discard:OWL", "kids_no_discard")
    deck = st.deck_size
    push(st, "pass")
    assert st.to_move == 1 and st.hand_of(0) == cards("OWL COW ZEBRA") and st.deck_size == deck
    assert st.passes == 1 and st.outcome is None


def test_a_pass_is_refused_while_a_dead_card_may_still_be_exchanged() -> None:
    st = state("kids", 2, board=ALL_DEAD, hands=["LION DOG CAT", "FOX"], deck="OWL COW ZEBRA")
    assert names(st.legal_moves) == {"dead:LION", "dead:DOG", "dead:CAT"}
    assert_illegal(st, "pass", "kids_must_play")


def test_the_refusal_past_three_names_the_limit() -> None:
    st = state("kids", 2, board=ALL_DEAD, hands=["LION DOG CAT", "FOX"], deck="OWL COW ZEBRA")
    push(st, "dead:LION", "dead:DOG", "dead:CAT")
    with pytest.raises(IllegalMoveError, match="at most 3 dead cards may be exchanged a turn"):
        st.push(Move.parse("dead:OWL"))


def test_a_position_records_the_exchanges_and_refuses_more_than_the_limit() -> None:
    st = state("kids", 2, board=ALL_DEAD, hands=["LION DOG CAT", "FOX"], deck="OWL COW ZEBRA")
    push(st, "dead:LION", "dead:DOG")
    text = st.position()
    assert " dead=2" in text and State.from_position(text) == st
    with pytest.raises(InvalidPositionError, match="at most 3 dead cards"):
        State.from_position(text.replace(" dead=2", " dead=4"))
    with pytest.raises(InvalidPositionError, match="at most 1 dead cards"):
        State.from_position(State.new(make_config("classic"), 1).position() + " dead=2")


def test_four_in_a_row_with_a_corner_three_chips_suffice() -> None:
    st = state("kids", 2, board={"a": "b1 c1"}, hands=["GIRAFFE", "FOX"])
    push(st, "GIRAFFE@d1")
    assert st.outcome.termination is Termination.SEQUENCES and st.outcome.winner == 0


def test_four_in_a_row_without_corner() -> None:
    st = state("kids", 3, board={"c": "b3 c3 d3"}, hands=["LION", "FOX", "FROG"], turn="3:play")
    assert not st.is_over()
    push(st, "FROG@e3")
    assert st.outcome.winner == 2


def test_three_in_a_row_is_not_enough() -> None:
    st = state("kids", 2, board={"a": "b3 c3"}, hands=["MONKEY", "FOX"])
    push(st, "MONKEY@d3")
    assert not st.is_over()


def test_kids_reshuffle() -> None:
    st = state("kids", 2, hands=["LION", "FOX"], rest="discards")
    assert st.deck_size == 0
    push(st, "LION@c1")
    assert st.deck_size == 42 - 2 and len(st.hand_of(0)) == 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_kids_colours(players: int) -> None:
    assert (
        make_config("kids", players).spec.colours[:players]
        == (
            "red",
            "yellow",
            "green",
            "blue",
        )[:players]
    )


def test_no_two_copies_in_any_winning_line_trivially() -> None:
    # every 4-window on the board exists in the geometry used by the engine
    st = State.new(make_config("kids", 2), 0)
    windows = st._t.geo.windows
    expected = 0
    for (dr, dc), r, c in itertools.product(((0, 1), (1, 0), (1, 1), (1, -1)), range(6), range(7)):
        if all(0 <= r + k * dr < 6 and 0 <= c + k * dc < 7 for k in range(4)):
            expected += 1
    assert len(windows) == expected
