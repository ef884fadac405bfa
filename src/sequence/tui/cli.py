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
from ..engine import SequenceError
from ..i18n import N_, SUPPORTED, normalise, system_language
from .session import GAME_CHOICES, HUMAN, BadSetup, GameSetup, Session, bot_choices

START_FLAGS = ("game", "players", "teams", "vs", "seats", "hotseat")


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
        f" ({', '.join(bot_choices())})",
    )
    who.add_argument(
        "--seats",
        metavar="LIST",
        help="who sits where, comma-separated per seat: human or a bot level,"
        " e.g. human,hard,human,easy",
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
        "--line-length", type=int, choices=(5, 6), default=5, help="Dice: chips in a row to win"
    )
    parser.add_argument("--seed", type=int, help="seed of the shuffle and dice (default: random)")
    parser.add_argument("--no-undo", action="store_true", help="turn undo off")
    parser.add_argument("--rated", action="store_true", help="a rated game: no undo")
    parser.add_argument("--load", metavar="FILE", help="resume a game saved with S (a game record)")
    parser.add_argument(
        "--setup", action="store_true", help="open the start screen even when options are given"
    )
    parser.add_argument(
        "--lang", help="language of the interface (en, ru, de, uk, fr; default: the system's)"
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=0.5,
        metavar="SECONDS",
        help="pause before each computer move",
    )


def setup_from_args(args: argparse.Namespace) -> GameSetup:
    """The game the options describe; raises ValueError for an impossible seat list."""
    players = 2 if args.players is None else args.players
    if args.seats:
        # Built-in names in any case; a user's module:Class exactly as written.
        seats = tuple(
            s.strip() if is_user_bot(s.strip()) else s.strip().lower()
            for s in args.seats.split(",")
        )
        players = len(seats) if args.players is None else args.players
        if len(seats) != players:
            raise BadSetup(
                N_("--seats names {seats} seats for {players} players"),
                seats=len(seats),
                players=players,
            )
    elif args.hotseat:
        seats = (HUMAN,) * players
    elif args.vs:
        seats = (HUMAN,) + (args.vs,) * (players - 1)
    else:
        seats = ()
    return GameSetup(
        game=args.game or "classic",
        players=players,
        teams=args.teams,
        seats=seats,
        difficult=args.difficult,
        manual_draw=args.manual_draw,
        line_length=args.line_length,
        seed=args.seed,  # None: a random one (Session.start)
        undo=not args.no_undo,
        rated=args.rated,
    )


def run(args: argparse.Namespace) -> int:
    """Start the terminal game; return the exit status."""
    from .app import SequenceApp
    from .widgets import Gettext

    session: Session | None = None
    try:
        if args.lang is not None and normalise(args.lang) is None:
            raise BadSetup(
                N_("unknown language {lang}; choose one of {languages}"),
                lang=repr(args.lang),
                languages=", ".join(SUPPORTED),
            )
        if not args.bot_delay >= 0:
            raise BadSetup(N_("--bot-delay is 0 seconds or more"))
        setup = setup_from_args(args)
        if args.load:
            text = Path(args.load).read_text(encoding="utf-8")
            seats = setup.seat_kinds() if (args.vs or args.seats or args.hotseat) else ()
            session = Session.load(text, seats, undo=setup.undo_allowed)
        elif not args.setup and any(getattr(args, flag) for flag in START_FLAGS):
            session = Session.start(setup)
    except (OSError, SequenceError, ValueError) as exc:
        reason = Gettext(args.lang or system_language()).error(exc)
        print(f"sequence play: {reason}", file=sys.stderr)  # i18n: ignore (the command's name)
        return 2
    app = SequenceApp(session=session, setup=setup, lang=args.lang, bot_delay=args.bot_delay)
    return app.run() or 0
