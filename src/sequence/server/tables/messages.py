"""What a client may send on the WebSocket: one Pydantic model per message type.

A frame that is JSON (see :func:`sequence.server.tables.websocket.read_frame` for the size and depth
limits) is an object whose ``type`` picks its model in :data:`MESSAGES`; the model then validates
every field, strictly and with no field it does not name, as the HTTP API's request models do
(:mod:`.models`). A message that does not fit is refused with a ``bad_message`` error naming the
field and what it must be (:func:`sequence.server.common.errors.invalid_request`), and nothing
changes. The rules themselves (whose turn, which moves are legal) stay the engine's to check.

    >>> parse_message({"type": "move", "move": "5H@c3", "version": 3})
    Move(type='move', move='5H@c3', version=3, id=None)
    >>> parse_message({"type": "move", "move": "5H@c3", "version": "3"})
    Traceback (most recent call last):
    ...
    sequence.server.common.errors.RequestError: version must be a whole number
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ...i18n import N_
from ..common.errors import RequestError, invalid_request

MOVE_ID_LENGTH: Final = 64
"""The longest move id a client may give (:class:`Move`, :class:`Roll`)."""


class Message(BaseModel):
    """A client's message: strict types, no unknown fields."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class Hello(Message):
    """The first message: sit with a seat token (or watch without one) and get the state."""

    type: Literal["hello"]
    token: str | None = Field(None, max_length=200, description="a seat token; null: watch")
    host: str | None = Field(None, max_length=200, description="the host token, if held")
    lang: str | None = Field(None, max_length=20, description="the language of errors")
    local: list[Annotated[str, Field(max_length=200)]] = Field(
        default_factory=list,
        max_length=12,
        description="pass-and-play: every seat token the device holds (those seats count as"
        " connected; the connection sees and acts only for token's seat)",
    )
    version: int | None = Field(
        None,
        description="the version the client last showed (a reconnecting browser sends it); the"
        " state that answers is complete whatever it is",
    )


class Lang(Message):
    """Error messages in this language from now on (nothing is sent back)."""

    type: Literal["lang"]
    lang: str = Field(max_length=20)


class Move(Message):
    """A move, in the engine's notation, in the position at ``version``; with an ``id`` it is
    applied once (a resend is answered by ``ack``)."""

    type: Literal["move"]
    move: str = Field(max_length=32, description="the move's notation, e.g. 5H@c3")
    version: int = Field(description="the version of the position it was made in")
    id: str | None = Field(None, max_length=MOVE_ID_LENGTH, description="a unique move id")


class Roll(Message):
    """Sequence Dice: roll for your turn (the server's seeded dice decide)."""

    type: Literal["roll"]
    version: int
    id: str | None = Field(None, max_length=MOVE_ID_LENGTH)


class Penalty(Message):
    """The host imposes the table-talk penalty on a team (its letter)."""

    type: Literal["penalty"]
    team: str = Field(max_length=1)
    version: int


class Resign(Message):
    """Resign: alone on a side the game is lost; with a partner a bot takes the seat."""

    type: Literal["resign"]


class Back(Message):
    """Take back the seat a bot kept after two timeouts in a row."""

    type: Literal["back"]


class Sync(Message):
    """Send the current state again."""

    type: Literal["sync"]


class Hint(Message):
    """A seated player at a casual table asks for a hint for the position at ``version``."""

    type: Literal["hint"]
    version: int = Field(description="the version of the position the hint is for")


class Ping(Message):
    """Keep-alive, answered by a pong."""

    type: Literal["ping"]


class React(Message):
    """A reaction from the fixed list (:data:`sequence.server.tables.talk.REACTIONS`)."""

    type: Literal["react"]
    reaction: str = Field(max_length=40)


class Chat(Message):
    """A chat message (its length and who may send it are :mod:`.talk`'s to check)."""

    type: Literal["chat"]
    text: str


ClientMessage = (
    Hello | Lang | Move | Roll | Penalty | Resign | Back | Sync | Hint | Ping | React | Chat
)
"""Any message a client may send."""

MESSAGES: Final[dict[str, type[ClientMessage]]] = {
    "hello": Hello,
    "lang": Lang,
    "move": Move,
    "roll": Roll,
    "penalty": Penalty,
    "resign": Resign,
    "back": Back,
    "sync": Sync,
    "hint": Hint,
    "ping": Ping,
    "react": React,
    "chat": Chat,
}
"""Each message type's model, by its ``type``."""


def parse_message(data: Any) -> ClientMessage:
    """``data`` (a decoded JSON frame) as its message's model, or a :class:`RequestError`
    naming what is wrong: not an object with a ``type``, an unknown type, or the first field
    that does not fit."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise RequestError("bad_message", N_('a message is a JSON object with a "type"'))
    model = MESSAGES.get(data["type"])
    if model is None:
        raise RequestError(
            "bad_message", N_("unknown message type {type}"), type=repr(data["type"][:20])
        )
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise invalid_request(exc.errors(include_url=False)) from None
