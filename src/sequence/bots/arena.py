"""Play one game between bots, each given only its seat's view, with a time limit a move.

:func:`play_game` is the one game runner: tournaments use it, and the terminal UI and server
may too. Each bot gets ``state.view(seat)`` and nothing else. A bot that raises, returns
something that is not a legal move, or takes longer than ``time_limit`` seconds **loses the
game** (its team is scored a loss, every other team a win); the result says why in plain words,
and the run goes on.

The time limit is enforced twice: every move is timed, and over the limit is a forfeit; and
when the runner is in a process's main thread (as in tournament workers), an alarm interrupts
a bot still thinking at ``time_limit + grace`` seconds, so a bot that never returns cannot hang
the run. Before the first move each bot is told to keep within a share of the limit
(:meth:`Bot.keep_within`: :data:`KEEP_WITHIN` of it, half that in the draft, where a turn is a
play and a pick), so our search levels leave margin for the round trip and a busy machine.

``warnings=3`` plays by the COMP90054 course's time rules instead (``game.py``): a move over
the limit, an exception or an illegal move is a *warning* and a random legal move is played
for it (the play and its face-up card together, as the course's one action); the third
warning loses the game. A course agent's own calls are judged (``call_seconds`` in its
``stats()``, timed in its process), not the round trip; a bot still thinking at
``time_limit + grace`` still loses at once.

>>> from sequence.engine import make_config
>>> from sequence.bots import make_bot
>>> bots = [make_bot("greedy", 1), make_bot("random", 2)]
>>> result = play_game(make_config("kids", players=2), bots, seed=5)
>>> result.winner in (0, 1, None), result.forfeit is None
(True, True)
"""

from __future__ import annotations

import random
import signal
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine import (
    TEAM_LETTERS,
    Config,
    GameRecord,
    IllegalMoveError,
    Move,
    MoveKind,
    Phase,
    State,
    StepKind,
    View,
)
from .base import Bot
from .errors import BotMistake, failure
from .isolated import RemoteBotError, failure_at, is_figure, safe_repr


@dataclass
class SeatStats:
    """What one seat's bot did in a game."""

    moves: int = 0
    seconds: float = 0.0
    """Total thinking time."""
    max_seconds: float = 0.0
    """The longest single move."""
    iterations: float = 0.0
    """Search iterations, summed over the moves that reported some (``Bot.stats()``)."""
    searched: int = 0
    """Moves that reported iterations."""


@dataclass(frozen=True)
class Late:
    """The reason code of a bot over the time limit of a move, with its figures, for a front
    end to say in its reader's language (the terminal game does); ``str()`` is the arena's
    English. ``answered``: it answered after ``seconds``; else it was still thinking then and
    was stopped."""

    seconds: float
    limit: float
    answered: bool

    def __str__(self) -> str:
        if self.answered:
            return f"took {self.seconds:.2f} s for a move; the limit is {self.limit:.2f} s"
        return f"{STILL_THINKING} {self.seconds:.2f} s; the limit is {self.limit:.2f} s a move"


@dataclass(frozen=True)
class Forfeit:
    """A bot lost the game by breaking the rules of the arena."""

    seat: int
    team: int
    bot: str
    reason: str
    """Why, in the arena's English words (for the bot's author, like its exceptions)."""
    late: Late | None = None
    """The reason's code and figures when the bot lost on time (else ``None``)."""

    @classmethod
    def of(cls, seat: int, team: int, bot: str, reason: str | Late) -> Forfeit:
        """The forfeit for ``reason``: the arena's words, or a :class:`Late`."""
        return cls(seat, team, bot, str(reason), reason if isinstance(reason, Late) else None)

    def message(self) -> str:
        return (
            f"seat {self.seat + 1} (team {TEAM_LETTERS[self.team]}, bot {self.bot!r})"
            " loses the game:"
            f" {self.reason}"
        )


@dataclass
class GameResult:
    """The end of a game played by bots."""

    config: Config
    seed: int
    bots: tuple[str, ...]
    """The bot's name at each seat."""
    winner: int | None
    """The winning team, or ``None`` for a draw. After a forfeit in a game of two sides, the other
    side; of three sides, ``None`` (:attr:`scores` says who lost)."""
    scores: tuple[float, ...]
    """Per team: 1 win, 0.5 draw, 0 loss. After a forfeit: 0 for the forfeiting team, 1 for
    the rest."""
    termination: str
    """The engine's termination (``sequences``, ``stalemate``, ...) or ``forfeit``."""
    forfeit: Forfeit | None
    record: GameRecord
    seats: list[SeatStats] = field(default_factory=list)
    turns: int = 0

    def describe(self) -> str:
        if self.forfeit is not None:
            return self.forfeit.message()
        if self.winner is None:
            return f"draw ({self.termination})"
        return f"team {TEAM_LETTERS[self.winner]} wins ({self.termination})"

    def to_dict(self) -> dict[str, Any]:
        return {
            "config": self.config.to_dict(),
            "seed": self.seed,
            "bots": list(self.bots),
            "winner": self.winner,
            "scores": list(self.scores),
            "termination": self.termination,
            "forfeit": None if self.forfeit is None else self.forfeit.message(),
            "turns": self.turns,
        }


class TurnTooLong(AssertionError):
    """A seat made more moves in one turn than :attr:`Config.turn_move_limit` allows: a
    broken engine, never a bot's doing (the engine refuses the move that would go past)."""


_NOT_THE_ACTORS = (MoveKind.DRAW, MoveKind.PENALTY, MoveKind.FORFEIT, MoveKind.ROLL)
"""Moves that are not the acting seat's choice of play: draws, table talk, the dice."""


class TurnLengths:
    """An ``on_move`` watcher for :func:`play_game` that measures every turn's length (the
    acting seat's moves, draws and table talk apart) and raises :class:`TurnTooLong` past
    :attr:`Config.turn_move_limit`.

    >>> from sequence.engine import make_config
    >>> from sequence.bots import make_bot
    >>> watch = TurnLengths(make_config("kids", players=4))
    >>> result = play_game(watch.config, [make_bot("greedy", s) for s in range(4)], 7,
    ...                    on_move=watch)
    >>> 1 <= watch.longest <= watch.config.turn_move_limit
    True
    """

    def __init__(self, config: Config) -> None:
        self.config = config
        self.limit = config.turn_move_limit
        self.longest = 0
        """The most moves one turn took so far."""
        self._turns = 0
        self._moves = 0

    def __call__(self, state: State, seat: int, move: Move) -> None:
        if move.kind in _NOT_THE_ACTORS:
            return
        self._moves += 1
        self.longest = max(self.longest, self._moves)
        if self._moves > self.limit:
            raise TurnTooLong(
                f"seat {seat + 1} made {self._moves} moves in one turn of"
                f" {self.config.spec.title} (at most {self.limit}): the last was {move}"
            )
        # Every turn that ends counts one more turn (a Dice extra turn too): the next move
        # starts a new one.
        if state.turns != self._turns or state.outcome is not None:
            self._turns = state.turns
            self._moves = 0


KEEP_WITHIN = 0.7
"""The share of a game's time limit a bot is told to keep within (half that in the draft)."""


def tell_limit(bots: Sequence[Bot], config: Config, time_limit: float) -> None:
    """Tell each bot the share of ``time_limit`` to keep within (:data:`KEEP_WITHIN`, half that
    in the draft, where a turn is a play and a pick), before the game's first move."""
    share = time_limit * KEEP_WITHIN * (0.5 if config.draft else 1.0)
    for bot in bots:
        bot.keep_within(share)


def still_thinking(limit: float, grace: float) -> Late:
    """The reason a bot forfeits when it has not answered ``grace`` seconds after ``limit``."""
    return Late(limit + grace, limit, answered=False)


class MoveTimeout(BaseException):
    """Raised inside a bot that is still thinking past the hard limit (not an ``Exception``, so a
    bot's own ``except Exception`` does not swallow it)."""


def _bot_name(bot: Bot) -> str:
    return str(getattr(bot, "label", None) or getattr(bot, "name", type(bot).__name__))


def ask(
    bot: Bot,
    view: View,
    time_limit: float | None = None,
    grace: float = 1.0,
    *,
    alarm: float | None = None,
) -> tuple[Move | None, float, str | Late | None]:
    """Ask ``bot`` for a move on ``view``: ``(move, seconds, reason it forfeits or None)``.

    The move is checked against ``view.legal_moves``; over ``time_limit`` seconds is a forfeit
    (its reason a :class:`Late`; any other, the arena's words).
    ``alarm`` (default ``time_limit``): the limit the hard interrupt adds ``grace`` to.

    >>> from sequence.engine import State, make_config
    >>> from sequence.bots import make_bot
    >>> state = State.new(make_config("kids"), seed=1)
    >>> view = state.view(state.to_move)
    >>> move, seconds, reason = ask(make_bot("random"), view, time_limit=1.0)
    >>> reason is None and move in view.legal_moves
    True
    """
    alarm = time_limit if alarm is None else alarm
    use_alarm = (
        alarm is not None
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )
    previous: Any = None
    if use_alarm:
        hard_deadline = time.perf_counter() + float(alarm) + grace  # type: ignore[arg-type]

        def _interrupt(signum: int, frame: Any) -> None:
            # Only our own timer counts: an alarm sent by another process (a bot's, say) to
            # make this bot forfeit is ignored, and the timer still runs.
            if time.perf_counter() >= hard_deadline - 0.05:
                raise MoveTimeout

        previous = signal.signal(signal.SIGALRM, _interrupt)
        signal.setitimer(signal.ITIMER_REAL, float(alarm) + grace)  # type: ignore[arg-type]
    start = time.perf_counter()
    try:
        try:
            move = bot.choose(view)
        finally:
            if use_alarm:
                signal.setitimer(signal.ITIMER_REAL, 0)
        elapsed = time.perf_counter() - start
    except MoveTimeout:
        elapsed = time.perf_counter() - start
        assert alarm is not None  # only its timer interrupts
        return None, elapsed, Late(elapsed, alarm, answered=False)
    except KeyboardInterrupt:
        raise
    except RemoteBotError as exc:  # its process failed, or its choose() raised there
        elapsed = time.perf_counter() - start
        return None, elapsed, f"choose() raised {exc.reason}" if exc.raised else exc.reason
    except BotMistake as exc:  # the bot's own words for its user, as they are
        elapsed = time.perf_counter() - start
        return None, elapsed, failure(exc)
    except BaseException as exc:  # a bot's bug (even sys.exit()) loses its game, not the run
        elapsed = time.perf_counter() - start
        return None, elapsed, f"choose() raised {failure_at(exc)}"
    finally:
        if use_alarm:
            signal.signal(signal.SIGALRM, previous)
    if time_limit is not None and elapsed > time_limit:
        return None, elapsed, Late(elapsed, time_limit, answered=True)
    if not isinstance(move, Move):
        return None, elapsed, f"choose() returned {safe_repr(move)}, which is not a Move"
    if move not in view.legal_moves:
        legal = ", ".join(str(m) for m in view.legal_moves[:8])
        more = ", ..." if len(view.legal_moves) > 8 else ""
        why = _refusal_seen_by(view, move)
        return None, elapsed, f"returned the illegal move {why} (legal here: {legal}{more})"
    return move, elapsed, None


def _refusal_seen_by(view: View, move: Move) -> str:
    """The engine's reason for refusing ``move``, as the viewing seat may know it: asked of a
    state dealt from the view (whether a move is legal never depends on the hidden cards)."""
    refused = State.sample_from_view(view, 0).refusal(move, view.seat)
    return str(refused) if refused is not None else str(move)


STILL_THINKING = "still thinking after"


class _CourseClock:
    """The course's time rules for one game: each seat's warnings, and the random moves
    played in place of a late, failed or illegal one."""

    def __init__(self, time_limit: float | None, limit: int, seed: int, seats: int) -> None:
        self.time_limit = time_limit
        self.limit = limit
        self.rng = random.Random(seed * 7919 + 90054)
        self.warnings: list[list[str]] = [[] for _ in range(seats)]
        self.spent = [0.0] * seats
        """Seconds of the course action under way (a play, then its pick)."""
        self.random_pick = [False] * seats
        """The seat's play was replaced: its face-up card is random too, unasked."""

    def random_move(self, seat: int, view: View) -> Move:
        self.random_pick[seat] = False
        self.spent[seat] = 0.0
        return self.rng.choice(view.legal_moves)

    def judge(
        self,
        bot: Bot,
        seat: int,
        view: View,
        move: Move | None,
        seconds: float,
        reason: str | Late | None,
    ) -> tuple[Move | None, str | Late | None]:
        """The move to play, or why the seat loses (an interrupt, or its last warning)."""
        if isinstance(reason, Late):  # interrupted: still thinking at the hard limit
            return None, reason
        try:
            own = bot.stats().get("call_seconds")
        except Exception:
            own = None
        spent = self.spent[seat] + (float(own) if is_figure(own) else seconds)
        picking = view.phase in (Phase.PICK, Phase.PICK_DEAD)
        self.spent[seat] = 0.0 if picking else spent
        if reason is None and self.time_limit is not None and spent > self.time_limit:
            reason = f"took {spent:.2f} s; the limit is {self.time_limit:.2f} s"
        if reason is None and (not isinstance(move, Move) or move not in view.legal_moves):
            reason = f"returned {safe_repr(move)}, which is not a legal move"
        if reason is None:
            return move, None
        self.warnings[seat].append(reason)
        if len(self.warnings[seat]) >= self.limit:
            said = "; ".join(self.warnings[seat])
            return None, f"{self.limit} warnings under the course's time rules ({said})"
        self.random_pick[seat] = not picking
        self.spent[seat] = 0.0
        return self.rng.choice(view.legal_moves), None


def play_game(
    config: Config,
    bots: Sequence[Bot],
    seed: int = 0,
    time_limit: float | None = None,
    *,
    grace: float = 1.0,
    tags: dict[str, str] | None = None,
    on_move: Callable[[State, int, Move], None] | None = None,
    warnings: int = 0,
) -> GameResult:
    """Play a whole game of ``config`` from ``seed``; ``bots`` has one bot per seat (or per team).

    Seat ``s`` plays for team ``s % teams``. Dice are rolled from the game's seed; with option
    ``manual_draw`` each bot is asked again right after its play (its legal move is the draw).
    ``on_move(state, seat, move)`` is called after each move is made. ``warnings``: 0 for
    our strict limit, else the course's time rules with that many warnings to lose.
    """
    n, teams = config.players, config.teams
    if len(bots) == teams and n != teams:
        bots = [bots[s % teams] for s in range(n)]
    if len(bots) != n:
        raise ValueError(f"{n} seats need {n} bots (or one per team, {teams}), not {len(bots)}")
    names = tuple(_bot_name(b) for b in bots)
    state = State.new(config, seed)
    seats = [SeatStats() for _ in range(n)]
    forfeit: Forfeit | None = None
    if time_limit is not None:
        tell_limit(bots, config, time_limit)
    judged = _CourseClock(time_limit, warnings, seed, n) if warnings > 0 else None

    def turn(seat: int) -> bool:
        nonlocal forfeit
        view = state.view(seat)
        if not view.legal_moves:
            return True
        move: Move | None
        if judged is not None and judged.random_pick[seat]:
            move, seconds, reason = judged.random_move(seat, view), 0.0, None
        else:
            move, seconds, reason = ask(
                bots[seat], view, None if judged else time_limit, grace, alarm=time_limit
            )
            if judged is not None:
                move, reason = judged.judge(bots[seat], seat, view, move, seconds, reason)
        st = seats[seat]
        st.moves += 1
        st.seconds += seconds
        st.max_seconds = max(st.max_seconds, seconds)
        if reason is None:
            try:
                stats = bots[seat].stats()
            except Exception:
                stats = {}
            its = stats.get("iterations") if isinstance(stats, dict) else None
            # A bot's own figures: only a finite positive number counts (the tournament says
            # what was wrong with any other).
            if is_figure(its) and its > 0:
                st.iterations += float(its)
                st.searched += 1
            try:
                state.push(move, seat=seat)  # type: ignore[arg-type]
            except (
                IllegalMoveError
            ) as exc:  # pragma: no cover - the view's legal moves are the state's
                reason = f"returned an illegal move: {exc}"
        if reason is not None:
            forfeit = Forfeit.of(seat, seat % teams, names[seat], reason)
            return False
        if on_move is not None:
            on_move(state, seat, move)  # type: ignore[arg-type]
        return True

    # The engine's turn driver says what happens next: the dice, or a seat's move or draw (a
    # bot is asked for its draw too: it is the only move its view then offers).
    while (step := state.next_step()).kind is not StepKind.OVER:
        if step.kind is StepKind.ROLL:
            roll = state.sample_chance()
            state.push(roll)
            if on_move is not None:
                on_move(state, -1, roll)
        elif not turn(step.seat):  # type: ignore[arg-type]
            break
    all_tags = {f"Seat{s + 1}": names[s] for s in range(n)}
    all_tags.update(tags or {})
    if forfeit is not None:
        all_tags["Forfeit"] = forfeit.message()
        scores = tuple(0.0 if t == forfeit.team else 1.0 for t in range(teams))
        winner = next(t for t in range(teams) if t != forfeit.team) if teams == 2 else None
        termination = "forfeit"
    else:
        outcome = state.outcome
        assert outcome is not None
        winner = outcome.winner
        termination = outcome.termination.value
        if winner is None:
            scores = (0.5,) * teams
        else:
            scores = tuple(1.0 if t == winner else 0.0 for t in range(teams))
    return GameResult(
        config=config,
        seed=seed,
        bots=names,
        winner=winner,
        scores=scores,
        termination=termination,
        forfeit=forfeit,
        record=GameRecord.from_state(state, all_tags),
        seats=seats,
        turns=state.turns,
    )
