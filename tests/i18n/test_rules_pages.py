"""The "how to play" pages and ``sequence rules``."""

from __future__ import annotations

import re

import pytest

from sequence.cli.main import main
from sequence.engine import CLASSIC_BOARD, DICE_BOARD, KIDS_BOARD, OPTIONS
from sequence.engine.cards import KIDS_ANIMALS
from sequence.i18n import SUPPORTED, translator
from sequence.i18n.howto import GAMES, page_path, rules_html, rules_markdown
from sequence.i18n.terms import option_label

PAGES = [(g, lang) for g in GAMES for lang in SUPPORTED]
BOARDS = {"classic": CLASSIC_BOARD, "kids": KIDS_BOARD, "dice": DICE_BOARD}


@pytest.mark.parametrize(("game", "lang"), PAGES)
def test_page_exists_and_names_every_option(game: str, lang: str) -> None:
    assert page_path(game, lang).exists()
    text = rules_markdown(game, lang)
    for name, option in OPTIONS.items():
        if game in option.games:
            assert f"`{name}`" in text, (game, lang, name)
    assert "{{" not in text
    assert BOARDS[game].render() in text


@pytest.mark.parametrize(("game", "lang"), PAGES)
def test_pages_agree_on_the_numbers(game: str, lang: str) -> None:
    """Every number from 5 up that a page states, the English page states too, and back.

    (Small numbers are often words: "two players", "вчетвером".)"""
    numbers = lambda t: {n for n in re.findall(r"\d+", t) if int(n) >= 5}  # noqa: E731
    assert numbers(rules_markdown(game, lang)) == numbers(rules_markdown(game, "en"))


@pytest.mark.parametrize(("game", "lang"), PAGES)
def test_pages_have_the_same_sections(game: str, lang: str) -> None:
    count = lambda t: len(re.findall(r"^## ", t, re.M))  # noqa: E731
    assert count(rules_markdown(game, lang)) == count(rules_markdown(game, "en"))


SEED_TERMS = {
    ("classic", "ru"): ["секвенци", "Счастлив", "Пуст", "банкир", "Сложный вариант", "жетон"],
    ("classic", "de"): [
        "Sequenz",
        "tote Karte",
        "Bonusfeld",
        "Nachziehstapel",
        "Ablagestapel",
        "einäugige",
    ],
    ("classic", "en"): [
        "sequence",
        "free corner",
        "dead card",
        "one-eyed Jack",
        "two-eyed Jack",
        "Loss of card",
        "Table talk",
    ],
    ("kids", "uk"): ["послідовн", "Єдиноріг", "Дракон", "купк", "скидання", "Вільні місця", "фішк"],
    ("dice", "fr"): ["SEQUENCE", "DÉFENSE", "FOU", "carreau", "table de jeu", "jetons"],
}


@pytest.mark.parametrize(("page", "terms"), SEED_TERMS.items())
def test_pages_use_the_rule_books_words(page: tuple[str, str], terms: list[str]) -> None:
    text = rules_markdown(*page)
    for term in terms:
        assert term in text, (page, term)


def test_draft_is_a_section_of_classic() -> None:
    for lang in SUPPORTED:
        text = rules_markdown("draft", lang)
        assert text == rules_markdown("classic", lang)
        assert "## " in text and "`draft`" in text and "e5, f5, e6, f6" in text


def test_kids_page_names_the_animals_in_its_language() -> None:
    for lang in SUPPORTED:
        text = rules_markdown("kids", lang)
        assert translator(lang).gettext("Giraffe") in text


def test_html() -> None:
    html = rules_html("dice", "fr")
    assert html.startswith("<h1>") and "<table>" in html
    # The options by their names in the page's language: the keys are for the terminal's page.
    assert "dice_line_length" not in html and option_label("dice_line_length", "fr") in html
    assert "`dice_line_length`" in rules_markdown("dice", "fr")


def test_the_kids_page_in_pictures_names_no_card_by_its_engine_name() -> None:
    names = (*KIDS_ANIMALS, "UNICORN", "DRAGON")
    for lang in SUPPORTED:
        html = rules_html("kids", lang)
        assert html.count('<img class="pic"') == 38 + len(names)  # the board's spaces, the cards
        for name in names:
            assert f"/static/kids/{name.lower()}.svg" in html
            assert name not in html.replace(f"/{name.lower()}.svg", ""), (lang, name)


def test_unknown_page() -> None:
    with pytest.raises(ValueError):
        rules_markdown("chess", "en")
    with pytest.raises(ValueError):
        rules_markdown("classic", "es")


TITLES = {
    "en": "How to play Sequence",
    "ru": "Как играть в Sequence",
    "de": "So spielt man Sequence",
    "uk": "Як грати в Sequence",
    "fr": "Comment jouer à Sequence",
}


@pytest.mark.parametrize("lang", SUPPORTED)
def test_cli_rules_in_each_language(lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "classic", "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert TITLES[lang] in out
    assert "8C KS 6C 5C 4C 3C 2C 8D 8H KS" in out
    other = next(code for code in SUPPORTED if code != lang)
    assert f"(--lang {other})" in out and ".md" not in out  # how to read it in another language


def test_cli_rules_default_language_is_the_system_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "uk_UA.UTF-8")
    assert main(["rules", "kids"]) == 0
    assert "Як грати в Sequence для дітей" in capsys.readouterr().out
    monkeypatch.setenv("LANG", "C")
    assert main(["rules", "dice", "--markdown"]) == 0
    assert capsys.readouterr().out.startswith("# How to play Sequence Dice")


def test_cli_rules_errors(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LANGUAGE", "de")
    assert main(["rules", "chess"]) == 2
    assert "sequence rules: unbekanntes Spiel chess" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exited:
        main(["rules", "kids", "--lang", "es"])
    assert exited.value.code == 2
    assert "--lang: unbekannte Sprache 'es'" in capsys.readouterr().err
