"""The hub: routes each request to the parts that decide it, then tells everyone at the table.

The engine runs here and only here. A request (HTTP or WebSocket, see :mod:`.app`) names a
table; under the table's lock the hub asks access rights (:mod:`.access`) whether the sender
may do it and the engine whether the move is legal, has the registry (:mod:`.registry`) store
the change, and only then sends every connection at the table its own
:func:`~.protocol.state_payload` and wakes the scheduler (:mod:`.scheduler`), which takes the
bots' steps. The hub also knows which connections watch which table.

With several server processes (:mod:`.cluster`), every change the hub stores is also published
as a notice; the hub of each other process applies it to its own copy of the table (or reads
the table back from the database) and tells its own connections. The database decides between
two processes changing a table at once (a move's ply and id, the start, and every change of a
seat: a conditional write of the seat as it was judged on, with its event), and the loser
catches up from it and refuses the request with the reason. Who is connected is counted across
the processes; the bots, the clock and the passing of the host's rights run only in the table's
owner. A process keeps a table up to date only while it needs it (a connection of its own at the
table, or it owns it): other tables' moves are not applied here (:meth:`Hub.quiet`) and the
table is caught up from the database when it is next asked for.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine, Iterable, Sequence
from concurrent.futures import Executor
from dataclasses import replace
from typing import Any

from ...engine import (
    TEAM_LETTERS,
    Config,
    IllegalMoveError,
    InvalidNotationError,
    Move,
    MoveKind,
    State,
    StepKind,
)
from ...i18n import N_
from ..accounts.account import Owner
from ..cluster.notices import Cluster, Solo
from ..common.errors import RequestError, engine_refusal, no_seat
from ..ratings.rating import check_rated_bot
from ..storage.store import EventData, MoveConflict, SeatChange, SeatData, Store
from . import access, protocol, talk
from .access import Rights
from .connection import Connection
from .registry import TableRegistry
from .scheduler import Scheduler, check_level, table_level
from .table import Event, Seat, Table, TimeControl

log = logging.getLogger("sequence.server")

NAME_LENGTH = 24

AWAY_SECONDS = 60.0
"""Seconds a seat's player must have been disconnected before any seated player may hand the
seat to a bot (``sequence serve --away-seconds``)."""

MOVE_ID_LENGTH = 64

CHANGE_TRIES = 3
"""Times a change of a seat is judged again when another process changed the table first."""


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


def seat_bots(bots: Sequence[str | None] | None, players: int) -> list[str | None]:
    """A new table's ``bots``, one entry per seat in seat order (a bot level, or ``None`` for a
    seat left open); ``None`` for the whole list leaves every seat open.

    A list of another length is refused: ``["hard"]`` at a table of two could mean a bot at
    either seat, and guessing would seat someone where nobody asked (checked before any level,
    so the refusal names the mismatch whatever the list holds)."""
    if bots is None:
        return [None] * players
    if len(bots) != players:
        raise RequestError(
            "bad_message",
            N_(
                "bots needs one entry per seat, in seat order (a bot level, or null for an"
                " open seat): {bots} given for {seats} seats"
            ),
            bots=len(bots),
            seats=players,
        )
    return list(bots)


def check_claims(
    seats: list[Seat], claims: Sequence[tuple[Any, Any]], taken: str, status: int = 400
) -> list[tuple[int, str]]:
    """Each (seat, name) of ``claims`` checked: the seat exists, is empty and is named once;
    the name is cleaned. ``taken`` is the refusal for a seat that is not empty, with
    ``status``. Nothing changes."""
    checked: list[tuple[int, str]] = []
    for seat, name in claims:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(seats):
            raise no_seat(seat, len(seats))
        if seats[seat].kind != "empty":
            raise RequestError("bad_message", taken, status, n=seat)
        if any(seat == n for n, _ in checked):
            raise RequestError("bad_message", N_("seat {n} is named twice"), n=seat)
        checked.append((seat, clean_name(name)))
    return checked


def seat_token(owner: Owner | None, host_hash: str, seat: int) -> tuple[str, str, int | None]:
    """The token of a seat taken at the table whose host hash is ``host_hash``, its hash, and
    the account it belongs to: ``owner``'s (the same token on every device of theirs), or a
    fresh guest's token (``owner`` ``None``)."""
    if owner is None:
        return *access.new_token(), None
    return *owner.seat_token(host_hash, seat), owner.account_id


def take_seats(
    seats: list[Seat],
    claims: Sequence[tuple[Any, Any]],
    taken: str,
    status: int = 400,
    owner: Owner | None = None,
    host_hash: str = "",
) -> list[tuple[int, str]]:
    """Give each (seat, name) of ``claims`` to a person: a token for each, in order.
    Every claim is checked (:func:`check_claims`) before any seat changes, so a refused
    request takes none. The first claim is ``owner``'s, the signed-in player's (its token
    from their account, for the table whose host hash is ``host_hash``); the others (a
    pass-and-play device's further players) are guests' seats."""
    tokens = []
    for i, (seat, shown) in enumerate(check_claims(seats, claims, taken, status)):
        token, seats[seat].token_hash, seats[seat].account_id = seat_token(
            owner if i == 0 else None, host_hash, seat
        )
        seats[seat].name = shown
        tokens.append((seat, token))
    return tokens


class Hub:
    """Every request on a table, from the lobby to the last move."""

    def __init__(
        self,
        store: Store,
        executor: Executor,
        bot_delay: float = 0.5,
        away_seconds: float = AWAY_SECONDS,
        cluster: Cluster | None = None,
    ) -> None:
        self.cluster = cluster or Solo()
        """The other server processes serving the same tables (:class:`~.cluster.Solo`:
        none)."""
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
            owns=lambda table: self.cluster.owns(table.code),
        )
        self._rooms: dict[str, set[Connection]] = {}
        """The connections at each table, by code (this process's)."""
        self._remote: dict[str, dict[str, tuple[list[int], int, int]]] = {}
        """The connections to each table in the other processes, by code and process: per seat,
        spectators, and those holding the host token."""
        self.on_finish: Callable[[Table], None] | None = None
        """Called once a game has ended (its result stored here): the ratings (:mod:`.players`)."""
        self.watchers: list[Callable[[Table], None]] = []
        """Called with a table whenever its change is shown (:meth:`broadcast`): notifications."""

    async def resume(self) -> int:
        """Load every table in the lobby or in play, take over those no live process runs,
        and let their bots go on; return how many."""
        # Listen first: a change made while the tables load is then either in what the
        # database gives or in a notice (the tables are caught up when in doubt).
        await self.cluster.start(self)
        tables = await self.registry.resume()
        await self.cluster.claim([t.code for t in tables])
        for table in tables:
            self._recount(table)  # who is connected to the other processes (their "here")
            self.scheduler.wake(table)
        return len(tables)

    async def get(self, code: str) -> Table:
        """A table by its code (``unknown_table`` if there is none), up to the database if this
        process had stopped keeping it up to date (:meth:`quiet`)."""
        known = code.strip().upper() in self.registry.tables
        table = await self.registry.get(code)
        if not known and table.status != "finished" and self.cluster.shared:
            # Read back from the database: if no live process runs it, this one does.
            await self.cluster.claim([table.code])
            self._recount(table)
            self.scheduler.wake(table)
        elif table.behind:
            async with table.lock:
                if table.behind and await self.registry.catch_up(table):
                    self._after_catch_up(table, moved_only=True)
        return table

    async def refresh(self, table: Table) -> None:
        """With other processes, bring ``table`` up to the database now, before a request that
        the hub does not judge itself reads it (takes the table's lock): a seat taken or claimed
        through another process a moment ago, whose notice has not arrived yet, is then known
        here."""
        if self.cluster.shared:
            async with table.lock:
                await self._sync(table)

    async def load_new(self, code: str) -> Table:
        """A table stored by another part of this process (quick play's matching), read from
        the database and run here as :meth:`create`'s are: this process claims it (one process
        runs its bots and clock) and tells the others, whose players may sit at it."""
        table = await self.registry.get(code)
        await self._created(table)
        return table

    # --- lobby ----------------------------------------------------------------------------------

    async def create(
        self,
        config: Config,
        bots: Sequence[str | None] | None,
        public: bool,
        name: str | None,
        seat: int | None,
        clock: TimeControl | None = None,
        bot_level: str | None = None,
        local: Sequence[tuple[Any, Any]] = (),
        owner: Owner | None = None,
        rated: bool = False,
    ) -> tuple[Table, str, str | None, int | None, list[tuple[int, str]]]:
        """Create a table; return it, the host token, the creator's seat token and seat, and
        the seat and token of each seat in ``local``.

        ``bots``: a bot level or ``None`` (open) for every seat, in seat order (:func:`seat_bots`).

        ``clock`` is the turn clock (``None``: off); ``bot_level`` the bot that plays for a seat
        whose time ran out. ``local`` holds more (seat, name) pairs the creator's device takes
        for pass-and-play: every one is checked before any is taken. ``owner`` is the signed-in
        creator, whose account the creator's seat is (the ``local`` seats are guests').
        ``rated``: the result moves the players' ratings (:class:`.ranked.Ranked` checked it)."""
        if bot_level is not None:
            check_level(bot_level)
        seats = [Seat(i) for i in range(config.players)]
        for i, level in enumerate(seat_bots(bots, config.players)):
            if level:
                seats[i].bot = check_level(level)
                seats[i].name = level
        host_token, host_hash = access.new_token()
        if name is not None and seat is None:
            wanted = {n for n, _ in local}
            seat = next((s.seat for s in seats if s.kind == "empty" and s.seat not in wanted), None)
            if seat is None:
                raise RequestError("bad_message", N_("every seat is a bot: leave one for yourself"))
        claims = [] if name is None else [(seat, name)]
        tokens = take_seats(
            seats,
            [*claims, *local],
            N_("seat {n} is not free"),
            400,
            owner if claims else None,
            host_hash,
        )
        own_token = tokens[0][1] if claims else None
        table = await self.registry.create(
            config, [s.data() for s in seats], public, host_hash, "lobby", clock, bot_level, rated
        )
        await self._created(table)
        return table, host_token, own_token, seat if claims else None, tokens[len(claims) :]

    async def join(
        self,
        table: Table,
        seat: int | None,
        name: Any,
        local: Sequence[tuple[Any, Any]] = (),
        owner: Owner | None = None,
    ) -> tuple[int, str, list[tuple[int, str]]]:
        """Take a seat in the lobby; return it, its secret token, and the seat and token of each
        seat in ``local``: more (seat, name) pairs the same device takes for pass-and-play.
        Names are checked here; every seat is checked before any is taken, and the database
        takes them all or none. ``owner`` is the signed-in player, whose account the first seat
        is unless it holds a seat here already (the ``local`` seats are guests')."""
        async with table.lock:
            await self._sync(table)
            if table.status != "lobby":
                raise RequestError("bad_message", N_("the game has started: you can watch it"), 409)
            if seat is None:
                wanted = {n for n, _ in local}
                free = (s.seat for s in table.seats if s.kind == "empty" and s.seat not in wanted)
                seat = next(free, None)
                if seat is None:
                    raise RequestError("bad_message", N_("the table is full"), 409)
            if owner is not None and any(s.account_id == owner.account_id for s in table.seats):
                # An account has one seat at a table: a signed-in device seating another
                # player of its own ("Sit here too", pass-and-play) gives them a guest's seat.
                owner = None
            taken = N_("seat {n} is taken")
            claims = check_claims(table.seats, [(seat, name), *local], taken, 409)
            tokens = [
                (n, *seat_token(owner if i == 0 else None, table.host_hash, n))
                for i, (n, _) in enumerate(claims)
            ]
            data = [
                SeatData(n, shown, token_hash, None, False, table.seats[n].reserve,
                         table.seats[n].timeouts, account_id)
                for (n, shown), (_, _, token_hash, account_id) in zip(claims, tokens, strict=True)
            ]  # fmt: skip
            # The database decides between two processes seating two people at once.
            if not await self.registry.take_seats(table, data):
                await self._sync(table, force=True)
                raise RequestError("bad_message", taken, 409, n=seat)
            for (n, shown), (_, _, token_hash, account_id) in zip(claims, tokens, strict=True):
                target = table.seats[n]
                target.name, target.token_hash, target.account_id = shown, token_hash, account_id
            table.touch()
            self._changed(table)
            return seat, tokens[0][1], [(n, token) for n, token, _, _ in tokens[1:]]

    async def set_bot(self, table: Table, seat: int, level: str | None, token: str | None) -> None:
        """The host seats a bot, reopens a seat (lobby) or gives an absent player's seat to one;
        in play, any seated player may also hand a seat whose player has been away for
        :attr:`away_seconds` to a bot (a recorded ``bot`` event)."""
        host = access.acting_host(table, token)
        by_seat = access.seat_of(table, token)
        if not host and (table.status != "playing" or by_seat is None):
            access.require_host(table, token)
        async with table.lock:
            await self._sync(table)
            await self._change_seat(
                table, lambda: self._judge_bot(table, seat, level, host, by_seat)
            )
            self._changed(table)

    def _judge_bot(
        self, table: Table, seat: Any, level: str | None, host: bool, by_seat: int | None
    ) -> SeatChange:
        """:meth:`set_bot` judged on the table as this process holds it (nothing changes)."""
        if not isinstance(seat, int) or not 0 <= seat < len(table.seats):
            raise no_seat(seat, len(table.seats))
        target = table.seats[seat]
        before = target.data()
        if table.status == "finished":
            raise RequestError("game_over", N_("the game is over"))
        if target.kind == "human" and target.connections > 0:
            # A player who took a seat and left can be replaced; one who is here cannot.
            raise RequestError("bad_message", N_("the player of seat {n} is here"), 409, n=seat)
        if table.status == "lobby":
            bot = None if level is None else check_level(level)
            if table.rated:
                check_rated_bot(level)
            after = replace(before, name=bot, token_hash=None, account_id=None, bot=bot)
            return SeatChange(before, after, table.status)
        level = table_level(table) if level is None else check_level(level)
        if table.rated:  # a stand-in plays for a rated seat: one of the rated levels
            check_rated_bot(level)
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
        if target.kind != "human" and (not host or target.bot == level):
            # Whoever asks again (a second process, a resend) finds it done: applied once.
            raise RequestError("bad_message", N_("a bot already plays seat {n}"), 409, n=seat)
        after = replace(before, bot=level, stand_in=target.kind == "human" or target.stand_in)
        event = EventData(table.version, "bot", seat, by_seat, level)
        return SeatChange(before, after, table.status, event)

    async def start(self, table: Table, host_token: str | None) -> None:
        """Deal and begin, once every seat has a player or a bot."""
        access.require_host(table, host_token)
        async with table.lock:
            await self._sync(table)
            started = RequestError("bad_message", N_("the game has already started"), 409)
            if table.status != "lobby":
                raise started
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
            if not await self.registry.begin(table):  # another process started it first
                await self._sync(table, force=True)
                raise started
            table.state = State.new(table.config, table.seed)
            table.status = "playing"
            table.touch()
            self._changed(table)

    async def rematch(self, table: Table, token: str | None) -> Table:
        """A new table with the same settings and the same people (their tokens still work)."""
        access.require_player_or_host(table, token)
        async with table.lock:
            await self._sync(table)
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
            code = await self.registry.set_rematch(table, new)
            if code != new.code:  # another process made the rematch first: that one it is
                await self._sync(table, force=True)
                return await self.get(code)
            table.rematch_code = new.code
            table.touch()
            await self._created(new)
            self._changed(table)
            return new

    # --- connections ----------------------------------------------------------------------------

    def attach(
        self,
        table: Table,
        conn: Connection,
        token: str | None,
        host_token: str | None,
        local: Sequence[str] = (),
    ) -> None:
        """Seat a connection by its token (a spectator without one) and send it the state.

        ``local`` holds the tokens of the other seats the client's device holds (pass-and-play):
        those seats count as present (not away) while it is connected, but it sees and acts
        only for its token's seat."""
        rights = Rights.of(table, token, host_token)
        held = access.held_seats(table, local, rights.seat)
        conn.rights, conn.held = rights, held
        self._rooms.setdefault(table.code, set()).add(conn)
        self._present(table)
        if conn.seat is not None:
            s = table.seats[conn.seat]
            if s.stand_in and table.status == "playing":  # the player is back: the bot leaves
                before = s.data()
                self._seat_back(table, s)
                self._soon(self._save_back(table, before))
        table.touch()
        self.scheduler.wake(table)
        self.broadcast(table)
        self._rehost_soon(table)

    async def _save_back(self, table: Table, before: SeatData) -> None:
        """Store that the player of the seat that was ``before`` took it back from the stand-in
        bot, and say so; if another process changed the seat first (a resignation), what it
        stored stands, and this process catches up."""
        after = replace(before, bot=None, stand_in=False, timeouts=0)
        async with table.lock:
            if await self.registry.change_seat(table, SeatChange(before, after, "playing")):
                self.cluster.publish({"k": "table", "t": table.code, "reset": before.seat})
            else:
                await self._sync(table, force=True)

    def _seat_back(self, table: Table, s: Seat) -> None:
        """The player of ``s`` plays it again: the stand-in bot leaves, the clock starts afresh."""
        s.bot, s.stand_in, s.timeouts = None, False, 0
        if table.turn is not None and table.turn.seat == s.seat:
            table.turn = None  # a turn the bot was playing: the player gets a whole one

    async def take_back(self, table: Table, conn: Connection) -> None:
        """A player takes back the seat a bot kept for them (their clock ran out twice)."""
        seat = conn.rights.seat_to_move()
        async with table.lock:
            await self._sync(table)
            await self._change_seat(table, lambda: self._judge_back(table, seat))
            self._seat_back(table, table.seats[seat])
            self._changed(table, reset=seat)

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

    async def _timed_out(self, table: Table) -> None:
        """The scheduler's hook (the table's lock held): the clock of :attr:`Table.turn` ran out.

        The seat is marked away; after two such turns in a row a bot of the table's level keeps
        it until its player takes it back."""
        assert table.turn is not None
        s = table.seats[table.turn.seat]
        before = s.data()
        after = replace(before, timeouts=s.timeouts + 1)
        if after.timeouts >= 2 and s.kind == "human":
            after.bot, after.stand_in = table_level(table), True
        # Only if nobody changed the seat meanwhile (its player took it back or resigned
        # through another process): then what was stored stands.
        if not await self.registry.change_seat(table, SeatChange(before, after, "playing")):
            await self._sync(table, force=True)
            return
        s.timeouts, s.bot, s.stand_in = after.timeouts, after.bot, after.stand_in
        table.touch()
        self.broadcast(table)
        self.cluster.publish({"k": "table", "t": table.code, "out": s.seat})

    def detach(self, table: Table, conn: Connection) -> None:
        """The connection left the table."""
        room = self._rooms.get(table.code)
        if room is None or conn not in room:
            return
        room.discard(conn)
        if not room:
            del self._rooms[table.code]
        self._present(table)
        table.touch()
        self.broadcast(table)
        self._rehost_soon(table)

    # --- who is connected, across the processes ---------------------------------------------------

    def _present(self, table: Table) -> None:
        """This process's connections to ``table`` changed: count them again, and tell the
        other processes."""
        seats, spectators, hosts = self._recount(table)
        self.cluster.publish(
            {"k": "here", "t": table.code, "c": seats, "v": spectators, "o": hosts}
        )

    def _recount(self, table: Table) -> tuple[list[int], int, int]:
        """Set the table's connection counts (each seat's, the spectators', the host token's)
        from this process's connections and the other processes' last notices; return this
        process's. A seat whose last connection went away is away from now on."""
        seats = [0] * len(table.seats)
        spectators = hosts = 0
        for conn in self._rooms.get(table.code, ()):
            hosts += conn.rights.host
            if not conn.present:  # a pass-and-play device between turns still holds its seats
                spectators += 1
            for seat in conn.present:
                seats[seat] += 1
        mine = (list(seats), spectators, hosts)
        for counts, watching, holding in self._remote.get(table.code, {}).values():
            for i, n in enumerate(counts[: len(seats)]):
                seats[i] += n
            spectators += watching
            hosts += holding
        now = time.monotonic()
        for s, n in zip(table.seats, seats, strict=True):
            if s.connections > 0 and n == 0:
                s.left_at = now
            s.connections = n
        table.spectators, table.host_connections = spectators, hosts
        return mine

    def broadcast(self, table: Table) -> None:
        """Send every connection at the table its own view of it (and tell :attr:`watchers`)."""
        for watch in self.watchers:
            watch(table)
        for conn in list(self._rooms.get(table.code, ())):
            conn.send(protocol.state_payload(table, conn.seat, conn.rights.hosts(table)))

    # --- seats changed by the account service ----------------------------------------------------

    async def claim(self, table: Table, token: str, owner: Owner) -> tuple[int, str] | None:
        """The guest seat whose token is ``token`` becomes ``owner``'s account's: return the
        seat and its new token (``None``: the token holds no seat here, or the seat is another
        account's). Stored only if the seat is still the guest's (:meth:`.Store.change_seat`):
        of two claims at once exactly one account wins the seat, and a claim and a change of
        the seat (the host opening it again) do not both stand. A second claim of the same
        account at once gets the same seat and token if it was judged before the first was
        stored, else nothing (the guest token is spent; the seat is the account's all the
        same, as ``POST /api/account/seats/{code}`` says)."""
        async with table.lock:
            await self._sync(table)  # another process may have claimed or freed it
            seat = access.seat_of(table, token)
            if seat is None:
                return None
            new_token, token_hash = owner.seat_token(table.host_hash, seat)
            for _ in range(CHANGE_TRIES):
                s = table.seats[seat]
                if s.account_id == owner.account_id and s.token_hash == token_hash:
                    return seat, new_token  # this account's other claim won: the same seat
                if access.seat_of(table, token) != seat or s.account_id not in (
                    None,
                    owner.account_id,
                ):
                    return None  # another account claimed it, or the seat changed hands
                before = s.data()
                after = replace(before, token_hash=token_hash, account_id=owner.account_id)
                if await self.registry.change_seat(table, SeatChange(before, after, table.status)):
                    s.token_hash, s.account_id = token_hash, owner.account_id
                    table.touch()
                    self._changed(table)
                    return seat, new_token
                await self._sync(table, force=True)
        raise RequestError(
            "stale",
            N_("the table changed while this was decided; nothing was done: try again"),
            409,
        )

    async def seats_stored(self, codes: Iterable[str]) -> None:
        """Seats of these tables were changed in the database outside the hub (an account
        deleted): bring the copies in memory here up to it, show them, and tell the other
        processes (which read a table they do not hold from the database when asked)."""
        for code in codes:
            table = self.registry.tables.get(code)
            if table is None:
                self.cluster.publish({"k": "table", "t": code})
                continue
            async with table.lock:
                if await self.registry.catch_up(table):
                    self._changed(table)

    # --- nobody is indispensable ------------------------------------------------------------------

    async def _record(self, table: Table, event: Event) -> None:
        """Store ``event`` in the table's log (a failure is logged: the change itself stands)."""
        try:
            await self.registry.add_event(table, event)
        except Exception:
            log.exception("could not record %s at %s", event, table.code)
            table.events.append(event)

    async def _change_seat(self, table: Table, judge: Callable[[], SeatChange]) -> SeatChange:
        """Judge a change of a seat (``judge`` raises the refusal, or says what changes) on the
        table as this process holds it, and store it only if the database still holds the table
        so (:meth:`.Store.change_seat`: one transaction, the event with it). If another process
        changed it first, catch up and judge again: a request two processes receive at once
        is applied once, and the other is refused as it would be had it come second. Then make
        the change here. Call with the table's lock held; return the change."""
        for _ in range(CHANGE_TRIES):
            change = judge()
            if await self.registry.change_seat(table, change):
                s, after = table.seats[change.after.seat], change.after
                s.name, s.token_hash, s.account_id = after.name, after.token_hash, after.account_id
                s.bot, s.stand_in, s.timeouts = after.bot, after.stand_in, after.timeouts
                if change.result is not None:
                    table.status, table.result = "finished", change.result
                table.touch()
                return change
            await self._sync(table, force=True)
        raise RequestError(
            "stale",
            N_("the table changed while this was decided; nothing was done: try again"),
            409,
        )

    def _rehost_soon(self, table: Table) -> None:
        """Pass the host's rights on (or back) once the table's lock is free (the table's
        owner does it: one decision, one event, whichever process the players are on)."""
        if self.cluster.owns(table.code):
            self._soon(self._rehost(table))

    def _soon(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` on its own (kept referenced until it ends; a failure is logged)."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("table work failed", exc_info=task.exception())

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
            if table.behind:  # the event records the ply it happened at
                await self.registry.catch_up(table)
                seat = self.host_seat_for(table)
                if seat == table.host_seat:
                    return
            table.host_seat = seat
            await self._record(table, Event(table.version, "host", seat))
            table.touch()
            self.broadcast(table)
            self.cluster.publish({"k": "table", "t": table.code})

    async def resign(self, table: Table, conn: Connection) -> None:
        """A player resigns. Alone on a side of a two-sided game (no other person on the team),
        the game is lost: it ends and the other side wins. Otherwise (a partner plays on, or
        three sides) a bot of the table's level plays the seat to the end. Either way a
        ``resign`` event records it."""
        seat = conn.rights.seat_to_move()
        async with table.lock:
            await self._sync(table)
            change = await self._change_seat(table, lambda: self._judge_resign(table, seat))
            if change.result is not None:
                table.turn = None
                self._finished(table)
            elif table.turn is not None and table.turn.seat == seat:
                table.turn = None
            self._changed(table, reset=seat)
        self._rehost_soon(table)  # the rights of a player who resigned pass on

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

    # --- talk -----------------------------------------------------------------------------------

    def _speaker(self, table: Table, conn: Connection) -> str | None:
        return None if conn.seat is None else table.seats[conn.seat].name

    def react(self, table: Table, conn: Connection, reaction: Any) -> None:
        """A quick reaction (no game information in it) to everyone at the table."""
        said = talk.check_reaction(reaction)
        talk.pace(conn, "reaction", talk.REACTION_INTERVAL)
        self._say(table, "reaction", conn.seat, self._speaker(table, conn), said, "table")

    def chat(self, table: Table, conn: Connection, text: Any) -> None:
        """A chat message, to whoever may read it now (:func:`.talk.chat_audience`)."""
        said = talk.clean_text(text)
        audience = talk.chat_audience(table, conn)
        talk.pace(conn, "chat", talk.CHAT_INTERVAL)
        self._say(table, "chat", conn.seat, self._speaker(table, conn), said, audience)

    def _say(
        self,
        table: Table,
        kind: str,
        seat: int | None,
        name: str | None,
        said: str,
        audience: str,
        told: bool = False,
    ) -> None:
        """Send a reaction or a chat line to this process's connections at ``table`` that may
        hear it (``audience``: ``table``, or ``spectators`` only), and unless it was ``told``
        by another process, to the other processes."""
        payload = protocol.talk_payload(kind, seat, name, said)
        for other in list(self._rooms.get(table.code, ())):
            if audience == "table" or not other.present:  # players' devices hear no spectator
                other.send(payload)
        if not told:
            self.cluster.publish(
                {"k": "talk", "t": table.code, "w": kind, "s": seat, "n": name, "x": said,
                 "a": audience}
            )  # fmt: skip

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
            await self._ahead(table, version)
            if self._acked(table, conn, seat, mid):
                return
            self._current(table, version)
            await self._apply(table, move, seat, by_person=True, move_id=mid, ack=conn)

    async def _ahead(self, table: Table, version: Any) -> None:
        """A request made at a version this process has not reached (the client saw it through
        another process): catch up from the database before judging it."""
        if isinstance(version, int) and version > table.version:
            await self._sync(table)

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
            await self._apply(
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
        except MoveConflict:
            # Another process stored this ply (or this move id) first: what it stored is the
            # game. This move is a resend of that one, or stale.
            await self._sync(table, force=True)
            if move_id is not None and seat is not None and (seat, move_id) in table.move_ids:
                if ack is not None:
                    ply = table.move_ids[(seat, move_id)]
                    ack.send(protocol.ack_payload(move_id, ply, duplicate=True))
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
        self.cluster.publish(
            {"k": "move", "t": table.code, "n": len(trial.move_stack), "m": str(move),
             "s": seat, "i": move_id, "h": by_person, "e": trial.outcome is not None}
        )  # fmt: skip
        table.active = time.monotonic()
        outcome = trial.outcome
        if outcome is not None:
            table.status, table.result = "finished", outcome.result()
            table.touch()
            self._finished(table)
            self._soon(self._release(table))
        if by_person and seat is not None and table.seats[seat].timeouts:
            table.seats[seat].timeouts = 0  # back at the table
            table.touch()
            try:
                await self.registry.save_timeouts(table, table.seats[seat])
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
        """Stop the bots and clocks (storing what each clock has left), hand this process's
        tables to the others, and close every connection."""
        await self.scheduler.stop(list(self.registry.tables.values()))
        for room in self._rooms.values():
            for conn in list(room):
                conn.close()
        await self.cluster.stop()

    # --- the other processes ----------------------------------------------------------------------

    async def _created(self, table: Table) -> None:
        """A table made here: this process runs it, and the others learn of it (they load a
        public one, for their open-tables list; a private one when it is asked for)."""
        await self.cluster.claim([table.code])
        self.cluster.publish({"k": "new", "t": table.code, "pub": table.public})
        self.scheduler.wake(table)

    async def _release(self, table: Table) -> None:
        """The game is over: nobody runs the table any more."""
        if self.cluster.owns(table.code):
            await self.cluster.release(table.code)

    def _changed(self, table: Table, reset: int | None = None) -> None:
        """A change stored here (seats, status, events; not a move): wake the scheduler, show
        it, and tell the other processes (``reset``: the clock of that seat's turn starts
        afresh, as :meth:`_seat_back` and a resignation do)."""
        if table.status == "finished":  # a resignation ended it
            self._soon(self._release(table))
        self.scheduler.wake(table)
        self.broadcast(table)
        self.cluster.publish({"k": "table", "t": table.code, "reset": reset})

    async def _sync(self, table: Table, force: bool = False) -> None:
        """With other processes, bring ``table`` up to the database before a request is judged
        on it (only when ``force``: on one process, the database always agrees). Call with the
        table's lock held."""
        if not (self.cluster.shared or force):
            return
        if await self.registry.catch_up(table):
            self._after_catch_up(table)

    def _after_catch_up(self, table: Table, moved_only: bool = False) -> None:
        """Show a table this process brought up to another's change, and go on from it (a
        change of seats or events may pass the host's rights on; a move alone does not)."""
        table.active = time.monotonic()
        if table.status == "finished":
            self._soon(self._release(table))
        self.scheduler.wake(table)
        self.broadcast(table)
        if not moved_only:
            self._rehost_soon(table)

    def quiet(self, kind: str, code: str, end: bool) -> bool:
        """A notice of ``kind`` about ``code`` arrived (``end``: a move that ended the game):
        ``True`` if that is enough, and the notice need not be decoded (see :mod:`.cluster`).

        A move at a table this process does not need (no connection of its own there, no
        request on it under way, and not its owner, or the owner of a table without bots or a
        clock, which has nothing to run between moves) is not applied: the copy is marked
        :attr:`~.table.Table.behind` and caught up from the database when it is next asked for
        (:meth:`get`), or taken over (:meth:`adopted`); the open-tables list needs only what
        the copy knows already (a game in play, its seats, when it last moved), so a copy that
        does not know the game started is caught up as before. A copy whose
        game has just ended leaves memory (a finished table is read back when asked for), and a
        table not in memory stays out."""
        if kind != "move":
            return False
        table = self.registry.tables.get(code)
        owner = self.cluster.owns(code)
        if table is None:
            return not owner
        if code in self._rooms or table.lock.locked():
            return False
        if table.status != "playing":  # this copy missed the start: caught up now, as it was
            return False
        if owner and (end or table.clock is not None or any(s.bot for s in table.seats)):
            return False  # bots or a clock to run, or the table to let go of once it ended
        if end:
            del self.registry.tables[code]
        else:
            table.behind = True
            table.active = time.monotonic()
        return True

    def notice(self, notice: dict[str, Any]) -> None:
        """Another process published ``notice`` (see :mod:`.cluster`): apply it here."""
        kind, code, proc = notice.get("k"), notice.get("t"), str(notice.get("p"))
        if kind == "hi":  # a process started: tell it who is connected here
            for table_code in list(self._rooms):
                table = self.registry.tables.get(table_code)
                if table is not None:
                    self._present(table)
            return
        if not isinstance(code, str):
            return
        if kind == "here":
            counts, watching, holding = notice.get("c"), notice.get("v"), notice.get("o")
            if not isinstance(counts, list) or not isinstance(watching, int):
                return
            here = (counts, watching, int(holding or 0))
            if any(counts) or watching or holding:
                self._remote.setdefault(code, {})[proc] = here
            else:
                self._remote.get(code, {}).pop(proc, None)
                if not self._remote.get(code, True):
                    del self._remote[code]
            table = self.registry.tables.get(code)
            if table is not None:
                self._recount(table)
                table.touch()
                self.broadcast(table)
                self._rehost_soon(table)
            return
        if kind == "talk":
            table = self.registry.tables.get(code)
            seat, name, said = notice.get("s"), notice.get("n"), notice.get("x")
            if table is not None and isinstance(said, str):
                audience = "table" if notice.get("a") == "table" else "spectators"
                self._say(
                    table,
                    "chat" if notice.get("w") == "chat" else "reaction",
                    seat if isinstance(seat, int) else None,
                    name if isinstance(name, str) else None,
                    said,
                    audience,
                    told=True,
                )
            return
        if kind == "new" and notice.get("pub") is False and not self.cluster.owns(code):
            return  # a private table: read from the database when it is asked for
        if kind in ("move", "table", "new"):
            self._soon(self._apply_notice(code, notice))

    async def _apply_notice(self, code: str, notice: dict[str, Any]) -> None:
        """A move, or another change, stored by another process: bring this copy up to it."""
        table = self.registry.tables.get(code)
        if table is None:
            if notice["k"] != "new" and not self.cluster.owns(code):
                return  # not in memory here: it is read from the database when asked for
            table = await self.get(code)
            self._after_catch_up(table)
            return
        async with table.lock:
            ply = notice.get("n")
            if notice["k"] == "move" and isinstance(ply, int):
                if ply <= table.version:
                    return  # this process has it already (it caught up meanwhile)
                if ply == table.version + 1 and self._push_notice(table, notice):
                    self._after_catch_up(table, moved_only=True)
                    return
            changed = await self.registry.catch_up(table)
            turn = table.turn
            if turn is not None and turn.seat == notice.get("out"):
                turn.timed_out = True
                changed = True
            if turn is not None and turn.seat == notice.get("reset"):
                table.turn = None
                changed = True
            if changed:
                table.touch()
                self._after_catch_up(table)

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
            self._soon(self._adopt(code))

    async def _adopt(self, code: str) -> None:
        table = self.registry.tables.get(code)
        if table is None:  # read back, its clock as it was stored
            table = await self.get(code)
        else:
            async with table.lock:
                await self.registry.catch_up(table)
        self._after_catch_up(table)

    def peer_gone(self, proc: str) -> None:
        """Process ``proc`` died: its connections are gone."""
        for code in [c for c, procs in self._remote.items() if proc in procs]:
            del self._remote[code][proc]
            if not self._remote[code]:
                del self._remote[code]
            table = self.registry.tables.get(code)
            if table is not None:
                self._recount(table)
                table.touch()
                self.broadcast(table)
                self._rehost_soon(table)

    def resync(self) -> None:
        """Notices may have been lost: catch every table in memory up from the database."""
        for table in list(self.registry.tables.values()):
            if table.status != "finished":
                self._soon(self._resync(table))

    async def _resync(self, table: Table) -> None:
        async with table.lock:
            if await self.registry.catch_up(table):
                self._after_catch_up(table)
