"""The hub: routes each request to the parts that decide it, then tells everyone at the table.

The engine runs here and only here. A request (HTTP or WebSocket, see :mod:`.app`) names a
table; under the table's lock the hub asks access rights (:mod:`.access`) whether the sender
may do it and the engine whether the move is legal, has the registry (:mod:`.registry`) store
the change, and only then sends every connection at the table its own
:func:`~.protocol.state_payload` and wakes the scheduler (:mod:`.scheduler`), which takes the
bots' steps. The hub also knows which connections watch which table.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any

from ..engine import (
    TEAM_LETTERS,
    Config,
    IllegalMoveError,
    InvalidNotationError,
    Move,
    MoveKind,
    State,
    StepKind,
)
from ..i18n import N_
from . import access, protocol, talk
from .access import Rights
from .accounts import Owner
from .connection import Connection
from .errors import RequestError, engine_refusal, no_seat
from .ratings import check_rated_bot
from .registry import TableRegistry
from .scheduler import Scheduler, check_level, table_level
from .store import SeatData, Store
from .table import Event, Seat, Table, TimeControl

log = logging.getLogger("sequence.server")

NAME_LENGTH = 24

AWAY_SECONDS = 60.0
"""Seconds a seat's player must have been disconnected before any seated player may hand the
seat to a bot (``sequence serve --away-seconds``)."""

MOVE_ID_LENGTH = 64


def check_move_id(move_id: Any) -> str | None:
    """The id a client gave a move (``None``: none), checked."""
    if move_id is None:
        return None
    if not isinstance(move_id, str) or not 0 < len(move_id) <= MOVE_ID_LENGTH:
        raise RequestError("bad_message", N_("a move id is text of at most 64 characters"))
    return move_id


def clean_name(name: Any) -> str:
    """A player's display name: trimmed, printable, at most :data:`NAME_LENGTH` characters."""
    if not isinstance(name, str):
        raise RequestError("bad_message", N_("a name is text"))
    shown = "".join(ch for ch in name if ch.isprintable()).strip()[:NAME_LENGTH]
    if not shown:
        raise RequestError("bad_message", N_("choose a name"))
    return shown


class Hub:
    """Every request on a table, from the lobby to the last move."""

    def __init__(
        self,
        store: Store,
        executor: Executor,
        bot_delay: float = 0.5,
        away_seconds: float = AWAY_SECONDS,
    ) -> None:
        self.away_seconds = away_seconds
        """Seconds a player must be gone before another player may hand their seat to a bot."""
        self._tasks: set[asyncio.Task[None]] = set()
        self.registry = TableRegistry(store)
        self.scheduler = Scheduler(
            executor,
            self._apply,
            bot_delay,
            timed_out=self._timed_out,
            save_clock=self.registry.save_clock,
        )
        self._rooms: dict[str, set[Connection]] = {}
        """The connections at each table, by code."""
        self.on_finish: Callable[[Table], None] | None = None
        """Called once a game has ended (its result stored): the ratings (:mod:`.players`)."""

    async def resume(self) -> int:
        """Load every table in the lobby or in play and let its bots go on; return how many."""
        tables = await self.registry.resume()
        for table in tables:
            self.scheduler.wake(table)
        return len(tables)

    async def get(self, code: str) -> Table:
        """A table by its code (``unknown_table`` if there is none)."""
        return await self.registry.get(code)

    # --- lobby ----------------------------------------------------------------------------------

    async def create(
        self,
        config: Config,
        bots: list[str | None],
        public: bool,
        name: str | None,
        seat: int | None,
        clock: TimeControl | None = None,
        bot_level: str | None = None,
        owner: Owner | None = None,
        rated: bool = False,
    ) -> tuple[Table, str, str | None, int | None]:
        """Create a table; return it, the host token, and the creator's seat token and seat.

        ``clock`` is the turn clock (``None``: off); ``bot_level`` the bot that plays for a seat
        whose time ran out; ``owner`` the signed-in creator, whose account the seat is."""
        if bot_level is not None:
            check_level(bot_level)
        if len(bots) > config.players:
            raise RequestError(
                "bad_message",
                N_("{bots} bot entries for {seats} seats"),
                bots=len(bots),
                seats=config.players,
            )
        seats = [Seat(i) for i in range(config.players)]
        for i, level in enumerate(bots):
            if level:
                seats[i].bot = check_level(level)
                seats[i].name = level
        host_token, host_hash = access.new_token()
        seat_token = None
        if name is not None:
            if seat is None:
                seat = next((s.seat for s in seats if s.kind == "empty"), None)
                if seat is None:
                    raise RequestError(
                        "bad_message", N_("every seat is a bot: leave one for yourself")
                    )
            if not 0 <= seat < config.players:
                raise no_seat(seat, config.players)
            if seats[seat].kind != "empty":
                raise RequestError("bad_message", N_("seat {n} is not free"), n=seat)
            seat_token, seats[seat].token_hash = (
                access.new_token() if owner is None else owner.seat_token(host_hash, seat)
            )
            seats[seat].account_id = None if owner is None else owner.account_id
            seats[seat].name = clean_name(name)
        table = await self.registry.create(
            config, [s.data() for s in seats], public, host_hash, "lobby", clock, bot_level, rated
        )
        return table, host_token, seat_token, seat if seat_token else None

    async def join(
        self, table: Table, seat: int | None, name: Any, owner: Owner | None = None
    ) -> tuple[int, str]:
        """Take a seat in the lobby; return it and its secret token (``name`` is checked here;
        ``owner``: the signed-in player, whose account the seat is)."""
        async with table.lock:
            if table.status != "lobby":
                raise RequestError("bad_message", N_("the game has started: you can watch it"), 409)
            if seat is None:
                seat = next((s.seat for s in table.seats if s.kind == "empty"), None)
                if seat is None:
                    raise RequestError("bad_message", N_("the table is full"), 409)
            if not isinstance(seat, int) or not 0 <= seat < len(table.seats):
                raise no_seat(seat, len(table.seats))
            target = table.seats[seat]
            if target.kind != "empty":
                raise RequestError("bad_message", N_("seat {n} is taken"), 409, n=seat)
            target.name = clean_name(name)
            token, target.token_hash = (
                access.new_token() if owner is None else owner.seat_token(table.host_hash, seat)
            )
            target.account_id = None if owner is None else owner.account_id
            await self.registry.save_seat(table, target)
            table.touch()
            self.broadcast(table)
            return seat, token

    async def set_bot(self, table: Table, seat: int, level: str | None, token: str | None) -> None:
        """The host seats a bot, reopens a seat (lobby) or gives an absent player's seat to one;
        in play, any seated player may also hand a seat whose player has been away for
        :attr:`away_seconds` to a bot (a recorded ``bot`` event)."""
        host = access.acting_host(table, token)
        by_seat = access.seat_of(table, token)
        if not host and (table.status != "playing" or by_seat is None):
            access.require_host(table, token)
        async with table.lock:
            if not isinstance(seat, int) or not 0 <= seat < len(table.seats):
                raise no_seat(seat, len(table.seats))
            target = table.seats[seat]
            if table.status == "finished":
                raise RequestError("game_over", N_("the game is over"))
            if table.status == "lobby":
                # A player who took a seat and left can be replaced; one who is here cannot.
                if target.kind == "human" and target.connections > 0:
                    raise RequestError(
                        "bad_message", N_("the player of seat {n} is here"), 409, n=seat
                    )
                target.bot = None if level is None else check_level(level)
                if table.rated:
                    check_rated_bot(level)
                target.name = target.bot
                target.token_hash = target.account_id = None
                event = None
            else:
                level = table_level(table) if level is None else check_level(level)
                if table.rated:  # a stand-in plays for a rated seat: one of the rated levels
                    check_rated_bot(level)
                if target.kind == "human" and target.connections > 0:
                    raise RequestError(
                        "bad_message", N_("the player of seat {n} is here"), 409, n=seat
                    )
                gone = time.monotonic() - target.left_at
                if not host and target.kind == "human" and gone < self.away_seconds:
                    raise RequestError(
                        "bad_message",
                        N_("the player of seat {n} left only {gone} s ago: wait {wait} s more"),
                        409,
                        n=seat,
                        gone=int(gone),
                        wait=int(self.away_seconds - gone) + 1,
                    )
                if not host and target.kind != "human":
                    raise RequestError(
                        "bad_message", N_("a bot already plays seat {n}"), 409, n=seat
                    )
                target.stand_in = target.kind == "human" or target.stand_in
                target.bot = level
                event = Event(table.version, "bot", seat, by_seat, level)
            await self.registry.save_seat(table, target)
            if event is not None:
                await self._record(table, event)
            table.touch()
            self.scheduler.wake(table)
            self.broadcast(table)

    async def start(self, table: Table, host_token: str | None) -> None:
        """Deal and begin, once every seat has a player or a bot."""
        access.require_host(table, host_token)
        async with table.lock:
            if table.status != "lobby":
                raise RequestError("bad_message", N_("the game has already started"), 409)
            empty = [s.seat for s in table.seats if s.kind == "empty"]
            if empty:
                raise RequestError(
                    "bad_message",
                    N_("seat {seats} is still empty")
                    if len(empty) == 1
                    else N_("seats {seats} are still empty"),
                    409,
                    seats=", ".join(map(str, empty)),
                )
            await self.registry.set_status(table, "playing")
            table.state = State.new(table.config, table.seed)
            table.status = "playing"
            table.touch()
            self.scheduler.wake(table)
            self.broadcast(table)

    async def rematch(self, table: Table, token: str | None) -> Table:
        """A new table with the same settings and the same people (their tokens still work)."""
        access.require_player_or_host(table, token)
        async with table.lock:
            if table.status != "finished":
                raise RequestError("bad_message", N_("the game is still going"), 409)
            if table.rematch_code:
                return await self.registry.get(table.rematch_code)
            seats = [
                SeatData(
                    s.seat,
                    s.name,
                    s.token_hash,
                    None if s.stand_in else s.bot,
                    account_id=s.account_id,
                )
                for s in table.seats
            ]
            new = await self.registry.create(
                table.config,
                seats,
                table.public,
                table.host_hash,
                "playing",
                table.clock,
                table.bot_level,
                table.rated,
            )
            table.rematch_code = new.code
            await self.registry.set_status(table, "finished", new.code)
            table.touch()
            self.broadcast(table)
            self.scheduler.wake(new)
            return new

    # --- connections ----------------------------------------------------------------------------

    def attach(
        self, table: Table, conn: Connection, token: str | None, host_token: str | None
    ) -> None:
        """Seat a connection by its token (a spectator without one) and send it the state."""
        conn.rights = Rights.of(table, token, host_token)
        self._rooms.setdefault(table.code, set()).add(conn)
        if conn.rights.host:
            table.host_connections += 1
        if conn.seat is None:
            table.spectators += 1
        else:
            s = table.seats[conn.seat]
            s.connections += 1
            if s.stand_in and table.status == "playing":  # the player is back: the bot leaves
                self._seat_back(table, s)
                asyncio.get_running_loop().create_task(self.registry.save_seat(table, s))
        table.touch()
        self.scheduler.wake(table)
        self.broadcast(table)
        self._rehost_soon(table)

    def _seat_back(self, table: Table, s: Seat) -> None:
        """The player of ``s`` plays it again: the stand-in bot leaves, the clock starts afresh."""
        s.bot, s.stand_in, s.timeouts = None, False, 0
        if table.turn is not None and table.turn.seat == s.seat:
            table.turn = None  # a turn the bot was playing: the player gets a whole one

    async def take_back(self, table: Table, conn: Connection) -> None:
        """A player takes back the seat a bot kept for them (their clock ran out twice)."""
        seat = conn.rights.seat_to_move()
        async with table.lock:
            s = table.seats[seat]
            if not s.stand_in:
                raise RequestError("bad_message", N_("you are already playing your seat"))
            self._seat_back(table, s)
            await self.registry.save_seat(table, s)
            table.touch()
            self.scheduler.wake(table)
            self.broadcast(table)

    async def _timed_out(self, table: Table) -> None:
        """The scheduler's hook (the table's lock held): the clock of :attr:`Table.turn` ran out.

        The seat is marked away; after two such turns in a row a bot of the table's level keeps
        it until its player takes it back."""
        assert table.turn is not None
        s = table.seats[table.turn.seat]
        s.timeouts += 1
        if s.timeouts >= 2 and s.kind == "human":
            s.bot, s.stand_in = table_level(table), True
        await self.registry.save_seat(table, s)
        table.touch()
        self.broadcast(table)

    def detach(self, table: Table, conn: Connection) -> None:
        """The connection left the table."""
        room = self._rooms.get(table.code)
        if room is None or conn not in room:
            return
        room.discard(conn)
        if not room:
            del self._rooms[table.code]
        if conn.rights.host:
            table.host_connections -= 1
        if conn.seat is None:
            table.spectators -= 1
        else:
            s = table.seats[conn.seat]
            s.connections -= 1
            if s.connections == 0:
                s.left_at = time.monotonic()
        table.touch()
        self.broadcast(table)
        self._rehost_soon(table)

    def broadcast(self, table: Table) -> None:
        """Send every connection at the table its own view of it."""
        for conn in list(self._rooms.get(table.code, ())):
            conn.send(protocol.state_payload(table, conn.seat, conn.rights.hosts(table)))

    # --- nobody is indispensable ------------------------------------------------------------------

    async def _record(self, table: Table, event: Event) -> None:
        """Store ``event`` in the table's log (a failure is logged: the change itself stands)."""
        try:
            await self.registry.add_event(table, event)
        except Exception:
            log.exception("could not record %s at %s", event, table.code)
            table.events.append(event)

    def _rehost_soon(self, table: Table) -> None:
        """Pass the host's rights on (or back) once the table's lock is free."""
        task = asyncio.get_running_loop().create_task(self._rehost(table))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @staticmethod
    def host_seat_for(table: Table) -> int | None:
        """Who should hold the host's rights: nobody but the host while a connection holds the
        host token (once the game is over, whoever held them); else the seat holding them now
        while its player is connected, or the first seated person who is (if nobody is, they
        stay where they are)."""
        if table.status == "finished":
            return table.host_seat  # nothing left to host: no more changes to record
        if table.host_connections > 0:
            return None
        current = table.host_seat
        if current is not None:
            s = table.seats[current]
            if s.kind == "human" and s.connections > 0:
                return current
        # Nobody to pass them to: they stay where they are (no change to record).
        here = (s.seat for s in table.seats if s.kind == "human" and s.connections > 0)
        return next(here, current)

    async def _rehost(self, table: Table) -> None:
        """Give the host's rights to :meth:`host_seat_for` if they changed (a ``host`` event:
        ``seat`` the player who holds them, ``None`` the host again)."""
        async with table.lock:
            seat = self.host_seat_for(table)
            if seat == table.host_seat:
                return
            table.host_seat = seat
            await self._record(table, Event(table.version, "host", seat))
            table.touch()
            self.broadcast(table)

    async def resign(self, table: Table, conn: Connection) -> None:
        """A player resigns. Alone on a side of a two-sided game (no other person on the team),
        the game is lost: it ends and the other side wins. Otherwise (a partner plays on, or
        three sides) a bot of the table's level plays the seat to the end. Either way a
        ``resign`` event records it."""
        seat = conn.rights.seat_to_move()
        async with table.lock:
            if table.state is None or table.status != "playing":
                raise RequestError("not_started", N_("the game has not started yet"))
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
            if config.teams == 2 and not partners:
                result = f"{TEAM_LETTERS[1 - team]} wins"
                await self.registry.finish(table, result)
                table.status, table.result, table.turn = "finished", result, None
                detail = "lost"
                self._finished(table)
            else:
                s.bot, s.stand_in, s.timeouts = table_level(table), False, 0
                await self.registry.save_seat(table, s)
                if table.turn is not None and table.turn.seat == seat:
                    table.turn = None
                detail = "bot"
            await self._record(table, Event(table.version, "resign", seat, seat, detail))
            table.touch()
            self.scheduler.wake(table)
            self.broadcast(table)
        self._rehost_soon(table)  # the rights of a player who resigned pass on

    # --- talk -----------------------------------------------------------------------------------

    def _speaker(self, table: Table, conn: Connection) -> str | None:
        return None if conn.seat is None else table.seats[conn.seat].name

    def react(self, table: Table, conn: Connection, reaction: Any) -> None:
        """A quick reaction (no game information in it) to everyone at the table."""
        said = talk.check_reaction(reaction)
        talk.pace(conn, "reaction", talk.REACTION_INTERVAL)
        payload = protocol.talk_payload("reaction", conn.seat, self._speaker(table, conn), said)
        for other in list(self._rooms.get(table.code, ())):
            other.send(payload)

    def chat(self, table: Table, conn: Connection, text: Any) -> None:
        """A chat message, to whoever may read it now (:func:`.talk.chat_audience`)."""
        said = talk.clean_text(text)
        audience = talk.chat_audience(table, conn)
        talk.pace(conn, "chat", talk.CHAT_INTERVAL)
        payload = protocol.talk_payload("chat", conn.seat, self._speaker(table, conn), said)
        for other in list(self._rooms.get(table.code, ())):
            if audience == "table" or other.seat is None:
                other.send(payload)

    # --- moves ----------------------------------------------------------------------------------

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
            if self._acked(table, conn, seat, mid):
                return
            self._current(table, version)
            await self._apply(table, move, seat, by_person=True, move_id=mid, ack=conn)

    @staticmethod
    def _still_playing(table: Table, seat: int) -> int:
        """``seat``, unless its player resigned it to a bot (a stand-in bot does not count)."""
        s = table.seats[seat]
        if s.bot and not s.stand_in:
            raise RequestError("not_seated", N_("you resigned: a bot plays your seat"))
        return seat

    @staticmethod
    def _acked(table: Table, conn: Connection, seat: int, mid: str | None) -> bool:
        """Acknowledge a move id already applied (and apply nothing); ``False``: a new one."""
        if mid is None or (seat, mid) not in table.move_ids:
            return False
        conn.send(protocol.ack_payload(mid, table.move_ids[(seat, mid)], duplicate=True))
        return True

    async def roll(self, table: Table, conn: Connection, version: Any, move_id: Any = None) -> None:
        """Sequence Dice: the player to act rolls (the server's seeded dice decide); a
        ``move_id`` is applied once, as a move's."""
        seat = self._still_playing(table, conn.rights.seat_to_roll())
        mid = check_move_id(move_id)
        async with table.lock:
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
            await self._apply(
                table, state.sample_chance(), seat, by_person=True, move_id=mid, ack=conn
            )

    async def penalty(self, table: Table, conn: Connection, team: Any, version: Any) -> None:
        """The host's table-talk penalty on a team."""
        conn.rights.check_penalty(table)
        if not isinstance(team, str) or len(team) != 1 or team.upper() not in TEAM_LETTERS:
            raise RequestError("bad_message", N_("name the team by its letter, for example B"))
        async with table.lock:
            state = self._current(table, version)
            reason = state.penalty_allowed(TEAM_LETTERS.index(team.upper()))
            if reason is not None:
                raise engine_refusal("illegal", reason)
            await self._apply(table, Move.parse(f"penalty:{team.upper()}"), None)

    async def _apply(
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
            await self.registry.append_move(table, trial, seat, move_id)
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
        table.active = time.monotonic()
        outcome = trial.outcome
        if outcome is not None:
            table.status, table.result = "finished", outcome.result()
            table.touch()
            self._finished(table)
        if by_person and seat is not None and table.seats[seat].timeouts:
            table.seats[seat].timeouts = 0  # back at the table
            table.touch()
            try:
                await self.registry.save_seat(table, table.seats[seat])
            except Exception:  # the move is stored; a seat's away mark is not worth refusing it
                log.exception("could not store seat %s of %s", seat, table.code)
        self.scheduler.wake(table)
        self.broadcast(table)

    def _finished(self, table: Table) -> None:
        """The game at ``table`` ended and its result is stored: tell :attr:`on_finish`."""
        if self.on_finish is not None:
            try:
                self.on_finish(table)
            except Exception:  # the game is over whatever its consequences do
                log.exception("after the end of %s", table.code)

    async def shutdown(self) -> None:
        """Stop the bots and clocks (storing what each clock has left) and close every
        connection."""
        await self.scheduler.stop(list(self.registry.tables.values()))
        for room in self._rooms.values():
            for conn in list(room):
                conn.close()
