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
from html import escape
from pathlib import Path

from markdown_it import MarkdownIt

from sequence.engine.board import CLASSIC_BOARD, DICE_BOARD, FILES, KIDS_BOARD, STRIDE
from sequence.engine.cards import KIDS_ANIMALS
from sequence.engine.games import GAMES as ENGINE_GAMES
from sequence.engine.games import OPTIONS

from . import LANGUAGE_NAMES, N_, SUPPORTED, normalise, translator
from .terms import ANIMALS, option_label

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


def _filled(game: str, code: str, board: str, animals: str) -> str:
    text = page_path(game, code).read_text(encoding="utf-8")
    text = text.replace("{{board}}", board).replace("{{animals}}", animals)
    return text.replace("{{languages}}", _languages(game, code))


@cache
def rules_markdown(game: str, lang: str | None) -> str:
    """The page of ``game`` (``classic``, ``kids``, ``dice``; ``draft`` is classic's) in ``lang``.

    ``lang`` may be any spelling :func:`~sequence.i18n.normalise` understands. Raises
    ``ValueError`` for an unknown game or language.
    """
    game, code = resolve(game, lang)
    board = "```\n" + _BOARDS[game].render() + "\n```"
    return _filled(game, code, board, _animals(code))


US_EDITION = N_("US edition")
"""The value ``us`` of ``chips_per_colour``, as the web page names it."""


def _named_options(text: str, lang: str) -> str:
    """The engine's option keys (and the value ``us``) as the web page names them
    (:func:`~.terms.option_label`): a page in the browser shows no key; the terminal's page
    (:func:`rules_markdown`) keeps the keys one types."""
    for key in OPTIONS:
        text = text.replace(f"`{key}`", f"*{option_label(key, lang)}*")
    return text.replace("`us`", f"*{translator(lang).gettext(US_EDITION)}*")


_BOARD_MARK, _ANIMALS_MARK = "KIDS-BOARD-PICTURES", "KIDS-CARD-PICTURES"


def _picture(name: str, lang: str) -> str:
    """A Kids card's picture (the client's ``static/kids``) and its name in ``lang``."""
    word = escape(translator(lang).gettext(ANIMALS[name]))
    return (
        f'<img class="pic" src="/static/kids/{name.lower()}.svg" alt="" width="48" height="48">'
        f'<span class="word">{word}</span>'
    )


def _kids_board_html(lang: str) -> str:
    """The Kids board in pictures: each space's animal and its word, the coordinates around."""
    layout = KIDS_BOARD
    head = "".join(f"<th>{FILES[c]}</th>" for c in range(layout.cols))
    rows = []
    for r in range(layout.rows):
        cells = []
        for c in range(layout.cols):
            name = layout.label_name(r * STRIDE + c)
            free = escape(translator(lang).gettext(FREE_CORNER))
            cells.append(
                f'<td class="free">★<span class="word">{free}</span></td>'
                if name == "**"
                else f"<td>{_picture(name, lang)}</td>"
            )
        rows.append(f"<tr><th>{r + 1}</th>{''.join(cells)}</tr>")
    return f'<table class="kidsboard"><tr><th></th>{head}</tr>{"".join(rows)}</table>'


def _kids_cards_html(lang: str) -> str:
    """The Kids cards in pictures: every animal, the Unicorn and the Dragon."""
    items = "".join(f"<li>{_picture(n, lang)}</li>" for n in (*KIDS_ANIMALS, "UNICORN", "DRAGON"))
    return f'<ul class="kidscards">{items}</ul>'


FREE_CORNER = N_("free corner")


@cache
def rules_html(game: str, lang: str | None) -> str:
    """The same page as an HTML fragment (raw HTML in the sources is escaped), for the browser:
    the options named in the page's language, and the Kids board and cards in pictures with
    their words (no engine name such as ``TIGER`` shows)."""
    game, code = resolve(game, lang)
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    if game != "kids":
        html: str = md.render(_named_options(rules_markdown(game, code), code))
        return html
    text = _filled(game, code, _BOARD_MARK, _ANIMALS_MARK).replace("`**`", "★")
    html = md.render(_named_options(text, code))
    html = html.replace(f"<p>{_BOARD_MARK}</p>", _kids_board_html(code))
    return html.replace(f"<p>{_ANIMALS_MARK}</p>", _kids_cards_html(code))
