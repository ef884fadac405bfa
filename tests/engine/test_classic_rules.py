"""Classic Sequence, rule by rule (RULES.md §1 and §2), each from a position in notation."""

from __future__ import annotations

import pytest
from engine_testkit import (
    assert_illegal,
    cards,
    chips_of,
    names,
    position,
    push,
    seq_names,
    state,
)

from sequence.engine import (
    CLASSIC_BOARD,
    Move,
    Outcome,
    Phase,
    State,
    Step,
    StepKind,
    Termination,
    make_config,
)
from sequence.engine.cards import card_rank, parse_card
from sequence.engine.state import count_cards

EMPTY = 96  # playable spaces on the classic board

# --- set-up: the cut for dealer and the deal (§2.3) -----------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 6, 8, 9, 10, 12])
def test_cut_for_dealer_lowest_deals_aces_high_ties_cut_again(players: int) -> None:
    tied_rounds = 0
    for seed in range(40):
        st = State.new(make_config("classic", players), seed)
        setup = st.setup
        assert setup is not None and setup.cuts
        contenders = list(range(players))
        for rnd in setup.cuts:
            assert [seat for seat, _ in rnd] == contenders  # only the tied seats cut again
            low = min(card_rank(c) for _, c in rnd)
            contenders = [seat for seat, c in rnd if card_rank(c) == low]
        assert contenders == [setup.dealer]
        tied_rounds += len(setup.cuts) > 1
        assert setup.first == (setup.dealer + 1) % players  # left of the dealer starts
        assert st.to_move == setup.first
    if players >= 4:
        assert tied_rounds, "some seed should show a tie cut again"


def test_aces_are_high_in_the_cut() -> None:
    assert card_rank(parse_card("AS")) == 12 > card_rank(parse_card("KS"))
    assert card_rank(parse_card("2C")) == 0


@pytest.mark.parametrize("players", [2, 3, 4, 12])
def test_deal_by_the_table_starting_left_of_dealer(players: int) -> None:
    st = State.new(make_config("classic", players), seed=11)
    first = st.setup.first  # type: ignore[union-attr]
    size = len(st.hand_of(0))
    deck = st._deck  # white box: the whole shuffled deck, dealt from the top
    for i in range(size * players):
        assert st.hand_of((first + i) % players)[i // players] == deck[i]
    assert State.new(make_config("classic", players), seed=11) == st  # same seed, same game


# --- playing cards (§2.4) ----------------------------------------------------------------------


def test_ordinary_card_goes_on_either_of_its_two_spaces() -> None:
    st = state(hands=["5H", "2S"])
    assert names(st.legal_moves) == {"5H@e5", "5H@i7"}
    push(st, "5H@i7")
    assert chips_of(st, 0) == {"i7"} and st.discards[0] == cards("5H")
    assert st.to_move == 1


def test_ordinary_card_with_one_space_taken() -> None:
    st = state(board={"b": "e5"}, hands=["5H", "2S"])
    assert names(st.legal_moves) == {"5H@i7"}
    assert_illegal(st, "5H@e5", "e5 is taken")
    assert_illegal(st, "5H@a2", "wrong_space")


def test_two_eyed_jack_goes_on_any_empty_space_but_not_a_corner() -> None:
    st = state(board={"a": "b2", "b": "c3 d4"}, hands=["JD", "2S"])
    moves = st.legal_moves
    assert len(moves) == EMPTY - 3
    assert "JD@b2" not in names(moves) and "JD@e5" in names(moves)
    assert_illegal(st, "JD@a1", "a1 is a free corner")
    assert_illegal(st, "JD@c3", "c3 is taken")
    st2 = state(hands=["JC", "2S"])
    assert len(st2.legal_moves) == EMPTY


def test_one_eyed_jack_removes_an_unlocked_opponent_chip_and_ends_the_turn() -> None:
    st = state(
        board={"a": "b2", "b": "a2 a3 a4 a5 c3"},
        seqs="B:a1-a5",
        hands=["JS", "2S"],
        deck="9H",
    )
    assert names(st.legal_moves) == {"JSxc3"}
    assert_illegal(st, "JSxb2", "your own team's")
    assert_illegal(st, "JSxa3", "part of a completed sequence")
    assert_illegal(st, "JSxe5", "there is no chip on e5")
    assert_illegal(st, "JS@e5", "removes a chip; it does not place one")
    supply = st.supply(1)
    push(st, "JSxc3")
    assert st.chip_at(44 - 22) is None and "c3" not in chips_of(st, 1)
    assert st.supply(1) == supply + 1  # the chip goes back to its owner
    assert st.to_move == 1 and st.hand_of(0) == cards("9H")  # turn over, card drawn


def test_one_eyed_jack_cannot_place_and_two_eyed_cannot_remove() -> None:
    st = state(board={"b": "c3"}, hands=["JD JH", "2S"])
    assert_illegal(st, "JDxc3", "only a one-eyed Jack or a Dragon removes")
    assert_illegal(st, "JH@e5", "removes a chip")


def test_jacks_may_be_played_with_a_normal_alternative() -> None:
    st = state(board={"b": "c3"}, hands=["5H JD JH", "2S"])
    got = names(st.legal_moves)
    assert {"5H@e5", "5H@i7", "JD@e5", "JHxc3"} <= got


def test_dead_card_exchange_then_the_turn_goes_on() -> None:
    st = state(board={"a": "e5", "b": "i7"}, hands=["5H 2S", "3S"], deck="9H 8H")
    assert "dead:5H" in names(st.legal_moves)
    push(st, "dead:5H")
    assert st.hand_of(0) == cards("2S 9H") and st.discards[0] == cards("5H")
    assert st.to_move == 0 and st.phase is Phase.PLAY and st.dead_card_exchanged
    assert "dead:5H" not in names(st.legal_moves)
    push(st, "2S@b1")
    assert st.to_move == 1 and not st.dead_card_exchanged and st.hand_of(0) == cards("9H 8H")


def test_only_one_dead_card_a_turn() -> None:
    st = state(board={"a": "e5 b1", "b": "i7 g9"}, hands=["5H 2S 7C", "3S"], deck="9H")
    assert {"dead:5H", "dead:2S"} <= names(st.legal_moves)
    push(st, "dead:5H")
    assert_illegal(st, "dead:2S", "only one dead card may be exchanged a turn")


def test_a_card_is_dead_only_when_both_spaces_are_covered() -> None:
    st = state(board={"a": "e5"}, hands=["5H JD", "3S"])
    assert_illegal(st, "dead:5H", "not_dead")
    assert_illegal(st, "dead:JD", "JD is never dead")
    assert_illegal(st, "dead:9H", "you do not hold 9H")


def test_draw_is_automatic_by_default() -> None:
    st = state(hands=["5H 6H", "3S"], deck="KC QC")
    push(st, "5H@e5")
    assert st.hand_of(0) == cards("6H KC") and st.deck_size == 104 - 4
    assert st.pending_draws == ()
    assert_illegal(st, "draw:1", "drawn automatically")


# --- manual draw and the loss of card (§2.5) ---------------------------------------------------


def manual(players: int = 3) -> State:
    hands = ["5H 6H", "2S 3S", "4S 5S"][:players]
    return state("classic", players, hands=hands, deck="KC QC JC TC", manual_draw=True)


def test_manual_draw_is_a_separate_action() -> None:
    st = manual()
    push(st, "5H@e5")
    assert st.hand_of(0) == cards("6H") and st.pending_draws == (0,) and st.to_move == 1
    assert Move.parse("draw:1") in st.legal_moves_of(0)
    assert st.legal_moves_of(2) == ()
    assert_illegal(st, "draw:1", "only draw for yourself", seat=1)
    push(st, "draw:1", seat=0)
    assert st.hand_of(0) == cards("6H KC") and st.pending_draws == ()
    assert_illegal(st, "draw:1", "no draw to take")


def test_draw_still_allowed_after_next_player_played_but_not_drew() -> None:
    st = manual()
    push(st, "5H@e5", "2S@b1")
    assert st.pending_draws == (0, 1)
    push(st, "draw:1")
    assert st.hand_of(0) == cards("6H KC")


def test_draw_lapses_when_the_next_player_has_played_and_drawn() -> None:
    st = manual()
    push(st, "5H@e5", "2S@b1", "draw:2")
    assert st.pending_draws == ()
    assert_illegal(st, "draw:1", "lapsed")
    assert st.hand_of(0) == cards("6H")  # plays on with fewer cards
    assert st.hand_of(1) == cards("3S KC")


def test_two_players_a_draw_is_still_open_while_the_next_player_has_not_drawn() -> None:
    # RULES.md §2.5: A's draw lapses only once B has played *and* drawn, not when B plays.
    st = manual(players=2)
    push(st, "5H@e5", "2S@b1")
    assert st.to_move == 0 and st.pending_draws == (0, 1)
    push(st, "draw:1", seat=0)  # A draws late, but in time
    assert st.hand_of(0) == cards("6H KC") and st.pending_draws == (1,)


def test_two_players_a_draw_lapses_once_the_next_player_has_played_and_drawn() -> None:
    st = manual(players=2)
    push(st, "5H@e5", "2S@b1", "draw:2")
    assert st.pending_draws == ()
    assert_illegal(st, "draw:1", "no_draw_due", seat=0)
    assert st.hand_of(0) == cards("6H")


def test_a_draw_left_for_later_lets_the_next_seat_move() -> None:
    # A person at a real table may draw late: the driver then passes the waiting draw by.
    st = manual(players=3)
    push(st, "5H@e5")
    assert st.next_step() == Step(StepKind.DRAW, 0)
    assert st.next_step(waiting={0}) == Step(StepKind.MOVE, 1)
    push(st, "2S@b1", seat=1)
    assert st.next_step(waiting={0}) == Step(StepKind.DRAW, 1)
    assert st.next_step(waiting={0, 1}) == Step(StepKind.MOVE, 2)


def test_two_players_a_draw_stays_open_while_the_next_player_has_played_but_not_drawn() -> None:
    # RULES.md §2.5, 2 players: A plays, B plays without drawing, A plays again. B has not
    # drawn, so A's first draw has not lapsed: A holds two open draws.
    st = manual(players=2)
    push(st, "5H@e5", "2S@b1", "6H@d5")
    assert st.pending_draws == (0, 1, 0)
    assert st.next_step() == Step(StepKind.DRAW, 0)
    push(st, "draw:1", seat=0)  # A takes its first draw, in time
    assert st.hand_of(0) == cards("KC")
    # A has now played (after B's play) and drawn: B's draw lapses; A's second stays open.
    assert st.pending_draws == (0,)
    assert_illegal(st, "draw:2", "no_draw_due", seat=1)
    push(st, "draw:1", seat=0)
    assert st.hand_of(0) == cards("KC QC") and st.pending_draws == ()


def test_two_players_the_older_draw_lapses_once_the_next_player_has_drawn() -> None:
    st = manual(players=2)
    push(st, "5H@e5", "2S@b1", "6H@d5", "draw:2")
    # B has played (after A's first play) and drawn: that draw lapses; the second stays.
    assert st.pending_draws == (0,) and st.hand_of(1) == cards("3S KC")
    push(st, "draw:1", seat=0)
    assert st.hand_of(0) == cards("QC") and st.pending_draws == ()


# --- table talk (§2.6) ----------------------------------------------------------------------------


def test_table_talk_penalty_every_member_forfeits_a_card_of_their_choice() -> None:
    st = state("classic", 4, hands=["5H", "2S 3S", "4S", "6S 7S"], deck="KC")
    assert st.penalty_allowed(1) is None
    deck = st.deck_size
    push(st, "penalty:B")
    assert st.phase is Phase.FORFEIT and st.forfeits_due == (1, 3) and st.to_move == 1
    assert names(st.legal_moves) == {"forfeit:2S", "forfeit:3S"}
    assert_illegal(st, "5H@e5", "penalty is due", seat=None)
    assert_illegal(st, "forfeit:4S", "you do not hold 4S")
    push(st, "forfeit:3S", seat=1)
    assert st.to_move == 3
    assert_illegal(st, "forfeit:7S", "not your turn", seat=1)
    push(st, "forfeit:6S", seat=3)
    assert st.phase is Phase.PLAY and st.to_move == 0 and st.forfeits_due == ()
    assert st.hand_of(1) == cards("2S") and st.hand_of(3) == cards("7S")  # not replaced
    assert st.discards[1] == cards("3S") and st.discards[3] == cards("6S")
    assert st.deck_size == deck
    assert count_cards(st) == count_cards(State.from_position(st.position()))


def test_table_talk_only_in_team_games() -> None:
    for game, players, why in [
        ("classic", 2, "play alone have no team-mates"),
        ("classic", 3, "play alone have no team-mates"),
        ("kids", 2, "rule of classic"),
    ]:
        hands = ["LION", "CAT", "DOG"] if game == "kids" else ["5H", "6H", "7H"]
        st = state(game, players, hands=hands[:players])
        assert st.penalty_allowed(0) is not None
        assert_illegal(st, "penalty:A", why)


def test_penalty_skips_members_without_cards_and_no_team_c_in_two_teams() -> None:
    st = state("classic", 4, hands=["5H", "", "4S", "6S"])
    assert_illegal(st, "penalty:C", "no such team")
    push(st, "penalty:B")
    assert st.forfeits_due == (3,)
    st2 = state("classic", 4, hands=["5H", "", "4S", ""])
    assert_illegal(st2, "penalty:B", "nobody in team B holds a card")


# --- no legal play, reshuffle, stalemate, max turns (§2.7, §2.9) --------------------------------


def test_no_legal_play_discard_a_card_of_choice_then_draw() -> None:
    st = state(hands=["JS JH", "2S"], deck="9H")
    assert names(st.legal_moves) == {"discard:JS", "discard:JH"}
    push(st, "discard:JH")
    assert st.hand_of(0) == cards("JS 9H") and st.discards[0] == cards("JH") and st.to_move == 1


def test_no_legal_play_with_a_dead_card_offers_the_exchange_too() -> None:
    st = state(board={"a": "e5 i7"}, hands=["JS 5H", "2S"], deck="9H")
    assert names(st.legal_moves) == {"dead:5H", "discard:JS", "discard:5H"}


def test_discard_refused_when_a_card_can_be_played() -> None:
    st = state(hands=["5H JS", "2S"])
    assert_illegal(st, "discard:JS", "you can play a card")
    assert_illegal(st, "pass", "you hold cards")


def test_reshuffle_when_the_draw_pile_is_empty() -> None:
    text = position(hands=["5H", "2S"], rest="discards")
    st = State.from_position(text)
    assert st.deck_size == 0
    before = count_cards(st)
    push(st, "5H@e5")
    assert st.deck_size == 104 - 2 and all(st.discards[s] == () for s in range(2))
    assert len(st.hand_of(0)) == 1
    assert count_cards(st) == before  # the played 5H went into the new pile too
    st.pop()
    assert st.position() == State.from_position(text).position()


def test_a_round_of_passes_does_not_end_the_game() -> None:
    # RULES.md §2.9: the reshuffle brings cards back, so play goes on until someone wins.
    st = state(hands=["JS", "JH"], deck="JS JH")
    push(st, "discard:JS", "discard:JH", "discard:JS", "discard:JH")
    assert not st.is_over() and st.passes == 4


def test_a_position_that_can_never_change_ends_drawn_at_the_next_pass() -> None:
    # Both teams have placed their last chip and every chip is in a completed sequence: no
    # card can place or remove a chip ever again.
    st = state(
        board={"a": "b1 c1 d1 e1 f1", "b": "b3 c3 d3 e3 f3"},
        seqs="A:b1-f1,B:b3-f3",
        hands=["JS", "JH"],
        deck="5H",
        chips_per_colour=5,
    )
    assert not st.is_over()
    push(st, "discard:JS")
    assert st.outcome == Outcome(Termination.STALEMATE, None)


def test_one_removable_chip_keeps_the_game_going() -> None:
    st = state(
        board={"a": "b1 c1 d1 e1 f1", "b": "b3 c3 d3 e3 a5"},
        seqs="A:b1-f1",
        hands=["2S", "JH"],
        deck="5H",
        chips_per_colour=5,
    )
    push(st, "discard:2S")
    assert not st.is_over()


def test_a_play_resets_the_pass_count() -> None:
    st = state(hands=["JS", "2S"], deck="5H JH")
    push(st, "discard:JS", "2S@b1")
    assert st.position().find("passes=") == -1


def test_max_turns_ends_drawn() -> None:
    st = state(hands=["5H 6H", "2S 3S"], max_turns=3)
    push(st, "5H@e5", "2S@b1")
    assert not st.is_over()
    push(st, "6H@d5")
    assert st.outcome.termination is Termination.MAX_TURNS and st.outcome.winner is None
    assert_illegal(st, "3S@c1", "game_over")
    assert st.legal_moves == ()


# --- chips (§2.1) ------------------------------------------------------------------------------


def test_empty_supply_cannot_place_but_may_remove_or_exchange() -> None:
    st = state(
        board={"a": "e5 i7", "b": "c3"},
        hands=["5H 6H JD JS", "2S"],
        chips_per_colour=2,
    )
    assert st.supply(0) == 0
    assert names(st.legal_moves) == {"JSxc3", "dead:5H"}
    assert_illegal(st, "6H@d5", "team A has no chips left to place")
    assert_illegal(st, "JD@b2", "no chips left")
    push(st, "dead:5H", "JSxc3")
    assert st.to_move == 1


def test_empty_supply_and_nothing_to_remove_discards() -> None:
    st = state(board={"a": "e5"}, hands=["6H JD", "2S"], chips_per_colour=1)
    assert names(st.legal_moves) == {"discard:6H", "discard:JD"}


def test_us_chips() -> None:
    st = State.new(make_config("classic", 3, chips_per_colour="us"), 1)
    assert [st.supply(t) for t in range(3)] == [50, 50, 35]


# --- sequences (§1) -------------------------------------------------------------------------------


def test_free_corners_count_for_every_team() -> None:
    st = state(board={"a": "b1 c1 d1", "b": "f1 g1 h1"}, hands=["5S 2H", "9S"])
    push(st, "5S@e1")
    assert seq_names(st, 0) == ["a1-e1"] and not st.is_over()
    push(st, "9S@i1")
    assert seq_names(st, 1) == ["f1-j1"]


def test_a_corner_may_be_in_two_sequences_of_one_team() -> None:
    st = state(board={"a": "b1 c1 d1 e1 a2 a3 a4"}, seqs="A:a1-e1", hands=["9C", "2S"])
    push(st, "9C@a5")
    assert seq_names(st, 0) == ["a1-e1", "a1-a5"]
    assert st.outcome.winner == 0


def test_second_sequence_may_share_one_space() -> None:
    st = state(board={"a": "a4 b4 c4 d4 e4 f4 g4"}, seqs="A:a4-e4", hands=["8D 8H", "2S"])
    push(st, "8D@h4")  # d4-h4 shares d4 and e4: only an extension
    assert seq_names(st, 0) == ["a4-e4"] and not st.is_over()
    push(st, "2S@b1", seat=1)
    push(st, "8H@i4")  # e4-i4 shares only e4: a second sequence
    assert seq_names(st, 0) == ["a4-e4", "e4-i4"]
    assert st.outcome.termination is Termination.SEQUENCES and st.outcome.winner == 0


@pytest.mark.parametrize(
    ("run", "gap", "count"),
    [
        ("a3 b3 c3 d3 f3", "e3", 1),
        ("a3 b3 c3 d3 f3 g3", "e3", 1),
        ("a3 b3 c3 d3 f3 g3 h3", "e3", 1),
        ("a3 b3 c3 d3 f3 g3 h3 i3", "e3", 2),
        ("b3 c3 d3 f3 g3 h3 i3", "e3", 1),
        ("b3 c3 d3 e3 g3 h3 i3", "f3", 1),
    ],
)
def test_runs_of_six_to_nine(run: str, gap: str, count: int) -> None:
    card = CLASSIC_BOARD.label_name(int((ord(gap[0]) - 97) + (int(gap[1:]) - 1) * 10))
    st = state(board={"a": run}, hands=[card, "2S"])
    push(st, f"{card}@{gap}")
    assert len(st.sequence_spaces(0)) == count
    assert st.is_over() == (count == 2)


def test_run_of_ten_makes_two_sequences() -> None:
    st = state(board={"a": "a4 b4 c4 d4 f4 g4 h4 i4 j4"}, seqs="A:f4-j4", hands=["4C", "2S"])
    push(st, "4C@e4")
    assert seq_names(st, 0) == ["f4-j4", "a4-e4"] and st.outcome.winner == 0


def test_one_placement_completing_two_sequences_wins_on_the_spot() -> None:
    st = state(board={"a": "a3 b3 c3 d3 e1 e2 e4 e5"}, hands=["4D", "2S"])
    push(st, "4D@e3")
    assert sorted(seq_names(st, 0)) == ["a3-e3", "e1-e5"]
    assert st.outcome.termination is Termination.SEQUENCES and st.outcome.winner == 0


def test_which_five_leaves_room_for_a_second_sequence() -> None:
    # A run d1..i1: d1-h1 is the top-left window, but e1-i1 leaves a1-e1 open (sharing e1).
    st = state(board={"a": "d1 e1 f1 g1 i1"}, hands=["8S", "2S"])
    push(st, "8S@h1")
    assert seq_names(st, 0) == ["e1-i1"]


def test_which_five_tie_goes_top_left() -> None:
    st = state(board={"a": "c1 d1 e1 f1"}, hands=["2S", "3S"])
    push(st, "2S@b1")  # a1-e1 and b1-f1 both complete and leave equal room
    assert seq_names(st, 0) == ["a1-e1"]


def test_two_sides_need_two_sequences_three_need_one() -> None:
    st = state(board={"a": "b1 c1 d1"}, hands=["5S", "2H"])
    push(st, "5S@e1")
    assert len(st.sequence_spaces(0)) == 1 and not st.is_over()
    st3 = state("classic", 3, board={"a": "b1 c1 d1"}, hands=["5S", "2H", "3H"])
    push(st3, "5S@e1")
    assert st3.outcome.winner == 0
    st6 = state("classic", 6, teams=3, board={"c": "b1 c1 d1"}, turn="3:play",
                hands=["2H", "3H", "5S", "4H", "6H", "7H"])  # fmt: skip
    push(st6, "5S@e1")
    assert st6.outcome.winner == 2 and st6.returns() == [-1, -1, 1, -1, -1, 1]


# --- the difficult variant (§2.8) -----------------------------------------------------------------


def test_difficult_one_eyed_jack_breaks_a_sequence() -> None:
    base = {"a": "b2", "b": "a2 a3 a4 a5"}
    plain = state(board=base, seqs="B:a1-a5", hands=["JS", "2S"])
    assert_illegal(plain, "JSxa3", "part of a completed sequence")
    st = state(board=base, seqs="B:a1-a5", hands=["JS", "2S"], difficult=True)
    assert "JSxa3" in names(st.legal_moves)
    push(st, "JSxa3")
    assert st.sequence_spaces(1) == () and chips_of(st, 1) == {"a2", "a4", "a5"}
    assert_illegal(st, "JSxb2", "not your turn", seat=0)


def test_difficult_a_run_still_five_long_counts_again() -> None:
    st = state(board={"b": "b2 c2 d2 e2 f2 g2"}, seqs="B:b2-f2", hands=["JH", "2S"], difficult=True)
    push(st, "JHxb2")
    assert seq_names(st, 1) == ["c2-g2"]


# --- illegal moves in general ---------------------------------------------------------------------


def test_not_your_turn_and_cards_not_held() -> None:
    st = state(hands=["5H", "2S"])
    assert_illegal(st, "2S@b1", "not_your_turn", seat=1)
    assert_illegal(st, "2S@b1", "you do not hold 2S")
    assert_illegal(st, "pick:5H", "no_pick_due")
    assert_illegal(st, "forfeit:5H", "no_forfeit_due")
    assert_illegal(st, "roll:3+4", "no dice to roll")
    assert_illegal(st, "=e5", "you do not hold|not a move|name the card")
    st.push(Move.parse("5H@e5"), seat=0)
