"""Translations shared by the terminal game and the web app (gettext catalogues read with Babel).

Catalogues live in ``locales/<lang>/LC_MESSAGES/messages.po`` and are read at start-up (no
compile step). English is the source language and the fallback.

>>> _ = translator("de").gettext
>>> isinstance(_("Your turn"), str)
True
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

SUPPORTED: tuple[str, ...] = ("en", "ru", "de", "uk", "fr")
DEFAULT = "en"
LOCALES = Path(__file__).parent / "locales"


@cache
def translator(lang: str) -> NullTranslations:
    """The translations for ``lang`` (English, the identity, for unknown languages)."""
    lang = normalise(lang) or DEFAULT
    po = LOCALES / lang / "LC_MESSAGES" / "messages.po"
    if lang == DEFAULT or not po.exists():
        return NullTranslations()
    with po.open("rb") as f:
        catalog = read_po(f, locale=lang)
    translations = Translations()
    for message in catalog:
        if message.id and message.string and not message.fuzzy:
            if isinstance(message.id, tuple):
                for i, text in enumerate(message.string):
                    translations._catalog[(message.id[0], i)] = text
            else:
                translations._catalog[message.id] = message.string
    translations.plural = catalog.plural_expr and _plural(catalog.plural_expr)
    return translations


def _plural(expr: str):  # type: ignore[no-untyped-def]
    from babel.messages.plurals import get_plural  # noqa: F401  (keeps Babel's data loaded)
    from gettext import c2py

    return c2py(expr)


def normalise(lang: str | None) -> str | None:
    """``ru-RU`` -> ``ru``; ``None`` for a language we do not speak."""
    if not lang:
        return None
    code = lang.replace("_", "-").split("-")[0].split(".")[0].lower()
    return code if code in SUPPORTED else None


def negotiate(accept_language: str | None) -> str:
    """The best supported language for an HTTP ``Accept-Language`` header."""
    if not accept_language:
        return DEFAULT
    choices = []
    for i, part in enumerate(accept_language.split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        choices.append((-q, i, tag))
    for _, _, tag in sorted(choices):
        code = normalise(tag)
        if code:
            return code
    return DEFAULT


def system_language() -> str:
    """The language of the terminal's locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``)."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        code = normalise(os.environ.get(var))
        if code:
            return code
    return DEFAULT
