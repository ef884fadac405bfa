"""The batched simulator against the engine: the same games, move for move.

Each batched game is mirrored by an engine :class:`State` made from the same seed; both are fed
the same actions, and every mask, observation (the Gymnasium face's ``Observer``), reward and
end must agree, through auto-resets, reshuffles, dead cards and discards.
"""

from __future__ import annotations

from typing import Any

import pytest

np = pytest.importorskip("numpy", reason="the gym extra (numpy) is not installed")

from sequence.engine import Config, State, StepKind, make_config  # noqa: E402
from sequence.env import action_space  # noqa: E402
from sequence.env.arrays import Observer  # noqa: E402
from sequence.env.batched import TERMINATIONS, BatchedSequenceEnv, supported  # noqa: E402

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
}


class Mirror:
    """The engine's games beside a batched env's: one State per slot, rebuilt on reset."""

    def __init__(self, env: BatchedSequenceEnv) -> None:
        self.env = env
        self.config: Config = env.config
        self.observer = Observer(env.config)
        self.space = action_space(env.config)
        self.states = [State.new(self.config, int(s)) for s in env.game_seeds]
        self.moves = {"dead": 0, "discard": 0, "remove": 0, "pass": 0}
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
            np.testing.assert_array_equal(obs[g], self.observer.encode(view), err_msg=str(g))

    def play(self, g: int, action: int) -> None:
        move = self.space.action_to_move(action)
        name = move.kind.name.lower()
        if name in self.moves:
            self.moves[name] += 1
        self.states[g].push(move)
        # manual_draw: the draw that follows, taken at once as the single environment takes it.
        self.states[g].play_forced()

    def opponents(self, g: int, actions: list[int]) -> None:
        for a in actions:
            self.play(g, a)


def _play_and_compare(env: BatchedSequenceEnv, steps: int, seed: int) -> Mirror:
    obs, info = env.reset(seed=seed)
    mirror = Mirror(env)
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
                np.testing.assert_array_equal(info["final_observation"][g], final)
                assert TERMINATIONS[info["termination"][g]] == outcome.termination.value
                winner = -1 if outcome.winner is None else outcome.winner
                assert info["winner"][g] == winner
                team = state.config.team_of(actors[g])
                expected = 0.0 if winner < 0 else (1.0 if winner == team else -1.0)
                assert reward[g] == expected
                assert bool(truncated[g]) == (outcome.termination.value == "max_turns")
                # The slot starts again with its next seed, and so does the mirror.
                assert env.game_seeds[g] != seeds_before[g]
                mirror.states[g] = new = State.new(mirror.config, int(env.game_seeds[g]))
                if not env.self_play:
                    mirror.opponents(g, env.opening_log[g])
                    assert new.to_move == env.agent_seat
            else:
                assert reward[g] == 0.0
        mirror.check(obs, info)
    assert ends > 0, "no game ended: play more steps"
    return mirror


@pytest.mark.parametrize("name", sorted(PARITY))
def test_self_play_agrees_with_the_engine_move_for_move(name: str) -> None:
    game, options = PARITY[name]
    env = BatchedSequenceEnv(4, game, opponents="self", seed=1, log=True, **options)
    mirror = _play_and_compare(env, 400, seed=3)
    assert mirror.moves["dead"] and mirror.moves["remove"], mirror.moves


def test_long_classic_games_reshuffle_and_choose_windows_as_the_engine() -> None:
    env = BatchedSequenceEnv(6, "classic", opponents="self", seed=5, log=True, players=2)
    mirror = _play_and_compare(env, 600, seed=11)
    assert env.counters["reshuffles"] > 0, env.counters
    assert env.counters["window_choices"] > 0, env.counters
    assert mirror.moves["discard"] or mirror.moves["dead"]


@pytest.mark.parametrize(
    "name", ["classic-2p", "classic-4p-teams", "kids-2p", "classic-2p-manual-draw"]
)
@pytest.mark.parametrize("seat", [0, 1])
def test_random_opponents_agree_with_the_engine(name: str, seat: int) -> None:
    game, options = PARITY[name]
    env = BatchedSequenceEnv(4, game, agent_seat=seat, seed=2, log=True, **options)
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


@pytest.mark.parametrize(
    "config",
    [
        make_config("dice", players=2),
        make_config("classic", players=2, draft=True),
        make_config("classic", players=2, difficult=True),
    ],
)
def test_configurations_it_does_not_play_are_refused(config: Config) -> None:
    assert supported(config)
    with pytest.raises(ValueError, match="batched simulator"):
        BatchedSequenceEnv(2, config)


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
        env = BatchedSequenceEnv(16, game, opponents="self", seed=4, **options)
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
