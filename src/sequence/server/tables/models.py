"""The HTTP API's requests and answers as Pydantic models: what ``/openapi.json`` declares.

Request models are strict (a number is not text, ``"2"`` is not a number, ``2.9`` is not a whole
number but ``2.0`` is, as in JSON Schema, ``"false"`` is not a boolean), take no field they do
not name and state every constraint they enforce in the JSON schema (enums, ranges, lengths,
patterns); a request that does not fit is refused with a 400 ``bad_message`` that names the field
(:func:`sequence.server.common.errors.invalid_request`). Whether a game takes an option, a player
count or a team count is the engine's to say (:func:`sequence.engine.make_config`), not this
module's: the models check forms, the engine checks rules (a refusal of the rules is a 422).

Answer models describe what the server sends; a few parts that are the engine's own formats
(a configuration, a view, a game record) are declared as JSON objects and documented where the
engine defines them (``Config.to_dict``, ``View.to_dict``, ``GameRecord.to_dict``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import PydanticCustomError, core_schema

from ...engine import GAME_NAMES, OPTIONS
from ...engine.games import SPECS
from .protocol import ERROR_CODES
from .scheduler import ON_TIMEOUT, TIME_CONTROLS, bot_levels
from .seating import NAME_LENGTH


class OneOf:
    """A field's value is one of ``choices()``: an ``enum`` in the JSON schema, and a 400 naming
    the choices otherwise (``Annotated[str, OneOf(...)]``). ``choices`` is called each time, so
    a list the server sets up at start (the operator's bots) is the one described and checked.
    """

    def __init__(self, choices: Callable[[], Sequence[Any]]) -> None:
        self.choices = choices

    def _check(self, value: Any) -> Any:
        allowed = self.choices()
        if value not in allowed:
            raise PydanticCustomError(
                "enum",
                "not one of {expected}",  # i18n: ignore (Pydantic's; invalid_request says it)
                {"expected": ", ".join(map(str, allowed))},
            )
        return value

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return core_schema.no_info_after_validator_function(self._check, handler(source))

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        json_schema = handler(schema)
        json_schema["enum"] = list(self.choices())
        return json_schema


def _whole_float(value: Any) -> Any:
    """A float with no fraction as the whole number it is: JSON Schema's ``integer`` takes
    ``2.0`` (a number is a number in JSON), so the server does too; ``2.5`` stays refused."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


WHOLE = BeforeValidator(_whole_float)
"""Metadata of a whole number in a request (``2`` or ``2.0``; not ``"2"``, ``true`` or ``2.5``),
after its bounds: ``Annotated[int, Field(ge=1), WHOLE]`` (the bounds first, so that the JSON
schema states them)."""
GameName = Annotated[str, OneOf(lambda: GAME_NAMES)]
"""A name :func:`sequence.engine.make_config` takes as a game (``draft`` too)."""
BotLevel = Annotated[str, OneOf(bot_levels)]
"""A bot this server seats: a built-in level or one the operator offers."""
ClockName = Annotated[str, OneOf(lambda: list(TIME_CONTROLS))]
"""A turn clock (``GET /api/meta``: time_controls)."""
OnTimeout = Annotated[str, OneOf(lambda: ON_TIMEOUT)]
"""What happens when a seat's days a move run out: ``bot`` or ``lost``."""
PLAYER_COUNTS = sorted({n for spec in SPECS.values() for n in spec.player_counts})
"""Every player count some game takes (which game takes which: the engine's to say)."""
Players = Annotated[int, Field(ge=PLAYER_COUNTS[0], le=PLAYER_COUNTS[-1]), WHOLE]
Seat = Annotated[int, Field(ge=0, le=PLAYER_COUNTS[-1] - 1), WHOLE]
"""A seat number, from 0 (which seats a table has: its player count)."""
PlayerName = Annotated[str, Field(min_length=1, max_length=NAME_LENGTH)]
"""A player's display name as sent: 1 to 24 characters (one that is blank once trimmed, or
holds only invisible characters, is refused by the rules: 422)."""
Token = Annotated[str, Field(min_length=1, max_length=200)]
"""A secret token the server gave."""
TABLE_CODE = r"^[A-Za-z0-9]{6}$"
"""The form of a table's code (``GET /api/tables/{code}``): six ASCII letters or digits, in
either case (one of that form that no table has: 404 ``unknown_table``)."""


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
    chips_per_colour: Annotated[int, Field(ge=1, le=1000), WHOLE] | Literal["us"] | None = Field(
        None, description=OPTIONS["chips_per_colour"].help
    )
    max_turns: Annotated[int, Field(ge=1), WHOLE] | None = Field(
        None, description=OPTIONS["max_turns"].help
    )
    dice_line_length: Annotated[int, Field(ge=5, le=6), WHOLE] | None = Field(
        None, description=OPTIONS["dice_line_length"].help
    )
    draft: bool | None = Field(None, description=OPTIONS["draft"].help)


class LocalSeat(Request):
    """A seat taken for a player at the same device (pass-and-play), with the player's name."""

    seat: Seat = Field(description="the seat (from 0)")
    name: PlayerName = Field(description="the player's name, called at the hand-over")


LOCAL_SEATS = Field(
    None,
    max_length=12,
    description="more seats taken on the same device (pass-and-play), all or none: the"
    " answer's local holds their tokens",
)


class CreateTable(Request):
    """``POST /api/tables``: a new table, and a seat for its creator if ``name`` is given."""

    game: GameName = Field(
        description="the game (GET /api/meta: games); draft, the engine's name for classic with"
        " option draft, is taken too",
    )
    players: Players = Field(
        description="how many seats (the game says which counts it takes: 422 otherwise)"
    )
    teams: Annotated[int, Field(ge=2, le=PLAYER_COUNTS[-1]), WHOLE] | None = Field(
        None, description="how many teams (default: the usual split)"
    )
    options: Options | None = Field(None, description="rule options")
    bots: list[BotLevel | None] | None = Field(
        None,
        max_length=12,
        description="one entry per seat, in seat order: a bot level (GET /api/meta) or null"
        " (an open seat); a list of another length than players is refused (422); left out,"
        " every seat is open",
    )
    public: bool = Field(True, description="listed on the first page")
    name: PlayerName | None = Field(None, description="the creator's name, to sit")
    seat: Seat | None = Field(None, description="the creator's seat (from 0; default: first free)")
    clock: ClockName = Field("off", description="the turn clock (GET /api/meta: time_controls)")
    bot_level: BotLevel | None = Field(
        None, description="the bot that plays for a seat whose time ran out"
    )
    on_timeout: OnTimeout | None = Field(
        None,
        description="a table with days a move (signed-in players only): what happens when a"
        " seat's days run out -- bot (a bot plays for it until its player is back, the"
        " default) or lost (its team loses; two teams only)",
    )
    rated: bool = Field(
        False, description="the result moves the players' ratings (a clock, the usual rules)"
    )
    player_token: Token | None = Field(
        None, description="the creator's player token (POST /api/players)"
    )
    local: list[LocalSeat] | None = LOCAL_SEATS


class Join(Request):
    """``POST /api/tables/{code}/join``: take a seat in the lobby."""

    name: PlayerName = Field(description="the player's name")
    seat: Seat | None = Field(None, description="the seat (from 0; default: the first free one)")
    player_token: Token | None = Field(
        None, description="the player's token (a rated table needs one)"
    )
    local: list[LocalSeat] | None = LOCAL_SEATS


class Start(Request):
    """``POST /api/tables/{code}/start``: deal."""

    # Required: left out, the request is a 400 naming it, before any right is checked.
    host_token: Token = Field(
        description="the host's token, or the seat token of the player holding the host's rights",
    )


class SeatBot(Request):
    """``POST /api/tables/{code}/seats/{seat}/bot``: a bot for a seat, or the seat opened."""

    host_token: Token = Field(
        description="the host's token, or the seat token of the player holding the host's"
        " rights or of any seated player (in play, for a seat away --away-seconds)",
    )
    level: BotLevel | None = Field(
        None,
        description="a bot level (GET /api/meta); null opens the seat (lobby) or is the"
        " table's level (in play)",
    )


class Rematch(Request):
    """``POST /api/tables/{code}/rematch``: a new table with the same settings and people."""

    token: Token = Field(description="a seat token or the host token")


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
    kind: str = Field(json_schema_extra={"enum": ["host", "bot", "resign", "timeout"]})
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
    on_timeout: str | None = Field(
        json_schema_extra={"enum": [*ON_TIMEOUT, None]},
        description="a table with days a move: what happens when a seat's days run out",
    )
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
    result: str | None = Field(
        description="how the game ended (A wins, draw), once at its last move (null before)"
    )
    termination: str | None = Field(
        description="resignation: a side resigned (the moves did not end it); else null"
    )
    events: list[dict[str, Any]] = Field(
        description="the table's events (a resignation that ended the game among them)"
    )


class ReviewAnswer(Answer):
    status: Literal["ready"]
    review: dict[str, Any] = Field(
        description="sequence-review/1 (sequence.bots.review.GameReview.to_dict): moves (each"
        " decision's verdict, loss, best move, flags and notes), chances (each team's estimated"
        " chance to win at each decision, by sampled deals), turning_points, method; every note"
        " also with says, every move and best move with move_says and best_says: in words, in"
        " the language asked for"
    )


class ReviewWorking(Answer):
    status: Literal["working"]
    done: int = Field(description="decisions judged so far")
    total: int = Field(description="decisions to judge")


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
