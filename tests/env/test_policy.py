"""Policies as bots (a callable, a saved model) and the self-play example script."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from sequence.bots import make_bot
from sequence.bots.errors import BotSpecError
from sequence.engine import State, make_config
from sequence.env import SequenceEnv
from sequence.env.policy import PolicyBot

ROOT = Path(__file__).resolve().parents[2]


def _load_script(name: str) -> ModuleType:
    sys.path.insert(0, str(ROOT / "scripts"))  # for its `import _venv`
    try:
        spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    return module


def last_legal(observation: np.ndarray, mask: np.ndarray) -> int:
    """A policy: the legal action with the highest id."""
    assert observation.dtype == np.float32 and mask.dtype == np.int8
    return int(np.flatnonzero(mask)[-1])


def test_a_callable_plays_as_a_bot() -> None:
    state = State.new(make_config("classic"), seed=4)
    view = state.view(state.to_move)
    bot = make_bot("policy:tests.env.test_policy:last_legal", seed=1)
    assert isinstance(bot, PolicyBot)
    from sequence.env import action_space

    assert bot.choose(view) == action_space(view.config).action_to_move(
        max(action_space(view.config).actions(view.legal_moves))
    )
    env = SequenceEnv("kids", opponents=PolicyBot(policy=last_legal), seed=2)
    _, info = env.reset()
    done = False
    while not done:
        _, reward, terminated, truncated, info = env.step(info["legal_actions"][0])
        done = terminated or truncated
    assert reward in (-1.0, 0.0, 1.0) and info["termination"]


def test_an_illegal_answer_is_replaced_and_counted() -> None:
    bot = PolicyBot(policy=lambda observation, mask: -5)
    state = State.new(make_config("kids"), seed=1)
    assert bot.choose(state.view(state.to_move)) in state.legal_moves
    assert bot.stats() == {"illegal": 1.0}
    with pytest.raises(BotSpecError):
        make_bot("policy:no.such.module:fn")


def test_selfplay_script_trains_a_pool_whose_snapshot_plays_a_tournament(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "pool"
    selfplay = _load_script("selfplay")  # in this process: PyTorch is imported once
    assert selfplay.main([
        "--game", "kids", "--generations", "2", "--steps", "64", "--eval-games", "2",
        "--out", str(out),
    ]) == 0  # fmt: skip
    printed = capsys.readouterr().out
    assert "generation 2:" in printed and "2 in the pool" in printed
    snapshot = out / "gen-2.zip"
    assert snapshot.is_file()
    bot = make_bot(f"policy:{snapshot}", seed=0)
    state = State.new(make_config("kids"), seed=9)
    assert bot.choose(state.view(state.to_move)) in state.legal_moves
    assert bot.stats() == {"illegal": 0.0}  # the model is masked: it never answers illegally

    # a pool's snapshot plays through fast_policy: the action model.predict gives
    from sequence.env.pettingzoo import SequenceAECEnv
    from sequence.env.policy import load_model, model_policy

    model = load_model(snapshot)
    fast, slow = selfplay.fast_policy(model), model_policy(model)
    aec = SequenceAECEnv("kids")
    for seed in range(3):
        aec.reset(seed=seed)
        for _ in range(6):
            obs = aec.observe(aec.agent_selection)
            action = fast(obs["observation"], obs["action_mask"])
            assert action == slow(obs["observation"], obs["action_mask"])
            assert obs["action_mask"][action] == 1
            aec.step(action)

    # the terminal game seats it too (--vs / --seats policy:...), in a process of its own
    from sequence.tui.session import GameSetup, Session

    session = Session.start(
        GameSetup(game="kids", players=2, seats=(f"policy:{snapshot}", "random"), seed=3)
    )
    try:
        state = session.state
        if state.to_move != 0:  # the random bot opens: its move, then the model's turn
            session.push(session.bot_for(1).choose(state.view(1)), 1)
        view = state.view(0)
        assert session.bot_for(0).choose(view) in view.legal_moves
    finally:
        session.close()

    from sequence.cli.main import main

    rc = main([
        "tournament", "--game", "kids", "--bot", f"policy:{snapshot}", "--bot", "random",
        "--games", "2", "--workers", "1", "--json", "-", "--quiet", "--seed", "1",
    ])  # fmt: skip
    assert rc == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 2 and data["forfeits"] == []


def test_selfplay_pool_takes_bots_and_the_learner_plays_several_games_at_once(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """--bots puts fixed bots in the pool (a bot plays from its view, through the engine's
    legal moves), --envs steps several games for the learner."""
    selfplay = _load_script("selfplay")
    env = selfplay.SelfPlayEnv("kids", [], 3, selfplay.pool_bots("greedy", 3), 1.0)
    assert isinstance(env.bots[0], make_bot("greedy").__class__)
    rng = np.random.default_rng(0)
    for _ in range(3):
        env.reset()
        assert env.opponent is env.bots[0]
        reward, done = 0.0, False
        while not done:
            action = int(rng.choice(np.flatnonzero(env.action_masks())))
            _, reward, done, _, _ = env.step(action)
        assert reward in (-1.0, 0.0, 1.0) and not env.action_masks().any()
    with pytest.raises(SystemExit):
        selfplay.pool_bots(" , ", 0)

    out = tmp_path / "pool"
    assert selfplay.main([
        "--game", "kids", "--generations", "2", "--steps", "64", "--envs", "2",
        "--bots", "random,greedy", "--bot-share", "0.5", "--eval-games", "0", "--out", str(out),
    ]) == 0  # fmt: skip
    assert "generation 2:" in capsys.readouterr().out and (out / "gen-2.zip").is_file()


def test_baselines_script_trains_and_measures_each_method(tmp_path: Path) -> None:
    """scripts/baselines.py on tiny budgets: each subcommand trains (or not), plays the
    tournament of random, greedy and its bot, and records the row and the Elo."""
    baselines = _load_script("baselines")
    common = ["--game", "kids", "--games", "1", "--out", str(tmp_path)]
    assert baselines.main(["ppo", "--steps", "32", "--n-steps", "16", "--envs", "2", *common]) == 0
    assert baselines.main(["ismcts", "--simulations", "4", *common]) == 0
    selfplay = ["selfplay", "--generations", "1", "--steps", "32", "--envs", "2"]
    bots = ["--bots", "random,greedy", "--bot-share", "0.5"]
    assert baselines.main([*selfplay, *bots, *common]) == 0
    snapshot = tmp_path / "selfplay-kids" / "gen-1.zip"
    for name, candidate, seed in [
        ("ppo-random-kids", f"policy:{tmp_path / 'ppo-random-kids.zip'}", "0"),
        ("ismcts-kids", "ismcts@simulations=4", "-"),  # not trained: no seed of its own
        ("selfplay-kids", f"policy:{snapshot}", "0"),
    ]:
        record = json.loads((tmp_path / f"{name}.json").read_text())
        assert record["candidate"] == candidate
        bots = {r["bot"] for r in record["tournament"]["ratings"]}
        assert bots == {"random", "greedy", candidate}
        assert baselines.row(record).startswith(f"| {record['method']} | kids | {seed} |")
        assert record["tournament"]["forfeits"] == []
    method = json.loads((tmp_path / "selfplay-kids.json").read_text())["method"]
    assert method == "MaskablePPO self-play (1 snapshots; random, greedy 50% of games)"
    batched = ["batched", "--steps", "64", "--envs", "4", "--n-steps", "16", "--batch-size", "32"]
    assert baselines.main([*batched, *common]) == 0
    record = json.loads((tmp_path / "kids.json").read_text())
    assert {r["bot"] for r in record["tournament"]["ratings"]} == {
        "random",
        "easy",
        "medium",
        f"policy:{tmp_path / 'kids.zip'}",
    }
    assert baselines.shipped_row(record).startswith("| kids | `policy:")


def test_baselines_versus_plays_the_shipped_policies_against_each_bot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``scripts/baselines.py versus``: each shipped policy's games against random, easy,
    medium and greedy, counted, with an interval that holds the score."""
    baselines = _load_script("baselines")
    out = tmp_path / "versus.json"
    assert baselines.main(["versus", "--games", "2", "--game", "dice", "--json", str(out)]) == 0
    results = json.loads(out.read_text())["results"]
    assert [r["opponent"] for r in results] == ["random", "easy", "medium", "greedy"]
    for r in results:
        assert r["game"] == "dice" and r["wins"] + r["draws"] + r["losses"] == r["games"] == 2
        lo, hi = r["interval_95"]
        assert 0 <= lo <= r["score"] <= hi <= 1
    # medium is greedy: the greedy column is the same bot on other deals.
    assert results[3]["seed"] == results[2]["seed"] + baselines.GREEDY_DEALS
    table = capsys.readouterr().out
    assert "| dice | `policy:baselines/dice.zip` |" in table and "against greedy" in table
    # The interval: Wilson's, symmetric at an even score, narrowing with the games.
    lo, hi = baselines.score_interval(20, 0, 40)
    assert lo == pytest.approx(1 - hi) and 0.35 < lo < 0.36
    assert baselines.score_interval(10, 20, 40) == (lo, hi)  # draws count half
    assert baselines.score_interval(200, 0, 400)[0] > lo
