"""The first games that teach: a prepared deal for classic, Kids and Dice, and each step's script.

A :class:`Lesson` is a position in the engine's notation (the board, both hands and the draw
pile in its order; no random source is needed), the seat of the learner, and its
:class:`Step`\\ s: what the step says (an English catalogue msgid, translated where shown), the
moves that it accepts (each rule done once, on the space the step points at), the roll the
learner's dice show (Dice) and the scripted opponent's answer (its rolls and moves) before the
next step. :class:`~sequence.learn.game.LessonGame` plays a lesson; both front ends render it.

Every rule is the engine's: the lesson only narrows the learner's legal moves to the one it
teaches, and a test plays every accepted move of every step to the end, where the learner wins.

>>> sorted(LESSONS)
['classic', 'dice', 'kids']
>>> [step.key for step in LESSONS["classic"].steps]
['place', 'one_eyed_jack', 'dead_card', 'two_eyed_jack', 'sequence']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..engine import Move, MoveKind, card_name, make_config, parse_card
from ..i18n import N_

__all__ = ["LESSONS", "Lesson", "Step", "deal_position"]


@dataclass(frozen=True)
class Step:
    """One thing the learner does, once."""

    key: str
    """What the step teaches (``place``, ``one_eyed_jack``, ``dragon``, ``roll_10``, ...)."""
    says: str
    """The step's words, an English msgid with ``{card}``, ``{spaces}`` and ``{total}`` fields."""
    moves: tuple[str, ...]
    """The moves it accepts, in notation (the engine still checks each)."""
    roll: str | None = None
    """Dice: the roll the learner's dice show before the move (``roll:2+4``)."""
    reply: tuple[str, ...] = ()
    """The opponent's rolls and moves after this step, before the next one."""

    @property
    def accepted(self) -> tuple[Move, ...]:
        return tuple(Move.parse(m) for m in self.moves)

    @property
    def card(self) -> str | None:
        """The card the step plays (notation), or ``None`` (a Dice move)."""
        cards = {m.card for m in self.accepted if m.card is not None}
        return card_name(cards.pop()) if len(cards) == 1 else None

    @property
    def spaces(self) -> tuple[int, ...]:
        """The spaces the step points at (none for a dead card's exchange)."""
        return tuple(m.space for m in self.accepted if m.space is not None)

    @property
    def total(self) -> int | None:
        """Dice: the total of :attr:`roll`."""
        if self.roll is None:
            return None
        dice = Move.parse(self.roll).dice
        assert dice is not None
        return dice[0] + dice[1]


@dataclass(frozen=True)
class Lesson:
    """A first game: where it starts, who learns, and the steps in order."""

    game: str
    position: str
    """The prepared deal, in position notation (:meth:`~sequence.engine.State.from_position`)."""
    steps: tuple[Step, ...]
    welcome: str
    """What the lesson says first (a msgid)."""
    won: str
    """What it says at the end, when the learner has won (a msgid)."""
    seat: int = 0
    """The learner's seat (the other is the scripted opponent)."""


def deal_position(
    game: str,
    board: Sequence[str],
    hands: Sequence[Sequence[str]],
    draws: Sequence[str] = (),
    sequences: str = "-",
) -> str:
    """A position for a lesson: ``board`` rows (``.`` empty, ``*`` free, ``a``/``b`` chips),
    each seat's hand, the first cards of the draw pile; the rest of the deck follows them in
    the deck's own order, so the cards add up as the engine checks. Seat 1 is to act."""
    cfg = make_config(game, len(hands))
    if not cfg.spec.uses_cards:
        return f"{game}/{cfg.players} {'/'.join(board)} {sequences} - - - 1:roll"
    left = Counter(cfg.spec.deck)
    for text in (*(c for hand in hands for c in hand), *draws):
        left[parse_card(text)] -= 1
    if any(n < 0 for n in left.values()):
        raise ValueError(f"a lesson deals more cards than {game}'s deck holds: {+left}")
    rest: list[str] = []
    for card in cfg.spec.deck:
        if left[card] > 0:
            left[card] -= 1
            rest.append(card_name(card))
    pile = ",".join((*draws, *rest))
    dealt = "/".join(",".join(hand) for hand in hands)
    return f"{game}/{cfg.players} {'/'.join(board)} {sequences} {dealt} / {pile} 1:play"


# --- classic: you are team A; with two players two sequences win, and one is already yours ------

CLASSIC = Lesson(
    game="classic",
    position=deal_position(
        "classic",
        [
            "*........*",
            "..........",
            ".aa.......",
            "..........",
            "...b...b..",
            ".......ba.",
            ".......b..",
            "..........",
            ".aaaaa....",
            "*........*",
        ],
        [["3D", "JS", "6H", "JD", "5D", "KC", "9S"], ["8D", "2H", "9C", "QC", "7C", "4S", "TH"]],
        draws=["KH", "AC", "QS", "2C", "TC", "3S", "8H", "4H"],
        sequences="A:b9-f9",
    ),
    welcome=N_(
        "Your first game of Sequence. You are team A, against the computer. Five chips in a row"
        " make a sequence; with two players, two sequences win. You already have one, on row 9."
    ),
    won=N_(
        "Two sequences: you won! You have used every rule of Sequence. Next, play a whole game"
        " against the computer."
    ),
    steps=(
        Step(
            "place",
            N_(
                "Each turn you play a card from your hand and put a chip on a space that shows"
                " the same card. Play {card} on {spaces}."
            ),
            ("3D@d3",),
            reply=("8D@h4",),
        ),
        Step(
            "one_eyed_jack",
            N_(
                "Team B has four chips in a row: one more makes a sequence. A one-eyed Jack"
                " ({card}) takes an opponent's chip off the board: remove one of {spaces}."
            ),
            ("JSxh4", "JSxh5", "JSxh6", "JSxh7"),
            reply=("2H@e6",),
        ),
        Step(
            "dead_card",
            N_(
                "Both spaces of {card} are taken, so the card is dead. Exchange it for a new"
                " card: it costs nothing, and you still play this turn."
            ),
            ("dead:6H",),
        ),
        Step(
            "two_eyed_jack",
            N_(
                "A two-eyed Jack ({card}) is wild: it puts a chip on any empty space. Put one"
                " on {spaces}."
            ),
            ("JD@e3",),
            reply=("9C@c7",),
        ),
        Step(
            "sequence",
            N_("You have four in a row. Play {card} on {spaces} to complete a sequence."),
            ("5D@f3",),
        ),
    ),
)

# --- Kids: you are red; four in a row win, and a corner counts for everyone ----------------------

KIDS = Lesson(
    game="kids",
    position=deal_position(
        "kids",
        [
            "*.....*",
            ".......",
            ".......",
            "..bb...",
            ".......",
            "*.....*",
        ],
        [["TIGER", "DRAGON", "UNICORN"], ["OWL", "HORSE", "FOX"]],
        draws=["GIRAFFE", "CAT", "PIG", "DUCK", "LION", "FROG"],
    ),
    welcome=N_(
        "Sequence for Kids: play a card, then put a chip on the same animal on the board. Four"
        " chips in a row win, and a corner counts for everyone."
    ),
    won=N_("Four in a row: you won!"),
    steps=(
        Step(
            "place",
            N_("Play {card} and put a chip on its picture: {spaces}."),
            ("TIGER@b1",),
            reply=("OWL@e4",),
        ),
        Step(
            "dragon",
            N_(
                "The other player has three in a row. The Dragon takes away one of their"
                " chips: take one off {spaces}."
            ),
            ("DRAGONxc4", "DRAGONxd4", "DRAGONxe4"),
            reply=("HORSE@d5",),
        ),
        Step(
            "unicorn",
            N_("The Unicorn puts a chip on any empty space. Put it on {spaces}."),
            ("UNICORN@c1",),
            reply=("FOX@g4",),
        ),
        Step(
            "win",
            N_("Play {card} on {spaces}: with the corner, that makes four in a row!"),
            ("GIRAFFE@d1",),
        ),
    ),
)

# --- Dice: you are team A; five in a row win ----------------------------------------------------

DICE = Lesson(
    game="dice",
    position=deal_position(
        "dice",
        [
            "...a..",
            "......",
            "....b.",
            "......",
            "bbb..b",
            ".a....",
        ],
        [[], []],
    ),
    welcome=N_(
        "Sequence Dice: roll two dice and put a chip on a space that shows the total. Five"
        " chips in a row win. Some totals do more: this game shows each."
    ),
    won=N_("Five in a row: you won! You have used every roll of Sequence Dice."),
    steps=(
        Step(
            "roll",
            N_("Roll the dice, then put a chip on a space that shows the total {total}: {spaces}."),
            ("@b3",),
            roll="roll:2+4",
            reply=("roll:1+2", "@d5"),
        ),
        Step(
            "roll_10",
            N_(
                "A 10 is defence: take one opponent's chip off the board (never from a 2 or a"
                " 12). They have four in a row: remove one of {spaces}."
            ),
            ("xa5", "xb5", "xc5", "xd5"),
            roll="roll:4+6",
            reply=("roll:1+3", "@a2"),
        ),
        Step(
            "roll_12",
            N_(
                "A 2 or a 12 gives you another turn after your chip. Put it on {spaces}, then"
                " roll again."
            ),
            ("@c3",),
            roll="roll:6+6",
        ),
        Step(
            "roll_11",
            N_("An 11 is wild: put a chip on any empty space. Put it on {spaces}."),
            ("@d3",),
            roll="roll:5+6",
            reply=("roll:4+5", "@b2"),
        ),
        Step(
            "replace",
            N_(
                "All four spaces of {total} are covered. Take the opponent's chip off {spaces}"
                " and put yours there."
            ),
            ("=e3",),
            roll="roll:1+4",
            reply=("roll:3+4", "@e6"),
        ),
        Step(
            "win",
            N_("Roll a {total} and complete your row on {spaces}: five in a row win!"),
            ("@f3",),
            roll="roll:3+5",
        ),
    ),
)

LESSONS: dict[str, Lesson] = {lesson.game: lesson for lesson in (CLASSIC, KIDS, DICE)}
"""The first game of each game that has one (the draft variant is classic's)."""

KINDS_TAUGHT: dict[str, frozenset[MoveKind]] = {
    "classic": frozenset({MoveKind.PLACE, MoveKind.REMOVE, MoveKind.DEAD}),
    "kids": frozenset({MoveKind.PLACE, MoveKind.REMOVE}),
    "dice": frozenset({MoveKind.PLACE, MoveKind.REMOVE, MoveKind.REPLACE}),
}
"""The kinds of move each lesson makes the learner do (a test holds the scripts to them)."""
