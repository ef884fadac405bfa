"""Quick play: a queue of players waiting for a game, in the database, matched by rating.

A player asks for a game and a number of players and says how long they will wait. Each
request is a ticket (a row of ``quickplay_tickets``), so every server process sees the same
queue. Matching takes the pool's row lock (``quickplay_pools``, ``SELECT ... FOR UPDATE`` on
PostgreSQL; SQLite has a single writer) and, in that one transaction, seats a table's worth of
waiting players whose ratings are close (the window widens the longer they wait), creates the
table -- rated, with a clock -- and gives each ticket its seat. A ticket whose wait is over is
seated with whoever else waits in its pool and bots of the level nearest their ratings in the
other seats. A ticket nobody has asked after for :data:`STALE` seconds (the page was closed) is
dropped: bots never fill a table for nobody.

Every method is synchronous and runs on the store's database thread.
"""

from __future__ import annotations

import json
import random
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from ...bots.levels import LEVELS
from ...engine import Config, ConfigError, make_config
from ...i18n import N_
from ..common.errors import RequestError, engine_refusal
from ..storage.db import SeatRow, TableRow, hash_token, now
from ..storage.ratingdb import (
    PlayerRow,
    QueuePoolRow,
    RatedGameRow,
    RatingRow,
    TablePlayerRow,
    TicketRow,
)
from ..tables import access
from ..tables.registry import CODE_ALPHABET, CODE_LENGTH
from ..tables.scheduler import TIME_CONTROLS
from ..tables.table import TimeControl
from .players import Player
from .rating import Rating, family_of

WAITS = (10, 30, 60, 120)
"""The waits a player may choose, in seconds, before bots fill the table."""
WINDOW = 3.0
"""Players whose rating estimates (``mu``) are this close are matched at once..."""
WIDEN = 0.25
"""...and the window widens by this much a second that the first of them has waited."""


def _quick_clock() -> TimeControl:
    clock = TIME_CONTROLS["casual"]
    assert clock is not None
    return clock


QUICK_CLOCK = _quick_clock()
"""The clock of a quick-play table (a rated game has one): ``casual``, 2 minutes a turn."""
KEPT = 3600.0
"""Seconds a seated or cancelled ticket is kept (its holder may still ask after it)."""
STALE = 15.0
"""Seconds without a word from a ticket's holder after which the ticket is dropped."""


def _utc(at: datetime) -> datetime:
    """A stored time as UTC (SQLite gives back naive datetimes)."""
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


@dataclass(frozen=True)
class Pick:
    """What a ticket asks for."""

    config: Config
    clock: TimeControl

    @property
    def pool(self) -> str:
        """The pool's key: ``game:players:teams``."""
        return f"{self.config.game}:{self.config.players}:{self.config.teams}"

    @classmethod
    def of(cls, game: str, players: int) -> Pick:
        """A game of ``game`` for ``players`` (the usual teams), on the quick-play clock; the
        engine refuses what the game does not take."""
        try:
            config = make_config(game=game, players=players)
        except ConfigError as exc:
            raise engine_refusal("bad_message", exc) from None
        return cls(config, QUICK_CLOCK)

    @classmethod
    def from_pool(cls, key: str) -> Pick:
        """The pick of a pool's key."""
        game, players, teams = key.split(":")
        return cls(make_config(game=game, players=int(players), teams=int(teams)), QUICK_CLOCK)


class Matchmaker:
    """The quick-play queue in the database of ``engine``."""

    def __init__(self, engine: Engine, min_wait: float = WAITS[0]) -> None:
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        self.locking = engine.dialect.name != "sqlite"
        self.min_wait = min_wait
        """The shortest wait a player may choose (tests use less than :data:`WAITS`)."""

    def check_wait(self, wait: int) -> float:
        """The wait a player chose, if it is within what is offered (the page offers
        :data:`WAITS`)."""
        if not self.min_wait <= wait <= WAITS[-1]:
            raise RequestError(
                "bad_message",
                N_("wait is {low} to {high} seconds"),
                low=f"{self.min_wait:g}",
                high=WAITS[-1],
            )
        return float(wait)

    def enqueue(self, player: Player, name: str, pick: Pick, wait: float) -> str:
        """Put ``player`` in the queue for ``pick`` (their earlier waiting tickets are
        cancelled: one wait at a time); return the ticket's secret."""
        token, digest = access.new_token()
        family = family_of(pick.config)
        try:
            with self._sessions.begin() as session:
                session.add(QueuePoolRow(key=pick.pool))
        except IntegrityError:
            pass  # the pool's row exists: all it is for is being locked
        with self._sessions.begin() as session:
            for old in session.scalars(
                select(TicketRow).where(
                    TicketRow.player_id == player.id, TicketRow.status == "waiting"
                )
            ):
                old.status = "cancelled"
            rating = session.get(RatingRow, (player.id, family))
            mu = Rating().mu if rating is None else rating.mu
            at = now()
            session.add(TicketRow(pool=pick.pool, token_hash=digest, player_id=player.id,
                                  name=name, mu=mu, status="waiting", created_at=at,
                                  deadline=at + timedelta(seconds=wait), seen_at=at))  # fmt: skip
        return token

    def collect(self, token: str) -> dict[str, Any]:
        """Where a ticket stands, for its holder: the seat token of a seated ticket is given
        once and then forgotten (only its hash stays, with the seat)."""
        with self._sessions.begin() as session:
            row = session.scalars(
                select(TicketRow).where(TicketRow.token_hash == hash_token(token))
            ).one_or_none()
            if row is None:
                raise RequestError("bad_token", N_("unknown quick-play ticket"), 403)
            at = now()
            if row.status == "waiting":
                row.seen_at = at
            out: dict[str, Any] = {
                "status": row.status,
                "waited": round((at - _utc(row.created_at)).total_seconds(), 1),
                "left": max(0.0, round((_utc(row.deadline) - at).total_seconds(), 1)),
                "code": row.table_code,
                "seat": row.seat,
                "seat_token": row.seat_token,
            }
            row.seat_token = None
            return out

    def cancel(self, token: str) -> str:
        """Leave the queue (a seated ticket stays seated); return the ticket's status."""
        with self._sessions.begin() as session:
            query = select(TicketRow).where(TicketRow.token_hash == hash_token(token))
            row = session.scalars(query.with_for_update() if self.locking else query).one_or_none()
            if row is None:
                raise RequestError("bad_token", N_("unknown quick-play ticket"), 403)
            if row.status == "waiting":
                row.status = "cancelled"
            return row.status

    def pool_of(self, token: str) -> str:
        """The pool a ticket waits in (a refusal for an unknown ticket)."""
        with self._sessions() as session:
            pool = session.scalars(
                select(TicketRow.pool).where(TicketRow.token_hash == hash_token(token))
            ).one_or_none()
            if pool is None:
                raise RequestError("bad_token", N_("unknown quick-play ticket"), 403)
            return pool

    def match(self, pick: Pick) -> list[str]:
        """Seat whoever can be seated in ``pick``'s pool; return the codes of the new tables."""
        with self._sessions.begin() as session:
            query = select(QueuePoolRow).where(QueuePoolRow.key == pick.pool)
            if session.scalars(query.with_for_update() if self.locking else query).first() is None:
                return []
            at = now()
            waiting = list(
                session.scalars(
                    select(TicketRow)
                    .where(TicketRow.pool == pick.pool, TicketRow.status == "waiting")
                    .order_by(TicketRow.created_at, TicketRow.id)
                )
            )
            for t in waiting:
                if (at - _utc(t.seen_at)).total_seconds() > STALE:
                    t.status = "cancelled"
            # Tickets long over are no one's business any more (their seats are the tables').
            session.execute(
                delete(TicketRow).where(
                    TicketRow.pool == pick.pool,
                    TicketRow.status != "waiting",
                    TicketRow.created_at < at - timedelta(seconds=KEPT),
                )
            )
            waiting = [t for t in waiting if t.status == "waiting"]
            codes = []
            players = pick.config.players
            while waiting:
                group = self._close_group(waiting, players, at)
                if group is None:
                    first = waiting[0]
                    if _utc(first.deadline) > at:
                        break
                    others = sorted(waiting[1:], key=lambda t: abs(t.mu - first.mu))
                    group = [first, *others[: players - 1]]
                codes.append(self._seat(session, pick, group))
                waiting = [t for t in waiting if t not in group]
            return codes

    @staticmethod
    def _close_group(
        waiting: list[TicketRow], players: int, at: datetime
    ) -> list[TicketRow] | None:
        """A table's worth of waiting players close enough in rating, or ``None``."""
        for first in waiting:
            waited = (at - _utc(first.created_at)).total_seconds()
            window = WINDOW + WIDEN * waited
            near = sorted(
                (t for t in waiting if t is not first and abs(t.mu - first.mu) <= window),
                key=lambda t: abs(t.mu - first.mu),
            )
            if len(near) >= players - 1:
                return [first, *near[: players - 1]]
        return None

    def _seat(self, session: Session, pick: Pick, group: list[TicketRow]) -> str:
        """Create the rated table of ``group`` (and bots for the seats left) and seat them."""
        config, clock = pick.config, pick.clock
        family = family_of(config)
        level = self._bot_level(session, family, sum(t.mu for t in group) / len(group))
        seats = list(range(config.players))
        random.SystemRandom().shuffle(seats)
        code = self._new_code(session)
        table = TableRow(code=code, config=json.dumps(config.to_dict()), seed=secrets.randbits(62),
                         public=True, status="playing", host_hash=access.new_token()[1],
                         time_control=clock.name, turn_seconds=clock.turn,
                         reserve_seconds=clock.reserve, bot_level=level, rated=True,
                         started_at=now())  # fmt: skip
        taken = dict(zip(seats, group, strict=False))
        tokens: dict[int, str] = {}
        for seat in range(config.players):
            ticket = taken.get(seat)
            if ticket is None:
                table.seats.append(SeatRow(seat=seat, name=level, bot=level, reserve=clock.reserve))
            else:
                tokens[seat], digest = access.new_token()
                table.seats.append(SeatRow(seat=seat, name=ticket.name, token_hash=digest,
                                           reserve=clock.reserve))  # fmt: skip
        session.add(table)
        session.flush()
        session.add(RatedGameRow(table_id=table.id, family=family, applied=False))
        for seat, ticket in taken.items():
            session.add(TablePlayerRow(table_id=table.id, seat=seat, player_id=ticket.player_id))
            ticket.status, ticket.table_code, ticket.seat = "seated", code, seat
            ticket.seat_token = tokens[seat]
        return code

    @staticmethod
    def _bot_level(session: Session, family: str, mu: float) -> str:
        """The bot level whose rating in ``family`` is nearest ``mu`` (medium if none is)."""
        rows = session.execute(
            select(PlayerRow.bot, RatingRow.mu)
            .join(RatingRow, RatingRow.player_id == PlayerRow.id)
            .where(PlayerRow.kind == "bot", RatingRow.family == family)
        ).all()
        rated = [(abs(m - mu), str(b)) for b, m in rows if b in LEVELS]
        return min(rated)[1] if rated else "medium"

    @staticmethod
    def _new_code(session: Session) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if session.scalars(select(TableRow.id).where(TableRow.code == code)).first() is None:
                return code
