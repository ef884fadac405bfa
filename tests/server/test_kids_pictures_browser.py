"""Sequence for Kids in pictures, in Debian's Chromium on a tablet (820x1180) and a phone (390x844).

Every animal space of the board and every card of the hand is a picture with its word, in the
reader's language, as its alt text (``aria-label`` on the board's SVG ``image``), the word also
written under it; the pictures are shipped files that load. The log shows the picture of the card
played. ``SEQUENCE_SHOTS=docs/img`` saves the screenshots (tablet in English and French, phone
in Russian).
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from sequence.i18n import catalog_json

from .conftest import ServerThread

pytestmark = pytest.mark.browser

TABLET = {"viewport": {"width": 820, "height": 1180}, "is_mobile": True, "has_touch": True}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
SHOTS = os.environ.get("SEQUENCE_SHOTS")

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


def open_kids_table(browser: Any, web: ServerThread, ctx_args: dict[str, Any], lang: str) -> Any:
    with web.http() as http:
        created = http.post(
            "/api/tables",
            json={"game": "kids", "players": 2, "bots": [None, "random"], "name": "Ann", "seat": 0},
        ).json()
        http.post(
            f"/api/tables/{created['code']}/start", json={"host_token": created["host_token"]}
        )
    code = created["code"]
    ctx = browser.new_context(**ctx_args)
    page = ctx.new_page()
    page.goto(web.url + "/")
    page.evaluate(
        f"() => {{ localStorage.setItem('seq.seat.{code}', '{created['seat_token']}');"
        f" localStorage.setItem('seq.host.{code}', '{created['host_token']}');"
        f" localStorage.setItem('seq.lang', '{lang}'); }}"
    )
    page.goto(web.url + f"/t/{code}")
    page.wait_for_selector("#hand button.card img.pic")
    page.wait_for_function(
        "() => [...document.querySelectorAll('img.pic')].every((i) => i.complete)"
    )
    return ctx, page


@pytest.mark.parametrize(
    ("size", "lang"),
    [(TABLET, "en"), (TABLET, "fr"), (PHONE, "ru")],
    ids=["tablet", "tablet-fr", "phone-ru"],
)
def test_every_kids_space_and_card_is_a_picture_with_its_word(
    browser: Any, web: ServerThread, size: dict[str, Any], lang: str
) -> None:
    ctx, page = open_kids_table(browser, web, size, lang)
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
    if size is TABLET:  # large enough for a child's finger
        assert min(sp["w"] for sp in seen["board"]) >= 60
        assert min(min(c["w"], c["h"]) for c in seen["hand"]) >= 70
    else:
        assert min(sp["w"] for sp in seen["board"]) >= 34
    # Every picture the board uses is a shipped file.
    for card in {sp["card"] for sp in seen["board"]}:
        assert page.request.get(web.url + f"/static/kids/{card.lower()}.svg").ok
    assert page.request.get(web.url + "/static/kids/LICENSE.txt").ok

    # Play the first card: the log shows its picture and word.
    msg = page.evaluate("() => window.seq.msg")
    move = next(m for m in msg["view"]["legal_moves"] if "@" in m)
    card, space = move.split("@")
    page.click(f'#hand button.card[data-card="{card}"] >> nth=0')
    page.click(f'#board g[data-space="{space}"].target')
    # (On these narrow screens the log is a sheet, one tap away: in the page, not in view.)
    page.wait_for_selector(f'#log img.pic[data-card="{card}"]', state="attached")
    assert page.get_attribute(f'#log img.pic[data-card="{card}"]', "alt") == word(lang, card)
    if SHOTS:
        kind = "tablet" if size is TABLET else "phone"
        name = f"web-kids-{kind}.png" if lang == "en" else f"web-kids-{kind}-{lang}.png"
        page.screenshot(path=os.path.join(SHOTS, name), full_page=True)
    ctx.close()
