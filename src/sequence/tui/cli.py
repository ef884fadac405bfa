"""``sequence play``: the terminal game.

With no options it opens the start screen. Options choose the game and start it at once::

    sequence play --players 2 --vs hard           # you against the computer
    sequence play --game kids --players 3 --hotseat
    sequence play --game dice --line-length 6 --vs easy
    sequence play --players 4 --seats human,hard,human,hard
    sequence play --load saved.json               # resume a saved game
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..bots.isolated import is_user_bot
from ..engine import ConfigError, GameRecord, SequenceError, make_config
from ..i18n import N_, language_option, system_language
from . import on_a_terminal
from .session import (
    GAME_CHOICES,
    HUMAN,
    BadSetup,
    GameSetup,
    Session,
    bot_choices,
)
from .turns import DEFAULT_TIME_LIMIT

START_FLAGS = ("game", "players", "teams", "vs", "seats", "hotseat")
"""Options that start a game at once (without them, or with ``--setup``, the start screen opens)."""
SETUP_FLAGS: dict[str, str] = {
    "game": "--game",
    "players": "--players",
    "teams": "--teams",
    "difficult": "--difficult",
    "manual_draw": "--manual-draw",
    "line_length": "--line-length",
    "seed": "--seed",
}
"""Options (attribute: flag) that describe a new game, which a saved game already decides."""
RULE_OPTIONS: dict[str, str] = {
    "difficult": "difficult",
    "manual_draw": "manual_draw",
    "line_length": "dice_line_length",
}
"""Rule options (attribute: the engine's option), each for some games only."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``sequence play``."""
    parser.add_argument(
        "--game", choices=GAME_CHOICES, help="classic (default), kids, dice or draft"
    )
    parser.add_argument("--players", type=int, help="number of players (default 2)")
    parser.add_argument(
        "--teams", type=int, help="number of teams (default: the usual for the player count)"
    )
    who = parser.add_mutually_exclusive_group()
    who.add_argument(
        "--vs",
        metavar="LEVEL",
        help="you take seat 1; the computer at this level takes every other seat"
        f" ({', '.join(bot_choices())}, or your own package.module:Class)",
    )
    who.add_argument(
        "--seats",
        metavar="LIST",
        help="who sits where, comma-separated per seat: human, a bot level or"
        " package.module:Class, e.g. human,hard,human,easy",
    )
    who.add_argument(
        "--hotseat", action="store_true", help="every seat is a person at this keyboard"
    )
    parser.add_argument(
        "--difficult", action="store_true", help="one-eyed Jacks may break completed sequences"
    )
    parser.add_argument(
        "--manual-draw", action="store_true", help="drawing is a separate action (loss of card)"
    )
    parser.add_argument(
        "--line-length", type=int, choices=(5, 6), help="Dice: chips in a row to win (default 5)"
    )
    parser.add_argument("--seed", type=int, help="seed of the shuffle and dice (default: random)")
    parser.add_argument("--no-undo", action="store_true", help="turn undo off")
    parser.add_argument("--rated", action="store_true", help="a rated game: no undo")
    parser.add_argument(
        "--bell", action="store_true", help="ring the terminal's bell when your turn begins"
    )
    parser.add_argument("--load", metavar="FILE", help="resume a game saved with s (a game record)")
    parser.add_argument(
        "--setup", action="store_true", help="open the start screen even when options are given"
    )
    parser.add_argument(
        "--lang",
        type=language_option,
        help="language of the interface (en, ru, de, uk, fr; default: the system's)",
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=0.5,
        metavar="SECONDS",
        help="pause before each computer move (default 0.5)",
    )
    parser.add_argument(
        "--bot-time-limit",
        type=float,
        default=DEFAULT_TIME_LIMIT,
        metavar="SECONDS",
        help="time a computer player may think about a move; one still thinking a second after"
        " it loses the game, as in a tournament (default %(default)g; 0: no limit)",
    )


def seat_list(args: argparse.Namespace, players: int) -> tuple[str, ...]:
    """Who sits where as ``--seats``, ``--hotseat`` or ``--vs`` say, for ``players`` seats; ``()``
    when none of them is given. Raises ValueError for an impossible seat list."""
    if args.seats:
        seats = tuple(_seat_kind(s) for s in args.seats.split(","))
        if len(seats) != players:
            raise BadSetup(
                N_("--seats names {seats} seats for {players} players"),
                seats=len(seats),
                players=players,
            )
        return seats
    if args.hotseat:
        return (HUMAN,) * players
    if args.vs:
        return (HUMAN,) + (_seat_kind(args.vs),) * (players - 1)
    return ()


def _seat_kind(name: str) -> str:
    """A built-in name in any case; a user's ``module:Class`` exactly as written."""
    name = name.strip()
    return name if is_user_bot(name) else name.lower()


def setup_from_args(args: argparse.Namespace) -> GameSetup:
    """The game the options describe; raises ValueError for an impossible seat list and
    ConfigError for a rule option the game does not take."""
    players = args.players
    if players is None:
        players = len(args.seats.split(",")) if args.seats else 2
    setup = GameSetup(
        game=args.game or "classic",
        players=players,
        teams=args.teams,
        seats=seat_list(args, players),
        difficult=args.difficult,
        manual_draw=args.manual_draw,
        line_length=args.line_length or 5,
        seed=args.seed,  # None: a random one (Session.start)
        undo=not args.no_undo,
        rated=args.rated,
        bell=args.bell,
    )
    check_rules(args, setup)
    return setup


def check_rules(args: argparse.Namespace, setup: GameSetup) -> None:
    """Refuse a rule option the game does not take, with the engine's reason, as ``sequence
    simulate`` does. :meth:`GameSetup.config` leaves such a rule out (the start screen keeps a box
    ticked while another game is chosen): from the command line the game would start without it.
    """
    rules = {
        option: getattr(args, name)
        for name, option in RULE_OPTIONS.items()
        if getattr(args, name) not in (None, False)
    }
    if not rules:
        return
    try:
        make_config(setup.game, setup.players, setup.teams, **rules)
    except ConfigError as exc:
        if exc.code != "option_not_in_game":
            raise
        # The engine names its option (dice_line_length); the player typed the flag.
        flags = {option: SETUP_FLAGS[name] for name, option in RULE_OPTIONS.items()}
        name = exc.params["name"]
        raise ConfigError(
            "option_not_in_game", name=flags.get(name, name), title=exc.params["title"]
        ) from None


def check_load(args: argparse.Namespace) -> None:
    """Refuse an option that describes a new game alongside ``--load``: it would be ignored."""
    for name, flag in SETUP_FLAGS.items():
        if getattr(args, name) not in (None, False):
            raise BadSetup(
                N_("{flag} cannot be given with --load: the saved game decides it"), flag=flag
            )


def load_seats(args: argparse.Namespace, text: str) -> tuple[str, ...]:
    """The seats ``--vs``, ``--seats`` or ``--hotseat`` give a saved game, as many as it has
    (``()``: its own ``SeatN`` tags)."""
    if not (args.vs or args.seats or args.hotseat):
        return ()
    return seat_list(args, GameRecord.load(text).config.players)


def run(args: argparse.Namespace) -> int:
    """Start the terminal game; return the exit status."""
    from .app import SequenceApp
    from .widgets import Gettext

    session: Session | None = None
    try:
        if not args.bot_delay >= 0:
            raise BadSetup(N_("--bot-delay is 0 seconds or more"))
        if not args.bot_time_limit >= 0:
            raise BadSetup(N_("--bot-time-limit is 0 seconds (no limit) or more"))
        if args.load:
            check_load(args)
        setup = setup_from_args(args)
        if args.load:
            text = Path(args.load).read_text(encoding="utf-8")
            session = Session.load(
                text, load_seats(args, text), undo=setup.undo_allowed, hints=not setup.rated
            )
        elif not args.setup and any(getattr(args, flag) for flag in START_FLAGS):
            session = Session.start(setup)
        if not on_a_terminal():
            # Textual would wait for keys that never come (`</dev/null`), or fill a file with
            # escape codes. Asked after the options, so that their mistakes are told first.
            raise BadSetup(
                N_("the game needs a terminal: its input and output must not be redirected")
            )
    except (OSError, SequenceError, ValueError) as exc:
        if session is not None:
            session.close()  # its bots' processes
        reason = Gettext(args.lang or system_language()).error(exc)
        print(f"sequence play: {reason}", file=sys.stderr)  # i18n: ignore (the command's name)
        return 2
    app = SequenceApp(
        session=session, setup=setup, lang=args.lang, bot_delay=args.bot_delay,
        bot_time_limit=args.bot_time_limit or None,
    )  # fmt: skip
    status = app.run() or 0
    if app.farewell:  # the terminal is back: where the game was saved, say
        print(app.farewell)
    return status
