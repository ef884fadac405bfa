"""The batched simulator through the standard vector interfaces: Gymnasium's VectorEnv, SB3's
VecEnv, and MaskablePPO training on it with no wrapper."""

from __future__ import annotations

from typing import Any

import pytest

np = pytest.importorskip("numpy", reason="the gym extra (numpy) is not installed")
gymnasium = pytest.importorskip("gymnasium", reason="the gym extra is not installed")

import sequence.env.gym  # noqa: E402,F401  (registers the ids)
from sequence.env.arrays import Observer  # noqa: E402
from sequence.env.vector import BatchedVectorEnv  # noqa: E402


def _masked_sample(envs: Any, mask: Any) -> Any:
    return envs.action_space.sample(mask=tuple(mask.astype(np.int8)))


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("classic", {"opponents": "greedy", "players": 2}),
        ("kids", {"opponents": "self", "players": 3}),
        ("dice", {"opponents": "random", "observation": "planes"}),
        ("draft", {"opponents": "random", "history": 2}),
    ],
)
def test_gymnasium_vector_env_spaces_steps_and_same_step_autoreset(
    game: str, options: dict[str, Any]
) -> None:
    envs = BatchedVectorEnv(8, game, seed=0, **options)
    assert envs.metadata["autoreset_mode"] is gymnasium.vector.AutoresetMode.SAME_STEP
    single = gymnasium.make(f"sequence/{game.title()}-v0", **{**options, "opponents": "random"})
    assert envs.single_observation_space == single.observation_space
    assert envs.single_action_space == single.action_space
    obs, info = envs.reset(seed=3)
    assert envs.observation_space.contains(obs)
    ends = 0
    for _ in range(150):
        masks = envs.action_masks()
        np.testing.assert_array_equal(masks, info["action_mask"].astype(bool))
        assert masks.any(axis=1).all()  # same-step autoreset: every game has a move
        obs, reward, terminated, truncated, info = envs.step(_masked_sample(envs, masks))
        assert envs.observation_space.contains(obs)
        ended = terminated | truncated
        if ended.any():
            ends += int(ended.sum())
            np.testing.assert_array_equal(info["_final_obs"], ended)
            for g in range(8):
                final = info["final_obs"][g]
                assert (final is None) == (not ended[g])
                if final is not None:
                    assert envs.single_observation_space.contains(final)
                    assert info["final_info"]["termination"][g] in (
                        "sequences",
                        "max_turns",
                        "stalemate",
                        "heart",
                        "draft_empty",
                    )
            assert set(reward[ended].tolist()) <= {-1.0, 0.0, 1.0}
        assert (reward[~ended] == 0).all()
    assert ends > 0


def test_gymnasium_vector_env_same_seed_same_games_and_bad_resets() -> None:
    runs = []
    for _ in range(2):
        envs = BatchedVectorEnv(4, "kids", opponents="greedy")
        obs, info = envs.reset(seed=11)
        rng = np.random.default_rng(0)
        trace = [obs.copy()]
        for _ in range(20):
            legal = [rng.choice(np.flatnonzero(m)) for m in info["action_mask"]]
            obs, *_, info = envs.step(np.asarray(legal))
            trace.append(obs.copy())
        runs.append(np.stack(trace))
    np.testing.assert_array_equal(runs[0], runs[1])
    with pytest.raises(ValueError, match="no options"):
        envs.reset(options={"x": 1})
    with pytest.raises(ValueError, match="one seed"):
        envs.reset(seed=[1, 2, 3, 4])


def test_make_vec_gives_the_batched_env_and_its_wrappers_work() -> None:
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    envs = gymnasium.make_vec("sequence/KidsBatched-v0", num_envs=16, opponents="greedy", seed=0)
    assert isinstance(envs, BatchedVectorEnv) and envs.num_envs == 16
    envs = RecordEpisodeStatistics(envs)
    _, info = envs.reset(seed=0)
    for _ in range(120):
        _, _, _, _, info = envs.step(_masked_sample(envs, info["action_mask"]))
    assert len(envs.return_queue) > 20 and np.mean(envs.return_queue) < 0  # greedy wins most
    # The plain ids still give a SyncVectorEnv of Gym envs.
    plain = gymnasium.make_vec("sequence/Kids-v0", num_envs=2, opponents="random")
    assert isinstance(plain, gymnasium.vector.SyncVectorEnv)


def test_observations_are_the_observers_of_the_agents_view() -> None:
    envs = BatchedVectorEnv(3, "classic", opponents="greedy", seed=5, players=2)
    obs, _ = envs.reset(seed=5)
    from sequence.engine import State

    observer = Observer(envs.sim.config)
    for g, seed in enumerate(envs.sim.game_seeds.tolist()):
        state = State.new(envs.sim.config, seed)
        if state.to_move == 0:  # the agent deals first: no opponent move before its own
            np.testing.assert_array_equal(obs[g], observer.encode(state.view(0)))


sb3 = pytest.importorskip("stable_baselines3", reason="the rl extra is not installed")
sb3_contrib = pytest.importorskip("sb3_contrib", reason="the rl extra is not installed")

from sequence.env.sb3 import BatchedVecEnv  # noqa: E402


def test_sb3_vec_env_conventions() -> None:
    envs = BatchedVecEnv(8, "classic", opponents="greedy", players=2)
    assert envs.has_attr("action_masks")
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    assert is_masking_supported(envs)
    envs.seed(4)
    obs = envs.reset()
    np.testing.assert_array_equal(get_action_masks(envs), envs.action_masks())
    assert envs.observation_space.contains(obs[0])
    rng = np.random.default_rng(0)
    ends = 0
    for _ in range(150):
        masks = get_action_masks(envs)
        actions = np.asarray([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, infos = envs.step(actions)
        for g in np.flatnonzero(dones).tolist():
            ends += 1
            info = infos[g]
            assert envs.observation_space.contains(info["terminal_observation"])
            assert info["episode"]["r"] == rewards[g] and info["episode"]["l"] > 0
            assert info["TimeLimit.truncated"] == (info["termination"] == "max_turns")
        assert all(not infos[g] for g in np.flatnonzero(~dones))
    assert ends > 0
    with pytest.raises(AttributeError, match="env_method calls only 'action_masks'"):
        envs.env_method("reset")
    envs.seed(4)
    np.testing.assert_array_equal(
        envs.reset(), BatchedVecEnv(8, "classic", opponents="greedy", players=2, seed=4).reset()
    )


@pytest.mark.parametrize(
    ("game", "policy", "options"),
    [
        ("kids", "MlpPolicy", {"opponents": "greedy"}),
        ("dice", "MultiInputPolicy", {"observation": "planes"}),
    ],
)
def test_maskable_ppo_trains_on_it_with_no_wrapper(
    game: str, policy: str, options: dict[str, Any]
) -> None:
    envs = BatchedVecEnv(16, game, **options)
    model = sb3_contrib.MaskablePPO(policy, envs, n_steps=16, batch_size=64, n_epochs=1, seed=0)
    model.learn(512)
    assert model.num_timesteps >= 512
    obs = envs.reset()
    actions, _ = model.predict(obs, action_masks=envs.action_masks(), deterministic=True)
    assert envs.action_masks()[np.arange(16), actions].all()


def test_sb3_module_examples() -> None:
    import doctest

    from sequence.env import sb3 as module

    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
