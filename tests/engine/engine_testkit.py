"""Helpers for the engine tests: build positions from a few facts, check illegal moves.

Positions are written in the engine's own position notation (see ``sequence.engine.position``),
so every test starts from text a reader can paste into ``State.from_position``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

import pytest

from sequence.engine import (
    IllegalMoveError,
    Move,
    State,
    make_config,
    parse_space,
    space_name,
)
from sequence.engine.cards import card_name, parse_card
from sequence.engine.errors import MESSAGES
from sequence.engine.position import _config_text  # the game field exactly as the engine writes it

Board = dict[str, str]
"""Team letter (``a``, ``b``, ``c``) -> space names separated by spaces, e.g. ``{"a": "b2 c3"}``."""


def board_text(game: str, players: int, board: Board | None = None, **options: object) -> str:
    """The board field of a position: rows from the top, ``*`` free, ``.`` empty, team letters."""
    cfg = make_config(game, players, **options)  # type: ignore[arg-type]
    layout = cfg.spec.layout
    marks: dict[int, str] = {}
    for letter, names in (board or {}).items():
        for name in names.split():
            space = parse_space(name)
            assert space not in marks, f"{name} given twice"
            marks[space] = letter
    rows = []
    for r in range(layout.rows):
        row = ""
        for c in range(layout.cols):
            s = r * 10 + c
            row += "*" if layout.free >> s & 1 else marks.get(s, ".")
        rows.append(row)
    return "/".join(rows)


def position(
    game: str = "classic",
    players: int = 2,
    *,
    teams: int | None = None,
    board: Board | None = None,
    seqs: str = "-",
    hands: Sequence[str] | None = None,
    discards: Sequence[str] | None = None,
    deck: str = "",
    rest: str = "deck",
    turn: str | None = None,
    extras: str = "",
    **options: object,
) -> str:
    """Write a position string from the facts a test cares about.

    ``hands``/``discards`` are per seat, cards separated by spaces. ``deck`` gives the top of the
    draw pile; the cards not placed anywhere else go after it (``rest="deck"``), or onto seat 1's
    discard pile (``rest="discards"``, for reshuffle tests), in card order.
    """
    cfg = make_config(game, players, teams, **options)  # type: ignore[arg-type]
    head = _config_text(cfg)
    grid = board_text(game, players, board, **options)
    if not cfg.spec.uses_cards:
        return f"{head} {grid} {seqs} - - - {turn or '1:roll'} {extras}".strip()
    n = cfg.players
    hand_lists = [_cards(h) for h in (hands or [""] * n)]
    pile_lists = [_cards(d) for d in (discards or [""] * n)]
    top = _cards(deck)
    draft = []
    for field in extras.split():
        if field.startswith("draft="):
            draft = [parse_card(t) for t in field[6:].split(",") if t]
    left = Counter(cfg.spec.deck)
    for cards in [*hand_lists, *pile_lists, top, draft]:
        left.subtract(cards)
    assert all(v >= 0 for v in left.values()), f"too many copies: {-left}"
    spare = sorted(left.elements())
    if rest == "deck":
        top = top + spare
    else:
        pile_lists[0] = pile_lists[0] + spare

    def per_seat(lists: list[list[int]]) -> str:
        return "/".join(",".join(card_name(c) for c in cards) for cards in lists)

    deck_field = ",".join(card_name(c) for c in top) or "-"
    return (
        f"{head} {grid} {seqs} {per_seat(hand_lists)} {per_seat(pile_lists)} {deck_field} "
        f"{turn or '1:play'} {extras}"
    ).strip()


def state(*args: object, **kwargs: object) -> State:
    """``State.from_position(position(...))``."""
    return State.from_position(position(*args, **kwargs))  # type: ignore[arg-type]


def _cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def cards(text: str) -> tuple[int, ...]:
    """``"5H JD"`` -> the engine's card ints."""
    return tuple(_cards(text))


def spaces(text: str) -> set[int]:
    return {parse_space(t) for t in text.split()}


def chips_of(st: State, team: int) -> set[str]:
    """A team's chips as space names."""
    return {space_name(s) for s in range(100) if st.chips[team] >> s & 1}


def seq_names(st: State, team: int) -> list[str]:
    """A team's sequences as ``first-last`` names."""
    return [f"{space_name(s[0])}-{space_name(s[-1])}" for s in st.sequence_spaces(team)]


def push(st: State, *moves: str, seat: int | None = None) -> None:
    for text in moves:
        st.push(Move.parse(text), seat=seat)


def assert_illegal(st: State, move: str, reason: str, seat: int | None = None) -> None:
    """``move`` is refused and the state is unchanged. ``reason`` is the refusal's code (a key
    of ``MESSAGES``), or a pattern its English message contains."""
    assert reason, "name the reason the move is refused"
    before = st.position()
    before_eq = st.copy()
    m = Move.parse(move)
    assert not st.is_legal(m, seat)
    assert m not in (st.legal_moves if seat is None else st.legal_moves_of(seat))
    with pytest.raises(IllegalMoveError, match=None if reason in MESSAGES else reason) as refused:
        st.push(m, seat=seat)
    assert refused.value.code in MESSAGES
    if reason in MESSAGES:
        assert refused.value.code == reason, refused.value
    assert st.position() == before
    assert st == before_eq


def names(moves: Iterable[Move]) -> set[str]:
    return {str(m) for m in moves}
