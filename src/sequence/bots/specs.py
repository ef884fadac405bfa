"""Bots by name: :data:`BOTS`, and :func:`make_bot`, which builds one from a spec.

A spec is a level (``easy``, ``medium``, ``hard``, ``expert``), a bot (``random``, ``casual``,
``greedy``, ``lookahead``, ``mcts``; ``ismcts``, OpenSpiel's, with the ``openspiel`` extra), a
saved model (``policy:path/to/model.zip``, docs/env.md), or ``package.module:Class`` (or
``path/to/mybot.py:Class``) for your own; ``@key=value,...`` after any of them sets constructor
arguments (``mcts@time=0.5,depth=8``).
A user's module is loaded by :func:`~sequence.bots.loading.user_bot_class`.

>>> make_bot("greedy", seed=3).name
'greedy'
>>> make_bot("mcts@iterations=100,time=0").iterations
100
>>> make_bot("hard").time
1.0
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Callable
from typing import Any

from .base import Bot, RandomBot
from .errors import BotSpecError
from .greedy import CasualBot, GreedyBot
from .levels import LEVELS
from .loading import user_bot_class
from .lookahead import LookaheadBot
from .mcts import MCTSBot

COURSE_PREFIX = "comp90054:"
"""``comp90054:path/to/myTeam.py``: a COMP90054 course agent (docs/bots.md)."""
COURSE_ADAPTER = "sequence.compat.comp90054:CourseAgentBot"
"""The bot that runs a course agent, loaded by name like a user's bot (it is a front end's)."""

ROUTED: dict[str, str] = {
    "ismcts": "sequence.env.openspiel:ISMCTSBot",
}
"""Bots that live in a front end (they need its libraries), loaded by name like a user's bot:
``ismcts`` is OpenSpiel's information-set MCTS (the ``openspiel`` extra, docs/env.md)."""
POLICY_PREFIX = "policy:"
"""``policy:path/to/model.zip``: a saved Stable-Baselines3 model playing (docs/env.md)."""
POLICY_ADAPTER = "sequence.env.policy:PolicyBot"

BOTS: dict[str, type[Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "casual": CasualBot,
    "mcts": MCTSBot,
    "lookahead": LookaheadBot,
    **LEVELS,
}
"""Every bot by name: the named bots for experts, and the levels people pick from."""


def _value(text: str) -> Any:
    low = text.strip().lower()
    if low == "none":
        return None
    if low in ("true", "false"):
        return low == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``name@key=value,...`` into the name and its arguments.

    ``time=0`` and ``iterations=0`` mean no limit of that kind (``None``).

    >>> parse_spec("mcts@time=0.5,depth=8")
    ('mcts', {'time': 0.5, 'depth': 8})
    """
    name, _, params = spec.partition("@")
    args: dict[str, Any] = {}
    for item in filter(None, (p.strip() for p in params.split(","))):
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise BotSpecError("bot_argument", item=item, text=spec)
        v = _value(value)
        if key.strip() in ("time", "iterations") and v == 0:
            v = None
        args[key.strip()] = v
    return name.strip(), args


_SIGNATURES: dict[type, inspect.Signature | None] = {}


def _signature(cls: type[Bot]) -> inspect.Signature | None:
    """The constructor's signature of a bot class (``None`` if it has none to read), read once
    per class: ``inspect.signature`` costs more than making a simple bot, and a learning
    environment makes its opponents afresh every episode."""
    if cls not in _SIGNATURES:
        try:
            _SIGNATURES[cls] = inspect.signature(cls)
        except ValueError:
            _SIGNATURES[cls] = None
    return _SIGNATURES[cls]


def make_bot(spec: str, seed: int = 0) -> Bot:
    """A bot from its name, ``package.module:Class`` or ``path/to/mybot.py:Class``, with
    optional ``@key=value`` arguments. A user's module is loaded by
    :func:`~sequence.bots.loading.user_bot_class`, in the process calling this (tournaments and
    the terminal game call it in the bot's own).

    >>> make_bot("easy").choose  # doctest: +ELLIPSIS
    <bound method CasualBot.choose of <EasyBot easy>>
    """
    return bot_maker(spec)(seed)


def bot_maker(spec: str) -> Callable[[int], Bot]:
    """What :func:`make_bot` does for ``spec``, but the seed: the spec read and its arguments
    checked once, for a caller that makes the same bot afresh many times (a learning
    environment's opponents, every episode). Raises :class:`BotSpecError` as ``make_bot`` does.

    >>> make = bot_maker("greedy")
    >>> make(1).name, make(2).seed
    ('greedy', 2)
    """
    name, args = parse_spec(spec)
    given = set(args)  # what the spec's @key=value gave (not an adapter's path)
    if name.startswith(COURSE_PREFIX):  # a course agent's file: its adapter takes the path
        path = name[len(COURSE_PREFIX) :]
        _require_file(spec, path, bool(path))
        args = {"path": path, **args}
        name = COURSE_ADAPTER
    elif name.startswith(POLICY_PREFIX):  # a saved model: the policy adapter takes the path
        path = name[len(POLICY_PREFIX) :]
        _require_file(spec, path, path.endswith(".zip"))  # else a package.module:function
        args = {"path": path, **args}
        name = POLICY_ADAPTER
    routed = name in ROUTED
    name = ROUTED.get(name, name)
    if ":" in name:
        try:
            cls = user_bot_class(name)
        except BotSpecError as exc:  # a routed bot's error names it as its user wrote it
            if not routed:
                raise
            raise BotSpecError(exc.code, **{**exc.params, "text": spec}) from None
        if not (isinstance(cls, type) and issubclass(cls, Bot)):
            raise BotSpecError("not_a_bot_class", text=name, name=name.rpartition(":")[2])
    elif name.endswith(".py"):
        raise BotSpecError("bot_file_no_class", text=name)
    else:
        try:
            cls = BOTS[name]
        except KeyError:
            raise BotSpecError(
                "unknown_bot", text=name, known=", ".join([*BOTS, *ROUTED])
            ) from None
    signature = _signature(cls)
    if signature is not None:  # else no signature to read: the constructor will say
        try:
            signature.bind(seed=0, **args)
        except TypeError as exc:  # an unknown argument, or one missing: say which it takes
            known = _arguments(signature, set(args) - given)
            code = "bot_arguments_known" if known else "bot_arguments_none"
            raise BotSpecError(code, text=spec, value=str(exc), known=", ".join(known)) from None

    def make(seed: int) -> Bot:
        try:
            bot = cls(seed=seed, **args)
        except BotSpecError:  # the adapter's own refusal (a course agent's file that fails)
            raise
        except ValueError as exc:  # how a bot refuses a value (a budget below zero, say)
            raise BotSpecError("bot_arguments", text=spec, value=str(exc)) from None
        bot.label = spec
        return bot

    return make


def _require_file(spec: str, path: str, is_file: bool) -> None:
    """Refuse ``spec`` plainly when ``path``, which names a file (``is_file``), is missing."""
    if is_file and not os.path.isfile(path):
        raise BotSpecError("bot_file_missing", text=spec, path=path, folder=os.getcwd())


def _arguments(signature: inspect.Signature, implied: set[str]) -> list[str]:
    """The ``@key=value`` arguments a bot's constructor takes, as a spec writes them: not
    ``seed`` (the run's) nor those its spec's form gives (a course agent's ``path``)."""
    return [
        f"{name}={p.default!r}" if p.default is not p.empty else name
        for name, p in signature.parameters.items()
        if name != "seed"
        and name not in implied
        and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
    ]


__all__ = ["BOTS", "ROUTED", "bot_maker", "make_bot", "parse_spec"]
