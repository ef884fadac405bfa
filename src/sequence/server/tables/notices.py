"""The cluster's notices: what other server processes changed, applied to this process's tables.

With several server processes (:mod:`..cluster.notices`), every change a process stores is also
published as a notice; :class:`NoticeReader` applies each one here: a move is made on this
process's copy of the table (or the table is read back from the database), another change is
caught up from the database, who is connected elsewhere is counted, and what was said is passed
on. A process keeps a table up to date only while it needs it (a connection of its own at the
table, or it owns it): other tables' moves are not applied here (:meth:`NoticeReader.quiet`) and
the table is caught up from the database when it is next asked for. When the owner of tables
dies, a survivor adopts them; when notices may have been lost, every table is read again.
"""

from __future__ import annotations

import time
from typing import Any

from ...engine import IllegalMoveError, InvalidNotationError, Move
from .core import HubCore
from .presence import Presence
from .table import Table
from .talk import TableTalk


class NoticeReader:
    """What the other processes tell this one (:class:`~..cluster.notices.Listener`)."""

    def __init__(self, core: HubCore, presence: Presence, talk: TableTalk) -> None:
        self.core = core
        self.presence = presence
        self.talk = talk

    def quiet(self, kind: str, code: str, end: bool) -> bool:
        """A notice of ``kind`` about ``code`` arrived (``end``: a move that ended the game):
        ``True`` if that is enough, and the notice need not be decoded (see
        :mod:`..cluster.notices`).

        A move at a table this process does not need (no connection of its own there, no
        request on it under way, and not its owner, or the owner of a table without bots or a
        clock, which has nothing to run between moves) is not applied: the copy is marked
        :attr:`~.table.Table.behind` and caught up from the database when it is next asked for
        (:meth:`.core.HubCore.get`), or taken over (:meth:`adopted`); the open-tables list
        needs only what the copy knows already (a game in play, its seats, when it last moved),
        so a copy that does not know the game started is caught up as before. A copy whose
        game has just ended leaves memory (a finished table is read back when asked for), and a
        table not in memory stays out."""
        if kind != "move":
            return False
        table = self.core.registry.tables.get(code)
        owner = self.core.cluster.owns(code)
        if table is None:
            return not owner
        if code in self.core.rooms or table.lock.locked():
            return False
        if table.status != "playing":  # this copy missed the start: caught up now, as it was
            return False
        if owner and (end or table.clock is not None or any(s.bot for s in table.seats)):
            return False  # bots or a clock to run, or the table to let go of once it ended
        if end:
            del self.core.registry.tables[code]
        else:
            table.behind = True
            table.active = time.monotonic()
        return True

    def notice(self, notice: dict[str, Any]) -> None:
        """Another process published ``notice`` (see :mod:`..cluster.notices`): apply it here."""
        kind, code, proc = notice.get("k"), notice.get("t"), str(notice.get("p"))
        if kind == "hi":  # a process started: tell it who is connected here
            self.presence.hello()
            return
        if not isinstance(code, str):
            return
        if kind == "here":
            counts, watching, holding = notice.get("c"), notice.get("v"), notice.get("o")
            if not isinstance(counts, list) or not isinstance(watching, int):
                return
            self.presence.heard(code, proc, counts, watching, int(holding or 0))
            return
        if kind == "talk":
            table = self.core.registry.tables.get(code)
            seat, name, said = notice.get("s"), notice.get("n"), notice.get("x")
            if table is not None and isinstance(said, str):
                audience = "table" if notice.get("a") == "table" else "spectators"
                self.talk.say(
                    table,
                    "chat" if notice.get("w") == "chat" else "reaction",
                    seat if isinstance(seat, int) else None,
                    name if isinstance(name, str) else None,
                    said,
                    audience,
                    told=True,
                )
            return
        if kind == "new" and notice.get("pub") is False and not self.core.cluster.owns(code):
            return  # a private table: read from the database when it is asked for
        if kind in ("move", "table", "new"):
            self.core.soon(self._apply_notice(code, notice))

    async def _apply_notice(self, code: str, notice: dict[str, Any]) -> None:
        """A move, or another change, stored by another process: bring this copy up to it."""
        table = self.core.registry.tables.get(code)
        if table is None:
            if notice["k"] != "new" and not self.core.cluster.owns(code):
                return  # not in memory here: it is read from the database when asked for
            table = await self.core.get(code)
            self.core.after_catch_up(table)
            return
        async with table.lock:
            ply = notice.get("n")
            if notice["k"] == "move" and isinstance(ply, int):
                if ply <= table.version:
                    return  # this process has it already (it caught up meanwhile)
                if ply == table.version + 1 and self._push_notice(table, notice):
                    self.core.after_catch_up(table, moved_only=True)
                    return
            changed = await self.core.registry.catch_up(table)
            turn = table.turn
            if turn is not None and turn.seat == notice.get("out"):
                turn.timed_out = True
                changed = True
            if turn is not None and turn.seat == notice.get("reset"):
                table.turn = None
                changed = True
            if changed:
                table.touch()
                self.core.after_catch_up(table)

    @staticmethod
    def _push_notice(table: Table, notice: dict[str, Any]) -> bool:
        """Make the move of a ``move`` notice (the next ply) on this copy, as the process that
        stored it made it; ``False`` if it does not apply (then the database is read)."""
        state, seat, mid = table.state, notice.get("s"), notice.get("i")
        if state is None or table.status != "playing":
            return False
        trial = state.copy()
        try:
            trial.push(Move.parse(str(notice.get("m"))))
        except (IllegalMoveError, InvalidNotationError):
            return False
        table.state = trial
        if isinstance(seat, int) and 0 <= seat < len(table.seats):
            if isinstance(mid, str):
                table.move_ids[(seat, mid)] = len(trial.move_stack)
            if notice.get("h") and table.seats[seat].timeouts:
                table.seats[seat].timeouts = 0
                table.touch()
        outcome = trial.outcome
        if outcome is not None:
            table.status, table.result = "finished", outcome.result()
            table.touch()
        return True

    def adopted(self, codes: list[str]) -> None:
        """This process runs these tables now (their owner died): load them as the database
        holds them, and go on with their bots and clocks."""
        for code in codes:
            self.core.soon(self._adopt(code))

    async def _adopt(self, code: str) -> None:
        table = self.core.registry.tables.get(code)
        if table is None:  # read back, its clock as it was stored
            table = await self.core.get(code)
        else:
            async with table.lock:
                await self.core.registry.catch_up(table)
        self.core.after_catch_up(table)

    def peer_gone(self, proc: str) -> None:
        """Process ``proc`` died: its connections are gone."""
        self.presence.peer_gone(proc)

    def resync(self) -> None:
        """Notices may have been lost: catch every table in memory up from the database."""
        for table in list(self.core.registry.tables.values()):
            if table.status != "finished":
                self.core.soon(self._resync(table))

    async def _resync(self, table: Table) -> None:
        async with table.lock:
            if await self.core.registry.catch_up(table):
                self.core.after_catch_up(table)
