"""The terminal game's turn controller without a screen: bots, people, undo, manual draw, Dice."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from sequence.bots.arena import Forfeit
from sequence.engine import MoveKind, StepKind
from sequence.tui.session import GameSetup, Refused, Session
from sequence.tui.turns import Listener, QueueRunner, TurnController


class Recorder(Listener):
    """Notes what the controller says; hands the keyboard over at once."""

    def __init__(self) -> None:
        self.events: list[tuple[str, int | None]] = []
        self.turns: TurnController | None = None

    def human_to_act(self, seat: int) -> None:
        self.events.append(("human", seat))

    def draw_open(self, seat: int) -> None:
        self.events.append(("draw", seat))

    def bot_thinking(self, seat: int) -> None:
        self.events.append(("bot", seat))

    def bot_forfeited(self, forfeit: Forfeit) -> None:
        raise AssertionError(forfeit.message())

    def hand_over(self, seat: int) -> None:
        self.events.append(("hand over", seat))
        assert self.turns is not None
        self.turns.handed_over(seat)

    def game_over(self) -> None:
        self.events.append(("over", None))


def controller(setup: GameSetup) -> tuple[TurnController, Recorder, QueueRunner]:
    listener, runner = Recorder(), QueueRunner()
    turns = TurnController(Session.start(setup), listener, runner, bot_delay=0)
    listener.turns = turns
    return turns, listener, runner


def play_people(turns: TurnController, runner: QueueRunner, seed: int, limit: int = 5000) -> None:
    """Play every person's turn with a random legal move (and, at manual draw, draw or not)."""
    rng = random.Random(seed)
    turns.advance()
    for _ in range(limit):
        runner.run()
        state = turns.session.state
        if state.is_over():
            return
        assert turns.thinking is None
        if turns.awaiting_draw is not None:
            if rng.random() < 0.5:
                turns.draw()
                turns.advance()
            else:
                assert turns.end_turn()
            continue
        seat = turns.viewer
        assert seat is not None and seat == turns.actor() and turns.session.is_human(seat)
        if state.next_step().kind is StepKind.ROLL:
            turns.roll()
            turns.advance()
        else:
            turns.play(rng.choice(turns.my_legal()), seat)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("game", ["classic", "kids", "dice", "draft"])
def test_bots_play_a_whole_game(game: str) -> None:
    setup = GameSetup(game=game, players=2, seats=("random", "random"), seed=6)
    turns, listener, runner = controller(setup)
    turns.advance()
    runner.run()
    state = turns.session.state
    assert state.is_over() and state.next_step().kind is StepKind.OVER
    assert listener.events.count(("over", None)) == 1
    assert turns.viewer is None and turns.thinking is None
    # Every move was made by the seat the engine named, the rolls included.
    assert len(turns.session.actors) == len(state.move_stack)
    assert turns.session.record().replay().move_stack == state.move_stack


def test_a_person_against_bots_in_four() -> None:
    setup = GameSetup(game="classic", players=4, seats=("human", "random", "random", "random"))
    turns, listener, runner = controller(setup)
    play_people(turns, runner, seed=1)
    assert ("human", 0) in listener.events and ("bot", 3) in listener.events
    assert not any(kind == "hand over" for kind, _ in listener.events)


def test_hotseat_hands_over_between_people() -> None:
    turns, listener, runner = controller(
        GameSetup(game="kids", players=2, seats=("human", "human"), seed=2)
    )
    play_people(turns, runner, seed=2)
    handed = [seat for kind, seat in listener.events if kind == "hand over" and seat is not None]
    first = handed[0]
    assert handed[:4] == [first, 1 - first, first, 1 - first]


def test_undo_takes_back_the_persons_move_and_the_bots_answer() -> None:
    turns, _, runner = controller(
        GameSetup(game="classic", players=2, seats=("human", "random"), seed=4)
    )
    with pytest.raises(Refused, match="no move of yours"):
        turns.undo()
    turns.advance()
    runner.run()  # the bot's first move, if it begins
    with pytest.raises(Refused, match="no move of yours"):
        turns.undo()
    state = turns.session.state
    before = state.position()
    turns.play(turns.my_legal()[0], 0)
    assert turns.thinking == 1
    runner.run()  # the bot answers
    assert state.to_move == 0 and turns.session.actors[-2:] == [0, 1]
    assert turns.undo() == 2
    turns.advance()
    assert state.position() == before and turns.viewer == 0 and turns.thinking is None


def test_a_bots_answer_after_an_undo_is_dropped() -> None:
    turns, _, runner = controller(
        GameSetup(game="kids", players=2, seats=("human", "random"), seed=3)
    )
    turns.advance()
    runner.run()
    state = turns.session.state
    before = state.move_stack
    turns.play(turns.my_legal()[0], 0)
    assert turns.thinking == 1 and len(runner.jobs) == 1
    turns.undo()  # before the bot's thread has answered
    turns.advance()
    runner.run()
    assert state.move_stack == before and state.to_move == 0 and turns.thinking is None


def test_undo_is_refused_when_off_or_among_people() -> None:
    off, _, _ = controller(GameSetup(players=2, seats=("human", "random"), seed=1, rated=True))
    with pytest.raises(Refused, match="off"):
        off.undo()
    people, _, _ = controller(GameSetup(players=2, seats=("human", "human"), seed=1))
    with pytest.raises(Refused, match="against the computer"):
        people.undo()


def test_manual_draw_a_person_draws_now_or_later_and_bots_draw_at_once() -> None:
    setup = GameSetup(
        game="classic", players=2, seats=("human", "random"), manual_draw=True, seed=5
    )
    turns, listener, runner = controller(setup)
    turns.advance()
    runner.run()  # the bot's first move, if it begins
    state = turns.session.state
    turns.play(turns.my_legal()[0], 0)
    # The engine's step is seat 1's draw: the person decides, nobody else moves meanwhile.
    assert state.next_step().kind is StepKind.DRAW and state.pending_draws == (0,)
    assert turns.awaiting_draw == 0 and ("draw", 0) in listener.events
    assert turns.thinking is None and not runner.jobs
    assert turns.end_turn()  # no draw now: the bot moves, the draw stays open until it lapses
    assert turns.thinking == 1
    runner.run()
    last = state.move_stack[-1]
    assert last.kind is MoveKind.DRAW and last.seat == 1
    assert state.pending_draws == () and len(state.hand_of(0)) == 6  # the draw lapsed
    turns.play(turns.my_legal()[0], 0)
    turns.draw()
    turns.advance()
    assert len(state.hand_of(0)) == 6 and turns.awaiting_draw is None
    play_people(turns, runner, seed=5)
    assert ("over", None) in listener.events


def test_manual_draw_with_two_people_and_two_bots() -> None:
    setup = GameSetup(
        game="classic",
        players=4,
        seats=("human", "random", "human", "random"),
        manual_draw=True,
        seed=8,
    )
    turns, _, runner = controller(setup)
    play_people(turns, runner, seed=8)
    draws = [m for m in turns.session.state.move_stack if m.kind is MoveKind.DRAW]
    assert {m.seat for m in draws} == {0, 1, 2, 3}


def test_dice_rolls_extra_turns_and_refuses_a_second_roll() -> None:
    turns, _, runner = controller(
        GameSetup(game="dice", players=2, seats=("human", "random"), seed=3)
    )
    turns.advance()
    state = turns.session.state
    assert state.next_step().kind is StepKind.ROLL and turns.viewer == 0
    roll = turns.roll()
    assert roll.kind is MoveKind.ROLL and turns.session.actors == [0]
    with pytest.raises(Refused):
        turns.roll()
    turns.advance()
    play_people(turns, runner, seed=3)
    actors = turns.session.actors
    rolls = [a for a, m in zip(actors, state.move_stack, strict=True) if m.kind is MoveKind.ROLL]
    assert set(rolls) == {0, 1}


def test_penalty_only_on_teams_of_people_and_between_plays() -> None:
    turns, _, runner = controller(
        GameSetup(game="classic", players=4, seats=("human", "random", "human", "random"), seed=9)
    )
    turns.advance()
    runner.run()
    assert turns.penalty_teams() == (0,)
    turns.impose(0)
    turns.advance()
    state = turns.session.state
    assert state.move_stack[-1].kind is MoveKind.PENALTY and turns.session.actors[-1] is None
    bots, _, _ = controller(GameSetup(game="classic", players=2, seats=("random", "random")))
    with pytest.raises(Refused, match="only people"):
        bots.penalty_teams()


def test_saving_and_quitting(tmp_path: Path) -> None:
    turns, _, runner = controller(
        GameSetup(game="kids", players=2, seats=("human", "random"), seed=2)
    )
    turns.advance()
    runner.run()
    assert not turns.unsaved_moves_of_people()  # a bot's first move is no loss to a person
    turns.play(turns.my_legal()[0], 0)
    runner.run()
    assert turns.unsaved_moves_of_people()
    turns.save(tmp_path / "g.json")
    assert turns.saved and not turns.unsaved_moves_of_people()
    assert "sequence-kids-" in turns.default_file()
    resumed = Session.load((tmp_path / "g.json").read_text())
    assert resumed.state.move_stack == turns.session.state.move_stack
    turns.close()
