"""The smaller public queries of State that the front ends do not all use."""

from __future__ import annotations

import random

import pytest

from sequence.engine import CHANCE, IllegalMoveError, Move, State, make_config, play_random_game


def test_peek_is_the_last_move() -> None:
    state = State.new(make_config("classic", 2), seed=1)
    assert state.peek() is None
    move = state.legal_moves[0]
    state.push(move)
    assert state.peek() == move
    state.pop()
    assert state.peek() is None
    with pytest.raises(IndexError):
        state.pop()


def test_dead_cards_are_the_ordinary_cards_with_both_spaces_covered() -> None:
    state = State.new(make_config("classic", 2), seed=3)
    rng = random.Random(3)
    while not state.is_over():
        seat = state.to_move
        dead = set(state.dead_cards(seat))
        exchangeable = {m.card for m in state.legal_moves if str(m).startswith("dead:")}
        if not state.dead_card_exchanged:
            assert exchangeable == dead
        else:
            assert not exchangeable
        legal = state.legal_moves
        state.push(legal[int(rng.random() * len(legal))])


def test_resample_keeps_what_the_seat_knows() -> None:
    played = play_random_game(State.new(make_config("classic", 4), seed=2), seed=2)
    state = State.new(make_config("classic", 4), seed=2)
    for move in played.move_stack[:-1]:  # the position before the last move
        state.push(move)
    seat = state.to_move
    sample = state.resample(seat, seed=9)
    assert sample.view(seat) == state.view(seat)
    assert sample.hand_of(seat) == state.hand_of(seat)
    others = [s for s in range(4) if s != seat]
    assert any(sample.hand_of(s) != state.hand_of(s) for s in others)


def test_dice_chance_node() -> None:
    state = State.new(make_config("dice", 2), seed=4)
    assert state.is_chance() and state.actor() == CHANCE
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 21
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert dict(outcomes)[Move.parse("roll:6+6")] == pytest.approx(1 / 36)
    assert dict(outcomes)[Move.parse("roll:1+2")] == pytest.approx(2 / 36)
    roll = state.sample_chance()
    assert state.sample_chance() == roll  # the same until pushed
    state.push(roll)
    assert not state.is_chance() and state.chance_outcomes() == ()
    assert state.actor() == state.to_move


def test_no_draw_is_pending_once_the_game_is_over() -> None:
    for seed in range(6):
        state = State.new(make_config("classic", 4, manual_draw=True), seed=seed)
        rng = random.Random(seed)
        while not state.is_over():
            seat = state.to_move
            legal = state.legal_moves
            state.push(legal[int(rng.random() * len(legal))])
            if state.is_over():
                break
            if seat in state.pending_draws and rng.random() < 0.8:
                state.push(Move.parse(f"draw:{seat + 1}"))
        assert state.pending_draws == ()
        assert all(state.legal_moves_of(s) == () for s in range(4))


def test_a_view_holds_exactly_its_declared_fields_and_is_read_only() -> None:
    # View.of builds the tuple directly (not through the class's __new__): every field must be
    # set, in order, and nothing else; no attribute can be set afterwards.
    from sequence.engine import View

    state = State.new(make_config("classic", players=2), seed=5)
    view = state.view(1)
    assert len(view) == len(View._fields) and vars(view) == {}
    rebuilt = View(**{name: getattr(view, name) for name in View._fields})
    assert view == rebuilt and hash(view) == hash(rebuilt)
    assert view.hand == state.hand_of(1) and view.legal_moves == state.legal_moves_of(1)
    for name in ("hand", "unseen_pool", "anything"):
        with pytest.raises(AttributeError, match="read-only"):
            setattr(view, name, ())
    assert view.unseen_pool == rebuilt.unseen_pool and set(vars(view)) == {"unseen_pool"}
    # Each field holds what its name says (a tuple built in order: a swap would go unseen by
    # type), in a game where they differ: four players with manual draws, some moves in.
    state = State.new(make_config("classic", players=4, manual_draw=True), seed=9)
    rng = random.Random(9)
    while state.turns < 6:
        step = state.play_forced()
        assert step.seat is not None
        moves = state.legal_moves_of(step.seat)
        state.push_index(int(rng.random() * len(moves)), step.seat)
    seat = 2
    expected = View(
        config=state.config, seat=seat, hand=state.hand_of(seat),
        hand_sizes=tuple(len(state.hand_of(s)) for s in range(4)), known_hands=state._known,
        discards=state._discards, deck_size=state.deck_size, draft=state.draft,
        chips=state._chips, sequences=state._seqs, to_move=state.to_move, phase=state._phase,
        dead_cards_exchanged=state._exchanges, passes=state._passes, turns=state.turns,
        pending_draws=state.pending_draws, forfeit=state._forfeit, roll=state._roll,
        outcome=state.outcome, move_stack=state.move_stack, setup=state.setup,
        legal_moves=state.legal_moves_of(seat),
    )  # fmt: skip
    assert state.view(seat) == expected
    assert state.turns == 6 and state.deck_size != state.turns != state.to_move


def test_a_random_playout_keeps_its_moves_but_cannot_be_taken_back() -> None:
    state = State.new(make_config("classic", players=2), seed=9)
    state.push(state.legal_moves[0])
    play_random_game(state, seed=9)
    assert state.is_over() and len(state.move_stack) > 1
    with pytest.raises(IndexError):
        state.pop()
    replayed = State.new(make_config("classic", players=2), seed=9)
    for move in state.move_stack:
        replayed.push(move)
    assert replayed == state


def test_push_index_makes_the_seats_legal_move_at_that_place() -> None:
    config = make_config("classic", 2, manual_draw=True)
    state = State.new(config, seed=4)
    rng = random.Random(4)
    twin = State.new(config, seed=4)
    for _ in range(60):
        step = state.play_forced()
        twin.play_forced()
        if step.seat is None:
            break
        legal = state.legal_moves_of(step.seat)
        assert state.view(step.seat).legal_moves == legal
        at = int(rng.random() * len(legal))
        assert state.push_index(at, step.seat) is legal[at]
        twin.push(legal[at], seat=step.seat)
        assert state.position() == twin.position() and state.peek() == twin.peek()
        state.pop()  # an undo record is kept, as push keeps one
        state.push_index(at, step.seat)
    assert twin.turns > 10
    seat = state.to_move
    n = len(state.legal_moves_of(seat))
    for bad in (n, -1):
        with pytest.raises(IndexError):
            state.push_index(bad, seat)
    other = (seat + 1) % 2  # not its turn: at most its open draw
    assert len(state.legal_moves_of(other)) <= 1
    with pytest.raises(IndexError):
        state.push_index(len(state.legal_moves_of(other)), other)
    assert state.position() == twin.position()
    # Without an undo record (a learning environment's game): the same move, and no way back.
    step = state.play_forced()
    twin.play_forced()
    assert step.seat is not None
    move = state.push_index(0, step.seat, undo=False)
    twin.push(move, seat=step.seat)
    assert state.position() == twin.position()
    with pytest.raises(IndexError, match="no move to undo"):
        state.pop()


@pytest.mark.parametrize(
    ("game", "options"), [("dice", {}), ("classic", {"manual_draw": True, "players": 3})]
)
def test_play_forced_without_undo_makes_the_same_rolls_and_draws(
    game: str, options: dict[str, object]
) -> None:
    # undo=False (a learning environment's game) makes what undo=True makes, move for move,
    # and keeps no undo record: the rolls and draws it made cannot be taken back.
    config = make_config(game, **options)  # type: ignore[arg-type]
    state, twin = State.new(config, seed=5), State.new(config, seed=5)
    rng = random.Random(5)
    forced = 0
    while not state.is_over() and state.turns < 40:
        before = len(state.move_stack)
        step = state.play_forced(undo=False)
        assert twin.play_forced() == step
        forced += len(state.move_stack) - before
        assert state.move_stack == twin.move_stack and state.position() == twin.position()
        if step.seat is None:
            break
        if len(state.move_stack) > before:  # the last move was forced: it has no undo record
            with pytest.raises(IndexError, match="no move to undo"):
                state.pop()
        at = int(rng.random() * len(state.legal_moves_of(step.seat)))
        twin.push_index(at, step.seat)
        state.push_index(at, step.seat)  # with an undo record, which the next forced move drops
    assert forced > 10
    # A roll given by the caller that is not a roll is refused as push refuses it.
    dice = State.new(make_config("dice"), seed=1)
    with pytest.raises(IllegalMoveError):
        dice.play_forced(lambda _: Move.parse("pass"), undo=False)
    assert dice.move_stack == ()
