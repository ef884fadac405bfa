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
def test_gymnasiums_checker_passes_without_a_warning(env_id: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = gymnasium.make(env_id, opponents="random")
        check_env(env.unwrapped)


def _play(env: GymSequenceEnv, seed: int, policy_seed: int = 0) -> list[Any]:
    """One episode with a random masked policy; every observation and reward, in order."""
    rng = random.Random(policy_seed)
    obs, info = env.reset(seed=seed)
    trace: list[Any] = [obs.tolist()]
    done = False
    while not done:
        assert env.observation_space.contains(obs)
        mask = info["action_mask"]
        legal = info["legal_actions"]
        assert mask.dtype == np.int8 and mask.shape == (env.action_space.n,)
        assert np.flatnonzero(mask).tolist() == legal.tolist()
        assert env.action_masks().tolist() == mask.astype(bool).tolist()
        action = legal[rng.randrange(len(legal))]  # a numpy integer, as policies give
        obs, reward, terminated, truncated, info = env.step(action)
        trace += [obs.tolist(), reward]
        done = terminated or truncated
    assert env.observation_space.contains(obs)
    assert not env.action_masks().any()
    assert reward in (-1.0, 0.0, 1.0) and "illegal_action" not in info
    return trace


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_masked_random_play_stays_in_the_spaces_in_every_configuration(name: str) -> None:
    options = dict(CONFIGS[name])
    env = GymSequenceEnv(options.pop("game"), opponents="random", **options)
    _play(env, seed=3)


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

    strict = GymSequenceEnv("classic", opponents="random", illegal="raise")
    before, _ = strict.reset(seed=2)
    for bad in (illegal, -1, 10**6, 1.5, "x", None):
        with pytest.raises(IllegalActionError):
            strict.step(bad)
    assert strict.env.view.hand == env.env.view.hand  # the same deal, untouched
    assert (
        strict.step(np.array(int(strict.action_masks().nonzero()[0][0])))[0].shape == before.shape
    )


def test_render_modes() -> None:
    env = GymSequenceEnv("kids", render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and "hold:" in text
    quiet = GymSequenceEnv("kids")
    quiet.reset(seed=1)
    assert quiet.render() is None
    with pytest.raises(ValueError, match="render_mode"):
        GymSequenceEnv("kids", render_mode="human")


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
    assert obs.tolist() == plain_obs
    assert set(info) == set(plain_info)
    assert info["legal_actions"].tolist() == plain_info["legal_actions"]
