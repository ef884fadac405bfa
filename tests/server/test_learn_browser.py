"""The first games that teach, in Debian's Chromium: each played to its end by clicks at a
phone's and a laptop's size, in English and in Russian or French; the start page offers them
until skipped; the answers carry only the learner's view."""

from __future__ import annotations

from typing import Any

import pytest

from sequence.engine import MoveKind
from sequence.learn import LESSONS, LessonGame

from .conftest import ServerThread

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
LAPTOP = {"viewport": {"width": 1366, "height": 768}}


def play_through(page: Any, game: str, lang: str) -> None:
    """Click what each step points at (the roll, the card, the glowing space) to the end."""
    for number, step in enumerate(LESSONS[game].steps, 1):
        page.wait_for_selector(f"text={number} / {len(LESSONS[game].steps)}")
        says = page.inner_text("#says")
        assert says.strip() and "{" not in says
        if step.roll is not None:
            page.click("#roll")
            page.wait_for_selector(".lboard button.point")
        move = step.accepted[0]
        if move.kind is MoveKind.DEAD:
            page.click(f"#hand button[data-card='{step.card}']")
        else:
            if step.card is not None:
                page.click(f"#hand button[data-card='{step.card}']")
            space = page.locator(f"#board button[data-space='{step.moves[0][-2:]}']")
            assert "point" in (space.get_attribute("class") or "")
            space.click()
    page.wait_for_selector("main[data-over='yes']")
    assert page.locator("#refused").count() == 0


@pytest.mark.browser
@pytest.mark.parametrize("game", sorted(LESSONS))
@pytest.mark.parametrize(
    ("size", "lang"), [(PHONE, "ru"), (LAPTOP, "en"), (PHONE, "en"), (LAPTOP, "fr")],
    ids=["phone-ru", "laptop-en", "phone-en", "laptop-fr"],
)  # fmt: skip
def test_each_first_game_is_played_to_its_end(
    browser: Any, web: ServerThread, game: str, size: dict[str, Any], lang: str
) -> None:
    ctx = browser.new_context(**size)
    page = ctx.new_page()
    page.goto(f"{web.url}/learn/{game}?lang={lang}")
    page.wait_for_selector("#welcome")
    assert page.inner_text("#welcome") == LessonGame.start(game).welcome(lang)
    play_through(page, game, lang)
    won = page.inner_text("#says")
    played = LessonGame.replay(game, [m for s in LESSONS[game].steps for m in
                                      ((s.roll,) if s.roll else ()) + (s.moves[0],)])  # fmt: skip
    assert won == played.says(lang)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= size["viewport"]["width"]  # nothing runs off the screen's side
    ctx.close()


@pytest.mark.browser
def test_a_click_the_step_does_not_want_is_refused_in_words(
    browser: Any, web: ServerThread
) -> None:
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{web.url}/learn/kids?lang=ru")
    page.wait_for_selector("#board")
    page.click("#hand button[data-card='TIGER']")
    page.click("#board button[data-space='g3']")  # the other Tiger space
    page.wait_for_selector("#refused")
    assert "первой игре" in page.inner_text("#refused")
    assert page.inner_text(".step") == "1 / 4"


def test_the_answer_holds_only_the_learners_view(web: ServerThread) -> None:
    with web.http() as http:
        answer = http.post("/api/learn/classic", json={"moves": [], "tried": "3D@d3"}).json()
        assert answer["view"]["seat"] == 0 and answer["step"]["key"] == "one_eyed_jack"
        public = dict(answer["view"], board=None)
        for card in ("9C", "QC", "7C", "4S", "TH"):  # the scripted opponent's hand after 8D
            assert f"'{card}'" not in str(public)
        assert "hands" not in answer["view"] and "deck" not in answer["view"]
        refused = http.post(
            "/api/learn/classic", json={"moves": [], "tried": "KC@a8", "lang": "de"}
        )
        assert refused.json()["refused"] and refused.json()["step"]["number"] == 1
        assert http.post("/api/learn/draft", json={}).status_code == 404
        bad = http.post("/api/learn/dice", json={"moves": ["@b3"]})
        assert bad.status_code == 422 and "Roll the dice first" in bad.text
        assert http.get("/learn").status_code == 200


@pytest.mark.browser
def test_the_start_page_offers_the_first_game_until_skipped(
    browser: Any, web: ServerThread
) -> None:
    page = browser.new_context(**PHONE).new_page()
    page.goto(web.url + "/")
    page.wait_for_selector("#learn-offer")
    page.click("#learn-offer button[data-learn='kids']")
    page.wait_for_selector("#board")
    assert page.url.split("?")[0].endswith("/learn/kids")
    page.evaluate("() => localStorage.removeItem('seq.learned')")
    page.goto(web.url + "/")
    page.click("#learn-skip")
    assert page.locator("#learn-offer").count() == 0
    page.reload()
    page.wait_for_selector("#game")
    assert page.locator("#learn-offer").count() == 0
