"""The "how to play" pages: ``rules/<lang>/<game>.md`` for classic, kids and dice.

Each page is written by hand in its language from ``RULES.md`` with the rule books' own words
(``docs/glossary.md``). Three markers are filled in from the engine when a page is read, so the
pages can never disagree with it about the boards:

- ``{{board}}``: the board as the engine lays it out (``BoardLayout.render()``);
- ``{{animals}}``: Sequence for Kids only, the animals' notation and names in the page's language;
- ``{{languages}}``: links to the same page in the other languages.

>>> "## " in rules_markdown("dice", "fr")
True
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from markdown_it import MarkdownIt

from sequence.engine.board import CLASSIC_BOARD, DICE_BOARD, KIDS_BOARD
from sequence.engine.cards import KIDS_ANIMALS
from sequence.engine.games import GAMES as ENGINE_GAMES

from . import LANGUAGE_NAMES, N_, SUPPORTED, normalise, translator
from .terms import ANIMALS

__all__ = ["GAMES", "RULES_DIR", "page_path", "rules_html", "rules_markdown"]

RULES_DIR = Path(__file__).parent / "rules"
GAMES: tuple[str, ...] = ENGINE_GAMES
"""Games with a page: every game of the engine. The draft variant is a section of the classic
page."""
ALIASES = {"draft": "classic", "sequence": "classic", "junior": "kids"}
_BOARDS = {"classic": CLASSIC_BOARD, "kids": KIDS_BOARD, "dice": DICE_BOARD}


def resolve(game: str, lang: str | None) -> tuple[str, str]:
    """Check a page request: ``(game, lang)`` or ``ValueError`` naming what is unknown."""
    name = ALIASES.get(game.lower(), game.lower())
    if name not in GAMES:
        raise ValueError(f"unknown game {game!r}: choose {', '.join(GAMES)}")
    code = normalise(lang)
    if code is None:
        raise ValueError(f"unknown language {lang!r}: choose {', '.join(SUPPORTED)}")
    return name, code


def page_path(game: str, lang: str) -> Path:
    """The Markdown source of a page (markers not yet filled in)."""
    return RULES_DIR / lang / f"{game}.md"


def _animals(lang: str) -> str:
    gettext = translator(lang).gettext
    rows = [
        f"| `{name}` | {gettext(ANIMALS[name])} |" for name in (*KIDS_ANIMALS, "UNICORN", "DRAGON")
    ]
    head = {
        "en": "| card | animal |",
        "ru": "| карта | животное |",
        "de": "| Karte | Tier |",
        "uk": "| карта | тварина |",
        "fr": "| carte | animal |",
    }[lang]
    return "\n".join([head, "| --- | --- |", *rows])


def _languages(game: str, lang: str) -> str:
    return " · ".join(
        f"**{LANGUAGE_NAMES[code]}**"
        if code == lang
        else f"[{LANGUAGE_NAMES[code]}](../{code}/{game}.md)"
        for code in SUPPORTED
    )


@cache
def rules_markdown(game: str, lang: str | None) -> str:
    """The page of ``game`` (``classic``, ``kids``, ``dice``; ``draft`` is classic's) in ``lang``.

    ``lang`` may be any spelling :func:`~sequence.i18n.normalise` understands. Raises
    ``ValueError`` for an unknown game or language.
    """
    game, code = resolve(game, lang)
    text = page_path(game, code).read_text(encoding="utf-8")
    text = text.replace("{{board}}", "```\n" + _BOARDS[game].render() + "\n```")
    text = text.replace("{{animals}}", _animals(code))
    return text.replace("{{languages}}", _languages(game, code))


OPTION_NAMES: dict[str, str] = {
    "difficult": N_("Difficult variant"),
    "manual_draw": N_("Manual draw"),
    "chips_per_colour": N_("Chips per colour"),
    "max_turns": N_("Turn limit"),
    "dice_line_length": N_("Chips in a row"),
    "draft": N_("Draft variant"),
    "us": N_("US edition"),
}
"""The engine's option keys (and the value ``us``) as the web page names them: a page in the
browser shows no key, the terminal's page (:func:`rules_markdown`) keeps the keys one types."""


def _named_options(text: str, lang: str) -> str:
    gettext = translator(lang).gettext
    for key, name in OPTION_NAMES.items():
        text = text.replace(f"`{key}`", f"*{gettext(name)}*")
    return text


@cache
def rules_html(game: str, lang: str | None) -> str:
    """The same page as an HTML fragment (raw HTML in the sources is escaped), the options
    named in the page's language (:data:`OPTION_NAMES`)."""
    _, code = resolve(game, lang)
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    html: str = md.render(_named_options(rules_markdown(game, lang), code))
    return html
