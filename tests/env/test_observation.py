"""Observations: fixed length, documented layout, and nothing a seat may not know."""

from __future__ import annotations

import importlib.util
import random
from collections.abc import Callable
from typing import Any

import pytest

from sequence.engine import Config, State, View, make_config
from sequence.env import SequenceEnv, as_array, encode_observation, observation_layout

HAS_NUMPY = importlib.util.find_spec("numpy") is not None


def _observers(config: Config) -> dict[str, Callable[[View], Any]]:
    """Every observation option, each as a function from a view to a comparable value."""
    out: dict[str, Callable[[View], Any]] = {
        "flat": encode_observation,
        "flat+history": lambda view: encode_observation(view, history=4),
    }
    if HAS_NUMPY:
        from sequence.env.arrays import Observer

        for planes in (False, True):
            for history in (0, 3):
                observer = Observer(config, planes=planes, history=history)

                def observe(view: View, observer: Observer = observer) -> Any:
                    obs = observer.encode(view)
                    if isinstance(obs, dict):
                        return {key: value.tolist() for key, value in obs.items()}
                    return obs.tolist()

                out[f"array planes={planes} history={history}"] = observe
    return out


def _random_states(config: Config, seed: int, every: int = 7) -> list[State]:
    """Positions along a random game (every ``every`` moves, and the end)."""
    state = State.new(config, seed=seed)
    rng = random.Random(seed)
    out = [state.copy(stack=False)]
    n = 0
    while not state.is_over():
        if state.is_chance():
            state.push(state.sample_chance())
            continue
        seat = state.to_move
        state.push(rng.choice(state.legal_moves))
        if seat in state.pending_draws and not state.is_over():
            state.push_text(f"draw:{seat + 1}", seat=seat)
        n += 1
        if n % every == 0:
            out.append(state.copy(stack=False))
    out.append(state)
    return out


def test_length_is_fixed_and_segments_tile_it(config: Config) -> None:
    layout = observation_layout(config)
    assert layout.segments[0].start == 0
    for a, b in zip(layout.segments, layout.segments[1:], strict=False):
        assert a.stop == b.start
    assert len(layout.describe().splitlines()) == len(layout.segments)
    high = layout.high()
    assert len(high) == layout.size and min(high) >= 1
    for state in _random_states(config, seed=1, every=11):
        for seat in range(config.players):
            obs = encode_observation(state.view(seat))
            assert len(obs) == layout.size
            assert all(isinstance(x, int) for x in obs)
            assert all(0 <= x <= h for x, h in zip(obs, high, strict=True))


@pytest.mark.parametrize(
    ("options", "segment", "expected"),
    [
        # The US edition's supplies differ by colour; teams are relative, so each bound is the
        # largest.
        ({"players": 3, "chips_per_colour": "us"}, "supply", [50, 50, 50]),
        ({"players": 2, "max_turns": 12}, "turn", [12]),
        ({"players": 4}, "flags", [1, 1000]),
        ({"game": "dice", "players": 2, "max_turns": 300}, "flags", [1, 300]),
    ],
)
def test_high_bounds_every_entry(
    options: dict[str, object], segment: str, expected: list[int]
) -> None:
    options = dict(options)
    config = make_config(str(options.pop("game", "classic")), **options)  # type: ignore[arg-type]
    layout = observation_layout(config)
    high = layout.high()
    assert layout.segment(high, segment) == expected
    for state in _random_states(config, seed=4, every=3):
        for seat in range(config.players):
            obs = encode_observation(state.view(seat))
            assert all(0 <= x <= h for x, h in zip(obs, high, strict=True))


def test_board_has_one_state_per_space_and_matches_the_chips(config: Config) -> None:
    layout = observation_layout(config)
    board = config.spec.layout
    t = config.teams
    state = _random_states(config, seed=2)[-2]
    for seat in range(config.players):
        obs = encode_observation(state.view(seat))
        cells = layout.segment(obs, "board")
        for i, s in enumerate(board.spaces):
            row = cells[i * (t + 2) : (i + 1) * (t + 2)]
            assert sum(row) == 1
            owner = state.chip_at(s)
            if owner is not None:
                assert row[(owner - seat % t) % t] == 1  # relative: own team first
            elif board.free >> s & 1:
                assert row[t + 1] == 1
            else:
                assert row[t] == 1


def test_own_hand_and_relative_seats() -> None:
    config = make_config("classic", players=3)
    state = State.new(config, seed=4)
    layout = observation_layout(config)
    for seat in range(3):
        obs = encode_observation(state.view(seat))
        hand = layout.segment(obs, "hand")
        for card, count in zip(layout.cards, hand, strict=True):
            assert count == state.hand_of(seat).count(card)
        to_move = layout.segment(obs, "to_move")
        assert to_move.index(1) == (state.to_move - seat) % 3
    assert encode_observation(state.view(0)) != encode_observation(state.view(1))


def test_discards_locks_and_roll_are_encoded() -> None:
    config = make_config("classic", players=2)
    state = State.new(config, seed=1)
    layout = observation_layout(config)
    seat = state.to_move
    move = state.legal_moves[0]
    state.push(move)
    obs = encode_observation(state.view(seat))
    tops = layout.segment(obs, "discard_tops")
    assert tops[layout.cards.index(move.card)] == 1 and sum(tops) == 1  # type: ignore[arg-type]
    assert sum(layout.segment(obs, "discards")) == 1

    dice = make_config("dice", players=2)
    dstate = State.new(dice, seed=3)
    dstate.push_text("roll:2+5")
    roll = observation_layout(dice).segment(encode_observation(dstate.view(0)), "roll")
    assert [i for i, x in enumerate(roll) if x] == [1, 6 + 4, 12 + 5]

    end = _random_states(config, seed=5)[-1]
    winner = end.outcome.winner  # type: ignore[union-attr]
    if winner is not None:
        obs = encode_observation(end.view(winner))
        assert layout.segment(obs, "sequences")[0] >= 1
        locked = layout.segment(obs, "locked")
        done = {s for seq in end.sequence_spaces(winner) for s in seq}
        for i, s in enumerate(config.spec.layout.spaces):
            assert locked[i * 2] == (s in done)


def test_hidden_cards_never_change_an_observation(config: Config) -> None:
    """States that differ only in cards a seat cannot see give that seat one observation.

    (Dice has no hidden cards: there the resampled twins are the same game.)
    """
    observers = _observers(config)
    for state in _random_states(config, seed=3, every=9):
        for seat in range(config.players):
            view = state.view(seat)
            others = [s for s in range(config.players) if s != seat]
            changed = []  # (twin, seat) where that seat's hand is not what it was
            for k in range(3):
                twin = State.sample_from_view(view, seed=k)
                assert twin.hand_of(seat) == state.hand_of(seat)
                for name, observe in observers.items():
                    assert observe(twin.view(seat)) == observe(view), name
                changed += [
                    (twin, s) for s in others if sorted(twin.hand_of(s)) != sorted(state.hand_of(s))
                ]
            # The check has teeth: the hidden cards did change, and so did the others' views.
            hidden = sum(view.hand_sizes[s] - len(view.known_hands[s]) for s in others)
            if hidden and state.deck_size > 10 and not state.is_over():
                assert changed
            for twin, s in changed:
                for name, observe in observers.items():
                    assert observe(twin.view(s)) != observe(state.view(s)), name


def test_env_observations_hold_nothing_hidden_over_an_episode() -> None:
    env = SequenceEnv("classic", players=4, opponents="random", seed=2)
    obs, info = env.reset()
    rng = random.Random(1)
    done = False
    while not done:
        view = env.view
        for k in range(2):
            assert encode_observation(State.sample_from_view(view, seed=k).view(0)) == obs
        obs, _, terminated, truncated, info = env.step(rng.choice(info["legal_actions"]))
        done = terminated or truncated


def test_a_state_or_a_spectator_cannot_be_observed() -> None:
    state = State.new(make_config("kids"), seed=0)
    with pytest.raises(TypeError, match="made from a View, not State"):
        encode_observation(state)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="spectator"):
        encode_observation(state.view(None))
    other = observation_layout(make_config("kids", players=3))
    with pytest.raises(ValueError, match="another configuration"):
        other.encode(state.view(0))
    with pytest.raises(KeyError, match="no segment 'roll'"):
        other["roll"]


def test_draft_and_manual_draw_segments() -> None:
    draft = observation_layout(make_config("classic", players=4, draft=True))
    assert draft["known_hands"].shape == (3, 52) and draft["draft"].shape == (52,)
    state = State.new(draft.config, seed=6)
    seat = state.to_move
    state.push(state.legal_moves[0])
    picked = state.legal_moves[0]
    state.push(picked)
    assert picked.card is not None
    obs = encode_observation(state.view((seat + 3) % 4))  # the seat before: seat is 1 later
    known = draft.segment(obs, "known_hands")
    assert known[draft.cards.index(picked.card)] == 1
    assert sum(draft.segment(obs, "draft")) == 5

    manual = observation_layout(make_config("classic", players=2, manual_draw=True))
    assert "pending_draws" in manual.names and "pending_draws" not in draft.names
    assert (
        "roll" not in manual.names and "hand" not in observation_layout(make_config("dice")).names
    )
    st = State.new(manual.config, seed=1)
    seat = st.to_move
    st.push(st.legal_moves[0])
    assert manual.segment(encode_observation(st.view(seat)), "pending_draws") == [1, 0]


def test_as_array_needs_numpy_or_says_so() -> None:
    try:
        import numpy  # noqa: F401
    except ImportError:
        with pytest.raises(ImportError, match="needs numpy"):
            as_array([1, 2])
    else:
        assert as_array([1, 2]).tolist() == [1.0, 2.0]


@pytest.mark.skipif(not HAS_NUMPY, reason="numpy (the gym extra) is not installed")
@pytest.mark.parametrize("history", [0, 5])
def test_arrays_are_the_flat_observation_scaled_to_0_1(config: Config, history: int) -> None:
    import numpy as np

    from sequence.env.arrays import Observer

    flat = Observer(config, history=history)
    planes = Observer(config, planes=True, history=history)
    layout = observation_layout(config, history)
    high = np.asarray(layout.high(), dtype=np.float64)
    assert flat.size == layout.size and len(planes.channels) == planes.board_shape[0]
    for state in _random_states(config, seed=6, every=5):
        for seat in range(config.players):
            view = state.view(seat)
            ref = np.asarray(encode_observation(view, history)) / high
            obs = flat.encode(view)
            assert obs.dtype == np.float32 and obs.shape == (layout.size,)
            assert np.allclose(obs, ref, atol=1e-6) and obs.min() >= 0 and obs.max() <= 1
            both = planes.encode(view)
            assert np.array_equal(both["features"], obs[layout["sequences"].start :])
            board = both["board"]
            assert board.shape == planes.board_shape and board.min() >= 0 and board.max() <= 1
            t = config.teams
            cells = layout.segment(ref, "board")
            # Plane k of space i is entry k of space i's row in the flat board segment.
            rows = np.asarray(cells).reshape(-1, t + 2).T
            assert np.array_equal(board[: t + 2].reshape(t + 2, -1), rows)


def test_history_holds_the_last_moves_latest_first() -> None:
    config = make_config("classic", players=2)
    layout = observation_layout(config, history=3)
    assert layout["history"].shape == (3, 698) and layout.size == 827 + 3 * 698
    state = State.new(config, seed=2)
    view = state.view(0)
    assert sum(layout.segment(encode_observation(view, 3), "history")) == 0  # nothing yet
    played = []
    for _ in range(4):
        move = state.legal_moves[0]
        played.append(move)
        state.push(move)
    history = layout.segment(encode_observation(state.view(0), 3), "history")
    from sequence.env import move_to_action

    rows = [history[k * 698 : (k + 1) * 698] for k in range(3)]
    assert [row.index(1) for row in rows] == [move_to_action(m) for m in played[::-1][:3]]
    with pytest.raises(ValueError, match="history"):
        observation_layout(config, history=-1)


@pytest.mark.skipif(not HAS_NUMPY, reason="numpy (the gym extra) is not installed")
@pytest.mark.parametrize("planes", [False, True])
def test_an_observer_kept_between_views_gives_what_a_fresh_one_gives(
    config: Config, planes: bool
) -> None:
    """An observer rewrites only what changed since a seat's last view: fed views of two
    games, every seat, in a shuffled order (reshuffled discard piles, boards far apart), it
    still gives exactly what a new observer gives for each view."""
    import numpy as np

    from sequence.env.arrays import Observer

    views = [
        state.view(seat)
        for seed in (3, 4)
        for state in _random_states(config, seed=seed, every=3)
        for seat in range(config.players)
    ]
    random.Random(1).shuffle(views)
    kept = Observer(config, planes=planes, history=2)
    for view in views + views[::-1]:
        got, want = kept.encode(view), Observer(config, planes=planes, history=2).encode(view)
        if planes:
            assert np.array_equal(got["board"], want["board"])
            got, want = got["features"], want["features"]
        assert np.array_equal(got, want)
