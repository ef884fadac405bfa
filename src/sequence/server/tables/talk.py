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
from .connection import Connection
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
