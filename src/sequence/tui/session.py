"""A game at the terminal, without the screen: who sits where, bots, undo, save and load.

The terminal game's widgets render what a :class:`Session` says and send it the player's
choices. The session knows no rule either: it asks the engine (``state.view(seat)``,
``view.legal_moves``, ``state.push(move, seat=...)``) and passes the engine's reasons on.

>>> from sequence.tui.session import GameSetup, Session
>>> session = Session.start(GameSetup(game="classic", players=2, seats=("human", "random"), seed=3))
>>> session.config.players, session.is_human(0)
(2, True)
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from pathlib import Path

from ..bots import BOTS, Bot, make_bot, parse_spec
from ..bots.arena import Forfeit, Late
from ..bots.base import seat_seed
from ..bots.isolated import contained_bot, is_user_bot, protect_process
from ..engine import (
    GAME_NAMES,
    OPTIONS,
    SPECS,
    ConfigError,
    GameRecord,
    IllegalMoveError,
    Move,
    MoveKind,
    RecordError,
    State,
    StepKind,
    View,
    base_game,
    make_config,
)
from ..engine.games import Config
from ..i18n import N_

HUMAN = "human"
GAME_CHOICES: tuple[str, ...] = GAME_NAMES
"""The games offered at the start screen: the draft tournament variant counts as a game."""
LEVELS: tuple[str, ...] = ("easy", "medium", "hard", "expert")


def bot_choices() -> tuple[str, ...]:
    """The bots a seat may be given: the levels first (those that exist), then every other bot."""
    levels = tuple(level for level in LEVELS if level in BOTS)
    return levels + tuple(sorted(name for name in BOTS if name not in levels))


def default_bot() -> str:
    """The level a seat gets when none is named: ``medium`` once it exists, else the first bot."""
    choices = bot_choices()
    return "medium" if "medium" in choices else choices[0]


# --- what the start screen offers, as the engine declares it --------------------------------------

MAX_SEATS = max(n for spec in SPECS.values() for n in spec.player_counts)
"""The most seats a game of the family has."""


class Marked(Exception):
    """An error of the terminal game itself, kept as a catalogue msgid and its values.

    ``str(exc)`` is the English text; the screens show ``Gettext.error(exc)``, the player's.
    """

    def __init__(self, msgid: str, **values: object) -> None:
        # Not the engine's coded constructor (for the engine error types mixed in below): the
        # message is the terminal game's own, a catalogue msgid; the engine's fields say so.
        Exception.__init__(self, msgid.format(**values))
        self.msgid = msgid
        self.values = values
        self.code: str = "terminal"
        self.params: dict[str, object] = {}
        self.move: str | None = None


class Refused(Marked, IllegalMoveError):
    """The session refuses an action (nothing to undo, no dice to roll)."""


class BadRecord(Marked, RecordError):
    """A saved game that cannot be resumed with the seats given."""


class BadSetup(Marked, ValueError):
    """Command-line options that describe no game."""


@dataclass(frozen=True)
class GameSetup:
    """Everything the start screen (or the command line) decides before a game begins."""

    game: str = "classic"
    """``classic``, ``kids``, ``dice`` or ``draft`` (classic with the draft option)."""
    players: int = 2
    teams: int | None = None
    """``None``: the engine's default for the player count."""
    seats: tuple[str, ...] = ()
    """Per seat, ``human`` or a bot name; missing seats are filled by :meth:`seat_kinds`."""
    difficult: bool = False
    manual_draw: bool = False
    line_length: int = 5
    """Dice only: 5 or 6 in a row to win."""
    seed: int | None = None
    """The seed of the shuffle and the dice; ``None``: a random one, too large to guess and never
    shown (it would give every hand away)."""
    undo: bool = True
    """Undo allowed (casual games); ``rated`` turns it off."""
    rated: bool = False
    bell: bool = False
    """Ring the terminal's bell when a person's turn begins (off unless asked for)."""

    def config(self) -> Config:
        """The engine configuration; raises :class:`ConfigError` with the engine's reason.

        A rule option the game does not take is left out: the start screen keeps a box ticked
        while another game is chosen. (``sequence play`` refuses it instead.)"""
        game, options = base_game(self.game)
        rules = {
            "difficult": self.difficult,
            "manual_draw": self.manual_draw,
            "dice_line_length": self.line_length if self.line_length != 5 else None,
        }
        for name, value in rules.items():
            if value not in (None, False) and game in OPTIONS[name].games:
                options[name] = value
        return make_config(game, self.players, self.teams, **options)

    def seat_kinds(self) -> tuple[str, ...]:
        """``human`` or a bot name for every seat: seat 1 human, the others the default bot."""
        kinds = list(self.seats[: self.players])
        while len(kinds) < self.players:
            kinds.append(HUMAN if not kinds else default_bot())
        for kind in kinds:
            if kind != HUMAN:
                check_spec(kind)
        return tuple(kinds)

    @property
    def undo_allowed(self) -> bool:
        return self.undo and not self.rated


@dataclass
class Session:
    """One game being played: the state, who sits in each seat, and the history of who moved."""

    state: State
    seats: tuple[str, ...]
    undo_allowed: bool = True
    bots: dict[int, Bot] = field(default_factory=dict)
    actors: list[int | None] = field(default_factory=list)
    """Who made each move of ``state.move_stack``: a seat, or ``None`` for the host (a penalty)."""
    forfeit: Forfeit | None = None
    """A bot lost the game by a fault of its own (it raised, or returned no legal move); the
    game is over, as in a tournament."""
    setup: GameSetup | None = None
    """The choices the game was started with (``None``: a loaded game)."""
    hints_allowed: bool = True
    """``h`` gives a hint (casual games); off in a rated game (``--rated``)."""

    @classmethod
    def start(cls, setup: GameSetup) -> Session:
        """A new game; raises ConfigError or ValueError (unknown bot) with the reason."""
        config = setup.config()
        seats = setup.seat_kinds()
        seed = secrets.randbits(62) if setup.seed is None else setup.seed
        state = State.new(config, seed)
        return cls(
            state, seats, setup.undo_allowed, _bots(seats, seed), setup=setup,
            hints_allowed=not setup.rated,
        )  # fmt: skip

    @classmethod
    def load(
        cls, text: str, seats: tuple[str, ...] = (), undo: bool = True, hints: bool = True
    ) -> Session:
        """Resume a saved game (a GameRecord); seats default to the record's tags; ``undo`` and
        ``hints`` off for a rated game."""
        record = GameRecord.load(text)
        state = record.replay()
        n = state.config.players
        kinds = list(seats) or [
            record.tags.get(f"Seat{i + 1}", HUMAN if i == 0 else default_bot()) for i in range(n)
        ]
        if not seats and "Table" in record.tags:
            # A game downloaded from the web app: its seat tags are players' names, or the level
            # of a bot that sat there.
            kinds = [kind if kind in BOTS else HUMAN for kind in kinds]
        if len(kinds) != n:
            raise BadRecord(N_("the saved game has {n} seats, not {given}"), n=n, given=len(kinds))
        for kind in kinds:
            if kind != HUMAN:
                check_spec(kind)
        session = cls(
            state, tuple(kinds), undo, _bots(tuple(kinds), record.seed), hints_allowed=hints
        )
        session.actors = _actors_of(record)
        return session

    # --- who acts ---------------------------------------------------------------------------------

    @property
    def config(self) -> Config:
        return self.state.config

    def is_human(self, seat: int) -> bool:
        return self.seats[seat] == HUMAN

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(s for s, kind in enumerate(self.seats) if kind == HUMAN)

    @property
    def over(self) -> bool:
        """The game has ended: by the rules, or a bot lost it (:attr:`forfeit`)."""
        return self.forfeit is not None or self.state.is_over()

    def lose(self, seat: int, reason: str | Late) -> None:
        """The bot at ``seat`` loses the game, as in a tournament, for ``reason`` (the arena's
        words: ``choose() raised KeyError: 7 (at mybot.py:12)``, or its code for a bot over the
        time limit)."""
        cfg = self.config
        self.forfeit = Forfeit.of(seat, cfg.team_of(seat), self.seats[seat], reason)

    def winners(self) -> tuple[int, ...]:
        """The teams that won (none: a draw, or the game goes on)."""
        if self.forfeit is not None:
            return tuple(t for t in range(self.config.teams) if t != self.forfeit.team)
        outcome = self.state.outcome
        return () if outcome is None or outcome.winner is None else (outcome.winner,)

    def actor(self) -> int | None:
        """The seat whose play comes next (at Dice, the one about to roll; option manual_draw:
        the previous seat may still draw meanwhile); ``None`` when over."""
        if self.over or self.state.next_step().kind is StepKind.OVER:
            return None
        return self.state.to_move

    def view(self, seat: int | None) -> View:
        return self.state.view(seat)

    def bot_for(self, seat: int) -> Bot:
        return self.bots[seat]

    # --- acting -----------------------------------------------------------------------------------

    def push(self, move: Move, seat: int | None) -> None:
        """Make ``move`` for ``seat`` (``None``: the host); IllegalMoveError says why not."""
        self.state.push(move, seat=seat)
        self.actors.append(seat if seat is not None else None)

    def roll(self) -> Move:
        """Dice: roll for the seat to move (the game's own seeded dice)."""
        step = self.state.next_step()
        if step.kind is not StepKind.ROLL:
            raise Refused(N_("no dice to roll now"))
        move = self.state.sample_chance()
        self.state.push(move)
        self.actors.append(step.seat)
        return move

    def close(self) -> None:
        """Stop the bots' processes (a user's bot plays in one of its own)."""
        for bot in self.bots.values():
            bot.close()

    def can_undo(self) -> bool:
        """Undo is on and a human has made a move that can be taken back."""
        return self.undo_allowed and self._undo_point() is not None

    def undo(self) -> int:
        """Take back moves to the last decision of a human seat; return how many were undone."""
        if not self.undo_allowed:
            raise Refused(N_("Undo is off in this game."))
        point = self._undo_point()
        if point is None:
            raise Refused(N_("There is no move of yours to take back."))
        count = 0
        while len(self.state.move_stack) > point:
            self.state.pop()
            self.actors.pop()
            count += 1
        return count

    def _undo_point(self) -> int | None:
        moves = self.state.move_stack
        # The state may hold moves from before this session (a loaded game): those have actors too.
        for i in range(len(moves) - 1, -1, -1):
            seat = self.actors[i] if i < len(self.actors) else None
            if moves[i].kind is MoveKind.ROLL or moves[i].kind is MoveKind.DRAW:
                continue
            if seat is not None and self.is_human(seat):
                return i
        return None

    # --- saving ------------------------------------------------------------------------------

    def record(self) -> GameRecord:
        """The game so far as a record; the seats go in its tags so a resumed game keeps them."""
        tags = {f"Seat{i + 1}": kind for i, kind in enumerate(self.seats)}
        if self.forfeit is not None:  # as a tournament's record says it
            tags["Forfeit"] = self.forfeit.message()
        return GameRecord.from_state(self.state, tags=tags)

    def save(self, path: Path) -> None:
        """Write the game as GameRecord JSON."""
        path.write_text(self.record().to_json(indent=1) + "\n", encoding="utf-8")


def check_spec(kind: str) -> None:
    """Raise ValueError if ``kind`` names no bot. A user's ``module:Class`` is only parsed here:
    its module is imported in the bot's own process (``_bots``), which says if it fails."""
    if is_user_bot(kind):
        parse_spec(kind)
    else:
        make_bot(kind)  # raises ValueError naming the known bots


def _bots(seats: tuple[str, ...], seed: int) -> dict[int, Bot]:
    if any(kind != HUMAN and is_user_bot(kind) for kind in seats):
        protect_process()  # this process holds every hand: a user's bot may not read it
    bots: dict[int, Bot] = {}
    try:
        for s, kind in enumerate(seats):
            if kind != HUMAN:
                bots[s] = contained_bot(kind, seed=seat_seed(seed, s), output="null")
    except BaseException:  # one did not start: the game does not either, so stop the others
        for bot in bots.values():
            bot.close()
        raise
    return bots


def _actors_of(record: GameRecord) -> list[int | None]:
    """Who made each move of a record, replayed: the seat to move, or the host for a penalty."""
    state = State.new(record.config, record.seed)
    actors: list[int | None] = []
    for move in record.moves:
        if move.kind is MoveKind.PENALTY:
            actors.append(None)
        elif move.kind is MoveKind.DRAW:
            actors.append(move.seat)
        else:
            actors.append(state.to_move)
        state.push(move)
    return actors


__all__ = [
    "GAME_CHOICES",
    "HUMAN",
    "LEVELS",
    "MAX_SEATS",
    "BadRecord",
    "BadSetup",
    "ConfigError",
    "GameSetup",
    "Marked",
    "Refused",
    "Session",
    "bot_choices",
    "default_bot",
]
