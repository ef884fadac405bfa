"""Every game ends (issue 28): a turn has a bounded number of moves and a game a bounded number
of turns, in every game, player count and option, whoever plays.

The bound of a turn is the engine's :attr:`Config.turn_move_limit` (RULES.md §2.4, §3: one
dead card a turn in classic, three in Kids); :class:`~sequence.bots.arena.TurnLengths` fails a
game on any turn longer. A game ends by a win, a position that can never change, or
``max_turns`` (docs/engine.md, "Every game ends").
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from sequence.bots import Bot, make_bot
from sequence.bots.arena import TurnLengths, ask, play_game
from sequence.bots.base import seat_seed
from sequence.engine import Config, Move, MoveKind, State, View, make_config
from sequence.engine.cards import card_name

CONFIGS: list[Config] = [
    *(make_config("classic", n) for n in (2, 3, 4, 6, 8, 9, 10, 12)),
    make_config("classic", 6, teams=3),
    make_config("classic", 12, teams=3),
    make_config("classic", 2, difficult=True),
    make_config("classic", 4, manual_draw=True),
    make_config("classic", 3, chips_per_colour="us"),
    make_config("classic", 2, chips_per_colour=5),
    make_config("classic", 2, draft=True),
    make_config("classic", 4, draft=True),
    *(make_config("kids", n) for n in (2, 3, 4)),
    make_config("kids", 4, chips_per_colour=4),
    *(make_config("dice", n) for n in (2, 3, 4)),
    make_config("dice", 2, dice_line_length=6),
    make_config("dice", 3, chips_per_colour=3),
]
"""Every game and player count, and each option that changes how a turn or a game runs."""

LEVELS = ("random", "easy", "greedy", "medium", "hard", "expert")
"""Every built-in bot a person or a tournament picks, and the random player."""


def play(config: Config, bot: str, seed: int) -> tuple[str, int, int]:
    """One game of ``bot`` in every seat: (how it ended, its moves, its longest turn)."""
    watch = TurnLengths(config)
    bots = [make_bot(bot, seat_seed(seed, s)) for s in range(config.players)]
    result = play_game(config, bots, seed, on_move=watch)
    assert result.forfeit is None, result.describe()
    moves = len(result.record.moves)
    # Draws come one per card played and forfeits one per card a penalty takes: no game of
    # bots has penalties, so a turn's moves and its draw bound the game.
    assert moves <= config.max_turns * (config.turn_move_limit + 1)
    assert result.turns <= config.max_turns
    return result.termination, moves, watch.longest


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    config=hs.sampled_from(CONFIGS),
    bot=hs.sampled_from(["random", "greedy"]),
    seed=hs.integers(0, 2**31),
)
def test_every_configuration_ends_with_every_turn_within_its_bound(
    config: Config, bot: str, seed: int
) -> None:
    termination, _, longest = play(config, bot, seed)
    assert termination in ("sequences", "heart", "stalemate", "max_turns", "draft_empty")
    assert 1 <= longest <= config.turn_move_limit


@pytest.mark.parametrize("bot", LEVELS)
@pytest.mark.parametrize(
    "config",
    [
        make_config("kids", 3),
        make_config("kids", 4),
        make_config("classic", 4),
        make_config("dice", 2),
    ],
    ids=["kids-3", "kids-4", "classic-4", "dice-2"],
)
def test_every_bot_level_ends_its_games(config: Config, bot: str) -> None:
    for seed in range(2):
        termination, _, longest = play(config, bot, seed)
        assert termination != "max_turns"
        assert longest <= config.turn_move_limit


def test_four_player_kids_greedy_games_end_with_at_most_three_exchanges_a_turn() -> None:
    # Before the amendment 49 of 150 such games looped (issue 28); the tally of 2,000 is in
    # docs/engine.md (`sequence simulate --game kids --players 4 --bot greedy --games 2000`).
    config = make_config("kids", 4)
    endings: Counter[str] = Counter()
    longest = 0
    for seed in range(60):
        termination, _, turn = play(config, "greedy", seed)
        endings[termination] += 1
        longest = max(longest, turn)
    assert longest == 4, "some game should meet a hand of dead cards three times in a row"
    assert endings["max_turns"] == 0


def full_board_position() -> str:
    """The issue's minimal position: every space covered, seat 2 holding both Dragons, seat 1
    LION, TIGER and OWL, whose spaces are all taken."""
    hands = ["LION,TIGER,OWL", "DRAGON,DRAGON,CAT", "DOG,FOX,PIG", "COW,OWL,ZEBRA"]
    deck = Counter(card_name(c) for c in make_config("kids", 4).spec.deck)
    for hand in hands:
        deck.subtract(hand.split(","))
    return (
        "kids/4 *dabca*/cdbccdd/adbddbc/cadabdc/dadacdb/*bbabb* - "
        + "/".join(hands)
        + " /// "
        + ",".join(sorted(deck.elements()))
        + " 1:play"
    )


@pytest.mark.parametrize("bot", LEVELS)
def test_the_full_board_position_ends_with_every_bot(bot: str) -> None:
    # Before the amendment greedy exchanged dead cards here 5,000 times with the turn count at 0.
    state = State.from_position(full_board_position())
    players = [make_bot(bot, seed) for seed in range(4)]
    watch = TurnLengths(state.config)
    first: list[Move] = []
    while state.outcome is None:
        seat = state.to_move
        move = players[seat].choose(state.view(seat))
        state.push(move, seat=seat)
        watch(state, seat, move)
        if len(first) < 4:
            first.append(move)
        assert len(state.move_stack) <= state.config.max_turns * state.config.turn_move_limit
    # Seat 1 exchanges its three dead cards, draws dead ones again, and passes.
    assert [m.kind for m in first] == [MoveKind.DEAD] * 3 + [MoveKind.PASS]
    assert watch.longest <= 4


class ExchangesForEver(Bot):
    """A user's bot that answers every turn with a dead-card exchange, legal or not."""

    name = "exchanges-for-ever"

    def choose(self, view: View) -> Move:
        assert view.hand is not None
        return Move.parse(f"dead:{card_name(view.hand[0])}")


def test_a_bot_that_keeps_exchanging_is_stopped_by_the_bound_with_the_reason() -> None:
    state = State.from_position(full_board_position())
    bot = ExchangesForEver()
    for _ in range(3):
        state.push(bot.choose(state.view(0)), seat=0)
    with pytest.raises(ValueError, match="at most 3 dead cards may be exchanged a turn"):
        state.push(bot.choose(state.view(0)), seat=0)
    # A tournament or the terminal asks a bot through the arena: the forfeit says the same.
    move, _, reason = ask(bot, state.view(0))
    assert move is None and reason is not None
    assert reason.startswith("returned the illegal move dead:")
    assert "at most 3 dead cards may be exchanged a turn (legal here: pass)" in reason
