"""The PettingZoo environment: its own API and seed tests, views, rewards, illegal moves."""

from __future__ import annotations

import functools
import random
import warnings

import pytest

pettingzoo = pytest.importorskip("pettingzoo", reason="PettingZoo (extra 'pettingzoo') is missing")

import numpy as np  # noqa: E402
from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

from sequence.engine import make_config  # noqa: E402
from sequence.env import IllegalActionError, encode_observation, observation_layout  # noqa: E402
from sequence.env.pettingzoo import SequenceAECEnv, env  # noqa: E402

from .conftest import CONFIGS  # noqa: E402


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_pettingzoos_api_and_seed_tests_pass(name: str) -> None:
    options = dict(CONFIGS[name])
    game = options.pop("game")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # PettingZoo's classic games observe the same {"observation", "action_mask"} dict; its
        # checker whitelists those games by name and warns about any other.
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        api_test(env(game, **options), num_cycles=300)
        seed_test(functools.partial(env, game, **options), num_cycles=30)
        # Every observation option passes too (planes: a dict inside the observation dict).
        api_test(env(game, observation="planes", history=2, **options), num_cycles=100)
        seed_test(functools.partial(env, game, history=3, **options), num_cycles=10)


def test_pettingzoos_render_test_passes(capsys: pytest.CaptureFixture[str]) -> None:
    render_test(functools.partial(env, "kids", players=2))
    render_test(functools.partial(env, "dice", players=2))
    assert capsys.readouterr().out  # "human" printed the board


def _self_play(game: SequenceAECEnv, seed: int) -> dict[str, float]:
    """A whole game with every seat choosing at random among its legal actions."""
    rng = random.Random(seed)
    game.reset(seed=seed)
    final: dict[str, float] = {}
    for agent in game.agent_iter():
        observation, reward, termination, truncation, _ = game.last()
        if termination or truncation:
            final[agent] = reward
            game.step(None)
            continue
        legal = observation["action_mask"].nonzero()[0].tolist()
        assert legal, f"{agent} is to move and has no legal action"
        # Nobody else has a legal action now: only the seat to move sees a mask.
        for other in game.agents:
            if other != agent:
                assert not game.observe(other)["action_mask"].any()
        game.step(rng.choice(legal))
    return final


@pytest.mark.parametrize("name", ["classic-4p-teams", "classic-3-teams", "kids", "dice-4p"])
def test_team_mates_share_the_reward_and_it_sums_by_team(name: str) -> None:
    options = dict(CONFIGS[name])
    game = SequenceAECEnv(options.pop("game"), **options)
    final = _self_play(game, seed=7)
    assert set(final) == set(game.possible_agents)
    config = game.config
    by_team: dict[int, set[float]] = {}
    for agent, reward in final.items():
        by_team.setdefault(config.team_of(int(agent.split("_")[1])), set()).add(reward)
    assert all(len(rewards) == 1 for rewards in by_team.values())
    winners = [team for team, rewards in by_team.items() if rewards == {1.0}]
    assert len(winners) <= 1
    if winners:
        assert all(r == {-1.0} for t, r in by_team.items() if t != winners[0])


def test_each_agent_observes_only_its_own_seats_view() -> None:
    game = SequenceAECEnv("classic", players=3)
    game.reset(seed=4)
    state = game._require_state()
    high = np.asarray(observation_layout(game.config).high(), dtype=np.float64)
    for seat, agent in enumerate(game.possible_agents):
        observed = game.observe(agent)["observation"]
        assert np.allclose(observed, np.asarray(encode_observation(state.view(seat))) / high)
        # The same seat's view of a state whose hidden cards were dealt again looks the same.
        other = state.resample(seat, seed=99)
        assert (game.observer.encode(other.view(seat)) == observed).all()


def test_illegal_actions() -> None:
    wrapped = env("classic", players=2)
    wrapped.reset(seed=2)
    mover = wrapped.agent_selection
    mask = wrapped.observe(mover)["action_mask"]
    wrapped.step(int((mask == 0).nonzero()[0][0]))
    assert wrapped.rewards[mover] == -1 and all(wrapped.terminations.values())

    raw = SequenceAECEnv("classic", players=2)
    raw.reset(seed=2)
    mask = raw.observe(raw.agent_selection)["action_mask"]
    before = raw._require_state().copy()
    with pytest.raises(IllegalActionError, match="not legal for seat_"):
        raw.step(int((mask == 0).nonzero()[0][0]))
    with pytest.raises(IllegalActionError, match="an action is needed"):
        raw.step(None)
    with pytest.raises(IllegalActionError, match=r"an action is an int, not 1\.5"):
        raw.step(1.5)  # type: ignore[arg-type]  # not rounded down to action 1
    assert raw._require_state() == before


def test_config_errors_and_render() -> None:
    with pytest.raises(ValueError, match="5 players cannot be split"):
        SequenceAECEnv("classic", players=5)
    game = SequenceAECEnv("draft", players=4, render_mode="ansi")
    assert game.config == make_config("classic", 4, draft=True)
    game.reset(seed=1)
    board = game.render()
    assert board is not None and board.splitlines()[0].split() == list("abcdefghij")
    assert "hold" not in board  # a spectator's board: no hand


def test_infos_have_the_same_keys_from_the_start_and_a_draw_is_minus_one() -> None:
    game = SequenceAECEnv("kids", players=2, max_turns=4)
    game.reset(seed=3)
    keys = {"turn", "winner", "termination"}
    assert all(set(info) == keys for info in game.infos.values())
    for _agent in game.agent_iter():
        observation, _, termination, truncation, info = game.last()
        assert set(info) == keys and isinstance(info["winner"], int)
        if termination or truncation:
            assert info["termination"] == "max_turns" and info["winner"] == -1
            game.step(None)
        else:
            assert info["winner"] == -1 and info["termination"] == ""
            game.step(int(observation["action_mask"].nonzero()[0][0]))


def test_the_parallel_conversion_is_refused_for_a_turn_based_game() -> None:
    """PettingZoo's aec_to_parallel needs every live agent to act at every step; in Sequence
    one seat acts at a time, so the environment says it is not parallelizable."""
    from pettingzoo.utils.conversions import aec_to_parallel

    assert SequenceAECEnv.metadata["is_parallelizable"] is False
    with pytest.raises(AssertionError, match="parallel"):
        aec_to_parallel(env("kids", players=2))
