"""Every bot plays every game and configuration to the end with legal moves only."""

from __future__ import annotations

import pytest

from sequence.bots import BOTS, bot_maker, make_bot, parse_spec
from sequence.bots.arena import play_game
from sequence.engine import GameRecord, State, make_config

CONFIGS = [
    ("classic", 2, None, {}),
    ("classic", 3, None, {}),
    ("classic", 4, 2, {}),
    ("classic", 6, 3, {}),
    ("classic", 9, 3, {}),
    ("classic", 12, 2, {}),
    ("classic", 2, None, {"manual_draw": True}),
    ("classic", 4, 2, {"difficult": True, "chips_per_colour": "us"}),
    ("classic", 2, None, {"draft": True}),
    ("classic", 4, 2, {"draft": True}),
    ("kids", 2, None, {}),
    ("kids", 3, None, {}),
    ("kids", 4, None, {}),
    ("dice", 2, None, {}),
    ("dice", 3, None, {}),
    ("dice", 4, None, {"dice_line_length": 6}),
]
FAST_MCTS = "mcts@iterations=6,time=0,depth=3"
FAST_LOOKAHEAD = "lookahead@deals=2,time=0,k=4"


@pytest.mark.parametrize(("game", "players", "teams", "options"), CONFIGS)
def test_bots_finish_games_with_legal_moves(
    game: str, players: int, teams: int | None, options: dict
) -> None:
    config = make_config(game, players, teams, max_turns=80, **options)
    specs = ["greedy", FAST_MCTS, "random", "greedy"][: config.teams]
    if config.teams == 2:
        specs = ["greedy", FAST_MCTS]
    bots = [make_bot(specs[s % config.teams], seed=s) for s in range(players)]
    result = play_game(config, bots, seed=11, time_limit=20)
    assert result.forfeit is None, result.describe()
    state = GameRecord.load(result.record.to_json()).replay()
    assert state.is_over()
    assert sum(st.moves for st in result.seats) > 0


@pytest.mark.parametrize(("game", "players", "teams", "options"), CONFIGS)
def test_lookahead_finishes_games_with_legal_moves(
    game: str, players: int, teams: int | None, options: dict
) -> None:
    config = make_config(game, players, teams, max_turns=60, **options)
    specs = [FAST_LOOKAHEAD, "greedy", "random", "greedy"]
    bots = [make_bot(specs[s % config.teams], seed=s) for s in range(players)]
    result = play_game(config, bots, seed=12, time_limit=20)
    assert result.forfeit is None, result.describe()
    assert GameRecord.load(result.record.to_json()).replay().is_over()


@pytest.mark.parametrize(
    "spec",
    [
        "random",
        "easy",
        "medium",
        "casual@notice=0.5",
        "hard@deals=2,time=0,depth=2",
        "expert@deals=2,time=0",
        "mcts@iterations=8,time=0,leaf=path,bias=1",
        "lookahead@deals=3,time=0,leaf=path",
        "lookahead@time=0.01",
    ],
)
def test_every_level_plays_a_short_game(spec: str) -> None:
    config = make_config("classic", 2, max_turns=30)
    result = play_game(config, [make_bot(spec, 1), make_bot("greedy", 2)], seed=3, time_limit=20)
    assert result.forfeit is None, result.describe()


def test_registry_names_levels_and_bots() -> None:
    names = ("random", "greedy", "casual", "mcts", "lookahead", "easy", "medium", "hard", "expert")
    for name in names:
        assert name in BOTS
        assert make_bot(name).name == name
    hard, expert = make_bot("hard"), make_bot("expert")
    assert (hard.time, hard.deals, hard.k, hard.cards) == (1.0, 8, 6, True)
    assert (expert.time, expert.deals, expert.k, expert.cards) == (5.0, 32, 6, True)
    assert make_bot("hard@deals=0").deals is None  # no deal limit: the time decides


def test_search_levels_budget_deals_by_game() -> None:
    for game, hard_deals, expert_deals in (("kids", 32, 128), ("dice", 64, 256)):
        state = State.new(make_config(game, 2), seed=2)
        if state.is_chance():
            state.push(state.sample_chance())
        view = state.view(state.to_move)
        hard, expert, fixed = make_bot("hard", 1), make_bot("expert", 1), make_bot("hard@deals=3")
        for bot in (hard, expert, fixed):
            bot.choose(view)
        assert (hard.deals, expert.deals, fixed.deals) == (hard_deals, expert_deals, 3)
    assert make_bot("easy").notice == 0.3


def test_spec_arguments() -> None:
    assert parse_spec("mcts@time=0.5,depth=8") == ("mcts", {"time": 0.5, "depth": 8})
    bot = make_bot("mcts@iterations=7,time=0")
    assert bot.iterations == 7 and bot.time is None
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("grandmaster")
    with pytest.raises(ValueError, match="bad arguments"):
        make_bot("greedy@depth=3")
    with pytest.raises(ValueError, match="key=value"):
        make_bot("mcts@depth")
    with pytest.raises(ValueError, match="leaf is"):
        make_bot("mcts@leaf=deep")
    with pytest.raises(ValueError, match="budget"):
        make_bot("mcts@time=0")
    with pytest.raises(ValueError, match="cannot load"):
        make_bot("no_such_module_xyz:Bot")
    # A value of the wrong kind names the spec it came from, not only the conversion.
    with pytest.raises(
        ValueError, match=r"bad arguments for bot 'mcts@time=abc': could not convert"
    ):
        make_bot("mcts@time=abc")


def test_mcts_reports_iterations() -> None:
    from sequence.engine import State

    state = State.new(make_config("dice", 2), seed=2)
    state.push(state.sample_chance())
    bot = make_bot("mcts@iterations=25,time=0")
    move = bot.choose(state.view(state.to_move))
    assert move in state.legal_moves
    stats = bot.stats()
    assert stats["iterations"] == 25 and stats["iterations_per_second"] > 0


def test_lookahead_budget_and_stats() -> None:
    from sequence.engine import State

    state = State.new(make_config("classic", 2), seed=4)
    bot = make_bot("lookahead@deals=5,time=0,k=3", seed=1)
    move = bot.choose(state.view(state.to_move))
    assert move in state.legal_moves
    stats = bot.stats()
    assert stats["deals"] == 5 and stats["iterations"] == 15
    assert stats["iterations_per_second"] > 0
    with pytest.raises(ValueError, match="budget"):
        make_bot("lookahead@time=0")
    with pytest.raises(ValueError, match="leaf is"):
        make_bot("lookahead@leaf=deep")


def test_a_bots_signature_is_read_once_and_still_checks_every_spec() -> None:
    for _ in range(2):  # the second time from the signature kept the first time
        with pytest.raises(ValueError, match="bad arguments"):
            make_bot("greedy@depth=3")
        assert make_bot("random", seed=4).rng.random() == make_bot("random", seed=4).rng.random()


def test_a_bot_maker_reads_its_spec_once_and_makes_fresh_seeded_bots() -> None:
    make = bot_maker("lookahead@k=3,deals=2,time=0")
    first, second = make(7), make(7)
    assert first is not second and first.label == "lookahead@k=3,deals=2,time=0"
    assert first.rng.random() == second.rng.random() != make(8).rng.random()
    assert make(7).rng.random() == make_bot("lookahead@k=3,deals=2,time=0", seed=7).rng.random()
    with pytest.raises(ValueError, match="bad arguments"):
        bot_maker("greedy@depth=3")  # refused when read, before any bot is made
    make_bad_budget = bot_maker("mcts@time=-1")  # a value only the constructor can judge
    with pytest.raises(ValueError, match="bad arguments for bot 'mcts@time=-1'"):
        make_bad_budget(1)
