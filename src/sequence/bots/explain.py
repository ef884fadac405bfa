"""What a move does, in words a front end can translate: the notes of the hints and the review.

A :class:`Note` is a code of :data:`NOTE_MESSAGES` and its parameters, like the engine's errors:
the English template is the catalogues' msgid, and :func:`sequence.i18n.notes.translate_note`
renders it in a player's language (cards named as people name them). Nothing here reads more
than one seat's :class:`~sequence.engine.View`: the board facts (a team's fours and open threes,
the sequences a move completes) are public, and a move's effect on the board is read from a
state dealt from the view (:meth:`State.sample_from_view`), where no hidden card changes it.

>>> from sequence.engine import State, make_config
>>> view = State.new(make_config("classic", players=2), seed=3).view(0)
>>> str(Note("blocks_four", team="B", span="d4-d7"))
'blocks team B, one chip from a sequence on d4-d7'
>>> open_lines(view.chips, view.sequences, view.config, team=1, need=1)
()
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, ClassVar

from ..engine import (
    TEAM_LETTERS,
    Bitboard,
    CardKind,
    Config,
    Move,
    MoveKind,
    State,
    View,
    card_kind,
    card_name,
    space_name,
)
from ..engine.board import LineGeometry, line_geometry
from ..engine.errors import _m

NOTE_MESSAGES: dict[str, str] = {
    # what a move does (the hints, and each reviewed move)
    "wins_game": _m("wins the game"),
    "completes_sequence": _m("completes a sequence on {span}"),
    "blocks_four": _m("blocks team {team}, one chip from a sequence on {span}"),
    "breaks_four": _m("removes a chip of team {team}, one chip from a sequence on {span}"),
    "blocks_three": _m("blocks team {team}, two chips from a sequence on {span}"),
    "breaks_three": _m("removes a chip of team {team}, two chips from a sequence on {span}"),
    "makes_four": _m("comes one chip from a sequence on {span}"),
    "makes_three": _m("comes two chips from a sequence on {span}"),
    "two_lines": _m("builds two lines at once"),
    "exchanges_dead": _m("exchanges a dead card for a fresh one: {card}"),
    "discards_least": _m("gives up the card that helps least: {card}"),
    "picks_most": _m("takes the most useful face-up card: {card}"),
    "keeps_wild": _m("keeps a card that goes anywhere for later: {card}"),
    "keeps_remover": _m("keeps a card that removes a chip for later: {card}"),
    "search_best": _m("tried against many guesses of the cards you cannot see, it comes out best"),
    # what the review flags
    "missed_win": _m("{better} would have won the game"),
    "missed_sequence": _m("{better} would have completed a sequence on {span}"),
    "unblocked_four": _m("left team {team} one chip from a sequence on {span}: {better} blocks it"),
    "wasted_jack_same": _m("spent {card} on {space}, where {better} puts the same chip"),
    "wasted_jack": _m("spent {card} for little: {better} was better and keeps it"),
    "dead_card_kept": _m("kept a dead card ({card}): exchanging it was free"),
    "better_move": _m("{better} was better"),
    # what the review adds to a sound move that is a turning point for the worse
    "unlucky": _m("a good move: the chances fell, but no other move was clearly better"),
}
"""Every note's code and its English template. ``{card}`` is a card's notation and ``{better}``
a move's (a front end says both in words, in the player's language:
:func:`sequence.i18n.notes.translate_note`), ``{span}`` the first and last space of a line
(``d4-d7``), ``{space}`` a space, ``{team}`` a team's letter. "One chip from a sequence"
is a four in classic, a three in Kids: the words hold in every game."""

FLAG_CODES = frozenset(
    {"missed_win", "missed_sequence", "unblocked_four", "wasted_jack_same", "wasted_jack",
     "dead_card_kept", "better_move"}
)  # fmt: skip
"""The codes that say a move was a mistake (the others say what a move does)."""


@dataclass(frozen=True)
class Note:
    """One thing said about a move: a code of :data:`NOTE_MESSAGES` with its parameters."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)

    messages: ClassVar[Mapping[str, str]] = NOTE_MESSAGES
    """The templates, as on the engine's errors (:func:`sequence.i18n.notes.translate_note`)."""

    def __init__(self, code: str, /, **params: Any) -> None:
        if code not in NOTE_MESSAGES:  # a programming error: every note has a template
            raise KeyError(f"no note {code!r}")
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "params", params)

    @property
    def template(self) -> str:
        return NOTE_MESSAGES[self.code]

    def __str__(self) -> str:
        return self.template.format(**self.params)

    def to_dict(self) -> dict[str, Any]:
        """``{"code", "params", "text"}``: JSON-ready, the text in English."""
        return {"code": self.code, "params": dict(self.params), "text": str(self)}


@dataclass(frozen=True)
class _Lines:
    geo: LineGeometry
    free: Bitboard


@cache
def _lines(config: Config) -> _Lines:
    layout = config.spec.layout
    return _Lines(line_geometry(layout, config.line_length), layout.free)


def open_lines(
    chips: tuple[Bitboard, ...],
    seqs: tuple[tuple[Bitboard, ...], ...],
    config: Config,
    team: int,
    need: int,
) -> tuple[Bitboard, ...]:
    """The windows (a line's ``line_length`` spaces, as a bitboard) that ``team`` could complete
    with exactly ``need`` more chips: none of another team's chips in it, and not two spaces
    shared with one of its own sequences. ``need=1`` gives its fours, ``need=2`` its open threes
    (in a 5-space line)."""
    lines = _lines(config)
    own = chips[team] | lines.free
    others = 0
    for t, m in enumerate(chips):
        if t != team:
            others |= m
    length = config.line_length
    out = []
    for w in lines.geo.windows:
        if w & others:
            continue
        if (own & w).bit_count() != length - need:
            continue
        if any((w & s).bit_count() > 1 for s in seqs[team]):
            continue
        out.append(w)
    return tuple(out)


def span(config: Config, window: Bitboard, filled: Bitboard | None = None) -> str:
    """A window as ``first-last`` of its spaces in line order (of those in ``filled`` only,
    when given: a four's chips and free corners, not its gap)."""
    spaces = _lines(config).geo.window_spaces[window]
    if filled is not None:
        spaces = tuple(s for s in spaces if filled >> s & 1) or spaces
    return f"{space_name(spaces[0])}-{space_name(spaces[-1])}"


@dataclass(frozen=True)
class After:
    """The public position a move leaves: chips, sequences, and the winner if it ends the game."""

    chips: tuple[Bitboard, ...]
    sequences: tuple[tuple[Bitboard, ...], ...]
    winner: int | None


def after(state: State, move: Move) -> After:
    """What ``move`` leaves on the board of ``state`` (pushed and popped back). The chips and
    sequences a move leaves do not depend on any hidden card, so a deal sampled from the mover's
    view gives the same answer as the true state."""
    state.push(move)
    try:
        outcome = state.outcome
        return After(state.chips, state.sequences, None if outcome is None else outcome.winner)
    finally:
        state.pop()


def describe(view: View, move: Move, left: After, *, keeps: bool = False) -> list[Note]:
    """What ``move`` does for the viewer's team, most important first; ``left`` is what it
    leaves (:func:`after`). ``keeps``: also say which Jacks (Unicorns, Dragons) it keeps."""
    cfg = view.config
    team = view.team
    assert team is not None
    kind = move.kind
    notes: list[Note] = []
    if kind is MoveKind.DEAD:
        return [Note("exchanges_dead", card=card_name(move.card))]  # type: ignore[arg-type]
    if kind is MoveKind.DISCARD or kind is MoveKind.FORFEIT:
        return [Note("discards_least", card=card_name(move.card))]  # type: ignore[arg-type]
    if kind is MoveKind.PICK:
        return [Note("picks_most", card=card_name(move.card))]  # type: ignore[arg-type]
    if left.winner == team:
        notes.append(Note("wins_game"))
    before_seqs = set(view.sequences[team])
    completed = [w for w in left.sequences[team] if w not in before_seqs]
    for w in completed:
        notes.append(Note("completes_sequence", span=span(cfg, w)))
    breaking = kind is MoveKind.REMOVE
    for o in range(cfg.teams):
        if o == team:
            continue
        letter = TEAM_LETTERS[o]
        theirs = view.chips[o] | _lines(cfg).free
        for need, place_code, remove_code in ((1, "blocks_four", "breaks_four"),
                                              (2, "blocks_three", "breaks_three")):  # fmt: skip
            now = open_lines(view.chips, view.sequences, cfg, o, need)
            still = set(open_lines(left.chips, left.sequences, cfg, o, need))
            closed = [w for w in now if w not in still]
            if closed:
                code = remove_code if breaking else place_code
                notes.append(Note(code, team=letter, span=span(cfg, closed[0], theirs)))
                break
    if not completed and kind is not MoveKind.REMOVE:
        mine = left.chips[team] | _lines(cfg).free
        grown = []
        for need, code in ((1, "makes_four"), (2, "makes_three")):
            had = set(open_lines(view.chips, view.sequences, cfg, team, need))
            new = [w for w in open_lines(left.chips, left.sequences, cfg, team, need)
                   if w not in had and move.space is not None and w >> move.space & 1]  # fmt: skip
            if new:
                notes.append(Note(code, span=span(cfg, new[0], mine)))
                grown += new
        geo = _lines(cfg).geo
        if len({geo.line_of[w] for w in grown}) >= 2:
            notes.append(Note("two_lines"))
    if keeps and view.hand is not None:
        spent = move.card
        for want, code in ((CardKind.WILD, "keeps_wild"), (CardKind.REMOVER, "keeps_remover")):
            held = [c for c in view.hand if card_kind(c) is want]
            if held and (spent is None or card_kind(spent) is not want):
                notes.append(Note(code, card=card_name(held[0])))
    return notes
