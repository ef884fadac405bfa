"""A live table: its settings, its seats, the game state, and how many are connected.

Plain data that the other parts of the server share: the registry (:mod:`.registry`) keeps the
tables and stores them, access rights (:mod:`.access`) read the seats' token hashes, the
scheduler (:mod:`.scheduler`) reads whose step it is, and :mod:`.protocol` turns a table into
what a client may see. A table does no I/O and knows neither connections nor bots' workers.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

from ...engine import Config, State
from ..common.clock import clock
from .store import SeatData

AWAY_SECONDS = 60.0
"""Seconds a person must have been disconnected before what they hold passes on: any seated
player may then hand their seat to a bot, and the host's rights (the host's, or a player's who
holds them) pass to a player who is here (``sequence serve --away-seconds``)."""


def away_wait(left_at: float, away_seconds: float, now: float) -> float:
    """Seconds still to wait before someone whose last connection went at ``left_at``
    (``time.monotonic``) has been away ``away_seconds`` (0: they have)."""
    return max(0.0, left_at + away_seconds - now)


@dataclass
class Seat:
    """A seat at a live table."""

    seat: int
    name: str | None = None
    token_hash: str | None = None
    """The SHA-256 of the seat's secret token (see :mod:`.access`); ``None``: nobody took it."""
    bot: str | None = None
    """The bot playing the seat (a name in ``sequence.bots.BOTS``)."""
    stand_in: bool = False
    """The bot only stands in for the seat's player, who takes the seat back by reconnecting."""
    connections: int = 0
    """Connections of the seat's player (0: away)."""
    reserve: float = 0.0
    """Seconds of the turn clock's reserve this seat has left (see :class:`TimeControl`)."""
    timeouts: int = 0
    """Turns in a row the seat's clock ran out (a bot played them); 0 once the player moves."""
    account_id: int | None = None
    """The account whose player sits here (``None``: a guest or a bot); a signed-in player
    gets the seat's token on any device (:mod:`.accounts`)."""
    left_at: float = field(default_factory=time.monotonic)
    """When the seat's player last lost their last connection (``time.monotonic``): after
    :attr:`.core.HubCore.away_seconds` any seated player may hand the seat to a bot, and
    the host's rights this player holds pass on (:func:`away_wait`)."""

    @property
    def kind(self) -> str:
        """``bot``, ``human`` (someone took it) or ``empty``."""
        if self.bot:
            return "bot"
        return "human" if self.token_hash else "empty"

    def data(self) -> SeatData:
        """The seat as the store keeps it."""
        return SeatData(
            self.seat, self.name, self.token_hash, self.bot, self.stand_in, self.reserve,
            self.timeouts, self.account_id,
        )  # fmt: skip

    @property
    def away(self) -> bool:
        """The seat's player let their clock run out on their last turn."""
        return self.timeouts > 0


@dataclass(frozen=True)
class TimeControl:
    """A table's turn clock: each turn has :attr:`turn` seconds, and a seat may go over by its
    :attr:`reserve`, which is spent over the whole game and never refilled."""

    name: str
    """``casual``, ``quick``, or ``days1``, ``days2``, ``days3``, ``days7`` (``off`` is no clock
    at all: :attr:`Table.clock` is ``None``)."""
    turn: float
    """Seconds a turn."""
    reserve: float
    """Seconds each seat may spend beyond its turns, over the game."""

    @property
    def correspondence(self) -> bool:
        """Days a move (a correspondence table): for signed-in players only; the turn's
        deadline is kept across restarts, the time the server was down included, and the
        table's :attr:`Table.on_timeout` says what happens when it passes."""
        return self.name.startswith("days")


EVENT_KINDS = ("host", "bot", "resign", "timeout")
"""What a table's :class:`Event` may record."""


@dataclass(frozen=True)
class Event:
    """A change at a table that is not a move, recorded with the moves and shown to everyone.

    ``host``: the host's rights passed to ``seat``'s player (``None``: back to the host);
    ``bot``: ``by_seat``'s player (``None``: the host) handed ``seat``, away a while, to a bot
    (``detail``: its level); ``resign``: ``seat``'s player resigned, and ``detail`` says what
    followed (``lost``: the game ended, ``bot``: a bot plays the seat for its team);
    ``timeout``: ``seat``'s days ran out at a correspondence table, and ``detail`` says what
    followed, as the table chose (``lost`` or ``bot``)."""

    ply: int
    """The game's version when it happened (after that many moves; 0 in the lobby)."""
    kind: str
    seat: int | None = None
    by_seat: int | None = None
    detail: str | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "ply": self.ply,
            "kind": self.kind,
            "seat": self.seat,
            "by": self.by_seat,
            "detail": self.detail,
        }


@dataclass
class Turn:
    """The turn a seat's clock is running for."""

    seat: int
    left: float
    """Seconds the seat had when this turn (or the server) started: its turn plus its reserve."""
    started: float = field(default_factory=lambda: clock().monotonic())
    """When the clock started (the server clock's :meth:`~..common.clock.Clock.monotonic`)."""
    timed_out: bool = False
    """The time ran out: a bot of the table's level plays the rest of this turn."""

    def remaining(self, now: float | None = None) -> float:
        """Seconds left on this turn now (never below 0)."""
        return max(0.0, self.left - ((clock().monotonic() if now is None else now) - self.started))

    def deadline(self) -> float:
        """When this turn ends, as a Unix time by the server's clock."""
        return clock().time() + self.remaining()


@dataclass(eq=False)
class Table:
    """One table: settings, seats, the game state, who is watching."""

    id: int
    code: str
    config: Config
    seed: int
    public: bool
    status: str
    """``lobby``, ``playing`` or ``finished``."""
    host_hash: str
    seats: list[Seat]
    state: State | None = None
    clock: TimeControl | None = None
    """The turn clock (``None``: off)."""
    bot_level: str | None = None
    """The level of the bot that plays for a seat whose time ran out, who resigned in a team or
    was handed to a bot."""
    on_timeout: str | None = None
    """A correspondence table's choice when a seat's days run out: ``bot`` (a bot of the
    table's level plays the seat until its player takes it back) or ``lost`` (the seat's team
    loses); ``None`` for the other clocks (two turns run out in a row: a bot keeps the seat)."""
    turn: Turn | None = None
    """The person's turn the clock is running for (set by the scheduler)."""
    result: str | None = None
    rematch_code: str | None = None
    events: list[Event] = field(default_factory=list)
    """Every recorded :class:`Event`, oldest first."""
    move_ids: dict[tuple[int, str], int] = field(default_factory=dict)
    """The ply of every move a client gave an id, by (seat, id): a resend is not applied."""
    host_seat: int | None = None
    """The seat whose player holds the host's rights while nobody holding the host token is
    connected (``None``: the host's own)."""
    host_connections: int = 0
    """Connections holding the host token."""
    host_left_at: float = field(default_factory=time.monotonic)
    """When the last connection holding the host token went (``time.monotonic``; at first when
    the table was made or loaded): the host's rights pass on only :func:`away_wait` later."""
    spectators: int = 0
    """Connections that hold no seat (a pass-and-play device between turns holds its seats)."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held while a request changes the table (a move from its check to its broadcast)."""
    view_cache: dict[tuple[int, int | None], str] = field(default_factory=dict)
    """Views already encoded (without moves and log), by (version, seat): see
    :func:`.protocol.view_part_json`."""
    log_cache: tuple[list[str], list[str]] = field(default_factory=lambda: ([], []))
    """The moves whose log entries are already encoded, and those entries: see
    :func:`.protocol.log_entries`."""
    meta_cache: tuple[int, str] | None = None
    """The public facts already encoded, and the :attr:`meta_key` they were encoded at."""
    meta_rev: int = 0
    rated: bool = False
    """The result moves the players' ratings (:mod:`.ratings`)."""
    active: float = field(default_factory=time.monotonic)
    """When something last happened here (a seat, a connection, a move): orders the lists."""
    behind: bool = False
    """This process's copy may lack moves the others made (with several processes, a table
    that nobody here is connected to and that this process does not run is not kept up to
    date: :meth:`.notices.NoticeReader.quiet`); it is caught up from the database before it
    is used."""

    @property
    def version(self) -> int:
        """How many moves have been made: every event carries it, every move must name it."""
        return 0 if self.state is None else len(self.state.move_stack)

    @property
    def connected(self) -> int:
        """Connections to the table, players' and spectators'."""
        return self.spectators + sum(s.connections for s in self.seats)

    def attended(self, now: float) -> float:
        """When a person of the table (a seated player, or whoever holds the host's link) was
        last connected to it, in this process or another (``time.monotonic``): ``now`` while
        one is. A seat or host link nobody has held since this process loaded the table counts
        from then (:attr:`Seat.left_at`, :attr:`host_left_at`); a bot's seat never counts."""
        if self.host_connections or any(s.connections for s in self.seats):
            return now
        people = [s.left_at for s in self.seats if s.token_hash is not None]
        return max([self.host_left_at, *people])

    @property
    def meta_key(self) -> int:
        """Changes whenever the public facts may have (a :meth:`touch` or a move)."""
        return self.meta_rev * 1_000_003 + self.version

    def touch(self) -> None:
        """The public facts changed (a seat, a connection): rebuild them on the next send."""
        self.meta_rev += 1
        self.active = time.monotonic()
