"""Observations as numpy arrays scaled to [0, 1]: flat, or board planes beside a feature vector.

:class:`Observer` turns one seat's :class:`~sequence.engine.View` into ``float32`` arrays for
learning libraries, built with numpy from the engine's bitboards (one ``np.unpackbits`` for the
whole board, one ``np.bincount`` for every card count and one-hot entry), not space by space.
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

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..engine import Config, View
from ..engine.board import STRIDE
from ..engine.cards import CARD_COUNT
from .actions import action_space
from .observation import ObservationLayout, observation_layout

FloatArray = NDArray[np.float32]

_NBYTES = 13
"""A bitboard's bytes: spaces are ``row * 10 + col``, below 100, so 13 bytes hold them all."""
_BITS = 8 * _NBYTES


class Observer:
    """Encodes views of one configuration as arrays (see the module's docs).

    ``planes``: board planes and a feature vector (a dict) instead of one flat vector;
    ``history``: how many past public moves to add (0: none).
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
        cells = [r * STRIDE + c for r in range(board.rows) for c in range(board.cols)]
        self._cells = np.asarray(cells, dtype=np.intp)
        self._cell_of = {s: i for i, s in enumerate(cells)}
        # Where each entry of the board and locked segments, and of the board planes, lies in
        # the bits of _board_bits: bitboard k's bit of space s is k * 104 + s.
        bit = 8 * _NBYTES
        board_part = [k * bit + s for s in cells for k in range(t + 2)]
        locked_part = [(t + 2 + k) * bit + s for s in cells for k in range(t)]
        self._flat_order = np.asarray(board_part + locked_part, dtype=np.intp)
        self._plane_order = np.asarray(
            [[k * bit + s for s in cells] for k in range(2 * t + 2)], dtype=np.intp
        )
        self._playable = board.playable
        self._free = board.free
        self._inv_high = (1.0 / np.asarray(lay.high(), dtype=np.float64)).astype(np.float32)
        self._tail = lay["sequences"].start  # board and locked come first, the rest after
        self._tail_len = lay.size - self._tail
        tail = self._tail

        def at(name: str) -> int:
            return lay[name].start - tail if name in lay.names else -1

        self._at = {name: at(name) for name in lay.names}
        c = len(lay.cards)
        self._c = c
        pos = [-1] * CARD_COUNT
        for i, card in enumerate(lay.cards):
            pos[card] = i
        self._pos = pos
        # Per card id: where one copy of it counts in the hand and discards segments.
        self._hand_at = [at("hand") + i if i >= 0 else -1 for i in pos]
        self._discards_at = [at("discards") + i if i >= 0 else -1 for i in pos]
        self._seats = [[(me + k) % p for k in range(p)] for me in range(p)]
        # Scalar entries (counts, not one-hot): where each lies in the tail, in the order
        # _scalars gives them.
        scalar_pos: list[int] = []
        scalar_pos += [at("sequences") + k for k in range(t)]
        scalar_pos += [at("supply") + k for k in range(t)]
        scalar_pos += [at("hand_sizes") + k for k in range(p)]
        scalar_pos += [at("deck_size"), at("turn"), at("flags"), at("flags") + 1]
        self._scalar_pos = np.asarray(scalar_pos, dtype=np.intp)
        self._space = action_space(config)
        self._width = self._space.n + 1
        # Planes: each card's printed spaces as cells (the hand plane), scaled by its copies.
        deck = config.spec.deck
        self._card_cells: list[list[int]] = [[] for _ in range(CARD_COUNT)]
        for card in lay.cards:
            spaces = board.spaces_by_label.get(card, ())
            self._card_cells[card] = [self._cell_of[s] for s in spaces]
        self._card_copies = max((deck.count(card) for card in lay.cards), default=1)
        self.channels: tuple[tuple[str, str], ...] = self._channel_docs()
        """With ``planes``: each board plane's name and meaning, in order."""

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
        if view.seat is None:
            raise ValueError("a spectator's view has no hand: observe from a seat")
        if view.config is not self.config and view.config != self.config:
            raise ValueError("the view is of another configuration than this observer")
        bits = self._board_bits(view)
        out = np.empty(self.layout.size, dtype=np.float32)
        self._fill_tail(view, out[self._tail :])
        if not self.planes:
            out[: self._tail] = bits[self._flat_order]
            out *= self._inv_high
            return out
        features = out[self._tail :]
        features *= self._inv_high[self._tail :]
        return {"board": self._board_planes(view, bits), "features": features}

    def _board_bits(self, view: View) -> NDArray[np.uint8]:
        """Per relative team its chips, then empty and free, then per team its locked spaces,
        each as the 104 bits of its bitboard, in one flat array of 0s and 1s."""
        t = self._t
        my_team = view.seat % t  # type: ignore[operator]
        chips = view.chips
        masks = [chips[(my_team + k) % t] for k in range(t)]
        occupied = 0
        for m in chips:
            occupied |= m
        masks += [self._playable & ~occupied, self._free]
        seqs = view.sequences
        for k in range(t):
            locked = 0
            for window in seqs[(my_team + k) % t]:
                locked |= window
            masks.append(locked)
        # One int of every bitboard end to end, 104 bits apart: one to_bytes, one unpackbits.
        packed = 0
        for m in reversed(masks):
            packed = packed << _BITS | m
        raw = packed.to_bytes(_NBYTES * len(masks), "little")
        return np.unpackbits(np.frombuffer(raw, dtype=np.uint8), bitorder="little")

    def _fill_tail(self, view: View, out: NDArray[np.float32]) -> None:
        """Every segment after ``locked`` into ``out``, unscaled: one-hot entries and card
        counts by one bincount, then the counts at their places."""
        at, pos, c = self._at, self._pos, self._c
        t, p = self._t, self._p
        me = view.seat
        assert me is not None
        my_team = me % t
        seats = self._seats[me]
        ones: list[int] = []
        if c:
            assert view.hand is not None
            off = self._hand_at
            ones += [off[card] for card in view.hand]
            if self.config.draft:
                base = at["known_hands"]
                known = view.known_hands
                for k, seat in enumerate(seats[1:]):
                    ones += [base + k * c + pos[card] for card in known[seat]]
                base = at["draft"]
                ones += [base + pos[card] for card in view.draft]
            discards = view.discards
            base = at["discard_tops"]
            for k, seat in enumerate(seats):
                pile = discards[seat]
                if pile:
                    ones.append(base + k * c + pos[pile[-1]])
            off = self._discards_at
            ones += [off[card] for pile in discards for card in pile]
        ones.append(at["phase"] + int(view.phase))
        ones.append(at["to_move"] + (view.to_move - me) % p)
        if self.config.manual_draw:
            base = at["pending_draws"]
            ones += [base + (seat - me) % p for seat in view.pending_draws]
        if view.roll is not None and at["roll"] >= 0:
            lo, hi = view.roll
            base = at["roll"]
            ones += [base + lo - 1, base + 5 + hi, base + 10 + lo + hi]
        if self.history:
            index, none, width = self._space.index, self._space.n, self._width
            base = at["history"]
            recent = view.move_stack[-self.history :][::-1]
            ones += [base + k * width + index.get(m, none) for k, m in enumerate(recent)]
        out[:] = np.bincount(ones, minlength=self._tail_len)
        teams = [(my_team + k) % t for k in range(t)]
        scalars = [len(view.sequences[team]) for team in teams]
        scalars += [view.supply(team) for team in teams]
        sizes = view.hand_sizes
        scalars += [sizes[seat] for seat in seats]
        scalars += [view.deck_size, view.turns, int(view.dead_card_exchanged), view.passes]
        out[self._scalar_pos] = scalars

    def _board_planes(self, view: View, bits: NDArray[np.uint8]) -> FloatArray:
        rows, cols = self.rows, self.cols
        planes = np.zeros((len(self.channels), rows * cols), dtype=np.float32)
        k = 2 * self._t + 2
        planes[:k] = bits[self._plane_order]
        if self._c:
            assert view.hand is not None
            card_cells = self._card_cells
            cells = [cell for card in view.hand for cell in card_cells[card]]
            if cells:
                planes[k] = np.bincount(cells, minlength=rows * cols) / self._card_copies
            k += 1
        if self.history:
            cell_of = self._cell_of
            for j, move in enumerate(view.move_stack[-self.history :][::-1]):
                if move.space is not None:
                    planes[k + j, cell_of[move.space]] = 1.0
        return planes.reshape(len(self.channels), rows, cols)

    def describe(self) -> str:
        """The planes, one a line (``planes``), or the flat layout's segments."""
        if not self.planes:
            return self.layout.describe()
        return "\n".join(f"{i:>3} {name:<10} {doc}" for i, (name, doc) in enumerate(self.channels))


__all__ = ["Observer"]
