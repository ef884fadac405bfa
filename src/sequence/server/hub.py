"""Live tables: the engine runs here and only here.

The :class:`Hub` holds every table in play, rebuilt from the store at start-up by replaying each
move log. Requests change a table under its lock: a move is checked by the engine (with the
sender's seat), committed to the database, and only then broadcast, each connection getting its
own :func:`~sequence.server.protocol.state_payload`. Bots choose in a worker pool (threads or
processes) from their seat's view; their move is applied on the event loop only if the table is
still at the version they saw.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from fastapi import WebSocket

from ..bots import BOTS, make_bot
from ..engine import (
    TEAM_LETTERS,
    Config,
    IllegalMoveError,
    InvalidNotationError,
    Move,
    MoveKind,
    State,
    View,
    config_from_dict,
)
from ..i18n import DEFAULT, N_, translator
from ..i18n.errors import translate_error
from . import protocol
from .db import hash_token, token_matches
from .protocol import Payload
from .store import SeatData, Store, TableData

log = logging.getLogger("sequence.server")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
NAME_LENGTH = 24
FINISHED_KEPT = 256
"""Finished tables kept in memory (for rematches and replays); the least recently used go first."""
FINISHED_GRACE = 60.0
"""Seconds a finished table stays in memory after its last use, whatever :data:`FINISHED_KEPT`."""
LOBBY_IDLE = 30 * 60.0
"""Seconds a lobby with nobody connected stays in the public list after its last change."""
LISTED = 100
"""At most this many lobbies, and this many games in play, in the public list (newest first)."""


class RequestError(Exception):
    """A refused request: ``code`` is one of :data:`protocol.ERROR_CODES`; nothing changed.

    ``message`` is an English catalogue msgid (marked with ``N_``) with ``{named}`` fields
    filled from ``params``; :meth:`text` gives it in a player's language. An ``engine`` error
    carries the engine's own English message, translated by
    :func:`sequence.i18n.errors.translate_error`. ``str(exc)`` is the English text (for logs).
    """

    def __init__(
        self, code: str, message: str, status: int = 400, /, *, engine: bool = False, **params: Any
    ) -> None:
        self.code = code
        self.msgid = message
        self.params = params
        self.engine = engine
        self.message = message.format(**params) if params else message
        self.status = status
        super().__init__(self.message)

    def text(self, lang: str | None) -> str:
        """The message in ``lang`` (English where the catalogue has no translation)."""
        if self.engine:
            return translate_error(self.message, lang)
        translated = translator(lang).gettext(self.msgid)
        return translated.format(**self.params) if self.params else translated


def no_seat(seat: object, players: int) -> RequestError:
    """A seat number the table does not have. Seats are numbered from 0 as everywhere in the API
    (paths, bodies, answers, messages); the range says so to a client that counted from 1."""
    return RequestError(
        "bad_message",
        N_("there is no seat {seat} at this table: its seats are 0 to {last}"),
        seat=seat,
        last=players - 1,
    )


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


@dataclass
class Seat:
    """A seat at a live table."""

    seat: int
    name: str | None = None
    token_hash: str | None = None
    bot: str | None = None
    stand_in: bool = False
    connections: int = 0

    @property
    def kind(self) -> str:
        """``bot``, ``human`` (someone took it) or ``empty``."""
        if self.bot:
            return "bot"
        return "human" if self.token_hash else "empty"

    def data(self) -> SeatData:
        return SeatData(self.seat, self.name, self.token_hash, self.bot, self.stand_in)


@dataclass
class Table:
    """One table: settings, seats, the game state, who is watching."""

    id: int
    code: str
    config: Config
    seed: int
    public: bool
    status: str
    host_hash: str
    seats: list[Seat]
    state: State | None = None
    result: str | None = None
    rematch_code: str | None = None
    conns: set[Connection] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task[None] | None = None
    view_cache: dict[tuple[int, int | None], str] = field(default_factory=dict)
    _meta: tuple[int, str] | None = None
    meta_rev: int = 0
    active: float = field(default_factory=time.monotonic)
    """When something last happened here (a seat, a connection, a move): orders the lists."""

    @property
    def version(self) -> int:
        """How many moves have been made: every event carries it, every move must name it."""
        return 0 if self.state is None else len(self.state.move_stack)

    @property
    def spectators(self) -> int:
        return sum(1 for c in self.conns if c.seat is None)

    def touch(self) -> None:
        """The public facts changed (a seat, a connection): rebuild them on the next send."""
        self.meta_rev += 1
        self.active = time.monotonic()

    def meta_json(self) -> str:
        key = self.meta_rev * 1_000_003 + self.version
        if self._meta is None or self._meta[0] != key:
            self._meta = (key, protocol.dumps(protocol.table_meta(self)))
        return self._meta[1]

    def seat_of(self, token: str | None) -> int | None:
        for s in self.seats:
            if token_matches(token, s.token_hash):
                return s.seat
        return None

    def needs_player(self) -> bool:
        return any(s.kind == "empty" for s in self.seats)


class Connection:
    """One WebSocket client. It can send only :class:`Payload` objects, through a queue."""

    QUEUE_LIMIT = 256

    def __init__(self, websocket: WebSocket, rate: float, burst: float) -> None:
        self.__ws = websocket
        self.headers = websocket.headers
        self.seat: int | None = None
        self.host = False
        self.lang: str = DEFAULT
        self.table: Table | None = None
        self._queue: asyncio.Queue[Payload | None] = asyncio.Queue()
        self._rate, self._burst = rate, burst
        self._tokens = burst
        self._stamp = time.monotonic()
        self._writer = asyncio.get_running_loop().create_task(self._write())
        self.closed = False

    def send(self, payload: Payload) -> None:
        """Queue a payload for this client (a client that falls far behind is dropped)."""
        if not isinstance(payload, Payload):
            raise TypeError("a connection sends only protocol payloads")
        if self.closed:
            return
        if self._queue.qsize() >= self.QUEUE_LIMIT:
            self.close()
            return
        self._queue.put_nowait(payload)

    def allow(self) -> bool:
        """Token bucket: may this client send another message now?"""
        t = time.monotonic()
        self._tokens = min(self._burst, self._tokens + (t - self._stamp) * self._rate)
        self._stamp = t
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        return False

    async def receive(self) -> str | bytes:
        """The next message's raw text (bytes for a binary frame)."""
        message = await self.__ws.receive()
        if message["type"] == "websocket.disconnect":
            raise ConnectionClosed
        if message.get("text") is not None:
            return str(message["text"])
        return bytes(message.get("bytes") or b"")

    async def _write(self) -> None:
        with contextlib.suppress(Exception):
            while True:
                payload = await self._queue.get()
                if payload is None:
                    break
                await self.__ws.send_text(payload.text)
        self.closed = True

    def close(self) -> None:
        self.closed = True
        self._queue.put_nowait(None)

    async def finish(self) -> None:
        """Flush what is queued and stop writing."""
        self._queue.put_nowait(None)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._writer, 5)


class ConnectionClosed(Exception):
    """The client went away."""


def _state_from(data: TableData, config: Config) -> State:
    state = State.new(config, data.seed)
    for text in data.moves:
        state.push(Move.parse(text))
    return state


class Hub:
    """Every live table, and the operations on them."""

    def __init__(
        self,
        store: Store,
        executor: Executor,
        bot_delay: float = 0.5,
        rate: float = 20.0,
        burst: float = 40.0,
    ) -> None:
        self.store = store
        self.executor = executor
        self.bot_delay = bot_delay
        self.rate, self.burst = rate, burst
        self.tables: dict[str, Table] = {}
        self._random = random.Random(secrets.randbits(64))
        self.on_error: Callable[[BaseException], None] | None = None

    # --- start-up ---------------------------------------------------------------------------------

    def _table_from(self, data: TableData) -> Table:
        config = config_from_dict(data.config)
        table = Table(
            id=data.id,
            code=data.code,
            config=config,
            seed=data.seed,
            public=data.public,
            status=data.status,
            host_hash=data.host_hash,
            seats=[Seat(s.seat, s.name, s.token_hash, s.bot, s.stand_in) for s in data.seats],
            result=data.result,
            rematch_code=data.rematch_code,
        )
        if data.status in ("playing", "finished"):
            table.state = _state_from(data, config)
        return table

    async def resume(self) -> int:
        """Load every table in the lobby or in play and let its bots go on; return how many."""
        for data in await self.store.run(self.store.load_active):
            try:
                table = self._table_from(data)
            except Exception:
                log.exception("table %s does not replay; left out", data.code)
                continue
            self.tables[table.code] = table
            self.kick_bots(table)
        return len(self.tables)

    async def get(self, code: str) -> Table:
        """A table by its code: live, or a finished one read from the database."""
        code = code.strip().upper()
        table = self.tables.get(code)
        if table is not None:
            if table.status == "finished":
                table.active = time.monotonic()  # recently used: kept in memory longer
            return table
        data = await self.store.run(self.store.load, code) if 0 < len(code) <= 16 else None
        if data is None:
            raise RequestError("unknown_table", N_("there is no table {code}"), 404, code=code)
        # Another request may have loaded it meanwhile: every request must share one table
        # object (its lock, its connections), finished or not, or two rematches could start.
        table = self.tables.get(code)
        if table is None:
            table = self._table_from(data)
            self.tables[table.code] = table
            self._forget_finished()
        return table

    def _forget_finished(self) -> None:
        """Drop the least recently used finished tables beyond :data:`FINISHED_KEPT` (never one
        someone is connected to or that is being changed); the database still has them."""
        # Never one used just now: a browser may be about to say hello to it.
        recent = time.monotonic() - FINISHED_GRACE
        idle = [
            t
            for t in self.tables.values()
            if t.status == "finished" and not t.conns and not t.lock.locked() and t.active < recent
        ]
        excess = len(idle) - FINISHED_KEPT
        if excess > 0:
            for t in sorted(idle, key=lambda t: t.active)[:excess]:
                del self.tables[t.code]

    # --- lobby ----------------------------------------------------------------------------------

    async def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.tables and not await self.store.run(self.store.code_taken, code):
                return code

    async def create(
        self,
        config: Config,
        bots: list[str | None],
        public: bool,
        name: str | None,
        seat: int | None,
    ) -> tuple[Table, str, str | None, int | None]:
        """Create a table; return it, the host token, and the creator's seat token and seat."""
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
        host_token = secrets.token_urlsafe(24)
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
            seat_token = secrets.token_urlsafe(24)
            seats[seat].token_hash = hash_token(seat_token)
            seats[seat].name = clean_name(name)
        data = TableData(
            id=0,
            code=await self._new_code(),
            config=config.to_dict(),
            seed=secrets.randbits(62),
            public=public,
            status="lobby",
            host_hash=hash_token(host_token),
            result=None,
            rematch_code=None,
            seats=[s.data() for s in seats],
            moves=[],
        )
        data.id = await self.store.run(self.store.create_table, data)
        table = self._table_from(data)
        self.tables[table.code] = table
        return table, host_token, seat_token, seat if seat_token else None

    async def join(self, table: Table, seat: int | None, name: Any) -> tuple[int, str]:
        """Take a seat in the lobby; return it and its secret token (``name`` is checked here)."""
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
            token = secrets.token_urlsafe(24)
            target.token_hash, target.name = hash_token(token), clean_name(name)
            await self.store.run(self.store.save_seat, table.id, target.data())
            table.touch()
            self.broadcast(table)
            return seat, token

    def check_host(self, table: Table, host_token: str | None) -> None:
        if not token_matches(host_token, table.host_hash):
            raise RequestError("not_host", N_("only the table's host may do this"), 403)

    async def set_bot(
        self, table: Table, seat: int, level: str | None, host_token: str | None
    ) -> None:
        """The host seats a bot, reopens a seat (lobby) or gives an absent player's seat to one."""
        self.check_host(table, host_token)
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
                target.name = target.bot
                target.token_hash = None
            else:
                if level is None:
                    raise RequestError("bad_message", N_("choose a bot level"))
                check_level(level)
                if target.kind == "human" and target.connections > 0:
                    raise RequestError(
                        "bad_message", N_("the player of seat {n} is here"), 409, n=seat
                    )
                target.stand_in = target.kind == "human" or target.stand_in
                target.bot = level
            await self.store.run(self.store.save_seat, table.id, target.data())
            table.touch()
            self.broadcast(table)
            self.kick_bots(table)

    async def start(self, table: Table, host_token: str | None) -> None:
        """Deal and begin, once every seat has a player or a bot."""
        self.check_host(table, host_token)
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
            await self.store.run(self.store.set_status, table.id, "playing")
            table.state = State.new(table.config, table.seed)
            table.status = "playing"
            table.touch()
            self.broadcast(table)
            self.kick_bots(table)

    async def rematch(self, table: Table, token: str | None) -> Table:
        """A new table with the same settings and the same people (their tokens still work)."""
        if table.seat_of(token) is None and not token_matches(token, table.host_hash):
            raise RequestError("not_seated", N_("only the players can ask for a rematch"), 403)
        async with table.lock:
            if table.status != "finished":
                raise RequestError("bad_message", N_("the game is still going"), 409)
            if table.rematch_code:
                return await self.get(table.rematch_code)
            data = TableData(
                id=0,
                code=await self._new_code(),
                config=table.config.to_dict(),
                seed=secrets.randbits(62),
                public=table.public,
                status="playing",
                host_hash=table.host_hash,
                result=None,
                rematch_code=None,
                seats=[
                    SeatData(s.seat, s.name, s.token_hash, None if s.stand_in else s.bot)
                    for s in table.seats
                ],
                moves=[],
            )
            data.id = await self.store.run(self.store.create_table, data)
            await self.store.run(self.store.set_status, data.id, "playing")
            new = self._table_from(data)
            self.tables[new.code] = new
            table.rematch_code = new.code
            await self.store.run(self.store.set_status, table.id, "finished", new.code)
            table.touch()
            self.broadcast(table)
            self.kick_bots(new)
            return new

    # --- connections ------------------------------------------------------------------------

    def attach(
        self, table: Table, conn: Connection, token: str | None, host_token: str | None
    ) -> None:
        """Seat a connection by its token (a spectator without one) and send it the state."""
        if token:
            seat = table.seat_of(token)
            if seat is None:
                raise RequestError(
                    "bad_token", N_("this seat token does not belong to this table"), 403
                )
            conn.seat = seat
        conn.host = token_matches(host_token, table.host_hash)
        conn.table = table
        table.conns.add(conn)
        if conn.seat is not None:
            s = table.seats[conn.seat]
            s.connections += 1
            if s.stand_in and table.status == "playing":
                s.bot, s.stand_in = None, False
                asyncio.get_running_loop().create_task(self._save_seat(table, s))
        table.touch()
        self.broadcast(table)

    async def _save_seat(self, table: Table, seat: Seat) -> None:
        await self.store.run(self.store.save_seat, table.id, seat.data())

    def detach(self, conn: Connection) -> None:
        table = conn.table
        if table is None or conn not in table.conns:
            return
        table.conns.discard(conn)
        if conn.seat is not None:
            table.seats[conn.seat].connections -= 1
        table.touch()
        self.broadcast(table)

    def broadcast(self, table: Table) -> None:
        """Send every connection at the table its own view of it."""
        for conn in list(table.conns):
            conn.send(protocol.state_payload(table, conn.seat, conn.host))

    # --- moves ------------------------------------------------------------------------------

    def _check_version(self, table: Table, version: Any) -> None:
        if table.state is None:
            raise RequestError("not_started", N_("the game has not started yet"))
        if table.state.is_over():
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

    async def play(self, conn: Connection, text: Any, version: Any) -> None:
        """A seated player's move."""
        table = conn.table
        assert table is not None
        if conn.seat is None:
            raise RequestError("not_seated", N_("spectators cannot move"))
        if not isinstance(text, str) or len(text) > 32:
            raise RequestError("bad_message", N_("a move is its notation, for example 5H@c3"))
        try:
            move = Move.parse(text)
        except InvalidNotationError as exc:
            raise RequestError("bad_message", str(exc), engine=True) from None
        if move.kind in (MoveKind.ROLL, MoveKind.PENALTY):
            raise RequestError("illegal", N_("dice are rolled and penalties imposed by the server"))
        async with table.lock:
            self._check_version(table, version)
            await self._apply(table, move, conn.seat)

    async def roll(self, conn: Connection, version: Any) -> None:
        """Sequence Dice: the player to act rolls (the server's seeded dice decide)."""
        table = conn.table
        assert table is not None
        if conn.seat is None:
            raise RequestError("not_seated", N_("spectators cannot roll"))
        async with table.lock:
            self._check_version(table, version)
            state = table.state
            assert state is not None
            if not state.is_chance():
                raise RequestError("illegal", N_("no dice to roll now"))
            if state.to_move != conn.seat:
                raise RequestError(
                    "illegal",
                    N_("it is not your turn (player {seat} is to act)"),
                    seat=state.to_move + 1,
                )
            await self._apply(table, state.sample_chance(), conn.seat)

    async def penalty(self, conn: Connection, team: Any, version: Any) -> None:
        """The host's table-talk penalty on a team."""
        table = conn.table
        assert table is not None
        if not conn.host:
            raise RequestError("not_host", N_("only the host may impose a penalty"))
        if not isinstance(team, str) or len(team) != 1 or team.upper() not in TEAM_LETTERS:
            raise RequestError("bad_message", N_("name the team by its letter, for example B"))
        async with table.lock:
            self._check_version(table, version)
            state = table.state
            assert state is not None
            index = TEAM_LETTERS.index(team.upper())
            reason = state.penalty_allowed(index)
            if reason:
                raise RequestError("illegal", str(reason), engine=True)
            await self._apply(table, Move.parse(f"penalty:{team.upper()}"), None)

    async def _apply(self, table: Table, move: Move, seat: int | None) -> None:
        """Check, store, then show. Call with the table's lock held and the version checked.

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
            raise RequestError("illegal", str(exc), engine=True) from None
        outcome = trial.outcome
        result = None if outcome is None else outcome.result()
        try:
            await self.store.append_move(
                table.id, len(trial.move_stack), str(move), seat, result, outcome is not None
            )
        except Exception:
            log.exception("could not store move %s at %s", move, table.code)
            raise RequestError(
                "unavailable", N_("the move could not be stored; try again"), 503
            ) from None
        table.state = trial
        table.active = time.monotonic()
        if outcome is not None:
            table.status, table.result = "finished", result
            table.touch()
        self.broadcast(table)
        self.kick_bots(table)

    # --- bots -------------------------------------------------------------------------------

    def _bot_to_act(self, table: Table) -> int | None:
        state = table.state
        if state is None or state.is_over() or table.status != "playing":
            return None
        for seat in state.pending_draws:
            if table.seats[seat].bot:
                return seat
        actor = state.to_move
        if table.seats[actor].bot:
            return actor
        return None

    def kick_bots(self, table: Table) -> None:
        """If a bot must act, start its turn (one bot task per table at a time)."""
        if table.bot_task is not None and not table.bot_task.done():
            return
        if self._bot_to_act(table) is None:
            return
        table.bot_task = asyncio.get_running_loop().create_task(self._bot_turn(table))

    async def _bot_turn(self, table: Table) -> None:
        try:
            seat = self._bot_to_act(table)
            state = table.state
            if seat is None or state is None:
                return
            version = table.version
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay * (0.5 + self._random.random()))
            if table.version != version or self._bot_to_act(table) != seat:
                return
            if state.is_chance():
                move = state.sample_chance()
            else:
                spec = table.seats[seat].bot
                assert spec is not None
                view = state.view(seat)
                loop = asyncio.get_running_loop()
                text = await loop.run_in_executor(
                    self.executor, choose_move, spec, self._random.randrange(1 << 62), view
                )
                move = Move.parse(text)
            async with table.lock:
                if table.version == version and self._bot_to_act(table) == seat:
                    await self._apply(table, move, seat)
        except RequestError as exc:
            log.error("bot at %s seat %s: %s", table.code, seat, exc.message)
        except Exception as exc:
            log.exception("bot turn failed at %s", table.code)
            if self.on_error:
                self.on_error(exc)
        finally:
            table.bot_task = None
        self.kick_bots(table)

    # --- lists ----------------------------------------------------------------------------------

    def open_tables(self) -> list[dict[str, Any]]:
        """Public tables: lobbies to join and games in play to watch, the most recent first.

        A lobby nobody is connected to drops out after :data:`LOBBY_IDLE` seconds, and each
        kind is cut at :data:`LISTED`, so a flood of new lobbies cannot hide the games in play.
        """
        now = time.monotonic()
        lobbies: list[Table] = []
        playing: list[Table] = []
        for t in self.tables.values():
            if not t.public:
                continue
            if t.status == "playing":
                playing.append(t)
            elif t.status == "lobby" and (t.conns or now - t.active < LOBBY_IDLE):
                lobbies.append(t)
        out = []
        for group in (lobbies, playing):
            group.sort(key=lambda t: -t.active)
            for t in group[:LISTED]:
                out.append(
                    {
                        "code": t.code,
                        "config": t.config.to_dict(),
                        "status": t.status,
                        "free": [s.seat for s in t.seats if s.kind == "empty"],
                        "players": [s.name for s in t.seats],
                        "spectators": t.spectators,
                    }
                )
        return out

    async def shutdown(self) -> None:
        """Stop the bots and close every connection."""
        for t in self.tables.values():
            if t.bot_task:
                t.bot_task.cancel()
            for c in list(t.conns):
                c.close()


def clean_name(name: Any) -> str:
    """A player's display name: trimmed, printable, at most :data:`NAME_LENGTH` characters."""
    if not isinstance(name, str):
        raise RequestError("bad_message", N_("a name is text"))
    shown = "".join(ch for ch in name if ch.isprintable()).strip()[:NAME_LENGTH]
    if not shown:
        raise RequestError("bad_message", N_("choose a name"))
    return shown
