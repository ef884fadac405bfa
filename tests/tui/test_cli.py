"""`sequence play` options and the replay entry point."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest
from textual.widgets import Static

from sequence.bots.arena import Forfeit, Late
from sequence.bots.review import Reviewer
from sequence.cli.main import build_parser, main
from sequence.engine import GameRecord, State, make_config, play_random_game
from sequence.i18n import SUPPORTED
from sequence.i18n.moves import move_words
from sequence.tui import cli
from sequence.tui.drawing import forfeit_text, winner_text
from sequence.tui.replay_app import ReplayApp
from sequence.tui.session import GameSetup, Session
from sequence.tui.widgets import Gettext

from .helpers import screen_text


def parse(*argv: str) -> argparse.Namespace:
    args = build_parser("play").parse_args(["play", *argv])
    args.lang = args.lang or "en"
    return args


def test_vs_puts_you_in_seat_one_and_bots_elsewhere() -> None:
    setup = cli.setup_from_args(parse("--players", "4", "--vs", "random", "--seed", "3"))
    assert setup.seat_kinds() == ("human", "random", "random", "random")
    assert setup.seed == 3 and setup.config().teams == 2


def test_seats_hotseat_and_options() -> None:
    setup = cli.setup_from_args(parse("--seats", "human,random,human"))
    assert setup.players == 3 and setup.seat_kinds() == ("human", "random", "human")
    setup = cli.setup_from_args(parse("--game", "dice", "--hotseat", "--line-length", "6"))
    assert setup.seat_kinds() == ("human", "human") and setup.config().line_length == 6
    setup = cli.setup_from_args(parse("--manual-draw", "--difficult", "--rated"))
    assert setup.config().manual_draw and setup.config().difficult and not setup.undo_allowed
    assert cli.setup_from_args(parse("--game", "draft")).config().draft


def test_bad_options_are_refused_with_the_reason(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.run(parse("--players", "5", "--vs", "random")) == 2
    assert "cannot be played with 5 players" in capsys.readouterr().err
    assert cli.run(parse("--vs", "nobody")) == 2
    assert "unknown bot" in capsys.readouterr().err
    assert cli.run(parse("--seats", "human,random", "--players", "3")) == 2
    assert "names 2 seats for 3 players" in capsys.readouterr().err


def test_refusals_are_in_the_chosen_language(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.run(parse("--players", "5", "--vs", "random", "--lang", "ru")) == 2
    assert "нельзя играть, если игроков 5" in capsys.readouterr().err
    assert cli.run(parse("--seats", "human,random", "--players", "3", "--lang", "de")) == 2
    err = capsys.readouterr().err
    assert err.startswith("sequence play: ") and "2 Plätze für 3 Spieler" in err


def test_load_refuses_a_bad_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"config": {"game": "classic"}, "seed": 1, "moves": ["ZZ@a1"]}')
    assert cli.run(parse("--load", str(path))) == 2
    assert "move 1" in capsys.readouterr().err


def test_the_terminal_is_told_where_the_game_was_saved(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the game leaves to say once it has ended ("Save, then quit": where the file went)
    is printed when the terminal is back."""
    from sequence.tui.app import SequenceApp

    def run(app: SequenceApp) -> int:
        app.say_on_exit("Saved to /home/ann/game.json. Resume with: ...")
        return 0

    monkeypatch.setattr(cli, "on_a_terminal", lambda: True)
    monkeypatch.setattr(SequenceApp, "run", run)
    assert cli.run(parse("--vs", "random")) == 0
    assert capsys.readouterr().out == "Saved to /home/ann/game.json. Resume with: ...\n"


def test_load_keeps_seats_from_the_record() -> None:
    setup = GameSetup(game="kids", players=3, seats=("human", "random", "human"), seed=1)
    session = Session.start(setup)
    loaded = Session.load(session.record().to_text())
    assert loaded.seats == ("human", "random", "human")


async def test_replay_steps_forward_back_and_jumps() -> None:
    state = play_random_game(State.new(make_config("classic", 2), seed=4), seed=4)
    record = GameRecord.from_state(state)
    app = ReplayApp(record, lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        total = len(record.moves)
        result = winner_text(state.view(None), Gettext("en"))
        assert app.index == total and result in screen_text(app)
        await pilot.press("home")
        assert app.index == 0 and f"Move 0 of {total}" in screen_text(app)
        await pilot.press("right", "right", "right", "left")
        assert app.index == 2 and f"last: {record.moves[1]}" in screen_text(app)
        await pilot.press("g", "1", "0", "enter")
        assert app.index == 10
        assert app.states[10] == record.replay(10)
        await pilot.press("end")
        assert app.index == total


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_replay_shows_the_review_of_each_move(lang: str) -> None:
    """``r`` reviews the game in a thread; each step then shows the move's verdict and notes
    and the chances there, in the viewer's language."""
    state = play_random_game(State.new(make_config("classic", 2), seed=4), seed=4)
    record = GameRecord.from_state(state)
    app = ReplayApp(record, lang=lang, at=10, reviewer=Reviewer(deals=2, chance_deals=2))
    _ = Gettext(lang)
    async with app.run_test(size=(120, 40)) as pilot:
        assert app.review is None and "Chances" not in screen_text(app)
        await pilot.press("r")
        await app.workers.wait_for_complete()
        await pilot.pause()
        review = app.review
        assert review is not None and not app.reviewing
        judged = next(m for m in review.moves if m.index == 9)
        text = screen_text(app)
        panel = app.query_one("#review", Static)
        move = move_words(record.moves[9], lang)  # in words, not notation
        head = _("Move {n} ({move}): {verdict}").format(n=10, move=move, verdict="")
        assert str(panel.content).startswith(head.strip())
        assert _("Chances, an estimate: {chances}").split("{")[0].strip() in text
        if judged.flags:  # random play: the first note is a flag, in the viewer's language
            from sequence.i18n.notes import translate_note

            assert translate_note(judged.flags[0], lang) in str(panel.content)
        await pilot.press("right")
        moved = str(panel.content)
        assert f"({move_words(record.moves[10], lang)})" in moved
        assert f"({move})" not in moved and "@" not in moved


def test_more_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.run(parse("--players", "0", "--vs", "easy")) == 2
    assert "0 players" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exited:
        parse("--vs", "easy", "--lang", "xx")
    assert exited.value.code == 2
    assert "argument --lang: unknown language 'xx'" in capsys.readouterr().err
    assert cli.run(parse("--vs", "random", "--bot-delay", "-1")) == 2
    assert "--bot-delay is 0 seconds or more" in capsys.readouterr().err
    assert cli.run(parse("--vs", "random", "--bot-time-limit", "-1")) == 2
    assert "--bot-time-limit is 0 seconds (no limit) or more" in capsys.readouterr().err
    assert parse("--vs", "random").bot_time_limit == 30  # a bot that never answers is stopped


def test_a_bot_over_the_time_limit_loses_and_its_late_answer_is_dropped() -> None:
    """The controller without a screen: the limit passes (the runner's timers fire) while the
    bot still thinks; then its answer comes, too late."""
    from sequence.tui.session import GameSetup, Session
    from sequence.tui.turns import Listener, QueueRunner, TurnController

    session = Session.start(GameSetup(game="kids", players=2, seats=("random", "human"), seed=4))
    runner = QueueRunner()
    turns = TurnController(session, Listener(), runner, bot_delay=0, time_limit=2.0)
    turns.advance()
    assert turns.thinking == 0 and [s for s, _job in runner.timers] == [3.0]
    assert runner.fire() == 1  # two seconds and the grace passed: the bot loses
    assert session.forfeit is not None and session.forfeit.seat == 0
    assert session.forfeit.reason == "still thinking after 3.00 s; the limit is 2.00 s a move"
    assert session.forfeit.late == Late(3.0, 2.0, answered=False)  # the code, for the screen
    runner.run()  # the bot's answer arrives now: not played
    assert session.state.move_stack == () and turns.thinking is None


@pytest.mark.parametrize("lang", SUPPORTED)
def test_a_loss_on_time_is_said_in_the_players_language(lang: str) -> None:
    """The arena gives the reason's code and figures; the screen says it through gettext, the
    seconds written as the language writes them. A bot's own failure stays in the arena's
    words, for its author (like its exception)."""
    _ = Gettext(lang)
    still = Forfeit.of(0, 0, "random", Late(1.2, 0.2, answered=False))
    late = Forfeit.of(0, 0, "random", Late(2.5, 2.0, answered=True))
    raised = Forfeit.of(0, 0, "mybot", "choose() raised KeyError: 7 (at mybot.py:12)")
    said = {f: forfeit_text("Bot 1", f, _) for f in (still, late, raised)}
    point = "." if lang == "en" else ","
    assert f"1{point}20" in said[still] and f"0{point}20" in said[still]
    assert f"2{point}50" in said[late] and f"2{point}00" in said[late]
    assert said[raised].endswith("choose() raised KeyError: 7 (at mybot.py:12)")
    if lang == "en":
        assert said[still] == f"Bot 1 loses the game: {still.reason}"
        assert said[late] == f"Bot 1 loses the game: {late.reason}"
    else:
        for f in (still, late):
            assert f.reason not in said[f] and said[f].startswith("Bot 1 ")
        assert said[still] != said[late]


def test_the_time_limit_watches_one_question_only() -> None:
    """A bot that answered in time is not forfeited by that question's watch, even while it
    thinks about a later move (the same seat, the same position count)."""
    from sequence.tui.session import GameSetup, Session
    from sequence.tui.turns import Listener, QueueRunner, TurnController

    session = Session.start(GameSetup(game="kids", players=2, seats=("random", "random"), seed=4))
    runner = QueueRunner()
    turns = TurnController(session, Listener(), runner, bot_delay=0, time_limit=2.0)
    turns.advance()
    for _ in range(6):  # three moves of each bot, every one in time
        runner.jobs.popleft()()  # the bot thinks
        runner.jobs.popleft()()  # and its move is played
    assert len(session.state.move_stack) >= 6 and turns.thinking is not None
    *answered, open_question = runner.timers
    assert len(answered) == 6
    for _seconds, watch in answered:  # their time passes while the next move is thought about
        watch()
    assert session.forfeit is None
    open_question[1]()  # the question still open: its bot loses
    assert session.forfeit is not None
    assert session.forfeit.reason.startswith("still thinking after 3.00 s")


def test_load_a_game_downloaded_from_the_web_app() -> None:
    from sequence.engine import GameRecord

    state = State.new(make_config("kids", 2), seed=3)
    tags = {"Table": "ABC234", "Seat1": "Alice", "Seat2": "random"}
    loaded = Session.load(GameRecord.from_state(state, tags=tags).to_text())
    assert loaded.seats == ("human", "random")


def test_loading_errors_are_in_the_chosen_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = str(tmp_path / "nowhere.json")
    assert cli.run(parse("--load", missing, "--lang", "de")) == 2
    assert f"es gibt keine Datei {missing}" in capsys.readouterr().err
    binary = tmp_path / "game.bin"
    binary.write_bytes(b"\xff\xfe\x00")
    assert cli.run(parse("--load", str(binary), "--lang", "fr")) == 2
    assert "le fichier n'est pas du texte (UTF-8)" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text('{"config": {"game": "classic"}, "seed": 1, "moves": ["ZZ@a1"]}')
    assert cli.run(parse("--load", str(bad), "--lang", "ru")) == 2
    assert "ход 1: " in capsys.readouterr().err
    assert cli.run(parse("--vs", "nobody", "--lang", "uk")) == 2
    assert "невідомий бот «nobody»" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (("--game", "kids", "--difficult"), "option --difficult does not apply to Sequence for"),
        (("--game", "dice", "--manual-draw"), "option --manual-draw does not apply to Sequence"),
        (("--line-length", "6"), "option --line-length does not apply to Sequence"),
        (("--game", "draft", "--line-length", "5"), "option --line-length does not apply"),
        (("--game", "draft", "--manual-draw"), "manual_draw does not apply to the draft variant"),
    ],
)
def test_rule_flags_the_game_does_not_take_are_refused_like_simulate(
    argv: tuple[str, ...], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # They used to start the game without the rule, where `sequence simulate -o` refuses it.
    for more in (("--vs", "random"), ("--setup",)):
        assert cli.run(parse(*argv, *more)) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"sequence play: {says}") and err.count("\n") == 1


@pytest.mark.parametrize(
    "flag",
    [("--game", "kids"), ("--players", "4"), ("--teams", "2"), ("--seed", "5"), ("--difficult",),
     ("--manual-draw",), ("--line-length", "6")],
)  # fmt: skip
def test_setup_options_with_load_are_refused(
    flag: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "saved.json"
    path.write_text(Session.start(GameSetup(seats=("human", "random"), seed=2)).record().to_json())
    assert cli.run(parse("--load", str(path), *flag)) == 2
    assert capsys.readouterr().err == (
        f"sequence play: {flag[0]} cannot be given with --load: the saved game decides it\n"
    )
    assert cli.run(parse("--load", str(path), *flag, "--lang", "de")) == 2
    assert f"{flag[0]} passt nicht zu --load" in capsys.readouterr().err


def test_load_with_vs_seats_the_saved_games_player_count(tmp_path: Path) -> None:
    setup = GameSetup(players=4, seats=("human", "random", "human", "random"), seed=2)
    path = tmp_path / "four.json"
    path.write_text(Session.start(setup).record().to_json())
    seats = cli.load_seats(parse("--load", str(path), "--vs", "random"), path.read_text())
    assert seats == ("human", "random", "random", "random")


def test_play_without_a_terminal_is_refused_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    said = "sequence play: the game needs a terminal: its input and output must not be redirected\n"
    assert cli.run(parse("--vs", "random")) == 2  # pytest's standard input is no terminal
    assert capsys.readouterr().err == said
    # `sequence play --vs easy </dev/null >file` used to start Textual and hang.
    sequence = Path(sys.executable).with_name("sequence")
    with open(os.devnull) as stdin, (tmp_path / "out").open("w") as stdout:
        done = subprocess.run(
            [str(sequence), "play", "--vs", "easy", "--lang", "en"],
            stdin=stdin, stdout=stdout, stderr=subprocess.PIPE, timeout=60,
        )  # fmt: skip
    assert done.returncode == 2 and done.stderr.decode() == said
    assert (tmp_path / "out").read_text() == ""


def test_play_help_says_defaults_bots_and_keys(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "pause before each computer move (default 0.5)" in text
    assert "package.module:Class" in text
    assert "saved with s (a game record)" in text
