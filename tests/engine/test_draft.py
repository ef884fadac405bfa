"""The draft tournament variant: six cards, five face up, the heart of the board."""

from __future__ import annotations

from engine_testkit import assert_illegal, cards, names, push, state

from sequence.engine import Phase, State, Termination, make_config
from sequence.engine.state import count_cards

DRAFT = "draft=9C,9D,9H,9S,TC"


def test_new_draft_game() -> None:
    st = State.new(make_config("classic", 4, draft=True), 3)
    assert all(len(st.hand_of(s)) == 6 for s in range(4))
    assert len(st.draft) == 5 and st.deck_size == 104 - 24 - 5
    assert sum(count_cards(st).values()) == 104


def test_pick_after_playing_then_the_turn_passes() -> None:
    st = state(hands=["5H 6H", "2S"], deck="KC QC", extras=DRAFT, draft=True)
    push(st, "5H@e5")
    assert st.phase is Phase.PICK and st.to_move == 0
    assert names(st.legal_moves) == {f"pick:{c}" for c in ["9C", "9D", "9H", "9S", "TC"]}
    assert_illegal(st, "6H@d5", "take one of the face-up cards")
    assert_illegal(st, "pick:KC", "KC is not among the face-up cards")
    push(st, "pick:9H")
    assert st.hand_of(0) == cards("6H 9H") and st.draft == cards("9C 9D 9S TC KC")
    assert st.to_move == 1 and st.phase is Phase.PLAY
    assert st.view(1).known_hands[0] == cards("9H")  # taken face up: public


def test_dead_card_traded_for_a_draft_card_once_a_turn() -> None:
    st = state(board={"a": "e5", "b": "i7 b1 g9"}, hands=["5H 2S 6H", "3S"], deck="KC",
               extras=DRAFT, draft=True)  # fmt: skip
    push(st, "dead:5H")
    assert st.phase is Phase.PICK_DEAD and st.to_move == 0
    push(st, "pick:TC")
    assert st.phase is Phase.PLAY and st.to_move == 0 and st.hand_of(0) == cards("2S 6H TC")
    assert_illegal(st, "dead:2S", "only one dead card")


def test_heart_of_the_board_wins_at_once() -> None:
    st = state(board={"a": "e5 f5 e6"}, hands=["3H", "2S"], extras=DRAFT, draft=True)
    push(st, "3H@f6")
    assert st.outcome.termination is Termination.HEART and st.outcome.winner == 0


def test_heart_needs_all_four_of_one_team() -> None:
    st = state(board={"a": "e5 f5", "b": "e6"}, hands=["3H", "2S"], extras=DRAFT, draft=True)
    push(st, "3H@f6")
    assert not st.is_over()


def test_heart_is_not_a_rule_outside_draft() -> None:
    st = state(board={"a": "e5 f5 e6"}, hands=["3H", "2S"])
    push(st, "3H@f6")
    assert not st.is_over()


def test_with_the_deck_empty_the_row_shrinks_and_play_goes_on() -> None:
    st = state(hands=["5H 6H", "2S"], extras=DRAFT, rest="discards", draft=True)
    assert st.deck_size == 0
    push(st, "5H@e5", "pick:9C")
    assert not st.is_over() and st.to_move == 1 and st.phase is Phase.PLAY
    assert st.draft == cards("9D 9H 9S TC") and st.hand_of(0) == cards("6H 9C")


def test_taking_the_last_face_up_card_ends_the_game_drawn_when_sequences_are_level() -> None:
    st = state(hands=["5H", "2S"], extras="draft=9C", rest="discards", draft=True)
    push(st, "5H@e5")
    assert not st.is_over()
    push(st, "pick:9C")
    assert st.outcome.termination is Termination.DRAFT_EMPTY and st.outcome.winner is None
    assert st.draft == () and not st.legal_moves


def test_the_side_with_more_sequences_wins_when_the_row_runs_out() -> None:
    st = state(board={"a": "b1 c1 d1 e1", "b": "c3 d3"}, seqs="A:a1-e1", hands=["5H", "2S"],
               turn="2:play", extras="draft=9C", rest="discards", draft=True)  # fmt: skip
    push(st, "2S@g9", "pick:9C")
    assert st.outcome.termination is Termination.DRAFT_EMPTY and st.outcome.winner == 0


def test_a_dead_card_trade_that_takes_the_last_face_up_card_ends_the_game() -> None:
    st = state(board={"a": "e5", "b": "i7 b1 g9"}, seqs="-", hands=["5H 2S", "3S"],
               extras="draft=TC", rest="discards", draft=True)  # fmt: skip
    push(st, "dead:5H")
    assert st.phase is Phase.PICK_DEAD and not st.is_over()
    push(st, "pick:TC")
    assert st.outcome.termination is Termination.DRAFT_EMPTY and st.outcome.winner is None
    st.pop()
    assert st.phase is Phase.PICK_DEAD and st.draft == cards("TC") and not st.is_over()


def test_last_deck_card_refills_the_draft_and_play_goes_on() -> None:
    text_rest = state(hands=["5H", "2S"], deck="KC", extras=DRAFT, rest="discards", draft=True)
    push(text_rest, "5H@e5", "pick:9C")
    assert not text_rest.is_over() and text_rest.deck_size == 0 and len(text_rest.draft) == 5
