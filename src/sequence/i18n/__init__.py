"""Translations shared by the terminal game and the web app (gettext catalogues read with Babel).

Catalogues live in ``locales/<lang>/LC_MESSAGES/messages.po`` and are read at start-up with
Babel (no compile step). English is the source language and the fallback: a message missing
from a catalogue (or left fuzzy) shows in English.

>>> _ = translator("de").gettext
>>> _("Sequence for Kids")
'Sequence für Kinder'
>>> translator("ru").ngettext("{n} card", "{n} cards", 21).format(n=21)
'21 карта'

The same catalogue goes to the browser as JSON (:func:`catalog_json`), the "how to play" pages
come from :mod:`sequence.i18n.howto` (:func:`rules_markdown`, :func:`rules_html`), engine
errors are translated by :func:`sequence.i18n.errors.translate_error`, and a move is said in
words for a player (the hints, the reviews) by :func:`sequence.i18n.moves.move_words`.

Marking strings: call ``_("...")`` / ``gettext`` / ``ngettext`` where the text is shown; for a
constant defined before the language is known, mark it with :func:`N_` (or :func:`Nn_` for a
plural pair) and translate it where it is shown. ``scripts/i18n-update.sh`` extracts every
marked string (Python and the web client's ``t("...")``) and updates all five catalogues.
"""

from __future__ import annotations

import argparse
import gettext as _gettext
import os
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

SUPPORTED: tuple[str, ...] = ("en", "ru", "de", "uk", "fr")
DEFAULT = "en"
LOCALES = Path(__file__).parent / "locales"
LANGUAGE_NAMES: dict[str, str] = {
    "en": "English",
    "ru": "Русский",
    "de": "Deutsch",
    "uk": "Українська",
    "fr": "Français",
}
"""Each language's name in itself, for a language switcher."""


def N_(message: str) -> str:
    """Mark a constant for extraction without translating it now; translate it where shown."""
    return message


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a plural pair for extraction; show it with ``translator(lang).ngettext(*pair, n)``."""
    return singular, plural


_UNKNOWN_LANGUAGE = N_("unknown language {lang}; choose one of {languages}")


def po_path(lang: str) -> Path:
    """Where ``lang``'s catalogue lives."""
    return LOCALES / lang / "LC_MESSAGES" / "messages.po"


@cache
def load_catalog(lang: str) -> Catalog:
    """The parsed ``.po`` catalogue of a supported language (``KeyError`` for another)."""
    if lang not in SUPPORTED:
        raise KeyError(lang)
    with po_path(lang).open("rb") as f:
        return read_po(f, locale=lang)


@cache
def translator(lang: str | None) -> NullTranslations:
    """The translations for ``lang``: ``.gettext``, ``.ngettext``, ``.pgettext``.

    Any spelling :func:`normalise` understands is accepted (``ru-RU``, ``de_DE.UTF-8``); an
    unknown language gets English. Messages missing from a catalogue fall back to English.
    """
    code = normalise(lang) or DEFAULT
    if not po_path(code).exists():
        return NullTranslations()
    catalog = load_catalog(code)
    translations = Translations()
    entries: dict[Any, str] = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, (tuple, list)):
            forms = plural_forms(message)
            if all(forms):
                for i, text in enumerate(forms):
                    entries[(message.id[0], i)] = text
        elif isinstance(message.string, str) and message.string:
            key = message.id if message.context is None else f"{message.context}\x04{message.id}"
            entries[key] = message.string
    translations._catalog = entries
    plural = plural_function(catalog.plural_expr)
    translations.plural = lambda n: plural(int(n))
    translations.add_fallback(NullTranslations())
    return translations


def plural_function(expr: str) -> Callable[[int], int]:
    """The C plural expression of a ``Plural-Forms`` header as a Python function."""
    return _gettext.c2py(expr)


def plural_forms(message: Message) -> list[str]:
    """The translations of a plural message, one a form (``[]`` when untranslated)."""
    string = message.string
    if isinstance(string, str):
        return [string] if string else []
    return [str(form) for form in string or ()]


def plural_info(lang: str) -> tuple[int, str]:
    """``(nplurals, plural expression)`` of a language's catalogue."""
    catalog = load_catalog(normalise(lang) or DEFAULT)
    return catalog.num_plurals, catalog.plural_expr


def catalog_json(lang: str | None) -> dict[str, Any]:
    """A language's whole catalogue for the browser client (``GET /api/i18n/{lang}``).

    Returns ``{"lang", "name", "nplurals", "plural", "messages"}``: ``plural`` is the C
    expression of the ``Plural-Forms`` header (valid JavaScript: evaluate it with ``n`` bound,
    e.g. ``new Function("n", "return +(" + plural + ")")``) giving the index of the plural form;
    ``messages`` maps each msgid to its translation, a string, or for a plural message the
    singular msgid to the list of forms. Untranslated or fuzzy entries are left out, so the
    client shows the English msgid, as the server does. Unknown languages get English.
    """
    code = normalise(lang) or DEFAULT
    catalog = load_catalog(code)
    messages: dict[str, str | list[str]] = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, (tuple, list)):
            forms = plural_forms(message)
            if all(forms):
                messages[message.id[0]] = forms
        elif isinstance(message.string, str) and message.string and message.context is None:
            messages[message.id] = message.string
    return {
        "lang": code,
        "name": LANGUAGE_NAMES[code],
        "nplurals": catalog.num_plurals,
        "plural": catalog.plural_expr,
        "messages": messages,
    }


def normalise(lang: str | None) -> str | None:
    """``ru-RU`` -> ``ru``; ``de_DE.UTF-8`` -> ``de``; ``None`` for a language we do not speak."""
    if not lang:
        return None
    code = lang.strip().replace("_", "-").split("-")[0].split(".")[0].split("@")[0].lower()
    return code if code in SUPPORTED else None


def language_option(text: str) -> str:
    """An argparse ``type`` for ``--lang``: the supported code, or an error naming the choices.

    >>> language_option("ru_RU.UTF-8")
    'ru'

    Every command's ``--lang`` uses it, so each refuses an unknown language the same way
    (``sequence rules: error: argument --lang: unknown language 'xx'; choose one of ...``).
    """
    code = normalise(text)
    if code is None:
        message = translator(system_language()).gettext(_UNKNOWN_LANGUAGE)
        raise argparse.ArgumentTypeError(
            message.format(lang=repr(text), languages=", ".join(SUPPORTED))
        )
    return code


def negotiate(accept_language: str | None) -> str:
    """The best supported language for an HTTP ``Accept-Language`` header (English if none)."""
    if not accept_language:
        return DEFAULT
    choices = []
    for i, part in enumerate(accept_language.split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                q = float(params[2:])
            except ValueError:
                q = 0.0
        if q > 0:
            choices.append((-q, i, tag))
    for _, _, tag in sorted(choices):
        code = normalise(tag)
        if code:
            return code
    return DEFAULT


def system_language() -> str:
    """The terminal's language: ``LANGUAGE``, then ``LC_ALL``, ``LC_MESSAGES``, ``LANG``.

    ``LANGUAGE`` may list several (``uk:ru``): the first supported one wins. The ``C`` and
    ``POSIX`` locales, and anything unsupported, give English.
    """
    for part in os.environ.get("LANGUAGE", "").split(":"):
        code = normalise(part)
        if code:
            return code
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            # The first of these that is set decides, as in POSIX.
            return normalise(value) or DEFAULT
    return DEFAULT


__all__ = [
    "DEFAULT",
    "LANGUAGE_NAMES",
    "N_",
    "SUPPORTED",
    "Nn_",
    "catalog_json",
    "language_option",
    "load_catalog",
    "negotiate",
    "normalise",
    "plural_function",
    "plural_info",
    "po_path",
    "system_language",
    "translator",
]
