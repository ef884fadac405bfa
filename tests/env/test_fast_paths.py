"""The Gymnasium env's fast paths give exactly what the straightforward ones give.

A Gym step writes its observation over the seat's last one (only the entries whose source
changed), reads the view's fields by place, and makes the mask from the legal ids found once a
decision. Here, over random Dice games (two players, and four in two teams), each step of the
Gym env is compared, number for number, with the plain :class:`~sequence.env.SequenceEnv`
playing the same episode beside it: its observation (``encode_observation``'s ints, scaled as
the observer documents: the float32 product of each count and ``1 / high``), its mask and its
``info``; and every twentieth observation with what a new :class:`Observer`, which has seen nothing
before, makes of the same view.
"""

from __future__ import annotations

from typing import Any

import pytest

np = pytest.importorskip("numpy", reason="the gym extra (numpy) is not installed")
pytest.importorskip("gymnasium", reason="the gym extra (gymnasium) is not installed")

from sequence.env import SequenceEnv, observation_layout  # noqa: E402
from sequence.env.arrays import Observer  # noqa: E402
from sequence.env.gym import GymSequenceEnv  # noqa: E402

GAMES = {
    "dice-2p": {"players": 2},
    "dice-4p-teams": {"players": 4, "teams": 2},
}


def _same_info(info: dict[str, Any], plain: dict[str, Any]) -> None:
    assert info["action_mask"].dtype == np.int8
    assert info["action_mask"].tolist() == plain["action_mask"]
    assert np.flatnonzero(info["action_mask"]).tolist() == plain["legal_actions"]
    for key in ("turn", "winner", "termination"):
        assert info[key] == plain[key], key
    # The same reason, each pointing to where its own info lists the legal actions.
    assert info["illegal_action"].split(" (see ")[0] == plain["illegal_action"].split(" (see ")[0]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_gym_steps_are_the_plain_environments_numbers(name: str) -> None:
    options = GAMES[name]
    gym_env = GymSequenceEnv("dice", opponents="random", **options)
    plain = SequenceEnv("dice", opponents="random", illegal="penalty", seed=None, **options)
    config = plain.config
    high = np.asarray(observation_layout(config).high(), dtype=np.float64)
    scale = (1.0 / high).astype(np.float32)
    seeds = np.random.default_rng(3)  # the Gym env's own draws of episode seeds, mirrored
    rng = np.random.default_rng(0)

    def scaled(obs: list[int]) -> Any:
        return np.asarray(obs, dtype=np.float32) * scale

    obs, info = gym_env.reset(seed=3)
    plain_obs, plain_info = plain.reset(seed=int(seeds.integers(2**63 - 1)))
    steps = episodes = illegal = 0
    while steps < 800:
        assert np.array_equal(obs, scaled(plain_obs))
        _same_info(info, plain_info)
        if steps % 20 == 0:  # a new observer starts from nothing: the same numbers
            assert np.array_equal(obs, Observer(config).encode(gym_env.env.view))
        legal = np.flatnonzero(info["action_mask"])
        if rng.random() < 0.02:  # now and then an illegal action: it ends the episode
            action = int(rng.choice(np.setdiff1d(np.arange(plain.num_actions), legal)))
        else:
            action = int(rng.choice(legal))
        obs, reward, terminated, truncated, info = gym_env.step(action)
        plain_obs, plain_reward, *ends, plain_info = plain.step(action)
        assert (reward, terminated, truncated) == (plain_reward, *ends)
        steps += 1
        if terminated or truncated:
            assert np.array_equal(obs, scaled(plain_obs))
            _same_info(info, plain_info)
            illegal += bool(info["illegal_action"])
            episodes += 1
            obs, info = gym_env.reset()
            plain_obs, plain_info = plain.reset(seed=int(seeds.integers(2**63 - 1)))
    # Whole games and episodes cut short by an illegal action, both.
    assert episodes > 15 and 0 < illegal < episodes, (episodes, illegal)
