"""Observations: one seat's :class:`~sequence.engine.View` as a flat list of ints.

An observation is made from a ``View`` only -- never from a ``State`` -- so it holds nothing the
seat may not know: its own hand, the board and everything else public. Its length is fixed for
a configuration (game, players, teams, options); :func:`observation_layout` gives the layout,
with a name, offset, shape and meaning for each segment.

Seats and teams are **relative to the observer**: seat 0 of a segment is the observer, seat 1
the next to play after it, ...; team 0 is the observer's team, team 1 the next team round the
table, ... So one policy can play any seat.

Segments, in order (``S`` spaces = rows x cols of the board, ``T`` teams, ``P`` players,
``C`` distinct cards of the deck: 52 classic, 21 Kids, 0 Dice):

==================  ============  =============================================================
segment             shape         meaning
==================  ============  =============================================================
``board``           S x (T + 2)   per space (row by row): a chip of team 0..T-1, empty, free
                                  corner -- exactly one is 1
``locked``          S x T         the space is in a completed sequence of team t
``sequences``       T             completed sequences per team
``supply``          T             chips each team has left to place
``hand``            C             copies of each card in the observer's hand (card games)
``known_hands``     (P-1) x C     draft only: cards other seats took face up, not yet played
``draft``           C             draft only: the face-up cards to take from
``discard_tops``    P x C         one-hot top card of each seat's discard pile (0s if empty)
``discards``        C             copies of each card in all discard piles together
``hand_sizes``      P             cards in each seat's hand
``deck_size``       1             cards left in the draw pile
``phase``           7             one-hot :class:`~sequence.engine.Phase` (play, pick,
                                  pick_dead, forfeit, roll, act, over)
``to_move``         P             one-hot: the seat whose turn it is
``turn``            1             turns completed
``flags``           2             dead cards exchanged this turn; passes in a row
``pending_draws``   P             manual_draw only: the seat may still draw
``roll``            12 + 11       Dice only: one-hot lower die, higher die (1-6), total (2-12)
``history``         K x (N + 1)   with ``history=K``: one-hot action id of each of the last K
                                  public moves, most recent first (``N`` actions; column ``N``:
                                  a move with no action id, a roll or a table-talk penalty;
                                  a row of 0s before the K-th move)
==================  ============  =============================================================

>>> from sequence.engine import State, make_config
>>> config = make_config("classic", players=2)
>>> layout = observation_layout(config)
>>> layout.size
827
>>> obs = encode_observation(State.new(config, seed=1).view(0))
>>> len(obs) == layout.size, sum(layout.segment(obs, "hand"))
(True, 7)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..engine import Config, Phase, View
from .actions import action_space

PHASES = len(Phase)


@dataclass(frozen=True)
class Segment:
    """One named part of an observation."""

    name: str
    start: int
    shape: tuple[int, ...]
    doc: str

    @property
    def size(self) -> int:
        out = 1
        for d in self.shape:
            out *= d
        return out

    @property
    def stop(self) -> int:
        return self.start + self.size


@dataclass(frozen=True)
class ObservationLayout:
    """Where each part of an observation lies, for one configuration.

    >>> from sequence.engine import make_config
    >>> layout = observation_layout(make_config("dice", players=2))
    >>> layout["roll"].shape, layout.size
    ((23,), 258)
    """

    config: Config
    segments: tuple[Segment, ...]
    cards: tuple[int, ...]
    """The card of each position of the card segments (``hand``, ``discards``, ...)."""
    history: int = 0
    """How many past moves the ``history`` segment holds (0: no such segment)."""

    @property
    def size(self) -> int:
        """The length of every observation of this configuration."""
        return self.segments[-1].stop

    def __getitem__(self, name: str) -> Segment:
        for seg in self.segments:
            if seg.name == name:
                return seg
        raise KeyError(f"no segment {name!r}; segments: {', '.join(self.names)}")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.segments)

    def segment(self, obs: Sequence[Any], name: str) -> list[Any]:
        """The part of ``obs`` that is segment ``name``, as a flat list."""
        seg = self[name]
        return list(obs[seg.start : seg.stop])

    def describe(self) -> str:
        """The layout as text: one segment a line, with its offsets, shape and meaning."""
        return "\n".join(
            f"{s.name:<14} {s.start:>5}-{s.stop - 1:<5} {'x'.join(map(str, s.shape)):<9} {s.doc}"
            for s in self.segments
        )

    def high(self) -> list[int]:
        """The largest value each entry can take (every entry is at least 0).

        Flags and one-hot entries are 1; card counts are bounded by the copies of the card in
        the deck, chip counts by the supply, the turn and the pass counter by option
        ``max_turns``.

        >>> from sequence.engine import make_config
        >>> layout = observation_layout(make_config("classic", players=2))
        >>> high = layout.high()
        >>> [layout.segment(high, name) for name in ("supply", "turn", "flags")]
        [[48, 48], [1000], [1, 1000]]
        """
        cfg = self.config
        deck = cfg.spec.deck
        copies = [deck.count(card) for card in self.cards]
        spaces = cfg.spec.layout.rows * cfg.spec.layout.cols
        bounds: dict[str, list[int]] = {
            "sequences": [spaces],
            "supply": [max(cfg.chips)],  # teams are relative to the observer: any may be first
            "hand": copies,
            "known_hands": copies,
            "draft": copies,
            "discards": copies,
            # Dice has no cards: these stay 0, but a bound of 0 would read as a constant.
            "hand_sizes": [max(len(deck), 1)],
            "deck_size": [max(len(deck), 1)],
            "turn": [cfg.max_turns],
            # A round of passes does not end a game (RULES.md §2.9): passes run on, at most to
            # the turn limit.
            "flags": [max(cfg.spec.dead_cards_per_turn, 1), cfg.max_turns],
        }
        out: list[int] = []
        for seg in self.segments:
            # A segment's bounds repeat over its leading dimensions (one row per seat or team).
            row = bounds.get(seg.name, [1])
            out += row * (seg.size // len(row))
        assert len(out) == self.size
        return out

    def encode(self, view: View) -> list[int]:
        """The observation of ``view`` (see :func:`encode_observation`)."""
        return _encode(self, view)


@cache
def observation_layout(config: Config, history: int = 0) -> ObservationLayout:
    """The observation layout of ``config`` (cached per configuration), with the last
    ``history`` public moves at its end when ``history`` is above 0."""
    if not isinstance(history, int) or isinstance(history, bool) or history < 0:
        raise ValueError(f"history is a number of moves (0 or more), not {history!r}")
    spec = config.spec
    layout = spec.layout
    s_count = layout.rows * layout.cols
    t, p = config.teams, config.players
    cards = tuple(sorted(set(spec.deck)))
    c = len(cards)
    parts: list[tuple[str, tuple[int, ...], str]] = [
        ("board", (s_count, t + 2), "per space: team 0..T-1 chip, empty, free corner"),
        ("locked", (s_count, t), "per space: in a completed sequence of team t"),
        ("sequences", (t,), "completed sequences per team"),
        ("supply", (t,), "chips left to place per team"),
    ]
    if c:
        parts.append(("hand", (c,), "copies of each card in the observer's hand"))
        if config.draft:
            parts.append(("known_hands", (p - 1, c), "cards seats 1..P-1 took face up"))
            parts.append(("draft", (c,), "the face-up cards"))
        parts += [
            ("discard_tops", (p, c), "one-hot top of each seat's discard pile"),
            ("discards", (c,), "copies of each card in all discard piles"),
        ]
    parts += [
        ("hand_sizes", (p,), "cards in each seat's hand"),
        ("deck_size", (1,), "cards left in the draw pile"),
        ("phase", (PHASES,), "one-hot phase: " + ", ".join(ph.name.lower() for ph in Phase)),
        ("to_move", (p,), "one-hot seat to move"),
        ("turn", (1,), "turns completed"),
        ("flags", (2,), "dead cards exchanged this turn; passes in a row"),
    ]
    if config.manual_draw:
        parts.append(("pending_draws", (p,), "the seat may still draw"))
    if config.game == "dice":
        parts.append(("roll", (23,), "one-hot lower die 1-6, higher die 1-6, total 2-12"))
    if history:
        n = action_space(config).n
        parts.append(
            ("history", (history, n + 1), "one-hot action of the last moves, latest first")
        )
    segments: list[Segment] = []
    start = 0
    for name, shape, doc in parts:
        seg = Segment(name, start, shape, doc)
        segments.append(seg)
        start = seg.stop
    return ObservationLayout(config, tuple(segments), cards, history)


def encode_observation(view: View, history: int = 0) -> list[int]:
    """One seat's view as a flat list of ints, laid out by :func:`observation_layout`.

    Only a :class:`~sequence.engine.View` of a seat is accepted (not a ``State``, not a
    spectator's view), so nothing hidden can get in.

    >>> from sequence.engine import State, make_config
    >>> state = State.new(make_config("kids", players=3), seed=2)
    >>> obs = encode_observation(state.view(1))
    >>> layout = observation_layout(state.config)
    >>> layout.segment(obs, "hand_sizes"), layout.segment(obs, "deck_size")
    ([3, 3, 3], [33])
    """
    if not isinstance(view, View):
        raise TypeError(f"an observation is made from a View, not {type(view).__name__}")
    return _encode(observation_layout(view.config, history), view)


def _encode(lay: ObservationLayout, view: View) -> list[int]:
    if view.seat is None:
        raise ValueError("a spectator's view has no hand: observe from a seat")
    if view.config != lay.config:
        raise ValueError("the view is of another configuration than this layout")
    cfg = view.config
    board = cfg.spec.layout
    p, t = cfg.players, cfg.teams
    me, my_team = view.seat, view.seat % t
    seats = [(me + k) % p for k in range(p)]
    teams = [(my_team + k) % t for k in range(t)]
    pos = {card: i for i, card in enumerate(lay.cards)}
    c = len(lay.cards)
    out: list[int] = []

    chips = [view.chips[team] for team in teams]
    occupied = view.occupied
    free = board.free
    cells = board.rows * board.cols
    for r in range(board.rows):
        for col in range(board.cols):
            s = r * 10 + col
            row = [m >> s & 1 for m in chips]
            is_free = free >> s & 1
            row.append(int(not occupied >> s & 1 and not is_free))
            row.append(is_free)
            out += row
    locks = []
    for team in teams:
        m = 0
        for w in view.sequences[team]:
            m |= w
        locks.append(m)
    for r in range(board.rows):
        for col in range(board.cols):
            s = r * 10 + col
            out += [m >> s & 1 for m in locks]
    assert len(out) == cells * (2 * t + 2)
    out += [len(view.sequences[team]) for team in teams]
    out += [view.supply(team) for team in teams]

    def counts(cards: Sequence[int]) -> list[int]:
        row = [0] * c
        for card in cards:
            row[pos[card]] += 1
        return row

    if c:
        assert view.hand is not None
        out += counts(view.hand)
        if cfg.draft:
            for seat in seats[1:]:
                out += counts(view.known_hands[seat])
            out += counts(view.draft)
        for seat in seats:
            pile = view.discards[seat]
            out += counts(pile[-1:])
        out += counts([card for pile in view.discards for card in pile])
    out += [view.hand_sizes[seat] for seat in seats]
    out.append(view.deck_size)
    phase = [0] * PHASES
    phase[int(view.phase)] = 1
    out += phase
    out += [int(seat == view.to_move) for seat in seats]
    out.append(view.turns)
    out += [view.dead_cards_exchanged, view.passes]
    if cfg.manual_draw:
        out += [int(seat in view.pending_draws) for seat in seats]
    if cfg.game == "dice":
        roll = [0] * 23
        if view.roll is not None:
            lo, hi = view.roll
            roll[lo - 1] = 1
            roll[6 + hi - 1] = 1
            roll[12 + lo + hi - 2] = 1
        out += roll
    if lay.history:
        space = action_space(cfg)
        width = space.n + 1
        recent = view.move_stack[-lay.history :][::-1]
        for move in recent:
            row = [0] * width
            row[space.index.get(move, space.n)] = 1
            out += row
        out += [0] * (width * (lay.history - len(recent)))
    return out


def as_array(values: Sequence[int]) -> Any:
    """``values`` as a numpy ``float32`` array, for those who have numpy (it is not required).

    Raises :class:`ImportError` with a clear message when numpy is not installed.
    """
    try:
        import numpy  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise ImportError(
            "as_array needs numpy, which sequence does not depend on: pip install numpy,"
            " or use the plain lists"
        ) from None
    return numpy.asarray(values, dtype=numpy.float32)


__all__ = [
    "ObservationLayout",
    "Segment",
    "as_array",
    "encode_observation",
    "observation_layout",
]
