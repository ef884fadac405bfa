"""The scheduler: what happens next at a table when nobody has to send anything -- bots' turns
and turn clocks.

After every change to a table the hub calls :meth:`Scheduler.wake`. The scheduler asks the
engine's turn driver, :meth:`State.next_step <sequence.engine.State.next_step>`, what must happen
next and who does it, and when that seat is a bot's it takes the step: a roll with the game's
own dice, a draw, or a move the bot chooses in a worker pool from its seat's
:class:`~sequence.engine.View`. The step is made through the hub (checked, stored, shown) and
only if the table is still at the version the bot was shown, so a step that raced a person's
move or a seat change is dropped, never applied twice.

Each table has at most one bot task and one clock here, keyed by its code. A table with a time
control (:data:`TIME_CONTROLS`) runs a clock for the person whose step it is: their turn's
seconds plus what is left of their reserve. When it runs out, the rest of that turn is played
by a bot of the table's level and the hub marks the seat away (``timed_out``); after two such
turns in a row the bot keeps the seat until its player takes it back. A correspondence table
(days a move, no reserve) does what it chose at once instead: a bot keeps the seat, or the
seat's team loses (:meth:`.standins.StandIns.timed_out`). Every step goes through the hub's
version check, so a person's move that beats the clock by a hair wins, and the bot's is
dropped. Time is the server's clock (:func:`..common.clock.clock`), which a test may replace.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import Executor

from ...bots import BOTS, make_bot
from ...engine import Move, Step, StepKind, View, draw_move
from ...i18n import N_
from ..common.clock import clock
from ..common.errors import RequestError
from .table import Table, TimeControl, Turn

log = logging.getLogger("sequence.server")

Apply = Callable[[Table, Move, int], Awaitable[None]]
"""How the scheduler makes a step: the hub's move for ``seat`` (called with the table's lock
held and its version checked; raises :class:`RequestError` when refused)."""

TableHook = Callable[[Table], Awaitable[None]]
"""A hub callback on a table: ``timed_out`` (called with the table's lock held, after
:attr:`Table.turn` was marked timed out) and ``save_clock``."""

DAY = 86400.0
"""Seconds in a day."""

TIME_CONTROLS: dict[str, TimeControl | None] = {
    "off": None,
    "casual": TimeControl("casual", 120.0, 0.0),
    "quick": TimeControl("quick", 30.0, 60.0),
    "days1": TimeControl("days1", 1 * DAY, 0.0),
    "days2": TimeControl("days2", 2 * DAY, 0.0),
    "days3": TimeControl("days3", 3 * DAY, 0.0),
    "days7": TimeControl("days7", 7 * DAY, 0.0),
}
"""The time controls a table may be created with: seconds a turn, and a reserve per seat. The
``days`` ones are correspondence tables (:attr:`TimeControl.correspondence`)."""

ON_TIMEOUT = ("bot", "lost")
"""What a correspondence table may do when a seat's days run out (:attr:`Table.on_timeout`)."""

DEFAULT_LEVEL = "medium"
"""The bot that plays for a seat whose clock ran out, unless the table chose another."""


def check_time_control(name: object) -> TimeControl | None:
    """The time control called ``name`` (``None``: off)."""
    if not isinstance(name, str) or name not in TIME_CONTROLS:
        raise RequestError(
            "bad_message",
            N_("unknown time control {name}; choose one of {names}"),
            name=repr(name)[:20],
            names=", ".join(TIME_CONTROLS),
        )
    return TIME_CONTROLS[name]


def check_on_timeout(
    control: TimeControl | None, on_timeout: object, teams: int, signed_in: bool
) -> str | None:
    """What a table with the clock ``control`` does when a seat's days run out: ``on_timeout``
    checked (``bot`` when left out at a correspondence table; ``None`` at the others, which
    refuse it); a correspondence table is for signed-in players (``signed_in``), and a game
    lost on time needs two teams."""
    if control is None or not control.correspondence:
        if on_timeout is not None:
            raise RequestError(
                "bad_message", N_("on_timeout is for tables with days a move (days1 to days7)")
            )
        return None
    if not signed_in:
        raise RequestError(
            "signed_out",
            N_("tables with days a move are for signed-in players: sign in first"),
            401,
        )
    if on_timeout is None:
        return "bot"
    if not isinstance(on_timeout, str) or on_timeout not in ON_TIMEOUT:
        raise RequestError(
            "bad_message",
            N_("unknown on_timeout {name}; choose one of {names}"),
            name=repr(on_timeout)[:20],
            names=", ".join(ON_TIMEOUT),
        )
    if on_timeout == "lost" and teams != 2:
        raise RequestError(
            "bad_message",
            N_("a game lost when the days run out needs two teams; choose bot with {n}"),
            n=teams,
        )
    return on_timeout


OFFERED: dict[str, str] = {}
"""The bots the operator offers at tables besides the built-in ones (``sequence serve --bot
NAME=SPEC``): name -> bot spec, such as a saved model (``policy:runs/gen-5.zip``) or OpenSpiel's
ISMCTS (``ismcts@simulations=200``). Set by :func:`offer_bots` when the app is made (one app a
process); people pick them by name, never by spec."""


def offer_bots(bots: Mapping[str, str]) -> None:
    """Offer ``bots`` (name -> spec) at tables, after building each once; raise ValueError
    saying what is wrong (a name taken or malformed, a spec that makes no bot)."""
    for name, spec in bots.items():
        if name in BOTS:
            raise ValueError(f"the bot name {name!r} is a built-in bot's")  # i18n: ignore
        if not name or not all(c.isalnum() or c in "-_." for c in name) or len(name) > 64:
            raise ValueError(  # i18n: ignore (for the operator)
                f"a bot name is 1 to 64 letters, digits, '-', '_' or '.', not {name!r}"
            )
        try:
            make_bot(spec)
        except ValueError as exc:
            raise ValueError(f"{name}={spec}: {exc}") from None  # i18n: ignore
    OFFERED.clear()
    OFFERED.update(bots)


def _offered(level: object) -> bool:
    return isinstance(level, str) and (level in BOTS or level in OFFERED)


def bot_spec(level: str) -> str:
    """The spec the bot named ``level`` plays by: an offered bot's own, a built-in's name; a
    name no longer offered (the server restarted without it) plays as the default level."""
    if level in OFFERED:
        return OFFERED[level]
    return level if level in BOTS else DEFAULT_LEVEL


def table_level(table: Table) -> str:
    """The bot level that stands in for the people of ``table``."""
    if _offered(table.bot_level):
        assert table.bot_level is not None
        return table.bot_level
    return DEFAULT_LEVEL if DEFAULT_LEVEL in BOTS else bot_levels()[0]


def bot_levels() -> list[str]:
    """The bot names a table may seat (levels first, when the bots package has them; the
    operator's offered bots last)."""
    order = ["easy", "medium", "hard", "expert"]
    return [n for n in order if n in BOTS] + [n for n in BOTS if n not in order] + list(OFFERED)


def check_level(level: str) -> str:
    """``level`` if it names a bot this server offers (never an importable ``module:Class``)."""
    if not _offered(level):
        raise RequestError(
            "bad_message",
            N_("unknown bot level {level}; choose one of {levels}"),
            level=repr(level),
            levels=", ".join(bot_levels()),
        )
    return level


def choose_move(spec: str, seed: int, view: View) -> str:
    """A bot's move for ``view``, in notation (run in a worker thread or process)."""
    return str(make_bot(spec, seed).choose(view))


def player_bot(table: Table, seat: int) -> str | None:
    """The bot playing ``seat`` now: the seat's own, or the table's level for the rest of a turn
    whose clock ran out; ``None`` when a person plays it."""
    bot = table.seats[seat].bot
    if bot is None and table.turn is not None and table.turn.seat == seat and table.turn.timed_out:
        return table_level(table)
    return bot


def next_step(table: Table) -> Step | None:
    """The engine's :meth:`~sequence.engine.State.next_step` at a table in play, or ``None``.

    A person with a manual draw open may take it later, as at a real table, while play goes on:
    people's open draws are ``waiting``, so the engine's step is then a bot's draw or the next
    move.
    """
    state = table.state
    if state is None or table.status != "playing":
        return None
    people = {seat for seat in state.pending_draws if not table.seats[seat].bot}
    step = state.next_step(waiting=people)
    return None if step.seat is None else step


def step_seat(table: Table) -> int | None:
    """The seat whose step it is at ``table`` in play (a roll's too), or ``None``."""
    state = table.state
    if state is None or table.status != "playing":
        return None
    step = state.next_step()
    return state.to_move if step.kind is StepKind.ROLL else step.seat


def bot_step(table: Table) -> Step | None:
    """The step a bot at ``table`` takes now, or ``None`` when no bot has one to take."""
    step = next_step(table)
    if step is None or step.seat is None or player_bot(table, step.seat) is None:
        return None
    return step


class Scheduler:
    """Takes the bots' steps at every table, one at a time per table."""

    def __init__(
        self,
        executor: Executor,
        apply: Apply,
        delay: float = 0.5,
        timed_out: TableHook | None = None,
        save_clock: TableHook | None = None,
        owns: Callable[[Table], bool] | None = None,
    ) -> None:
        self.executor = executor
        """Where bots think: threads or processes (:func:`choose_move` runs there)."""
        self.apply = apply
        self.delay = delay
        """A bot waits between half and one and a half times this before each step (seconds)."""
        self.timed_out = timed_out
        self.save_clock = save_clock
        self.owns = owns or (lambda table: True)
        """Whether this server process runs the table's bots and clocks (with several
        processes, only the table's owner does: :mod:`.cluster`). Every process keeps the
        clock's account (whose turn, what is left) to show it; only the owner acts on it."""
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._clocks: dict[str, tuple[Turn, asyncio.Task[None]]] = {}
        self._saves: set[asyncio.Task[None]] = set()
        self._random = random.Random(secrets.randbits(64))

    def wake(self, table: Table) -> None:
        """``table`` changed: start or stop its clock, and if a bot has a step to take, start it
        (unless one is under way). Call it before showing the change: the clock is part of it."""
        self._run_clock(table)
        task = self._tasks.get(table.code)
        if task is not None and not task.done():
            return
        if bot_step(table) is None or not self.owns(table):
            return
        self._tasks[table.code] = asyncio.get_running_loop().create_task(self._take(table))

    # --- the clock ------------------------------------------------------------------------------

    def _run_clock(self, table: Table) -> None:
        """Keep :attr:`Table.turn` on the person whose step it is, and a timer on its end."""
        now = clock().monotonic()
        step = next_step(table) if table.clock is not None else None
        seat = None
        if step is not None and step.seat is not None and not table.seats[step.seat].bot:
            seat = step.seat
        turn = table.turn
        if turn is None or turn.seat != seat:
            if turn is not None:  # that turn is over: what went past its time comes off the reserve
                s = table.seats[turn.seat]
                s.reserve = max(0.0, min(s.reserve, turn.remaining(now)))
            control = table.clock
            table.turn = turn = (
                None
                if seat is None or control is None
                else Turn(seat, control.turn + table.seats[seat].reserve, now)
            )
            self._save(table)
        timer = self._clocks.get(table.code)
        if timer is not None and (timer[0] is not turn or timer[1].done()):
            timer[1].cancel()
            del self._clocks[table.code]
            timer = None
        if timer is None and turn is not None and not turn.timed_out and self.owns(table):
            task = asyncio.get_running_loop().create_task(self._expire(table, turn))
            self._clocks[table.code] = (turn, task)

    def _save(self, table: Table) -> None:
        if self.save_clock is None or table.status == "lobby" or not self.owns(table):
            return
        task = asyncio.get_running_loop().create_task(self._saving(table))
        self._saves.add(task)
        task.add_done_callback(self._saves.discard)

    async def _saving(self, table: Table) -> None:
        assert self.save_clock is not None
        try:
            await self.save_clock(table)
        except Exception:
            log.exception("could not store the clock of %s", table.code)

    async def _expire(self, table: Table, turn: Turn) -> None:
        """Wait out ``turn``; then a bot of the table's level plays the rest of it."""
        await clock().sleep(turn.remaining())
        async with table.lock:
            if table.turn is not turn or not self.owns(table):  # the turn ended just in time
                return
            turn.timed_out = True
            if self.timed_out is not None:
                try:
                    await self.timed_out(table)
                except Exception:
                    log.exception("could not mark seat %s of %s away", turn.seat, table.code)
        if self._clocks.get(table.code, (None,))[0] is turn:
            del self._clocks[table.code]
        self.wake(table)

    async def _take(self, table: Table) -> None:
        try:
            await self._step(table)
        except Exception:
            log.exception("bot turn failed at %s", table.code)
        finally:
            self._tasks.pop(table.code, None)
        # Whatever became of this step (taken, dropped as stale, refused), the table may have
        # changed meanwhile: look again.
        self.wake(table)

    async def _step(self, table: Table) -> None:
        step = bot_step(table)
        if step is None or step.seat is None:
            return
        version = table.version
        if self.delay:
            await asyncio.sleep(self.delay * (0.5 + self._random.random()))
        if table.version != version or bot_step(table) != step:
            return
        move = await self._move(table, step, step.seat)
        async with table.lock:
            if table.version != version or bot_step(table) != step or not self.owns(table):
                return
            try:
                await self.apply(table, move, step.seat)
            except RequestError as exc:
                log.error("bot at %s, %s: %s", table.code, step, exc.message)

    async def _move(self, table: Table, step: Step, seat: int) -> Move:
        """The bot's move for ``step``: the dice and a draw need no thought; a move does."""
        state = table.state
        assert state is not None
        if step.kind is StepKind.ROLL:
            return state.sample_chance()
        if step.kind is StepKind.DRAW:
            return draw_move(seat)
        spec = player_bot(table, seat)
        assert spec is not None
        view = state.view(seat)
        loop = asyncio.get_running_loop()
        text = await loop.run_in_executor(
            self.executor, choose_move, bot_spec(spec), self._random.randrange(1 << 62), view
        )
        return Move.parse(text)

    async def stop(self, tables: list[Table]) -> None:
        """Cancel every step under way and store what each running clock has left (the server
        is shutting down: a restart goes on from there)."""
        for task in self._tasks.values():
            task.cancel()
        for _, timer in self._clocks.values():
            timer.cancel()
        self._clocks.clear()
        if self.save_clock is not None:  # together: the store writes them in one transaction
            await asyncio.gather(
                *(self._saving(t) for t in tables if t.turn is not None and self.owns(t))
            )
        if self._saves:
            await asyncio.gather(*self._saves, return_exceptions=True)
