"""The informed evaluation (hard and expert): a window only a two-eyed Jack can finish (every copy
of a missing space's card is gone) is worth less; one no Jack left can finish, nothing."""

from __future__ import annotations

from sequence.bots import make_bot
from sequence.bots.heuristic import BLOCK, Evaluator
from sequence.engine import State, make_config, parse_space

CLASSIC = make_config("classic", 2)
EV = Evaluator(CLASSIC)
F7, A7 = parse_space("f7"), parse_space("a7")

DECK = (
    "3S,3S,4S,5S,5S,6S,6S,7S,7S,8S,8S,9S,9S,TS,TS,JS,QS,QS,KS,KS,AS,AS,2H,2H,3H,3H,4H,4H,5H,5H,"
    "6H,6H,7H,7H,8H,8H,9H,9H,JH,JH,QH,QH,KH,KH,AH,AH,2D,2D,3D,3D,4D,4D,5D,5D,6D,6D,7D,7D,"
    "8D,8D,9D,9D,TD,TD,QD,QD,KD,KD,AD,AD,2C,2C,3C,3C,4C,4C,5C,5C,6C,6C,7C,7C,8C,8C,9C,"
    "9C,TC,TC,KC,KC,AC,AC,2S"
)


def open_four(gone: str, deck_extra: str) -> State:
    """Team b's four b7-e7 (a7 is QC, f7 is TH); team a to move holding one TH. ``gone`` is
    seat 2's discard pile; ``deck_extra`` the two-eyed Jacks not discarded (``,JD``)."""
    return State.from_position(
        "classic/2 *........*/.......a../..aa....../........../........../........../.bbbb...../"
        f"........../........../*........* - JS,TH,2S/4S /{gone} {DECK}{deck_extra} 1:play"
    )


def test_a_four_no_jack_can_finish_needs_no_block() -> None:
    # Both QC and the other TH are gone (TH: discarded, and the last one is in a's hand), and so
    # is every two-eyed Jack: b can never fill a7 or f7.
    state = open_four("TH,QC,QC,JC,JC,JD,JD", "")
    view = state.view(0)
    informed = EV.informed(view)
    assert informed.gone[1] >> F7 & 1 and informed.gone[1] >> A7 & 1
    assert informed.wilds[1] == 0
    # a itself could still play f7 (it holds TH), so f7 is not gone for a.
    assert not informed.gone[0] >> F7 & 1
    assert EV.place_value(view.chips, view.sequences, 0, F7) >= BLOCK[0]
    assert informed.place_value(view.chips, view.sequences, 0, F7) < BLOCK[1]
    assert informed.remove_value(view.chips, view.sequences, 0, parse_space("c7")) < BLOCK[1]


def test_one_jack_left_makes_the_four_a_three() -> None:
    state = open_four("TH,QC,QC,JC,JC,JD", ",JD")
    informed = EV.informed(state.view(0))
    assert informed.wilds == (1, 1)  # the JD is unseen: either side may draw it
    value = informed.place_value(state.chips, state.sequences, 0, F7)
    assert BLOCK[1] <= value < BLOCK[0]


def test_the_plain_evaluator_and_an_early_view_know_nothing_of_the_cards() -> None:
    view = State.new(CLASSIC, seed=3).view(0)
    assert EV.gone == (0, 0)
    assert EV.informed(view) is EV  # nothing is gone yet


def test_what_is_gone_comes_from_the_view_alone() -> None:
    """Two games that look the same to seat 1 (other hands and the pile dealt apart) tell it the
    same; hard plays the same move in both."""
    state = open_four("TH,QC,QC,JC,JC,JD", ",JD")
    state.push(next(m for m in state.legal_moves if str(m) == "TH@f7"))
    view = state.view(1)
    for seed in (1, 2):
        other = State.sample_from_view(view, seed)
        assert EV.informed(other.view(1)).gone == EV.informed(view).gone
        assert EV.informed(other.view(1)).wilds == EV.informed(view).wilds
    moves = {
        str(make_bot("hard@time=0", 5).choose(State.sample_from_view(view, s).view(1)))
        for s in (1, 2, 3)
    }
    assert len(moves) == 1
