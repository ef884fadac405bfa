"""The batched greedy opponent against the ``greedy`` bot: the same values, the same best moves.

Each batched game is mirrored by the engine's game of the same seed. On every position, the
value :class:`BatchedGreedy` gives each legal action must be ``Evaluator.move_value`` of that
move on the engine's view (the evaluation :class:`~sequence.bots.GreedyBot` maximises), so its
set of best moves is greedy's; the moves the batched ``greedy`` opponents play are checked to
be in that set, move for move. Among equal best moves each picks at random. In the draft
variant the batched choice is also compared with :class:`~sequence.bots.GreedyBot`'s own
choice on the same view: equal when the bot's best move is unique, else one of the tied moves
the bot drew from.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, TypeVar

import pytest

np = pytest.importorskip("numpy", reason="the gym extra (numpy) is not installed")

from sequence.bots import GreedyBot  # noqa: E402
from sequence.bots.heuristic import evaluator_for  # noqa: E402
from sequence.engine import Config, Move, MoveKind, State  # noqa: E402
from sequence.engine.tables import HEART  # noqa: E402
from sequence.env import action_space  # noqa: E402
from sequence.env.batched import batched_env  # noqa: E402
from sequence.env.batched_greedy import TIE, BatchedGreedy  # noqa: E402

if TYPE_CHECKING:
    from _typeshed import SupportsLenAndGetItem

GAMES = {
    "classic-2p": ("classic", {"players": 2}),
    "classic-3p": ("classic", {"players": 3}),
    "classic-4p-teams": ("classic", {"players": 4, "teams": 2}),
    "classic-6p-3-teams": ("classic", {"players": 6, "teams": 3}),
    "classic-2p-difficult": ("classic", {"players": 2, "difficult": True}),
    "classic-2p-manual-draw": ("classic", {"players": 2, "manual_draw": True}),
    "classic-2p-few-chips": ("classic", {"players": 2, "chips_per_colour": 12}),
    "kids-2p": ("kids", {"players": 2}),
    "kids-3p": ("kids", {"players": 3}),
    "dice-2p": ("dice", {"players": 2}),
    "dice-3p": ("dice", {"players": 3}),
    "dice-4p-teams": ("dice", {"players": 4, "teams": 2}),
    "draft-2p": ("draft", {"players": 2}),
    "draft-4p-teams": ("draft", {"players": 4, "teams": 2}),
}


def new_state(config: Config, seed: int) -> State:
    state = State.new(config, seed)
    state.play_forced()
    return state


def greedy_values(state: State, seat: int) -> Any:
    """``Evaluator.move_value`` of each legal move of ``seat`` (``-inf`` elsewhere)."""
    view = state.view(seat)
    space = action_space(state.config)
    ev = evaluator_for(state.config)
    values = np.full(space.n, -np.inf)
    assert view.team is not None
    for move in view.legal_moves:
        values[space.move_to_action(move)] = ev.move_value(
            move, view.chips, view.sequences, view.team
        )
    return values


def self_play(
    n: int, game: str, options: dict[str, Any], seed: int, reset: int
) -> tuple[Any, BatchedGreedy, Any, list[State]]:
    """``n`` games in self-play, reset, with their batched greedy, the action space and each
    game's engine state (the same seeds)."""
    env = batched_env(n, game, opponents="self", seed=seed, **options)
    greedy = BatchedGreedy(env)
    env.reset(seed=reset)
    states = [new_state(env.config, int(s)) for s in env.game_seeds]
    return env, greedy, action_space(env.config), states


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_legal_actions_value_is_greedys(name: str) -> None:
    game, options = GAMES[name]
    env, greedy, space, states = self_play(6, game, options, seed=4, reset=7)
    rng = np.random.default_rng(1)
    rows = np.arange(env.num_envs)
    seen = {"remove": 0, "replace": 0, "discard": 0, "win": 0, "ties": 0, "pick": 0, "heart": 0}
    for _ in range(130 if game == "draft" else 260):  # the draft's: with more checks below
        values = greedy.values(rows)
        for g, state in enumerate(states):
            expected = greedy_values(state, state.to_move)
            np.testing.assert_allclose(values[g], expected, rtol=0, atol=1e-6, err_msg=str(g))
            best = expected.max()
            ties = int((expected >= best - TIE).sum())
            seen["ties"] += ties > 1
            seen["win"] += 100_000 - 1_000 <= best < 140_000  # a winning placement
            # The heart's terms at work: a team holds two of its spaces, no other team any.
            held = [(m & HEART).bit_count() for m in state.chips]
            seen["heart"] += max(held) >= 2 and sum(held) == max(held)
        # Mostly greedy's own moves (positions with threats and sequences), some at random.
        actions = np.where(
            rng.random(env.num_envs) < 0.7, greedy.choose(rows, rng), env.sample_actions(rng)
        )
        _, _, terminated, truncated, _ = env.step(actions)
        for g, state in enumerate(states):
            move = space.action_to_move(int(actions[g]))
            seen["remove"] += move.kind is MoveKind.REMOVE
            seen["discard"] += move.kind is MoveKind.DISCARD
            seen["replace"] += move.kind is MoveKind.REPLACE
            seen["pick"] += move.kind is MoveKind.PICK
            state.push(move)
            state.play_forced()
            assert state.is_over() == bool(terminated[g] or truncated[g])
            if state.is_over():
                states[g] = new_state(env.config, int(env.game_seeds[g]))
    assert seen["remove"] and seen["ties"], seen
    if game == "dice":  # a full number's spaces: another team's chip replaced (=c3)
        assert seen["replace"], seen
    if game == "draft":  # picks from the face-up row, and the heart's terms
        assert seen["pick"] and seen["heart"], seen
    if "chips_per_colour" in options:  # the supply runs out: cards are discarded
        assert seen["discard"], seen
    else:
        assert seen["win"], seen


OPPONENT_GAMES = ["classic-2p", "classic-4p-teams", "kids-2p", "dice-2p", "dice-3p"]


@pytest.mark.parametrize("name", [*OPPONENT_GAMES, "draft-2p", "draft-4p-teams"])
def test_greedy_opponents_play_greedys_best_moves(name: str) -> None:
    game, options = GAMES[name]
    env = batched_env(4, game, opponents="greedy", agent_seat=1, seed=3, log=True, **options)
    space = action_space(env.config)
    env.reset(seed=3)
    states = [new_state(env.config, int(s)) for s in env.game_seeds]
    rng = np.random.default_rng(0)
    checked = 0

    def replay(g: int, actions: list[int]) -> None:
        nonlocal checked
        for a in actions:
            state = states[g]
            assert state.to_move != env.agent_seat
            values = greedy_values(state, state.to_move)
            assert values[a] >= values.max() - TIE, (g, a)
            checked += 1
            state.push(space.action_to_move(a))
            state.play_forced()

    for g in range(env.num_envs):
        replay(g, env.opening_log[g])
    for _ in range(60):
        actions = env.sample_actions(rng)
        _, _, terminated, truncated, _ = env.step(actions)
        for g in range(env.num_envs):
            states[g].push(space.action_to_move(int(actions[g])))
            states[g].play_forced()
            replay(g, env.opponent_log[g])
            assert states[g].is_over() == bool(terminated[g] or truncated[g])
            if states[g].is_over():
                states[g] = new_state(env.config, int(env.game_seeds[g]))
                replay(g, env.opening_log[g])
            assert states[g].to_move == env.agent_seat
    assert checked > 200


def test_greedy_opponents_beat_a_random_agent_as_greedy_does() -> None:
    # GreedyBot beats random nearly always at classic (docs/bots.md): so must its batched twin.
    env = batched_env(64, "classic", players=2, opponents="greedy", seed=0)
    env.reset()
    rng = np.random.default_rng(0)
    rewards = []
    for _ in range(120):
        _, reward, terminated, truncated, _ = env.step(env.sample_actions(rng))
        rewards.extend(reward[terminated | truncated].tolist())
    assert len(rewards) > 30 and np.mean(rewards) < -0.9


T = TypeVar("T")


class _Ties(random.Random):
    """A bot's random source that records the tied best moves it is asked to choose among
    (``GreedyBot.best`` calls ``rng.choice`` only when several moves share the best value)."""

    def __init__(self) -> None:
        super().__init__(0)
        self.ties: list[Any] = []

    def choice(self, seq: SupportsLenAndGetItem[T]) -> T:
        self.ties = [seq[i] for i in range(len(seq))]
        return super().choice(seq)


@pytest.mark.parametrize("name", ["draft-2p", "draft-4p-teams"])
def test_draft_choices_are_the_greedy_bots(name: str) -> None:
    """On random draft positions (plays and picks, 2 and 4 players), the batched greedy's
    choice is the ``greedy`` bot's on the same view: the very move when the bot's best is
    unique; when the bot breaks a tie at random, one of the moves it drew from (the bot's list
    of equal best moves, recorded from its ``rng.choice``)."""
    game, options = GAMES[name]
    env, greedy, space, states = self_play(8, game, options, seed=2, reset=11)
    bot = GreedyBot(seed=0)
    rng = np.random.default_rng(5)
    rows = np.arange(env.num_envs)
    compared = {"unique": 0, "tied": 0, "pick": 0}
    for _ in range(90):
        chosen = greedy.choose(rows, rng)
        for g, state in enumerate(states):
            ties = bot.rng = _Ties()
            move = bot.choose(state.view(state.to_move))
            mine: Move = space.action_to_move(int(chosen[g]))
            if ties.ties:
                assert mine in ties.ties, (g, mine, ties.ties)
                compared["tied"] += 1
            else:
                assert mine == move, (g, mine, move)
                compared["unique"] += 1
            compared["pick"] += move.kind is MoveKind.PICK
        # Greedy's own moves, and some at random for positions greedy would not reach.
        actions = np.where(rng.random(env.num_envs) < 0.75, chosen, env.sample_actions(rng))
        _, _, terminated, truncated, _ = env.step(actions)
        for g, state in enumerate(states):
            state.push(space.action_to_move(int(actions[g])))
            state.play_forced()
            assert state.is_over() == bool(terminated[g] or truncated[g])
            if state.is_over():
                states[g] = new_state(env.config, int(env.game_seeds[g]))
    assert compared["unique"] > 200 and compared["tied"] > 10 and compared["pick"] > 100, compared
