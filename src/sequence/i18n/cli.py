"""``sequence rules [game] [--lang xx]``: how to play, in the terminal, in your language.

The language is ``--lang`` or else the terminal's locale (:func:`~sequence.i18n.system_language`),
English when neither is supported. The page is rendered with rich (``--markdown`` prints its
Markdown source instead). An unknown game or language is an error (exit status 2).
"""

from __future__ import annotations

import argparse
import re
import sys

from rich.console import Console
from rich.markdown import Markdown

from . import N_, language_option, system_language, translator
from .howto import ALIASES, GAMES, rules_markdown

_UNKNOWN_GAME = N_("unknown game {game}: choose one of {games}")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    _ = translator(system_language()).gettext
    parser.add_argument(
        "game",
        nargs="?",
        default="classic",
        help=_("the game: classic (with the draft variant), kids or dice"),
    )
    parser.add_argument("--lang", type=language_option, help=_("language: en, ru, de, uk or fr"))
    parser.add_argument(
        "--markdown", action="store_true", help=_("print the page's Markdown source")
    )


def run(args: argparse.Namespace) -> int:
    lang = getattr(args, "lang", None) or system_language()
    _ = translator(lang).gettext
    game = str(getattr(args, "game", None) or "classic")
    if game.lower() not in GAMES and game.lower() not in ALIASES:
        reason = _(_UNKNOWN_GAME).format(game=game, games=", ".join(GAMES))
        print(f"sequence rules: {reason}", file=sys.stderr)  # i18n: ignore (the command's name)
        return 2
    text = rules_markdown(game, lang)
    if getattr(args, "markdown", False):
        sys.stdout.write(text)
        return 0
    # The page links its other languages as files (../ru/kids.md); here, say how to ask for one.
    text = re.sub(r"\[([^\]]+)\]\(\.\./([a-z]+)/[a-z]+\.md\)", r"\1 (--lang \2)", text)
    Console(soft_wrap=False).print(Markdown(text, code_theme="ansi_dark"))
    return 0
