"""The greedy bot's evaluation does what a good casual player does."""

from __future__ import annotations

import pytest

from sequence.bots.greedy import CasualBot, GreedyBot
from sequence.bots.heuristic import REMOVER_COST, WILD_COST, Evaluator
from sequence.engine import Move, State, make_config, parse_space

CLASSIC = make_config("classic", 2)
EV = Evaluator(CLASSIC)


def bits(*names: str) -> int:
    return sum(1 << parse_space(n) for n in names)


NO_SEQS: tuple[tuple[int, ...], ...] = ((), ())


def test_completing_a_line_with_a_corner_beats_everything_else() -> None:
    chips = (bits("b1", "c1", "d1"), bits("e5", "f5"))
    complete = EV.place_value(chips, NO_SEQS, 0, parse_space("e1"))
    elsewhere = EV.place_value(chips, NO_SEQS, 0, parse_space("g6"))
    assert complete >= 1000 > elsewhere


def test_blocking_a_four_beats_building_a_three() -> None:
    chips = (bits("c3", "d3"), bits("b7", "c7", "d7", "e7"))
    block = max(EV.place_value(chips, NO_SEQS, 0, parse_space(s)) for s in ("a7", "f7"))
    build = EV.place_value(chips, NO_SEQS, 0, parse_space("e3"))
    assert block > build


def test_a_space_serving_two_lines_is_worth_more() -> None:
    chips = (bits("c3", "d3", "e5", "e6"), 0)
    crossing = EV.place_value(chips, NO_SEQS, 0, parse_space("e3"))
    single = EV.place_value(chips, NO_SEQS, 0, parse_space("f3")) - 0.0
    assert crossing > single


def test_jacks_are_kept_unless_they_win_or_block() -> None:
    chips = (bits("c3"), bits("h8"))
    wild = EV.move_value(Move.parse("JD@d3"), chips, NO_SEQS, 0)
    plain = EV.move_value(Move.parse("3D@d3"), chips, NO_SEQS, 0)
    assert plain - wild == WILD_COST
    # A two-eyed Jack that completes a sequence is worth its cost.
    chips = (bits("b1", "c1", "d1"), 0)
    assert EV.move_value(Move.parse("JD@e1"), chips, NO_SEQS, 0) > EV.move_value(
        Move.parse("3D@d3"), chips, NO_SEQS, 0
    )


def test_a_one_eyed_jack_goes_on_the_most_dangerous_chip() -> None:
    chips = (bits("a10"), bits("b7", "c7", "d7", "e7", "h2"))
    four = EV.move_value(Move.parse("JSxc7"), chips, NO_SEQS, 0)
    lone = EV.move_value(Move.parse("JSxh2"), chips, NO_SEQS, 0)
    assert four > lone and lone < 0 < four + REMOVER_COST


def test_greedy_exchanges_a_dead_card_and_discards_the_worst() -> None:
    state = State.new(CLASSIC, seed=1)
    bot = GreedyBot(seed=0)
    for _ in range(60):
        view = state.view(state.to_move)
        move = bot.choose(view)
        dead = [m for m in view.legal_moves if m.kind.name == "DEAD"]
        if dead:
            assert move.kind.name == "DEAD"
        state.push(move)
        if state.is_over():
            break


def test_greedy_plays_the_move_its_evaluation_ranks_best() -> None:
    kids = make_config("kids", 2)
    state = State.new(kids, seed=2)
    view = state.view(state.to_move)
    move = GreedyBot(0).choose(view)
    assert move in view.legal_moves
    ev = Evaluator(kids)
    team = view.team
    assert team is not None
    values = [ev.move_value(m, view.chips, view.sequences, team) for m in view.legal_moves]
    assert ev.move_value(move, view.chips, view.sequences, team) == max(values)


def _positions(count: int) -> list[State]:
    """Positions from greedy games, a few plies apart."""
    out: list[State] = []
    bot = GreedyBot(seed=5)
    seed = 0
    while len(out) < count:
        state = State.new(CLASSIC, seed)
        seed += 1
        while not state.is_over() and len(out) < count:
            state.push(bot.choose(state.view(state.to_move)))
            if state.turns % 4 == 0 and not state.is_over():
                out.append(state.copy())
    return out


def test_casual_plays_legal_moves_and_sometimes_misses_the_best() -> None:
    positions = _positions(60)
    missed = 0
    for i, state in enumerate(positions):
        view = state.view(state.to_move)
        team = state.to_move % CLASSIC.teams
        values = {m: EV.move_value(m, view.chips, view.sequences, team) for m in view.legal_moves}
        casual = CasualBot(seed=i, notice=0.3).choose(view)
        assert casual in view.legal_moves
        missed += values[casual] < max(values.values()) - 1e-9
    assert 0 < missed < len(positions)


def test_casual_noticing_everything_plays_as_well_as_greedy() -> None:
    for i, state in enumerate(_positions(30)):
        view = state.view(state.to_move)
        team = state.to_move % CLASSIC.teams
        best = max(EV.move_value(m, view.chips, view.sequences, team) for m in view.legal_moves)
        move = CasualBot(seed=i, notice=1.0).choose(view)
        assert EV.move_value(move, view.chips, view.sequences, team) == best


def test_casual_refuses_a_probability_of_nothing() -> None:
    with pytest.raises(ValueError, match="notice"):
        CasualBot(notice=0)


# An opponent's open four on row 7 (b7-e7, a7 and f7 empty): team a to move with a one-eyed Jack,
# the card of f7 (TH) and a spare. Blocking one end leaves the other open; the Jack breaks it.
OPEN_FOUR = (
    "classic/2 *........*/.......a../..aa....../........../........../........../.bbbb...../"
    "........../........../*........* - JS,TH,2S/4S / "
    "3S,3S,4S,5S,5S,6S,6S,7S,7S,8S,8S,9S,9S,TS,TS,JS,QS,QS,KS,KS,AS,AS,2H,2H,3H,3H,4H,4H,5H,5H,"
    "6H,6H,7H,7H,8H,8H,9H,9H,TH,JH,JH,QH,QH,KH,KH,AH,AH,2D,2D,3D,3D,4D,4D,5D,5D,6D,6D,7D,7D,"
    "8D,8D,9D,9D,TD,TD,JD,JD,QD,QD,KD,KD,AD,AD,2C,2C,3C,3C,4C,4C,5C,5C,6C,6C,7C,7C,8C,8C,9C,"
    "9C,TC,TC,JC,JC,QC,QC,KC,KC,AC,AC,2S 1:play"
)


def test_breaking_an_open_four_is_valued_like_blocking_a_four() -> None:
    from sequence.bots.heuristic import BLOCK

    state = State.from_position(OPEN_FOUR)
    view = state.view(0)
    chips, seqs = view.chips, view.sequences
    # The space f7 completes b7-f7 for b: a chip there blocks a four (BLOCK[0]).
    block_end = EV.place_value(chips, seqs, 0, parse_space("f7"))
    assert block_end >= BLOCK[0]
    # Removing c7 breaks the windows a7-e7 and b7-f7, each a four: 1.5 x BLOCK[0] apiece.
    breaking = EV.remove_value(chips, seqs, 0, parse_space("c7"))
    assert breaking >= 2 * 1.5 * BLOCK[0]
    # A lone chip is worth far less to remove than any chip of the four.
    assert EV.remove_value(chips, seqs, 0, parse_space("h2")) < 1.5 * BLOCK[1]
    # So the greedy bot spends the Jack on the four rather than closing one end with TH.
    move = GreedyBot(seed=0).choose(view)
    assert move.kind.name == "REMOVE" and move.space in {
        parse_space(s) for s in ("b7", "c7", "d7", "e7")
    }
