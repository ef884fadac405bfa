"""A bot sees only its seat's view: it cannot reach hidden cards, nor do they change its moves."""

from __future__ import annotations

import gc
import types
from typing import Any, ClassVar

import pytest

from sequence.bots import Bot, make_bot
from sequence.bots.arena import play_game
from sequence.engine import Move, State, View, make_config

SPECS = [
    "random",
    "greedy",
    "mcts@iterations=30,time=0,depth=4",
    "easy",
    "hard@deals=3,time=0",
    "lookahead@deals=6,time=0",
    "lookahead@deals=4,time=0,depth=3,leaf=both,prior=0.1",
]
CONFIGS = [
    make_config("classic", 2),
    make_config("classic", 6, 3),
    make_config("kids", 3),
    make_config("dice", 2),
    make_config("classic", 2, draft=True),
]


def _reachable(root: object, limit: int = 20000) -> list[object]:
    """Objects reachable from ``root`` through references, not following types, modules or code."""
    seen: dict[int, object] = {}
    stack = [root]
    while stack and len(seen) < limit:
        obj = stack.pop()
        if id(obj) in seen or isinstance(
            obj, (type, types.ModuleType, types.FunctionType, types.CodeType)
        ):
            continue
        seen[id(obj)] = obj
        stack.extend(gc.get_referents(obj))
    return list(seen.values())


def _advance(state: State, plies: int) -> None:
    bot = make_bot("greedy", 0)
    for _ in range(plies):
        if state.is_over():
            return
        if state.is_chance():
            state.push(state.sample_chance())
            continue
        state.push(bot.choose(state.view(state.to_move)))
    if state.is_chance():
        state.push(state.sample_chance())


class Spy(Bot):
    """Records what the arena hands it, and plays the first legal move."""

    name = "spy"
    seen: ClassVar[list[Any]] = []

    def choose(self, view: View) -> Move:
        Spy.seen.append(view)
        return view.legal_moves[0]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.game}-{c.players}-{c.draft}")
def test_a_view_reaches_no_state_and_no_hidden_cards(config: Any) -> None:
    state = State.new(config, seed=5)
    _advance(state, 6)
    seat = state.to_move
    view = state.view(seat)
    objs = _reachable(view)
    assert not any(isinstance(o, State) for o in objs)
    ids = {id(o) for o in objs}
    if config.spec.uses_cards:
        assert id(state._deck) not in ids  # the draw pile's order
        for other in range(config.players):
            if other != seat and state.hand_of(other):
                assert id(state._hands[other]) not in ids
        hidden_total = sum(len(state.hand_of(s)) for s in range(config.players) if s != seat)
        assert hidden_total > 0
    assert not hasattr(view, "_rng") and not hasattr(view, "_deck")


def test_the_arena_gives_bots_only_views() -> None:
    Spy.seen = []
    config = make_config("classic", 4, 2, manual_draw=True, max_turns=40)
    play_game(config, [Spy(0), make_bot("greedy", 1)], seed=2)
    assert Spy.seen and all(type(v) is View for v in Spy.seen)
    assert all(v.seat % 2 == 0 and v.hand is not None for v in Spy.seen)


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.game}-{c.players}-{c.draft}")
def test_moves_do_not_depend_on_hidden_cards(spec: str, config: Any) -> None:
    """Two games that differ only in cards the seat cannot see get the same move from the bot."""
    state = State.new(config, seed=9)
    _advance(state, 8)
    if state.is_over():
        pytest.skip("the game ended before the test position")  # pragma: no cover
    seat = state.to_move
    view = state.view(seat)
    others = [State.sample_from_view(view, seed) for seed in (1, 2, 3)]
    if config.spec.uses_cards:
        # The hidden cards really differ (other hands or the draw pile's order)...
        assert any(
            o._deck[o._deck_pos :] != state._deck[state._deck_pos :]
            or any(o.hand_of(s) != state.hand_of(s) for s in range(config.players) if s != seat)
            for o in others
        )
    moves = set()
    for s in [state, *others]:
        assert s.view(seat) == view  # ...while the seat's view is the same,
        moves.add(make_bot(spec, seed=4).choose(s.view(seat)))
    assert len(moves) == 1  # so the move is the same.
    assert moves.pop() in state.legal_moves
