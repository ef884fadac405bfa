"""Moves: a player's move, a roll of the dice, the host's penalty, and every bot's step.

Each is judged on the game in play at the version its sender saw, made by the engine on a copy
of the state, and stored (:meth:`.registry.TableRegistry.append_move`, committed in groups)
before anybody is shown it. A move with a client's id is applied once: the same id again is
acknowledged with the ply it was stored as. With several processes, the database decides
between two moves at the same ply: the loser catches up and refuses its move as stale.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from ...engine import (
    TEAM_LETTERS,
    IllegalMoveError,
    InvalidNotationError,
    Move,
    MoveKind,
    State,
    StepKind,
)
from ...i18n import N_
from ..common.errors import RequestError, engine_refusal
from ..storage.store import MoveConflict
from . import protocol
from .connection import Connection
from .core import HubCore
from .table import Table

log = logging.getLogger("sequence.server")

MOVE_ID_LENGTH = 64


def check_move_id(move_id: Any) -> str | None:
    """The id a client gave a move (``None``: none), checked."""
    if move_id is None:
        return None
    if not isinstance(move_id, str) or not 0 < len(move_id) <= MOVE_ID_LENGTH:
        raise RequestError("bad_message", N_("a move id is text of at most 64 characters"))
    return move_id


class MovePlayer:
    """Every move at a table: checked, stored, then shown."""

    def __init__(self, core: HubCore) -> None:
        self.core = core

    def _current(self, table: Table, version: Any) -> State:
        """The game in play, if ``version`` is where it stands."""
        if table.state is None:
            raise RequestError("not_started", N_("the game has not started yet"))
        if table.state.is_over() or table.status == "finished":
            raise RequestError("game_over", N_("the game is over"))
        if not isinstance(version, int) or isinstance(version, bool):
            raise RequestError("bad_message", N_("a move must carry the version it was made at"))
        if version != table.version:
            raise RequestError(
                "stale",
                N_(
                    "stale or duplicate: this was sent at version {sent}, the table is at"
                    " version {version}"
                ),
                sent=version,
                version=table.version,
            )
        return table.state

    async def play(
        self, table: Table, conn: Connection, text: Any, version: Any, move_id: Any = None
    ) -> None:
        """A seated player's move. With a ``move_id`` it is applied once: the same id again
        (a resend after a reconnect) is acknowledged with the ply it was stored as."""
        seat = self._still_playing(table, conn.rights.seat_to_move())
        mid = check_move_id(move_id)
        if not isinstance(text, str) or len(text) > 32:
            raise RequestError("bad_message", N_("a move is its notation, for example 5H@c3"))
        try:
            move = Move.parse(text)
        except InvalidNotationError as exc:
            raise engine_refusal("bad_message", exc) from None
        if move.kind in (MoveKind.ROLL, MoveKind.PENALTY):
            raise RequestError("illegal", N_("dice are rolled and penalties imposed by the server"))
        async with table.lock:
            await self._ahead(table, version)
            if self._acked(table, conn, seat, mid, move):
                return
            self._current(table, version)
            await self.apply(table, move, seat, by_person=True, move_id=mid, ack=conn)

    async def _ahead(self, table: Table, version: Any) -> None:
        """A request made at a version this process has not reached (the client saw it through
        another process): catch up from the database before judging it."""
        if isinstance(version, int) and version > table.version:
            await self.core.sync(table)

    @staticmethod
    def _still_playing(table: Table, seat: int) -> int:
        """``seat``, unless its player resigned it to a bot (a stand-in bot does not count)."""
        s = table.seats[seat]
        if s.bot and not s.stand_in:
            raise RequestError("not_seated", N_("you resigned: a bot plays your seat"))
        return seat

    @staticmethod
    def _acked(
        table: Table, conn: Connection, seat: int, mid: str | None, move: Move | None = None
    ) -> bool:
        """Acknowledge a move id already applied (and apply nothing); ``False``: a new one.
        The id sent again with another ``move`` than the one it was applied as is refused: it
        is not a resend, and acknowledging it would tell the player a move was made that was
        not."""
        if mid is None or (seat, mid) not in table.move_ids:
            return False
        ply = table.move_ids[(seat, mid)]
        stack = table.state.move_stack if table.state is not None else []
        if move is not None and 0 < ply <= len(stack) and str(stack[ply - 1]) != str(move):
            raise RequestError(
                "bad_message",
                N_("move id {id} was already used for another move ({move}); nothing was done"),
                id=mid,
                move=str(stack[ply - 1]),
            )
        conn.send(protocol.ack_payload(mid, ply, duplicate=True))
        return True

    async def roll(self, table: Table, conn: Connection, version: Any, move_id: Any = None) -> None:
        """Sequence Dice: the player to act rolls (the server's seeded dice decide); a
        ``move_id`` is applied once, as a move's."""
        seat = self._still_playing(table, conn.rights.seat_to_roll())
        mid = check_move_id(move_id)
        async with table.lock:
            await self._ahead(table, version)
            if self._acked(table, conn, seat, mid):
                return
            state = self._current(table, version)
            step = state.next_step()
            if step.kind is not StepKind.ROLL or step.seat is None:
                raise RequestError("illegal", N_("no dice to roll now"))
            if step.seat != seat:
                raise RequestError(
                    "illegal",
                    N_("it is not your turn (player {seat} is to act)"),
                    seat=step.seat + 1,
                )
            await self.apply(
                table, state.sample_chance(), seat, by_person=True, move_id=mid, ack=conn
            )

    async def penalty(self, table: Table, conn: Connection, team: Any, version: Any) -> None:
        """The host's table-talk penalty on a team."""
        conn.rights.check_penalty(table)
        if not isinstance(team, str) or len(team) != 1 or team.upper() not in TEAM_LETTERS:
            raise RequestError("bad_message", N_("name the team by its letter, for example B"))
        async with table.lock:
            await self._ahead(table, version)
            state = self._current(table, version)
            reason = state.penalty_allowed(TEAM_LETTERS.index(team.upper()))
            if reason is not None:
                raise engine_refusal("illegal", reason)
            await self.apply(table, Move.parse(f"penalty:{team.upper()}"), None)

    async def apply(
        self,
        table: Table,
        move: Move,
        seat: int | None,
        by_person: bool = False,
        move_id: str | None = None,
        ack: Connection | None = None,
    ) -> None:
        """Check, store, then show. Call with the table's lock held and the version checked.

        A move with a ``move_id`` is acknowledged to ``ack`` (its sender) once stored, before
        anybody is shown the new state: the sender's page settles the move before it redraws.

        A move made ``by_person`` (not by a bot for them) ends the seat's run of timeouts.

        The move is made on a copy of the state: until it is committed, every reader (a sync, a
        connection, the table's facts) still sees the position before it, so nobody sees a card
        drawn by a move the database then refuses.
        """
        state = table.state
        assert state is not None
        trial = state.copy()
        try:
            trial.push(move, seat=seat)
        except IllegalMoveError as exc:
            raise engine_refusal("illegal", exc) from None
        try:
            await self.core.registry.append_move(table, trial, seat, move_id)
        except MoveConflict:
            # Another process stored this ply (or this move id) first: what it stored is the
            # game. This move is a resend of that one, or stale.
            await self.core.sync(table, force=True)
            if move_id is not None and seat is not None and (seat, move_id) in table.move_ids:
                if ack is not None:  # the same id, stored by another process first
                    self._acked(
                        table, ack, seat, move_id, None if move.kind is MoveKind.ROLL else move
                    )
                return
            if table.status == "finished":  # a resignation stored by another process
                raise RequestError("game_over", N_("the game is over")) from None
            raise RequestError(
                "stale",
                N_(
                    "stale: another move was made first, the table is at version {version};"
                    " nothing was done"
                ),
                version=table.version,
            ) from None
        except Exception:
            log.exception("could not store move %s at %s", move, table.code)
            raise RequestError(
                "unavailable", N_("the move could not be stored; try again"), 503
            ) from None
        table.state = trial
        if move_id is not None and seat is not None:
            table.move_ids[(seat, move_id)] = len(trial.move_stack)
            if ack is not None:
                ack.send(protocol.ack_payload(move_id, len(trial.move_stack), duplicate=False))
        self.core.cluster.publish(
            {"k": "move", "t": table.code, "n": len(trial.move_stack), "m": str(move),
             "s": seat, "i": move_id, "h": by_person, "e": trial.outcome is not None}
        )  # fmt: skip
        table.active = time.monotonic()
        outcome = trial.outcome
        if outcome is not None:
            table.status, table.result = "finished", outcome.result()
            table.touch()
            self.core.finished(table)
            self.core.soon(self.core.release(table))
        if by_person and seat is not None and table.seats[seat].timeouts:
            table.seats[seat].timeouts = 0  # back at the table
            table.touch()
            try:
                await self.core.registry.save_timeouts(table, table.seats[seat])
            except Exception:  # the move is stored; a seat's away mark is not worth refusing it
                log.exception("could not store seat %s of %s", seat, table.code)
        self.core.scheduler.wake(table)
        self.core.broadcast(table)
