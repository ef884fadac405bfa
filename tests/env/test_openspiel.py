"""The OpenSpiel game: OpenSpiel's own random-simulation test, chance, and hidden information."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
so = pytest.importorskip("sequence.env.openspiel")


@pytest.mark.parametrize(
    ("game", "params"),
    [
        ("kids", {}),
        ("classic", {"players": 3, "max_turns": 30}),
        ("classic", {"manual_draw": True, "max_turns": 30}),
        ("dice", {"players": 4, "max_turns": 30}),
        ("draft", {"players": 4, "max_turns": 30}),
    ],
)
def test_openspiel_random_sim_test(game: str, params: dict[str, object]) -> None:
    spiel_game = so.load_game(game, deals=64, **params)
    assert spiel_game.get_type().short_name == so.short_name(game)
    pyspiel.random_sim_test(spiel_game, num_sims=2, serialize=False, verbose=False)


def test_every_game_is_registered() -> None:
    names = set(pyspiel.registered_names())
    assert {so.short_name(g) for g in so.GAMES} <= names
    game = pyspiel.load_game("python_sequence_classic", {"players": 4})
    assert game.num_players() == 4
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION


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


@pytest.mark.parametrize("game", ["classic", "dice", "draft"])
def test_tensors_depend_only_on_the_seats_view(game: str) -> None:
    spiel_game = so.load_game(game, players=4 if game != "classic" else 2, deals=16)
    state = spiel_game.new_initial_state()
    _play(state, 25, np.random.default_rng(1))
    player = 1
    info = state.information_state_tensor(player)
    obs = state.observation_tensor(player)
    text = state.information_state_string(player)
    others = [p for p in range(spiel_game.num_players()) if p != player]
    changed = False
    for k in range(4):
        sample = state.resample_from_infostate(player, lambda k=k: (k + 1) / 7)
        assert sample.information_state_tensor(player) == info
        assert sample.observation_tensor(player) == obs
        assert sample.information_state_string(player) == text
        assert sample.legal_actions(player) == state.legal_actions(player)
        if game != "dice":  # the hidden cards were dealt anew
            changed |= any(sample.state.hand_of(p) != state.state.hand_of(p) for p in others)
    assert changed or game == "dice"
    # and the tensor does show the seat's own hidden cards: another seat's differs
    assert state.information_state_tensor(0) != info or game == "dice"


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
