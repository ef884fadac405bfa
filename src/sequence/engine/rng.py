"""The engine's random source: SplitMix64 with its whole state in one int.

Keeping the state a plain int makes copying a game state free and undo exact, and the
sequence of numbers is the same on every platform and Python version, so a seed replays a
game identically forever.
"""

from __future__ import annotations

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
    """A Fisher-Yates shuffle of ``items``. Returns ``(new_state, shuffled list)``."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        state, j = below(state, i + 1)
        out[i], out[j] = out[j], out[i]
    return state, out


def seed_state(seed: int) -> int:
    """The generator state for a user-facing seed (any int)."""
    return next_u64(seed & MASK64)[1]
