"""SequenceEnv: whole episodes of every game, rewards, determinism, illegal actions."""

from __future__ import annotations

import random
from typing import Any

import pytest

from sequence.bots import RandomBot
from sequence.engine import Config, ConfigError, Move, MoveKind, State, card_name, make_config
from sequence.env import IllegalActionError, SequenceEnv, observation_layout

Step = tuple[list[int], float, bool, bool, dict[str, Any]]


def play(env: SequenceEnv, seed: int | None = None, agent_seed: int = 0) -> list[Step]:
    """A random agent's whole episode; checks the API's promises at every step."""
    obs, info = env.reset(seed=seed)
    rng = random.Random(agent_seed)
    steps: list[Step] = []
    while True:
        assert len(obs) == env.observation_size
        assert len(info["action_mask"]) == env.num_actions
        assert info["legal_actions"] == [a for a, m in enumerate(info["action_mask"]) if m]
        assert info["legal_actions"], "the agent is asked only when it has something to do"
        view = env.view
        assert view.to_move == env.agent_seat and not view.pending_draws
        assert {env.action_space.moves[a] for a in info["legal_actions"]} == set(view.legal_moves)
        step = env.step(rng.choice(info["legal_actions"]))
        steps.append(step)
        obs, reward, terminated, truncated, info = step
        if terminated or truncated:
            return steps
        assert reward == 0.0


def test_random_agent_plays_whole_episodes_of_every_game(config: Config) -> None:
    for seed in range(2):
        env = SequenceEnv(config, agent_seat=seed % config.players, opponents="random", seed=seed)
        steps = play(env, agent_seed=seed)
        _, reward, terminated, truncated, info = steps[-1]
        outcome = info["outcome"]
        assert env.record().replay().outcome == outcome
        assert info["legal_actions"] == [] and sum(info["action_mask"]) == 0
        if outcome.winner is None:
            assert reward == 0.0 and info["winner"] == -1
        else:
            assert info["winner"] == outcome.winner
            assert reward == (1.0 if outcome.winner == env.agent_team else -1.0)
        assert truncated == (info["termination"] == "max_turns")
        assert terminated != truncated
        with pytest.raises(RuntimeError, match="call reset"):
            env.step(0)


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("classic", {"players": 2}),
        ("classic", {"players": 4, "draft": True}),
        ("kids", {"players": 2}),
        ("dice", {"players": 2}),
    ],
)
def test_greedy_opponents_finish_episodes(game: str, options: dict[str, Any]) -> None:
    env = SequenceEnv(game, opponents="greedy", seed=11, **options)
    results = {play(env, agent_seed=k)[-1][1] for k in range(2)}
    assert results <= {-1.0, 0.0, 1.0}


def test_team_mates_are_bots_and_the_reward_is_the_teams() -> None:
    env = SequenceEnv("classic", players=6, teams=3, agent_seat=4, opponents="random", seed=5)
    assert env.agent_team == 1  # with seat 1, played by a bot (play() checks who is asked)
    rewards = []
    for k in range(4):
        *_, (_, reward, _, _, info) = play(env, agent_seed=k)
        winner = info["winner"]
        assert reward == (0.0 if winner == -1 else 1.0 if winner == 1 else -1.0)
        rewards.append(reward)
    assert -1.0 in rewards  # two other teams of random players win sometimes


def test_same_seed_same_episodes_and_reset_seed_replays() -> None:
    def trace(env: SequenceEnv, seed: int | None = None) -> list[Any]:
        return [(o, r, te, tr, i["turn"], env.game_seed) for o, r, te, tr, i in play(env, seed)]

    for game, options in (("classic", {"players": 4}), ("dice", {"players": 2})):
        a = SequenceEnv(game, opponents="greedy", seed=3, **options)
        b = SequenceEnv(game, opponents="greedy", seed=3, **options)
        first = [trace(a), trace(a)]
        assert first == [trace(b), trace(b)]
        assert first[0] != first[1]  # the second episode is another game
        assert trace(a, seed=99) == trace(b, seed=99) == trace(a, seed=99)
        assert trace(a, seed=98) != trace(a, seed=99)
        c = SequenceEnv(game, opponents="greedy", seed=4, **options)
        assert trace(c) != first[0]


def test_no_seed_reaches_the_agent_in_info() -> None:
    # The seed rebuilds every hand and the draw pile: it stays an attribute of the environment.
    env = SequenceEnv("classic", players=2, opponents="random", seed=8)
    for *_, info in play(env):
        assert not any("seed" in key for key in info), sorted(info)


def test_the_game_seed_rebuilds_the_game() -> None:
    env = SequenceEnv("kids", players=2, opponents="random", seed=8)
    play(env)
    record = env.record()
    assert env.game_seed is not None
    assert State.new(env.config, env.game_seed).view(0).hand == record.replay(0).view(0).hand


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    env = SequenceEnv("classic", players=2, opponents="random", seed=1)
    obs, info = env.reset()
    moves_before = env.view.move_stack
    illegal = next(a for a, m in enumerate(info["action_mask"]) if not m)
    with pytest.raises(IllegalActionError, match=rf"action {illegal} \(.*\) is illegal: "):
        env.step(illegal)
    with pytest.raises(IllegalActionError, match="actions are 0 to 696"):
        env.step(env.num_actions)
    with pytest.raises(IllegalActionError, match="an action is an int"):
        env.step("2S@b1")  # type: ignore[arg-type]
    assert env.view.move_stack == moves_before
    assert env.legal_actions() == info["legal_actions"] and env.action_mask() == info["action_mask"]
    obs2, reward, terminated, truncated, _ = env.step(info["legal_actions"][0])
    assert (reward, terminated, truncated) == (0.0, False, False) and obs2 != obs


def test_the_reason_comes_from_the_engine() -> None:
    env = SequenceEnv("classic", players=2, opponents="random", seed=1)
    env.reset()
    hand = env.view.hand
    assert hand is not None
    not_held = next(
        a
        for a, m in enumerate(env.action_space.moves)
        if m.kind is MoveKind.DISCARD and m.card not in hand
    )
    with pytest.raises(IllegalActionError, match="you do not hold"):
        env.step(not_held)
    draw = env.action_space.move_to_action(Move.parse("draw:2"))
    with pytest.raises(IllegalActionError, match="drawn automatically"):
        env.step(draw)


def test_penalty_mode_ends_the_episode_without_playing() -> None:
    env = SequenceEnv("dice", opponents="random", seed=2, illegal="penalty", illegal_penalty=-5)
    obs, info = env.reset()
    moves_before = env.view.move_stack
    illegal = next(a for a, m in enumerate(info["action_mask"]) if not m)
    obs2, reward, terminated, truncated, info2 = env.step(illegal)
    assert (reward, terminated, truncated) == (-5.0, True, False)
    assert "is illegal" in info2["illegal_action"] and obs2 == obs
    assert "(see info['legal_actions'])" in info2["illegal_action"]  # a key this info has
    assert set(info2) >= {"legal_actions"}
    assert (info2["outcome"], info2["winner"], info2["termination"]) == (
        None,
        -1,
        "illegal_action",
    )
    assert set(info2) == set(info)  # the same keys at every step
    assert info2["legal_actions"] == [] and sum(info2["action_mask"]) == 0
    assert env.view.move_stack == moves_before
    assert env.legal_actions() == [] and sum(env.action_mask()) == 0
    with pytest.raises(RuntimeError, match="episode is over"):
        env.step(info["legal_actions"][0])
    obs3, _ = env.reset()  # a new episode starts normally
    assert len(obs3) == env.observation_size


def test_max_turns_truncates_with_a_draw() -> None:
    env = SequenceEnv("classic", players=2, opponents="random", seed=1, max_turns=12)
    assert env.config.max_turns == 12
    *_, (_, reward, terminated, truncated, info) = play(env)
    assert (reward, terminated, truncated) == (0.0, False, True)
    assert info["termination"] == "max_turns" and info["turn"] == 12


def test_manual_draw_and_dice_are_advanced_for_the_agent() -> None:
    env = SequenceEnv("classic", players=3, manual_draw=True, opponents="greedy", seed=2)
    obs, info = env.reset()
    for _ in range(10):
        obs, _, terminated, truncated, info = env.step(info["legal_actions"][0])
        if terminated or truncated:
            break
        view = env.view
        assert view.hand_sizes == (6, 6, 6)  # every seat drew after its play, the agent too
        assert observation_layout(env.config).segment(obs, "pending_draws") == [0, 0, 0]
    dice = SequenceEnv("dice", opponents="random", seed=2)
    dice.reset()
    assert dice.view.roll is not None and dice.view.phase.name == "ACT"


def test_bot_objects_and_spec_lists_as_opponents() -> None:
    bots = [RandomBot(seed=1), "greedy", RandomBot(seed=2)]
    env = SequenceEnv("classic", players=4, opponents=bots, seed=6)
    first = [s[0] for s in play(env, seed=1)]
    assert first == [s[0] for s in play(env, seed=1)]  # bot objects are reseeded per episode
    with pytest.raises(ValueError, match="3 other seats need 3 opponents"):
        SequenceEnv("classic", players=4, opponents=["random"])
    with pytest.raises(ValueError, match="unknown bot"):
        SequenceEnv("kids", opponents="nobody")
    with pytest.raises(TypeError, match="an opponent is a bot spec or a Bot"):
        SequenceEnv("kids", opponents=[42])  # type: ignore[list-item]
    for bad in (None, 42):
        with pytest.raises(TypeError, match=r"opponents is a bot spec .* or a list of them"):
            SequenceEnv("kids", opponents=bad)  # type: ignore[arg-type]


def test_configuration_forms_and_errors() -> None:
    cfg = make_config("kids", players=3)
    assert SequenceEnv(cfg).config == SequenceEnv("kids", players=3).config
    assert SequenceEnv(cfg.to_dict()).config == cfg
    with pytest.raises(TypeError, match="go with a game name"):
        SequenceEnv(cfg, players=3)
    with pytest.raises(ValueError, match="no seat 3"):
        SequenceEnv(cfg, agent_seat=3)
    with pytest.raises(ValueError, match="illegal must be"):
        SequenceEnv(cfg, illegal="ignore")  # type: ignore[arg-type]
    env = SequenceEnv(cfg)
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)
    env.reset()
    with pytest.raises(RuntimeError, match="only once the game is over"):
        env.record()


def test_render_shows_the_board_and_only_the_agents_hand() -> None:
    env = SequenceEnv("classic", players=2, opponents="random", seed=4)
    env.reset()
    text = env.render()
    lines = text.splitlines()
    assert len(lines) == 12 and lines[0].split() == list("abcdefghij")
    assert lines[1].startswith(" 1  **")
    hand = env.view.hand
    assert hand is not None
    assert lines[-1].startswith("you (seat 0, team A) hold: ")  # seats 0-based, as agent_seat
    assert lines[-1].split(": ")[1].split() == [card_name(c) for c in hand]
    assert text.count("hold") == 1  # the agent's hand, nobody else's


def test_arguments_after_the_config_are_keywords_and_draft_is_a_game_name() -> None:
    with pytest.raises(TypeError):
        SequenceEnv("classic", 2)  # type: ignore[misc]  # a seat, or a player count?
    env = SequenceEnv("draft", players=4, opponents="random")
    assert env.config.draft and env.num_actions == SequenceEnv("classic").num_actions
    with pytest.raises(ConfigError, match="draft=false contradicts it"):
        SequenceEnv("draft", draft=False)


def test_reset_takes_gymnasiums_options_argument_and_close_stops_the_bots() -> None:
    closed: list[int] = []

    class Counted(RandomBot):
        def close(self) -> None:
            closed.append(1)

    mine = Counted(seed=1)
    env = SequenceEnv("kids", players=3, opponents=["random", mine])
    env.reset(seed=1, options={})
    with pytest.raises(ValueError, match="reset takes no options"):
        env.reset(options={"players": 4})
    env.reset(seed=2)
    env.close()
    env.close()  # twice is harmless
    assert closed == []  # a bot given as an object is the caller's to close


def test_an_opponents_illegal_choice_stops_the_episode_with_an_error() -> None:
    class Cheat(RandomBot):
        def choose(self, view: Any) -> Move:
            return Move(MoveKind.PLACE, view.hand[0], 0)  # the free corner a1: never legal

    env = SequenceEnv("classic", players=2, opponents=Cheat(), seed=2, agent_seat=1)
    with pytest.raises(RuntimeError, match="not a legal move"):
        _, info = env.reset()
        for _ in range(5):
            env.step(info["legal_actions"][0])


def test_legal_actions_and_mask_agree_with_the_view_at_every_step() -> None:
    env = SequenceEnv("classic", players=2, opponents="random", seed=5)
    _, info = env.reset()
    rng = random.Random(5)
    done, steps = False, 0
    while not done:
        legal = env.view.legal_moves
        assert info["legal_actions"] == sorted(env.action_space.move_to_action(m) for m in legal)
        assert [i for i, bit in enumerate(info["action_mask"]) if bit] == info["legal_actions"]
        _, _, terminated, truncated, info = env.step(rng.choice(info["legal_actions"]))
        done, steps = terminated or truncated, steps + 1
    assert steps > 10 and env.legal_actions() == [] and sum(env.action_mask()) == 0
