"""Reactions and chat: people at a table talk without table talk (RULES.md §2.6).

During play a seated player may send only a **reaction** from a fixed list (:data:`REACTIONS`),
which carries no game information: it names no card, space or plan. Free **chat** is open in the
lobby, after the game, and among spectators (a spectator's chat during play reaches only the
other spectators, never a player). A seated player's chat during play is refused with a reason:
in a team game it would be table talk, which the rules forbid. Nothing said is stored.

Both are paced per connection (:data:`REACTION_INTERVAL`, :data:`CHAT_INTERVAL`) on top of the
connection's own rate limit, so a reaction cannot be used to flood a table.
"""

from __future__ import annotations

import time
from typing import Any, Final

from ...i18n import N_
from ..common.errors import RequestError
from . import protocol
from .connection import Connection
from .core import HubCore
from .table import Table

REACTIONS: Final = ("good_game", "well_played", "hurry_up", "oops")
"""Every reaction a client may send, by id; the client shows each in the reader's language."""

CHAT_LENGTH: Final = 200
"""The longest chat message, in characters."""

REACTION_INTERVAL: Final = 2.0
"""Seconds between two reactions of one connection."""

CHAT_INTERVAL: Final = 1.0
"""Seconds between two chat messages of one connection."""


def check_reaction(reaction: Any) -> str:
    """``reaction`` if it is one of :data:`REACTIONS`; anything else is refused."""
    if not isinstance(reaction, str) or reaction not in REACTIONS:
        raise RequestError(
            "bad_message",
            N_("unknown reaction: choose good_game, well_played, hurry_up or oops"),
        )
    return reaction


def clean_text(text: Any) -> str:
    """A chat message: printable, trimmed, at most :data:`CHAT_LENGTH` characters, not empty."""
    if not isinstance(text, str):
        raise RequestError("bad_message", N_("a chat message is text"))
    shown = "".join(ch for ch in text if ch.isprintable()).strip()
    if not shown:
        raise RequestError("bad_message", N_("the message is empty"))
    if len(shown) > CHAT_LENGTH:
        raise RequestError(
            "bad_message", N_("a chat message is at most {n} characters"), n=CHAT_LENGTH
        )
    return shown


def is_team_game(table: Table) -> bool:
    """Whether some team has more than one seat (team-mates who could signal each other)."""
    teams = [table.config.team_of(s) for s in range(table.config.players)]
    return len(set(teams)) < len(teams)


def chat_audience(table: Table, conn: Connection) -> str:
    """Who a chat message from ``conn`` reaches now: ``"table"`` (everyone) or ``"spectators"``.

    A seated player's chat during play is refused: table talk in a team game (§2.6), and in
    any game until it is over (reactions stay open)."""
    if table.status != "playing":
        return "table"
    if not conn.present:  # a pass-and-play device between turns still holds its seats
        return "spectators"
    if is_team_game(table):
        raise RequestError(
            "table_talk",
            N_(
                "no chat during play: talking with your team-mate would be table talk"
                " (rules §2.6); send a reaction instead"
            ),
        )
    raise RequestError(
        "table_talk",
        N_("chat opens after the game; during play, send a reaction instead"),
    )


def pace(conn: Connection, kind: str, interval: float) -> None:
    """Refuse a ``kind`` message sent less than ``interval`` seconds after the last one."""
    now = time.monotonic()
    last = conn.paced.get(kind)
    if last is not None and now - last < interval:
        raise RequestError(
            "rate_limited",
            N_("too soon: wait {seconds} s between two of these; nothing was sent"),
            seconds=f"{interval:g}",
        )
    conn.paced[kind] = now


class TableTalk:
    """Reactions and chat passed to those at a table who may hear them, in every process."""

    def __init__(self, core: HubCore) -> None:
        self.core = core

    def _speaker(self, table: Table, conn: Connection) -> str | None:
        return None if conn.seat is None else table.seats[conn.seat].name

    def react(self, table: Table, conn: Connection, reaction: Any) -> None:
        """A quick reaction (no game information in it) to everyone at the table."""
        said = check_reaction(reaction)
        pace(conn, "reaction", REACTION_INTERVAL)
        self.say(table, "reaction", conn.seat, self._speaker(table, conn), said, "table")

    def chat(self, table: Table, conn: Connection, text: Any) -> None:
        """A chat message, to whoever may read it now (:func:`.chat_audience`)."""
        said = clean_text(text)
        audience = chat_audience(table, conn)
        pace(conn, "chat", CHAT_INTERVAL)
        self.say(table, "chat", conn.seat, self._speaker(table, conn), said, audience)

    def say(
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
        for other in list(self.core.rooms.get(table.code, ())):
            if audience == "table" or not other.present:  # players' devices hear no spectator
                other.send(payload)
        if not told:
            self.core.cluster.publish(
                {"k": "talk", "t": table.code, "w": kind, "s": seat, "n": name, "x": said,
                 "a": audience}
            )  # fmt: skip
