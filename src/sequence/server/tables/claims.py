"""Seats the account service changes: a guest's seat claimed by an account, seats of an account
deleted (:mod:`..accounts.api`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from ...i18n import N_
from ..accounts.account import Owner
from ..common.errors import RequestError
from . import access
from .core import CHANGE_TRIES, HubCore
from .store import SeatChange
from .table import Table


class SeatClaims:
    """A guest's seat becomes an account's; seats changed in the database outside the hub."""

    def __init__(self, core: HubCore) -> None:
        self.core = core

    async def claim(self, table: Table, token: str, owner: Owner) -> tuple[int, str] | None:
        """The guest seat whose token is ``token`` becomes ``owner``'s account's: return the
        seat and its new token (``None``: the token holds no seat here, or the seat is another
        account's). Stored only if the seat is still the guest's
        (:meth:`.store.TableStore.change_seat`): of two claims at once exactly one account wins
        the seat, and a claim and a change of the seat (the host opening it again) do not both
        stand. A second claim of the same account at once gets the same seat and token if it
        was judged before the first was stored, else nothing (the guest token is spent; the seat
        is the account's all the same, as ``POST /api/account/seats/{code}`` says)."""
        async with table.lock:
            await self.core.sync(table)  # another process may have claimed or freed it
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
                if await self.core.registry.change_seat(
                    table, SeatChange(before, after, table.status)
                ):
                    s.token_hash, s.account_id = token_hash, owner.account_id
                    table.touch()
                    self.core.changed(table)
                    return seat, new_token
                await self.core.sync(table, force=True)
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
            table = self.core.registry.tables.get(code)
            if table is None:
                self.core.cluster.publish({"k": "table", "t": code})
                continue
            async with table.lock:
                if await self.core.registry.catch_up(table):
                    self.core.changed(table)
