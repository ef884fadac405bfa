"""The shipped baseline policies (baselines/): small, recorded, and playing as ``policy:`` bots."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib", reason="the rl extra is not installed")

from sequence.bots import make_bot
from sequence.engine import State, make_config

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("classic", "kids", "dice")


@pytest.mark.parametrize("game", GAMES)
def test_a_shipped_policy_is_small_recorded_and_plays(game: str) -> None:
    model = ROOT / "baselines" / f"{game}.zip"
    assert model.stat().st_size < 4_000_000  # a few MB at most
    record = json.loads((ROOT / "baselines" / f"{game}.json").read_text())
    assert record["game"] == game and record["seed"] == 0 and record["steps"] > 0
    assert "batched" in record["argv"] and tuple(record["bots"]) == ("random", "easy", "medium")
    bot = make_bot(f"policy:{model}", seed=0)
    state = State.new(make_config(game, players=2), seed=3)
    state.play_forced()
    for _ in range(6):
        if state.is_over():
            break
        move = bot.choose(state.view(state.to_move))
        assert move in state.legal_moves
        state.push(move)
        state.play_forced()
    assert bot.stats()["illegal"] == 0
