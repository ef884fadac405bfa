"""The OpenSpiel game: OpenSpiel's own random-simulation test, chance, hidden information, and
observers of every ``IIGObservationType`` made as OpenSpiel's ``make_observation`` makes them."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
so = pytest.importorskip("sequence.env.openspiel")

from open_spiel.python.observation import INFO_STATE_OBS_TYPE, make_observation  # noqa: E402

from sequence.env import observation_layout  # noqa: E402
from sequence.env.arrays import Observer  # noqa: E402

PRIVATE = pyspiel.PrivateInfoType


CONFIGURATIONS = [
    *(("classic", {"players": p}) for p in (2, 3, 4, 6, 8, 9, 10, 12)),
    ("classic", {"players": 6, "teams": 3}),
    ("classic", {"players": 12, "teams": 3}),
    ("classic", {"manual_draw": True}),
    ("classic", {"players": 4, "manual_draw": True}),
    ("classic", {"difficult": True}),
    ("classic", {"chips_per_colour": 8}),
    *(("kids", {"players": p, "max_turns": 1000}) for p in (2, 3, 4)),  # to a real end
    ("kids", {"chips_per_colour": 6}),
    *(("dice", {"players": p}) for p in (2, 3, 4)),
    ("dice", {"dice_line_length": 6}),
    *(("draft", {"players": p}) for p in (2, 4)),
    ("draft", {"players": 4, "difficult": True}),
]
"""Every game, every player count and team split the rules allow (classic's larger tables
by example), and every rule option."""


@pytest.mark.parametrize(("game", "params"), CONFIGURATIONS, ids=repr)
def test_openspiel_random_sim_test(game: str, params: dict[str, object]) -> None:
    """OpenSpiel's own checks: chance, legal actions and masks, tensors and strings, returns
    (summing to 0 where the game says zero-sum), serialization and resampling."""
    spiel_game = so.load_game(game, deals=64, **{"max_turns": 24, **params})
    assert spiel_game.get_type().short_name == so.short_name(game)
    pyspiel.random_sim_test(spiel_game, num_sims=1, serialize=True, verbose=False)


def test_two_teams_are_zero_sum_and_more_are_general_sum() -> None:
    zero, general = pyspiel.GameType.Utility.ZERO_SUM, pyspiel.GameType.Utility.GENERAL_SUM
    for game, params, utility in [
        ("classic", {}, zero),
        ("classic", {"players": 4}, zero),
        ("classic", {"players": 12}, zero),
        ("dice", {"players": 4}, zero),
        ("draft", {}, zero),
        ("kids", {}, zero),
        ("classic", {"players": 3}, general),
        ("classic", {"players": 6, "teams": 3}, general),
        ("kids", {"players": 4}, general),
    ]:
        spiel_game = so.load_game(game, **params)
        assert spiel_game.get_type().utility == utility, (game, params)
        if utility == zero:
            assert spiel_game.utility_sum() == 0.0
    # a finished game's returns say the same
    state = so.load_game("classic", players=4, deals=8).new_initial_state()
    _play(state, 10_000, np.random.default_rng(3))
    assert state.is_terminal() and sum(state.returns()) == 0.0


def test_openspiel_tools_take_the_game() -> None:
    """OpenSpiel's RL environment, outcome-sampling MCCFR (which needs the information-state
    strings) and pickling (what its multiprocess tools use)."""
    import pickle

    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    spiel_game = so.load_game("kids", deals=16, max_turns=20)
    env = rl_environment.Environment(spiel_game, seed=0)
    step = env.reset()
    while not step.last():
        seat = step.observations["current_player"]
        step = env.step([step.observations["legal_actions"][seat][-1]])
    assert len(step.rewards) == 2 and sum(step.rewards) == 0.0

    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(spiel_game)
    for _ in range(3):
        solver.iteration()
    policy = solver.average_policy()
    state = spiel_game.new_initial_state()
    state.apply_action(5)
    probs = policy.action_probabilities(state)
    assert set(probs) == set(state.legal_actions()) and abs(sum(probs.values()) - 1) < 1e-9

    again = pickle.loads(pickle.dumps(spiel_game))
    assert (
        str(again) == str(spiel_game)
        and again.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    )
    _play(state, 12, np.random.default_rng(0))
    copy = pickle.loads(pickle.dumps(state))
    assert copy.history() == state.history()
    seat = state.current_player()
    assert copy.information_state_string(seat) == state.information_state_string(seat)
    assert copy.observation_tensor(seat) == state.observation_tensor(seat)


def test_dice_rolls_are_explicit_chance_nodes() -> None:
    game = so.load_game("dice", deals=8)
    state = game.new_initial_state()
    assert [p for _, p in state.chance_outcomes()] == [1 / 8] * 8
    state.apply_action(3)  # the deal (the Dice roll-off)
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 21 and abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
    state.apply_action(outcomes[-1][0])
    assert state.current_player() >= 0 and state.state.roll is not None


def _play(state: object, moves: int, rng: np.random.Generator) -> None:
    for _ in range(moves):
        if state.is_terminal():  # type: ignore[attr-defined]
            return
        if state.is_chance_node():  # type: ignore[attr-defined]
            actions, probs = zip(*state.chance_outcomes(), strict=True)  # type: ignore[attr-defined]
            state.apply_action(int(rng.choice(actions, p=probs)))  # type: ignore[attr-defined]
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", ["classic", "kids", "dice", "draft"])
def test_tensors_depend_only_on_the_seats_view(game: str) -> None:
    spiel_game = so.load_game(game, players=4 if game != "classic" else 2, deals=16)
    state = spiel_game.new_initial_state()
    _play(state, 25, np.random.default_rng(1))
    player = 1
    with_history = make_observation(spiel_game, params={"history": 4})
    with_history.set_from(state, player)
    info = with_history.tensor.copy()
    obs = state.observation_tensor(player)
    text = state.information_state_string(player)
    others = [p for p in range(spiel_game.num_players()) if p != player]
    changed = False
    for k in range(4):
        sample = state.resample_from_infostate(player, lambda k=k: (k + 1) / 7)
        with_history.set_from(sample, player)
        assert with_history.tensor.tolist() == info.tolist()
        assert sample.observation_tensor(player) == obs
        assert sample.information_state_string(player) == text
        assert sample.legal_actions(player) == state.legal_actions(player)
        if game != "dice":  # the hidden cards were dealt anew
            changed |= any(sample.state.hand_of(p) != state.state.hand_of(p) for p in others)
    assert changed or game == "dice"
    # and the tensor does show the seat's own hidden cards: another seat's differs
    assert state.observation_tensor(0) != obs or game == "dice"


def _dealt(game: str, moves: int = 12) -> tuple[object, object]:
    spiel_game = so.load_game(game, deals=16)
    state = spiel_game.new_initial_state()
    _play(state, moves, np.random.default_rng(3))
    return spiel_game, state


@pytest.mark.parametrize("game", ["classic", "kids", "dice", "draft"])
def test_observers_honour_the_observation_type(game: str) -> None:
    """OpenSpiel's conventions (its Python games' observers): one flat tensor, a dict of named
    views of it, ``player`` first, public pieces only with ``public_info``, the seat's hand
    only with ``private_info`` ``SINGLE_PLAYER``."""
    spiel_game, state = _dealt(game)
    seat = state.current_player()
    layout = observation_layout(spiel_game.config)
    names = list(layout.names)
    public = [n for n in names if n != "hand"]
    private = ["hand"] if "hand" in names else []
    flat = Observer(spiel_game.config).encode(state.view(seat))
    kinds = {
        "default": (None, ["player", *names]),
        "public": (
            pyspiel.IIGObservationType(perfect_recall=False, private_info=PRIVATE.NONE),
            ["player", *public],
        ),
        "private": (
            pyspiel.IIGObservationType(public_info=False, perfect_recall=False),
            ["player", *private],
        ),
    }
    for kind, (iig, expected) in kinds.items():
        observation = make_observation(spiel_game, iig)
        observation.set_from(state, seat)
        assert list(observation.dict) == expected, kind
        player = np.zeros(spiel_game.num_players(), np.float32)
        player[seat] = 1
        parts = [player] + [flat[layout[n].start : layout[n].stop] for n in expected[1:]]
        assert observation.tensor.tolist() == np.concatenate(parts).tolist(), kind
        for name in expected[1:]:  # each piece a view of the tensor, shaped as its segment
            assert observation.dict[name].shape == layout[name].shape
            assert np.shares_memory(observation.dict[name], observation.tensor)
        text = observation.string_from(state, seat)
        assert ("hand [" in text) == ("hand" in expected), kind
        assert ("chips" in text) == (kind != "private"), kind
    default = make_observation(spiel_game)
    default.set_from(state, seat)
    assert state.observation_tensor(seat) == default.tensor.tolist()
    assert state.observation_string(seat) == default.string_from(state, seat)
    if private:  # the seat's hand, card by card (2 copies of each card: 0.5 a copy)
        hand = default.dict["hand"]
        for card in set(state.view(seat).hand):
            i = layout.cards.index(card)
            assert hand[i] == state.view(seat).hand.count(card) / 2


def test_private_info_of_every_player_is_refused_where_hands_are_hidden() -> None:
    every = pyspiel.IIGObservationType(perfect_recall=False, private_info=PRIVATE.ALL_PLAYERS)
    for game in ("classic", "kids", "draft"):
        with pytest.raises(ValueError, match="ALL_PLAYERS is refused"):
            make_observation(so.load_game(game), every)
    dice = so.load_game("dice")  # nothing is private in Dice: the seat's own observation
    assert list(make_observation(dice, every).dict) == list(make_observation(dice).dict)
    with pytest.raises(ValueError, match="only 'history'"):
        make_observation(dice, params={"depth": 2})
    with pytest.raises(ValueError, match="history must be an int"):
        make_observation(dice, params={"history": -1})


@pytest.mark.parametrize("game", ["classic", "draft"])
def test_perfect_recall_is_a_string_of_every_hand_held_and_every_public_move(game: str) -> None:
    spiel_game, state = _dealt(game, moves=1)
    recall = make_observation(spiel_game, INFO_STATE_OBS_TYPE)
    assert recall.tensor is None and recall.dict == {}
    with pytest.raises(ValueError, match="perfect-recall observer has no tensor"):
        recall.set_from(state, 0)
    assert not spiel_game.get_type().provides_information_state_tensor
    dealt = state.view(0).hand
    rng = np.random.default_rng(4)
    held = [dealt]
    while len(held) < 4:  # until seat 0 has held four hands
        _play(state, 1, rng)
        if state.view(0).hand != held[-1]:
            held.append(state.view(0).hand)
    text = recall.string_from(state, 0)
    assert text == state.information_state_string(0)
    for hand in held:  # every past hand, with when it was seen: not only today's
        assert f"[{' '.join(map(str, hand))}]" in text
    assert text.endswith(" ".join(str(m) for m in state.view(0).move_stack))
    public = make_observation(
        spiel_game, pyspiel.IIGObservationType(perfect_recall=True, private_info=PRIVATE.NONE)
    )
    assert "hand" not in public.string_from(state, 0)
    with pytest.raises(ValueError, match="history is for observations without perfect recall"):
        make_observation(spiel_game, INFO_STATE_OBS_TYPE, {"history": 2})


def test_ismcts_plays_in_sequence_tournament(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from sequence.cli.main import main

    rc = main([
        "tournament", "--game", "kids", "--bot", "ismcts@simulations=4", "--bot", "random",
        "--games", "2", "--workers", "1", "--json", "-", "--quiet", "--seed", "1",
    ])  # fmt: skip
    assert rc == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 2 and data["forfeits"] == []
    assert "ismcts@simulations=4" in json.dumps(data)


def test_ismcts_is_a_named_bot_that_checks_its_budget() -> None:
    from sequence.bots import make_bot
    from sequence.bots.errors import BotSpecError
    from sequence.engine import State, make_config

    bot = make_bot("ismcts@simulations=3", seed=2)
    assert isinstance(bot, so.ISMCTSBot) and bot.simulations == 3
    state = State.new(make_config("classic"), seed=5)
    view = state.view(state.to_move)
    assert bot.choose(view) in view.legal_moves
    with pytest.raises(BotSpecError):
        make_bot("ismcts@simulations=0")
