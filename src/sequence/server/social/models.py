"""The friends' and challenges' requests and answers of the HTTP API (``/openapi.json``)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from ..tables.models import Answer, Options, Request


class FriendName(Request):
    """A friend (or someone to ask, block or unblock) by account name."""

    name: str = Field(max_length=200)


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

    friends: list[str] = Field(min_length=1, max_length=11)
    game: str = Field(max_length=20)
    players: int
    teams: int | None = None
    options: Options | None = None
    bots: list[str | None] | None = Field(
        None, max_length=12, description="one per seat: a bot level, or null for a person"
    )
    clock: str = Field("off", max_length=20)
    on_timeout: str | None = Field(
        None,
        max_length=8,
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
