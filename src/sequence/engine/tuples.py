"""Edits of immutable tuples: how a :class:`~.state.State`'s fields change (a copy shares them).

>>> replaced((1, 2, 3), 1, 9), without((5, 6, 5), 5)
((1, 9, 3), (6, 5))
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


def without(items: tuple[T, ...], item: T) -> tuple[T, ...]:
    """``items`` less the first copy of ``item``."""
    i = items.index(item)
    return items[:i] + items[i + 1 :]


def replaced(items: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    """``items`` with entry ``i`` set to ``value``."""
    return items[:i] + (value,) + items[i + 1 :]
