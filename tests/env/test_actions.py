"""The action spaces: fixed, complete, round-tripping, and masks that match the engine."""

from __future__ import annotations

import random

import pytest

from sequence.engine import (
    GAMES,
    SPECS,
    CardKind,
    Config,
    Move,
    MoveKind,
    State,
    card_kind,
    make_config,
)
from sequence.env import (
    MAX_SEATS,
    IllegalActionError,
    action_space,
    action_to_move,
    legal_action_mask,
    legal_actions,
    move_to_action,
)

SIZES = {"classic": 697, "kids": 155, "dice": 109}


@pytest.mark.parametrize("game", GAMES)
def test_every_action_round_trips_through_moves_and_notation(game: str) -> None:
    space = action_space(game)
    assert space.n == SIZES[game]
    assert len(set(space.moves)) == space.n
    for action in range(space.n):
        move = action_to_move(action, game)
        assert move_to_action(move, game) == action
        assert move_to_action(str(move), game) == action
        assert Move.parse(str(move)) == move


@pytest.mark.parametrize("game", GAMES)
def test_blocks_tile_the_space_in_order(game: str) -> None:
    space = action_space(game)
    nxt = 0
    for name, first, count in space.blocks:
        assert first == nxt and count > 0
        assert all(space.block_of(a) == name for a in range(first, first + count))
        nxt = first + count
    assert nxt == space.n
    assert space.describe().count("\n") == len(space.blocks) - 1


@pytest.mark.parametrize("game", GAMES)
def test_no_chance_or_host_moves_are_actions(game: str) -> None:
    kinds = {m.kind for m in action_space(game).moves}
    assert MoveKind.ROLL not in kinds and MoveKind.PENALTY not in kinds
    with pytest.raises(IllegalActionError, match="not a move of"):
        move_to_action("roll:3+4", game)
    with pytest.raises(IllegalActionError, match="not a move of"):
        move_to_action("penalty:A", game)


def test_blocks_per_game() -> None:
    assert [b[0] for b in action_space("classic").blocks] == [
        "place", "remove", "dead", "discard", "pick", "forfeit", "pass", "draw",
    ]  # fmt: skip
    assert [b[0] for b in action_space("kids").blocks] == [
        "place", "remove", "dead", "discard", "pass",
    ]  # fmt: skip
    assert [b[0] for b in action_space("dice").blocks] == ["place", "remove", "replace", "pass"]
    draws = [m.seat for m in action_space("classic").moves if m.kind is MoveKind.DRAW]
    assert draws == list(range(MAX_SEATS))


@pytest.mark.parametrize("game", ["classic", "kids"])
def test_placements_are_exactly_the_printed_spaces(game: str) -> None:
    layout = SPECS[game].layout
    playable = {s for s in layout.spaces if not layout.free >> s & 1}
    by_card: dict[tuple[MoveKind, int], set[int]] = {}
    for move in action_space(game).moves:
        if move.space is not None:
            assert move.card is not None
            by_card.setdefault((move.kind, move.card), set()).add(move.space)
    for (kind, card), spaces in by_card.items():
        if card_kind(card) is CardKind.ORDINARY:
            assert kind is MoveKind.PLACE
            assert spaces == set(layout.spaces_by_label[card])
        else:
            assert kind is (MoveKind.PLACE if card_kind(card) is CardKind.WILD else MoveKind.REMOVE)
            assert spaces == playable


def test_the_space_is_the_same_for_every_configuration_of_a_game() -> None:
    assert action_space(make_config("classic", 12)) is action_space("classic")
    assert action_space(make_config("classic", 2, draft=True)) is action_space("classic")
    assert action_space(State.new(make_config("kids", 4), seed=0).view(0)) is action_space("kids")


def test_bad_ids_and_mixed_games_are_refused() -> None:
    space = action_space("dice")
    for bad in (-1, space.n, 10**9):
        with pytest.raises(IllegalActionError, match="actions are 0 to 108"):
            space.action_to_move(bad)
    for not_int in ("pass", 1.7, 1.0, True, None):
        with pytest.raises(IllegalActionError, match="an action is an int"):
            space.action_to_move(not_int)  # type: ignore[arg-type]
    assert space.action_to_move(108) == Move.parse("pass")
    with pytest.raises(ValueError, match="kids view needs the kids action space"):
        space.legal_action_mask(State.new(make_config("kids"), seed=0).view(0))
    with pytest.raises(IllegalActionError, match="not a move of dice"):
        space.move_to_action("5H@e5")
    with pytest.raises(ValueError, match="unknown game"):
        action_space("chess")


def _check_view(state: State, seat: int) -> int:
    view = state.view(seat)
    mask = legal_action_mask(view)
    ids = legal_actions(view)
    space = action_space(view)
    assert len(mask) == space.n
    assert ids == [a for a, bit in enumerate(mask) if bit]
    assert {space.moves[a] for a in ids} == set(view.legal_moves)
    assert len(ids) == len(set(view.legal_moves))
    return len(ids)


def test_masks_agree_with_legal_moves_over_whole_random_games(config: Config) -> None:
    """Every seat's mask at every point of two random games: also proves the space complete."""
    for seed in range(2):
        state = State.new(config, seed=seed)
        rng = random.Random(seed)
        while not state.is_over():
            for seat in range(config.players):
                _check_view(state, seat)
            if state.is_chance():
                assert sum(legal_action_mask(state.view(state.to_move))) == 0
                state.push(state.sample_chance())
                continue
            seat = state.to_move
            if state.penalty_allowed(seat % config.teams) is None and rng.random() < 0.05:
                state.push(Move.parse(f"penalty:{'ABC'[seat % config.teams]}"))
                continue  # forfeit moves come next, and are checked above
            state.push(rng.choice(state.legal_moves))
            if rng.random() < 0.8 and seat in state.pending_draws and not state.is_over():
                state.push(Move.parse(f"draw:{seat + 1}"), seat=seat)
        assert all(_check_view(state, s) == 0 for s in range(config.players))


def test_forfeit_and_draw_actions_are_offered_when_due() -> None:
    state = State.new(make_config("classic", 4, manual_draw=True), seed=3)
    seat = state.to_move
    state.push(state.legal_moves[0])
    ids = legal_actions(state.view(seat))
    assert [action_to_move(a) for a in ids] == [Move.parse(f"draw:{seat + 1}")]
    state.push(Move.parse("penalty:A"))
    view = state.view(state.to_move)
    kinds = {action_to_move(a).kind for a in legal_actions(view)}
    assert kinds == {MoveKind.FORFEIT}
