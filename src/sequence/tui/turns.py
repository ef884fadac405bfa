"""The turn controller of the terminal game: who acts next, bots in threads, undo, penalty, saving.

It follows the engine's turn driver, :meth:`~sequence.engine.State.next_step` (a roll, a draw,
a seat's move, the end), and knows no Textual: a screen (or a test) listens to it through
:class:`Listener` and gives it a :class:`Runner` that starts a bot's thinking in a worker thread
and brings the bot's answer back to the thread the controller lives in.

>>> from sequence.tui.session import GameSetup, Session
>>> setup = GameSetup(game="kids", players=2, seats=("random", "random"), seed=4)
>>> runner = QueueRunner()
>>> turns = TurnController(Session.start(setup), Listener(), runner, bot_delay=0)
>>> turns.advance()
>>> runner.run() > 0, turns.session.state.is_over()
(True, True)
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from ..bots.arena import Forfeit, Late, ask, still_thinking, tell_limit
from ..engine import IllegalMoveError, Move, MoveKind, Step, StepKind, View, draw_move
from ..i18n import N_
from .session import Marked, Refused, Session


class Listener:
    """What the controller tells its front end; each method does nothing here (a test's choice).

    The calls come in the controller's own thread, in the order things happen.
    """

    def changed(self) -> None:
        """The game or who may see it changed: draw it again."""

    def human_to_act(self, seat: int) -> None:
        """The shown seat (a person) is to roll, move or give up a card."""

    def draw_open(self, seat: int) -> None:
        """Option manual_draw: the person at ``seat`` has played and may draw now, or later."""

    def bot_to_act(self, seat: int) -> None:
        """A bot's seat is to act (before it starts thinking)."""

    def bot_thinking(self, seat: int) -> None:
        """The bot at ``seat`` started thinking (in a worker thread)."""

    def bot_forfeited(self, forfeit: Forfeit) -> None:
        """A bot raised, returned no move or an illegal one: its team has lost the game, as in a
        tournament (:meth:`game_over` follows)."""

    def hand_over(self, seat: int) -> None:
        """Several people share the keyboard: hide the screen until ``seat``'s player is there,
        then call :meth:`TurnController.handed_over`."""

    def game_over(self) -> None:
        """The game has ended (said once, until an undo reopens it)."""


class Runner(Protocol):
    """How the controller runs a bot: think in a worker thread, answer in the controller's."""

    def in_thread(self, job: Callable[[], None]) -> None:
        """Start ``job`` in a worker thread."""

    def back(self, job: Callable[..., None], *args: Any) -> None:
        """From a worker thread: call ``job(*args)`` in the controller's thread."""

    def after(self, seconds: float, job: Callable[[], None]) -> None:
        """Call ``job()`` in the controller's thread ``seconds`` from now."""


class QueueRunner:
    """A runner without threads, for tests and scripts: jobs wait in a queue until :meth:`run`."""

    def __init__(self) -> None:
        self.jobs: deque[Callable[[], None]] = deque()
        self.timers: list[tuple[float, Callable[[], None]]] = []
        """The jobs :meth:`after` keeps, with their delays, until :meth:`fire` (a test's clock)."""

    def in_thread(self, job: Callable[[], None]) -> None:
        self.jobs.append(job)

    def after(self, seconds: float, job: Callable[[], None]) -> None:
        self.timers.append((seconds, job))

    def fire(self) -> int:
        """Run the timers set so far, as if their time had come; return how many ran."""
        timers, self.timers = self.timers, []
        for _seconds, job in timers:
            job()
        return len(timers)

    def back(self, job: Callable[..., None], *args: Any) -> None:
        self.jobs.append(lambda: job(*args))

    def run(self, limit: int = 100_000) -> int:
        """Run the jobs (and those they add) until none is left; return how many ran."""
        done = 0
        while self.jobs and done < limit:
            self.jobs.popleft()()
            done += 1
        return done


class TurnController:
    """One game being played at the terminal: whose turn, who may see, bots, undo, penalty, save.

    ``viewer`` is the seat whose hand may be shown (``None``: only the public table); people who
    share the keyboard are handed over between seats. ``bot_delay`` seconds pass before each bot
    move, so people can follow. ``time_limit``: seconds a bot may think about a move, as in a
    tournament (:mod:`sequence.bots.arena`): told to each bot before the first move, a move over
    it loses the game, and a bot still thinking :data:`GRACE` seconds after it loses the game
    then, without waiting for its answer (``None``: no limit).
    """

    def __init__(
        self,
        session: Session,
        listener: Listener,
        runner: Runner,
        bot_delay: float = 0.5,
        time_limit: float | None = None,
    ) -> None:
        self.session = session
        self.listener = listener
        self.runner = runner
        self.bot_delay = bot_delay
        self.time_limit = time_limit
        if time_limit is not None:
            tell_limit(list(session.bots.values()), session.config, time_limit)
        humans = session.humans
        self.viewer: int | None = humans[0] if len(humans) == 1 else None
        self.revealed: int | None = None
        """The last seat handed the keyboard (no hand-over again until another seat acts)."""
        self.awaiting_draw: int | None = None
        """Option manual_draw: the person at this seat chooses: draw, or end the turn."""
        self.later: set[int] = set()
        """Option manual_draw: people who ended their turn without drawing; the engine keeps their
        draw open (``state.pending_draws``) until it lapses."""
        self.thinking: int | None = None
        self.generation = 0
        """Counts the positions a bot's answer may be stale for (an undo, a penalty)."""
        self.thinking_generation = 0
        self.asked = 0
        """How many times a bot was asked to act (a time limit's watch is for one of them)."""
        self.saved_moves: tuple[Move, ...] = session.state.move_stack
        """The moves when the game was last saved (or loaded): quitting then needs no question."""
        self.over_shown = False
        self.handoff_open = False

    # --- what comes next --------------------------------------------------------------------------

    def step(self) -> Step:
        """The engine's next step, except that a person's draw may wait (option manual_draw): a
        person who ended the turn without drawing does not hold up the next seat."""
        state = self.session.state
        self.later &= set(state.pending_draws)
        return state.next_step(waiting=self.later)

    def advance(self) -> None:
        """Move the game on: a bot's draw, hand over to the next person, start a bot, or the end."""
        session = self.session
        step = self.step()
        while step.kind is StepKind.DRAW and step.seat is not None and not self._person(step.seat):
            session.push(draw_move(step.seat), step.seat)  # a bot draws at once
            step = self.step()
        if step.kind is StepKind.OVER or session.forfeit is not None:
            self.listener.changed()
            if not self.over_shown:
                self.over_shown = True
                self.listener.game_over()
            return
        seat = step.seat
        assert seat is not None
        if step.kind is StepKind.DRAW and self.awaiting_draw != seat:
            self.awaiting_draw = self.viewer = seat
            self.listener.draw_open(seat)
        if self.awaiting_draw is not None or self.handoff_open:
            self.listener.changed()
            return
        if not self._person(seat):
            if len(session.humans) != 1:
                self.viewer = None
            self.listener.bot_to_act(seat)
            self.listener.changed()
            self._start_bot(seat, roll=step.kind is StepKind.ROLL)
            return
        several = len(session.humans) > 1 and session.config.spec.uses_cards
        if several and self.revealed != seat:
            self.viewer = None
            self.handoff_open = True
            self.listener.changed()
            self.listener.hand_over(seat)
            return
        self.viewer = self.revealed = seat
        self.listener.changed()
        self.listener.human_to_act(seat)

    def handed_over(self, seat: int) -> None:
        """The person at ``seat`` has the keyboard now (after :meth:`Listener.hand_over`)."""
        self.handoff_open = False
        self.revealed = seat
        self.advance()

    def _person(self, seat: int) -> bool:
        return self.session.is_human(seat)

    def actor(self) -> int | None:
        """The seat whose play (or roll) comes next; ``None`` once the game is over."""
        return self.session.actor()

    def my_legal(self) -> tuple[Move, ...]:
        """The moves the viewer may make now (none when no hand is shown or a bot thinks)."""
        if self.viewer is None or self.thinking is not None or self.session.over:
            return ()
        return self.session.view(self.viewer).legal_moves

    # --- a person acts ----------------------------------------------------------------------------

    def push(self, move: Move, seat: int | None) -> None:
        """Make a person's move (``seat`` ``None``: the host); IllegalMoveError says why not.

        Call :meth:`advance` afterwards (a front end first updates what it shows)."""
        self.session.push(move, seat)

    def play(self, move: Move, seat: int | None) -> None:
        """:meth:`push`, then :meth:`advance`."""
        self.push(move, seat)
        self.advance()

    def roll(self) -> Move:
        """Dice: roll for the seat to move (then :meth:`advance`)."""
        return self.session.roll()

    def draw(self) -> None:
        """Option manual_draw: the person awaiting the draw (else the shown seat) draws; then
        :meth:`advance`. IllegalMoveError says why not; :class:`Marked` when no hand is shown."""
        seat = self.awaiting_draw if self.awaiting_draw is not None else self.viewer
        if seat is None:
            raise Marked(N_("No hand is shown now."))
        self.session.push(draw_move(seat), seat)
        self.awaiting_draw = None

    def end_turn(self) -> bool:
        """Option manual_draw: end the turn without drawing (the draw stays open until it lapses);
        False when no draw was awaited."""
        if self.awaiting_draw is None:
            return False
        self.later.add(self.awaiting_draw)
        self.awaiting_draw = None
        self.advance()
        return True

    # --- bots ------------------------------------------------------------------------------------

    def _start_bot(self, seat: int, roll: bool) -> None:
        if self.thinking is not None:
            return
        self.thinking = seat
        self.thinking_generation = generation = self.generation
        view = self.session.view(seat)
        self.listener.bot_thinking(seat)
        self.runner.in_thread(lambda: self._think(generation, seat, view, roll))
        self.asked += 1
        if self.time_limit is not None and not roll:
            wait, asked = self.bot_delay + self.time_limit + GRACE, self.asked
            self.runner.after(wait, lambda: self._overdue(generation, seat, asked))

    def _overdue(self, generation: int, seat: int, asked: int) -> None:
        """The time limit and its grace have passed since the bot was asked (the ``asked``-th
        question of the game): a bot still thinking about it then loses the game, as a
        tournament's alarm has it lose (its late answer, if any, is dropped)."""
        same = self.thinking == seat and self.asked == asked and self.generation == generation
        if not same:  # it answered (and may think about a later move now), or the game moved on
            return
        assert self.time_limit is not None
        self.generation += 1  # the answer that may still come is for an older position
        self.thinking = None
        self.session.lose(seat, still_thinking(self.time_limit, GRACE))
        forfeit = self.session.forfeit
        assert forfeit is not None
        self.listener.bot_forfeited(forfeit)
        self.advance()

    def _think(self, generation: int, seat: int, view: View, roll: bool) -> None:
        """In a worker thread: wait a moment, ask the bot, hand the move back.

        The bot is asked as a tournament asks it (:func:`~sequence.bots.arena.ask`): a bot that
        raises, returns something that is not a move or an illegal move loses the game, with
        the tournament's reason (for the bot's author, in English like its exceptions; over the
        time limit, its code, which the screen says in the player's language)."""
        if self.bot_delay:
            time.sleep(self.bot_delay)
        if roll:
            self.runner.back(self._bot_done, generation, seat, None)
            return
        move, _seconds, reason = ask(self.session.bot_for(seat), view, self.time_limit)
        if reason is not None or move is None:
            why = reason or "no move"  # i18n: ignore (the arena's words, for the bot's author)
            self.runner.back(self._bot_failed, generation, seat, why)
            return
        self.runner.back(self._bot_done, generation, seat, move)

    def _stale(self, generation: int) -> bool:
        """Whether a bot's answer is for an earlier position (an undo, a penalty came since).

        Only the thread that owns :attr:`thinking` may clear it and carry on: after an undo a
        newer thread already thinks, and a second one must not start.
        """
        if generation == self.generation:
            self.thinking = None
            return False
        if self.thinking_generation == generation:
            self.thinking = None
            self.advance()
        return True

    def _bot_failed(self, generation: int, seat: int, reason: str | Late) -> None:
        if self._stale(generation):
            return
        self.session.lose(seat, reason)
        forfeit = self.session.forfeit
        assert forfeit is not None
        self.listener.bot_forfeited(forfeit)
        self.advance()

    def _bot_done(self, generation: int, seat: int, move: Move | None) -> None:
        if self._stale(generation):
            return
        try:
            if move is None:
                self.session.roll()
            else:
                self.session.push(move, seat)
        except IllegalMoveError as exc:  # the view's legal moves are the state's: never, but
            self._bot_failed(generation, seat, f"returned an illegal move: {exc}")  # i18n: ignore
            return
        self.advance()

    # --- the table-talk penalty, undo -------------------------------------------------------------

    def penalty_teams(self) -> tuple[int, ...]:
        """The teams the host may penalise now for table talk (teams with a person in them).

        Raises :class:`Refused` when none may be: between plays only, people only, or the
        engine's reason (:class:`NoPenalty`)."""
        state = self.session.state
        if self.thinking is not None or self.session.over:
            raise Refused(N_("A penalty can be imposed only between plays."))
        # Table talk is between people: a team of bots never talks, so it is never penalised.
        cfg = state.config
        talkers = sorted({cfg.team_of(s) for s in range(cfg.players) if self._person(s)})
        if not talkers:
            raise Refused(N_("No table-talk penalty: only people talk at the table."))
        allowed = tuple(t for t in talkers if state.penalty_allowed(t) is None)
        if not allowed:
            reason = state.penalty_allowed(talkers[0])
            assert reason is not None
            raise NoPenalty(reason)
        return allowed

    def impose(self, team: int) -> None:
        """The host penalises ``team`` (IllegalMoveError says why not); then :meth:`advance`."""
        self.session.push(Move(MoveKind.PENALTY, team=team), None)
        self.generation += 1

    def undo(self) -> int:
        """Take back moves to the person's last decision (then :meth:`advance`); return how many.

        Only with one person at the table, against bots: :class:`Refused` says why not."""
        session = self.session
        if not session.undo_allowed:
            raise Refused(N_("Undo is off in this game."))
        if session.forfeit is not None:
            raise Refused(N_("The game is over: a bot lost it by a fault of its own."))
        if len(session.humans) != 1:
            raise Refused(N_("Undo is for games against the computer."))
        if not session.can_undo():
            raise Refused(N_("There is no move of yours to take back."))
        self.generation += 1
        self.thinking = None
        count = session.undo()
        self.awaiting_draw = None
        self.over_shown = False
        return count

    # --- saving and quitting ---------------------------------------------------------------------

    def default_file(self) -> str:
        """A file name for a save: named by the time, never by the seed (which would give every
        hand away)."""
        return f"sequence-{self.session.config.game}-{time.strftime('%Y%m%d-%H%M%S')}.json"

    def save(self, path: Path) -> None:
        """Write the game (OSError, SequenceError say why not)."""
        self.session.save(path)
        self.saved_moves = self.session.state.move_stack

    @property
    def saved(self) -> bool:
        """The game is as it was last saved or loaded."""
        return self.saved_moves == self.session.state.move_stack

    def unsaved_moves_of_people(self) -> bool:
        """A person has moved since the last save (an undo may have gone back past it): quitting
        would lose something of theirs."""
        session = self.session
        moves, saved = session.state.move_stack, self.saved_moves
        kept = 0  # moves the game still shares with the saved one
        while kept < min(len(moves), len(saved)) and moves[kept] == saved[kept]:
            kept += 1
        since = session.actors[kept:]
        if session.over:
            return False
        return any(a is not None and session.is_human(a) for a in since)

    def close(self) -> None:
        """The game is left: a bot's late answer is dropped, and the bots' processes stop."""
        self.generation += 1
        self.session.close()


GRACE = 1.0
"""Seconds past the time limit before a bot still thinking loses (the arena's ``grace``)."""
DEFAULT_TIME_LIMIT = 30.0
"""``sequence play``'s time a bot may think about a move: far more than any level needs (the
strongest take a few seconds), and a bot that never answers does not hold the game up."""


class NoPenalty(Exception):
    """The engine allows no table-talk penalty now; ``reason`` is its refusal."""

    def __init__(self, reason: IllegalMoveError) -> None:
        super().__init__(reason)
        self.reason = reason


__all__ = [
    "DEFAULT_TIME_LIMIT",
    "GRACE",
    "Listener",
    "NoPenalty",
    "QueueRunner",
    "Runner",
    "TurnController",
]
