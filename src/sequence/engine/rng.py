"""The engine's random source: SplitMix64 with its whole state in one int.

Keeping the state a plain int makes copying a game state free and undo exact, and the
sequence of numbers is the same on every platform and Python version, so a seed replays a
game identically forever.
"""

from __future__ import annotations

import hashlib
from array import array
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def next_u64(state: int) -> tuple[int, int]:
    """Advance ``state`` once; return ``(new_state, random 64-bit value)``."""
    state = (state + GOLDEN) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """A uniform integer in ``range(n)``, without modulo bias. Returns ``(new_state, value)``."""
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        state, z = next_u64(state)
        if z < limit:
            return state, z % n


def shuffled(state: int, items: Sequence[T]) -> tuple[int, list[T]]:
    """``items`` in a random order. Returns ``(new_state, shuffled list)``.

    Each item gets a 64-bit key from SHAKE-128 of the generator state and the items are sorted
    by key: a uniform permutation (ties have probability ~2**-50 and fall back to a stable
    order), computed in C, and the same on every platform.
    """
    n = len(items)
    state, raw = shuffle_keys(state, n)
    keys = array("Q", raw)
    if array("Q").itemsize != 8:  # pragma: no cover - every mainstream platform has 8
        raise RuntimeError("unsigned long long is not 64 bits here")
    if array("Q", [1]).tobytes() != (1).to_bytes(8, "little"):  # big-endian: read as little
        keys.byteswap()
    by_key = dict(zip(keys.tolist(), items, strict=True))
    if len(by_key) == n:
        return state, [by_key[k] for k in sorted(by_key)]
    ordered = sorted(zip(keys.tolist(), range(n), items, strict=True))
    return state, [item for _, _, item in ordered]


def shuffle_keys(state: int, n: int) -> tuple[int, bytes]:
    """The draw behind :func:`shuffled`: ``n`` 64-bit sort keys, 8 little-endian bytes each.

    Returns ``(new_state, keys)``. :func:`shuffled` puts item ``i`` where key ``i`` falls when
    the keys are sorted, ties by position: a stable argsort of the keys (the batched simulator
    shuffles many decks at once that way, ``numpy.argsort(kind="stable")``).
    """
    state, z = next_u64(state)
    return state, hashlib.shake_128(z.to_bytes(8, "little")).digest(8 * n)


def seed_state(seed: int) -> int:
    """The generator state for a user-facing seed (any int)."""
    return next_u64(seed & MASK64)[1]
