"""The examples in the environment's docstrings and in docs/env.md run and say what they show."""

from __future__ import annotations

import doctest
import re
from pathlib import Path
from typing import Any

import pytest

from sequence.engine import make_config
from sequence.env import (
    action_space,
    actions,
    arrays,
    batched,
    batched_cards,
    batched_dice,
    batched_draft,
    batched_greedy,
    environment,
    gym,
    observation,
    observation_layout,
    openspiel,
    policy,
    vector,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "module",
    [
        actions,
        observation,
        arrays,
        environment,
        gym,
        batched,
        batched_cards,
        batched_dice,
        batched_draft,
        batched_greedy,
        vector,
        openspiel,
        policy,
    ],
)
def test_docstring_examples(module: object) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert result.attempted > 0 and result.failed == 0


def _python_blocks() -> list[str]:
    text = (ROOT / "docs" / "env.md").read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, re.S)


@pytest.mark.parametrize("kind", ["plain", "gymnasium", "pettingzoo"])
def test_docs_example_loops_run(kind: str) -> None:
    blocks = _python_blocks()
    marks = {"gymnasium": 'gymnasium.make("sequence/', "pettingzoo": "agent_iter()"}
    code = blocks[0] if kind == "plain" else next(b for b in blocks if marks[kind] in b)
    assert len(code.strip().splitlines()) <= 14
    namespace: dict[str, object] = {}
    exec(compile(code, "docs/env.md", "exec"), namespace)
    assert namespace["reward"] in (-1.0, 0.0, 1.0)
    if kind != "pettingzoo":
        assert namespace["done"] is True
    else:
        assert namespace["game"].agents == []  # type: ignore[attr-defined]  # every agent left


def test_docs_vector_env_example_runs_past_finished_episodes() -> None:
    code = next(b for b in _python_blocks() if "make_vec(" in b)
    namespace: dict[str, Any] = {}
    exec(compile(code, "docs/env.md", "exec"), namespace)
    envs, rng, info, np = (namespace[k] for k in ("envs", "rng", "info", "np"))
    assert namespace["obs"].shape[0] == 4
    # Go on as the example does: finished games come back with an all-0 mask row, given 0.
    empty_rows = 0
    for _ in range(200):
        empty_rows += int((~info["action_mask"].any(axis=1)).sum())
        actions = [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in info["action_mask"]]
        _, _, _, _, info = envs.step(actions)
    assert empty_rows > 0


def test_docs_batched_example_runs() -> None:
    text = (ROOT / "docs" / "env.md").read_text(encoding="utf-8")
    code = next(c for c in re.findall(r"```python\n(.*?)```", text, re.S) if "Batched" in c)
    namespace: dict[str, object] = {}
    exec(compile(code, "docs/env.md", "exec"), namespace)
    assert namespace["obs"].shape == (1024, 827)  # type: ignore[attr-defined]
    assert namespace["info"]["action_mask"].any(axis=1).all()  # type: ignore[index]
    p_obs: dict[str, Any] = namespace["p_obs"]  # type: ignore[assignment]
    assert p_obs["board"].shape == (1024, 11, 10, 10) and p_obs["features"].shape == (1024, 3019)
    assert type(namespace["dice"]).__name__ == "BatchedDiceEnv"


def test_docs_layout_tables_match_the_code() -> None:
    text = (ROOT / "docs" / "env.md").read_text(encoding="utf-8")
    for game in ("classic", "kids", "dice"):
        assert action_space(game).describe() in text
    assert observation_layout(make_config("classic", players=2)).describe() in text


def test_docs_sizes_match_the_code() -> None:
    text = " ".join((ROOT / "docs" / "env.md").read_text(encoding="utf-8").split())
    sizes = {
        "classic 2p": ("classic", 2, None, {}),
        "classic 4p": ("classic", 4, None, {}),
        "classic 6p in 3 teams": ("classic", 6, 3, {}),
        "draft 2p": ("classic", 2, None, {"draft": True}),
        "draft 4p": ("classic", 4, None, {"draft": True}),
        "Kids 2p": ("kids", 2, None, {}),
        "Kids 4p": ("kids", 4, None, {}),
        "Dice 2p": ("dice", 2, None, {}),
        "Dice 4p": ("dice", 4, None, {}),
    }
    for words, (game, players, teams, options) in sizes.items():
        size = observation_layout(make_config(game, players, teams, **options)).size
        assert f"{words} {size}" in text


def test_docs_openspiel_and_policy_examples_run() -> None:
    text = (ROOT / "docs" / "env.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    spiel = next(c for c in blocks if "pyspiel.load_game" in c)
    namespace: dict[str, object] = {}
    exec(compile(spiel, "docs/env.md", "exec"), namespace)
    returns = namespace["returns"]
    assert len(returns) == 4 and set(returns) <= {-1.0, 0.0, 1.0}  # type: ignore[arg-type]
    policy = next(c for c in blocks if "PolicyBot(policy=" in c)
    namespace = {}
    exec(compile(policy, "docs/env.md", "exec"), namespace)
    assert namespace["info"]["legal_actions"]  # type: ignore[index]
