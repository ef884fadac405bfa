"""translate_error reads every message the engine builds for a player's mistake."""

from __future__ import annotations

import random

import pytest

from sequence.engine import (
    ConfigError,
    IllegalMoveError,
    Move,
    SequenceError,
    State,
    make_config,
)
from sequence.engine.board import DICE_BOARD, space_name
from sequence.engine.cards import CARD_COUNT, KIDS_FIRST, card_name
from sequence.i18n import SUPPORTED, translator
from sequence.i18n.errors import PATTERNS, match_error, translate_error


def _candidates(state: State) -> list[Move]:
    """Many moves, legal or not, of every kind, for the position."""
    cfg = state.config
    layout = cfg.spec.layout
    spaces = [r * 10 + c for r in range(layout.rows) for c in range(layout.cols)]
    texts = ["pass", "draw:1", "draw:2", "penalty:A", "penalty:B", "roll:3+4"]
    if cfg.spec.uses_cards:
        cards = range(KIDS_FIRST) if cfg.game == "classic" else range(KIDS_FIRST, CARD_COUNT)
        for c in cards:
            name = card_name(c)
            texts += [f"dead:{name}", f"discard:{name}", f"pick:{name}", f"forfeit:{name}"]
            texts += [f"{name}@{space_name(s)}" for s in spaces[::13]]
            texts += [f"{name}x{space_name(s)}" for s in spaces[::11]]
        texts += ["5H@j10", "JS@c3", "JD@a1"]
    else:
        texts += [f"@{space_name(s)}" for s in spaces] + [f"={space_name(s)}" for s in spaces]
        texts += [f"x{space_name(s)}" for s in spaces] + ["5H@c3", "dead:5H"]
    return [Move.parse(t) for t in texts]


CONFIGS = [
    make_config("classic", players=2),
    make_config("classic", players=4, teams=2, manual_draw=True),
    make_config("classic", players=4, teams=2, draft=True),
    make_config("classic", players=3, chips_per_colour=3),
    make_config("kids", players=3),
    make_config("dice", players=2, chips_per_colour=4),
    make_config("dice", players=4),
]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.game}-{c.players}-{c.options()}")
def test_every_illegal_move_message_is_matched(config) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(7)
    state = State.new(config, seed=3)
    unmatched: set[str] = set()
    seen = 0
    for _ in range(25):
        if state.is_over():
            break
        if state.is_chance():
            state.push(state.sample_chance())
        for move in _candidates(state):
            for seat in (None, (state.to_move + 1) % config.players):
                reason = state._illegal(move, seat)
                if reason is not None:
                    seen += 1
                    message = f"{move}: {reason}"
                    if match_error(message) is None:
                        unmatched.add(message)
        if (
            config.game == "classic"
            and config.team_size > 1
            and state.penalty_allowed(0) is None
            and rng.random() < 0.2
        ):
            state.push(Move.parse("penalty:A"))
            continue
        state.push(rng.choice(state.legal_moves))
    assert seen > 100
    assert not unmatched, sorted(unmatched)[:20]


def test_game_over_and_wrong_turn() -> None:
    state = State.new(make_config("classic"), seed=1)
    move = state.legal_moves[0]
    with pytest.raises(IllegalMoveError) as e:
        state.push(move, seat=(state.to_move + 1) % 2)
    assert translate_error(e.value, "ru").endswith(
        f"сейчас не ваш ход (ходит игрок {state.to_move + 1})"
    )


BAD_CONFIGS = [
    ("classic", 5, None, {}),
    ("classic", 13, None, {}),
    ("classic", 1, None, {}),
    ("classic", 2, 1, {}),
    ("classic", 6, 4, {}),
    ("classic", 8, 3, {}),
    ("nope", 2, None, {}),
    ("classic", "x", None, {}),
    ("classic", 2, None, {"bogus": 1}),
    ("kids", 2, None, {"difficult": True}),
    ("classic", 6, 2, {"draft": True}),
    ("classic", 3, None, {"draft": True}),
    ("kids", 5, None, {}),
    ("kids", 3, 1, {}),
    ("dice", 1, None, {}),
    ("dice", 4, 4, {}),
    ("dice", 3, 2, {}),
    ("classic", 4, 2, {"draft": True, "manual_draw": True}),
    ("kids", 2, None, {"chips_per_colour": "us"}),
    ("classic", 2, None, {"difficult": "maybe"}),
    ("classic", 2, None, {"max_turns": "many"}),
    ("classic", 2, None, {"max_turns": 0}),
    ("dice", 2, None, {"dice_line_length": 7}),
]


@pytest.mark.parametrize(("game", "players", "teams", "options"), BAD_CONFIGS)
def test_every_config_error_is_matched(game, players, teams, options) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ConfigError) as e:
        make_config(game, players, teams, **options)
    assert match_error(str(e.value)) is not None, str(e.value)
    for lang in SUPPORTED:
        text = translate_error(e.value, lang)
        assert "{" not in text
        if lang != "en":
            assert text != str(e.value), (lang, text)


@pytest.mark.parametrize(
    "text", ["zz", "5H=c3", "draw:0", "penalty:Z", "roll:7+1", "5H@z3", "5H@a11", "QQ@a1"]
)
def test_notation_errors_are_matched(text: str) -> None:
    with pytest.raises(SequenceError) as e:
        Move.parse(text)
    assert match_error(str(e.value)) is not None, str(e.value)
    assert translate_error(e.value, "de") != str(e.value)


def test_values_are_translated() -> None:
    state = State.new(make_config("kids", players=2), seed=2)
    lion = next(
        (c for c in range(KIDS_FIRST, KIDS_FIRST + 19) if c not in state.hand_of(state.to_move)),
        None,
    )
    assert lion is not None
    with pytest.raises(IllegalMoveError) as e:
        state.push(Move.parse(f"dead:{card_name(lion)}"))
    uk = translate_error(e.value, "uk")
    assert card_name(lion) not in uk.split(": ", 1)[1]
    assert translator("uk").gettext(card_name(lion).capitalize()) in uk


def test_dice_messages() -> None:
    state = State.new(make_config("dice", players=2), seed=5)
    state.push(Move.parse("roll:4+6"))
    target = next(s for s in DICE_BOARD.spaces if not state.chip_at(s))
    with pytest.raises(IllegalMoveError) as e:
        state.push(Move.parse(f"@{space_name(target)}"))
    assert "защита" in translate_error(e.value, "ru")
    assert "défense" in translate_error(e.value, "fr")


def test_unknown_message_stays_english() -> None:
    assert translate_error(ValueError("database is locked"), "ru") == "database is locked"
    assert translate_error("x: y", "fr") == "x: y"


def test_every_pattern_has_a_translation() -> None:
    for pattern in PATTERNS:
        for lang in ("ru", "de", "uk", "fr"):
            assert translator(lang).gettext(pattern.msgid) != pattern.msgid, (lang, pattern.msgid)
