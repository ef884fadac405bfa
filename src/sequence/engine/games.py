"""The three games of the family, declared as data, and the configuration of one game.

Each game is a :class:`GameSpec`: its board, deck (or dice), line length, colours, hands and
the player counts it takes. Every rule option is declared once in :data:`OPTIONS` with its
default, the games it applies to and where the rule comes from. :func:`make_config` checks a
configuration and says exactly what is wrong with a bad one.

>>> make_config("classic", players=6, teams=3).team_size
2
>>> make_config("classic", players=5)
Traceback (most recent call last):
...
sequence.engine.errors.ConfigError: Sequence cannot be played with 5 players: they cannot be ...
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from .board import CLASSIC_BOARD, DICE_BOARD, KIDS_BOARD, BoardLayout
from .cards import DRAGON, KIDS_ANIMALS, KIDS_FIRST, STANDARD_CARDS, UNICORN, Card
from .errors import ConfigError

GameName = Literal["classic", "kids", "dice"]
GAMES: tuple[GameName, ...] = ("classic", "kids", "dice")


@dataclass(frozen=True)
class GameSpec:
    """What makes one game of the family different from the others: data, not code."""

    name: GameName
    title: str
    layout: BoardLayout
    deck: tuple[Card, ...]
    """Every card of the deck (copies repeated); empty for Dice, which uses two dice instead."""
    colours: tuple[str, ...]
    """Chip colours, one per team, in team order."""
    line_length: int
    player_counts: tuple[int, ...]
    default_chips: int
    source: str
    dead_cards_per_turn: int
    """Dead cards a seat may exchange in one turn, one after another, before it plays
    (RULES.md §2.4: one in classic; §3 **Decision** as amended: three in Kids, a hand's size)."""
    stuck_passes: bool
    """When no card can be played (and no dead card may be exchanged): ``True``, the turn passes
    and the seat keeps its hand (RULES.md §3, Kids); ``False``, the seat discards a card of its
    choice and draws (§2.9, classic)."""

    @property
    def uses_cards(self) -> bool:
        return bool(self.deck)


CLASSIC = GameSpec(
    name="classic",
    title="Sequence",
    layout=CLASSIC_BOARD,
    deck=tuple(c for c in STANDARD_CARDS for _ in range(2)),
    colours=("blue", "green", "red"),
    line_length=5,
    player_counts=(2, 3, 4, 6, 8, 9, 10, 12),
    default_chips=48,
    source="RULES.md §2; seeds 000 (ru), 001 (en), 002 (de)",
    dead_cards_per_turn=1,
    stuck_passes=False,
)
KIDS = GameSpec(
    name="kids",
    title="Sequence for Kids",
    layout=KIDS_BOARD,
    deck=tuple(KIDS_FIRST + i for i in range(len(KIDS_ANIMALS)) for _ in range(2))
    + (UNICORN, UNICORN, DRAGON, DRAGON),
    colours=("red", "yellow", "green", "blue"),
    line_length=4,
    player_counts=(2, 3, 4),
    default_chips=21,
    source="RULES.md §3; seed 003 (uk)",
    dead_cards_per_turn=3,
    stuck_passes=True,
)
DICE = GameSpec(
    name="dice",
    title="Sequence Dice",
    layout=DICE_BOARD,
    deck=(),
    colours=("green", "blue", "red"),
    line_length=5,
    player_counts=(2, 3, 4),
    default_chips=20,
    source="RULES.md §4; seed 004 (fr)",
    dead_cards_per_turn=0,
    stuck_passes=True,
)
SPECS: dict[str, GameSpec] = {"classic": CLASSIC, "kids": KIDS, "dice": DICE}

CLASSIC_HAND_SIZES = {2: 7, 3: 6, 4: 6, 6: 5, 8: 4, 9: 4, 10: 3, 12: 3}
"""Cards dealt to each player in classic Sequence (seed 001's table; 9 players as RULES.md §5)."""
DRAFT_HAND_SIZE = 6
DRAFT_SIZE = 5
KIDS_HAND_SIZE = 3
US_CHIPS = (50, 50, 35)
"""The US edition's chips: 50 blue, 50 green, 35 red (seed 001)."""


@dataclass(frozen=True)
class Option:
    """One named rule option, declared once."""

    name: str
    default: Any
    games: tuple[GameName, ...]
    help: str
    source: str


OPTIONS: dict[str, Option] = {
    o.name: o
    for o in (
        Option("difficult", False, ("classic",),
               "one-eyed Jacks may also remove chips of completed sequences,"
               " which then stop counting",
               "seed 000, 'Сложный вариант'; RULES.md §2.8"),
        Option("manual_draw", False, ("classic",),
               "drawing is a separate action; a player who has not drawn before the next player has"
               " played and drawn loses that draw",
               "seeds 000, 001, 002 'Loss of card'; RULES.md §2.5"),
        Option("chips_per_colour", None, GAMES,
               "chips in each colour's supply: a number, or 'us' for the US edition's 50/50/35"
               " (default: 48 classic, 21 Kids, 20 Dice)",
               "RULES.md §2.1, §3, §4"),
        Option("max_turns", 1000, GAMES,
               "the game ends drawn after this many turns",
               "RULES.md §2.9, §4 Decision"),
        Option("dice_line_length", 5, ("dice",),
               "chips in a row to win at Dice: 5, or 6 as the rule book recommends"
               " for 2 players or 2 teams",
               "seed 004; RULES.md §4"),
        Option("draft", False, ("classic",),
               "tournament draft variant: hands of 6, five face-up cards to take from, the heart of"
               " the board wins, the game ends drawn when the deck is empty",
               "issue 7; a university AI course's tournament rules"),
    )
}  # fmt: skip


@dataclass(frozen=True)
class Config:
    """A checked game configuration. Build one with :func:`make_config`."""

    game: GameName = "classic"
    players: int = 2
    teams: int = 2
    difficult: bool = False
    manual_draw: bool = False
    chips: tuple[int, ...] = (48, 48)
    """Chips in each team's supply, in team order."""
    max_turns: int = 1000
    dice_line_length: int = 5
    draft: bool = False
    chips_option: int | str | None = field(default=None, compare=False)
    """The ``chips_per_colour`` option as given (for records and notation)."""

    @property
    def spec(self) -> GameSpec:
        return SPECS[self.game]

    @property
    def team_size(self) -> int:
        return self.players // self.teams

    @property
    def line_length(self) -> int:
        return self.dice_line_length if self.game == "dice" else self.spec.line_length

    @property
    def sequences_to_win(self) -> int:
        """Classic: 2 sequences for 2 sides, 1 for 3 sides; Kids and Dice: 1."""
        return 2 if self.game == "classic" and self.teams == 2 else 1

    @property
    def hand_size(self) -> int:
        if self.game == "kids":
            return KIDS_HAND_SIZE
        if self.game == "dice":
            return 0
        return DRAFT_HAND_SIZE if self.draft else CLASSIC_HAND_SIZES[self.players]

    @property
    def turn_move_limit(self) -> int:
        """The most moves the seat to act can make in one turn, whatever it chooses.

        Each dead card exchanged (at most :attr:`GameSpec.dead_cards_per_turn`), then the card
        played, discarded or the pass; in the draft each of these is followed by a face-up card
        taken; at Dice the roll and what is done with it (a 2 or a 12's extra turn is a turn of
        its own). Draws under ``manual_draw`` (one per card played) and table-talk forfeits (one
        per card a penalty takes) are not the actor's choice and are counted apart
        (docs/engine.md, "Every game ends").

        >>> [make_config(g).turn_move_limit for g in ("classic", "kids", "dice")]
        [2, 4, 2]
        >>> make_config("classic", draft=True).turn_move_limit
        4
        """
        if not self.spec.uses_cards:
            return 2
        return (self.spec.dead_cards_per_turn + 1) * (2 if self.draft else 1)

    def team_of(self, seat: int) -> int:
        """Teams alternate around the table: seat 0 team 0, seat 1 team 1, ..."""
        return seat % self.teams

    def members(self, team: int) -> tuple[int, ...]:
        return tuple(range(team, self.players, self.teams))

    def options(self) -> dict[str, Any]:
        """The options that differ from their defaults, as :func:`make_config` takes them."""
        out: dict[str, Any] = {}
        for name, opt in OPTIONS.items():
            value = self.chips_option if name == "chips_per_colour" else getattr(self, name)
            if value != opt.default:
                out[name] = value
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "players": self.players, "teams": self.teams, **self.options()}

    def with_options(self, **options: Any) -> Config:
        return make_config(self.game, self.players, self.teams, **{**self.options(), **options})


def _bool(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("1", "true", "yes", "on"):
        return True
    if isinstance(value, str) and value.lower() in ("0", "false", "no", "off"):
        return False
    raise ConfigError("option_not_bool", name=name, value=repr(value))


def _whole(value: Any) -> int:
    """``value`` as an int if it is a whole number (``3``, ``"3"``, ``3.0``); else ValueError.

    Not a bool, not 2.9 (silently 2), not infinity: settings arrive from JSON and the command line.
    """
    if isinstance(value, bool):
        raise ValueError(value)
    if isinstance(value, float):
        if not value.is_integer():  # also false for inf and nan
            raise ValueError(value)
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("+-").isdecimal():
        return int(value)
    raise ValueError(value)


def _int(name: str, value: Any, low: int, high: int | None = None) -> int:
    try:
        n = _whole(value)
    except ValueError:
        raise ConfigError("option_not_whole", name=name, value=repr(value)) from None
    if high is None and n < low:
        raise ConfigError("option_too_low", name=name, low=low, value=n)
    if high is not None and not low <= n <= high:
        raise ConfigError("option_out_of_range", name=name, low=low, high=high, value=n)
    return n


def _classic_teams(players: int, teams: int | None) -> int:
    allowed = CLASSIC.player_counts
    if players not in allowed:
        code = (
            "too_many_players"
            if players > 12
            else "too_few_players"
            if players < 2
            else "no_equal_teams"
        )
        raise ConfigError(code, players=players)
    if teams is None:
        return players if players <= 3 else (2 if players % 2 == 0 else 3)
    if players <= 3:
        if teams != players:
            raise ConfigError("alone_teams", players=players, teams=teams)
        return teams
    options = [t for t in (2, 3) if players % t == 0]
    if teams not in options:
        raise ConfigError("team_count", players=players, listed=options, teams=teams)
    return teams


VARIANTS: dict[str, tuple[str, dict[str, Any]]] = {"draft": ("classic", {"draft": True})}
"""Names a player picks as a game that are a game with a rule option: ``draft`` is classic's
draft variant."""

GAME_NAMES: tuple[str, ...] = (*GAMES, *VARIANTS)
"""Every name :func:`make_config` takes as a game."""


def unknown_game(name: object) -> ConfigError:
    """The refusal of a game name :func:`make_config` does not take, naming the games: those of
    :data:`GAMES`, the list every front end offers, then each of :data:`VARIANTS` as the game
    and option it stands for (its name is taken as a game too).

    >>> message = str(unknown_game("chess"))
    >>> message.startswith("unknown game chess: choose classic, kids or dice (the draft variant")
    True
    >>> message.endswith("variant: classic with the option draft)")
    True
    """
    variants = [
        ConfigError("game_variant", variant=name, game=game) for name, (game, _) in VARIANTS.items()
    ]
    return ConfigError("unknown_game", text=str(name), games=GAMES, variants=variants)


def base_game(name: str) -> tuple[str, dict[str, Any]]:
    """The game and the rule options a game name stands for.

    >>> base_game("draft"), base_game("kids")
    (('classic', {'draft': True}), ('kids', {}))
    """
    game, options = VARIANTS.get(name, (name, {}))
    return game, dict(options)


def make_config(
    game: str = "classic", players: int = 2, teams: int | None = None, **options: Any
) -> Config:
    """Check and complete a configuration; raise :class:`ConfigError` saying what is wrong.

    ``game`` is one of :data:`GAME_NAMES` (``draft``: classic with option ``draft``).
    ``options`` are the names in :data:`OPTIONS`. ``teams`` defaults to each player alone for 2-3
    players, 2 teams when the count is even, 3 otherwise (Dice: 4 players are 2 teams).

    >>> make_config("draft", players=4).draft
    True
    """
    if not isinstance(game, str) or game not in GAME_NAMES:
        raise unknown_game(game)
    if game in VARIANTS:
        game, implied = base_game(game)
        for name, value in implied.items():
            if name in options and _bool(name, options[name]) != value:
                # draft, the one variant: the message names it (a second would need params)
                raise ConfigError("variant_contradicted")
        options = {**options, **implied}
    spec = SPECS[game]
    try:
        players = _whole(players)
        teams = None if teams is None else _whole(teams)
    except ValueError:
        raise ConfigError("players_not_whole") from None
    for name in options:
        if name not in OPTIONS:
            raise ConfigError("unknown_option", text=str(name), known=", ".join(OPTIONS))
        if game not in OPTIONS[name].games:
            raise ConfigError("option_not_in_game", name=name, title=spec.title)

    draft = _bool("draft", options.get("draft", False))
    if game == "classic":
        teams = _classic_teams(players, teams)
        if draft and players not in (2, 4):
            raise ConfigError("draft_players", players=players)
        # 2 players, or 4 in 2 teams (_classic_teams allows no other split): always 2 sides.
    elif game == "kids":
        if players not in spec.player_counts:
            raise ConfigError("kids_players", players=players)
        if teams not in (None, players):
            raise ConfigError("kids_teams")
        teams = players
    else:
        if players not in spec.player_counts:
            raise ConfigError("dice_players", players=players)
        expected = 2 if players == 4 else players
        if teams not in (None, expected):
            if players == 4:
                raise ConfigError("dice_teams_four")
            raise ConfigError("dice_teams_alone", players=players)
        teams = expected

    manual = _bool("manual_draw", options.get("manual_draw", False))
    if manual and draft:
        raise ConfigError("draft_manual_draw")
    chips_option = options.get("chips_per_colour")
    if chips_option is None:
        chips = (spec.default_chips,) * teams
    elif isinstance(chips_option, str) and chips_option.lower() == "us":
        if game != "classic":
            raise ConfigError("us_chips_classic")
        chips_option = "us"
        chips = US_CHIPS[:teams]
    else:
        chips_option = _int("chips_per_colour", chips_option, 1, 1000)
        chips = (chips_option,) * teams
    return Config(
        game=spec.name,
        players=players,
        teams=teams,
        difficult=_bool("difficult", options.get("difficult", False)),
        manual_draw=manual,
        chips=chips,
        max_turns=_int("max_turns", options.get("max_turns", 1000), 1),
        dice_line_length=_int("dice_line_length", options.get("dice_line_length", 5), 5, 6),
        draft=draft,
        chips_option=chips_option,
    )


def config_from_dict(data: dict[str, Any]) -> Config:
    """Inverse of :meth:`Config.to_dict`."""
    if not isinstance(data, dict):
        raise ConfigError("config_not_object")
    data = dict(data)
    return make_config(
        data.pop("game", "classic"), data.pop("players", 2), data.pop("teams", None), **data
    )


# --- what a front end offers: asked of make_config, so it never disagrees --------------------


def _accepted(game: str, players: int, teams: int | None = None, **options: object) -> bool:
    try:
        make_config(game, players, teams, **options)
    except ConfigError:
        return False
    return True


def player_counts(game: str) -> tuple[int, ...]:
    """The player counts a game (or variant) takes.

    >>> player_counts("kids"), player_counts("draft")
    ((2, 3, 4), (2, 4))
    """
    # A variant may take fewer than its game (the draft: 2 or 4).
    return tuple(n for n in SPECS[base_game(game)[0]].player_counts if _accepted(game, n))


def team_counts(game: str, players: int) -> tuple[int, ...]:
    """The numbers of teams ``players`` may be split into in ``game``.

    >>> team_counts("classic", 6), team_counts("classic", 3), team_counts("dice", 4)
    ((2, 3), (3,), (2,))
    """
    return tuple(teams for teams in range(1, players + 1) if _accepted(game, players, teams))


def takes_option(game: str, name: str) -> bool:
    """Whether ``game`` (``draft`` too) takes the rule option ``name`` of :data:`OPTIONS`.

    >>> takes_option("draft", "difficult"), takes_option("draft", "manual_draw")
    (True, False)
    >>> takes_option("dice", "dice_line_length"), takes_option("kids", "difficult")
    (True, False)
    """
    option = OPTIONS[name]
    value = not option.default if isinstance(option.default, bool) else option.default
    return _accepted(game, player_counts(game)[0], **{name: value})


def dice_line_lengths() -> tuple[int, ...]:
    """The line lengths option ``dice_line_length`` takes.

    >>> dice_line_lengths()
    (5, 6)
    """
    width = SPECS["dice"].layout.cols
    return tuple(n for n in range(1, width + 1) if _accepted("dice", 2, dice_line_length=n))


__all__ = [
    "CLASSIC",
    "DICE",
    "GAMES",
    "KIDS",
    "OPTIONS",
    "SPECS",
    "Config",
    "GameSpec",
    "Option",
    "config_from_dict",
    "dice_line_lengths",
    "make_config",
    "player_counts",
    "takes_option",
    "team_counts",
]
