"""Refused requests: the one exception every part of the server raises to say no.

A :class:`RequestError` carries a stable ``code`` (one of :data:`protocol.ERROR_CODES`), an HTTP
status and a message a player reads in their own language. Whatever raised it, nothing changed.

The HTTP statuses split the refusals of a request's content in two, so that a client (and the
fuzz test, tests/server/test_fuzz_api.py) can tell them apart: **400** a request that does not
fit the API's description (``/openapi.json``: malformed JSON, a field missing, of the wrong type,
out of its range; :func:`invalid_request`), **422** (the default here) one that fits it but that
the rules or the table refuse (a player count the game does not take, a seat the table does not
have, a wrong password's length for a new one, ...).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ...engine import OPTIONS, ConfigError, IllegalMoveError
from ...engine.games import unknown_game
from ...i18n import N_, negotiate, translator
from ...i18n.errors import render_reason, translate_error


class RequestError(Exception):
    """A refused request: ``code`` is one of :data:`protocol.ERROR_CODES`; nothing changed.
    ``status``: 422 (the request fits the API's description, the rules refuse it) unless given.

    ``message`` is an English catalogue msgid (marked with ``N_``) with ``{named}`` fields
    filled from ``params``; :meth:`text` gives it in a player's language. A refusal of the
    engine's passes the engine's error as ``engine``, rendered from its code by
    :func:`sequence.i18n.errors.translate_error`. ``str(exc)`` is the English text (for logs).
    """

    def __init__(
        self,
        code: str,
        message: str,
        status: int = 422,
        /,
        *,
        engine: BaseException | str | None = None,
        **params: Any,
    ) -> None:
        self.code = code
        self.msgid = message
        self.params = params
        self.engine = engine
        self.message = message.format(**params) if params else message
        self.status = status
        super().__init__(self.message)

    def text(self, lang: str | None) -> str:
        """The message in ``lang`` (English where the catalogue has no translation)."""
        if isinstance(self.engine, IllegalMoveError):
            # A person clicked the move: the reason alone, not the move's notation before it.
            return render_reason(self.engine, lang)
        if self.engine is not None:
            return translate_error(self.engine, lang)
        translated = translator(lang).gettext(self.msgid)
        return translated.format(**self.params) if self.params else translated


class RateLimited(RequestError):
    """429: too many requests of a kind from one client (or for one account name);
    ``retry_after`` is the ``Retry-After`` header's whole seconds."""

    def __init__(self, retry_after: str) -> None:
        super().__init__(
            "rate_limited",
            N_("too many requests: try again in {seconds} s; nothing was done"),
            429,
            seconds=retry_after,
        )
        self.retry_after = retry_after


def engine_refusal(code: str, exc: BaseException, status: int = 422) -> RequestError:
    """The engine said no (an illegal move, bad notation, a bad config): its reason, as is."""
    return RequestError(code, str(exc), status, engine=exc)


def no_seat(seat: object, players: int) -> RequestError:
    """A seat number the table does not have. Seats are numbered from 0 as everywhere in the API
    (paths, bodies, answers, messages); the range says so to a client that counted from 1."""
    return RequestError(
        "bad_message",
        N_("there is no seat {seat} at this table: its seats are 0 to {last}"),
        seat=seat,
        last=players - 1,
    )


_BOT_ENTRY = re.compile(r"bots\.\d+")
"""An entry of ``bots`` in its error's field name (``bots.0``): a level, or null (an open seat)."""

_TYPE_TAGS = frozenset(
    {"int", "str", "bool", "float", "none", "list", "dict", "constrained-int", "constrained-str"}
)
"""Pydantic's names for the members of a union in an error's location (not field names)."""


def _field_name(loc: tuple[Any, ...]) -> str:
    """``("body", "options", "max_turns")`` -> ``options.max_turns``; a list's index too."""
    parts: list[str] = []
    for part in loc[1:] if loc and loc[0] in ("body", "path", "query") else loc:
        if isinstance(part, str) and (part in _TYPE_TAGS or "[" in part):
            break  # the rest names a member of a union, not a field
        parts.append(str(part))
    return ".".join(parts)


def invalid_request(errors: Sequence[Any]) -> RequestError:
    """A request that does not fit its model (Pydantic's ``errors()``): a 400 naming the first
    field that is wrong and what it must be. An option the engine does not know is refused with
    the engine's own reason (:class:`~sequence.engine.ConfigError` ``unknown_option``)."""
    if not errors:
        return RequestError("bad_message", N_("the request body must be a JSON object"), 400)
    error = errors[0]
    kind = str(error.get("type", ""))
    loc = tuple(error.get("loc") or ())
    name = _field_name(loc)
    if kind == "json_invalid":
        return RequestError("bad_json", N_("the request body is not JSON"), 400)
    if not name or (kind == "missing" and loc == ("body",)):
        return RequestError("bad_message", N_("the request body must be a JSON object"), 400)
    if kind.endswith("_type") and "input" in error and error["input"] is None:
        kind = "missing"  # null where a value is required: as good as left out
    if kind == "missing" and name in ("game", "players"):  # POST /api/tables
        return RequestError(
            "bad_message",
            N_("{name} is missing: a table needs a game and a number of players"),
            400,
            name=name,
        )
    if kind == "extra_forbidden":
        if len(loc) == 3 and loc[:2] == ("body", "options"):
            return engine_refusal(
                "bad_message",
                ConfigError("unknown_option", text=str(loc[2])[:40], known=", ".join(OPTIONS)),
                400,
            )
        return RequestError(
            "bad_message", N_("{name} is not a field of this request"), 400, name=name[:40]
        )
    if kind == "enum":  # a value not among a field's choices: say which they are
        return _not_a_choice(name, str(error.get("input"))[:40], error.get("ctx") or {})
    messages = {
        "missing": N_("{name} is missing"),
        "int_type": N_("{name} must be a whole number"),
        "int_parsing": N_("{name} must be a whole number"),
        "int_from_float": N_("{name} must be a whole number"),
        "bool_type": N_("{name} is true or false"),
        "bool_parsing": N_("{name} is true or false"),
        "string_type": N_("{name} is text"),
        "string_too_long": N_("{name} is too long"),
        "too_long": N_("{name} is too long"),
        "list_type": N_("{name} is a list"),
        "model_type": N_("{name} must be a JSON object"),
        "model_attributes_type": N_("{name} must be a JSON object"),
        "dict_type": N_("{name} must be a JSON object"),
        "string_too_short": N_("{name} is empty"),
        "too_short": N_("{name} needs at least {limit} entries"),
        "greater_than_equal": N_("{name} is at least {limit}"),
        "less_than_equal": N_("{name} is at most {limit}"),
        "literal_error": N_("{name} is one of {choices}"),
        "string_pattern_mismatch": N_("{name} is not of the form {pattern}"),
    }
    context = error.get("ctx") or {}
    limits = (context.get(k) for k in ("ge", "le", "min_length"))
    details = {
        "limit": next((v for v in limits if v is not None), ""),
        "choices": str(context.get("expected", ""))[:200],
        "pattern": str(context.get("pattern", ""))[:60],
    }
    message = messages.get(kind, N_("{name} has a value of the wrong type"))
    wrong_type = kind.endswith(("_type", "_parsing", "_from_float")) or kind not in messages
    if name == "options.chips_per_colour" and wrong_type:
        message = N_('{name} is a whole number or "us"')
    elif _BOT_ENTRY.fullmatch(name) and kind != "missing":
        # An entry of bots (POST /api/tables): say both things it may be, not only "text".
        message = N_("{name} is a bot level (text), or null for a seat left open for a person")
    if kind == "string_too_short" and context.get("min_length", 1) > 1:
        message = N_("{name} is too short")
    return RequestError("bad_message", message, 400, name=name[:60], **details)


def _not_a_choice(name: str, value: str, context: dict[str, Any]) -> RequestError:
    """The 400 of a value that is not one of a field's choices (its enum in ``/openapi.json``),
    in the words of the rule it breaks: the engine's for a game, the tables' for a bot level or
    a clock, the ratings' for a family."""
    choices = str(context.get("expected", ""))
    if name == "game":  # the engine's refusal names the games, then the variants
        return engine_refusal("bad_message", unknown_game(value), 400)
    if _BOT_ENTRY.fullmatch(name) or name in ("bot_level", "level"):
        message = N_("unknown bot level {level}; choose one of {levels}")
        return RequestError("bad_message", message, 400, level=repr(value), levels=choices)
    if name == "clock":
        message = N_("unknown time control {name}; choose one of {names}")
        return RequestError("bad_message", message, 400, name=repr(value), names=choices)
    if name == "family":
        message = N_("unknown family {family}; choose one of {families}")
        return RequestError("bad_message", message, 400, family=repr(value), families=choices)
    return RequestError(
        "bad_message", N_("{name} is one of {choices}"), 400, name=name, choices=choices
    )


def request_language(headers: Any) -> str:
    """The language of a request: its ``Accept-Language`` (the web client sends its choice)."""
    return negotiate(headers.get("accept-language"))
