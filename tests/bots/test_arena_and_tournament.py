"""Custom bots that crash, cheat or dawdle lose their game with a clear message; the tournament
command runs, writes JSON and saves replayable records."""

from __future__ import annotations

import json
import textwrap
import time
from pathlib import Path

import pytest

from sequence.bots import Bot, make_bot
from sequence.bots.arena import play_game
from sequence.bots.tournament import bradley_terry, seat_patterns, wilson
from sequence.cli.main import main
from sequence.engine import GameRecord, Move, View, make_config

CUSTOM = """
import time
from sequence.bots import Bot, BotMistake
from sequence.engine import Move


class First(Bot):
    name = "first"

    def choose(self, view):
        return view.legal_moves[0]


class Crash(Bot):
    def choose(self, view):
        raise RuntimeError("my bug")


class Mistaken(Bot):
    def choose(self, view):
        raise BotMistake("my agent answered nothing")


class Cheat(Bot):
    def choose(self, view):
        return Move.parse("pass")


class Sleepy(Bot):
    def choose(self, view):
        time.sleep(0.4)
        return view.legal_moves[0]


class Exits(Bot):
    def choose(self, view):
        raise SystemExit(3)


class Peek(Bot):
    # Tries to rebuild the deal from its own seed (a bot's seed used to be deal * 1000 + seat).

    def choose(self, view):
        from sequence.engine import State

        for guess in {self.seed, self.seed // 1000, self.seed - view.seat}:
            state = State.new(view.config, guess)
            try:
                for move in view.move_stack:
                    state.push(move)
            except Exception:
                continue  # not this deal
            if state.hand_of(view.seat) == view.hand:
                raise RuntimeError(f"found the deal: seed {guess}")
        return view.legal_moves[0]


class BadStats(Bot):
    def choose(self, view):
        return view.legal_moves[0]

    def stats(self):
        return None


class Introspect(Bot):
    # Looks for the game's state in its own process, as a cheat would (gc sees every object).
    def choose(self, view):
        import gc
        from sequence.engine import State

        if any(isinstance(o, State) for o in gc.get_objects()):
            raise RuntimeError("found the game's state")
        return view.legal_moves[0]


class Remember(Bot):
    # Keeps what it saw in a class attribute: across games, and shared with its team-mate.
    seen = {}

    def choose(self, view):
        key = (view.setup, view.seat)
        others = [k for k in Remember.seen if k != key]
        if others:
            raise RuntimeError(f"remembers {len(others)} other seats or games")
        Remember.seen[key] = view.hand
        return view.legal_moves[0]


class Stuck(Bot):
    def choose(self, view):
        while True:
            try:
                time.sleep(0.05)
            except Exception:
                pass
"""


@pytest.fixture()
def custom(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "custom_bots_for_test.py").write_text(textwrap.dedent(CUSTOM))
    monkeypatch.syspath_prepend(str(tmp_path))
    return "custom_bots_for_test"


CONFIG = make_config("classic", 2)


@pytest.mark.parametrize(
    ("name", "limit", "reason"),
    [
        ("Crash", None, "choose() raised RuntimeError: my bug"),
        ("Exits", None, "choose() raised SystemExit: 3"),
        ("Cheat", None, "returned the illegal move pass"),
        # A bot's own words for its user: as they are, not as a crash with a class name.
        ("Mistaken", None, "loses the game: my agent answered nothing"),
        ("Sleepy", 0.1, "the limit is 0.10 s"),
    ],
)
@pytest.mark.parametrize("seat", [0, 1])
def test_a_misbehaving_bot_loses_with_a_clear_message(
    custom: str, name: str, limit: float | None, reason: str, seat: int
) -> None:
    bad = make_bot(f"{custom}:{name}", 0)
    bots = [bad, make_bot("greedy", 1)] if seat == 0 else [make_bot("greedy", 1), bad]
    result = play_game(CONFIG, bots, seed=4, time_limit=limit)
    assert result.forfeit is not None
    assert result.forfeit.seat % 2 == seat and result.forfeit.team == seat
    assert reason in result.forfeit.message()
    late = result.forfeit.late  # a loss on time carries its code, for a front end's words
    assert (late is not None) == (name == "Sleepy")
    assert late is None or (late.answered and late.seconds > late.limit == limit)
    assert f"seat {result.forfeit.seat + 1}" in result.describe()
    assert (
        result.winner == 1 - seat and result.scores[seat] == 0.0 and result.termination == "forfeit"
    )
    GameRecord.load(result.record.to_json()).replay()  # the record up to the forfeit is sound


def test_a_bot_that_never_returns_is_interrupted(custom: str) -> None:
    start = time.perf_counter()
    result = play_game(
        CONFIG, [make_bot(f"{custom}:Stuck"), make_bot("greedy")], seed=1, time_limit=0.2, grace=0.2
    )
    assert time.perf_counter() - start < 3
    assert result.forfeit is not None and "still thinking" in result.forfeit.reason
    assert result.forfeit.late is not None and not result.forfeit.late.answered


def test_not_a_move_is_a_forfeit() -> None:
    class Text(Bot):
        def choose(self, view: View) -> Move:
            return str(view.legal_moves[0])  # type: ignore[return-value]

    result = play_game(make_config("kids", 2), [Text(), make_bot("random")], seed=1)
    assert result.forfeit is not None and "not a Move" in result.forfeit.reason


def test_a_user_bot_in_a_few_lines_plays_a_tournament(
    custom: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.json"
    save = tmp_path / "games"
    rc = main([
        "tournament", "--bot", f"{custom}:First", "--bot", "greedy", "--bot", f"{custom}:Crash",
        "--game", "kids", "--games", "2", "--workers", "1",
        "--json", str(out), "--save", str(save), "--quiet",
    ])  # fmt: skip
    assert rc == 0
    data = json.loads(out.read_text())
    assert data["games"] == 6 and len(data["pairings"]) == 3
    crash = [p for p in data["pairings"] if p["b"].endswith(":Crash")]
    assert all(p["a_wins"] == 2 and p["forfeits"] == 2 for p in crash)
    assert any("choose() raised RuntimeError: my bug" in f for f in data["forfeits"])
    files = sorted(save.glob("*.json"))
    assert len(files) == 6
    for f in files:
        record = GameRecord.load(f.read_text())
        state = record.replay()
        assert state.is_over() or "Forfeit" in record.tags
    assert "ratings" in capsys.readouterr().out


def test_tournament_json_to_stdout_in_parallel(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main([
        "tournament", "--bot", "random", "--bot", "greedy",
        "--bot", "mcts@iterations=5,time=0,depth=2", "--game", "dice", "--players", "3",
        "--games", "6", "--workers", "2", "--json", "-", "--seed", "3",
    ])  # fmt: skip
    assert rc == 0
    data = json.loads(capsys.readouterr().out)
    assert data["config"]["players"] == 3 and data["games"] == 18
    for p in data["pairings"]:
        assert p["games"] == 6 and p["a_wins"] + p["draws"] + p["b_wins"] == 6
        lo, hi = p["a_score_95"]
        assert 0 <= lo <= p["a_score"] <= hi <= 1
    by_bot = {r["bot"]: r for r in data["ratings"]}
    assert by_bot["random"]["elo"] == 0
    assert by_bot["mcts@iterations=5,time=0,depth=2"]["iterations_per_move"] == pytest.approx(5)
    assert by_bot["greedy"]["ms_per_move"] > 0


def test_a_tournament_bot_cannot_work_back_to_the_deal(
    custom: str, capsys: pytest.CaptureFixture[str]
) -> None:
    seeds = []
    for seed in ([], [], ["--seed", "7"]):
        rc = main([
            "tournament", "--bot", f"{custom}:Peek", "--bot", "random", "--game", "kids",
            "--games", "2", "--workers", "1", "--json", "-", "--quiet", *seed,
        ])  # fmt: skip
        assert rc == 0
        data = json.loads(capsys.readouterr().out)
        assert data["forfeits"] == [], data["forfeits"]
        seeds.append(data["seed"])
    assert seeds[0] != seeds[1] and min(seeds[:2]) > 2**32 and seeds[2] == 7


@pytest.mark.parametrize("players", [2, 4])
def test_a_users_bot_plays_in_a_process_of_its_own(
    custom: str, players: int, capsys: pytest.CaptureFixture[str]
) -> None:
    # Neither the game's state nor another game's or its team-mate's memory is within reach.
    rc = main(
        [
            "tournament",
            "--bot",
            f"{custom}:Introspect",
            "--bot",
            f"{custom}:Remember",
            "--bot",
            f"{custom}:BadStats",
            "--game",
            "classic",
            "--players",
            str(players),
            "--games",
            "2",
            "--workers",
            str(players // 2),
            "--json",
            "-",
            "--quiet",
        ]
    )  # fmt: skip  (--workers 2: pool workers start the bots' processes too)
    assert rc == 0
    data = json.loads(capsys.readouterr().out)
    assert data["forfeits"] == [] and data["games"] == 6  # a broken stats() costs nothing


def test_one_isolated_bot_answers_each_thread_its_own_question() -> None:
    import threading

    from sequence.bots.isolated import IsolatedBot
    from sequence.engine import State

    bot = IsolatedBot("greedy", seed=1)
    try:
        views = []
        for seed in range(6):
            state = State.new(make_config("kids", 2), seed)
            views.append(state.view(state.to_move))
        answers: dict[int, Move] = {}

        def ask(i: int) -> None:
            answers[i] = bot.choose(views[i])

        threads = [threading.Thread(target=ask, args=(i,)) for i in range(len(views))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert all(answers[i] in views[i].legal_moves for i in range(len(views)))
    finally:
        bot.close()


def test_an_isolated_bot_that_never_returns_loses_on_time(
    custom: str, capsys: pytest.CaptureFixture[str]
) -> None:
    start = time.perf_counter()
    rc = main([
        "tournament", "--bot", f"{custom}:Stuck", "--bot", "random", "--game", "kids",
        "--games", "2", "--workers", "1", "--time-limit", "0.3", "--json", "-", "--quiet",
    ])  # fmt: skip
    assert rc == 0 and time.perf_counter() - start < 30
    data = json.loads(capsys.readouterr().out)
    assert len(data["forfeits"]) == 2 and all("still thinking" in f for f in data["forfeits"])


def test_tournament_checks_where_results_go_before_playing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "afile").write_text("x")
    bots = ["tournament", "--bot", "random", "--bot", "greedy", "--games", "2", "--workers", "1"]
    assert main([*bots, "--json", str(tmp_path / "nowhere" / "r.json")]) == 2
    assert main([*bots, "--json", str(tmp_path)]) == 2
    assert main([*bots, "--save", str(tmp_path / "afile")]) == 2
    err = capsys.readouterr().err
    assert "there is no folder" in err and "that is a folder" in err and "not a folder" in err
    assert "games" not in err  # refused before any game was played


def test_tournament_refuses_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--bot", "greedy"]) == 2
    assert main(["tournament", "--bot", "greedy", "--bot", "nobody"]) == 2
    assert main(["tournament", "--bot", "greedy", "--bot", "random", "--players", "5"]) == 2
    err = capsys.readouterr().err
    assert "at least two bots" in err and "unknown bot 'nobody'" in err and "5 players" in err
    two = ["tournament", "--bot", "greedy", "--bot", "random"]
    assert main([*two, "--workers", "0"]) == 2
    assert main([*two, "--time-limit", "-1"]) == 2
    assert main([*two, "--time-limit", "nan"]) == 2
    err = capsys.readouterr().err
    assert "--workers must be at least 1" in err and err.count("--time-limit is 0") == 2


def test_seat_patterns_and_statistics() -> None:
    assert seat_patterns(2) == [(0, 1), (1, 0)]
    assert len(seat_patterns(3)) == 6 and (0, 0, 0) not in seat_patterns(3)
    lo, hi = wilson(0.9, 100)
    assert 0.82 < lo < 0.9 < hi < 0.95
    even = bradley_terry(2, [(0, 1, 1.0), (0, 1, 0.0)] * 10)
    assert even[1] == pytest.approx(0.0, abs=1e-6)
    strong = bradley_terry(3, [(0, 1, 0.0)] * 20 + [(1, 2, 0.0)] * 20)
    assert 0 < strong[1] < strong[2]


def test_the_docs_bot_runs_from_the_folder_holding_its_package(tmp_path: Path) -> None:
    # As in docs/bots.md: mypackage/mybot.py in the current folder, `sequence tournament` run
    # there (the installed command does not put the current folder on sys.path by itself).
    package = tmp_path / "docsbotpkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "mybot.py").write_text(
        textwrap.dedent("""
        from sequence.bots import Bot

        class FirstMove(Bot):
            name = "first"

            def choose(self, view):
                return view.legal_moves[0]
        """)
    )
    import subprocess
    import sys

    sequence = Path(sys.executable).with_name("sequence")
    done = subprocess.run(
        [str(sequence), "tournament", "--bot", "docsbotpkg.mybot:FirstMove", "--bot", "random",
         "--game", "kids", "--games", "2", "--workers", "1", "--json", "-", "--quiet"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games"] == 2


@pytest.mark.parametrize(
    "spec",
    ["lookahead@deals=-1,time=0", "lookahead@k=0", "lookahead@time=-1", "mcts@time=-1",
     "mcts@iterations=-5", "mcts@deals=0", "mcts@depth=-1"],
)  # fmt: skip
def test_a_budget_below_zero_is_refused_when_the_bot_is_made(spec: str) -> None:
    with pytest.raises(ValueError, match=f"bad arguments for bot '{spec}'"):
        make_bot(spec)


def test_tournament_takes_the_same_game_flags_as_the_other_commands(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bots = ["tournament", "--bot", "random", "--bot", "greedy", "--games", "2", "--workers", "1"]
    assert main([*bots, "--game", "draft", "--json", "-", "--quiet"]) == 0
    assert json.loads(capsys.readouterr().out)["config"]["draft"] is True
    assert main([*bots, "-o", "max_turns=4", "--json", "-", "--quiet"]) == 0
    assert json.loads(capsys.readouterr().out)["config"]["max_turns"] == 4
    assert main([*bots, "--game", "draft", "--quiet"]) == 0  # the tables say which game
    assert "Sequence: 2 players, each alone; draft: 2 games" in capsys.readouterr().out
