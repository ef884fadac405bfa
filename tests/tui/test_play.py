"""Whole games of every kind played through the terminal interface with Textual's pilot."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sequence.engine import GameRecord, MoveKind, Phase, card_symbol, make_config
from sequence.tui.app import SequenceApp
from sequence.tui.dialogs import GameOverScreen, HandoffScreen
from sequence.tui.narration import move_lines
from sequence.tui.session import GameSetup, Session
from sequence.tui.widgets import Gettext

from .helpers import click_space, play_to_the_end, screen_text, settle, type_text


def app_for(setup: GameSetup) -> SequenceApp:
    return SequenceApp(session=Session.start(setup), lang="en", bot_delay=0)


def check_game_over(app: SequenceApp) -> None:
    """The result dialog says what the engine says, and the board shows every chip."""
    assert isinstance(app.screen, GameOverScreen)
    session = app.game_screen.session
    outcome = session.state.outcome
    assert outcome is not None
    result = str(app.screen.query_one("#result").render())
    if outcome.winner is None:
        assert "drawn" in result
    elif len(session.humans) == 1:  # said to the one person at the table
        mine = session.config.team_of(session.humans[0])
        assert ("won" if outcome.winner == mine else "lost") in result
    else:  # several people: the winners by name
        assert f"Team {'ABC'[outcome.winner]}" in result and "wins" in result
    # Every chip on the board is drawn with its team's symbol (the dialog may cover some).
    text = screen_text(app, under=True)
    for team, symbol in enumerate("●▲■◆"[: session.config.teams]):
        assert text.count(symbol) >= session.state.chips[team].bit_count()


@pytest.mark.parametrize(
    ("game", "players", "seats", "seed"),
    [
        ("classic", 2, ("human", "random"), 1),
        ("kids", 3, ("human", "random", "random"), 2),
        ("dice", 2, ("human", "random"), 3),
        ("draft", 2, ("human", "random"), 4),
    ],
)
async def test_whole_game_against_a_bot(
    game: str, players: int, seats: tuple[str, ...], seed: int
) -> None:
    app = app_for(GameSetup(game=game, players=players, seats=seats, seed=seed))
    async with app.run_test(size=(100, 34)) as pilot:
        steps = await play_to_the_end(pilot, app, seed=seed)
        assert steps > 3
        check_game_over(app)
        # The record replays to the same end.
        record = app.game_screen.session.record()
        assert record.replay().outcome == app.game_screen.session.state.outcome


async def test_hotseat_hides_each_hand_until_the_next_player_is_ready() -> None:
    app = app_for(GameSetup(game="kids", players=2, seats=("human", "human"), seed=5))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        for _ in range(6):
            assert isinstance(app.screen, HandoffScreen)
            text = screen_text(app)
            assert "Your hand" not in text and "Pass the keyboard to Player" in text
            await pilot.press("enter")
            await settle(pilot, app)
            screen = app.game_screen
            seat = screen.viewer
            assert seat == screen.session.actor()
            hand = screen.session.state.hand_of(seat)
            shown = screen_text(app)
            for card in hand:
                assert card_symbol(card).capitalize() in shown
            # Play the first legal move by keys: card number, then its space typed.
            move = screen.session.view(seat).legal_moves[0]
            await pilot.press(str(screen.choices(screen.session.view(seat)).index(move.card) + 1))
            from sequence.engine import space_name

            if move.space is not None:
                await type_text(pilot, space_name(move.space))
            else:
                await pilot.press("enter")
            await settle(pilot, app)


async def test_classic_four_players_two_humans_with_manual_draw() -> None:
    setup = GameSetup(
        game="classic",
        players=4,
        seats=("human", "random", "human", "random"),
        manual_draw=True,
        seed=8,
    )
    app = app_for(setup)
    async with app.run_test(size=(100, 34)) as pilot:
        await play_to_the_end(pilot, app, seed=8)
        check_game_over(app)
        moves = app.game_screen.session.state.move_stack
        assert any(m.kind is MoveKind.DRAW for m in moves)


async def test_illegal_input_is_explained_not_crashed() -> None:
    app = app_for(GameSetup(game="classic", players=2, seats=("human", "random"), seed=11))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        screen = app.game_screen
        before = screen.session.state.move_stack
        await click_space(pilot, screen, 44)  # no card chosen yet
        assert "Choose a card first" in screen.message.plain
        await pilot.press("1")
        card = screen.selected_card()
        legal_spaces = {m.space for m in screen.my_legal() if m.card == card}
        wrong = next(s for s in range(1, 99) if s not in legal_spaces and s not in (9, 90))
        await click_space(pilot, screen, wrong)
        assert screen.message.plain.startswith("Not allowed:")
        await type_text(pilot, "zz9")
        assert (
            "Not a move" in screen.message.plain and "move: not a move" not in screen.message.plain
        )
        await type_text(pilot, "a1")  # a free corner
        assert "free corner" in screen.message.plain
        await pilot.press("9")
        assert "no card 9" in screen.message.plain
        await pilot.press("r")
        assert screen.message.plain.startswith("Not allowed:")
        await pilot.press("d")
        assert screen.message.plain.startswith("Not allowed:")
        assert screen.session.state.move_stack == before
        assert "Not allowed" in screen_text(app)


async def test_save_then_load_resumes_the_same_game(tmp_path: Path) -> None:
    app = app_for(GameSetup(game="classic", players=2, seats=("human", "random"), seed=21))
    path = tmp_path / "game.json"
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        screen = app.game_screen
        await pilot.press("1")
        await pilot.press("enter")
        await settle(pilot, app)
        await pilot.press("s")
        await pilot.pause()
        await pilot.press("ctrl+a", "ctrl+k", *str(path), "enter")
        await pilot.pause()
        assert "Saved to" in screen.message.plain
        saved_moves = screen.session.state.move_stack
    data = json.loads(path.read_text())
    assert data["tags"] == {"Seat1": "human", "Seat2": "random"}
    session = Session.load(path.read_text())
    assert session.state.move_stack == saved_moves and session.seats == ("human", "random")
    resumed = SequenceApp(session=session, lang="en", bot_delay=0)
    async with resumed.run_test(size=(80, 24)) as pilot:
        await settle(pilot, resumed)
        screen = resumed.game_screen
        assert screen.viewer == 0
        # The newest move, in words at the log's end.
        last = move_lines(session.state, screen.names, 0, Gettext("en"))[-1].plain
        assert last[:25] in screen_text(resumed)


async def test_undo_takes_back_the_human_move_and_the_bot_reply() -> None:
    app = app_for(GameSetup(game="kids", players=2, seats=("human", "random"), seed=4))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        screen = app.game_screen
        start = screen.session.state.move_stack
        hand = screen.session.state.hand_of(0)
        await pilot.press("1", "enter")
        await settle(pilot, app)
        assert len(screen.session.state.move_stack) > len(start)
        await pilot.press("u")
        await settle(pilot, app)
        assert screen.session.state.move_stack == start
        assert screen.session.state.hand_of(0) == hand
        assert "Took back" in screen.message.plain


async def test_undo_is_off_in_rated_games() -> None:
    app = app_for(GameSetup(game="kids", players=2, seats=("human", "random"), seed=4, rated=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("1", "enter")
        await settle(pilot, app)
        before = app.game_screen.session.state.move_stack
        await pilot.press("u")
        assert app.game_screen.session.state.move_stack == before
        assert "Undo is off" in app.game_screen.message.plain


async def test_table_talk_penalty_makes_the_team_give_up_cards() -> None:
    setup = GameSetup(
        game="classic", players=4, seats=("human", "random", "random", "random"), seed=6
    )
    app = app_for(setup)
    async with app.run_test(size=(100, 34)) as pilot:
        await settle(pilot, app)
        screen = app.game_screen
        sizes = [len(screen.session.state.hand_of(s)) for s in range(4)]
        await pilot.press("t")
        await pilot.pause()
        assert not app.screen.query("#team-1")  # team B: three bots, never penalised
        await pilot.click("#team-0")  # team A: seats 1 and 3
        await settle(pilot, app)
        assert screen.session.state.phase is Phase.FORFEIT
        assert "give up" in screen_text(app)
        await pilot.press("2", "enter")
        await settle(pilot, app)
        forfeits = [m for m in screen.session.state.move_stack if m.kind is MoveKind.FORFEIT]
        assert len(forfeits) == 2
        assert len(screen.session.state.hand_of(0)) == sizes[0] - 1


async def test_penalty_refused_with_the_engines_reason_when_nobody_has_team_mates() -> None:
    app = app_for(GameSetup(game="classic", players=2, seats=("human", "random"), seed=6))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("t")
        assert "no team-mates" in app.game_screen.message.plain


async def test_dice_roll_is_shown_and_extra_turn_announced() -> None:
    app = app_for(GameSetup(game="dice", players=2, seats=("human", "random"), seed=3))
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(200):
            await settle(pilot, app)
            screen = app.game_screen
            view = screen.session.view(0)
            if view.outcome is not None:
                break
            if view.phase is Phase.ROLL:
                extra = screen.extra_turn(view)
                if extra:
                    assert "Extra turn!" in screen_text(app)
                    return
                before = len(screen.session.state.move_stack)
                await type_text(pilot, "roll:6+6")  # the dice are the game's, not typed in
                await pilot.pause()
                assert len(screen.session.state.move_stack) == before
                assert "Press R to roll" in screen.message.plain
                await pilot.press("r")
                await pilot.pause()
                roll = screen.session.state.roll
                assert roll is not None and f"= {sum(roll)}" in screen_text(app)
                # The cursor waits on the first space the roll allows: Enter plays it.
                spaces = sorted(m.space for m in screen.my_legal() if m.space is not None)
                assert not spaces or screen.cursor == spaces[0]
                if spaces:
                    await pilot.press("enter")
                    await pilot.pause()
                    assert screen.session.state.move_stack[before + 1].space == spaces[0]
            else:
                move = view.legal_moves[0]
                if move.space is None:
                    await pilot.press("enter")
                else:
                    await click_space(pilot, screen, move.space)
        pytest.fail("no 2 or 12 was rolled by the human in 200 turns")


async def test_start_screen_starts_the_chosen_game() -> None:
    app = SequenceApp(setup=GameSetup(seed=9), lang="en", bot_delay=0)
    async with app.run_test(size=(80, 40)) as pilot:
        await pilot.pause()
        await pilot.click("#game")
        await pilot.pause()
        app.screen.query_one("#game").value = "kids"
        await pilot.pause()
        app.screen.query_one("#players").value = 3
        await pilot.pause()
        app.screen.query_one("#seat-1").value = "random"
        app.screen.query_one("#seat-2").value = "random"
        await pilot.click("#start")
        await settle(pilot, app)
        session = app.game_screen.session
        assert session.config == make_config("kids", 3)
        assert session.seats == ("human", "random", "random")
        assert session.state.seed == 9


async def test_start_screen_offers_the_draft_variant_for_four() -> None:
    setup = GameSetup(seed=9, seats=("human", "random", "random", "random"))
    app = SequenceApp(setup=setup, lang="en", bot_delay=0)
    async with app.run_test(size=(80, 40)) as pilot:
        await pilot.pause()
        app.screen.query_one("#game").value = "draft"
        await pilot.pause()
        app.screen.query_one("#players").value = 4
        await pilot.pause()
        assert [v for _l, v in app.screen.query_one("#teams")._options] == [2]
        app.screen.query_one("#seed").value = "not a number"
        await pilot.click("#start")
        await settle(pilot, app)
        session = app.game_screen.session
        assert session.config == make_config("classic", 4, 2, draft=True)
        assert session.state.seed > 2**32  # not a number: a random seed, never 0


def test_record_from_the_interface_loads_in_the_engine(tmp_path: Path) -> None:
    session = Session.start(GameSetup(game="dice", players=2, seats=("human", "random"), seed=2))
    session.roll()
    path = tmp_path / "g.json"
    session.save(path)
    record = GameRecord.load(path.read_text())
    assert record.moves == session.state.move_stack


@pytest.mark.parametrize(
    ("returns", "says"),
    [
        (None, "Bot 2 (random) loses the game: choose() raised RuntimeError: my bug (at "),
        ("pass", "Bot 2 (random) loses the game: choose() returned 'pass', which is not a Move"),
        (
            "illegal",
            "Bot 2 (random) loses the game: returned the illegal move pass: you can still play a"
            " card or exchange a dead one: the turn passes only when neither is possible (legal"
            " here: ",
        ),
    ],
)
async def test_a_bot_that_fails_loses_the_game_as_in_a_tournament(
    returns: str | None, says: str
) -> None:
    from sequence.bots import Bot
    from sequence.engine import Move

    class Broken(Bot):
        def choose(self, view: object) -> object:
            if returns is None:
                raise RuntimeError("my bug")
            return Move(MoveKind.PASS) if returns == "illegal" else returns

    session = Session.start(GameSetup(game="kids", players=2, seats=("human", "random"), seed=5))
    session.bots[1] = Broken()
    app = SequenceApp(session=session, lang="en", bot_delay=0)
    async with app.run_test(size=(100, 34)) as pilot:
        screen = app.game_screen
        for _ in range(200):
            await pilot.pause()
            if session.state.to_move == 0 and screen.thinking is None and not session.over:
                screen.human_push(session.state.legal_moves[0], 0)
            if isinstance(app.screen, GameOverScreen):
                break
        assert session.forfeit is not None and session.forfeit.seat == 1
        assert session.over and session.actor() is None and not session.state.is_over()
        text = screen_text(app)
        assert "You won!" in text and says in " ".join(text.split())
        if returns is None:  # where in the bot's own code: this file, and the line
            assert f"test_play.py:{Broken.choose.__code__.co_firstlineno + 2})" in text
        # The record says so, as a tournament's does.
        assert session.record().tags["Forfeit"].startswith("seat 2 (team B, bot 'random')")
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("u")
        await pilot.pause()
        assert "The game is over" in screen.message.plain
        assert "You won!" in screen_text(app)


async def test_a_users_bot_that_raises_loses_with_its_file_and_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "tui_bad_bot.py").write_text(
        "from sequence.bots import Bot\n\n"
        "class Bad(Bot):\n"
        "    def choose(self, view):\n"
        "        return {}[7]\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    setup = GameSetup(game="kids", players=2, seats=("tui_bad_bot:Bad", "human"), seed=4)
    app = app_for(setup)
    async with app.run_test(size=(120, 40)) as pilot:
        session = app.game_screen.session
        for _ in range(3000):  # its process starts first (slow on a busy machine)
            await pilot.pause(0.02)
            if isinstance(app.screen, GameOverScreen):
                break
            if session.actor() == 1 and app.game_screen.thinking is None:
                app.game_screen.human_push(session.state.legal_moves[0], 1)
        text = " ".join(screen_text(app).split())
        assert "You won!" in text
        assert "Bot 1 (tui_bad_bot:Bad) loses the game: choose() raised KeyError: 7 (at " in text
        assert session.forfeit is not None
        assert session.forfeit.reason.endswith("tui_bad_bot.py:5)")
        session.close()


async def test_no_penalty_for_a_team_of_bots() -> None:
    # Team A: the two people (seats 1 and 3); team B: two bots, who never talk.
    people_and_bots = GameSetup(
        game="classic", players=4, seats=("human", "random", "human", "random")
    )
    app = app_for(people_and_bots)
    async with app.run_test(size=(100, 34)) as pilot:
        await settle(pilot, app)
        await pilot.press("t")
        await pilot.pause()
        assert not app.screen.query("#team-1")


async def test_the_seed_is_never_shown_unless_the_player_chose_it() -> None:
    from textual.widgets import Input

    # A random seed (never 0, never the same twice) stays hidden: it would give every hand away.
    a, b = Session.start(GameSetup(seats=("human", "random"))), Session.start(GameSetup())
    assert a.state.seed != b.state.seed and min(a.state.seed, b.state.seed) > 2**32  # type: ignore[operator]
    app = SequenceApp(setup=GameSetup(), lang="en", bot_delay=0)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        assert app.screen.query_one("#seed", Input).value == ""
    app = app_for(GameSetup(game="kids", players=2, seats=("human", "random")))
    async with app.run_test(size=(100, 34)) as pilot:
        await settle(pilot, app)
        await pilot.press("s")
        await pilot.pause()
        seed = str(app.game_screen.session.state.seed)
        assert seed not in screen_text(app) and "sequence-kids-" in screen_text(app)


async def test_a_users_bot_plays_from_its_own_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sequence.bots.isolated import IsolatedBot

    (tmp_path / "tui_user_bot.py").write_text(
        "from sequence.bots import Bot\n\n"
        "class First(Bot):\n"
        "    def choose(self, view):\n"
        "        return view.legal_moves[0]\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    setup = GameSetup(game="kids", players=2, seats=("human", "tui_user_bot:First"), seed=4)
    app = app_for(setup)
    async with app.run_test(size=(100, 34)) as pilot:
        session = app.game_screen.session
        assert isinstance(session.bots[1], IsolatedBot)
        await play_to_the_end(pilot, app, seed=4)
        check_game_over(app)
    session.bots[1].close()


async def test_quitting_a_game_in_progress_asks_first(tmp_path: Path) -> None:
    from sequence.tui.dialogs import QuitScreen

    app = app_for(GameSetup(game="kids", players=2, seats=("human", "random"), seed=2))
    async with app.run_test(size=(100, 34)) as pilot:
        await settle(pilot, app)
        await pilot.press("q")  # the player has not moved yet: nothing of theirs to lose
        await pilot.pause()
        assert not app.is_running
    app = app_for(GameSetup(game="kids", players=2, seats=("human", "random"), seed=2))
    async with app.run_test(size=(100, 34)) as pilot:
        await settle(pilot, app)
        screen = app.game_screen
        screen.human_push(screen.session.state.legal_moves_of(screen.viewer)[0], screen.viewer)
        await settle(pilot, app)
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, QuitScreen)
        await pilot.press("escape")  # cancel: the game goes on
        await pilot.pause()
        assert app.is_running and app.screen is screen
        await pilot.press("q", "S")  # save, then quit (the dialog says "(S)": Shift+S works too)
        await pilot.pause()
        path = tmp_path / "kept.json"
        app.screen.query_one("#path").value = str(path)
        await pilot.press("enter")
        await pilot.pause()
        assert not app.is_running and path.exists()
    # Once the terminal is back, `sequence play` prints where the file went.
    assert app.farewell == f"Saved to {path}. Resume with: sequence play --load {path}"


async def test_quitting_after_an_undo_or_a_load_asks_only_when_something_changed(
    tmp_path: Path,
) -> None:
    from sequence.tui.dialogs import QuitScreen

    path = tmp_path / "g.json"
    app = app_for(GameSetup(game="kids", players=2, seats=("human", "random"), seed=2))
    async with app.run_test(size=(100, 34)) as pilot:
        screen = app.game_screen
        for _ in range(2):
            await settle(pilot, app)
            screen.human_push(screen.session.state.legal_moves_of(screen.viewer)[-1], screen.viewer)
        await settle(pilot, app)
        screen._save_to(path)
        await pilot.press("u")  # back past the save, then another move: not what was saved
        await settle(pilot, app)
        screen.human_push(screen.session.state.legal_moves_of(screen.viewer)[0], screen.viewer)
        await settle(pilot, app)
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, QuitScreen)
    loaded = SequenceApp(session=Session.load(path.read_text()), lang="en", bot_delay=0)
    async with loaded.run_test(size=(100, 34)) as pilot:
        await settle(pilot, loaded)
        await pilot.press("q")  # just loaded: nothing to lose
        await pilot.pause()
        assert not loaded.is_running


def test_a_session_stops_its_bots_processes() -> None:
    from sequence.bots.isolated import IsolatedBot

    session = Session.start(GameSetup(game="kids", players=2, seats=("human", "random")))
    session.bots[1] = IsolatedBot("random", seed=1)
    process = session.bots[1]._process  # type: ignore[attr-defined]
    assert process.is_alive()
    session.close()
    assert not process.is_alive()
