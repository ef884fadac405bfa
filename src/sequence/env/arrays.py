"""Observations as numpy arrays scaled to [0, 1]: flat, or board planes beside a feature vector.

:class:`Observer` turns one seat's :class:`~sequence.engine.View` into ``float32`` arrays for
learning libraries, built from the engine's bitboards, not space by space: the entries are
written already scaled into a ``float32`` buffer (on the board, only the spaces whose bits
changed since the last observation), a copy of which one numpy call wraps as the observation.
Every value lies in [0, 1]: each entry of :func:`~sequence.env.encode_observation` divided by its
bound (:meth:`~sequence.env.ObservationLayout.high`).

- ``Observer(config)``: the flat form, a vector of ``layout.size`` (the segments of
  :func:`~sequence.env.observation_layout`, scaled);
- ``Observer(config, planes=True)``: a dict, ``{"board": C x rows x cols, "features": F}``:
  the board as planes (:attr:`Observer.channels` names them) and every other segment as a
  vector;
- ``history=K`` adds the last K public moves: the ``history`` segment (one-hot action ids)
  and, with planes, one plane per move marking the space it played on.

Like :func:`~sequence.env.encode_observation`, an observer takes only a seat's ``View``, so an
observation holds nothing that seat may not know. Needs numpy (the ``gym`` extra).

>>> from sequence.engine import State, make_config
>>> config = make_config("classic", players=2)
>>> view = State.new(config, seed=1).view(0)
>>> flat = Observer(config).encode(view)
>>> flat.shape, flat.dtype, float(flat.min()) >= 0.0, float(flat.max()) <= 1.0
((827,), dtype('float32'), True, True)
>>> obs = Observer(config, planes=True, history=2).encode(view)
>>> obs["board"].shape, obs["features"].shape
((9, 10, 10), (1623,))
"""

from __future__ import annotations

from array import array
from operator import itemgetter
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..engine import Config, View
from ..engine.board import STRIDE
from ..engine.cards import CARD_COUNT
from .actions import action_space
from .observation import PHASES, ObservationLayout, observation_layout

FloatArray = NDArray[np.float32]
_FLOAT32 = np.dtype(np.float32)
_frombuffer = np.frombuffer
_READ_VIEW = itemgetter(
    *(
        View._fields.index(name)
        for name in (
            "seat", "config", "chips", "sequences", "turns", "hand_sizes", "deck_size",
            "phase", "to_move", "dead_cards_exchanged", "passes", "roll",
        )
    )
)  # fmt: skip
"""The fields of a :class:`~sequence.engine.View` an observation reads, in one call."""
_Seen = tuple[tuple[int, ...], int, Any, tuple[int, ...], tuple[int, ...], int, "array[float]", int]
"""A seat's last observation, what the next starts from: the chips of each team relative to
the seat (bitboards), the empty spaces, the sequences the locked spaces were read from and
those locked spaces (per relative team), the hand sizes and the deck's size, the buffer
(whose entries match all of these) and the turns completed."""


class Observer:
    """Encodes views of one configuration as arrays (see the module's docs).

    ``planes``: board planes and a feature vector (a dict) instead of one flat vector;
    ``history``: how many past public moves to add (0: none).

    An observation is first written, scaled, into an ``array("f")`` buffer with plain
    Python item assignments, then a copy of it wrapped as a ``float32`` array: one numpy call per
    observation, whatever the configuration (numpy's per-call cost, not the data, is what a
    dozen calls spent; a multiplication by the scales cost more than the copy). Each value
    is written as ``count * scale``, the float32 product numpy's multiplication would give,
    and counts of cards grow by ``1 / copies`` (exact: the copies are a power of two), so the
    batched simulator's observations stay equal to these bit for bit.

    Each observation starts from a copy of the same seat's last one and writes only what
    changed: the board's entries of the bitboard bits that changed (a move changes two or
    three) and the supplies of the teams whose chips changed; the locked spaces and sequence
    counts when the sequences changed; the hand sizes and the deck's size when they changed
    (never, at Dice); the phase, the seat to move and the roll from copies prepared once; the
    turn and the two flags. The card segments (the discard piles' counts kept incrementally),
    the open draws and the last moves are cleared and written again. A view with fewer turns
    than the seat's last (a new game) starts from the empty board instead. The seat's last
    observation is replaced in one assignment and never written to afterwards, so an
    observer may encode any views, in any order, from any threads. The view's fields are
    read in one call and the observer's constants from one attribute: a named tuple's field
    read by name is looked up in its class at every read.
    """

    def __init__(self, config: Config, *, planes: bool = False, history: int = 0) -> None:
        self.config = config
        self.planes = bool(planes)
        self.history = history
        self.layout: ObservationLayout = observation_layout(config, history)
        lay = self.layout
        board = config.spec.layout
        self.rows, self.cols = board.rows, board.cols
        t, p = config.teams, config.players
        self._t, self._p = t, p
        c = len(lay.cards)
        self._c = c
        self.channels: tuple[tuple[str, str], ...] = self._channel_docs()
        """With ``planes``: each board plane's name and meaning, in order."""
        cells = [r * STRIDE + col for r in range(board.rows) for col in range(board.cols)]
        n_cells = len(cells)
        self._cell_of = {s: i for i, s in enumerate(cells)}
        self._playable = board.playable
        # The byte buffer: the flat layout, or the planes then the features (the flat layout's
        # segments after ``locked``, which come first in both).
        tail = lay["sequences"].start
        self._tail_len = lay.size - tail
        self._base = base = len(self.channels) * n_cells if self.planes else tail
        size = base + self._tail_len

        def entry(kind: int, k: int, cell: int) -> int:
            """The byte of space ``cell`` in bitboard kind 0 (chips of team k), 1 (empty),
            2 (free) or 3 (locked by team k)."""
            if self.planes:
                plane = (k, t, t + 1, t + 2 + k)[kind]
                return plane * n_cells + cell
            if kind == 3:
                return n_cells * (t + 2) + cell * t + k
            return cell * (t + 2) + (k, t, t + 1)[kind]

        # The bitboards kept from one observation to the next: chips per relative team, empty
        # spaces, locked spaces per relative team; for each, the byte of each space's bit.
        kinds = [(0, k) for k in range(t)] + [(1, 0)] + [(3, k) for k in range(t)]
        self._entry_of: list[list[int]] = []
        for kind, k in kinds:
            at_space = [-1] * (max(cells) + 1)
            for i, s in enumerate(cells):
                at_space[s] = entry(kind, k, i)
            self._entry_of.append(at_space)
        self._chip_entries = self._entry_of[:t]
        self._empty_entries = self._entry_of[t]
        self._lock_entries = self._entry_of[t + 1 :]
        # The empty board: every playable space empty, the free corners marked.
        first = array("f", bytes(4 * size))
        for i, s in enumerate(cells):
            if board.free >> s & 1:
                first[entry(2, 0, i)] = 1
            elif board.playable >> s & 1:
                first[entry(1, 0, i)] = 1
        hand_plane = (2 * t + 2) * n_cells

        def at(name: str) -> int:
            return lay[name].start - tail + base if name in lay.names else -1

        self._at = {name: at(name) for name in lay.names}
        pos = [-1] * CARD_COUNT
        for i, card in enumerate(lay.cards):
            pos[card] = i
        self._pos = pos
        # Per card id: its byte in the hand segment.
        self._hand_at = [at("hand") + i if i >= 0 else -1 for i in pos]
        self._seats = [[(me + k) % p for k in range(p)] for me in range(p)]
        self._teams = [[(mine + k) % t for k in range(t)] for mine in range(t)]
        # Per team: its chips bitboards in the order of the teams relative to it, as a tuple
        # (every game has two teams or more: itemgetter gives a lone item for one index).
        self._team_chips = [itemgetter(*teams) for teams in self._teams]
        self._per_seat = [
            (self._teams[me % t], self._seats[me], self._team_chips[me % t]) for me in range(p)
        ]
        """Per seat: its relative teams, its relative seats, the getter of its relative chips."""
        self._no_discards: tuple[tuple[int, ...], ...] = ((),) * p
        self._discards: tuple[tuple[tuple[int, ...], ...], array[float]] = (
            self._no_discards,
            array("f", bytes(4 * c)),
        )
        """The last discard piles seen and their card counts, scaled (the ``discards``
        segment)."""
        self._space = action_space(config)
        self._width = self._space.n + 1
        # Planes: the entries of each card's printed spaces (the hand plane), scaled by its
        # copies.
        deck = config.spec.deck
        self._card_copies = max((deck.count(card) for card in lay.cards), default=1)
        self._card_entries: list[list[int]] = [[] for _ in range(CARD_COUNT)]
        for card in lay.cards:
            spaces = board.spaces_by_label.get(card, ())
            self._card_entries[card] = [hand_plane + self._cell_of[s] for s in spaces]
        self._last_plane = hand_plane + (n_cells if c else 0)
        # Each byte's scale: 1 / its bound (1 for 0/1 entries).
        inv_high = (1.0 / np.asarray(lay.high(), dtype=np.float64)).astype(np.float32)
        if self.planes:
            scale = np.ones(size, dtype=np.float32)
            if c:
                scale[hand_plane : hand_plane + n_cells] = 1.0 / self._card_copies
            scale[base:] = inv_high[tail:]
        else:
            scale = inv_high
        # The entries are written already scaled, as ``count * scale`` (a float32 product,
        # rounded as numpy rounds it), so an observation is its buffer copied.
        # Counts of cards are added up copy by copy (+= 1 / copies): exact in float32 only when
        # the copies are a power of two, as in every deck of the family (2 of each card).
        copies = [deck.count(card) for card in lay.cards]
        for n in {*copies, self._card_copies}:
            if n & (n - 1):
                raise ValueError(f"a card with {n} copies: the observer counts powers of two")
        self._card_inc = [float(np.float32(1.0 / n)) for n in copies]
        """Per card position (``layout.cards``): what one copy adds to its scaled count."""
        self._hand_inc = [self._card_inc[i] if i >= 0 else 0.0 for i in pos]
        self._plane_inc = float(np.float32(1.0 / self._card_copies))
        self._sequences_at, self._supply_at = at("sequences"), at("supply")
        self._hand_sizes_at = at("hand_sizes")
        self._deck_at, self._turn_at, self._flags_at = at("deck_size"), at("turn"), at("flags")
        self._phase_at, self._to_move_at = at("phase"), at("to_move")
        scales = scale.tolist()  # Python floats holding the float32 values
        self._sequences_scale = scales[self._sequences_at]
        self._supply_scale = scales[self._supply_at]
        self._hand_sizes_scale = scales[self._hand_sizes_at]
        self._deck_scale, self._turn_scale = scales[self._deck_at], scales[self._turn_at]
        self._dead_scale, self._passes_scale = scales[self._flags_at : self._flags_at + 2]
        # What is written whole at every observation: the phase and the seat to move (two
        # one-hot segments side by side) and, at Dice, the roll, in one copy made once per
        # phase, relative seat and roll (none: zeros), from the phase to the roll's end (the
        # turn and the flags between them are written after it).
        roll_at = at("roll")
        rolls: list[Any] = [None]
        stop = self._phase_at + PHASES + p
        if roll_at >= 0:  # Dice: the segment's size, the layout's
            rolls += [(lo, hi) for lo in range(1, 7) for hi in range(1, 7)]
            stop = roll_at + lay["roll"].size
            assert roll_at > self._flags_at > self._turn_at > self._phase_at
        self._turn_chunks: list[list[dict[Any, array[float]]]] = []
        for phase in range(PHASES):
            row = []
            for rel in range(p):
                by_roll = {}
                for roll in rolls:
                    chunk = array("f", bytes(4 * (stop - self._phase_at)))
                    chunk[phase] = chunk[PHASES + rel] = 1
                    if roll is not None:
                        lo, hi = roll
                        at_roll = roll_at - self._phase_at
                        chunk[at_roll + lo - 1] = chunk[at_roll + 5 + hi] = 1
                        chunk[at_roll + 10 + lo + hi] = 1
                    by_roll[roll] = chunk
                row.append(by_roll)
            self._turn_chunks.append(row)
        self._turn_stop = stop
        # Spans cleared at every observation and then filled (the card segments, the open
        # draws, the last moves; with planes the hand and last-move planes): (start, zeros).
        spans = []
        if self.planes and hand_plane < base:
            spans.append((hand_plane, base))
        if c:
            spans.append((at("hand"), at("discards") + c))
        for name in ("pending_draws", "history"):
            if name in lay.names:
                spans.append((at(name), at(name) + lay[name].size))
        self._zero_spans = [(a, array("f", bytes(4 * (b - a)))) for a, b in spans]
        # Per seat, the empty board its first observation of a game starts from: every space
        # empty, every team's whole supply left, no sequence, no card held.
        self._blank: list[_Seen] = []
        for me in range(p):
            buf = first[:]
            for k, team in enumerate(self._teams[me % t]):
                buf[self._supply_at + k] = config.chips[team] * self._supply_scale
            self._blank.append(((0,) * t, board.playable, None, (0,) * t, (0,) * p, 0, buf, 0))
        self._last: list[_Seen] = self._blank[:]
        """Per seat: its last observation (see :data:`_Seen`). Kept per seat: the teams are
        relative to the observer, so two seats' boards differ in every chip."""
        supplies = [[config.chips[team] for team in self._teams[me % t]] for me in range(p)]
        assert self._flags_at == self._turn_at + 1  # turn, then the two flags
        self._constants = (
            config, board.playable, self._chip_entries, self._empty_entries, self._supply_at,
            self._supply_scale, self._hand_sizes_at, self._hand_sizes_scale, self._deck_at,
            self._deck_scale, self._phase_at, self._turn_stop, p, self._turn_chunks,
            self._turn_at, self._turn_scale, self._dead_scale, self._passes_scale,
            self._zero_spans, self._last,
            [(*self._per_seat[me], supplies[me], self._blank[me]) for me in range(p)],
        )  # fmt: skip
        """What :meth:`encode` reads, in one attribute (see there)."""

    # --- shapes ------------------------------------------------------------------------------

    @property
    def size(self) -> int:
        """The length of the flat form (``layout.size``)."""
        return self.layout.size

    @property
    def board_shape(self) -> tuple[int, int, int]:
        """With ``planes``: ``(channels, rows, cols)``."""
        return (len(self.channels), self.rows, self.cols)

    @property
    def features_size(self) -> int:
        """With ``planes``: the length of the feature vector (every segment after ``locked``)."""
        return self._tail_len

    def _channel_docs(self) -> tuple[tuple[str, str], ...]:
        t = self._t
        out = [(f"chips_{k}", f"a chip of team {k} (0: the observer's)") for k in range(t)]
        out += [("empty", "a playable space with no chip"), ("free", "a free corner")]
        out += [(f"locked_{k}", f"in a completed sequence of team {k}") for k in range(t)]
        if self._c:
            out.append(("hand", "copies in the observer's hand of the card printed here, / copies"))
        out += [(f"last_{k}", f"the space of the move {k + 1} back") for k in range(self.history)]
        return tuple(out)

    # --- encoding ----------------------------------------------------------------------------

    def encode(self, view: View) -> Any:
        """The observation of ``view``: a ``float32`` vector, or with ``planes`` a dict of
        ``board`` (``C x rows x cols``) and ``features``; every value in [0, 1]."""
        if not isinstance(view, View):
            raise TypeError(f"an observation is made from a View, not {type(view).__name__}")
        # The view's fields read in one call, and this observer's constants in one attribute:
        # a view's field, read by name, is looked up in its class at every read (a named
        # tuple's field is a descriptor), which costs more than the rest of a line here.
        (me, config, chips, seqs, turns, sizes, deck, phase, to_move, dead, passes, roll) = (
            _READ_VIEW(view)
        )
        if me is None:
            raise ValueError("a spectator's view has no hand: observe from a seat")
        (
            own_config, playable, chip_entries, empty_entries, supply_at, supply_scale,
            sizes_at, sizes_scale, deck_at, deck_scale, phase_at, phase_stop, p, turn_chunks,
            turn_at, turn_scale, dead_scale, passes_scale, spans, last_seen, per_seat,
        ) = self._constants  # fmt: skip
        if config is not own_config and config != own_config:
            raise ValueError("the view is of another configuration than this observer")
        teams, seats, team_chips, supplies, blank = per_seat[me]
        seen = last_seen[me]
        if turns < seen[7]:  # another game (a new one): start from the empty board
            seen = blank
        last_chips, last_empty, last_seqs, last_locks, last_sizes, last_deck, last, _ = seen
        # A copy of the base's bytes (slicing parses no arguments, unlike array("f", last)),
        # written through a memoryview: an array("f")'s item assignment parses its value as a
        # function's argument, a memoryview's converts it directly. Every entry the view
        # changed since the base's is written below; every other is the base's.
        copy = last[:]
        buf: memoryview[float] = memoryview(copy)
        # The board: only the entries of the bits that changed since the base's. A team's
        # chips changed: its supply too.
        rel = team_chips(chips)
        occupied = 0
        if rel != last_chips:
            for k, (m, was) in enumerate(zip(rel, last_chips)):  # noqa: B905 (as many teams)
                occupied |= m
                changed = m ^ was
                if changed:
                    at_space = chip_entries[k]
                    while changed:
                        low = changed & -changed
                        buf[at_space[low.bit_length() - 1]] = 1 if m & low else 0
                        changed ^= low
                    buf[supply_at + k] = (supplies[k] - m.bit_count()) * supply_scale
        else:
            for m in rel:
                occupied |= m
        empty = playable & ~occupied
        changed = empty ^ last_empty
        while changed:
            low = changed & -changed
            buf[empty_entries[low.bit_length() - 1]] = 1 if empty & low else 0
            changed ^= low
        # The locked spaces and the sequence counts: read again only when the sequences
        # changed (the same tuple while no sequence is made or broken).
        locks = last_locks
        if seqs is not last_seqs:
            locks = self._locks(seqs, teams, last_locks, buf)
        # The hand sizes and the deck's size, when they changed (never, at Dice).
        if sizes != last_sizes:
            at = sizes_at
            for seat in seats:
                buf[at] = sizes[seat] * sizes_scale
                at += 1
        if deck != last_deck:
            buf[deck_at] = deck * deck_scale
        # Written whole: the phase, the seat to move and the roll, then the turn and the flags.
        buf[phase_at:phase_stop] = turn_chunks[phase][(to_move - me) % p][roll]
        buf[turn_at] = turns * turn_scale
        buf[turn_at + 1] = dead * dead_scale
        buf[turn_at + 2] = passes * passes_scale
        # Cleared, then filled: the cards, the open draws, the last moves.
        if spans:
            for start, zeros in spans:
                buf[start : start + len(zeros)] = zeros
            self._fill_rest(view, seats, buf)
        # Not changed after this: others may copy it.
        last_seen[me] = (rel, empty, seqs, locks, sizes, deck, copy, turns)
        # The caller's own copy (they may write to it): a slice of the bytes, which numpy
        # wraps as they are, costs less than numpy's own copy of a buffer.
        out: FloatArray = _frombuffer(copy[:], _FLOAT32)
        if not self.planes:
            return out
        base = self._base
        return {"board": out[:base].reshape(self.board_shape), "features": out[base:]}

    def _fill_rest(self, view: View, seats: list[int], buf: memoryview[float]) -> None:
        """The segments cleared at every observation: the cards, the open draws (option
        ``manual_draw``) and the last moves (``history``)."""
        if self._c:
            self._fill_cards(view, seats, buf)
        if self.config.manual_draw:
            me, base = seats[0], self._at["pending_draws"]
            for seat in view.pending_draws:
                buf[base + (seat - me) % self._p] = 1
        if self.history:
            self._fill_history(view, buf)

    def _locks(
        self,
        seqs: tuple[tuple[int, ...], ...],
        teams: list[int],
        last_locks: tuple[int, ...],
        buf: memoryview[float],
    ) -> tuple[int, ...]:
        """Write the locked spaces (the entries that changed since ``last_locks``) and the
        completed sequences of each relative team; return the locked spaces."""
        locks = []
        at, scale = self._sequences_at, self._sequences_scale
        for k, team in enumerate(teams):
            locked = 0
            for window in seqs[team]:
                locked |= window
            locks.append(locked)
            buf[at + k] = len(seqs[team]) * scale
            changed = locked ^ last_locks[k]
            at_space = self._lock_entries[k]
            while changed:
                low = changed & -changed
                buf[at_space[low.bit_length() - 1]] = 1 if locked & low else 0
                changed ^= low
        return tuple(locks)

    def _fill_cards(self, view: View, seats: list[int], buf: memoryview[float]) -> None:
        """The card segments (and with planes the hand plane), scaled."""
        at, pos, c = self._at, self._pos, self._c
        hand = view.hand
        assert hand is not None
        hand_at, hand_inc = self._hand_at, self._hand_inc
        for card in hand:
            buf[hand_at[card]] += hand_inc[card]
        if self.planes:
            card_entries, inc = self._card_entries, self._plane_inc
            for card in hand:
                for i in card_entries[card]:
                    buf[i] += inc
        if self.config.draft:
            card_inc = self._card_inc
            base = at["known_hands"]
            known = view.known_hands
            for k, seat in enumerate(seats[1:]):
                row = base + k * c
                for card in known[seat]:
                    i = pos[card]
                    buf[row + i] += card_inc[i]
            base = at["draft"]
            for card in view.draft:
                i = pos[card]
                buf[base + i] += card_inc[i]
        discards = view.discards
        base = at["discard_tops"]
        for seat in seats:
            pile = discards[seat]
            if pile:
                buf[base + pos[pile[-1]]] = 1
            base += c
        base = at["discards"]
        buf[base : base + c] = self._discard_counts(discards)

    def _fill_history(self, view: View, buf: memoryview[float]) -> None:
        """The ``history`` segment's one-hot action ids and, with planes, the last-moves
        planes (the space of each move that has one)."""
        index, none, width = self._space.index, self._space.n, self._width
        base = self._at["history"]
        recent = view.move_stack[-self.history :][::-1]
        for k, move in enumerate(recent):
            buf[base + k * width + index.get(move, none)] = 1
        if self.planes:
            plane, n_cells, cell_of = self._last_plane, len(self._cell_of), self._cell_of
            for k, move in enumerate(recent):
                if move.space is not None:
                    buf[plane + k * n_cells + cell_of[move.space]] = 1

    def _discard_counts(self, discards: tuple[tuple[int, ...], ...]) -> array[float]:
        """The copies of each card in all discard piles together, scaled. Piles only grow
        between reshuffles: the cards added since the last piles seen are counted onto their
        counts."""
        last_piles, last_counts = self._discards
        if discards is last_piles:
            return last_counts
        pos, inc = self._pos, self._card_inc
        counts = last_counts[:]
        # As many piles (the same config); a keyword argument costs zip more than the loop.
        for pile, last_pile in zip(discards, last_piles):  # noqa: B905
            if pile is last_pile:
                continue
            n = len(last_pile)
            if len(pile) < n or pile[:n] != last_pile:  # a reshuffle, or another game
                counts = array("f", bytes(4 * self._c))
                for pile_ in discards:
                    for card in pile_:
                        i = pos[card]
                        counts[i] += inc[i]
                break
            for card in pile[n:]:
                i = pos[card]
                counts[i] += inc[i]
        self._discards = (discards, counts)
        return counts

    def describe(self) -> str:
        """The planes, one a line (``planes``), or the flat layout's segments."""
        if not self.planes:
            return self.layout.describe()
        return "\n".join(f"{i:>3} {name:<10} {doc}" for i, (name, doc) in enumerate(self.channels))


__all__ = ["Observer"]
