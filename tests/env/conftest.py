"""Configurations the environment tests run on: every game and variant of the family."""

from __future__ import annotations

from typing import Any

import pytest

from sequence.engine import Config, make_config

CONFIGS: dict[str, dict[str, Any]] = {
    "classic-2p": {"game": "classic", "players": 2},
    "classic-3-teams": {"game": "classic", "players": 6, "teams": 3},
    "classic-4p-teams": {"game": "classic", "players": 4, "teams": 2},
    "classic-manual-draw": {"game": "classic", "players": 3, "manual_draw": True},
    "classic-difficult": {"game": "classic", "players": 2, "difficult": True},
    "kids": {"game": "kids", "players": 3},
    "dice": {"game": "dice", "players": 2},
    "dice-4p": {"game": "dice", "players": 4},
    "draft": {"game": "classic", "players": 2, "draft": True},
    "draft-4p": {"game": "classic", "players": 4, "draft": True},
}


def config_of(name: str) -> Config:
    spec = dict(CONFIGS[name])
    return make_config(spec.pop("game"), spec.pop("players"), spec.pop("teams", None), **spec)


@pytest.fixture(params=sorted(CONFIGS))
def config(request: pytest.FixtureRequest) -> Config:
    return config_of(request.param)
