"""The tournament's statistics on their own, from games and results written by hand: the
interval of a score rate, Bradley-Terry Elo and its profile-likelihood intervals, and the tables a
finished run's results make (sequence.bots.tournament.stats and .summary). No game is played."""

from __future__ import annotations

import itertools
import json
import math
import random
from typing import Any

import pytest

from sequence.bots.tournament import bradley_terry, rating_intervals, summarise, wilson
from sequence.engine import make_config

# --- the interval of a score rate ---------------------------------------------------------------


def test_wilson_of_no_games_is_anything() -> None:
    assert wilson(0.7, 0) == (0.0, 1.0)


@pytest.mark.parametrize("score", [0.0, 0.1, 0.5, 0.75, 1.0])
@pytest.mark.parametrize("n", [1, 10, 1000])
def test_wilson_holds_the_score_within_0_and_1(score: float, n: int) -> None:
    lo, hi = wilson(score, n)
    assert 0.0 <= lo <= score <= hi <= 1.0


def test_wilson_is_symmetric_between_the_two_sides() -> None:
    lo, hi = wilson(0.3, 50)
    lo2, hi2 = wilson(0.7, 50)
    assert lo == pytest.approx(1 - hi2) and hi == pytest.approx(1 - lo2)


def test_wilson_narrows_with_more_games() -> None:
    widths = [hi - lo for lo, hi in (wilson(0.6, n) for n in (10, 100, 1000))]
    assert widths[0] > widths[1] > widths[2]
    lo, hi = wilson(0.6, 1000)
    assert hi - lo == pytest.approx(2 * 1.96 * math.sqrt(0.6 * 0.4 / 1000), rel=0.01)


def test_wilson_of_a_perfect_score_is_not_a_point() -> None:
    lo, hi = wilson(1.0, 10)
    assert hi == 1.0 and 0.6 < lo < 0.8  # Wilson, not the Wald interval's [1, 1]


# --- Bradley-Terry Elo --------------------------------------------------------------------------


def test_elo_of_two_bots_is_the_log_odds_of_the_score_with_one_virtual_draw() -> None:
    games = [(0, 1, 1.0)] * 30 + [(0, 1, 0.0)] * 10
    first, second = bradley_terry(2, games)
    assert first == 0.0
    assert second == pytest.approx(400 * math.log10(10.5 / 30.5))


def test_elo_counts_a_draw_as_half_a_win() -> None:
    assert bradley_terry(2, [(0, 1, 0.5)] * 10)[1] == pytest.approx(0.0, abs=1e-9)
    assert bradley_terry(2, [(0, 1, 1.0), (0, 1, 0.0)] * 5)[1] == pytest.approx(0.0, abs=1e-9)


def test_elo_does_not_depend_on_which_side_a_game_names_first() -> None:
    games = [(0, 1, 1.0), (0, 1, 1.0), (0, 1, 0.5), (1, 2, 0.0), (2, 0, 1.0)]
    swapped = [(b, a, 1 - s) for a, b, s in games]
    assert bradley_terry(3, swapped) == pytest.approx(bradley_terry(3, games))


def test_elo_is_transitive_through_a_bot_in_the_middle() -> None:
    games = [(0, 1, 1.0)] * 3 + [(0, 1, 0.0)] + [(1, 2, 1.0)] * 3 + [(1, 2, 0.0)]
    a, b, c = bradley_terry(3, games)
    assert a == 0.0 > b > c
    assert c == pytest.approx(2 * b)  # the same score twice: twice the distance


def test_elo_of_a_perfect_score_is_finite() -> None:
    r = bradley_terry(2, [(0, 1, 0.0)] * 1000)
    assert math.isfinite(r[1]) and r[1] > 400


def test_elo_with_no_games_puts_everyone_at_0() -> None:
    assert bradley_terry(3, []) == [0.0, 0.0, 0.0]


# --- intervals of the ratings -------------------------------------------------------------------


def test_rating_intervals_hold_the_rating_and_repeat() -> None:
    games = [(0, 1, 1.0)] * 30 + [(0, 1, 0.0)] * 10
    elo = bradley_terry(2, games)
    intervals = rating_intervals(2, games)
    assert intervals[0] == (0.0, 0.0)  # the first bot is 0 by definition
    lo, hi = intervals[1]
    assert lo < elo[1] < hi < 0
    assert rating_intervals(2, games) == intervals


def two_bot_log_likelihood(won: float, lost: float, elo: float) -> float:
    """The log-likelihood of the second bot's score (one virtual draw added) at ``elo``: the
    two-bot model written out by hand."""
    p = 1 / (1 + 10 ** (-elo / 400))
    return (won + 0.5) * math.log(p) + (lost + 0.5) * math.log(1 - p)


@pytest.mark.parametrize("games", [1, 2, 5, 30, 1000])
@pytest.mark.parametrize("winner", [0, 1])
def test_a_sweep_s_interval_holds_the_rating_strictly_on_both_sides(
    games: int, winner: int
) -> None:
    # The bug: with a bootstrap over the games no resample of a sweep is more extreme than
    # the sweep, so the upper end of the interval was the rating itself.
    sweep = [(0, 1, 1.0 if winner == 0 else 0.0)] * games
    elo = bradley_terry(2, sweep)[1]
    lo, hi = rating_intervals(2, sweep)[1]
    assert lo < elo < hi
    assert min(elo - lo, hi - elo) > 100  # not a sliver either: a sweep says little
    # Each end is where the likelihood has fallen by 1.92 (chi-square, 95%), no nearer.
    top = two_bot_log_likelihood(games * winner, games * (1 - winner), elo)
    for end in (lo, hi):
        fall = top - two_bot_log_likelihood(games * winner, games * (1 - winner), end)
        assert fall == pytest.approx(1.9207, abs=1e-4)


def test_a_sweep_among_three_bots_keeps_every_interval_round_its_rating() -> None:
    games = [(0, 1, 0.0)] * 10 + [(0, 2, 0.0)] * 10 + [(1, 2, 1.0)] * 10  # 2 loses every game
    games += [(2, 0, 0.0)] * 10  # the first bot named second in a game, too
    elo = bradley_terry(3, games)
    for (lo, hi), e in list(zip(rating_intervals(3, games), elo, strict=True))[1:]:
        assert lo < e < hi


def test_rating_intervals_of_random_tournaments_hold_every_rating_strictly() -> None:
    rng = random.Random(7)
    for _ in range(30):
        n = rng.randint(2, 6)
        strength = [rng.gauss(0, 300) for _ in range(n)]
        games = []
        for a, b in itertools.combinations(range(n), 2):
            p = 1 / (1 + 10 ** ((strength[b] - strength[a]) / 400))
            for _ in range(rng.randint(1, 12)):
                x = rng.random()
                games.append((a, b, 1.0 if x < p * 0.9 else 0.5 if x < p else 0.0))
        elo = bradley_terry(n, games)
        intervals = rating_intervals(n, games)
        assert intervals[0] == (0.0, 0.0)
        for (lo, hi), e in list(zip(intervals, elo, strict=True))[1:]:
            assert lo < e < hi, (games, elo, intervals)


def test_rating_intervals_cover_the_true_difference_about_95_times_in_100() -> None:
    rng = random.Random(3)
    truth = 150.0
    p = 1 / (1 + 10 ** (-truth / 400))
    covered = 0
    for _ in range(400):
        games = [(0, 1, 0.0 if rng.random() < p else 1.0) for _ in range(60)]
        lo, hi = rating_intervals(2, games)[1]
        covered += lo < truth < hi
    assert 0.91 <= covered / 400 <= 0.99, covered


def test_a_bot_that_never_met_the_first_has_no_rating_to_bound() -> None:
    games = [(1, 2, 1.0)] * 4
    assert bradley_terry(3, games) == [0.0, 0.0, 0.0]
    inf = math.inf
    assert rating_intervals(3, games) == [(0.0, 0.0), (-inf, inf), (-inf, inf)]


def test_rating_intervals_narrow_with_more_games() -> None:
    few = [(0, 1, 1.0)] * 6 + [(0, 1, 0.0)] * 4
    lo, hi = rating_intervals(2, few)[1]
    lo2, hi2 = rating_intervals(2, few * 10)[1]
    assert hi2 - lo2 < hi - lo


def test_rating_intervals_of_no_games_are_0() -> None:
    assert rating_intervals(3, []) == [(0.0, 0.0)] * 3


# --- the tables of a run ------------------------------------------------------------------------


def result(
    index: int,
    pairing: tuple[int, int],
    score_a: float,
    *,
    forfeit: str | None = None,
    termination: str = "sequences",
    stats_problems: dict[int, str] | None = None,
) -> dict[str, Any]:
    """One game's summary as a worker returns it (two seats, one a side, no record)."""
    a, b = pairing
    seat = {"moves": 10, "seconds": 0.5, "iterations": 100.0, "searched": 5}
    return {
        "index": index,
        "pairing": [a, b],
        "deal": 0,
        "owners": [a, b],
        "seed": 1,
        "score_a": score_a,
        "winner": None if score_a == 0.5 else 0 if score_a == 1.0 else 1,
        "termination": termination,
        "forfeit": forfeit,
        "turns": 20,
        "seats": [{"bot": a, **seat}, {"bot": b, **seat}],
        "stats_problems": stats_problems or {},
    }


def test_summary_of_a_round_robin() -> None:
    config = make_config("kids", players=2)
    results = [
        result(0, (0, 1), 1.0),
        result(1, (0, 1), 0.5, termination="draw"),
        result(2, (0, 2), 0.0, forfeit="seat 1 loses the game: too slow"),
        result(3, (1, 2), 1.0, stats_problems={2: "stats() raised KeyError: 'x'"}),
    ]
    summary = summarise(["greedy", "random", "greedy"], results, config, "round-robin", 2.0)
    assert summary["bots"] == ["greedy #1", "random", "greedy #2"]
    assert summary["config"] == config.to_dict() and summary["games"] == 4
    first = summary["pairings"][0]
    assert (first["a"], first["b"], first["games"]) == ("greedy #1", "random", 2)
    assert (first["a_wins"], first["draws"], first["b_wins"]) == (1, 1, 0)
    assert first["a_score"] == 0.75 and first["a_score_95"] == list(wilson(0.75, 2))
    assert [p["forfeits"] for p in summary["pairings"]] == [0, 1, 0]
    assert summary["forfeits"] == ["seat 1 loses the game: too slow"]
    assert summary["terminations"] == {"draw": 1, "sequences": 3}
    ratings = {r["bot"]: r for r in summary["ratings"]}
    assert ratings["greedy #1"]["elo"] == 0.0
    assert ratings["greedy #1"]["games"] == 3 and ratings["greedy #1"]["score"] == 0.5
    assert ratings["random"]["games"] == 3 and ratings["random"]["score"] == 0.5  # 0, 1/2, 1
    assert ratings["random"]["ms_per_move"] == pytest.approx(50.0)
    assert ratings["random"]["iterations_per_move"] == pytest.approx(20.0)
    assert ratings["random"]["iterations_per_second"] == pytest.approx(200.0)
    # A bot whose figures were unusable shows none, and is named once.
    assert ratings["greedy #2"]["iterations_per_move"] == 0.0
    assert ratings["greedy #2"]["iterations_per_second"] == 0.0
    assert summary["stats_problems"] == {"greedy #2": "stats() raised KeyError: 'x'"}


def test_summary_of_no_games_has_no_ratings() -> None:
    summary = summarise(["a:A", "b:B"], [], make_config("classic", 2), "gauntlet", 0.0)
    assert summary["games"] == 0 and summary["pairings"] == [] and summary["ratings"] == []
    assert summary["forfeits"] == [] and summary["terminations"] == {}
    assert summary["mode"] == "gauntlet" and summary["specs"] == ["a:A", "b:B"]


def test_summary_of_a_run_cut_short_writes_no_unbounded_interval_as_a_number() -> None:
    # Only the second and third entries met: neither can be rated against the first.
    results = [result(0, (1, 2), 1.0), result(1, (1, 2), 0.0)]
    summary = summarise(["a:A", "b:B", "c:C"], results, make_config("classic", 2), "x", 1.0)
    assert [r["elo_95"] for r in summary["ratings"]] == [[0.0, 0.0], [None, None], [None, None]]
    json.loads(json.dumps(summary), parse_constant=lambda c: pytest.fail(f"{c} in the JSON"))
