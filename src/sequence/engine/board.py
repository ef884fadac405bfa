"""Boards: spaces, their names, the three printed layouts, and line geometry as bitboards.

A :data:`Space` is ``row * 10 + col`` on every board (row 0 is the top), so a space's name does
not depend on the game: ``a1`` is the top-left corner, ``j10`` the bottom-right of the classic
board. Sets of spaces are plain int bitmasks (bit ``s`` set = space ``s`` in the set).

>>> space_name(0), space_name(99), parse_space("c2")
('a1', 'j10', 12)
>>> CLASSIC_BOARD.label_name(parse_space("b2"))
'5C'
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TypeAlias

from .cards import KIDS_ANIMALS, KIDS_FIRST, card_name, parse_card
from .errors import InvalidNotationError

TEAM_LETTERS = "ABCD"
"""Teams as the notation and the board text name them: A, B, C (D: a fourth Kids player)."""

Space: TypeAlias = int
"""A board space: ``row * 10 + col``."""
Bitboard: TypeAlias = int
"""A set of spaces as an int: bit ``s`` is space ``s``."""

STRIDE = 10
FILES = "abcdefghij"


def space_name(space: Space) -> str:
    """``a1`` for the top-left space; columns are letters, rows are numbers from the top."""
    return FILES[space % STRIDE] + str(space // STRIDE + 1)


def parse_space(text: str) -> Space:
    """Read a space name such as ``e5``."""
    t = text.strip().lower()
    if len(t) < 2 or t[0] not in FILES or not t[1:].isdecimal():
        raise InvalidNotationError("not_space", text=text)
    row = int(t[1:]) - 1
    if not 0 <= row < STRIDE:
        raise InvalidNotationError("space_row", text=text)
    return row * STRIDE + FILES.index(t[0])


def spaces_of(mask: Bitboard) -> Iterator[Space]:
    """The spaces in a bitboard, in increasing order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _mask(spaces: list[Space] | tuple[Space, ...]) -> Bitboard:
    m = 0
    for s in spaces:
        m |= 1 << s
    return m


DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
"""Across, down, and the two diagonals."""


@dataclass(frozen=True)
class BoardLayout:
    """A printed board: its size, what each space shows, and its free (corner) spaces."""

    name: str
    rows: int
    cols: int
    labels: dict[Space, int]
    """What each playable space shows: a card for card boards, a number for the Dice board."""
    free: Bitboard
    """Free spaces: a printed chip counting for every team; nobody places there."""
    numbered: bool = False
    """True for the Dice board, whose labels are dice totals rather than cards."""
    spaces: tuple[Space, ...] = field(init=False)
    all_mask: Bitboard = field(init=False)
    playable: Bitboard = field(init=False)
    spaces_by_label: dict[int, tuple[Space, ...]] = field(init=False)

    def __post_init__(self) -> None:
        spaces = tuple(r * STRIDE + c for r in range(self.rows) for c in range(self.cols))
        by_label: dict[int, list[Space]] = {}
        for s in spaces:
            if s in self.labels:
                by_label.setdefault(self.labels[s], []).append(s)
        object.__setattr__(self, "spaces", spaces)
        object.__setattr__(self, "all_mask", _mask(spaces))
        object.__setattr__(self, "playable", _mask(spaces) & ~self.free)
        object.__setattr__(self, "spaces_by_label", {k: tuple(v) for k, v in by_label.items()})

    def label_name(self, space: Space) -> str:
        """What a space shows, in notation: ``5C``, ``LION``, ``7``, or ``**`` for a free space."""
        if self.free >> space & 1:
            return "**"
        label = self.labels[space]
        return str(label) if self.numbered else card_name(label)

    def contains(self, space: Space) -> bool:
        return 0 <= space < 128 and bool(self.all_mask >> space & 1)

    def render(self) -> str:
        """The layout as text, one row a line (used in the docs)."""
        width = max(len(self.label_name(s)) for s in self.spaces)
        head = "    " + " ".join(f"{FILES[c]:<{width}}" for c in range(self.cols))
        lines = [head.rstrip()]
        for r in range(self.rows):
            cells = [f"{self.label_name(r * STRIDE + c):<{width}}" for c in range(self.cols)]
            lines.append(f"{r + 1:>2}  " + " ".join(cells).rstrip())
        return "\n".join(lines)


def _card_layout(name: str, text: str) -> BoardLayout:
    rows = [line.split() for line in text.strip().splitlines()]
    labels: dict[Space, int] = {}
    free = 0
    for r, row in enumerate(rows):
        for c, token in enumerate(row):
            s = r * STRIDE + c
            if token == "**":
                free |= 1 << s
            else:
                labels[s] = parse_card(token)
    return BoardLayout(name, len(rows), len(rows[0]), labels, free)


CLASSIC_BOARD = _card_layout(
    "classic",
    """
    ** 2S 3S 4S 5S 6S 7S 8S 9S **
    6C 5C 4C 3C 2C AH KH QH TH TS
    7C AS 2D 3D 4D 5D 6D 7D 9H QS
    8C KS 6C 5C 4C 3C 2C 8D 8H KS
    9C QS 7C 6H 5H 4H AH 9D 7H AS
    TC TS 8C 7H 2H 3H KH TD 6H 2D
    QC 9S 9C 8H 9H TH QH QD 5H 3D
    KC 8S TC QC KC AC AD KD 4H 4D
    AC 7S 6S 5S 4S 3S 2S 2H 3H 5D
    ** AD KD QD TD 9D 8D 7D 6D **
    """,
)
"""The classic board (RULES.md §2.1): every non-Jack card twice, four free corners."""

# The project's own Kids arrangement (RULES.md §3 Decision): each animal twice, the two copies
# never in one row or column and never touching, diagonals included. Found by a search and
# checked by the tests.
KIDS_BOARD = _card_layout(
    "kids",
    """
    **       TIGER    LION     GIRAFFE  RABBIT   PIG      **
    LION     BEAR     DUCK     ELEPHANT COW      PANDA    ZEBRA
    OWL      RABBIT   PENGUIN  MONKEY   FROG     DUCK     TIGER
    COW      CAT      ZEBRA    PIG      OWL      PENGUIN  FOX
    FOX      FROG     PANDA    HORSE    GIRAFFE  DOG      ELEPHANT
    **       HORSE    BEAR     DOG      CAT      MONKEY   **
    """,
)
assert len(KIDS_BOARD.spaces_by_label) == len(KIDS_ANIMALS)
assert all(KIDS_FIRST <= c < KIDS_FIRST + len(KIDS_ANIMALS) for c in KIDS_BOARD.spaces_by_label)

_DICE_TEXT = """
 2  8  6  5  6  2
 4  9  3  4  3  4
 7  6 12 12  5  8
 3  4 12 12  9  7
 6  9  7  3  8  5
 2  5  8  9  7  2
"""
# The project's own Dice arrangement (RULES.md §4 Decision): 2 in the corners, 12 in the centre,
# 3-9 four times each, no two spaces of one number from 3 to 9 touching, diagonals included.
DICE_BOARD = BoardLayout(
    "dice",
    6,
    6,
    {
        r * STRIDE + c: int(tok)
        for r, line in enumerate(_DICE_TEXT.strip().splitlines())
        for c, tok in enumerate(line.split())
    },
    0,
    numbered=True,
)


@dataclass(frozen=True)
class LineGeometry:
    """Every window of ``length`` spaces in a line on a layout, as bitboards.

    ``through[s]`` lists the windows containing space ``s``; ``reach[s]`` is, per direction, the
    spaces within ``length - 1`` steps of ``s`` on that line, a cheap filter: a direction whose
    reach holds fewer than ``length`` of a team's spaces cannot hold a new sequence through ``s``.
    """

    length: int
    windows: tuple[Bitboard, ...]
    through: dict[Space, tuple[Bitboard, ...]]
    reach: dict[Space, tuple[Bitboard, ...]]
    window_spaces: dict[Bitboard, tuple[Space, ...]]
    """The spaces of each window, in line order."""
    line_of: dict[Bitboard, int]
    """An id of the whole line a window lies on (collinear windows share it)."""
    on_line: dict[int, tuple[Bitboard, ...]]
    """The windows of each line (by ``line_of``'s id), in line order."""


def line_geometry(layout: BoardLayout, length: int) -> LineGeometry:
    """Compute the windows of ``length`` on ``layout`` (all four directions)."""

    def on(r: int, c: int) -> bool:
        return 0 <= r < layout.rows and 0 <= c < layout.cols

    windows: list[Bitboard] = []
    window_spaces: dict[Bitboard, tuple[Space, ...]] = {}
    line_of: dict[Bitboard, int] = {}
    line_id = 0
    for dr, dc in DIRECTIONS:
        for r in range(layout.rows):
            for c in range(layout.cols):
                if on(r - dr, c - dc):
                    continue  # not the start of a line
                line = []
                rr, cc = r, c
                while on(rr, cc):
                    line.append(rr * STRIDE + cc)
                    rr, cc = rr + dr, cc + dc
                for i in range(len(line) - length + 1):
                    spaces = tuple(line[i : i + length])
                    m = _mask(spaces)
                    windows.append(m)
                    window_spaces[m] = spaces
                    line_of[m] = line_id
                line_id += 1
    through = {s: tuple(w for w in windows if w >> s & 1) for s in layout.spaces}
    on_line = {i: tuple(w for w in windows if line_of[w] == i) for i in range(line_id)}
    reach: dict[Space, tuple[Bitboard, ...]] = {}
    for s in layout.spaces:
        r0, c0 = divmod(s, STRIDE)
        per_dir = []
        for dr, dc in DIRECTIONS:
            m = 0
            for k in range(-(length - 1), length):
                if on(r0 + k * dr, c0 + k * dc):
                    m |= 1 << ((r0 + k * dr) * STRIDE + c0 + k * dc)
            per_dir.append(m)
        reach[s] = tuple(per_dir)
    return LineGeometry(length, tuple(windows), through, reach, window_spaces, line_of, on_line)


def board_text(
    layout: BoardLayout, chip_at: Callable[[Space], int | None], locked: Bitboard
) -> str:
    """The board for people (``State.board_text``, ``View.board_text``): each space's label,
    and team letters on chips, those of a completed sequence (``locked``) in capitals, under the
    column letters and beside the row numbers that the move notation uses."""
    lines = ["   " + "".join(f" {FILES[c]}  " for c in range(layout.cols)).rstrip()]
    for r in range(layout.rows):
        cells = []
        for c in range(layout.cols):
            s = r * STRIDE + c
            team = chip_at(s)
            if team is not None:
                letter = TEAM_LETTERS[team]
                mark = letter * 2 if locked >> s & 1 else letter.lower() * 2
                cells.append(f"[{mark}]")
            else:
                cells.append(f" {layout.label_name(s)[:2]:<2} ")
        lines.append(f"{r + 1:>2} " + "".join(cells))
    return "\n".join(lines)
