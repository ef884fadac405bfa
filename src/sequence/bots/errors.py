"""Why a bot spec makes no bot (:class:`BotSpecError`, with a code of :data:`BOT_MESSAGES`), and
how a bot's own failure is told (:class:`RemoteBotError`, :func:`failure`, :func:`safe_repr`).

Like the engine's errors (:mod:`sequence.engine.errors`) it is a :class:`ValueError` with a
``code`` and ``params``, rendered in a player's language by
:func:`sequence.i18n.errors.translate_error`; ``str(exc)`` is the English text.

>>> str(BotSpecError("unknown_bot", text="grandmaster", known="random, greedy"))
"unknown bot 'grandmaster'; known: random, greedy or package.module:Class"
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from ..engine.errors import SequenceError, _m

BOT_MESSAGES: dict[str, str] = {
    "unknown_bot": _m("unknown bot '{text}'; known: {known} or package.module:Class"),
    "bot_argument": _m("bad bot argument '{item}' in '{text}': write key=value"),
    "bot_arguments": _m("bad arguments for bot '{text}': {value}"),
    "bot_arguments_known": _m(
        "bad arguments for bot '{text}': {value}; it takes (defaults shown) {known}"
    ),
    "bot_arguments_none": _m("bad arguments for bot '{text}': {value}; it takes no arguments"),
    "bot_file_missing": _m(
        "bot '{text}': there is no file {path} (a relative path starts from {folder})"
    ),
    "bot_file_no_class": _m("'{text}' names a file but no class: write {text}:YourBotClass"),
    "not_a_bot_class": _m(
        "'{text}' is not a subclass of sequence.bots.Bot: define it as class {name}(Bot), with"
        " from sequence.bots import Bot"
    ),
    "bot_not_loaded": _m("cannot load bot '{text}': {value}"),
    "bot_not_started": _m("cannot start bot '{text}': {value}"),
}
"""Every code a bot spec is refused with, and its English template (the catalogues' msgid).
``{value}`` is what Python or the bot's own code said, in English."""


class BotSpecError(SequenceError):
    """A bot spec that makes no bot: an unknown name, bad arguments, a module that fails."""

    messages: ClassVar[Mapping[str, str]] = BOT_MESSAGES


class BotMistake(ValueError):
    """A bot's (or its adapter's) own account, in words for its user, of why it has no move (a
    course agent's answer that is none of its actions, say): a forfeit shows the message as it
    is, not as a crash (``choose() raised ...`` with the exception's class)."""


class RemoteBotError(Exception):
    """The bot in its process failed; ``reason`` says how: ``"ExceptionName: message"`` when
    its ``choose()`` raised (``raised``), else what went wrong with the process."""

    def __init__(self, reason: str, raised: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.raised = raised


def failure(exc: BaseException) -> str:
    """What a bot's exception says: ``"ExceptionName: message"``, also when it was raised in
    the bot's own process."""
    if isinstance(exc, RemoteBotError):
        return exc.reason
    if isinstance(exc, BotMistake):  # already in words for the user: no class name
        return _text(exc)
    return f"{type(exc).__name__}: {_text(exc)}"


def _text(exc: BaseException) -> str:
    try:
        text = str(exc)
    except Exception:  # a bot's own exception class whose __str__ fails
        text = "(its message could not be read)"
    return text


def cut_text(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, ending in ``...`` when it was longer."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def safe_repr(value: object, limit: int = 200) -> str:
    """``repr(value)`` cut to ``limit`` characters, or a plain description where that fails."""
    try:
        return cut_text(repr(value), limit)
    except Exception:
        return f"a {type(value).__name__} (its repr failed)"
