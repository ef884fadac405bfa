"""Rated play in a running server: what the HTTP routes and the hub ask of ratings, players and
quick play, each query on the store's database thread.

- creating a rated table checks it (:func:`.ratings.check_rated`) and records its family;
- a seat taken with a player token (or, at a rated table, that must be) is recorded as that
  player's;
- a game's end (:attr:`.hub.Hub.on_finish`) moves the ratings once; a start-up catches up on
  games that ended while no process could;
- quick play's queue (:mod:`.matchmaking`) seats players; this process runs each new table
  (:meth:`.hub.Hub.load_new`) and tells the other server processes of it.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from ...engine import Config
from ...i18n import N_
from ..accounts.account import Owner
from ..common.errors import RequestError
from ..tables.hub import Hub
from ..tables.seating import clean_name
from ..tables.table import Table, TimeControl
from .matchmaking import Matchmaker, Pick
from .players import Player, PlayerBook, load_calibration
from .rating import check_rated, check_rated_bot, family_of

log = logging.getLogger("sequence.server")


class Ranked:
    """Ratings and quick play beside the hub."""

    def __init__(self, hub: Hub, min_wait: float = 10.0) -> None:
        self.hub = hub
        self.store = hub.registry.store
        self.book = PlayerBook(self.store.engine)
        self.queue = Matchmaker(self.store.engine, min_wait=min_wait)
        self._tasks: set[asyncio.Task[None]] = set()
        hub.on_finish = self._finished

    async def start(self) -> None:
        """Seed the bots' ratings (where they have none) and rate the games that ended while
        their ratings could not be moved."""
        given = await self.store.run(self.book.seed_bots, load_calibration())
        if given:
            log.info("seeded %d bot ratings from the calibration", given)
        for table_id in await self.store.run(self.book.unapplied):
            await self.store.run(self.book.apply, table_id)

    # --- players -----------------------------------------------------------------------------

    async def player(self, token: str | None, owner: Owner | None = None) -> Player | None:
        """Who plays: a signed-in account's player (taking over the guest player of ``token``
        the first time), else the guest of a player token (``None`` without one; a refusal for
        an unknown one)."""
        if owner is not None:
            return await self.store.run(self.book.for_account, owner.account_id, owner.name, token)
        if token is None:
            return None
        return await self.store.run(self.book.require, token)

    async def new_guest(self, name: Any) -> tuple[Player, str]:
        """A new guest player; return it and its secret token."""
        return await self.store.run(self.book.new_guest, clean_name(name))

    # --- tables ------------------------------------------------------------------------------

    @staticmethod
    def check_create(
        rated: bool,
        config: Config,
        clock: TimeControl | None,
        bots: list[str | None],
        bot_level: str | None,
        player: Player | None,
        sits: bool,
        local: bool = False,
    ) -> None:
        """Refuse a rated table that may not be one (see :func:`.ratings.check_rated`), or
        whose creator's device takes more seats (``local``: pass-and-play)."""
        if not rated:
            return
        if local:
            raise _no_local()
        check_rated(config, clock, bots)
        check_rated_bot(bot_level)
        if sits and player is None:
            raise _needs_player()

    async def created(self, table: Table, seat: int | None, player: Player | None) -> None:
        """Record a new table's family (rated) and its creator's seat (with a player)."""
        if table.rated:
            await self.store.run(self.book.mark_rated, table.id, family_of(table.config))
        if seat is not None and player is not None:
            await self.store.run(self.book.seat, table.id, seat, player.id)

    async def check_join(self, table: Table, player: Player | None, local: bool = False) -> None:
        """A rated table seats players (each once, each on their own device: no ``local``
        pass-and-play seats)."""
        if not table.rated:
            return
        if local:
            raise _no_local()
        if player is None:
            raise _needs_player()
        seated = await self.store.run(self.book.seated, table.id)
        holding = {pid for seat, pid in seated.items() if table.seats[seat].kind == "human"}
        if player.id in holding:
            raise RequestError(
                "bad_message", N_("you already have a seat at this rated table"), 409
            )

    async def joined(self, table: Table, seat: int, player: Player | None) -> None:
        """Record that ``player`` took ``seat``."""
        if player is not None:
            await self.store.run(self.book.seat, table.id, seat, player.id)

    async def rematched(self, old: Table, new: Table) -> None:
        """A rematch of a rated game is rated too, with the same players in the same seats."""
        if new.rated:
            await self.store.run(self.book.mark_rated, new.id, family_of(new.config))
        await self.store.run(self.book.copy_seats, old.id, new.id)

    def _finished(self, table: Table) -> None:
        """The hub's hook: a game ended and its result is stored."""
        if not table.rated:
            return
        task = asyncio.get_running_loop().create_task(self._apply(table))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _apply(self, table: Table) -> None:
        try:
            await self.store.run(self.book.apply, table.id)
        except Exception:  # the next start-up catches up on it
            log.exception("could not rate %s", table.code)

    # --- quick play --------------------------------------------------------------------------

    async def enqueue(self, player: Player, name: str, pick: Pick, wait: float) -> str:
        """Queue ``player`` for ``pick`` and seat whoever can be; return the ticket's secret."""
        ticket = await self.store.run(self.queue.enqueue, player, name, pick, wait)
        await self.match(pick)
        return ticket

    async def status(self, ticket: str) -> dict[str, Any]:
        """Seat whoever can be in the ticket's pool, then say where the ticket stands."""
        pool = await self.store.run(self.queue.pool_of, ticket)
        await self.match(Pick.from_pool(pool))
        return await self.store.run(self.queue.collect, ticket)

    async def match(self, pick: Pick) -> None:
        """Run the pool's matching; load each new table and let its bots and clock go (in this
        process, which tells the others of it, as for a table created through the hub)."""
        for code in await self.store.run(self.queue.match, pick):
            await self.hub.load_new(code)


def _no_local() -> RequestError:
    """Pass-and-play seats have no player of their own, so nobody's rating could move."""
    return RequestError("bad_message", N_("a rated table seats each player on their own device"))


def _needs_player() -> RequestError:
    return RequestError(
        "bad_message",
        N_("a rated table seats players: send your player_token (POST /api/players gives one)"),
    )
