"""Learning in the browser, in Debian's Chromium at a phone's and a laptop's size: the hint
button at a casual table (the suggested card and space lit, the reason in the reader's
language, on a phone a tap on the hint away, nothing for a spectator, gone at the end) and the
review beside a finished game's replay."""

from __future__ import annotations

from typing import Any

import pytest

from sequence.bots.explain import Note
from sequence.bots.review import Reviewer
from sequence.i18n.moves import move_words
from sequence.i18n.notes import translate_note

from .conftest import ServerThread, create_table, seated_page
from .scenes import LAPTOP, PHONE, resign
from .test_review_api import finished_game, reviewed

SIZES = pytest.mark.parametrize(
    ("size", "lang"), [(PHONE, "ru"), (LAPTOP, "en")], ids=["phone-ru", "laptop-en"]
)


def seated(browser: Any, server: ServerThread, size: dict[str, Any], lang: str) -> Any:
    """A page in ``lang`` seated at seat 0 of a new casual classic game against easy, started,
    at its first turn; and the table's code."""
    created = create_table(server, game="classic", players=2, bots=[None, "easy"], name="Ann",
                           seat=0)  # fmt: skip
    return seated_page(browser, server, size, created, lang=lang), created["code"]


@pytest.mark.browser
@SIZES
def test_the_hint_lights_the_card_and_space_and_says_why(
    browser: Any, web: ServerThread, size: dict[str, Any], lang: str
) -> None:
    page, code = seated(browser, web, size, lang)
    if size is PHONE:  # scrolled to, the hand's last (7th) card is above the fixed log bar
        last = page.locator("#hand .card").last
        last.scroll_into_view_if_needed()
        box, bar = last.bounding_box(), page.locator("#log-open").bounding_box()
        assert box["y"] + box["height"] <= bar["y"], (box, bar)
    table = web.hub.registry.tables[code]
    expected = Reviewer().hint(table.state.view(0))
    page.click("#ask-hint")
    page.wait_for_selector("#hint")
    move = page.get_attribute("#hint", "data-move")
    assert move == str(expected.move)
    # The move in words, in the reader's language: never its notation.
    said = page.inner_text("#hint")
    assert move_words(expected.move, lang) in said and move not in said, said
    if size is PHONE:  # the reasons a tap on the hint away, the hand kept on the screen
        assert page.locator("#hint-why").is_hidden()
        page.tap("#hint-box summary")
    why = page.locator("#hint-why li").all_inner_texts()
    assert why == [translate_note(n, lang) for n in expected.notes] and why
    card, space = move.split("@") if "@" in move else (move.split("x")[0], move[-3:].lstrip("x"))
    assert "hinted" in (page.get_attribute(f"#board [data-space='{space}']", "class") or "")
    assert page.locator("#hand .card.hinted").first.get_attribute("data-card") == card
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= size["viewport"]["width"]
    # Playing the hint moves the game on; the hint is for its position only.
    page.locator(f"#hand .card[data-card='{card}']").first.click()
    page.click(f"#board [data-space='{space}']")
    page.wait_for_function("() => window.seq.msg.version > 0", timeout=20000)
    # The page draws the new version after it holds it: wait for that drawing.
    page.wait_for_selector("#hint", state="detached", timeout=10000)
    # A spectator is offered no hint.
    watcher = browser.new_context(**size).new_page()
    watcher.goto(web.url + f"/t/{code}")
    watcher.wait_for_selector("#board")
    assert watcher.locator("#ask-hint").count() == 0
    # A hint asked for, then the game ends (a resignation, no move): the end screen lights
    # nothing.
    page.wait_for_selector("#ask-hint:not([disabled])", timeout=20000)
    page.click("#ask-hint")
    page.wait_for_selector("#hint")
    assert page.locator(".hinted").count() > 0
    resign(page)
    page.wait_for_function(
        "() => !document.querySelector('.hinted') && !document.querySelector('#hint')",
        timeout=10000,
    )


VERDICTS = {
    "en": {"best": "Best move", "good": "Good move", "inaccuracy": "Inaccuracy",
           "mistake": "Mistake", "blunder": "Blunder"},
    "ru": {"best": "Лучший ход", "good": "Хороший ход", "inaccuracy": "Неточность",
           "mistake": "Ошибка", "blunder": "Грубая ошибка"},
}  # fmt: skip


@pytest.mark.browser
@SIZES
def test_the_replay_shows_each_moves_verdict_the_turning_points_and_the_chances(
    browser: Any, web: ServerThread, size: dict[str, Any], lang: str
) -> None:
    code, _record = finished_game(web)
    page = browser.new_context(**size).new_page()
    page.goto(web.url + "/")
    page.evaluate(f"() => localStorage.setItem('seq.lang', '{lang}')")
    page.goto(web.url + f"/replay/{code}")
    page.wait_for_selector("#review-method")
    want = reviewed(web, code, lang)  # the server's, as the page gets it
    page.wait_for_selector("#review-move", timeout=60000)
    assert "{" not in page.inner_text("#review-method")
    # The chart: a line per side, from the first decision to the end, and a cursor.
    assert page.locator("#chances polyline.chance").count() == len(want["teams"])
    points = page.get_attribute("#chances polyline.chance >> nth=0", "points") or ""
    assert len(points.split()) == len(want["chances"])
    # Step to the move the review liked least: its verdict, what was better, why.
    worst = max(want["moves"], key=lambda m: m["loss"])
    for ply in range(1, worst["number"] + 1):
        page.click("#next")
        page.wait_for_selector(f"#review-move[data-ply='{ply}']")
    assert page.get_attribute("#review-move", "data-verdict") == worst["verdict"]
    text = page.inner_text("#review-move")
    assert VERDICTS[lang][worst["verdict"]] in text
    assert worst["move_says"] in text and "@" not in text, text  # the move in words
    if worst["verdict"] in ("inaccuracy", "mistake", "blunder"):
        assert page.locator("#review-better").count() == 1
        assert worst["best_says"] in page.inner_text("#review-better")
    said = [n["says"] for n in worst["flags"] + worst["notes"]]
    assert all(s in text for s in said), (said, text)
    # The turning points, each a button to its move.
    tps = want["turning_points"]
    assert page.locator("#turning-points button").count() == len(tps)
    if tps:
        page.click(f"#turning-points button[data-ply='{tps[0]['number']}']")
        page.wait_for_selector(f"#review-move[data-ply='{tps[0]['number']}']")
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= size["viewport"]["width"]


@pytest.mark.browser
def test_a_good_move_at_a_turning_point_for_the_worse_is_called_luck(
    browser: Any, web: ServerThread
) -> None:
    """The review notes such a move ``unlucky`` (tests/bots/test_review.py); the page says so
    beside the move's verdict and at the turning point. The server's review, with its first
    move made such a move, is what the page gets."""
    lang = "ru"
    code, _record = finished_game(web)
    review = reviewed(web, code, lang)
    said = translate_note(Note("unlucky"), lang)
    unlucky = {**Note("unlucky").to_dict(), "says": said}
    first = review["moves"][0]
    first.update(verdict="good", notes=[unlucky, *first["notes"]])
    review["turning_points"] = [
        {key: first[key] for key in ("index", "number", "seat", "move", "move_says")}
        | {"swing": -0.3, "notes": [*first["flags"], *first["notes"]]}
    ]
    page = browser.new_context(**PHONE).new_page()
    page.route(
        f"**/api/tables/{code}/review*",
        lambda route: route.fulfill(json={"status": "ready", "review": review}),
    )
    page.goto(web.url + "/")
    page.evaluate(f"() => localStorage.setItem('seq.lang', '{lang}')")
    page.goto(web.url + f"/replay/{code}")
    page.wait_for_selector("#review-move", timeout=60000)
    assert said in page.inner_text("#turning-points")
    page.click(f"#turning-points button[data-ply='{first['number']}']")
    page.wait_for_selector(f"#review-move[data-ply='{first['number']}']")
    text = page.inner_text("#review-move")
    assert VERDICTS[lang]["good"] in text and said in text, text
