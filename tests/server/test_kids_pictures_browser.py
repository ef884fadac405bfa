"""Sequence for Kids in pictures, in Debian's Chromium on a tablet (820x1180).

Every animal space of the board and every card of the hand is a picture with its word, in the
reader's language, as its alt text (``aria-label`` on the board's SVG ``image``), the word also
written under it; the pictures are shipped files that load. The log shows the picture of the card
played. :func:`every_picture_has_its_word` is checked at every size in every language by
test_sizes_languages_browser.py; ``scripts/screenshots.py kids-tablet kids-tablet-fr
kids-phone-ru`` photographs the table (tablet in English and French, phone in Russian).
"""

from __future__ import annotations

from typing import Any

import pytest

from sequence.i18n import catalog_json

from .conftest import ServerThread
from .scenes import TABLET, kids_table, new_page, play_a_card

pytestmark = pytest.mark.browser


PICTURES = """() => {
  const board = [...document.querySelectorAll("#board g[data-space]")]
    .filter((g) => !g.classList.contains("free"))
    .map((g) => { const img = g.querySelector("image.pic");
      const r = g.querySelector("rect").getBoundingClientRect();
      return { space: g.dataset.space, card: img && img.dataset.card,
               alt: img && img.getAttribute("aria-label"),
               word: (g.querySelector("text.kidsword") || {}).textContent || null, w: r.width }; });
  const hand = [...document.querySelectorAll("#hand button.card")].map((b) => {
    const img = b.querySelector("img.pic"); const r = b.getBoundingClientRect();
    return { card: b.dataset.card, alt: img && img.alt,
             loaded: !!img && img.complete && img.naturalWidth > 0,
             word: b.querySelector(".word").textContent, w: r.width, h: r.height }; });
  return { board, hand };
}"""


def word(lang: str, card: str) -> str:
    english = card.capitalize()
    translated: str = catalog_json(lang)["messages"].get(english) or english
    return translated


def every_picture_has_its_word(page: Any, lang: str) -> None:
    """Every animal space of the board and every card of the hand is a loaded picture whose
    alt text is its word in ``lang``, the word written under it; large enough for a child's
    finger on a tablet."""
    seen = page.evaluate(PICTURES)
    assert len(seen["board"]) >= 30 and seen["hand"]  # every animal space of the 6x6 board
    for sp in seen["board"]:
        assert sp["card"], f"{sp['space']} has no picture"
        assert sp["alt"] == word(lang, sp["card"]), sp
        if sp["word"] is not None:  # no chip on it: the word is written under the picture
            assert sp["word"] == sp["alt"]
    for card in seen["hand"]:
        assert card["loaded"], f"the picture of {card['card']} did not load"
        assert card["alt"] == card["word"] == word(lang, card["card"])
    if page.viewport_size["width"] >= 800:  # a tablet
        assert min(sp["w"] for sp in seen["board"]) >= 60
        assert min(min(c["w"], c["h"]) for c in seen["hand"]) >= 70
    else:
        assert min(sp["w"] for sp in seen["board"]) >= 34


def test_every_kids_space_and_card_is_a_picture_with_its_word(
    browser: Any, web: ServerThread
) -> None:
    page = new_page(browser, TABLET)
    kids_table(page, web)
    every_picture_has_its_word(page, "en")
    # Every picture the board uses is a shipped file.
    cards = page.evaluate(
        "() => [...document.querySelectorAll('#board image.pic')].map((i) => i.dataset.card)"
    )
    for card in set(cards):
        assert page.request.get(web.url + f"/static/kids/{card.lower()}.svg").ok
    assert page.request.get(web.url + "/static/kids/LICENSE.txt").ok

    # Play the first card: the log shows its picture and word.
    card = play_a_card(page)
    # (On these narrow screens the log is a sheet, one tap away: in the page, not in view.)
    page.wait_for_selector(f'#log img.pic[data-card="{card}"]', state="attached")
    assert page.get_attribute(f'#log img.pic[data-card="{card}"]', "alt") == word("en", card)
    page.context.close()
