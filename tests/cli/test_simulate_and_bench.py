"""What `sequence simulate` and `sequence bench` say: their summaries, refusals and help."""

from __future__ import annotations

import json

import pytest

from sequence.cli.main import main
from sequence.engine import make_config


def test_simulate_text_is_words_not_python(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--game", "draft", "--games", "1"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "1 game of Sequence: 2 players, each alone; draft"
    assert lines[1].split() == ["draws:", "1"]
    assert lines[2] == "  endings: face-up cards ran out 1"
    assert lines[3].startswith("  average: ") and " turns a game; " in lines[3]
    assert not set("{}'") & set(out)
    assert main("simulate --players 9 -o difficult -o max_turns=50 --games 2".split()) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == "2 games of Sequence: 9 players in 3 teams of 3; difficult, max_turns=50"


def test_simulate_json_keeps_its_shape(capsys: pytest.CaptureFixture[str]) -> None:
    assert main("simulate --players 4 -o difficult --games 2 --json".split()) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"config", "games", "wins", "endings", "average_turns", "seconds",
                        "moves_per_second", "results", "bots", "longest_turn",
                        "turn_move_limit"}  # fmt: skip
    assert out["config"] == {"game": "classic", "players": 4, "teams": 2, "difficult": True}
    assert sum(out["endings"].values()) == 2 and set(out["endings"]) <= {"sequences", "stalemate"}
    assert out["bots"] == ["random"] and out["longest_turn"] is None


def test_simulate_with_bots_checks_every_turn_against_the_bound(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = "simulate --game kids --players 4 --bot greedy --games 12 --json".split()
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["bots"] == ["greedy"] and out["turn_move_limit"] == 4
    assert 1 <= out["longest_turn"] <= 4 and sum(out["endings"].values()) == 12
    assert main("simulate --game kids --players 4 --bot greedy --bot easy --bot hard".split()) == 2
    assert "3 --bot options for 4 seats" in capsys.readouterr().err
    assert main("simulate --game kids --bot gredy".split()) == 2
    assert "unknown bot 'gredy'" in capsys.readouterr().err
    assert main("simulate --game kids --players 3 --bot greedy --games 3".split()) == 0
    text = capsys.readouterr().out
    assert "player A wins" in text or "player B wins" in text or "player C wins" in text
    assert "longest turn:" in text and "(the rules allow 4)" in text


def test_bench_names_its_configuration_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert main("bench --game kids --players 3 --seconds 0.05".split()) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("Sequence for Kids: 3 players, each alone (Python ")


@pytest.mark.parametrize("value", ["false", "no", "0", "off"])
def test_draft_game_with_draft_off_is_refused(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # It used to play the draft variant anyway.
    for command in ("simulate", "bench"):
        assert main([command, "--game", "draft", "-o", f"draft={value}"]) == 2
        err = capsys.readouterr().err
        assert err == (
            f"sequence {command}: draft is classic with option draft: draft=false contradicts"
            " it; choose classic to play without it\n"
        )
    assert main(["simulate", "--game", "draft", "-o", "draft=yes", "--games", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["config"]["draft"] is True


def _help(command: str, capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    return " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize("command", ["simulate", "bench", "tournament"])
def test_teams_help_says_what_the_engine_does(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    text = _help(command, capsys)
    said = (
        "(default: each plays alone with 2-3 players and at Kids; else 2 teams, or 3 for an odd"
        " count such as 9)"
    )
    assert said in text
    assert make_config("classic", 9).teams == 3 and make_config("classic", 6).teams == 2
    assert make_config("classic", 3).teams == 3 and make_config("kids", 4).teams == 4


def test_bench_help_explains_seed_and_seconds(capsys: pytest.CaptureFixture[str]) -> None:
    text = _help("bench", capsys)
    assert "--seed SEED seed of the first random game and of the positions sampled" in text
    assert "copies and push+pop are measured for half as long each" in text
