"""The account requests and answers of the HTTP API as Pydantic models (``/openapi.json``).

Strict like :mod:`.models`: types are checked here, the rules of names and passwords by
:mod:`.accounts` (which say what is wrong in the player's language). A password's
``max_length`` here only bounds the body; :data:`.accounts.PASSWORD_MAX` is the rule.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from ..tables.models import TABLE_CODE, Answer, EventInfo, Request, Token

_PASSWORD = 1024


class NoFields(Request):
    """A request that takes no field: the body is ``{}``."""


class SignUp(Request):
    """``POST /api/account/signup``: a new account, signed in at once."""

    name: str = Field(
        min_length=1,
        max_length=200,
        description="3 to 24 letters, digits, . _ - (as Unicode normalises it; 422 otherwise)",
    )
    password: str = Field(
        min_length=1,
        max_length=_PASSWORD,
        description="8 to 256 characters, not a common one, not holding the name (422 otherwise)",
    )


class SignIn(Request):
    """``POST /api/account/signin``."""

    name: str = Field(min_length=1, max_length=200)
    password: str = Field(min_length=1, max_length=_PASSWORD)


class ChangePassword(Request):
    """``POST /api/account/password``: the current password, and the new one."""

    password: str = Field(min_length=1, max_length=_PASSWORD, description="the current password")
    new_password: str = Field(
        min_length=1,
        max_length=_PASSWORD,
        description="8 to 256 characters, not a common one, not holding the name (422 otherwise)",
    )


class DeleteAccount(Request):
    """``POST /api/account/delete``: the password again, to be sure."""

    password: str = Field(min_length=1, max_length=_PASSWORD)


class ClaimSeat(Request):
    """A seat this browser holds as a guest: its table and its seat token."""

    code: str = Field(pattern=TABLE_CODE)
    token: Token


class Claim(Request):
    """``POST /api/account/claim``: the guest seats this browser holds, now the account's."""

    seats: list[ClaimSeat] = Field(max_length=200)


class AccountInfo(Answer):
    """Who the browser is signed in as (``signed_in: false``: a guest)."""

    signed_in: bool
    name: str | None = None
    created_at: str | None = None
    csrf: str | None = Field(
        None, description="send it in X-CSRF-Token with every request that changes something"
    )


class SignedOut(Answer):
    signed_in: bool = False


class OwnedSeat(Answer):
    code: str
    seat: int
    seat_token: str = Field(description="secret: the seat's token, the same on every device")


class OwnedSeats(Answer):
    seats: list[OwnedSeat]


class AccountGame(Answer):
    code: str
    status: str = Field(json_schema_extra={"enum": ["lobby", "playing", "finished"]})
    config: dict[str, Any]
    result: str | None
    finished_at: str | None
    seats: list[int] = Field(description="the account's seats at this table (from 0)")


class AccountGames(Answer):
    games: list[AccountGame]


class AccountTurn(Answer):
    """A table in the lobby or in play where the account holds a seat, and whose step it is."""

    code: str
    status: str = Field(json_schema_extra={"enum": ["lobby", "playing"]})
    game: str = Field(description="classic, kids or dice")
    players: list[str | None] = Field(description="the seats' names, in seat order")
    seats: list[int] = Field(description="the account's seats at this table (from 0)")
    to_move: int | None = Field(description="the seat whose step it is (null: in the lobby)")
    your_turn: bool = Field(description="the step is one of the account's seats' own")
    time_control: str | None = Field(description="the clock (days1 ... days7: days a move)")
    on_timeout: str | None = Field(description="with days a move: bot or lost")
    deadline: int | None = Field(
        description="when the running turn's time ends, as a Unix time in milliseconds"
    )
    version: int = Field(description="moves made")


class AccountTurns(Answer):
    """Every table of the account not yet over: where it is their turn first (the nearest
    deadline first), then the others, newest first."""

    turns: list[AccountTurn]


class ExportedGame(Answer):
    code: str
    record: dict[str, Any] = Field(description="the game record (GameRecord.to_dict)")
    text: str = Field(description="the same record as text (sequence replay reads it)")
    events: list[EventInfo]


class Export(Answer):
    """Every finished game the account played, as records (games still going are left out:
    their records hold the seed)."""

    name: str
    games: list[ExportedGame]
