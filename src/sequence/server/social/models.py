"""The friends' and challenges' requests and answers of the HTTP API (``/openapi.json``)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from ..tables.models import (
    PLAYER_COUNTS,
    WHOLE,
    Answer,
    BotLevel,
    ClockName,
    GameName,
    OnTimeout,
    Options,
    Players,
    Request,
)

AccountName = Annotated[str, Field(min_length=1, max_length=200)]
"""An account's name as sent (which names exist: 404 ``unknown_player``)."""


class FriendName(Request):
    """A friend (or someone to ask, block or unblock) by account name."""

    name: AccountName


class Friend(Answer):
    name: str
    online: bool


class FriendsInfo(Answer):
    """The account's friends, requests each way, and whom it blocked."""

    friends: list[Friend]
    asking_me: list[str]
    asked: list[str]
    blocked: list[str]
    status: str | None = Field(None, description="after a request: friend, asked or blocked")


class NewChallenge(Request):
    """``POST /api/challenges``: a table with these rules, its seats for the challenger (seat
    0) and the friends named (the next seats, in order), the others for the bots given."""

    friends: list[AccountName] = Field(min_length=1, max_length=PLAYER_COUNTS[-1] - 1)
    game: GameName
    players: Players
    teams: Annotated[int, Field(ge=2, le=PLAYER_COUNTS[-1]), WHOLE] | None = None
    options: Options | None = None
    bots: list[BotLevel | None] | None = Field(
        None,
        max_length=PLAYER_COUNTS[-1],
        description="one per seat: a bot level, or null for a person",
    )
    clock: ClockName = "off"
    on_timeout: OnTimeout | None = Field(
        None,
        description="with days a move: bot (a bot plays for a seat whose days ran out) or lost",
    )


class Invited(Answer):
    name: str
    seat: int
    answer: str


class ChallengeInfo(Answer):
    id: int
    by: str
    settings: dict[str, Any]
    status: str
    table: str | None
    invited: list[Invited]


class Challenges(Answer):
    challenges: list[ChallengeInfo]
