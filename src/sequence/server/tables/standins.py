"""Stand-ins: a bot keeps the seat of a player who is gone, until the player takes it back.

A seat whose clock ran out twice in a row is played by a bot of the table's level until its
player takes it back (a ``take_back`` message, or coming back to the table). At a
correspondence table (days a move) a seat whose days ran out once gets what the table chose at
its creation: a bot keeps it the same way, or its team loses the game; either way a ``timeout``
event in the table's log says so (and the notifier tells the player). A player who
resigns alone on a side of a two-sided game loses it; otherwise a bot of the table's level plays
the seat to the end. (The host, or in play any seated player, handing an away player's seat to a
bot is :meth:`.seating.Seating.set_bot`.)
"""

from __future__ import annotations

from dataclasses import replace

from ...engine import TEAM_LETTERS
from ...i18n import N_
from ..common.errors import RequestError
from .connection import Connection
from .core import HubCore
from .scheduler import table_level
from .store import EventData, SeatChange, SeatData
from .table import Seat, Table


class StandIns:
    """Bots keeping seats: a clock run out, a resignation, and the player taking the seat back."""

    def __init__(self, core: HubCore) -> None:
        self.core = core

    async def save_back(self, table: Table, before: SeatData) -> None:
        """Store that the player of the seat that was ``before`` took it back from the stand-in
        bot, and say so; if another process changed the seat first (a resignation), what it
        stored stands, and this process catches up."""
        after = replace(before, bot=None, stand_in=False, timeouts=0)
        async with table.lock:
            if await self.core.registry.change_seat(table, SeatChange(before, after, "playing")):
                self.core.cluster.publish({"k": "table", "t": table.code, "reset": before.seat})
            else:
                await self.core.sync(table, force=True)

    def seat_back(self, table: Table, s: Seat) -> None:
        """The player of ``s`` plays it again: the stand-in bot leaves, the clock starts afresh."""
        s.bot, s.stand_in, s.timeouts = None, False, 0
        if table.turn is not None and table.turn.seat == s.seat:
            table.turn = None  # a turn the bot was playing: the player gets a whole one

    async def take_back(self, table: Table, conn: Connection) -> None:
        """A player takes back the seat a bot kept for them (their clock ran out twice)."""
        seat = conn.rights.seat_to_move()
        async with table.lock:
            await self.core.sync(table)
            await self.core.change_seat(table, lambda: self._judge_back(table, seat))
            self.seat_back(table, table.seats[seat])
            self.core.changed(table, reset=seat)

    @staticmethod
    def _judge_back(table: Table, seat: int) -> SeatChange:
        """:meth:`take_back` judged on the table as this process holds it (nothing changes)."""
        s = table.seats[seat]
        if table.status == "finished":
            raise RequestError("game_over", N_("the game is over"))
        if not s.stand_in:
            raise RequestError("bad_message", N_("you are already playing your seat"))
        before = s.data()
        return SeatChange(before, replace(before, bot=None, stand_in=False, timeouts=0), "playing")

    async def timed_out(self, table: Table) -> None:
        """The scheduler's hook (the table's lock held): the clock of :attr:`Table.turn` ran out.

        The seat is marked away; after two such turns in a row a bot of the table's level keeps
        it until its player takes it back. At a correspondence table, what it chose at once
        (:meth:`_days_out`)."""
        assert table.turn is not None
        s = table.seats[table.turn.seat]
        if table.clock is not None and table.clock.correspondence and s.kind == "human":
            await self._days_out(table, s)
            return
        before = s.data()
        after = replace(before, timeouts=s.timeouts + 1)
        if after.timeouts >= 2 and s.kind == "human":
            after.bot, after.stand_in = table_level(table), True
        # Only if nobody changed the seat meanwhile (its player took it back or resigned
        # through another process): then what was stored stands.
        if not await self.core.registry.change_seat(table, SeatChange(before, after, "playing")):
            await self.core.sync(table, force=True)
            return
        s.timeouts, s.bot, s.stand_in = after.timeouts, after.bot, after.stand_in
        table.touch()
        self.core.broadcast(table)
        self.core.cluster.publish({"k": "table", "t": table.code, "out": s.seat})

    async def _days_out(self, table: Table, s: Seat) -> None:
        """A seat's days ran out at a correspondence table (the table's lock held): with
        ``lost`` chosen, the game ends and the other team wins; with ``bot``, a bot of the
        table's level keeps the seat until its player is back. A ``timeout`` event records it,
        in the same transaction."""
        before = s.data()
        after = replace(before, timeouts=s.timeouts + 1)
        if table.on_timeout == "lost" and table.config.teams == 2:
            winner = TEAM_LETTERS[1 - table.config.team_of(s.seat)]
            event = EventData(table.version, "timeout", s.seat, None, "lost")
            change = SeatChange(before, after, "playing", event, f"{winner} wins")
        else:
            after.bot, after.stand_in = table_level(table), True
            event = EventData(table.version, "timeout", s.seat, None, "bot")
            change = SeatChange(before, after, "playing", event)
        if not await self.core.registry.change_seat(table, change):
            await self.core.sync(table, force=True)  # its player moved through another process
            return
        s.timeouts, s.bot, s.stand_in = after.timeouts, after.bot, after.stand_in
        if change.result is not None:
            table.status, table.result, table.turn = "finished", change.result, None
            self.core.finished(table)
        table.touch()
        self.core.changed(table, reset=s.seat)

    async def resign(self, table: Table, conn: Connection) -> None:
        """A player resigns. Alone on a side of a two-sided game (no other person on the team),
        the game is lost: it ends and the other side wins. Otherwise (a partner plays on, or
        three sides) a bot of the table's level plays the seat to the end. Either way a
        ``resign`` event records it."""
        seat = conn.rights.seat_to_move()
        async with table.lock:
            await self.core.sync(table)
            change = await self.core.change_seat(table, lambda: self._judge_resign(table, seat))
            if change.result is not None:
                table.turn = None
                self.core.finished(table)
            elif table.turn is not None and table.turn.seat == seat:
                table.turn = None
            self.core.changed(table, reset=seat)
        self.core.hosts.rehost_soon(table)  # the rights of a player who resigned pass on

    @staticmethod
    def _judge_resign(table: Table, seat: int) -> SeatChange:
        """:meth:`resign` judged on the table as this process holds it (nothing changes)."""
        if table.state is None or table.status == "lobby":
            raise RequestError("not_started", N_("the game has not started yet"))
        if table.status == "finished":
            raise RequestError("game_over", N_("the game is over"))
        s = table.seats[seat]
        if s.kind != "human" or (s.bot and not s.stand_in):
            raise RequestError("bad_message", N_("you have already resigned"))
        config = table.config
        team = config.team_of(seat)
        partners = [
            o
            for o in table.seats
            if o.seat != seat and config.team_of(o.seat) == team and o.kind == "human"
        ]
        before = s.data()
        if config.teams == 2 and not partners:
            event = EventData(table.version, "resign", seat, seat, "lost")
            return SeatChange(before, before, "playing", event, f"{TEAM_LETTERS[1 - team]} wins")
        after = replace(before, bot=table_level(table), stand_in=False, timeouts=0)
        return SeatChange(
            before, after, "playing", EventData(table.version, "resign", seat, seat, "bot")
        )
