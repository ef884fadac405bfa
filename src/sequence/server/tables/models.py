"""The HTTP API's requests and answers as Pydantic models: what ``/openapi.json`` declares.

Request models are strict (a number is not text, ``"2"`` is not a number, ``2.9`` is not a whole
number, ``"false"`` is not a boolean) and take no field they do not name; a request that does
not fit is refused with a 400 ``bad_message`` that names the field
(:func:`sequence.server.common.errors.invalid_request`). Whether a game takes an option, a player
count or a team count is the engine's to say (:func:`sequence.engine.make_config`), not this
module's: the models check types, the engine checks rules.

Answer models describe what the server sends; a few parts that are the engine's own formats
(a configuration, a view, a game record) are declared as JSON objects and documented where the
engine defines them (``Config.to_dict``, ``View.to_dict``, ``GameRecord.to_dict``).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ...engine import GAME_NAMES, OPTIONS
from .protocol import ERROR_CODES
from .scheduler import TIME_CONTROLS


class Request(BaseModel):
    """A request body: strict types, no unknown fields."""

    model_config = ConfigDict(strict=True, extra="forbid")


class Answer(BaseModel):
    """An answer body."""

    model_config = ConfigDict(extra="forbid")


# --- requests ---------------------------------------------------------------------------------


class Options(Request):
    """Rule options (``GET /api/meta`` says which a game takes); leave one out for its default.

    The names are the engine's :data:`sequence.engine.OPTIONS`; a game refuses an option it does
    not take with the engine's reason.
    """

    difficult: bool | None = Field(None, description=OPTIONS["difficult"].help)
    manual_draw: bool | None = Field(None, description=OPTIONS["manual_draw"].help)
    chips_per_colour: int | Literal["us"] | None = Field(
        None, description=OPTIONS["chips_per_colour"].help
    )
    max_turns: int | None = Field(None, description=OPTIONS["max_turns"].help)
    dice_line_length: int | None = Field(None, description=OPTIONS["dice_line_length"].help)
    draft: bool | None = Field(None, description=OPTIONS["draft"].help)


class LocalSeat(Request):
    """A seat taken for a player at the same device (pass-and-play), with the player's name."""

    seat: int = Field(description="the seat (from 0)")
    name: str = Field(max_length=200, description="the player's name, called at the hand-over")


LOCAL_SEATS = Field(
    None,
    max_length=12,
    description="more seats taken on the same device (pass-and-play), all or none: the"
    " answer's local holds their tokens",
)


class CreateTable(Request):
    """``POST /api/tables``: a new table, and a seat for its creator if ``name`` is given."""

    game: str = Field(
        description="the game (GET /api/meta: games); draft, the engine's name for classic with"
        " option draft, is taken too",
        json_schema_extra={"enum": list(GAME_NAMES)},
        max_length=20,
    )
    players: int = Field(description="how many seats (the game says which counts it takes)")
    teams: int | None = Field(None, description="how many teams (default: the usual split)")
    options: Options | None = Field(None, description="rule options")
    bots: list[str | None] | None = Field(
        None,
        max_length=12,
        description="one entry per seat, in seat order: a bot level (GET /api/meta) or null"
        " (an open seat); a list of another length than players is refused (400); left out,"
        " every seat is open",
    )
    public: bool = Field(True, description="listed on the first page")
    name: str | None = Field(None, max_length=200, description="the creator's name, to sit")
    seat: int | None = Field(None, description="the creator's seat (from 0; default: first free)")
    clock: str = Field(
        "off",
        description="the turn clock (GET /api/meta: time_controls)",
        json_schema_extra={"enum": list(TIME_CONTROLS)},
        max_length=20,
    )
    bot_level: str | None = Field(
        None, max_length=40, description="the bot that plays for a seat whose time ran out"
    )
    rated: bool = Field(
        False, description="the result moves the players' ratings (a clock, the usual rules)"
    )
    player_token: str | None = Field(
        None, max_length=200, description="the creator's player token (POST /api/players)"
    )
    local: list[LocalSeat] | None = LOCAL_SEATS


class Join(Request):
    """``POST /api/tables/{code}/join``: take a seat in the lobby."""

    name: str = Field(max_length=200, description="the player's name")
    seat: int | None = Field(None, description="the seat (from 0; default: the first free one)")
    player_token: str | None = Field(
        None, max_length=200, description="the player's token (a rated table needs one)"
    )
    local: list[LocalSeat] | None = LOCAL_SEATS


class Start(Request):
    """``POST /api/tables/{code}/start``: deal."""

    # Required: left out, the request is a 400 naming it, before any right is checked.
    host_token: str = Field(
        max_length=200,
        description="the host's token, or the seat token of the player holding the host's rights",
    )


class SeatBot(Request):
    """``POST /api/tables/{code}/seats/{seat}/bot``: a bot for a seat, or the seat opened."""

    host_token: str | None = Field(
        None,
        max_length=200,
        description="the host's token, or the seat token of the player holding the host's"
        " rights or of any seated player (in play, for a seat away --away-seconds)",
    )
    token: str | None = Field(None, max_length=200, description="the same as host_token")
    level: str | None = Field(
        None,
        max_length=40,
        description="a bot level (GET /api/meta); null opens the seat (lobby) or is the"
        " table's level (in play)",
    )


class Rematch(Request):
    """``POST /api/tables/{code}/rematch``: a new table with the same settings and people."""

    token: str = Field(max_length=200, description="a seat token or the host token")


# --- answers ----------------------------------------------------------------------------------


class ErrorAnswer(Answer):
    """A refused request: nothing changed."""

    error: str = Field(description="a stable code", json_schema_extra={"enum": list(ERROR_CODES)})
    message: str = Field(description="what is wrong, in the request's Accept-Language")


class SeatToken(Answer):
    """A seat taken on the same device (the request's ``local``) and its token."""

    seat: int
    seat_token: str = Field(description="secret: the seat's token")


class Created(Answer):
    code: str
    url: str
    host_token: str = Field(description="secret: the host's rights")
    seat_token: str | None = Field(description="secret: the creator's seat (with a name)")
    seat: int | None
    local: list[SeatToken] = Field(description="the seats of the request's local, in order")


class Joined(Answer):
    code: str
    seat: int
    seat_token: str = Field(description="secret: the seat's token")
    local: list[SeatToken] = Field(description="the seats of the request's local, in order")


class Started(Answer):
    code: str
    status: str


class SeatBotAnswer(Answer):
    code: str
    seat: int
    bot: str | None


class Rematched(Answer):
    code: str
    url: str


class OpenTable(Answer):
    code: str
    config: dict[str, Any]
    status: str
    free: list[int]
    players: list[str | None]
    bots: list[str | None] = Field(
        description="each seat's bot level where a bot sits (its name is the level), else null"
    )
    spectators: int


class OpenTables(Answer):
    tables: list[OpenTable]


class SeatInfo(Answer):
    seat: int
    team: int
    name: str | None
    kind: str = Field(json_schema_extra={"enum": ["empty", "human", "bot"]})
    bot: str | None
    stand_in: bool
    connected: bool
    away: bool
    timeouts: int


class TimeControlInfo(Answer):
    name: str
    turn: float
    reserve: float


class EventInfo(Answer):
    """A table event (sequence.server.tables.table.Event)."""

    ply: int = Field(description="the game's version when it happened")
    kind: str = Field(json_schema_extra={"enum": ["host", "bot", "resign"]})
    seat: int | None
    by: int | None
    detail: str | None


class TableInfo(Answer):
    code: str
    config: dict[str, Any]
    public: bool
    status: str = Field(json_schema_extra={"enum": ["lobby", "playing", "finished"]})
    result: str | None
    rematch: str | None
    spectators: int
    seats: list[SeatInfo]
    time_control: TimeControlInfo | None
    bot_level: str | None
    rated: bool = Field(description="the result moves the players' ratings")
    host_seat: int | None = Field(
        description="the seat holding the host's rights while the host is away"
    )
    events: list[EventInfo]
    version: int
    chance: bool


class FinishedGame(Answer):
    code: str
    config: dict[str, Any]
    result: str | None
    finished_at: str | None
    players: list[str | None]
    bots: list[str | None] = Field(
        description="each seat's bot level where a bot sits (its name is the level), else null"
    )


class Finished(Answer):
    games: list[FinishedGame]


class Record(Answer):
    record: dict[str, Any] = Field(description="the game record (GameRecord.to_dict)")
    text: str = Field(description="the same record as text (sequence replay reads it)")
    events: list[EventInfo] = Field(description="the table's events, oldest first")


class Replay(Answer):
    ply: int
    plies: int
    view: dict[str, Any] = Field(
        description="the spectators' view (View.to_dict) with log: every move so far with its"
        " public facts (sequence.engine.history), which the page puts into words"
    )
    seats: list[SeatInfo] = Field(description="the table's seats: who played each (the names)")
    result: str | None = Field(description="how the game ended: the winner's team, or draw")
    events: list[dict[str, Any]] = Field(
        description="the table's events (a resignation that ended the game among them)"
    )


class GameMeta(Answer):
    title: str
    players: list[int]
    teams: dict[str, list[int]]
    options: list[str]


class VariantMeta(Answer):
    """A name taken as a game that is a game with rule options (``draft``: classic, draft on)."""

    game: str
    options: dict[str, Any]


class OptionMeta(Answer):
    default: Any
    games: list[str]
    help: str


class TimeControlMeta(Answer):
    turn: float
    reserve: float


class Meta(Answer):
    games: dict[str, GameMeta]
    variants: dict[str, VariantMeta]
    dice_line_lengths: list[int]
    options: dict[str, OptionMeta]
    bots: list[str]
    time_controls: dict[str, TimeControlMeta | None]
    languages: list[str]
    language_names: dict[str, str]
    language: str
    invite_base: str | None  # where friends reach this server (None: the page's own address)


class Catalogue(Answer):
    lang: str
    name: str
    nplurals: int
    plural: str
    messages: dict[str, str | list[str]]


class Rules(Answer):
    game: str
    lang: str
    html: str
