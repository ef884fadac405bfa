"""The engine's commands as a user runs them: simulate, bench, replay."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sequence.cli.main import main
from sequence.engine import GameRecord, State, make_config, play_random_game

LEGAL = (
    [
        ("classic", n, t)
        for n, teams in {
            2: [2],
            3: [3],
            4: [2],
            6: [2, 3],
            8: [2],
            9: [3],
            10: [2],
            12: [2, 3],
        }.items()
        for t in teams
    ]
    + [("kids", n, None) for n in (2, 3, 4)]
    + [("dice", n, None) for n in (2, 3, 4)]
)


@pytest.mark.parametrize(("game", "players", "teams"), LEGAL)
def test_simulate_runs_every_legal_configuration_to_the_end(
    game: str, players: int, teams: int | None, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["simulate", "--game", game, "--players", str(players), "--games", "3", "--json"]
    if teams:
        argv += ["--teams", str(teams)]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 3 and len(out["results"]) == 3
    assert sum(out["wins"].values()) == 3
    assert all(r["termination"] for r in out["results"])


@pytest.mark.parametrize("option", ["draft", "manual_draw", "difficult", "chips_per_colour=us"])
def test_simulate_with_options(option: str, capsys: pytest.CaptureFixture[str]) -> None:
    players = "4" if option != "chips_per_colour=us" else "3"
    assert main(["simulate", "--players", players, "-o", option, "--games", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 2


def test_the_issue_command_twelve_players_three_teams(capsys: pytest.CaptureFixture[str]) -> None:
    argv = "simulate --players 12 --teams 3 --games 100 --seed 1 --json".split()
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["config"] == {"game": "classic", "players": 12, "teams": 3}
    assert out["games"] == 100


def test_simulate_is_deterministic_from_its_seed(capsys: pytest.CaptureFixture[str]) -> None:
    main("simulate --players 4 --games 5 --seed 9 --json".split())
    first = json.loads(capsys.readouterr().out)["results"]
    main("simulate --players 4 --games 5 --seed 9 --json".split())
    assert json.loads(capsys.readouterr().out)["results"] == first


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ("simulate --players 5", "cannot be split into 2 or 3 equal teams"),
        ("simulate --players 4 --teams 3", "4 players play in 2 equal teams"),
        ("simulate --game kids --players 5", "Sequence for Kids takes 2 to 4 players"),
        ("simulate -o draft --players 3", "draft variant is for 2 players or 2 teams of 2"),
        ("simulate -o nonsense", "unknown option nonsense;"),
        ("bench -o dice_line_length=6", "does not apply to Sequence"),
    ],
)
def test_bad_configurations_fail_with_a_clear_message(
    argv: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv.split()) == 2
    assert message in capsys.readouterr().err


def test_five_players_from_the_shell_exits_2() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "sequence.cli.main", "simulate", "--players", "5"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert "5 players: they cannot be split" in done.stderr


def test_bench_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--seconds", "0.3", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    for key in ("moves_per_second", "games_per_second", "copies_per_second", "push_pop_per_second"):
        assert figures[key] > 0


@pytest.mark.parametrize("game", ["kids", "dice"])
def test_bench_other_games(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--game", game, "--seconds", "0.2"]) == 0
    assert "moves/s" in capsys.readouterr().out


def test_bench_refuses_no_time_and_measures_one_move_games(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["bench", "--seconds", "0"]) == 2
    assert "--seconds must be above 0" in capsys.readouterr().err
    assert main(["bench", "-o", "max_turns=1", "--seconds", "0.2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["moves_per_game"] == 1


def test_replay_of_a_binary_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.bin"
    path.write_bytes(b"\xff\xfe\x00binary")
    assert main(["replay", str(path)]) == 2
    assert "is not a text file" in capsys.readouterr().err


def test_replay_viewer_opens_at_the_move_asked_for() -> None:
    from sequence.tui.replay_app import ReplayApp

    state = play_random_game(State.new(make_config("kids", 2), seed=4), seed=4)
    record = GameRecord.from_state(state)
    assert ReplayApp(record, "en", at=5).index == 5
    assert ReplayApp(record, "en").index == len(record.moves)


def test_replay_on_a_terminal_opens_the_terminal_games_viewer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The entry point hands `sequence replay` the viewer (cli does not import tui itself).
    import sequence.tui
    import sequence.tui.replay_app

    opened: list[tuple[int, int | None]] = []

    def run_replay(record: GameRecord, lang: str | None = None, at: int | None = None) -> int:
        opened.append((len(record.moves), at))
        return 0

    monkeypatch.setattr(sequence.tui, "on_a_terminal", lambda: True)
    monkeypatch.setattr(sequence.tui.replay_app, "run_replay", run_replay)
    state = play_random_game(State.new(make_config("kids", 2), seed=4), seed=4)
    path = _record(tmp_path, GameRecord.from_state(state).to_json())
    assert main(["replay", path, "--to", "3"]) == 0
    assert opened == [(len(state.move_stack), 3)] and capsys.readouterr().out == ""
    assert main(["replay", path, "--print"]) == 0
    assert len(opened) == 1 and state.board_text() in capsys.readouterr().out
    monkeypatch.setattr(sequence.tui, "on_a_terminal", lambda: False)
    assert main(["replay", path]) == 0
    assert len(opened) == 1 and state.board_text() in capsys.readouterr().out


def _record(tmp_path: Path, text: str, name: str = "game.json") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_replay_validates_and_prints_the_final_position(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = play_random_game(State.new(make_config("classic", 2), seed=4), seed=4)
    record = GameRecord.from_state(state)
    assert main(["replay", _record(tmp_path, record.to_json()), "--print"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].split() == list("abcdefghij")  # the notation's column letters
    assert "\n".join(lines[:11]) == state.board_text()
    assert "result: Team A wins: its sequences are complete." in lines
    assert "team A (blue): 2 sequences, 2 chips left" in lines
    # A finished game is shown as a board and its result: no raw state line (hands, deck).
    assert state.position() not in out and "position:" not in out
    assert main(["replay", _record(tmp_path, record.to_text(), "g.txt"), "--print", "--to", "3",
                 "--position"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    third = record.replay(3)
    assert f"position: {third.position()}" in out
    assert f"the game goes on: seat {third.to_move + 1} to act (play)" in out


@pytest.mark.parametrize(
    ("game", "players", "says"),
    [
        ("classic", 3, ["[aa] [bb] [cc]  a chip of team A, B, C", "**  ", "5C  ", "T ten"]),
        ("kids", 2, ["[AA] [BB]  in capitals: a chip of a completed sequence", "LI lion"]),
        ("dice", 2, ["7          an empty space: the dice total that puts a chip on it"]),
    ],
)
def test_replay_prints_a_key_to_the_board(
    game: str, players: int, says: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = play_random_game(State.new(make_config(game, players), seed=2), seed=2)
    path = _record(tmp_path, GameRecord.from_state(state).to_json())
    assert main(["replay", path, "--print"]) == 0
    out = capsys.readouterr().out
    key = out[out.index("key: ") :].split("\n\n")[0]
    for text in says:
        assert text in key, key
    assert ("**" in key) == (game != "dice")  # Dice has no free corners
    assert max(map(len, key.splitlines())) <= 78
    # Every symbol on the board is in the key: a chip, a free corner, a space's label.
    for cell in {c.strip() for row in state.board_text().splitlines()[1:] for c in _cells(row)}:
        if cell.startswith("[") or cell == "**":
            assert cell in key, cell
        elif game == "kids":
            assert f"{cell} {cell.lower()}" in key, cell  # LI lion
        elif game == "classic":
            rank, suit = cell
            assert rank in "23456789" or f"{rank} " in key, cell
            assert f"{suit} " in key, cell


def _cells(row: str) -> list[str]:
    """The four-character cells of a row of ``board_text`` (after its row number)."""
    body = row[3:]
    return [body[i : i + 4] for i in range(0, len(body), 4)]


def test_replay_names_the_wrong_move(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = play_random_game(State.new(make_config("classic", 2), seed=4), seed=4)
    data = GameRecord.from_state(state).to_dict()
    data["moves"][5] = "JSxa1"  # a free corner never holds a chip to remove
    assert main(["replay", _record(tmp_path, json.dumps(data)), "--print"]) == 1
    err = capsys.readouterr().err
    assert "move 6 (JSxa1)" in err and "is illegal" in err
    # The seat that moved is named; the message a player gets about themselves ("you ...") is not.
    assert "seat 1 does not hold JS" in err and "you" not in err


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "a JSON object"),
        ('{"config": {"game": "classic", "players": 5}, "seed": 1, "moves": []}', "bad config"),
        ('{"config": {"game": "classic"}, "seed": 1, "moves": ["5H@z9"]}', "move 1"),
    ],
)
def test_replay_refuses_malformed_records(
    tmp_path: Path, text: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", _record(tmp_path, text), "--print"]) == 1
    assert message in capsys.readouterr().err


def test_replay_of_a_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "/nonexistent/game.json", "--print"]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    out = capsys.readouterr().out
    for command in ("simulate", "bench", "replay", "tournament", "play", "serve", "rules"):
        assert command in out


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--port", "99999"], "--port is 1 to 65535"),
        (["--bot-delay", "-1"], "--bot-delay is 0 seconds or more"),
        (["--bot-workers", "0"], "--bot-workers is 1 or more"),
        (["--db", "nonsense://x"], "cannot open the database nonsense://x"),
    ],
)
def test_serve_refuses_bad_settings_before_starting(
    args: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", *args]) == 2
    assert says in capsys.readouterr().err


def test_output_cut_short_by_the_reader_is_not_an_error() -> None:
    # `sequence simulate --json | head -1`: the reader leaves before the output is written.
    sequence = Path(sys.executable).with_name("sequence")
    proc = subprocess.Popen(
        [str(sequence), "simulate", "--game", "kids", "--games", "1500", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stdout.read(10)
    proc.stdout.close()
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0 and b"Traceback" not in err, err.decode()


def test_replay_of_a_forfeited_game_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = State.new(make_config("kids", 2), seed=4)
    state.push(state.legal_moves[0])
    why = "seat 2 (team B, bot 'x:Crash') loses the game: choose() raised RuntimeError: bug"
    record = GameRecord.from_state(state, tags={"Forfeit": why})
    assert main(["replay", _record(tmp_path, record.to_text(), "f.txt"), "--print"]) == 0
    assert f"result: ended by a forfeit: {why}" in capsys.readouterr().out
