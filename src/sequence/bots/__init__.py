"""Bots: players that see only their seat's view.

:func:`make_bot` builds a bot from a name: a level (``easy``, ``medium``, ``hard``), a bot
(``random``, ...), or ``package.module:Class`` for your own.
"""

from __future__ import annotations

import importlib

from .base import Bot, RandomBot

BOTS: dict[str, type[Bot]] = {"random": RandomBot}


def make_bot(spec: str, seed: int = 0) -> Bot:
    """A bot from its name, or from ``package.module:Class``."""
    if ":" in spec:
        module_name, _, class_name = spec.partition(":")
        try:
            cls = getattr(importlib.import_module(module_name), class_name)
        except (ImportError, AttributeError) as exc:
            raise ValueError(f"cannot load bot {spec!r}: {exc}") from None
        if not (isinstance(cls, type) and issubclass(cls, Bot)):
            raise ValueError(f"{spec!r} is not a subclass of sequence.bots.Bot")
        return cls(seed=seed)
    try:
        return BOTS[spec](seed=seed)
    except KeyError:
        raise ValueError(f"unknown bot {spec!r}; known: {', '.join(BOTS)} or package.module:Class") from None


__all__ = ["BOTS", "Bot", "RandomBot", "make_bot"]
