"""Tables computed once per game (and line length): every move object, the board's geometry as
bitboards, the spaces of each card and number. The rules read them on their hot path.

Bitboards are plain ints, bit ``s`` for space ``s`` (``row * 10 + col``).

>>> t = game_tables("classic", 5)
>>> len(t.card_spaces), t.free.bit_count()
(48, 4)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from .board import STRIDE, Bitboard, LineGeometry, Space, line_geometry
from .cards import CARD_COUNT, CARD_KINDS, Card, CardKind
from .games import make_config
from .moves import Move, MoveKind, card_move, place_move, remove_move, replace_move, roll_move

STEPS = (1, STRIDE, STRIDE + 1, STRIDE - 1)
"""How far apart neighbouring spaces are, per direction of board.DIRECTIONS (a bit shift)."""
HEART_SPACES = (44, 45, 54, 55)
"""e5 f5 e6 f6: 5♥ 4♥ 2♥ 3♥ in the middle of the classic board (draft variant)."""
HEART: Bitboard = sum(1 << s for s in HEART_SPACES)

ROLL_OUTCOMES: tuple[tuple[Move, float], ...] = tuple(
    (roll_move(a, b), (1 if a == b else 2) / 36) for a in range(1, 7) for b in range(a, 7)
)


_NBYTES = 13  # 100 spaces fit in 13 bytes


def byte_table(moves_at: dict[Space, Move]) -> tuple[tuple[tuple[Move, ...], ...], ...]:
    """``table[k][b]``: the moves at the spaces of bits ``b`` of byte ``k`` of a bitboard.

    Turning a bitboard into moves a byte at a time costs 13 lookups instead of a loop over
    up to 96 bits: this is the hot path of Jacks, Unicorns, Dragons and Dice.
    """
    table = []
    for k in range(_NBYTES):
        # Each row is built from the row so far: the moves of ``b`` are those of ``b`` without
        # its top bit, then the top bit's (ascending bit order). Building every entry bit by bit
        # cost more than a whole game of classic.
        row: list[tuple[Move, ...]] = [()]
        for top in range(8):
            move = moves_at.get(8 * k + top)
            extra = () if move is None else (move,)
            row += [low + extra for low in row]
        table.append(tuple(row))
    return tuple(table)


def expand(
    table: tuple[tuple[tuple[Move, ...], ...], ...], mask: Bitboard, out: list[Move]
) -> None:
    for k, b in enumerate(mask.to_bytes(_NBYTES, "little")):
        if b:
            out += table[k][b]


@dataclass(frozen=True)
class Tables:
    """Precomputed per game (and line length): geometry and every move object."""

    geo: LineGeometry
    free: Bitboard
    playable: Bitboard
    card_spaces: dict[Card, tuple[Space, ...]]
    card_mask: dict[Card, Bitboard]
    place: dict[Card | None, tuple[tuple[tuple[Move, ...], ...], ...]]
    remove: dict[Card | None, tuple[tuple[tuple[Move, ...], ...], ...]]
    replace: tuple[tuple[tuple[Move, ...], ...], ...]
    ordinary: dict[Card, dict[Bitboard, tuple[Move, ...]]]
    """For an ordinary card: its open spaces (a subset of its two) -> the moves onto them."""
    dead: dict[Card, Move]
    discard: dict[Card, Move]
    """Every card's discard move (a turn with no card to play, RULES.md §2.9)."""
    number_mask: dict[int, Bitboard]
    no_defence: Bitboard
    length: int
    star: list[Bitboard]
    """Per space: the union of its four reaches; too few of a team's chips there, no new line."""
    lines: list[tuple[tuple[Bitboard, int, Bitboard], ...]]
    """Per space, per direction: (its reach, the step between neighbours, where a window
    through the space starts: space - k * step)."""
    by_card: list[tuple[Bitboard, dict[Bitboard, tuple[Move, ...]], Move] | None]
    """Indexed by card, for ordinary cards: (its spaces, open spaces -> moves, dead-card move)."""


@cache
def game_tables(game: str, line_length: int) -> Tables:
    cfg = make_config(game, 2)
    layout = cfg.spec.layout
    geo = line_geometry(layout, line_length)
    playable = layout.playable
    spaces = [s for s in layout.spaces if playable >> s & 1]
    place: dict[Card | None, Any] = {}
    remove: dict[Card | None, Any] = {}
    card_spaces: dict[Card, tuple[Space, ...]] = {}
    ordinary: dict[Card, dict[Bitboard, tuple[Move, ...]]] = {}
    if cfg.spec.uses_cards:
        for card in set(cfg.spec.deck):
            kind = CARD_KINDS[card]
            if kind is CardKind.ORDINARY:
                card_spaces[card] = layout.spaces_by_label[card]
                a, b = card_spaces[card]
                ma, mb = place_move(card, a), place_move(card, b)
                ordinary[card] = {1 << a: (ma,), 1 << b: (mb,), 1 << a | 1 << b: (ma, mb)}
            elif kind is CardKind.WILD:
                place[card] = byte_table({s: place_move(card, s) for s in spaces})
            else:
                remove[card] = byte_table({s: remove_move(card, s) for s in spaces})
        replace_table: Any = ()
    else:
        place[None] = byte_table({s: place_move(None, s) for s in spaces})
        remove[None] = byte_table({s: remove_move(None, s) for s in spaces})
        replace_table = byte_table({s: replace_move(s) for s in spaces})
    number_mask: dict[int, Bitboard] = {}
    if layout.numbered:
        for s, n in layout.labels.items():
            number_mask[n] = number_mask.get(n, 0) | 1 << s
    return Tables(
        geo=geo,
        free=layout.free,
        playable=playable,
        card_spaces=card_spaces,
        card_mask={c: sum(1 << s for s in sp) for c, sp in card_spaces.items()},
        place=place,
        remove=remove,
        replace=replace_table,
        ordinary=ordinary,
        dead={c: card_move(MoveKind.DEAD, c) for c in card_spaces},
        discard={c: card_move(MoveKind.DISCARD, c) for c in set(cfg.spec.deck)},
        number_mask=number_mask,
        no_defence=number_mask.get(2, 0) | number_mask.get(12, 0),
        length=line_length,
        star=[union(geo.reach.get(s, ())) for s in range(100)],
        lines=[
            tuple(
                (
                    reach,
                    step,
                    sum(1 << (s - k * step) for k in range(line_length) if s - k * step >= 0),
                )
                for reach, step in zip(geo.reach.get(s, ()), STEPS, strict=False)
            )
            for s in range(100)
        ],
        by_card=[
            (sum(1 << s for s in card_spaces[c]), ordinary[c], card_move(MoveKind.DEAD, c))
            if c in ordinary
            else None
            for c in range(CARD_COUNT)
        ],
    )


def union(masks: tuple[Bitboard, ...]) -> Bitboard:
    out = 0
    for m in masks:
        out |= m
    return out
