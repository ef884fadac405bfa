"""The engine's documentation: its examples run, and it sends nobody to a file not in the repo."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sequence.engine import IllegalMoveError, State, make_config

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_the_engine_in_five_lines_runs() -> None:
    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    section = text.split("## The engine in five lines", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    scope: dict[str, object] = {}
    exec(code.group(1), scope)  # an undefined name (it used `seat`) fails here
    assert isinstance(scope["state"], State)


def test_penalty_allowed_is_documented_as_it_answers() -> None:
    # None when the penalty may be imposed, the reason when not: "check it first" read as a
    # boolean would impose it exactly when it may not.
    state = State.new(make_config("classic", players=4, teams=2), seed=1)
    assert state.penalty_allowed(0) is None
    over = State.new(make_config("classic", players=4, teams=2, max_turns=1), seed=1)
    over.push(over.legal_moves[0])
    refused = over.penalty_allowed(0)
    assert isinstance(refused, IllegalMoveError) and refused.code == "game_over"
    text = " ".join((DOCS / "architecture.md").read_text(encoding="utf-8").split())
    assert "`None` when it may, else the reason it may not (an `IllegalMoveError` with" in text


@pytest.mark.parametrize("name", ["engine.md", "tui.md", "glossary.md", "architecture.md"])
def test_the_shared_rules_are_named_as_outside_the_repository(name: str) -> None:
    # RULES.md and the seeds are the project's shared contract beside the repository, not in it.
    text = (DOCS / name).read_text(encoding="utf-8")
    if "RULES.md" in text or "seeds/" in text:
        assert "../shared/" in text, f"docs/{name} points to RULES.md or seeds/ as if in the repo"
    assert not re.search(r"(?<!\.\./)shared/seeds/", text)


def test_the_turn_driver_loop_in_the_docs_plays_a_game_to_the_end() -> None:
    # docs/architecture.md shows the loop every front end runs: it must finish a real game.
    import random

    from sequence.engine import StepKind, draw_move

    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    section = text.split("## Three things every part asks the engine", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None

    class Random:
        def __init__(self, seed: int) -> None:
            self.rng = random.Random(seed)

        def choose(self, view: object) -> object:
            return self.rng.choice(view.legal_moves)  # type: ignore[attr-defined]

    for config in (make_config("dice", players=2), make_config("classic", 3, manual_draw=True)):
        state = State.new(config, seed=3)
        scope = {"state": state, "bots": [Random(s) for s in range(config.players)]}
        scope.update(StepKind=StepKind, draw_move=draw_move)
        exec(code.group(1), scope)
        assert state.is_over()
