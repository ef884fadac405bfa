"""Sequences: which completed windows of a team's chips count (RULES.md §1).

Pure functions of bitboards and a board's :class:`~.board.LineGeometry`: the state calls them
after a chip is placed (or, under ``difficult``, removed), and so may anything that holds a
board of its own (the batched simulator does).

>>> from sequence.engine.board import CLASSIC_BOARD, line_geometry, parse_space
>>> geo = line_geometry(CLASSIC_BOARD, 5)
>>> own = sum(1 << parse_space(f"{c}1") for c in "defghi")  # d1..i1, six in a row
>>> found = new_windows(geo.through[parse_space("h1")], own, ())
>>> [geo.window_spaces[w] for w in choose_windows(geo, found, own, (), 0)]
[(4, 5, 6, 7, 8)]
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

from .board import Bitboard, LineGeometry, Space


def new_windows(
    windows: Iterable[Bitboard], own: Bitboard, existing: tuple[Bitboard, ...]
) -> list[Bitboard]:
    """The ``windows`` wholly held (``own``: the team's chips and the free corners) that may
    count as new sequences: each shares at most one space with every existing one."""
    return [w for w in windows if own & w == w and all((w & e).bit_count() <= 1 for e in existing)]


def choose_windows(
    geo: LineGeometry,
    candidates: list[Bitboard],
    own: Bitboard,
    existing: tuple[Bitboard, ...],
    opponents: Bitboard,
) -> tuple[Bitboard, ...]:
    """Which five (RULES.md §1 Decision), for a placement that completes several windows.

    1. The most sequences: the largest set of complete windows sharing at most one space
       with each other and with the team's existing sequences.
    2. Among those, the most room for a later sequence: for each chosen window, the best
       window on the same line that could still become a new sequence (sharing at most one
       space with all chosen and existing ones, holding no opponent chip), counted by the
       team's chips already in it.
    3. Then the windows nearest the top-left (smallest space numbers), so it is deterministic.
    """
    if len(candidates) == 1:
        return (candidates[0],)
    pool = sorted(candidates, key=lambda w: geo.window_spaces[w])[:12]
    best: tuple[tuple[int, int, tuple[tuple[Space, ...], ...]], tuple[Bitboard, ...]] | None = None
    for size in range(len(pool), 0, -1):
        for combo in combinations(pool, size):
            if any((a & b).bit_count() > 1 for a, b in combinations(combo, 2)):
                continue
            held = existing + combo
            room = 0
            for w in combo:
                room += max(
                    (
                        (own & other).bit_count()
                        for other in geo.on_line[geo.line_of[w]]
                        if not other & opponents and all((other & h).bit_count() <= 1 for h in held)
                    ),
                    default=0,
                )
            # Larger is better; negated spaces make the top-left window win a tie.
            order = tuple(
                tuple(-s for s in ws) for ws in sorted(geo.window_spaces[w] for w in combo)
            )
            key = (size, room, order)
            if best is None or key > best[0]:
                best = (key, combo)
        if best is not None:
            break
    assert best is not None
    return best[1]
