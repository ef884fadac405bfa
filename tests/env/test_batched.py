"""The batched simulator against the engine: the same games, move for move.

Each batched game is mirrored by an engine :class:`State` made from the same seed; both are fed
the same actions, and every mask, observation (the Gymnasium face's ``Observer``), reward and
end must agree, through auto-resets, reshuffles, dead cards and discards.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

np = pytest.importorskip("numpy", reason="the gym extra (numpy) is not installed")

from sequence.engine import Config, State, StepKind, make_config  # noqa: E402
from sequence.env import action_space  # noqa: E402
from sequence.env.arrays import Observer  # noqa: E402
from sequence.env.batched import (  # noqa: E402
    TERMINATIONS,
    BatchedSequenceEnv,
    batched_env,
    batched_env_class,
    supported,
)

PARITY = {
    "classic-2p": ("classic", {"players": 2}),
    "classic-2p-short": ("classic", {"players": 2, "max_turns": 40}),
    "classic-3p": ("classic", {"players": 3}),
    "classic-4p-teams": ("classic", {"players": 4, "teams": 2}),
    "classic-6p-3-teams": ("classic", {"players": 6, "teams": 3}),
    "kids-2p": ("kids", {"players": 2}),
    "kids-4p": ("kids", {"players": 4}),
    "classic-2p-manual-draw": ("classic", {"players": 2, "manual_draw": True}),
    "classic-3p-manual-draw-short": (
        "classic",
        {"players": 3, "manual_draw": True, "max_turns": 90},
    ),
    "classic-2p-difficult": ("classic", {"players": 2, "difficult": True}),
    "classic-3p-difficult": ("classic", {"players": 3, "difficult": True}),
    "draft-2p": ("draft", {"players": 2}),
    "draft-2p-difficult": ("draft", {"players": 2, "difficult": True}),
    "draft-4p": ("draft", {"players": 4}),
    "draft-2p-short": ("draft", {"players": 2, "max_turns": 50}),
    "dice-2p": ("dice", {"players": 2}),
    "dice-2p-six": ("dice", {"players": 2, "dice_line_length": 6}),
    "dice-3p": ("dice", {"players": 3}),
    "dice-4p-teams": ("dice", {"players": 4}),
    "dice-2p-few-chips-short": ("dice", {"players": 2, "chips_per_colour": 8, "max_turns": 60}),
}


def new_state(config: Config, seed: int) -> State:
    """The engine's game with ``seed``, up to its first decision (at Dice, the first roll)."""
    state = State.new(config, seed)
    state.play_forced()
    return state


class Mirror:
    """The engine's games beside a batched env's: one State per slot, rebuilt on reset."""

    def __init__(self, env: BatchedSequenceEnv) -> None:
        self.env = env
        self.config: Config = env.config
        self.observer = Observer(env.config, planes=env.planes, history=env.history)
        self.resample_every = 0  # check the observation on resampled twins every so many checks
        self.checks = 0
        self.space = action_space(env.config)
        self.states = [new_state(self.config, int(s)) for s in env.game_seeds]
        self.moves = {"dead": 0, "discard": 0, "remove": 0, "pass": 0, "replace": 0, "pick": 0}
        self.positions = {"pass_or_replace": 0, "extra_turn": 0}
        self.ends: Counter[str] = Counter()
        if not env.self_play:
            for g in range(env.num_envs):
                self.opponents(g, env.opening_log[g])

    def seat(self, g: int) -> int:
        return self.states[g].to_move if self.env.self_play else self.env.agent_seat

    def check(self, obs: Any, info: dict[str, Any]) -> None:
        # The public legal_mask (computed afresh) is the mask the step gave.
        np.testing.assert_array_equal(
            self.env.legal_mask(np.arange(self.env.num_envs)), info["action_mask"].astype(bool)
        )
        for g, state in enumerate(self.states):
            assert state.next_step().kind is StepKind.MOVE
            seat = self.seat(g)
            assert state.to_move == seat
            view = state.view(seat)
            legal = np.flatnonzero(info["action_mask"][g]).tolist()
            assert legal == self.space.actions(view.legal_moves), g
            if len(legal) > 1 and legal[-1] == self.space.move_to_action("pass"):
                self.positions["pass_or_replace"] += 1  # Dice: an 11 on a full board
            assert_same_observation(obs, g, self.observer.encode(view))
            if self.resample_every and self.checks % self.resample_every == 0:
                # Hidden information stays hidden: states that differ from this one only in
                # what the seat cannot see give the batched game's observation too.
                for k in range(2):
                    twin = State.sample_from_view(view, seed=k)
                    assert_same_observation(obs, g, self.observer.encode(twin.view(seat)))
        self.checks += 1

    def play(self, g: int, action: int) -> None:
        move = self.space.action_to_move(action)
        name = move.kind.name.lower()
        if name in self.moves:
            self.moves[name] += 1
        state = self.states[g]
        roll = state.roll
        seat = state.to_move
        state.push(move)
        if roll is not None and sum(roll) in (2, 12) and not state.is_over():
            assert state.to_move == seat
            self.positions["extra_turn"] += 1
        # manual_draw: the draw that follows, taken at once as the single environment takes it.
        self.states[g].play_forced()

    def opponents(self, g: int, actions: list[int]) -> None:
        for a in actions:
            self.play(g, a)


def assert_same_observation(batched: Any, g: int, expected: Any) -> None:
    """Game ``g``'s row of a batched observation (flat, or a dict of planes) is ``expected``
    (the single environment's Observer's), entry for entry."""
    if isinstance(expected, dict):
        assert set(batched) == set(expected)
        for key, value in expected.items():
            assert batched[key].dtype == value.dtype
            np.testing.assert_array_equal(batched[key][g], value, err_msg=f"{g} {key}")
    else:
        assert batched.dtype == expected.dtype
        np.testing.assert_array_equal(batched[g], expected, err_msg=str(g))


def _play_and_compare(
    env: BatchedSequenceEnv, steps: int, seed: int, resample_every: int = 0
) -> Mirror:
    obs, info = env.reset(seed=seed)
    mirror = Mirror(env)
    mirror.resample_every = resample_every
    mirror.check(obs, info)
    rng = np.random.default_rng(seed)
    ends = 0
    for _ in range(steps):
        actions = env.sample_actions(rng)
        actors = [mirror.seat(g) for g in range(env.num_envs)]
        seeds_before = env.game_seeds.copy()
        obs, reward, terminated, truncated, info = env.step(actions)
        for g, state in enumerate(mirror.states):
            mirror.play(g, int(actions[g]))
            if not env.self_play:
                # The random opponents' moves: replayed from the batched game's record.
                mirror.opponents(g, env.opponent_log[g])
            done = bool(terminated[g] or truncated[g])
            assert done == state.is_over(), g
            if done:
                ends += 1
                outcome = state.outcome
                assert outcome is not None
                final = mirror.observer.encode(state.view(actors[g]))
                assert_same_observation(info["final_observation"], g, final)
                assert TERMINATIONS[info["termination"][g]] == outcome.termination.value
                mirror.ends[outcome.termination.value] += 1
                winner = -1 if outcome.winner is None else outcome.winner
                assert info["winner"][g] == winner
                team = state.config.team_of(actors[g])
                expected = 0.0 if winner < 0 else (1.0 if winner == team else -1.0)
                assert reward[g] == expected
                assert bool(truncated[g]) == (outcome.termination.value == "max_turns")
                # The slot starts again with its next seed, and so does the mirror.
                assert env.game_seeds[g] != seeds_before[g]
                mirror.states[g] = new = new_state(mirror.config, int(env.game_seeds[g]))
                if not env.self_play:
                    mirror.opponents(g, env.opening_log[g])
                    assert new.to_move == env.agent_seat
            else:
                assert reward[g] == 0.0
        mirror.check(obs, info)
    assert ends > 0, "no game ended: play more steps"
    return mirror


CARD_GAMES = sorted(name for name in PARITY if not name.startswith(("dice", "draft")))
DRAFT_GAMES = sorted(name for name in PARITY if name.startswith("draft"))
DICE_GAMES = sorted(name for name in PARITY if name.startswith("dice"))


@pytest.mark.parametrize("name", CARD_GAMES)
def test_self_play_agrees_with_the_engine_move_for_move(name: str) -> None:
    game, options = PARITY[name]
    env = batched_env(4, game, opponents="self", seed=1, log=True, **options)
    mirror = _play_and_compare(env, 400, seed=3)
    assert mirror.moves["dead"] and mirror.moves["remove"], mirror.moves


@pytest.mark.parametrize("name", DRAFT_GAMES)
def test_draft_self_play_agrees_with_the_engine_pick_for_pick(name: str) -> None:
    game, options = PARITY[name]
    env = batched_env(4, game, opponents="self", seed=1, log=True, **options)
    mirror = _play_and_compare(env, 400, seed=3)
    assert mirror.moves["pick"] and mirror.moves["dead"] and mirror.moves["remove"], mirror.moves


def test_draft_games_end_as_the_engine_ends_them() -> None:
    # Long random games: the heart, sequences, and the deck then the face-up row running out
    # (the draft's ending, DraftRules.pick), each checked against the engine.
    env = batched_env(8, "draft", opponents="self", seed=9, log=True, players=2)
    mirror = _play_and_compare(env, 700, seed=10)
    assert mirror.ends["draft_empty"] and mirror.ends["sequences"] and mirror.ends["heart"], (
        mirror.ends
    )


@pytest.mark.parametrize("name", DICE_GAMES)
def test_dice_self_play_agrees_with_the_engine_roll_for_roll(name: str) -> None:
    game, options = PARITY[name]
    env = batched_env(4, game, opponents="self", seed=1, log=True, **options)
    mirror = _play_and_compare(env, 300, seed=3)
    # Rolls of 10 (remove), full numbers (replace), unusable rolls (pass), 2 and 12 (again).
    assert mirror.moves["remove"] and mirror.moves["replace"] and mirror.moves["pass"]
    assert mirror.positions["extra_turn"], mirror.positions


def test_dice_on_a_full_board_an_eleven_replaces_or_passes_as_the_engine() -> None:
    # Three players (60 chips) needing six in a row fill the 36 spaces: the Dice 11 Decision.
    env = batched_env(4, "dice", opponents="self", seed=4, log=True, players=3, dice_line_length=6)
    mirror = _play_and_compare(env, 400, seed=5)
    assert mirror.positions["pass_or_replace"] > 0, mirror.positions


def test_difficult_breaks_sequences_as_the_engine() -> None:
    env = BatchedSequenceEnv(
        6, "classic", opponents="self", seed=5, log=True, players=2, difficult=True
    )
    _play_and_compare(env, 600, seed=11)
    assert env.counters["broken_sequences"] > 0, env.counters


def test_long_classic_games_reshuffle_and_choose_windows_as_the_engine() -> None:
    env = BatchedSequenceEnv(6, "classic", opponents="self", seed=5, log=True, players=2)
    mirror = _play_and_compare(env, 600, seed=11)
    assert env.counters["reshuffles"] > 0, env.counters
    assert env.counters["window_choices"] > 0, env.counters
    assert mirror.moves["discard"] or mirror.moves["dead"]


@pytest.mark.parametrize(
    "name",
    [
        "classic-2p",
        "classic-4p-teams",
        "kids-2p",
        "classic-2p-manual-draw",
        "dice-2p",
        "dice-4p-teams",
        "draft-2p",
        "draft-4p",
    ],
)
@pytest.mark.parametrize("seat", [0, 1])
def test_random_opponents_agree_with_the_engine(name: str, seat: int) -> None:
    game, options = PARITY[name]
    env = batched_env(4, game, agent_seat=seat, seed=2, log=True, **options)
    _play_and_compare(env, 150, seed=seat)


def test_the_random_opponent_is_uniform_over_legal_actions() -> None:
    env = BatchedSequenceEnv(1, "kids", opponents="self", seed=0, players=2)
    _, info = env.reset(seed=0)
    legal = np.flatnonzero(info["action_mask"][0])
    rng = np.random.default_rng(0)
    picks = [int(env.sample_actions(rng)[0]) for _ in range(3000)]
    counts = np.bincount(picks, minlength=env.space.n)[legal]
    assert set(picks) == set(legal.tolist())
    assert counts.min() > 0.6 * 3000 / len(legal)


def test_an_illegal_action_is_refused_and_nothing_is_played() -> None:
    env = BatchedSequenceEnv(2, "classic", opponents="self", seed=0, players=2)
    obs, info = env.reset()
    illegal = int(np.flatnonzero(info["action_mask"][1] == 0)[0])
    actions = env.sample_actions()
    actions[1] = illegal
    with pytest.raises(ValueError, match="not legal"):
        env.step(actions)
    np.testing.assert_array_equal(env.observe(env._rows), obs)
    legal = env.sample_actions()
    for bad in (legal + 0.5, legal.astype(bool), [str(a) for a in legal]):
        with pytest.raises(ValueError, match="actions are integers"):  # not cut to an id
            env.step(bad)
    np.testing.assert_array_equal(env.observe(env._rows), obs)


OBSERVATIONS = {
    "planes": {"observation": "planes"},
    "history": {"history": 3},
    "planes-history": {"observation": "planes", "history": 2},
}


@pytest.mark.parametrize("obs_name", sorted(OBSERVATIONS))
@pytest.mark.parametrize(
    "name",
    [
        "classic-2p",
        "classic-4p-teams",
        "kids-2p",
        "classic-2p-manual-draw",
        "dice-2p",
        "dice-4p-teams",
        "draft-2p",
        "draft-4p",
    ],
)
def test_planes_and_history_agree_with_the_observer(name: str, obs_name: str) -> None:
    # Self-play: every seat's observation; planes and history as the Gym env's Observer makes
    # them from the engine's view, every step, through ends and auto-resets; every few steps
    # also from states resampled from that view (hidden cards changed: nothing changes).
    game, options = PARITY[name]
    env = batched_env(
        3, game, opponents="self", seed=7, log=True, **options, **OBSERVATIONS[obs_name]
    )
    _play_and_compare(env, 160, seed=4, resample_every=20)


@pytest.mark.parametrize("obs_name", sorted(OBSERVATIONS))
@pytest.mark.parametrize("name", ["classic-2p", "dice-2p", "draft-2p"])
def test_planes_and_history_against_random_opponents(name: str, obs_name: str) -> None:
    # The agent's seat only: its history holds the opponents' moves between its decisions.
    game, options = PARITY[name]
    env = batched_env(3, game, agent_seat=1, seed=8, log=True, **options, **OBSERVATIONS[obs_name])
    _play_and_compare(env, 120, seed=6, resample_every=15)


def test_observation_shapes_match_the_gym_env() -> None:
    from sequence.env.gym import GymSequenceEnv

    for game in ("classic", "kids", "dice", "draft"):
        for options in OBSERVATIONS.values():
            env = batched_env(2, game, seed=0, **options)
            obs, _ = env.reset()
            single = GymSequenceEnv(game, **options)
            space = single.observation_space
            if isinstance(obs, dict):
                for key in ("board", "features"):
                    assert obs[key].shape[1:] == space[key].shape, (game, options, key)
                    assert all(space[key].contains(row) for row in obs[key])
            else:
                assert obs.shape[1:] == space.shape
                assert all(space.contains(row) for row in obs)


@pytest.mark.parametrize(
    ("option", "match"),
    [
        ({"planes": True}, "observation='planes'"),
        ({"observation": "pixels"}, "'flat' or 'planes'"),
        ({"history": -1}, "history is a number"),
    ],
)
def test_observation_options_it_does_not_take_are_refused(
    option: dict[str, Any], match: str
) -> None:
    with pytest.raises(ValueError, match=match):
        BatchedSequenceEnv(2, "classic", **option)


@pytest.mark.parametrize(
    ("game", "cls"),
    [("classic", "BatchedSequenceEnv"), ("dice", "BatchedDiceEnv"), ("draft", "BatchedDraftEnv")],
)
def test_every_game_is_played_by_its_own_class(game: str, cls: str) -> None:
    options = {} if game == "dice" else {"difficult": True}
    assert supported(make_config(game, players=2, **options)) is None
    env = batched_env(2, make_config(game, players=2), seed=0)
    assert type(env).__name__ == cls and isinstance(env, BatchedSequenceEnv)
    assert batched_env_class(make_config(game, players=2, **options)) is type(env)
    assert type(batched_env(2, game, opponents="self", players=2)) is type(env)
    assert type(batched_env(num_envs=2, config=game)) is type(env)
    assert type(type(env)(2, game, players=2)) is type(env)


def test_a_class_refuses_another_game() -> None:
    from sequence.env.batched import BatchedDiceEnv, BatchedDraftEnv

    with pytest.raises(ValueError, match="plays Dice"):
        BatchedDiceEnv(2, "classic")
    with pytest.raises(ValueError, match="draft variant"):
        BatchedDraftEnv(2, "kids")
    with pytest.raises(ValueError, match=r"Dice is BatchedDiceEnv's .*batched_env"):
        BatchedSequenceEnv(2, "dice")
    with pytest.raises(ValueError, match=r"draft variant is BatchedDraftEnv's .*batched_env"):
        BatchedSequenceEnv(2, "draft")
    with pytest.raises(ValueError, match="draft variant is BatchedDraftEnv's"):
        BatchedSequenceEnv(2, make_config("classic", players=2, draft=True))
    with pytest.raises(ValueError, match="chess"):
        BatchedSequenceEnv(2, "chess")
    with pytest.raises(ValueError, match="chess"):
        batched_env(2, "chess")


def test_the_factory_refuses_what_the_constructor_refuses() -> None:
    with pytest.raises(ValueError, match="observation='planes'"):
        batched_env(2, "dice", planes=True)
    with pytest.raises(ValueError, match="num_envs"):
        batched_env(0, "draft")
    with pytest.raises(TypeError, match="make_config arguments go with a game name"):
        batched_env(2, make_config("dice", players=2), players=2)


def test_same_seed_same_games() -> None:
    runs = []
    for _ in range(2):
        env = BatchedSequenceEnv(4, "classic", seed=9, players=2)
        obs, _ = env.reset()
        rng = np.random.default_rng(1)
        for _ in range(30):
            obs, *_ = env.step(env.sample_actions(rng))
        runs.append(obs)
    np.testing.assert_array_equal(runs[0], runs[1])


def _state_before(z: int) -> int:
    """The SplitMix64 state whose next output is ``z`` (the mixer inverted), for testing the
    engine's rare rejection of a die."""
    mask = (1 << 64) - 1
    z ^= z >> 31 ^ z >> 62
    z = z * pow(0x94D049BB133111EB, -1, 1 << 64) & mask
    z ^= z >> 27 ^ z >> 54
    z = z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64) & mask
    z ^= z >> 30 ^ z >> 60
    return (z - 0x9E3779B97F4A7C15) & mask


def test_batched_dice_roll_as_the_engine_rejections_included() -> None:
    from sequence.engine import rng
    from sequence.engine.setup import roll_dice as engine_roll
    from sequence.env.batched_dice import roll_dice

    gen = np.random.default_rng(0)
    states = [int(x) for x in gen.integers(0, 2**63, 2000)] + [0, 2**64 - 1]
    rejected = _state_before(2**64 - 1)  # its first die is drawn again by the engine
    assert rng.next_u64(rejected)[1] == 2**64 - 1
    states.append(rejected)
    after, a, b = roll_dice(np.asarray(states, dtype=np.uint64))
    for i, state in enumerate(states):
        assert engine_roll(state) == (int(after[i]), int(a[i]), int(b[i]))


@pytest.mark.parametrize("n", [1, 2, 52, 104])
def test_the_engines_shuffle_is_a_stable_argsort_of_its_keys(n: int) -> None:
    # What the batched simulator's deals and reshuffles rely on: rng.shuffled's order is the
    # items put in a stable argsort of rng.shuffle_keys' keys, and both leave the same state.
    from sequence.engine import rng

    items = list(range(1000, 1000 + n))
    for seed in range(20):
        state = rng.seed_state(seed)
        after, shuffled = rng.shuffled(state, items)
        after_keys, raw = rng.shuffle_keys(state, n)
        order = np.frombuffer(raw, dtype="<u8").argsort(kind="stable")
        assert after == after_keys
        assert shuffled == [items[i] for i in order]


def test_new_games_are_the_engines_deals() -> None:
    # Every slot's first game, dealt in numpy, is State.new's: hands, pile, seat to move.
    for game, options in (("classic", {"players": 3}), ("kids", {"players": 4})):
        env = batched_env(16, game, opponents="self", seed=4, **options)
        env.reset()
        for g in range(env.num_envs):
            state = State.new(env.config, int(env.game_seeds[g]))
            index = env.card_index
            for seat in range(env.players):
                counts = np.zeros(env.num_cards, dtype=np.int64)
                for card in state.hand_of(seat):
                    counts[index[card]] += 1
                np.testing.assert_array_equal(env.hands[g, seat], counts)
            deck = [index[card] for card in state._deck]
            assert env.deck[g, : env.deck_len[g]].tolist() == deck
            assert env.deck_pos[g] == state._deck_pos
            assert env.to_move[g] == state.to_move
            assert env.rng_state[g] == state._rng


def test_observe_clears_every_entry_it_does_not_write() -> None:
    # observe skips clearing the segments it writes whole; the cleared path gives the same.
    env = BatchedSequenceEnv(8, "classic", opponents="self", seed=6, players=4, teams=2)
    env.reset()
    rng = np.random.default_rng(0)
    for _ in range(60):
        env.step(env.sample_actions(rng))
    fast = env.observe(env._rows)
    env._all_written = False
    np.testing.assert_array_equal(env.observe(env._rows), fast)
