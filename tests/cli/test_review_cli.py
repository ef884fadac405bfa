"""``sequence review``: one record in words or JSON, a tournament's records per agent, and the
refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sequence.bots import make_bot, play_game
from sequence.cli.main import main
from sequence.engine import GameRecord, State, make_config

FAST = ["--deals", "2", "--chance-deals", "2"]


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    game = play_game(make_config("kids", players=2), [make_bot("greedy", seed=1),
                     make_bot("random", seed=2)], seed=3, tags={"Name1": "me"})  # fmt: skip
    path = tmp_path_factory.mktemp("review") / "game.json"
    path.write_text(game.record.to_json(), encoding="utf-8")
    return path


def test_a_record_reviewed_in_words(record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", str(record_file), *FAST, "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Review of kids for 2")
    assert "Flagged moves" in out and "me (A)" in out and "(loss: how far" in out
    assert "all verdicts: inaccuracy " in out and "(an inaccuracy alone is not flagged)" in out
    assert "Chances to win (an estimate:" in out


def test_a_record_reviewed_as_json_with_notes_translated(
    record_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review", str(record_file), *FAST, "--json", "--lang", "de"]) == 0
    data = json.loads(capsys.readouterr().out)
    record = GameRecord.load(record_file.read_text(encoding="utf-8"))
    assert data["lang"] == "de" and data["players"] == ["me", "random"]
    assert len(data["chances"]) == len(data["moves"]) + 1
    assert {m["verdict"] for m in data["moves"]} <= {"best", "good", "inaccuracy", "mistake",
                                                     "blunder"}  # fmt: skip
    assert all(str(record.moves[m["index"]]) == m["move"] for m in data["moves"])
    flags = [f for m in data["moves"] for f in m["flags"]]
    assert flags, "random play makes mistakes"
    assert all(f["said"] and f["text"] for f in flags)
    assert any(f["said"] != f["text"] for f in flags)


def test_a_tournaments_records_summed_per_agent(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "games"
    argv = ["tournament", "--games", "2", "--workers", "1", "--seed", "3",
            "--bot", "greedy", "--bot", "random", "--save", str(saved), "--quiet"]  # fmt: skip
    assert main(argv) == 0
    capsys.readouterr()
    assert main(["review", str(saved), "--json", "--deals", "4"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 2 and set(summary["agents"]) == {"greedy", "random"}
    for agent in summary["agents"].values():
        assert agent["games"] == 2
        assert 0 <= agent["missed_wins"] <= agent["wins_available"]
        assert 0 <= agent["missed_blocks"] <= agent["decisions"]
    assert summary["agents"]["random"]["flagged"] > summary["agents"]["greedy"]["flagged"]
    assert main(["review", str(saved), "--deals", "2"]) == 0
    assert "2 games reviewed; per agent:" in capsys.readouterr().out


def test_refusals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    unfinished = tmp_path / "unfinished.json"
    state = State.new(make_config("kids", players=2), seed=1)
    state.push(state.legal_moves[0])
    unfinished.write_text(GameRecord.from_state(state).to_json(), encoding="utf-8")
    assert main(["review", str(unfinished)]) == 1
    assert "the game is not finished" in capsys.readouterr().err
    assert main(["review", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["review", str(unfinished), "--deals", "0"]) == 2
    assert "--deals must be 1 or more" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exited:
        main(["review", str(unfinished), "--lang", "xx"])
    assert exited.value.code == 2
    assert "unknown language 'xx'; choose one of en, ru" in capsys.readouterr().err
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["review", str(empty)]) == 2
    assert "holds no records" in capsys.readouterr().err


def test_a_resigned_game_is_replayed_and_reviewed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = State.new(make_config("kids", players=2), seed=5)
    for _ in range(6):
        state.push(state.legal_moves[0])
    path = tmp_path / "resigned.txt"
    path.write_text(GameRecord.from_state(state, resigned="A wins").to_text(), encoding="utf-8")
    assert main(["replay", str(path), "--print"]) == 0
    assert "result: Team A wins by resignation." in capsys.readouterr().out
    assert main(["review", str(path), *FAST, "--json", "--lang", "en"]) == 0
    review = json.loads(capsys.readouterr().out)
    assert review["result"] == "A wins"
    assert review["chances"][-1]["chances"] == [1.0, 0.0]  # the end is the result
