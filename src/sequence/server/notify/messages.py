"""What a notification says: a :class:`Notice` (what happened) and its words in a language.

A notice holds only public facts -- a table's code, a friend's name, a game's result from the
player's side -- and never a table's state, so no notification can carry a card of anyone's
hand (``tests/server/test_notify.py`` checks every one sent in a played game against the hands).
Several notices waiting for one player become one message (:func:`render`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...i18n import N_, Nn_, translator

KINDS = ("turn", "invite", "end", "timeout")


@dataclass(frozen=True)
class Notice:
    """One thing to tell a player who is away from the page."""

    kind: str
    """``turn`` (your turn at :attr:`code`), ``invite`` (:attr:`name` challenged you),
    ``end`` (the game at :attr:`code` ended: :attr:`outcome`), ``timeout`` (your days ran out
    at :attr:`code`; :attr:`outcome` says what followed: ``bot`` or ``lost``)."""
    key: str
    """Sent once per account and key (``turn:CODE:PLY``, ``end:CODE``, ``invite:ID``)."""
    code: str | None = None
    name: str | None = None
    outcome: str | None = None
    """``end``: ``won``, ``lost`` or ``draw``; ``timeout``: ``bot`` or ``lost``."""
    seat: int | None = None
    """``turn``: the seat whose turn it is (a "your turn" is dropped once it is not)."""
    turn: int | None = None
    """``turn``: the game's count of turns completed when it became the seat's turn."""


@dataclass(frozen=True)
class Message:
    """A notification in words: its title, its text, and the page it opens."""

    title: str
    text: str
    path: str
    """Where on the site it leads: a table (``/t/CODE``), the friends page (``/friends``) for
    a challenge, or "my games" (``/games``) for several tables."""


_ENDS = {
    "won": N_("The game at table {code} is over: you won."),
    "lost": N_("The game at table {code} is over: you lost."),
    "draw": N_("The game at table {code} is over: a draw."),
}
_TIMEOUTS = {
    "bot": N_("Your time ran out at table {code}: a bot plays for you until you are back."),
    "lost": N_("Your time ran out at table {code}: the game is lost."),
}
_TURNS = Nn_("It is your turn at {n} table.", "It is your turn at {n} tables.")


def line(notice: Notice, lang: str) -> str:
    """One notice in words."""
    _ = translator(lang).gettext
    if notice.kind == "turn":
        return _("It is your turn at table {code}.").format(code=notice.code)
    if notice.kind == "invite":
        return _("{name} challenges you to a game.").format(name=notice.name)
    if notice.kind == "timeout":
        return _(_TIMEOUTS[notice.outcome or "bot"]).format(code=notice.code)
    return _(_ENDS[notice.outcome or "draw"]).format(code=notice.code)


def render(notices: list[Notice], lang: str) -> Message:
    """The notices waiting for one player as one message: a single one as it is, several turns
    counted ("your turn at 3 tables"), and every other one on its own line."""
    tr = translator(lang)
    turns = [n for n in notices if n.kind == "turn"]
    others = [n for n in notices if n.kind != "turn"]
    lines = [line(n, lang) for n in others]
    if len(turns) == 1:
        lines.insert(0, line(turns[0], lang))
    elif turns:
        lines.insert(0, tr.ngettext(*_TURNS, len(turns)).format(n=len(turns)))
    if len(notices) == 1:
        only = notices[0]
        path = "/friends" if only.kind == "invite" else f"/t/{only.code}"
    else:  # "my games": every table, the player's turn first
        path = "/friends" if all(n.kind == "invite" for n in notices) else "/games"
    return Message(tr.gettext("Sequence"), "\n".join(lines), path)
