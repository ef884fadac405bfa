"""``sequence learn [classic|kids|dice]``: a first game that teaches, step by step.

On a terminal it opens the lesson (the terminal game's screen: ``sequence.tui``, a front end this
one does not import; the entry point, :mod:`sequence.cli.main`, hands it over as
``args.open_lesson``). With ``--print`` (or when the output is not a terminal) it prints the
lesson's walkthrough instead: what each step says, the move that does it and the opponent's
answer, in the chosen language.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from ..i18n import SUPPORTED, language_option, system_language, translator
from ..i18n.moves import move_words
from ..learn import LESSONS, LessonGame, step_words

OpenLesson = Callable[[str, str | None], int | None]
"""Opens the lesson of a game in a language and returns the exit status once it is closed;
returns ``None`` at once where no full-screen app can run."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", nargs="?", default="classic", choices=sorted(LESSONS),
                        help="the game to learn (default: classic)")  # fmt: skip
    parser.add_argument(
        "--lang",
        type=language_option,
        help=f"the language: {', '.join(SUPPORTED)} (default: the system's)",
    )
    parser.add_argument("--print", dest="print_only", action="store_true",
                        help="print the lesson's steps instead of playing them")  # fmt: skip
    parser.set_defaults(open_lesson=None)  # an OpenLesson, given by the entry point


def walkthrough(game: str, lang: str | None) -> str:
    """The lesson of ``game`` told in ``lang``: each step's words, its move and the answer."""
    _ = translator(lang).gettext
    played = LessonGame.start(game)
    lines = [played.welcome(lang), ""]
    for number, step in enumerate(LESSONS[game].steps, 1):
        lines.append(f"{number}. {step_words(step, lang)}")
        if played.must_roll:
            dice = played.roll().dice
            assert dice is not None
            lines.append("   " + _("You roll: {roll}").format(roll=f"{dice[0]} + {dice[1]}"))
        move = step.accepted[0]
        lines.append("   " + _("You play: {move}").format(move=move_words(move, lang)))
        answer = played.play(move)
        if answer:
            said = "; ".join(move_words(m, lang) for m in answer)
            lines.append("   " + _("The computer answers: {moves}").format(moves=said))
    lines += ["", played.says(lang)]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    lang = args.lang or system_language()
    if not args.print_only and args.open_lesson is not None:
        status = args.open_lesson(args.game, lang)
        if status is not None:
            return int(status)
    print(walkthrough(args.game, lang))
    return 0
