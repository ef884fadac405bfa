"""The scheduler: what happens next at a table when nobody has to send anything -- bots' turns.

After every change to a table the hub calls :meth:`Scheduler.wake`. The scheduler asks the
engine's turn driver, :meth:`State.next_step <sequence.engine.State.next_step>`, what must happen
next and who does it, and when that seat is a bot's it takes the step: a roll with the game's
own dice, a draw, or a move the bot chooses in a worker pool from its seat's
:class:`~sequence.engine.View`. The step is made through the hub (checked, stored, shown) and
only if the table is still at the version the bot was shown, so a step that raced a person's
move or a seat change is dropped, never applied twice.

Each table has at most one task here, keyed by its code. Timed steps belong here too: a turn
clock is another reason to wake a table (a deadline for a person's step, after which a bot
takes the seat), and every step goes through the hub's version check, so the same rule keeps
two server processes from both taking it.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor

from ..bots import BOTS, make_bot
from ..engine import Move, Step, StepKind, View, draw_move
from ..i18n import N_
from .errors import RequestError
from .table import Table

log = logging.getLogger("sequence.server")

Apply = Callable[[Table, Move, int], Awaitable[None]]
"""How the scheduler makes a step: the hub's move for ``seat`` (called with the table's lock
held and its version checked; raises :class:`RequestError` when refused)."""


def bot_levels() -> list[str]:
    """The bot names a table may seat (levels first, when the bots package has them)."""
    order = ["easy", "medium", "hard"]
    return [n for n in order if n in BOTS] + [n for n in BOTS if n not in order]


def check_level(level: str) -> str:
    """``level`` if it names a bot this server offers (never an importable ``module:Class``)."""
    if not isinstance(level, str) or level not in BOTS:
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


def bot_step(table: Table) -> Step | None:
    """The step a bot at ``table`` takes now, or ``None`` when no bot has one to take.

    That is the engine's :meth:`~sequence.engine.State.next_step` when its seat is a bot. A person
    with a manual draw open may take it later, as at a real table, while play goes on: people's
    open draws are ``waiting``, so the engine's step is then a bot's draw or the next move.
    """
    state = table.state
    if state is None or table.status != "playing":
        return None
    people = {seat for seat in state.pending_draws if not table.seats[seat].bot}
    step = state.next_step(waiting=people)
    if step.seat is None or not table.seats[step.seat].bot:  # over, or a person's step
        return None
    return step


class Scheduler:
    """Takes the bots' steps at every table, one at a time per table."""

    def __init__(self, executor: Executor, apply: Apply, delay: float = 0.5) -> None:
        self.executor = executor
        """Where bots think: threads or processes (:func:`choose_move` runs there)."""
        self.apply = apply
        self.delay = delay
        """A bot waits between half and one and a half times this before each step (seconds)."""
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._random = random.Random(secrets.randbits(64))

    def wake(self, table: Table) -> None:
        """``table`` changed: if a bot has a step to take, start it (unless one is under way)."""
        task = self._tasks.get(table.code)
        if task is not None and not task.done():
            return
        if bot_step(table) is None:
            return
        self._tasks[table.code] = asyncio.get_running_loop().create_task(self._take(table))

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
            if table.version != version or bot_step(table) != step:
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
        spec = table.seats[seat].bot
        assert spec is not None
        view = state.view(seat)
        loop = asyncio.get_running_loop()
        text = await loop.run_in_executor(
            self.executor, choose_move, spec, self._random.randrange(1 << 62), view
        )
        return Move.parse(text)

    def stop(self) -> None:
        """Cancel every step under way (the server is shutting down)."""
        for task in self._tasks.values():
            task.cancel()
