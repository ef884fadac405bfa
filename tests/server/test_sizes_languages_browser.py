"""Issue 32 at every size in every language: a phone (390x844), a tablet (820x1180) and a
laptop (1280x800), each in English, Russian, German, Ukrainian and French, in Debian's Chromium.

For each of the fifteen, one page goes where a player goes (the lobby, the three rules pages, a
team game, a game of Dice, a rated game of Kids to its end, the player's page, the first game
that teaches) and checks on each what depends on the screen or the language:

- nothing scrolls sideways; on a touch screen every tap target (buttons, links, selects,
  checkboxes' and radios' labels, "Sign in") is at least 44 px, and a board space plays from a
  tap within 22 px of its centre however small it is drawn (the table's and the lesson's);
- no text (nor a label, an alt text, the tab's title, the browser's question on resigning) is
  an English message the page's language says otherwise, and no engine key shows (an option's
  ``chips_per_colour``, a Kids card's ``TIGER``); bot levels, option names, the resignation's
  reason and the end's title are in the page's language;
- on a phone, at one's turn, the whole board and the whole hand (in Dice the roll button) are
  on the first screen, above the log's bar (test_phone_turn_browser.py: the hint, a smaller
  phone, every game);
- the log is beside the board on a wide screen and a bar one tap away on a narrow one; the
  other players' last moves are marked on the board; the table-talk penalty asks for a team
  and a confirmation; the key to the Dice rolls is in view before and after a roll; every Kids
  space and card is a picture with its word; a Kids card that cannot be played is shown
  crossed out, the playable ones lit; a rating reads on the familiar scale ("1500 → 1375?").

One server and one browser serve the module; the games are against quick bots.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from sequence.engine import OPTIONS
from sequence.i18n import SUPPORTED, catalog_json, load_catalog
from sequence.i18n.terms import option_label

from . import scenes
from .conftest import ServerThread, create_table
from .test_kids_pictures_browser import every_picture_has_its_word
from .test_table_polish_browser import marked, others_since_my_move

pytestmark = pytest.mark.browser

COMBOS = [
    pytest.param(size, lang, id=f"{name}-{lang}")
    for name, size in scenes.SIZES.items()
    for lang in SUPPORTED
]
WIDE = 860
"""Wider than this (style.css), the log stands beside the board; narrower, it is a sheet."""
PHONE_WIDE = 600
"""No wider than this (style.css), a phone: on one's turn the board and the hand fit the screen."""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """Quick bots; lists to show: finished games between players with long names, one lost to
    the medium bot, an open table with the medium bot."""
    db = Path(tmp_path_factory.mktemp("sizes")) / "test.db"
    with ServerThread(
        f"sqlite:///{db}", bot_delay=0.05, create_rate=1000, create_burst=1000,
        join_rate=1000, join_burst=1000,
    ) as srv:  # fmt: skip
        for i in range(3):
            scenes.resigned_game(srv, f"Bartholomew-{i:02d}xxxxxx", f"Wilhelmina-{i:02d}yyyyyy")
        scenes.lost_to_a_bot(srv)
        create_table(srv, game="kids", players=2, name="Bob", seat=0, bots=[None, "medium"])
        yield srv


# ---- what is checked on every page ----------------------------------------------------------

TEXTS = """() => {
  const out = new Set([document.title]);
  const norm = (s) => s.replace(/\\s+/g, ' ').trim();
  for (const el of document.body.querySelectorAll('*')) {
    if (el.closest('script, style, #lang')) continue;  // the languages are named in themselves
    for (const a of ['aria-label', 'alt', 'placeholder', 'title']) {
      const v = el.getAttribute(a); if (v) out.add(norm(v));
    }
    const all = norm(el.textContent);
    if (all && all.length <= 200) out.add(all);
    for (const n of el.childNodes) {
      if (n.nodeType === 3 && norm(n.textContent)) out.add(norm(n.textContent));
    }
  }
  return [...out];
}"""


@cache
def english(lang: str) -> re.Pattern[str] | None:
    """Every English message that ``lang`` says otherwise (or has no word for), as a pattern
    of whole texts (a placeholder: any text); ``None`` for English."""
    if lang == "en":
        return None
    own = catalog_json(lang)["messages"]
    patterns = []
    for message in load_catalog("en"):
        forms = message.id if isinstance(message.id, tuple | list) else (message.id,)
        said = own.get(forms[0])
        for msgid in filter(None, forms):
            if msgid == said or (isinstance(said, list) and msgid in said):
                continue  # the same words in both
            letters = len(re.findall(r"[A-Za-z]", re.sub(r"\{\w+\}", "", msgid)))
            if letters < (4 if "{" in msgid else 2):
                continue  # too little of its own to recognise it by ("{card} on {space}"
                # would match any French sentence with "on" in it)
            parts = re.split(r"(\{\w+\})", msgid)
            patterns.append(
                "".join(".+" if re.fullmatch(r"\{\w+\}", p) else re.escape(p) for p in parts)
            )
    return re.compile("|".join(f"(?:{p})" for p in patterns))


ENGINE_KEYS = re.compile(
    r"\b(?:" + "|".join(k for k in OPTIONS if "_" in k)
    + r"|TIGER|LION|GIRAFFE|RABBIT|PIG|BEAR|DUCK|UNICORN|DRAGON)\b"
)  # fmt: skip


def untranslated(page: Any, lang: str) -> list[str]:
    """The texts of the page left in English, or showing an engine key."""
    texts: list[str] = page.evaluate(TEXTS)
    left = english(lang)
    return [t for t in texts if ENGINE_KEYS.search(t) or (left and left.fullmatch(t))]


TOUCH_TARGETS = (
    "button:not(.lboard button), a.button, select, input:not([type=checkbox]):not([type=radio]),"
    " .top a, #ratings-links a, label:has(> input[type=checkbox]), label:has(> input[type=radio])"
)
"""What a finger taps, but the spaces of a board (checked by a tap beside them)."""


def small_targets(page: Any) -> list[str]:
    """The visible tap targets under 44 px high (or, for a button, wide)."""
    found: list[str] = page.evaluate(
        """([sel, least]) => [...document.querySelectorAll(sel)].filter((el) => {
             const r = el.getBoundingClientRect();
             if (!r.width || !r.height) return false;
             if (getComputedStyle(el).visibility === 'hidden') return false;
             return r.height < least - .5 || (el.tagName === 'BUTTON' && r.width < least - .5);
           }).map((el) => {
             const r = el.getBoundingClientRect();
             return `${el.tagName}#${el.id}.${el.className} ${el.textContent.trim().slice(0, 30)}`
               + ` ${r.width}x${r.height}`;
           })""",
        [TOUCH_TARGETS, scenes.FINGER],
    )
    return found


def fits(page: Any, lang: str, where: str) -> None:
    """No sideways scroll, no small tap target on a touch screen, every word in ``lang``."""
    width = page.viewport_size["width"]
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= width, f"{where}: {wide} px wide on a {width} px screen"
    if scenes.touch(page):
        assert small_targets(page) == [], where
    assert untranslated(page, lang) == [], where


OUT_OF_VIEW = """(sels) => {
  const bar = document.querySelector('#log-open');
  const b = bar && bar.getBoundingClientRect();
  const floor = b && b.height ? b.top : innerHeight;
  const out = [];
  for (const sel of sels) {
    const els = [...document.querySelectorAll(sel)];
    if (!els.length) out.push(`${sel}: none`);
    for (const el of els) {
      const r = el.getBoundingClientRect();
      if (r.top < 0 || r.left < 0 || r.right > innerWidth || r.bottom > floor + .5)
        out.push(`${sel} [${r.left}, ${r.top}, ${r.right}, ${r.bottom}], bar at ${floor}`);
    }
  }
  return out;
}"""


def out_of_view(page: Any, *selectors: str) -> list[str]:
    """What ``selectors`` match (each must match something) that is not wholly on the screen
    above the log's bar, the page unscrolled."""
    assert page.evaluate("() => scrollY") == 0, "the page was scrolled"
    found: list[str] = page.evaluate(OUT_OF_VIEW, list(selectors))
    return found


def word(lang: str, msgid: str, **params: Any) -> str:
    """The catalogue's ``msgid`` in ``lang`` (which must have it), filled with ``params``."""
    text = catalog_json(lang)["messages"].get(msgid)
    assert isinstance(text, str) and text, f"{msgid!r} has no translation into {lang}"
    return text.format(**params)


# ---- each place in turn ------------------------------------------------------------------------


def the_lobby(page: Any, site: ServerThread, lang: str) -> None:
    scenes.lobby(page, site.url)
    fits(page, lang, "the lobby")
    bot = word(lang, "{name} (bot)", name=word(lang, "medium"))
    for where in ("#finished", "#open-tables"):
        assert bot in page.inner_text(where), where
    # The Rated box keeps its words beside it; the first-game buttons stand apart; the links
    # outside the panels line up with the panels' text.
    box = page.locator("#rated").bounding_box()
    words = page.evaluate(
        "() => { const r = document.createRange();"
        " const l = document.querySelector('label:has(> #rated)');"
        " r.selectNodeContents([...l.childNodes].find((n) => n.nodeType === 3));"
        " const t = r.getClientRects()[0]; return { left: t.left, top: t.top }; }"
    )
    assert words["left"] >= box["x"] + box["width"] and words["top"] < box["y"] + box["height"]
    learn = [b.bounding_box() for b in page.locator("#learn-offer button").all()]
    for a, b in itertools.pairwise(learn):
        if abs(a["y"] - b["y"]) < 1:  # on one line
            assert b["x"] - (a["x"] + a["width"]) >= 4, (a, b)
    panel = page.locator("section.panel").first.bounding_box()
    assert page.locator("#to-leaderboard").bounding_box()["x"] >= panel["x"] + 8


def the_rules(page: Any, site: ServerThread, lang: str) -> None:
    for game in ("classic", "kids", "dice"):
        scenes.rules(page, site.url, game)
        fits(page, lang, f"the {game} rules")
        text = page.inner_text("#rules")
        assert option_label("chips_per_colour", lang) in text, game
        if game == "classic":
            assert option_label("manual_draw", lang) in text
        if game == "kids":  # the board in pictures, each with its word
            loaded = page.eval_on_selector_all(
                "#rules img.pic", "(imgs) => imgs.map((i) => i.naturalWidth > 0)"
            )
            assert len(loaded) == 38 + 21 and all(loaded)
            assert word(lang, "Giraffe") in page.inner_text("#rules table.kidsboard")


def the_team_game(page: Any, site: ServerThread, lang: str) -> None:
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    scenes.team_game(page, site)
    fits(page, lang, "the table")
    if width <= PHONE_WIDE:  # the whole board and the whole hand on the first screen
        assert out_of_view(page, "#board", "#hand .card") == []
    assert page.text_content("#log-setup")  # who deals and who starts
    if width > WIDE:  # the log beside the board, its top in view
        log, board = page.locator("#log").bounding_box(), page.locator("#board").bounding_box()
        assert log["x"] >= board["x"] + board["width"] and log["y"] < height - 120, log
        assert page.locator("#log-open").is_hidden()
    else:  # a bar at the bottom of the screen, one tap from the log
        assert page.locator("#log").is_hidden()
        bar = page.locator("#log-open").bounding_box()
        assert bar["y"] + bar["height"] <= height and bar["height"] >= scenes.FINGER, bar
        scenes.tap(page, "#log-open")
        log = page.locator("#log").bounding_box()
        assert log["y"] >= 0 and log["y"] + log["height"] <= height + 1 and log["width"] <= width
        fits(page, lang, "the log")
        scenes.tap(page, "#log-close")
        assert page.locator("#log").is_hidden()
    # The penalty: a team to choose, then a confirmation; cancelled, nothing happens.
    moves = page.evaluate("() => window.seq.msg.view.moves.length")
    scenes.tap(page, "#penalty")
    assert page.locator("#penalty-dialog").is_visible()
    assert page.is_disabled("#penalty-confirm")
    scenes.tap(page, '#penalty-dialog label.choice:has(input[value="B"])')
    assert page.is_enabled("#penalty-confirm")
    fits(page, lang, "the penalty dialog")
    scenes.tap(page, "#penalty-cancel")
    page.wait_for_selector("#penalty-dialog", state="detached")
    # Ann plays by a tap beside her space; the bots play; their moves are marked.
    width_of_a_space = page.locator("#board rect.cell").first.bounding_box()["width"]
    space, landed = scenes.play_beside(page)
    if width_of_a_space < scenes.FINGER - 2:  # the phone's spaces: the tap was on another
        assert landed != space, (space, landed)
    scenes.my_turn(page, page.evaluate("() => window.seq.msg.table.code"))
    view = page.evaluate("() => window.seq.msg.view")
    assert not any(m.startswith("penalty:") for m in view["moves"][moves:])
    expected = others_since_my_move(view["log"], 0)
    assert expected and marked(page) == expected


KEY_WORDS = (
    "What the rolls do",
    "place a chip on a space of that number, then roll again.",
    "defence: remove a chip of another team (not from a 2 or a 12 space).",
    "wild: place a chip on any open space.",
)


def key_in_view(page: Any, lang: str) -> None:
    key = page.locator("#dice-key")
    for msgid in KEY_WORDS:
        assert word(lang, msgid) in key.inner_text(), msgid
    box = key.bounding_box()
    assert box["y"] < page.viewport_size["height"], box  # on the first screen


def the_dice_game(page: Any, site: ServerThread, lang: str) -> None:
    scenes.dice_game(page, site)
    key_in_view(page, lang)
    if page.viewport_size["width"] <= PHONE_WIDE:
        assert out_of_view(page, "#board", "#act-roll") == []
    fits(page, lang, "the Dice table")
    scenes.roll(page)
    key_in_view(page, lang)
    fits(page, lang, "the Dice table after a roll")


def the_kids_game_to_its_end(page: Any, site: ServerThread, lang: str) -> None:
    scenes.kids_dragon(page, site, rated=True)
    page.wait_for_function(
        "() => [...document.querySelectorAll('img.pic')].every((i) => i.complete)"
    )
    every_picture_has_its_word(page, lang)
    assert page.locator("#no-move img.pic[data-card='DRAGON']").is_visible()
    assert page.locator("#hand.flash .card.playable").count() >= 1
    assert page.locator("#hand .card[data-card='DRAGON'].playable").count() == 0
    fits(page, lang, "the Kids table")
    asked = scenes.resign(page)
    assert not english(lang) or not english(lang).fullmatch(asked), asked
    assert page.title() == f"{word(lang, 'Game over')} · {word(lang, 'Sequence')}", page.title()
    assert word(lang, "medium") in page.inner_text("#winner")
    assert page.inner_text("#end-reason") == word(
        lang, "{name} resigned: the game is lost.", name="Ann"
    )
    page.wait_for_selector("#rating-change a", timeout=20000)
    change = word(lang, "Your rating: {before} → {rating}", before="1500", rating="RATING")
    pattern = re.escape(change).replace("RATING", r"1[0-9]{3}\?")
    assert re.match(pattern, page.inner_text("#rating-change")), page.inner_text("#rating-change")
    fits(page, lang, "the end")
    # The player's page: the rating, the game, the bot played against.
    page.click("#my-page")
    page.wait_for_selector("#player-page .rating")
    assert re.fullmatch(r"1[0-9]{3}\?", page.inner_text("#player-page .rating"))
    assert word(lang, "medium") in page.inner_text("#versus-bots")
    fits(page, lang, "the player's page")


def the_first_game(page: Any, site: ServerThread, lang: str) -> None:
    scenes.lesson(page, site.url, "classic", lang)
    fits(page, lang, "the first game")
    scenes.tap_beside_the_point(page)
    assert page.locator("#refused").count() == 0


@pytest.mark.parametrize(("size", "lang"), COMBOS)
def test_issue_32_at_this_size_in_this_language(
    module_browser: Any, site: ServerThread, size: dict[str, Any], lang: str
) -> None:
    page = scenes.new_page(module_browser, size, lang)
    try:
        the_lobby(page, site, lang)
        assert scenes.touch(page) == bool(size.get("has_touch"))
        the_rules(page, site, lang)
        the_team_game(page, site, lang)
        the_dice_game(page, site, lang)
        the_kids_game_to_its_end(page, site, lang)
        the_first_game(page, site, lang)
    finally:
        page.context.close()
