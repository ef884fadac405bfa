"""The lobby and its seats: a table made, seats taken, bots seated, the start, the rematch.

Every change of a seat is judged on the table as this process holds it and stored only if the
database still holds it so (:meth:`.core.HubCore.change_seat`); taking seats and the start are
conditional writes too, so of two processes seating two people, or starting, at once exactly
one wins and the other is refused with the reason.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ...engine import Config, State
from ...i18n import N_
from ..accounts.account import Owner
from ..common.errors import RequestError, no_seat
from ..ratings.rating import check_rated_bot
from . import access
from .core import HubCore
from .scheduler import check_level, table_level
from .store import EventData, SeatChange, SeatData
from .table import Seat, Table, TimeControl, away_wait

NAME_LENGTH = 24


def clean_name(name: Any) -> str:
    """A player's display name: trimmed and printable; refused if empty or over
    :data:`NAME_LENGTH` characters."""
    if not isinstance(name, str):
        raise RequestError("bad_message", N_("a name is text"))
    shown = "".join(ch for ch in name if ch.isprintable()).strip()
    if not shown:
        raise RequestError("bad_message", N_("choose a name"))
    if len(shown) > NAME_LENGTH:  # refused, not cut: the player chooses what is shown
        raise RequestError(
            "bad_message", N_("a name is at most {limit} characters"), limit=NAME_LENGTH
        )
    return shown


def seat_bots(bots: Sequence[str | None] | None, players: int) -> list[str | None]:
    """A new table's ``bots``, one entry per seat in seat order (a bot level, or ``None`` for a
    seat left open); ``None`` for the whole list leaves every seat open.

    A list of another length is refused: ``["hard"]`` at a table of two could mean a bot at
    either seat, and guessing would seat someone where nobody asked (a 422: the request's model
    has already refused a level the server does not offer)."""
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


def correspondence_seats(owner: Owner | None, local: Sequence[tuple[Any, Any]]) -> None:
    """Refuse a seat at a correspondence table (days a move) that would not be a signed-in
    player's own: a guest's (``owner`` ``None``: not signed in, or a second seat of one
    account) or pass-and-play seats (``local``)."""
    if owner is None:
        raise RequestError(
            "signed_out",
            N_("tables with days a move are for signed-in players, one seat each: sign in first"),
            401,
        )
    if local:
        raise RequestError(
            "bad_message", N_("tables with days a move have no seats on this device")
        )


class Seating:
    """A table from its creation to its start, and its rematch."""

    def __init__(self, core: HubCore) -> None:
        self.core = core

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
        on_timeout: str | None = None,
    ) -> tuple[Table, str, str | None, int | None, list[tuple[int, str]]]:
        """Create a table; return it, the host token, the creator's seat token and seat, and
        the seat and token of each seat in ``local``.

        ``bots``: a bot level or ``None`` (open) for every seat, in seat order (:func:`seat_bots`).

        ``clock`` is the turn clock (``None``: off); ``bot_level`` the bot that plays for a seat
        whose time ran out. ``local`` holds more (seat, name) pairs the creator's device takes
        for pass-and-play: every one is checked before any is taken. ``owner`` is the signed-in
        creator, whose account the creator's seat is (the ``local`` seats are guests').
        ``rated``: the result moves the players' ratings (:class:`.ranked.Ranked` checked it).
        ``on_timeout``: a correspondence table's choice when a seat's days run out
        (:func:`.scheduler.check_on_timeout` checked it)."""
        if bot_level is not None:
            check_level(bot_level)
        if clock is not None and clock.correspondence and name is not None:
            correspondence_seats(owner, local)
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
        table = await self.core.registry.create(
            config, [s.data() for s in seats], public, host_hash, "lobby", clock, bot_level, rated,
            on_timeout,
        )  # fmt: skip
        await self.core.created(table)
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
            await self.core.sync(table)
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
            if table.clock is not None and table.clock.correspondence:
                correspondence_seats(owner, local)
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
            if not await self.core.registry.take_seats(table, data):
                await self.core.sync(table, force=True)
                raise RequestError("bad_message", taken, 409, n=seat)
            for (n, shown), (_, _, token_hash, account_id) in zip(claims, tokens, strict=True):
                target = table.seats[n]
                target.name, target.token_hash, target.account_id = shown, token_hash, account_id
            table.touch()
            self.core.changed(table)
            return seat, tokens[0][1], [(n, token) for n, token, _, _ in tokens[1:]]

    async def set_bot(self, table: Table, seat: int, level: str | None, token: str | None) -> None:
        """The host seats a bot, reopens a seat (lobby) or gives an absent player's seat to one;
        in play, any seated player may also hand a seat whose player has been away for
        :attr:`.core.HubCore.away_seconds` to a bot (a recorded ``bot`` event)."""
        host = access.acting_host(table, token)
        by_seat = access.seat_of(table, token)
        if not host and (table.status != "playing" or by_seat is None):
            access.require_host(table, token)
        async with table.lock:
            await self.core.sync(table)
            await self.core.change_seat(
                table, lambda: self._judge_bot(table, seat, level, host, by_seat)
            )
            self.core.changed(table)

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
        days = table.clock is not None and table.clock.correspondence
        if table.status == "playing" and target.kind == "human" and days:
            # Away is how a game over days is played: only the days running out hand it on.
            raise RequestError(
                "bad_message",
                N_("at a table with days a move, a seat goes to a bot only when its days run out"),
                409,
            )
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
        now = time.monotonic()
        wait = away_wait(target.left_at, self.core.away_seconds, now)
        if not host and target.kind == "human" and wait > 0:
            raise RequestError(
                "bad_message",
                N_("the player of seat {n} left only {gone} s ago: wait {wait} s more"),
                409,
                n=seat,
                gone=int(now - target.left_at),
                wait=int(wait) + 1,
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
            await self.core.sync(table)
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
            if not await self.core.registry.begin(table):  # another process started it first
                await self.core.sync(table, force=True)
                raise started
            table.state = State.new(table.config, table.seed)
            table.status = "playing"
            table.touch()
            self.core.changed(table)

    async def rematch(self, table: Table, token: str | None) -> Table:
        """A new table with the same settings and the same people (their tokens still work)."""
        access.require_player_or_host(table, token)
        async with table.lock:
            await self.core.sync(table)
            if table.status != "finished":
                raise RequestError("bad_message", N_("the game is still going"), 409)
            if table.rematch_code:
                return await self.core.registry.get(table.rematch_code)
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
            new = await self.core.registry.create(
                table.config,
                seats,
                table.public,
                table.host_hash,
                "playing",
                table.clock,
                table.bot_level,
                table.rated,
                table.on_timeout,
            )
            code = await self.core.registry.set_rematch(table, new)
            if code != new.code:  # another process made the rematch first: that one it is
                await self.core.sync(table, force=True)
                return await self.core.get(code)
            table.rematch_code = new.code
            table.touch()
            await self.core.created(new)
            self.core.changed(table)
            return new
