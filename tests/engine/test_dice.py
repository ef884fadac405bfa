"""Sequence Dice (RULES.md §4): rolls, placing, replacing, defence, wild, extra turns."""

from __future__ import annotations

import pytest
from engine_testkit import assert_illegal, chips_of, names, push, state

from sequence.engine import CHANCE, DICE_BOARD, Move, Phase, State, Termination, make_config


def numbers() -> dict[int, set[str]]:
    from sequence.engine import space_name

    out: dict[int, set[str]] = {}
    for s, n in DICE_BOARD.labels.items():
        out.setdefault(n, set()).add(space_name(s))
    return out


def test_board_arrangement() -> None:
    nums = numbers()
    assert (DICE_BOARD.rows, DICE_BOARD.cols) == (6, 6) and DICE_BOARD.free == 0
    assert nums[2] == {"a1", "f1", "a6", "f6"}
    assert nums[12] == {"c3", "d3", "c4", "d4"}
    assert 10 not in nums and 11 not in nums
    for n in range(3, 10):
        assert len(nums[n]) == 4, n
    for s, n in DICE_BOARD.labels.items():
        if 3 <= n <= 9:
            r, c = divmod(s, 10)
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    other = (r + dr) * 10 + c + dc
                    if (dr or dc) and 0 <= r + dr < 6 and 0 <= c + dc < 6:
                        assert DICE_BOARD.labels[other] != n, f"two {n}s touch"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_start_roll_off_highest_starts_ties_roll_again(players: int) -> None:
    ties = 0
    for seed in range(60):
        st = State.new(make_config("dice", players), seed)
        setup = st.setup
        assert setup is not None and setup.dealer is None
        contenders = list(range(players))
        for rnd in setup.rolls:
            assert [seat for seat, _ in rnd] == contenders
            high = max(a + b for _, (a, b) in rnd)
            contenders = [seat for seat, (a, b) in rnd if a + b == high]
        assert contenders == [setup.first] == [st.to_move]
        ties += len(setup.rolls) > 1
    assert ties


def test_turn_starts_with_a_chance_roll() -> None:
    st = State.new(make_config("dice", 2), 5)
    assert st.is_chance() and st.actor() == CHANCE and st.phase is Phase.ROLL
    assert len(st.legal_moves) == 21
    assert abs(sum(p for _, p in st.chance_outcomes()) - 1) < 1e-12
    roll = st.sample_chance()
    assert roll == st.copy().sample_chance()
    st.push(roll)
    assert st.phase is Phase.ACT and st.roll == roll.dice
    assert_illegal(st, "roll:1+1", "no dice to roll now")


def act(roll: str, board: dict[str, str] | None = None, players: int = 2, seat: int = 1,
        **options: object) -> State:  # fmt: skip
    return state("dice", players, board=board, turn=f"{seat}:act", extras=f"roll={roll}", **options)


def test_place_on_an_empty_space_of_the_rolled_number() -> None:
    st = act("3+4", {"b": "a3"})
    assert names(st.legal_moves) == {"@f4", "@c5", "@e6"}
    assert_illegal(st, "@a3", "number_rule")
    assert_illegal(st, "@a1", "you rolled 7; a1 is a 2")
    assert_illegal(st, "=a3", "number_rule")
    push(st, "@f4")
    assert chips_of(st, 0) == {"f4"} and st.to_move == 1 and st.phase is Phase.ROLL


@pytest.mark.parametrize(("roll", "spaces"), [("3+4", "a3 f4 c5 e6"), ("1+1", "a1 f1 a6 f6"),
                                              ("6+6", "c3 d3 c4 d4")])  # fmt: skip
def test_all_four_covered_replace_an_opponent_chip(roll: str, spaces: str) -> None:
    first, *rest = spaces.split()
    st = act(roll, {"a": first, "b": " ".join(rest)})
    assert names(st.legal_moves) == {f"={s}" for s in rest}
    assert_illegal(st, f"={first}", "number_rule")
    push(st, f"={rest[0]}")
    assert st.chip_at(_sp(rest[0])) == 0
    assert st.supply(1) == 20 - (len(rest) - 1)  # the opponent's chip went home


def _sp(name: str) -> int:
    from sequence.engine import parse_space

    return parse_space(name)


def test_all_four_yours_is_a_pass() -> None:
    st = act("3+4", {"a": "a3 f4 c5 e6"})
    assert names(st.legal_moves) == {"pass"}
    assert_illegal(st, "@a3", "number_rule")
    push(st, "pass")
    assert st.to_move == 1


def test_ten_removes_except_from_two_and_twelve() -> None:
    st = act("4+6", {"a": "b2", "b": "a1 c3 b1 e5"})
    assert names(st.legal_moves) == {"xb1", "xe5"}
    assert_illegal(st, "xa1", "defence_target")
    assert_illegal(st, "xc3", "defence_target")
    assert_illegal(st, "xb2", "defence_target")
    push(st, "xe5")
    assert chips_of(st, 1) == {"a1", "c3", "b1"}


def test_ten_with_nothing_to_remove_is_a_pass() -> None:
    st = act("5+5", {"a": "b2", "b": "a1 c3"})
    assert names(st.legal_moves) == {"pass"}


def test_eleven_is_wild_and_replaces_on_a_full_board() -> None:
    st = act("5+6", {"a": "b2", "b": "a1"})
    assert len(st.legal_moves) == 34 and "@c3" in names(st.legal_moves)
    every = [f"{'abcdef'[c]}{r + 1}" for r in range(6) for c in range(6)]
    full = act("5+6", {"a": " ".join(every[:18]), "b": " ".join(every[18:])}, chips_per_colour=18)
    full2 = act(
        "5+6",
        {"a": " ".join(every[:17]), "b": " ".join(every[17:])},
        chips_per_colour=19,
    )
    # RULES.md §4: on a full board an 11 *may* replace an opponent chip ("peut"), or pass.
    assert names(full2.legal_moves) == {f"={s}" for s in every[17:]} | {"pass"}
    push(full2, "pass")
    assert full2.to_move == 1 and full2.chips[1].bit_count() == 19
    assert names(full.legal_moves) == {"pass"}  # A has no chip left to place


def test_two_and_twelve_give_another_turn() -> None:
    st = act("6+6", {})
    push(st, "@c3")
    assert st.to_move == 0 and st.phase is Phase.ROLL
    st = act("1+1", {})
    push(st, "@a1")
    assert st.to_move == 0


def test_extra_turn_even_without_a_placement() -> None:
    st = act("1+1", {"a": "a1 f1 a6 f6"})
    push(st, "pass")
    assert st.to_move == 0 and st.phase is Phase.ROLL


def test_other_rolls_pass_the_turn() -> None:
    st = act("2+3", {})
    push(st, "@d1")
    assert st.to_move == 1


def test_five_in_a_row_wins_no_free_spaces() -> None:
    st = act("6+6", {"a": "a1 b2 d4 e5"})
    push(st, "@c3")
    assert st.outcome.termination is Termination.SEQUENCES and st.outcome.winner == 0
    st = act("2+3", {"a": "a1 b1 c1"})  # the corner is a 2, not free
    push(st, "@d1")
    assert not st.is_over()


def test_lines_go_across_and_down_too() -> None:
    st = act("1+2", {"a": "a2 b2 c2 d2"})  # row 2: 4 9 3 4 3
    push(st, "@e2")
    assert st.outcome.winner == 0
    st = act("4+5", {"b": "e1 e2 e3 e4"}, seat=2)  # column e: 6 3 5 9 8
    assert "@e5" not in {str(m) for m in st.legal_moves}
    st = act("4+4", {"b": "e1 e2 e3 e4"}, seat=2)
    push(st, "@e5")
    assert st.outcome.winner == 1


def test_line_length_six() -> None:
    board = {"a": "a1 b2 d4 e5"}
    st = act("6+6", board, dice_line_length=6)
    push(st, "@c3")
    assert not st.is_over()
    st = act("6+6", {"a": "a1 b2 d4 e5 f6"}, dice_line_length=6)
    push(st, "@c3")
    assert st.outcome.winner == 0


def test_four_players_two_teams() -> None:
    st = act("3+4", {"a": "a3 f4 c5", "b": "e6"}, players=4, seat=3)
    assert names(st.legal_moves) == {"=e6"}
    push(st, "=e6")
    assert chips_of(st, 0) == {"a3", "f4", "c5", "e6"} and st.to_move == 3


def test_chips_run_out_skip_placement_removal_still_works() -> None:
    st = act("3+4", {"a": "b2 b1", "b": "e5"}, chips_per_colour=2)
    assert names(st.legal_moves) == {"pass"}
    assert_illegal(st, "@a3", "no chips left")
    st = act("4+6", {"a": "b2 b1", "b": "e5"}, chips_per_colour=2)
    assert names(st.legal_moves) == {"xe5"}


def test_cards_and_card_moves_refused_at_dice() -> None:
    st = act("3+4", {})
    assert_illegal(st, "5H@a3", "Sequence Dice has no cards")
    assert_illegal(st, "dead:5H", "not a move in Sequence Dice")
    assert_illegal(st, "@a3", "not your turn", seat=1)
    st2 = state("dice", 2)
    assert_illegal(st2, "@a3", "the dice must be rolled first")
    assert Move.parse("roll:2+3") in st2.legal_moves


def test_a_deep_copied_dice_game_plays_on_like_the_original() -> None:
    import copy

    from sequence.engine import play_random_game

    state = State.new(make_config("dice", players=2), seed=11)
    state.push(state.sample_chance())
    clone = copy.deepcopy(state)  # OpenSpiel clones Python states this way
    assert clone == state
    assert play_random_game(clone, 3).outcome == play_random_game(state, 3).outcome
