"""How to play, from the lobby: the API gives each game's page in the request's language, and
the lobby links to it (the browser part needs Debian's Chromium)."""

from __future__ import annotations

from typing import Any

import pytest

from sequence.i18n import catalog_json
from sequence.i18n.howto import rules_markdown

from .conftest import ServerThread


@pytest.mark.parametrize("lang", ["en", "ru", "de", "uk", "fr"])
@pytest.mark.parametrize("game", ["classic", "kids", "dice"])
def test_rules_in_each_language(server: ServerThread, game: str, lang: str) -> None:
    r = server.http().get(f"/api/rules/{game}", headers={"Accept-Language": lang})
    assert r.status_code == 200
    body = r.json()
    assert body["game"] == game and body["lang"] == lang
    title = rules_markdown(game, lang).splitlines()[0].lstrip("# ")
    assert f"<h1>{title}</h1>" in body["html"]


def test_unknown_game_is_refused_in_the_players_language(server: ServerThread) -> None:
    r = server.http().get("/api/rules/chess", headers={"Accept-Language": "de"})
    assert r.status_code == 404
    assert r.json()["error"] == "not_found"  # docs/server.md: a 404 is not_found or unknown_*
    english = server.http().get("/api/rules/chess", headers={"Accept-Language": "en"}).json()
    # The engine's refusal, naming the games GET /api/meta lists (draft is classic's option).
    games = list(server.http().get("/api/meta").json()["games"])
    assert english["message"] == (
        f"unknown game chess: choose {', '.join(games[:-1])} or {games[-1]}"
        " (the draft variant: classic with the option draft)"
    )
    assert r.json()["message"] != english["message"]  # translated, not the English text


@pytest.mark.browser
def test_lobby_links_to_how_to_play(browser: Any, web: ServerThread) -> None:
    page = browser.new_context(locale="fr-FR").new_page()
    page.goto(web.url + "/")
    page.wait_for_selector("#how-to-play")
    assert catalog_json("fr")["messages"]["How to play"] in page.inner_text("#how-to-play h2")
    page.click("#rules-dice")
    page.wait_for_selector("#rules h1")
    assert page.url.endswith("/rules/dice")
    assert page.inner_text("#rules h1") == rules_markdown("dice", "fr").splitlines()[0].lstrip("# ")
    page.click("#rules a:text('Русский')")  # the page's own language links switch language
    ru_title = rules_markdown("dice", "ru").splitlines()[0].lstrip("# ")
    page.wait_for_selector(f"#rules h1:text('{ru_title}')")
    assert page.input_value("#lang") == "ru"
    page.click("#back")
    page.wait_for_selector("#create")
