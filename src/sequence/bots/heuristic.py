"""The evaluation shared by the greedy bot and the Monte Carlo search: lines, threats, Jacks.

Everything here reads public information (chips, sequences) plus the deciding seat's own hand,
so it works on a :class:`~sequence.engine.View` and on the states a search deals for itself.

The evaluation in one paragraph (``docs/bots.md`` has the tables): a *window* is every run of
``line_length`` spaces in a line. A window is *open* to a team when it holds no other team's
chip (free corners count for everyone) and does not share two spaces with one of the team's own
completed sequences (it could not become a new sequence). A placement on space ``s`` is worth
the sum, over the windows through ``s``, of

- **attack**: :data:`ATTACK` by how many chips the team would still need after this one
  (0 = it completes a sequence, worth :data:`WIN` when that wins the game);
- **block**: :data:`BLOCK` by how many chips an opponent still needs in a window open to it
  (1 = a four that would complete next turn, 2 = an open three).

Summing over windows is what makes a space that serves several lines (a corner, a crossing)
worth more than one that serves one. A two-eyed Jack (or Unicorn) placement pays
:data:`WILD_COST` and a one-eyed Jack (or Dragon) removal :data:`REMOVER_COST`, so they are kept
for moves that win, complete a sequence or stop one. A removal is worth the danger of the chip
removed: the :data:`BLOCK` value of the opponent's windows through it.

>>> from sequence.engine import State, make_config
>>> view = State.new(make_config("kids", players=2), seed=3).view(None)
>>> ev = Evaluator(view.config)
>>> value = [ev.position_value(view.chips, view.sequences, team) for team in (0, 1)]
>>> value[0] == value[1]
True
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass
from functools import cache

from ..engine import CardKind, Config, Move, MoveKind, View, card_kind
from ..engine.board import Bitboard, Space, line_geometry

ATTACK = (1000.0, 90.0, 18.0, 4.0, 1.0, 0.3, 0.1)
"""Attack value of a window through the space, by chips the team still needs *after* placing."""
BLOCK = (700.0, 70.0, 9.0, 2.0, 0.5, 0.2, 0.1)
"""Block value of an opponent's open window through the space, by chips it still needs."""
WIN = 100_000.0
"""A placement that wins the game outright."""
POSITION = (2000.0, 120.0, 20.0, 4.0, 1.0, 0.3, 0.1)
"""Position value of an open window, by chips still needed (0: a completed sequence)."""
WILD_COST = 160.0
"""What spending a two-eyed Jack or Unicorn costs (a Dice 11 is free: nothing is spent)."""
REMOVER_COST = 160.0
"""What spending a one-eyed Jack or Dragon costs (a Dice 10 is free)."""
DEAD_VALUE = 50_000.0
"""Exchanging a dead card: always worth it (the turn goes on with a fresh card)."""
JACK_KEEP = 400.0
"""How much holding a Jack is worth when choosing what to discard, forfeit or pick."""
SEQUENCE_BONUS = 3000.0
"""Position value of each completed sequence."""
HELD_WILD = 100.0
"""Position value of a two-eyed Jack or Unicorn in a team's hands (a search must not waste it)."""
HELD_REMOVER = 70.0
"""Position value of a one-eyed Jack or Dragon in a team's hands."""


@dataclass(frozen=True)
class _Geo:
    length: int
    windows: tuple[Bitboard, ...]
    through: dict[Space, tuple[Bitboard, ...]]
    free: Bitboard
    card_spaces: dict[int, tuple[Space, ...]]
    heart: Bitboard


@cache
def _geo(config: Config) -> _Geo:
    layout = config.spec.layout
    geo = line_geometry(layout, config.line_length)
    windows = list(geo.windows)
    through = {s: list(ws) for s, ws in geo.through.items()}
    heart = 0
    if config.draft:
        from ..engine.tables import HEART

        heart = HEART
    card_spaces = {} if layout.numbered else dict(layout.spaces_by_label)
    return _Geo(
        length=config.line_length,
        windows=tuple(windows),
        through={s: tuple(ws) for s, ws in through.items()},
        free=layout.free,
        card_spaces=card_spaces,
        heart=heart,
    )


def _blocked_by_own(w: Bitboard, seqs: tuple[Bitboard, ...]) -> bool:
    return any((w & e).bit_count() > 1 for e in seqs)


@cache
def evaluator_for(config: Config) -> Evaluator:
    """The one :class:`Evaluator` of a configuration (it holds only tables derived from it)."""
    return Evaluator(config)


class Evaluator:
    """Scores moves and positions for one game configuration (cheap: bit counts over windows).

    >>> from sequence.engine import make_config, parse_space
    >>> ev = Evaluator(make_config("classic", players=2))
    >>> chips = (sum(1 << s for s in (1, 2, 3)), 0)   # b1 c1 d1: with the a1 corner, four in a row
    >>> ev.place_value(chips, ((), ()), 0, parse_space("e1")) >= 1000
    True
    """

    def __init__(self, config: Config) -> None:
        self.config = config
        self.geo = _geo(config)
        self.teams = config.teams
        self.length = config.line_length
        self.to_win = config.sequences_to_win
        self.dice = config.game == "dice"
        self.gone: tuple[Bitboard, ...] = (0,) * self.teams
        """For each team, the spaces it can fill only with a two-eyed Jack (:meth:`informed`)."""
        self.wilds: tuple[int, ...] = (0,) * self.teams
        """For each team, how many two-eyed Jacks it might still place (:meth:`informed`)."""

    def informed(self, view: View) -> Evaluator:
        """This evaluator, told which cards ``view``'s seat knows are gone for good.

        A space whose card has no copy left that a team could still hold (every copy is in a
        discard pile, or in this seat's hand when the team is another) can be filled by that
        team only with a two-eyed Jack. Each such space a window still needs counts as one
        chip more to find, and a window needing more of them than the team has Jacks left to
        place is no threat at all. Only the view is read (discards are public); the plain
        evaluator (greedy's) knows nothing of the cards.

        >>> from sequence.engine import State, make_config
        >>> view = State.new(make_config("classic", players=2), seed=3).view(0)
        >>> evaluator_for(view.config).informed(view).gone
        (0, 0)
        """
        g = self.geo
        if not g.card_spaces or view.hand is None:
            return self
        unseen = Counter(view.unseen_pool)
        hand = Counter(view.hand)
        wild_unseen = sum(k for c, k in unseen.items() if card_kind(c) is CardKind.WILD)
        wild_mine = sum(k for c, k in hand.items() if card_kind(c) is CardKind.WILD)
        gone_mine = gone_theirs = 0
        for card, spaces in g.card_spaces.items():
            if unseen[card]:
                continue
            mask = 0
            for s in spaces:
                mask |= 1 << s
            gone_theirs |= mask
            if not hand[card]:
                gone_mine |= mask
        if not gone_theirs:
            return self
        me = view.team
        out = copy.copy(self)
        out.gone = tuple(gone_mine if t == me else gone_theirs for t in range(self.teams))
        out.wilds = tuple(
            wild_unseen + wild_mine if t == me else wild_unseen for t in range(self.teams)
        )
        return out

    def _extra(self, team: int, missing: Bitboard) -> int:
        """Chips more that ``team`` must find for a window whose empty spaces are ``missing``:
        one per space only a two-eyed Jack fills, or -1 when it has too few Jacks left."""
        k = (missing & self.gone[team]).bit_count()
        if k > self.wilds[team]:
            return -1
        return k

    # --- placements and removals ---------------------------------------------------------------

    def place_value(
        self,
        chips: tuple[Bitboard, ...],
        seqs: tuple[tuple[Bitboard, ...], ...],
        team: int,
        space: Space,
        replaced: int | None = None,
    ) -> float:
        """Attack plus block value of ``team`` putting a chip on ``space``.

        ``replaced`` is the team whose chip is taken off that space first (Dice ``=s``).
        """
        g = self.geo
        bit = 1 << space
        if replaced is not None:
            chips = tuple(m & ~bit for m in chips)
        occ = 0
        for m in chips:
            occ |= m
        own = chips[team] | g.free
        others = occ & ~chips[team]
        my_seqs = seqs[team]
        need_base = self.length - 1
        gone_t = self.gone[team]
        value = 0.0
        completes = 0
        for w in g.through[space]:
            if w & others:
                continue
            if my_seqs and _blocked_by_own(w, my_seqs):
                continue
            need = need_base - (own & w).bit_count()
            if need == 0:
                completes += 1
            elif gone_t:
                extra = self._extra(team, w & ~own & ~bit)
                if extra < 0:
                    continue
                need = min(need + extra, len(ATTACK) - 1)
            value += ATTACK[need]
        if completes and len(my_seqs) + min(completes, 2) >= self.to_win:
            value += WIN
        if g.heart and g.heart & bit and not g.heart & others:
            need = 4 - ((chips[team] | bit) & g.heart).bit_count()
            value += WIN if need == 0 else ATTACK[need]
        for o in range(self.teams):
            if o == team:
                continue
            value += self._threat(chips, seqs, o, space, occ)
        return value

    def _threat(
        self,
        chips: tuple[Bitboard, ...],
        seqs: tuple[tuple[Bitboard, ...], ...],
        o: int,
        space: Space,
        occ: Bitboard,
    ) -> float:
        """How much team ``o`` would gain on ``space`` (what a chip there blocks)."""
        g = self.geo
        theirs = chips[o] | g.free
        not_theirs = occ & ~chips[o]
        their_seqs = seqs[o]
        gone_o = self.gone[o]
        value = 0.0
        wins = 0
        for w in g.through[space]:
            if w & not_theirs:
                continue
            if their_seqs and _blocked_by_own(w, their_seqs):
                continue
            need = self.length - (theirs & w).bit_count()
            if gone_o:
                extra = self._extra(o, w & ~theirs)
                if extra < 0:
                    continue
                need = min(need + extra, len(BLOCK))
            if need == 1:
                wins += 1
            value += BLOCK[need - 1]
        if wins and len(their_seqs) + 1 >= self.to_win:
            value += WIN / 10
        if g.heart and g.heart >> space & 1 and not g.heart & not_theirs:
            need = 4 - (chips[o] & g.heart).bit_count()
            value += WIN / 10 if need == 1 else BLOCK[need - 1]
        return value

    def remove_value(
        self,
        chips: tuple[Bitboard, ...],
        seqs: tuple[tuple[Bitboard, ...], ...],
        team: int,
        space: Space,
    ) -> float:
        """The danger of the opponent chip on ``space``: what its owner's windows through it hold.

        Plus a little for the room it opens in our own windows.
        """
        bit = 1 << space
        owner = next((t for t, m in enumerate(chips) if m & bit), None)
        if owner is None or owner == team:
            return 0.0
        without = chips[:owner] + (chips[owner] & ~bit,) + chips[owner + 1 :]
        occ = 0
        for m in without:
            occ |= m
        g = self.geo
        theirs = chips[owner] | g.free
        not_theirs = occ & ~without[owner]
        value = 0.0
        for w in g.through[space]:
            if w & not_theirs:
                continue
            if seqs[owner] and _blocked_by_own(w, seqs[owner]):
                continue
            # Chips the owner still needs in the window with the chip in place: 1 is a four,
            # valued like blocking a four (``BLOCK[need - 1]``, as in :meth:`_threat`).
            need = self.length - (theirs & w).bit_count()
            if self.gone[owner]:
                extra = self._extra(owner, w & ~theirs)
                if extra < 0:
                    continue
                need += extra
            if 1 <= need <= len(BLOCK):
                value += BLOCK[need - 1] * 1.5
        if g.heart and g.heart & bit and not g.heart & not_theirs:
            need = 4 - (chips[owner] & g.heart).bit_count()
            if need >= 1:
                value += BLOCK[need - 1] * 1.5
        # Freeing the space helps our own windows a little.
        own = chips[team] | g.free
        others = occ & ~chips[team]
        for w in g.through[space]:
            if not w & others:
                value += ATTACK[min(self.length - 1 - (own & w).bit_count(), len(ATTACK) - 1)] * 0.2
        return value

    def card_value(
        self,
        chips: tuple[Bitboard, ...],
        seqs: tuple[tuple[Bitboard, ...], ...],
        team: int,
        card: int,
    ) -> float:
        """What holding ``card`` is worth: a Jack a lot, an ordinary card its best open space."""
        kind = card_kind(card)
        if kind is not CardKind.ORDINARY:
            return JACK_KEEP
        occ = 0
        for m in chips:
            occ |= m
        best = 0.0
        for s in self.geo.card_spaces.get(card, ()):
            if not occ >> s & 1:
                best = max(best, self.place_value(chips, seqs, team, s) + 1.0)
        return best

    def move_value(
        self,
        move: Move,
        chips: tuple[Bitboard, ...],
        seqs: tuple[tuple[Bitboard, ...], ...],
        team: int,
    ) -> float:
        """The one-ply value of ``move`` for ``team``, Jack costs included."""
        kind = move.kind
        if kind is MoveKind.PLACE:
            v = self.place_value(chips, seqs, team, move.space)  # type: ignore[arg-type]
            if move.card is not None and card_kind(move.card) is CardKind.WILD:
                v -= WILD_COST
            return v
        if kind is MoveKind.REMOVE:
            v = self.remove_value(chips, seqs, team, move.space)  # type: ignore[arg-type]
            return v - REMOVER_COST if move.card is not None else v
        if kind is MoveKind.REPLACE:
            space: Space = move.space  # type: ignore[assignment]
            bit = 1 << space
            owner = next((t for t, m in enumerate(chips) if m & bit), None)
            return self.place_value(chips, seqs, team, space, replaced=owner) + self.remove_value(
                chips, seqs, team, space
            )
        if kind is MoveKind.DEAD:
            return DEAD_VALUE
        if kind is MoveKind.DISCARD or kind is MoveKind.FORFEIT:
            return -self.card_value(chips, seqs, team, move.card)  # type: ignore[arg-type]
        if kind is MoveKind.PICK:
            return self.card_value(chips, seqs, team, move.card)  # type: ignore[arg-type]
        if kind is MoveKind.DRAW:
            return DEAD_VALUE
        return 0.0

    # --- positions ------------------------------------------------------------------------------

    def hand_value(self, cards: tuple[int, ...]) -> float:
        """Position value of the Jacks (Unicorns, Dragons) in a hand: :data:`HELD_WILD` and
        :data:`HELD_REMOVER` each, so a search spends them only for more than that."""
        value = 0.0
        for c in cards:
            kind = card_kind(c)
            if kind is CardKind.WILD:
                value += HELD_WILD
            elif kind is CardKind.REMOVER:
                value += HELD_REMOVER
        return value

    def position_value(
        self, chips: tuple[Bitboard, ...], seqs: tuple[tuple[Bitboard, ...], ...], team: int
    ) -> float:
        """Static value of the board for ``team``: completed sequences plus open windows."""
        g = self.geo
        occ = 0
        for m in chips:
            occ |= m
        own = chips[team] | g.free
        others = occ & ~chips[team]
        my_seqs = seqs[team]
        gone_t = self.gone[team]
        value = SEQUENCE_BONUS * len(my_seqs)
        base = self.length
        for w in g.windows:
            if w & others:
                continue
            n = (own & w).bit_count()
            if n < 2:
                continue
            if my_seqs and _blocked_by_own(w, my_seqs):
                continue
            if gone_t and n < base:
                extra = self._extra(team, w & ~own)
                if extra < 0:
                    continue
                n = max(n - extra, 0)
            value += POSITION[base - n]
        if g.heart and not g.heart & others:
            value += POSITION[4 - (chips[team] & g.heart).bit_count()] * 2
        return value
