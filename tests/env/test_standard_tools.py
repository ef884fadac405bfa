"""The standard tools on small budgets, beside tests/env/test_gym.py's: Stable-Baselines3's own
environment checker, Gymnasium's ``make_vec``, Stable-Baselines3's ``SubprocVecEnv`` from a fresh
interpreter, sb3-contrib's masked evaluation, and a saved planes-and-history model read back as
a bot."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import pytest

gymnasium = pytest.importorskip("gymnasium")
sb3_contrib = pytest.importorskip("sb3_contrib")
pytest.importorskip("stable_baselines3")

import sequence.env.gym  # noqa: E402  (registers the ids; its path finds the sources)
from sequence.engine import State, make_config  # noqa: E402
from sequence.env.policy import PolicyBot  # noqa: E402


def test_stable_baselines3s_env_checker_passes() -> None:
    from stable_baselines3.common.env_checker import check_env

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(gymnasium.make("sequence/Classic-v0", opponents="random").unwrapped)
    assert [str(w.message) for w in caught] == []
    # planes: only its advice that a 10 x 10 float board is no picture for its CnnPolicy
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env = gymnasium.make("sequence/Kids-v0", opponents="random", observation="planes")
        check_env(env.unwrapped)
    assert all("image" in str(w.message) or "channels" in str(w.message) for w in caught)


def test_gymnasium_make_vec_async_and_masked_evaluation() -> None:
    from sb3_contrib.common.maskable.evaluation import evaluate_policy

    envs = gymnasium.make_vec(
        "sequence/Kids-v0", num_envs=2, vectorization_mode="async", opponents="random"
    )
    try:
        obs, info = envs.reset(seed=0)
        assert obs.shape == (2, envs.single_observation_space.shape[0])
        assert info["action_mask"].shape == (2, envs.single_action_space.n)
    finally:
        envs.close()
    env = gymnasium.make("sequence/Kids-v0", opponents="random")
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=32, seed=0)
    mean, _ = evaluate_policy(model, env, n_eval_episodes=2, warn=False)
    assert -1.0 <= mean <= 1.0


# A researcher's script that imports nothing of sequence at its top: the ids must reach the
# worker processes (started by forkserver, which do not inherit the parent's registry) by
# themselves. Gymnasium 1.x has no plugin entry points, so "module:id" is how they do.
_FRESH_SCRIPT = """
import gymnasium

def main():
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import SubprocVecEnv

    env = gymnasium.make("sequence.env.gym:sequence/Classic-v0", opponents="random")
    assert env.reset(seed=0)[0].shape == env.observation_space.shape
    envs = make_vec_env(
        "sequence.env.gym:sequence/Dice-v0", n_envs=2, vec_env_cls=SubprocVecEnv,
        env_kwargs={"opponents": "random"},
    )
    try:
        assert envs.reset().shape == (2, *envs.observation_space.shape)
        masks = envs.env_method("action_masks")
        envs.step([int(m.nonzero()[0][0]) for m in masks])
        print("workers", envs.get_attr("spec")[0].id)
    finally:
        envs.close()

if __name__ == "__main__":
    main()
"""


def test_subproc_vec_env_workers_find_the_ids_from_a_fresh_interpreter(tmp_path: Path) -> None:
    script = tmp_path / "train.py"
    script.write_text(textwrap.dedent(_FRESH_SCRIPT))
    source = str(Path(sequence.env.gym.__file__).parents[2])  # this checkout's src
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([source, os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["workers", "sequence/Dice-v0"]


def test_a_saved_planes_model_with_history_plays_as_a_bot(tmp_path: Path) -> None:
    env = gymnasium.make("sequence/Kids-v0", opponents="random", observation="planes", history=2)
    model = sb3_contrib.MaskablePPO("MultiInputPolicy", env, n_steps=16, batch_size=16, seed=0)
    model.learn(16)
    model.save(tmp_path / "planes.zip")
    bot = PolicyBot(path=str(tmp_path / "planes.zip"), seed=0)
    assert bot.planes
    state = State.new(make_config("kids"), seed=2)
    for _ in range(6):  # the model plays every seat: legal every time
        view = state.view(state.to_move)
        state.push(bot.choose(view), seat=state.to_move)
    assert bot.stats() == {"illegal": 0.0}
    observer = bot._observer(make_config("kids"))
    assert observer.history == 2 and isinstance(observer.encode(view), dict)
    classic = State.new(make_config("classic"), seed=1)
    with pytest.raises(ValueError, match="not this game"):  # a Kids model on a classic board
        bot.choose(classic.view(classic.to_move))
