"""The rules engine: pure, deterministic from a seed, the single source of truth.

Where each rule lives:

- :mod:`.cards` -- the cards and what each kind does (Jacks, Unicorn, Dragon);
- :mod:`.board` -- the three board layouts, space names, lines and windows;
- :mod:`.games` -- each game declared as data, every option, configuration checks;
- :mod:`.moves` -- moves and their notation;
- :mod:`.state` -- set-up, turns, legal moves, sequences, the end of the game;
- :mod:`.view` -- what one seat may know, and resampling hidden cards from it;
- :mod:`.position` / :mod:`.record` -- positions and whole games as text.

>>> from sequence.engine import State, make_config
>>> state = State.new(make_config("classic", players=2), seed=1)
>>> len(state.hand_of(0)), state.deck_size
(7, 90)
"""

from .board import (
    CLASSIC_BOARD,
    DICE_BOARD,
    KIDS_BOARD,
    TEAM_LETTERS,
    Bitboard,
    BoardLayout,
    Space,
    parse_space,
    space_name,
    spaces_of,
)
from .cards import Card, CardKind, card_kind, card_name, card_symbol, parse_card
from .errors import (
    ConfigError,
    IllegalMoveError,
    InvalidNotationError,
    InvalidPositionError,
    RecordError,
    SequenceError,
)
from .games import (
    GAME_NAMES,
    GAMES,
    OPTIONS,
    SPECS,
    VARIANTS,
    Config,
    GameSpec,
    base_game,
    config_from_dict,
    dice_line_lengths,
    make_config,
    player_counts,
    takes_option,
    team_counts,
    unknown_game,
)
from .moves import Move, MoveKind, draw_move
from .narrate import history, roll_meaning, roll_reason
from .record import RESIGNATION, GameRecord
from .state import (
    CHANCE,
    Outcome,
    Phase,
    Setup,
    State,
    Step,
    StepKind,
    Termination,
    play_random_game,
)
from .view import View, unseen_cards

__all__ = [
    "CHANCE",
    "CLASSIC_BOARD",
    "DICE_BOARD",
    "GAMES",
    "GAME_NAMES",
    "KIDS_BOARD",
    "OPTIONS",
    "RESIGNATION",
    "SPECS",
    "TEAM_LETTERS",
    "VARIANTS",
    "Bitboard",
    "BoardLayout",
    "Card",
    "CardKind",
    "Config",
    "ConfigError",
    "GameRecord",
    "GameSpec",
    "IllegalMoveError",
    "InvalidNotationError",
    "InvalidPositionError",
    "Move",
    "MoveKind",
    "Outcome",
    "Phase",
    "RecordError",
    "SequenceError",
    "Setup",
    "Space",
    "State",
    "Step",
    "StepKind",
    "Termination",
    "View",
    "base_game",
    "card_kind",
    "card_name",
    "card_symbol",
    "config_from_dict",
    "dice_line_lengths",
    "draw_move",
    "history",
    "make_config",
    "parse_card",
    "parse_space",
    "play_random_game",
    "player_counts",
    "roll_meaning",
    "roll_reason",
    "space_name",
    "spaces_of",
    "takes_option",
    "team_counts",
    "unknown_game",
    "unseen_cards",
]
