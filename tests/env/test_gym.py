"""The Gymnasium adapter: Gymnasium's own checker, spaces, seeding, masks, illegal actions."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

gymnasium = pytest.importorskip("gymnasium", reason="the gym extra (Gymnasium) is not installed")
np = pytest.importorskip("numpy", reason="the gym extra (numpy) is not installed")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from sequence.env import IllegalActionError, SequenceEnv  # noqa: E402
from sequence.env.gym import ENV_IDS, GymSequenceEnv  # noqa: E402

from .conftest import CONFIGS  # noqa: E402


@pytest.mark.parametrize("env_id", sorted(ENV_IDS))
def test_gymnasiums_checker_passes_without_a_warning(
    env_id: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = gymnasium.make(env_id, opponents="random")
        check_env(env.unwrapped)
    # The checker makes an env of every render mode ("human" too), resets it and renders it:
    # nothing is printed (a "human" env prints at its steps, not at render()).
    assert capsys.readouterr().out == ""


INFO_KEYS = {"action_mask", "turn", "winner", "termination", "illegal_action"}


def _as_list(obs: Any) -> Any:
    if isinstance(obs, dict):
        return {key: value.tolist() for key, value in obs.items()}
    return obs.tolist()


def _play(env: GymSequenceEnv, seed: int, policy_seed: int = 0) -> list[Any]:
    """One episode with a random masked policy; every observation and reward, in order."""
    rng = random.Random(policy_seed)
    obs, info = env.reset(seed=seed)
    trace: list[Any] = [_as_list(obs)]
    done = False
    while not done:
        assert env.observation_space.contains(obs)
        assert set(info) == INFO_KEYS and info["winner"] == -1 and info["termination"] == ""
        mask = info["action_mask"]
        legal = np.flatnonzero(mask)
        assert mask.dtype == np.int8 and mask.shape == (env.action_space.n,)
        assert legal.tolist() == env.unwrapped.env.legal_actions()
        assert env.action_masks().tolist() == mask.astype(bool).tolist()
        action = legal[rng.randrange(len(legal))]  # a numpy integer, as policies give
        obs, reward, terminated, truncated, info = env.step(action)
        trace += [_as_list(obs), reward]
        done = terminated or truncated
    assert env.observation_space.contains(obs)
    assert not env.action_masks().any() and not info["action_mask"].any()
    assert set(info) == INFO_KEYS and isinstance(info["winner"], int)
    assert reward in (-1.0, 0.0, 1.0) and info["illegal_action"] == ""
    assert reward == 0.0 if info["winner"] == -1 else info["termination"] != ""
    return trace


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_masked_random_play_stays_in_the_spaces_in_every_configuration(name: str) -> None:
    options = dict(CONFIGS[name])
    game = options.pop("game")
    _play(GymSequenceEnv(game, opponents="random", **options), seed=3)
    planes = GymSequenceEnv(game, opponents="random", observation="planes", history=3, **options)
    _play(planes, seed=4)


def test_observations_are_scaled_and_planes_are_boards() -> None:
    env = GymSequenceEnv("classic", players=2, observation="planes", history=2)
    space = env.observation_space
    assert isinstance(space, gymnasium.spaces.Dict)
    board, features = space["board"], space["features"]
    assert board.shape == (9, 10, 10) and (board.low == 0).all() and (board.high == 1).all()
    assert (features.low == 0).all() and (features.high == 1).all()
    obs, info = env.reset(seed=1)
    names = [name for name, _ in env.observer.channels]
    assert names == ["chips_0", "chips_1", "empty", "free", "locked_0", "locked_1", "hand"] + [
        "last_0",
        "last_1",
    ]
    chips, empty, free = obs["board"][0], obs["board"][2], obs["board"][3]
    assert free.sum() == 4 and free[0, 0] == free[9, 9] == 1
    assert empty.sum() == 96 - obs["board"][:2].sum()
    before = int(chips.sum())
    obs, *_ = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    flat = GymSequenceEnv("classic", players=2)
    assert flat.observation_space.shape == (827,)
    assert (flat.observation_space.high == 1).all()  # type: ignore[attr-defined]
    assert obs["board"][7:].sum() >= 1  # the last moves' spaces (one of them at least)
    assert obs["board"][0].sum() >= before


def test_reset_seed_fixes_the_episode_and_the_ones_after_it() -> None:
    a = GymSequenceEnv("classic", opponents="greedy")
    b = GymSequenceEnv("classic", opponents="greedy")
    assert _play(a, seed=11) == _play(b, seed=11)
    # Unseeded resets go on from the seeded generator, the same way in both.
    obs_a, _ = a.reset()
    obs_b, _ = b.reset()
    assert obs_a.tolist() == obs_b.tolist()
    assert _play(a, seed=12) != _play(a, seed=11)


def test_an_illegal_action_ends_the_episode_by_default_and_raises_on_request() -> None:
    env = GymSequenceEnv("classic", opponents="random")
    _, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert "is illegal" in info["illegal_action"] and not info["action_mask"].any()
    assert (info["winner"], info["termination"]) == (-1, "illegal_action")
    # The message points to what this env has, not the plain env's info['legal_actions'].
    assert "info['action_mask'] or env.unwrapped.action_masks()" in info["illegal_action"]
    assert "info['legal_actions']" not in info["illegal_action"]
    # An action that is not an integer is the caller's bug: raised, not a penalty.
    _, info = env.reset(seed=2)
    assert env.legal_actions() == np.flatnonzero(info["action_mask"]).tolist()
    for bad in (float(env.legal_actions()[0]), True, None, np.array([0])):
        with pytest.raises(IllegalActionError, match="an action is an int"):
            env.step(bad)
    assert env.legal_actions() == np.flatnonzero(info["action_mask"]).tolist()  # untouched

    strict = GymSequenceEnv("classic", opponents="random", illegal="raise")
    before, _ = strict.reset(seed=2)
    legal = int(strict.action_masks().nonzero()[0][0])
    # Equal to a legal id, but not an integer (or a bool, which Python counts as one).
    lookalikes = (float(legal), np.array([legal]), True, False)
    for bad in (illegal, -1, 10**6, 1.5, "x", None, *lookalikes):
        with pytest.raises(IllegalActionError):
            strict.step(bad)
    assert strict.env.view.hand == env.env.view.hand  # the same deal, untouched
    assert (
        strict.step(np.array(int(strict.action_masks().nonzero()[0][0])))[0].shape == before.shape
    )


def test_render_modes(capsys: pytest.CaptureFixture[str]) -> None:
    env = GymSequenceEnv("kids", render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and "hold:" in text
    quiet = GymSequenceEnv("kids")
    quiet.reset(seed=1)
    assert quiet.render() is None
    human = GymSequenceEnv("kids", render_mode="human")
    _, info = human.reset(seed=1)
    assert human.render() is None and capsys.readouterr().out == ""  # steps print, not render()
    human.step(int(np.flatnonzero(info["action_mask"])[0]))
    printed = capsys.readouterr().out
    assert printed == human.unwrapped.env.render() + "\n\n"  # human mode shows every step
    assert human.render() is None and capsys.readouterr().out == ""
    picture = GymSequenceEnv("kids", render_mode="rgb_array")
    picture.reset(seed=1)
    image = picture.render()
    assert image.dtype == np.uint8 and image.shape == (6 * 16, 7 * 16, 3)
    with pytest.raises(ValueError, match="render_mode"):
        GymSequenceEnv("kids", render_mode="video")


def test_draft_id_plays_classic_with_the_draft_option() -> None:
    env = gymnasium.make("sequence/Draft-v0", players=4)
    assert env.unwrapped.env.config.draft and env.unwrapped.env.config.players == 4
    with pytest.raises(ValueError, match="5 players: they cannot be split"):
        GymSequenceEnv("classic", players=5)


def test_what_the_agent_gets_is_what_the_plain_environment_gives() -> None:
    """The adapter adds nothing: the same keys, the same numbers (so nothing hidden either)."""
    gym_env = GymSequenceEnv("classic", players=3, opponents="greedy")
    plain = SequenceEnv("classic", players=3, opponents="greedy", illegal="penalty")
    obs, info = gym_env.reset(seed=5)
    # Find the episode seed the adapter used, by giving the plain environment the same one.
    episode_seed = int(np.random.default_rng(5).integers(2**63 - 1))
    plain_obs, plain_info = plain.reset(seed=episode_seed)
    high = np.asarray(plain.observation_layout.high(), dtype=np.float64)
    assert np.allclose(obs, np.asarray(plain_obs) / high)  # the same numbers, scaled
    # The same keys but the variable-length legal_actions and the outcome object.
    assert set(info) == set(plain_info) - {"legal_actions", "outcome"}
    assert np.flatnonzero(info["action_mask"]).tolist() == plain_info["legal_actions"]


def _random_masked_actions(masks: Any, rng: np.random.Generator) -> Any:
    return np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])


@pytest.mark.parametrize("vector", ["sync", "async"])
def test_gymnasiums_vector_environments_stack_observations_and_info(vector: str) -> None:
    """Envs whose agents have different numbers of legal actions, and episodes that end (a
    draw's winner too) at different steps: every info key stacks."""
    make = gymnasium.vector.SyncVectorEnv if vector == "sync" else gymnasium.vector.AsyncVectorEnv
    fns = [
        lambda: gymnasium.make("sequence/Kids-v0", opponents="random", max_turns=6),
        lambda: gymnasium.make("sequence/Kids-v0", opponents="random", observation="flat"),
    ]
    envs = make(fns)
    try:
        obs, info = envs.reset(seed=[1, 2])
        assert obs.shape == (2, envs.single_observation_space.shape[0])
        assert info["action_mask"].shape == (2, 155) and info["winner"].tolist() == [-1, -1]
        rng = np.random.default_rng(0)
        ended = 0
        for _ in range(40):
            actions = _random_masked_actions(info["action_mask"], rng)
            obs, _rewards, terminated, truncated, info = envs.step(actions)
            ended += int(terminated.sum() + truncated.sum())
            assert info["winner"].dtype.kind == "i"
            if not info["action_mask"].any(axis=1).all():  # a finished env: the next step resets
                info["action_mask"][~info["action_mask"].any(axis=1), 0] = 1
        assert ended >= 1  # the 6-turn game ended (a draw) and the vector env went on
    finally:
        envs.close()


def test_stable_baselines3_learns_with_maskable_ppo_and_no_wrapper() -> None:
    pytest.importorskip("sb3_contrib", reason="the rl extra (sb3-contrib) is not installed")
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env

    vec = make_vec_env("sequence/Kids-v0", n_envs=2, seed=0, env_kwargs={"opponents": "random"})
    assert vec.render_mode == "rgb_array"  # what make_vec_env asks for, given
    model = MaskablePPO("MlpPolicy", vec, n_steps=64, batch_size=64, n_epochs=1, seed=0)
    model.learn(total_timesteps=256)
    assert model.num_timesteps >= 256
    planes = make_vec_env(
        "sequence/Dice-v0", n_envs=1, env_kwargs={"opponents": "random", "observation": "planes"}
    )
    MaskablePPO("MultiInputPolicy", planes, n_steps=16, batch_size=16, n_epochs=1).learn(16)
    vec.close()
    planes.close()


@pytest.mark.parametrize("seed", [0, 2, 19, 28])
def test_four_player_kids_episodes_against_greedy_end(seed: int) -> None:
    # Issue 28: at these seeds a greedy opponent used to exchange dead cards for ever inside
    # env.step; a turn now has at most three exchanges (RULES.md §3), then a play or a pass.
    env = gymnasium.make("sequence/Kids-v0", players=4)
    env.action_space.seed(seed)
    _, info = env.reset(seed=seed)
    bound = 1000  # max_turns: the agent acts at most once a turn
    for _ in range(bound):
        action = env.action_space.sample(info["action_mask"].astype(np.int8))
        _, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
    else:
        pytest.fail(f"seed {seed}: no end after {bound} steps")
    env.close()
