"""The five catalogues: complete, consistent, with the right plural forms."""

from __future__ import annotations

import json

import pytest

from sequence.engine import OPTIONS
from sequence.i18n import (
    SUPPORTED,
    catalog_json,
    load_catalog,
    negotiate,
    normalise,
    plural_function,
    system_language,
    translator,
)
from sequence.i18n.check import extract_template, msgids, problems
from sequence.i18n.terms import (
    ANIMALS,
    OPTION_HELP,
    card_label,
    game_title,
    option_help,
    plural,
)


@pytest.fixture(scope="module")
def template():  # type: ignore[no-untyped-def]
    return extract_template()


@pytest.mark.parametrize("lang", SUPPORTED)
def test_catalogue_complete(lang: str, template) -> None:  # type: ignore[no-untyped-def]
    """Every marked string of the sources is translated, nothing fuzzy, placeholders kept."""
    found = problems(lang, template)
    assert not found, "\n".join(found[:40]) + "\nrun scripts/i18n-update.sh and translate"


def test_catalogues_have_the_same_messages() -> None:
    ids = {lang: msgids(load_catalog(lang)) for lang in SUPPORTED}
    for lang in SUPPORTED:
        assert ids[lang] == ids["en"], (lang, sorted(ids[lang] ^ ids["en"]))


EXPECTED_PLURALS = {"en": 2, "de": 2, "fr": 2, "ru": 3, "uk": 3}


@pytest.mark.parametrize("lang", SUPPORTED)
def test_plural_forms_header(lang: str) -> None:
    catalog = load_catalog(lang)
    assert catalog.num_plurals == EXPECTED_PLURALS[lang]
    f = plural_function(catalog.plural_expr)
    if lang == "fr":
        assert [f(n) for n in (0, 1, 2)] == [0, 0, 1]
    if lang in ("en", "de"):
        assert [f(n) for n in (0, 1, 2)] == [1, 0, 1]


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("ru", ["1 карта", "2 карты", "5 карт", "21 карта", "11 карт", "22 карты", "111 карт"]),
        ("uk", ["1 карта", "2 карти", "5 карт", "21 карта", "11 карт", "22 карти", "111 карт"]),
        (
            "de",
            [
                "1 Karte",
                "2 Karten",
                "5 Karten",
                "21 Karten",
                "11 Karten",
                "22 Karten",
                "111 Karten",
            ],
        ),
        (
            "fr",
            [
                "1 carte",
                "2 cartes",
                "5 cartes",
                "21 cartes",
                "11 cartes",
                "22 cartes",
                "111 cartes",
            ],
        ),
        ("en", ["1 card", "2 cards", "5 cards", "21 cards", "11 cards", "22 cards", "111 cards"]),
    ],
)
def test_ngettext_picks_the_right_form(lang: str, expected: list[str]) -> None:
    got = [plural("cards", n, lang) for n in (1, 2, 5, 21, 11, 22, 111)]
    assert got == expected


def test_three_distinct_forms_in_ru_and_uk() -> None:
    for lang in ("ru", "uk"):
        forms = {plural("sequences", n, lang).split(" ", 1)[1] for n in (1, 2, 5)}
        assert len(forms) == 3, (lang, forms)
    assert plural("chips_left", 21, "ru") == "остался 21 жетон"
    assert plural("players", 3, "uk") == "3 гравці"


def test_translator_basics() -> None:
    assert translator("de").gettext("Sequence for Kids") == "Sequence für Kinder"
    assert translator("ru-RU").gettext("dead card") == "Пустая карта"
    assert translator("xx").gettext("dead card") == "dead card"
    assert translator(None).gettext("dead card") == "dead card"
    # A message no catalogue knows falls back to English.
    assert translator("fr").gettext("no such message here") == "no such message here"
    assert translator("uk").ngettext("x {n}", "xs {n}", 5) == "xs {n}"


def test_seed_terms_in_catalogues() -> None:
    """The rule books' own words (docs/glossary.md)."""
    assert translator("ru").gettext("sequence") == "секвенция"
    assert translator("ru").gettext("free corner") == "Счастливая клетка"
    assert translator("ru").gettext("Difficult variant") == "Сложный вариант"
    assert translator("de").gettext("sequence") == "Sequenz"
    assert translator("de").gettext("dead card") == "tote Karte"
    assert translator("de").gettext("free corner") == "Bonusfeld"
    assert translator("uk").gettext("sequence") == "послідовність"
    assert translator("uk").gettext("Unicorn") == "Єдиноріг"
    assert translator("uk").gettext("discard pile") == "купка скидання"
    assert translator("fr").gettext("defence") == "défense"
    assert translator("fr").gettext("wild") == "jeu fou"
    assert game_title("dice", "fr") == "Sequence Dés"


def test_every_engine_option_help_is_in_the_catalogue() -> None:
    for name, option in OPTIONS.items():
        assert OPTION_HELP[name] == option.help
        for lang in SUPPORTED:
            if lang != "en":
                assert option_help(name, lang) != option.help, (name, lang)


def test_animals_cover_the_kids_deck() -> None:
    from sequence.engine.cards import KIDS_ANIMALS, KIDS_CARDS

    assert set(ANIMALS) == {*KIDS_ANIMALS, "UNICORN", "DRAGON"}
    for lang in SUPPORTED:
        names = [card_label(c, lang) for c in KIDS_CARDS]
        assert len(set(names)) == len(KIDS_CARDS), lang


@pytest.mark.parametrize("lang", SUPPORTED)
def test_catalog_json(lang: str) -> None:
    data = catalog_json(lang)
    assert data["lang"] == lang
    assert data["nplurals"] == EXPECTED_PLURALS[lang]
    json.dumps(data)
    messages = data["messages"]
    assert len(messages) == len(msgids(load_catalog(lang)))
    forms = messages["{n} card"]
    assert isinstance(forms, list) and len(forms) == data["nplurals"]
    # The plural expression is a C expression that JavaScript evaluates the same way.
    f = plural_function(data["plural"])
    assert forms[f(21)].format(n=21) == plural("cards", 21, lang)


def test_catalog_json_unknown_language_is_english() -> None:
    assert catalog_json("xx-YY")["lang"] == "en"


@pytest.mark.parametrize(
    ("raw", "code"),
    [("ru-RU", "ru"), ("de_DE.UTF-8", "de"), ("uk", "uk"), ("FR-ca", "fr"), ("en-GB", "en"),
     ("sr@latin", None), ("C", None), ("", None), (None, None), ("pt-BR", None)],
)  # fmt: skip
def test_normalise(raw: str | None, code: str | None) -> None:
    assert normalise(raw) == code


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7", "ru"),
        ("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5", "fr"),
        ("es-ES,es;q=0.9,de;q=0.5", "de"),
        ("en;q=0.5,uk;q=0.9", "uk"),
        ("de;q=0,fr;q=0.1", "fr"),
        ("ja", "en"),
        ("", "en"),
        (None, "en"),
        ("ru;q=abc,de", "de"),
    ],
)
def test_negotiate(header: str | None, lang: str) -> None:
    assert negotiate(header) == lang


@pytest.mark.parametrize(
    ("env", "lang"),
    [
        ({"LANG": "ru_RU.UTF-8"}, "ru"),
        ({"LC_ALL": "de_DE.UTF-8", "LANG": "fr_FR.UTF-8"}, "de"),
        ({"LC_MESSAGES": "uk_UA.UTF-8", "LANG": "en_US.UTF-8"}, "uk"),
        ({"LANGUAGE": "es:fr", "LANG": "de_DE.UTF-8"}, "fr"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "ja_JP.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_system_language(monkeypatch: pytest.MonkeyPatch, env: dict[str, str], lang: str) -> None:
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    for var, value in env.items():
        monkeypatch.setenv(var, value)
    assert system_language() == lang


@pytest.mark.parametrize("lang", ["ru", "de", "uk", "fr"])
def test_every_bot_a_table_offers_has_a_name_in_each_language(lang: str) -> None:
    from sequence.i18n import catalog_json
    from sequence.server.tables.scheduler import bot_levels

    messages = catalog_json(lang)["messages"]
    assert [b for b in bot_levels() if b not in messages] == []


@pytest.mark.parametrize("lang", SUPPORTED)
def test_every_ending_has_a_sentence_won_and_drawn(lang: str) -> None:
    from sequence.engine import Outcome, Termination
    from sequence.i18n.terms import outcome_text

    for termination in Termination:
        won = outcome_text(Outcome(termination, 1), lang)
        assert won and "{" not in won
    drawn = outcome_text(Outcome(Termination.DRAFT_EMPTY, None), lang)
    won = outcome_text(Outcome(Termination.DRAFT_EMPTY, 0), lang)
    assert drawn != won and "A" in won


def test_french_puts_a_space_before_each_colon_and_says_bot_and_pendule() -> None:
    """French typography: a space before a colon ("Place 1 : Ann"); one word for the bots
    ("bot") and one for the turn clock ("pendule"), everywhere."""
    import re

    said = []
    for message in load_catalog("fr"):
        if message.id:
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            said += [s for s in strings if s]
    assert [s for s in said if re.search(r"[^\s\u00a0\u202f]:(\s|$)", s)] == []
    assert [s for s in said if re.search(r"\brobots?\b|\bhorloges?\b", s, re.IGNORECASE)] == []
