"""Access rights: who may do what at a table.

Three kinds of people reach a table. A *player* holds the secret token of a seat, given when
they take it; the *host* holds the table's host token, given to whoever created it (who may
also play); a *spectator* holds neither and may only watch. Tokens work from any network and
only their SHA-256 is stored (:func:`.db.hash_token`). Every check of a token and every "may
this client do that" of the server is here; the engine then decides whether the move itself is
legal for the seat.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from ...i18n import N_
from ..common.errors import RequestError
from ..storage.db import hash_token, token_matches
from .table import Table

MAX_SEATS = 12
"""The most seats a table has (and so a device may hold)."""


def new_token() -> tuple[str, str]:
    """A fresh secret token and the hash that is stored in its place."""
    token = secrets.token_urlsafe(24)
    return token, hash_token(token)


def seat_of(table: Table, token: str | None) -> int | None:
    """The seat whose token ``token`` is, if any."""
    for s in table.seats:
        if token_matches(token, s.token_hash):
            return s.seat
    return None


def held_seats(table: Table, tokens: object, shown: int | None) -> tuple[int, ...]:
    """The seats whose ``tokens`` a pass-and-play device holds besides ``shown``, the seat it
    plays now. They make their seats present, and give no other right: the connection sees and
    acts only for ``shown``. A token of another table is refused."""
    if not isinstance(tokens, list | tuple) or len(tokens) > MAX_SEATS:
        raise RequestError("bad_message", N_("local is a list of at most 12 seat tokens"))
    seats: list[int] = []
    for token in tokens:
        if not isinstance(token, str):
            raise RequestError("bad_message", N_("tokens are text"))
        seat = seat_of(table, token)
        if seat is None:
            raise RequestError(
                "bad_token", N_("this seat token does not belong to this table"), 403
            )
        if seat != shown and seat not in seats:
            seats.append(seat)
    return tuple(seats)


def is_host(table: Table, host_token: str | None) -> bool:
    return token_matches(host_token, table.host_hash)


def acting_host(table: Table, token: str | None) -> bool:
    """Whether ``token`` gives the host's rights now: the host token, or the seat token of the
    player the rights passed to while the host is away (:attr:`Table.host_seat`)."""
    if is_host(table, token):
        return True
    return table.host_seat is not None and seat_of(table, token) == table.host_seat


def require_host(table: Table, host_token: str | None) -> None:
    """Only the host (or the player holding the host's rights) starts a game and seats bots."""
    if not acting_host(table, host_token):
        raise RequestError("not_host", N_("only the table's host may do this"), 403)


def require_player(table: Table, token: str | None) -> int:
    """The seat whose token ``token`` is; anybody else is refused."""
    seat = seat_of(table, token)
    if seat is None:
        raise RequestError("not_seated", N_("only a seated player may do this"), 403)
    return seat


def require_player_or_host(table: Table, token: str | None) -> None:
    """A rematch is for the people of the table: a seat's player or the host."""
    if seat_of(table, token) is None and not is_host(table, token):
        raise RequestError("not_seated", N_("only the players can ask for a rematch"), 403)


@dataclass(frozen=True, slots=True)
class Rights:
    """What one connection may do at its table: act for ``seat`` (``None``: only watch) and, with
    ``host``, act as the table's host."""

    seat: int | None = None
    host: bool = False

    @classmethod
    def of(cls, table: Table, token: str | None, host_token: str | None) -> Rights:
        """The rights a connection's tokens give it (no seat token: a spectator, or the host
        watching); a seat token of another table is refused rather than taken for a spectator."""
        seat = None
        if token:
            seat = seat_of(table, token)
            if seat is None:
                raise RequestError(
                    "bad_token", N_("this seat token does not belong to this table"), 403
                )
        return cls(seat, is_host(table, host_token))

    def seat_to_move(self) -> int:
        """The seat this connection moves for; a spectator cannot move."""
        if self.seat is None:
            raise RequestError("not_seated", N_("spectators cannot move"))
        return self.seat

    def seat_to_roll(self) -> int:
        """The seat this connection rolls for; a spectator cannot roll."""
        if self.seat is None:
            raise RequestError("not_seated", N_("spectators cannot roll"))
        return self.seat

    def hosts(self, table: Table) -> bool:
        """Whether this connection holds the host's rights now (see :func:`acting_host`)."""
        return self.host or (self.seat is not None and self.seat == table.host_seat)

    def check_penalty(self, table: Table | None = None) -> None:
        """The table-talk penalty is the host's to impose (or, at ``table``, the player's who
        holds the host's rights)."""
        if not (self.host if table is None else self.hosts(table)):
            raise RequestError("not_host", N_("only the host may impose a penalty"))


SPECTATOR = Rights()
"""A connection that has said nothing yet, or holds no token: it may only watch."""
