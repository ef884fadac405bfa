"""The terminal game rendered in each language: every screen shows that language's strings.

Each screen is driven with Textual's headless pilot and read back from what the terminal would
show. Two checks per screen and language: the catalogue's translations of messages known to be on
that screen are there, and no English text of any catalogue message is (for the languages other
than English; messages that read the same in a language, such as "Code" in German, are skipped).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

import pytest
from textual.pilot import Pilot
from textual.widget import Widget

from sequence.engine import (
    GameRecord,
    IllegalMoveError,
    Move,
    State,
    card_name,
    make_config,
    play_random_game,
)
from sequence.i18n import SUPPORTED, load_catalog, translator
from sequence.i18n.errors import translate_error
from sequence.tui.app import SequenceApp
from sequence.tui.dialogs import GameOverScreen, HandoffScreen
from sequence.tui.game import GameScreen
from sequence.tui.session import GameSetup, Session
from sequence.tui.start import StartScreen
from sequence.tui.widgets import Gettext, card_label

SIZE = (160, 50)
PLACEHOLDER = re.compile(r"\{\w*\}")
WORDS = re.compile(r"[A-Za-z]{2,}[,.!?:;]?\s+[A-Za-z]{2,}")


def screen_lines(app: SequenceApp) -> list[str]:
    """What the terminal shows now, one string per row."""
    strips = app.screen._compositor.render_strips()
    return ["".join(segment.text for segment in strip) for strip in strips]


def widget_text(lines: list[str], widget: Widget) -> str:
    """The text inside one widget's content region, its rows joined (wrapped text rejoined)."""
    region = widget.content_region
    rows = [line[region.x : region.x + region.width].strip() for line in lines]
    return " ".join(r for r in rows[region.y : region.y + region.height] if r)


def shown_texts(app: SequenceApp) -> list[str]:
    """Every row of the screen, and the text of every visible widget on it."""
    lines = screen_lines(app)
    texts = [line.strip() for line in lines]
    for widget in app.screen.query("*"):
        if widget.display and widget.region.area and not widget.children:
            texts.append(widget_text(lines, widget))
    return [re.sub(r"\s+", " ", t) for t in texts if t]


@cache
def english_fragments(lang: str) -> tuple[str, ...]:
    """The English text of every message that ``lang`` says differently, cut at placeholders.

    Only pieces of at least two words count: a lone word such as "Lion" may be the same in a
    language, and a symbol or a notation is no English.
    """
    gettext = translator(lang).gettext
    out: set[str] = set()
    for message in load_catalog("en"):
        if not message.id or isinstance(message.id, (tuple, list)):
            continue
        if gettext(message.id) == message.id:
            continue
        for piece in PLACEHOLDER.split(message.id):
            piece = piece.strip(" :.,;!?()")
            if WORDS.search(piece):
                out.add(piece)
    return tuple(sorted(out, key=len, reverse=True))


def assert_shown(app: SequenceApp, lang: str, expected: Iterable[str]) -> None:
    """The expected (translated) texts are on screen, and no English message is."""
    texts = shown_texts(app)
    joined = "\n".join(texts)
    for text in expected:
        assert any(text in t for t in texts), (lang, text, joined)
    if lang == "en":
        return
    for fragment in english_fragments(lang):
        assert fragment not in joined, (lang, fragment, joined)


async def settle(pilot: Pilot[int], app: SequenceApp, screen_type: type) -> None:
    for _ in range(200):
        await pilot.pause()
        screen = app.screen
        if isinstance(screen, screen_type) and (
            not isinstance(screen, GameScreen) or screen.thinking is None
        ):
            return
    raise AssertionError(f"{screen_type.__name__} did not come up")


def game_app(setup: GameSetup, lang: str) -> SequenceApp:
    return SequenceApp(session=Session.start(setup), lang=lang, bot_delay=0)


def test_english_fragments_are_found() -> None:
    """The check would see an untranslated sentence (it is not vacuous)."""
    fragments = english_fragments("ru")
    assert "Choose a card first: press its number or click it" in fragments
    assert "Pass the keyboard to" in fragments
    assert "Code" not in english_fragments("de")


@pytest.mark.parametrize("lang", SUPPORTED)
async def test_start_screen(lang: str) -> None:
    _ = Gettext(lang)
    app = SequenceApp(setup=GameSetup(seed=7, seats=("human", "random")), lang=lang, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app, StartScreen)
        expected = [
            _("Sequence — a new game"),
            _("Game"),
            _("Players"),
            _("Teams"),
            _("Seat {n}").format(n=1),
            _("Seat {n}").format(n=2),
            _("Sequence (2-12 players, teams)"),
            _("Human"),
            _("Computer: {level}").format(level=_("random")),
            _("Difficult"),
            _("Manual draw"),
            _("Undo"),
            _("Seed"),
            _("Start"),
            _("Quit"),
        ]
        assert_shown(app, lang, expected)


@pytest.mark.parametrize("lang", SUPPORTED)
async def test_game_screen(lang: str) -> None:
    _ = Gettext(lang)
    app = game_app(GameSetup(game="classic", players=2, seats=("human", "random"), seed=3), lang)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app, GameScreen)
        screen = app.game_screen
        view = screen.state_view
        deck = view.deck_size
        hand = len(view.hand or ())
        expected = [
            _("Sequence"),
            _("Your turn"),
            _("Your hand:"),
            _("Moves"),
            _("blue"),
            _("green"),
            _("sequences {count}/{needed}").format(count=0, needed=2),
            _("chips {n}").format(n=view.supply(0)),
            _.ngettext("{n} card", "{n} cards", hand).format(n=hand),
            _.ngettext("Draw pile: {n} card", "Draw pile: {n} cards", deck).format(n=deck),
            _("Choose a card (1-{n}), then a space.").format(n=hand),
            " · ".join(
                _(key)
                for key in (
                    "1-9 card",
                    "arrows/click space",
                    "Enter play",
                    "x dead",
                    "h hint",
                    ": type",
                    "s save",
                    "u undo",
                    "q quit",
                    "? help",
                )
            ),
        ]
        assert_shown(app, lang, expected)

        # A card chosen: the note under the hand says what to do with it.
        await pilot.press("1")
        await pilot.pause()
        assert screen.selected == 0
        assert_shown(app, lang, [])

        # A move the engine refuses: its reason is shown in the player's language.
        card = next(c for c in range(52) if c not in (view.hand or ()))
        move = Move.parse(f"{card_name(card)}@a2")
        with pytest.raises(IllegalMoveError) as refused:
            screen.session.state.copy().push(move, seat=0)
        await pilot.press("colon", *str(move), "enter")
        await pilot.pause()
        reason = translate_error(refused.value, lang)
        assert screen.message.plain == _("Not allowed: {reason}").format(reason=reason)
        assert_shown(app, lang, [_("Not allowed: {reason}").format(reason="")])
        if lang != "en":
            assert reason != str(refused.value)


@pytest.mark.parametrize("lang", SUPPORTED)
async def test_help_dialog(lang: str) -> None:
    _ = Gettext(lang)
    app = game_app(GameSetup(game="classic", players=2, seats=("human", "random"), seed=3), lang)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app, GameScreen)
        await pilot.press("question_mark")
        await pilot.pause()
        assert_shown(
            app,
            lang,
            [
                _("How to play at the keyboard"),
                _("X: exchange the chosen dead card (marked †)."),
                _("T: impose a table-talk penalty on a team."),
                _("Escape (or ?) closes this help."),
            ],
        )
        await pilot.press("escape")  # as it says
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)


@pytest.mark.parametrize("lang", SUPPORTED)
async def test_hand_over_screen(lang: str) -> None:
    _ = Gettext(lang)
    app = game_app(GameSetup(game="kids", players=2, seats=("human", "human"), seed=5), lang)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app, HandoffScreen)
        player = _("Player {n}").format(n=1)
        expected = [
            _("Pass the keyboard to {player}.").format(player=player),
            _("Everyone else, look away: the next screen shows {player}'s hand.").format(
                player=player
            ),
            _("I am {player}: show my hand (Enter)").format(player=player),
        ]
        assert_shown(app, lang, expected)
        await pilot.press("enter")
        await settle(pilot, app, GameScreen)
        view = app.game_screen.state_view
        animals = [card_label(card, _) for card in view.hand or ()]
        assert_shown(app, lang, [_("Your hand:"), *animals])


@pytest.mark.parametrize("lang", SUPPORTED)
async def test_result_dialog(lang: str) -> None:
    _ = Gettext(lang)
    state = play_random_game(State.new(make_config("classic", 2), seed=12), seed=12)
    record = GameRecord.from_state(state, tags={"Seat1": "human", "Seat2": "random"})
    app = SequenceApp(session=Session.load(record.to_json()), lang=lang, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app, GameOverScreen)
        outcome = state.outcome
        assert outcome is not None and outcome.winner is not None
        played = len(record.moves)
        turns = state.turns
        expected = [
            _("You won!") if outcome.winner == 0 else _("You lost."),
            _.ngettext("The game lasted {n} turn", "The game lasted {n} turns", turns).format(
                n=turns
            ),
            _.ngettext("({n} move).", "({n} moves).", played).format(n=played),
            _("New game (N)"),
            _("Save (S)"),
            _("Quit (Q)"),
            _("Look at the board (Esc)"),
        ]
        assert_shown(app, lang, expected)


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_counts_take_three_forms_on_screen(lang: str) -> None:
    """The counts the terminal game shows take the three plural forms of the language."""
    _ = Gettext(lang)
    for pair in (
        ("Draw pile: {n} card", "Draw pile: {n} cards"),
        ("The game lasted {n} turn", "The game lasted {n} turns"),
        ("({n} move).", "({n} moves)."),
        ("Took back {n} move.", "Took back {n} moves."),
        ("{n} card", "{n} cards"),
    ):
        forms = {_.ngettext(*pair, n).format(n="N") for n in (1, 2, 5)}
        assert len(forms) == 3, (lang, pair, forms)
        assert _.ngettext(*pair, 21) == _.ngettext(*pair, 1)
        assert _.ngettext(*pair, 12) == _.ngettext(*pair, 5)
