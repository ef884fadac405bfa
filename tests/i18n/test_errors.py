"""Refusals are codes, rendered from the catalogues: every code is translated, and raised.

Every code of every messages table (the engine's ``MESSAGES``, the bots layer's
``BOT_MESSAGES``) has a translation in all five languages with the template's placeholders, and a
trigger below: a call that makes the engine (or the bots layer) raise it. A code added without
both fails here.
"""

from __future__ import annotations

import tempfile
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
from engine_testkit import position, push, state

from sequence.bots import make_bot
from sequence.bots.errors import BOT_MESSAGES, BotSpecError
from sequence.bots.isolated import IsolatedBot
from sequence.engine import (
    ConfigError,
    GameRecord,
    IllegalMoveError,
    Move,
    SequenceError,
    State,
    config_from_dict,
    make_config,
)
from sequence.engine.board import parse_space
from sequence.engine.cards import parse_card
from sequence.engine.errors import MESSAGES, RecordError, about_player
from sequence.engine.moves import roll_move
from sequence.engine.record import FORMAT
from sequence.i18n import SUPPORTED, load_catalog, translator
from sequence.i18n.check import placeholders
from sequence.i18n.errors import translate_error

TABLES: dict[str, dict[str, str]] = {"engine": MESSAGES, "bots": BOT_MESSAGES}
CODES: dict[str, str] = {code: text for table in TABLES.values() for code, text in table.items()}
OTHER_LANGUAGES = [lang for lang in SUPPORTED if lang != "en"]

# --- (a) every code is in every catalogue, with the template's placeholders -----------------


def test_codes_are_unique_across_tables() -> None:
    assert len(CODES) == sum(len(t) for t in TABLES.values())


@pytest.mark.parametrize("lang", SUPPORTED)
def test_every_code_is_translated_with_the_same_placeholders(lang: str) -> None:
    catalog = load_catalog(lang)
    for code, template in CODES.items():
        message = catalog.get(template)
        assert message is not None, f"{lang}: {code} ({template!r}) is not in the catalogue"
        text = str(message.string or "")
        assert text and not message.fuzzy, f"{lang}: {code} ({template!r}) is not translated"
        assert placeholders(text) == placeholders(template), (lang, code, text)


# --- (b) a trigger for every code -----------------------------------------------------------

Trigger = Callable[[], object]


def _illegal(st: State, move: str, seat: int | None = None) -> Trigger:
    return lambda: st.push(Move.parse(move), seat=seat)


def _classic(**kwargs: object) -> State:
    return state("classic", 2, **kwargs)


def _kids_all_dead() -> State:
    """Kids: every space of the hand's animals and of the next three drawn is covered."""
    board = {"a": "c1 d6 b4 e4 a4 c4", "b": "a2 f5 e6 a3 e2 g2"}
    return state("kids", 2, board=board, hands=["LION DOG CAT", "FOX"], deck="OWL COW ZEBRA")


def _manual() -> State:
    return state("classic", 3, hands=["5H 6H", "2S 3S", "4S 5S"], deck="KC QC", manual_draw=True)


def _manual_after_a_play() -> State:
    st = _manual()
    push(st, "5H@e5")
    return st


def _four(hands: list[str] | None = None) -> State:
    return state("classic", 4, hands=hands or ["5H", "2S 3S", "4S", "6S 7S"])


def _forfeit_due() -> State:
    st = _four()
    push(st, "penalty:B")
    return st


def _draft() -> State:
    return _classic(hands=["5H 6H", "2S"], deck="KC QC", extras="draft=9C,9D,9H,9S,TC", draft=True)


def _picking() -> State:
    st = _draft()
    push(st, "5H@e5")
    return st


def _dice(roll: str | None = "3+4", board: dict[str, str] | None = None, **opts: object) -> State:
    if roll is None:
        return state("dice", 2, board=board, **opts)
    return state("dice", 2, board=board, turn="1:act", extras=f"roll={roll}", **opts)


def _over() -> State:
    st = State.new(make_config("classic", 2, max_turns=1), 1)
    st.push(st.legal_moves[0])
    assert st.is_over()
    return st


def _not_a_move(st: State) -> Trigger:
    """``refusal`` says why anything that is not a :class:`Move` is no move (``push`` reads the
    move's kind first, so it takes a Move)."""

    def trigger() -> None:
        refused = st.refusal("5H@e5")  # type: ignore[arg-type]
        assert refused is not None
        raise refused

    return trigger


STATE_TRIGGERS: dict[str, Trigger] = {
    "not_a_move": _not_a_move(_classic(hands=["5H", "2S"])),
    "game_over": lambda: _over().push(Move.parse("pass")),
    "not_your_turn": _illegal(_classic(hands=["5H", "2S"]), "5H@e5", seat=1),
    "move_not_in_game": _illegal(_dice(), "dead:5H"),
    "off_board": _illegal(_dice(), "@h8"),
    "draw_automatic": _illegal(_classic(hands=["5H", "2S"]), "draw:1"),
    "no_such_seat": _illegal(_manual(), "draw:4"),
    "draw_for_yourself": _illegal(_manual_after_a_play(), "draw:1", seat=1),
    "no_draw_due": _illegal(_manual(), "draw:1"),
    "forfeit_due": _illegal(_forfeit_due(), "2S@b1"),
    "no_forfeit_due": _illegal(_classic(hands=["5H", "2S"]), "forfeit:5H"),
    "penalty_not_in_game": _illegal(state("kids", 2, hands=["LION", "CAT"]), "penalty:A"),
    "no_such_team": _illegal(_four(), "penalty:C"),
    "penalty_no_team_mates": _illegal(_classic(hands=["5H", "2S"]), "penalty:A"),
    "penalty_not_now": _illegal(_forfeit_due(), "penalty:A"),
    "penalty_no_cards": _illegal(_four(["5H", "", "4S", ""]), "penalty:B"),
    "pick_due": _illegal(_picking(), "6H@d5"),
    "not_face_up": _illegal(_picking(), "pick:KC"),
    "no_pick_due": _illegal(_draft(), "pick:9C"),
    "must_play": _illegal(_classic(hands=["5H", "2S"]), "pass"),
    "card_not_held": _illegal(_classic(hands=["5H", "2S"]), "6H@d5"),
    "card_missing": _illegal(_classic(hands=["5H", "2S"]), "@e5"),
    "never_dead": _illegal(_classic(hands=["JD", "2S"]), "dead:JD"),
    "not_dead": _illegal(_classic(board={"b": "e5"}, hands=["5H", "2S"]), "dead:5H"),
    "not_dead_both": _illegal(_classic(hands=["5H", "2S"]), "dead:5H"),
    "one_dead_card": _illegal(
        (lambda st: (push(st, "dead:5H"), st)[1])(
            _classic(board={"a": "e5", "b": "i7 b1 g9"}, hands=["5H 2S", "3S"], deck="KC")
        ),
        "dead:2S",
    ),
    "dead_card_limit": _illegal(
        (lambda st: (push(st, "dead:LION", "dead:DOG", "dead:CAT"), st)[1])(_kids_all_dead()),
        "dead:OWL",
    ),
    "kids_no_discard": _illegal(_kids_all_dead(), "discard:LION"),
    "kids_must_play": _illegal(_kids_all_dead(), "pass"),
    "can_play": _illegal(_classic(hands=["5H", "2S"]), "discard:5H"),
    "remover_places": _illegal(_classic(hands=["JS", "2S"]), "JS@e5"),
    "free_corner": _illegal(_classic(hands=["JD", "2S"]), "JD@a1"),
    "space_taken": _illegal(_classic(board={"b": "e5"}, hands=["JD", "2S"]), "JD@e5"),
    "wrong_space": _illegal(_classic(hands=["5H", "2S"]), "5H@d5"),
    "team_out_of_chips": _illegal(
        _classic(board={"a": "b2"}, hands=["JD", "2S"], chips_per_colour=1), "JD@e5"
    ),
    "placer_removes": _illegal(_classic(board={"b": "e5"}, hands=["5H", "2S"]), "5Hxe5"),
    "no_chip": _illegal(_classic(hands=["JS", "2S"]), "JSxe5"),
    "own_chip": _illegal(_classic(board={"a": "e5"}, hands=["JS", "2S"]), "JSxe5"),
    "chip_locked": _illegal(
        _classic(board={"b": "a2 b2 c2 d2 e2"}, seqs="B:a2-e2", hands=["JS", "2S"]), "JSxc2"
    ),
    "no_roll_due": _illegal(_dice(), "roll:1+1"),
    "roll_first": _illegal(_dice(roll=None), "@a3"),
    "dice_no_cards": _illegal(_dice(), "5H@a3"),
    "roll_usable": _illegal(_dice(), "pass"),
    "defence_target": _illegal(_dice("4+6", {"a": "b2", "b": "a1 c3 b1 e5"}), "xa1"),
    "out_of_chips": _illegal(_dice("3+4", {"a": "b2 b1", "b": "e5"}, chips_per_colour=2), "@a3"),
    "wild_roll": _illegal(_dice("5+6"), "xa3"),
    "wrong_number": _illegal(_dice(), "@a1"),
    "number_rule": _illegal(_dice("3+4", {"b": "a3"}), "@a3"),
}
"""Move legality (engine/state.py): each code from a position and a move."""

CONFIG_TRIGGERS: dict[str, Trigger] = {
    "unknown_game": lambda: make_config("nope"),
    "variant_contradicted": lambda: make_config("draft", 4, draft=False),
    "players_not_whole": lambda: make_config("classic", "x"),  # type: ignore[arg-type]
    "unknown_option": lambda: make_config("classic", 2, bogus=1),
    "option_not_in_game": lambda: make_config("kids", 2, difficult=True),
    "option_not_bool": lambda: make_config("classic", 2, difficult="maybe"),
    "option_not_whole": lambda: make_config("classic", 2, max_turns="many"),
    "option_too_low": lambda: make_config("classic", 2, max_turns=0),
    "option_out_of_range": lambda: make_config("dice", 2, dice_line_length=7),
    "too_many_players": lambda: make_config("classic", 13),
    "too_few_players": lambda: make_config("classic", 1),
    "no_equal_teams": lambda: make_config("classic", 5),
    "alone_teams": lambda: make_config("classic", 2, 1),
    "team_count": lambda: make_config("classic", 6, 4),
    "draft_players": lambda: make_config("classic", 6, draft=True),
    "draft_manual_draw": lambda: make_config("classic", 4, draft=True, manual_draw=True),
    "kids_players": lambda: make_config("kids", 5),
    "kids_teams": lambda: make_config("kids", 3, 1),
    "dice_players": lambda: make_config("dice", 1),
    "dice_teams_four": lambda: make_config("dice", 4, 4),
    "dice_teams_alone": lambda: make_config("dice", 3, 2),
    "us_chips_classic": lambda: make_config("kids", 2, chips_per_colour="us"),
    "config_not_object": lambda: config_from_dict([]),  # type: ignore[arg-type]
}

NOTATION_TRIGGERS: dict[str, Trigger] = {
    "equals_no_card": lambda: Move.parse("5H=c3"),
    "not_move_text": lambda: Move.parse("zz"),
    "draw_seat_number": lambda: Move.parse("draw:0"),
    "penalty_team_letter": lambda: Move.parse("penalty:Z"),
    "roll_two_dice": lambda: Move.parse("roll:7+1"),
    "dice_faces": lambda: roll_move(0, 3),
    "not_space": lambda: parse_space("zz"),
    "space_row": lambda: parse_space("a11"),
    "unknown_card": lambda: parse_card("QQ"),
}

KIDS = make_config("kids", 2)
GOOD = {"format": FORMAT, "config": KIDS.to_dict(), "seed": 1, "moves": []}


def _record(**changes: object) -> Trigger:
    return lambda: GameRecord.from_dict({**GOOD, **changes})


def _text(text: str) -> Trigger:
    return lambda: GameRecord.from_text(textwrap.dedent(text))


def _wrong_roll() -> GameRecord:
    cfg = make_config("dice", 2)
    expected = State.new(cfg, 1).sample_chance()
    other = next(m for m in (Move.parse("roll:1+1"), Move.parse("roll:2+2")) if m != expected)
    return GameRecord(cfg, 1, (other,))


def _finished(result: str) -> GameRecord:
    over = _over()
    return GameRecord(over.config, 1, over.move_stack, result)


RECORD_TRIGGERS: dict[str, Trigger] = {
    "move_illegal": lambda: GameRecord(KIDS, 1, (Move.parse("pass"),)).replay(),
    "move_unreadable": _record(moves=["zz"]),
    "seed_rolls": lambda: _wrong_roll().replay(),
    "move_not_text": _record(moves=[5]),
    "result_differs": lambda: _finished("A wins").replay(),
    "result_unfinished": lambda: GameRecord(KIDS, 1, (), "A wins").replay(),
    "termination_unknown": _record(termination="timeout"),
    "resignation_result": _record(termination="resignation", result="draw"),
    "record_not_object": lambda: GameRecord.from_dict([]),
    "record_format": _record(format="sequence-record/0"),
    "record_missing": lambda: GameRecord.from_dict({"seed": 1, "moves": []}),
    "record_config": _record(config={"game": "classic", "players": 5}),
    "seed_not_integer": _record(seed="x"),
    "moves_not_list": _record(moves="5H@e5"),
    "tags_not_object": _record(tags=["x"]),
    "not_json": lambda: GameRecord.from_json("{"),
    "not_a_header": _text("[Game kids]\n"),
    "header_twice": _text('[Game "kids"]\n[Game "kids"]\n'),
    "header_missing": _text('[Game "kids"]\n[Players "2"]\n'),
    "header_not_whole": _text('[Game "kids"]\n[Players "two"]\n[Seed "1"]\n'),
    "record_headers": _text('[Game "kids"]\n[Players "5"]\n[Seed "1"]\n'),
    "tag_name": lambda: GameRecord(KIDS, 1, (), tags={"two words": "x"}),
    "tag_reserved": lambda: GameRecord(KIDS, 1, (), tags={"Seed": "2"}),
    "tag_not_text": lambda: GameRecord(KIDS, 1, (), tags={"Event": 5}),  # type: ignore[dict-item]
    "not_seeded": lambda: GameRecord.from_state(_classic(hands=["5H", "2S"])),
}


def _raise_nested(trigger: Trigger, *keys: str) -> Trigger:
    """Raises the error nested in ``trigger``'s under ``keys`` (one only ever rendered inside
    another: a record's seat, an unknown game's variant)."""

    def run() -> None:
        with pytest.raises(SequenceError) as caught:
            trigger()
        inner: object = caught.value
        for key in keys:
            inner = inner.params[key]  # type: ignore[attr-defined]
            if isinstance(inner, list):
                inner = inner[0]
        assert isinstance(inner, SequenceError)
        raise inner

    return run


def _about(code: str) -> Trigger:
    """The refusal ``code`` told about a seat of a record, not to its player."""

    def run() -> None:
        with pytest.raises(IllegalMoveError) as caught:
            STATE_TRIGGERS[code]()
        about = about_player(caught.value, RecordError("seat_named", seat=1, name="Ann"))
        assert about is not None
        raise about

    return run


def _named() -> object:
    names = {"Name1": "Ann", "Name2": "Bob"}
    return GameRecord(KIDS, 1, (Move.parse("pass"),), tags=names).replay()


def _not_here() -> object:
    return GameRecord(make_config("classic", 2), 1, (Move.parse("pick:KC"),)).replay()


ABOUT_TRIGGERS: dict[str, Trigger] = {
    f"{code}_by": _about(code)
    for code in ("must_play", "kids_must_play", "card_not_held", "card_missing", "can_play",
                 "own_chip", "out_of_chips", "wrong_number")
}  # fmt: skip
"""A seat's refusal in a record: the player's own, said about the seat (errors.about_player)."""

RECORD_TRIGGERS.update({
    "move_illegal_by": _not_here,
    "seat_named": _raise_nested(_named, "reason", "player"),
    "seat_plain": _raise_nested(_not_here, "player"),
})  # fmt: skip
CONFIG_TRIGGERS["game_variant"] = _raise_nested(lambda: make_config("nope"), "variants")

BASE = position("classic", 2, hands=["5H", "2S"])
"""A classic position; each position trigger changes one of its fields."""
DICE_BASE = position("dice", 2)


def _field(index: int, value: str, base: str = BASE) -> Trigger:
    fields = base.split()
    fields[index] = value
    return lambda: State.from_position(" ".join(fields))


def _extra(text: str, base: str = BASE) -> Trigger:
    return lambda: State.from_position(f"{base} {text}")


def _position(**kwargs: object) -> Trigger:
    text = position(**kwargs)  # type: ignore[arg-type]
    return lambda: State.from_position(text)


def _board(change: Callable[[list[str]], None]) -> Trigger:
    rows = BASE.split()[1].split("/")
    change(rows)
    return _field(1, "/".join(rows))


def _mark(row: int, col: int, mark: str) -> Callable[[list[str]], None]:
    def change(rows: list[str]) -> None:
        rows[row] = rows[row][:col] + mark + rows[row][col + 1 :]

    return change


POSITION_TRIGGERS: dict[str, Trigger] = {
    "position_not_text": lambda: State.from_position(5),  # type: ignore[arg-type]
    "position_fields": lambda: State.from_position("classic/2 -"),
    "game_field": _field(0, "classic"),
    "game_field_option": _field(0, "classic/2/oops"),
    "game_field_unknown": _field(0, "classic/2/bogus=1"),
    "game_field_config": _field(0, "classic/5"),
    "board_shape": _board(lambda rows: rows.pop()),
    "free_corner_mark": _board(_mark(0, 0, ".")),
    "board_no_team": _board(_mark(1, 1, "c")),
    "board_mark": _board(_mark(1, 1, "z")),
    "chips_over_supply": _position(board={"a": "b2 c2"}, hands=["5H", "2S"], chips_per_colour=1),
    "sequence_notation": _field(2, "Z:a2-e2"),
    "sequence_not_line": _field(2, "A:b2-c5"),
    "sequence_not_team": _field(2, "A:b2-f2"),
    "sequence_overlap": _position(
        board={"a": "a2 b2 c2 d2 e2 f2"}, seqs="A:a2-e2,A:b2-f2", hands=["5H", "2S"]
    ),
    "hands_count": _field(3, "5H"),
    "dice_no_hands": _field(3, "5H", DICE_BASE),
    "turn_seat": _field(6, "3:play"),
    "unknown_phase": _field(6, "1:dance"),
    "field_notation": _extra("oops"),
    "field_number": _extra("turns=x"),
    "known_lists": _extra("known=5H"),
    "roll_field": _extra("roll=7+1", DICE_BASE),
    "rng_field": _extra("rng=xyz"),
    "unknown_ending": _extra("over=boom"),
    "winner_letter": _extra("over=sequences:Z"),
    "unknown_field": _extra("foo=1"),
    "cards_extra": _field(3, "5H,5H,5H/2S"),
    "cards_missing": _field(3, "/2S"),
    "known_not_held": _extra("known=KC/"),
    "dead_over_limit": _extra("dead=2"),
    "act_needs_roll": _field(6, "1:act", DICE_BASE),
    "roll_outside_act": _extra("roll=3+4", DICE_BASE),
    "phase_not_in_game": _field(6, "1:roll"),
    "over_field": _field(6, "1:over"),
    "forfeit_field": _field(6, "1:forfeit"),
    "draft_field": _position(hands=["5H", "2S"], extras="draft=9C"),
    "draft_phase": _field(6, "1:pick"),
    "sequences_win": _position(
        board={"a": "a2 b2 c2 d2 e2 a3 b3 c3 d3 e3"}, seqs="A:a2-e2,A:a3-e3", hands=["5H", "2S"]
    ),
}


def _unstarted_bot() -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "ctor.py"
        path.write_text(
            "from sequence.bots import Bot\n\n\nclass Ctor(Bot):\n"
            "    def __init__(self, seed=0):\n        raise RuntimeError('no model file')\n"
        )
        IsolatedBot(f"{path}:Ctor", output="null").close()


BOT_TRIGGERS: dict[str, Trigger] = {
    "unknown_bot": lambda: make_bot("nobody"),
    "bot_argument": lambda: make_bot("mcts@fast"),
    "bot_arguments": lambda: make_bot("mcts@time=-1"),
    "bot_arguments_known": lambda: make_bot("mcts@bogus=1"),
    "bot_arguments_none": lambda: make_bot("random@bogus=1"),
    "bot_file_missing": lambda: make_bot("comp90054:no/such/myTeam.py"),
    "bot_file_no_class": lambda: make_bot("mine.py"),
    "not_a_bot_class": lambda: make_bot("sequence.engine:State"),
    "bot_not_loaded": lambda: make_bot("sequence_no_such_module:Bot"),
    "bot_not_started": _unstarted_bot,
}

TRIGGERS: dict[str, Trigger] = {
    **STATE_TRIGGERS,
    **ABOUT_TRIGGERS,
    **CONFIG_TRIGGERS,
    **NOTATION_TRIGGERS,
    **RECORD_TRIGGERS,
    **POSITION_TRIGGERS,
    **BOT_TRIGGERS,
}


def test_every_code_has_a_trigger() -> None:
    assert sorted(set(CODES) - set(TRIGGERS)) == []
    assert sorted(set(TRIGGERS) - set(CODES)) == []


def raised(code: str) -> SequenceError:
    """The error ``code``'s trigger raises."""
    with pytest.raises(SequenceError) as caught:
        TRIGGERS[code]()
    return caught.value


@pytest.mark.parametrize("code", sorted(TRIGGERS))
def test_each_trigger_raises_its_code(code: str) -> None:
    exc = raised(code)
    assert exc.code == code, (str(exc), exc.code)
    # The English message is the template with the parameters: nothing is left unfilled.
    assert "{" not in str(exc).replace("{}", "")
    kind = {
        **dict.fromkeys(STATE_TRIGGERS, IllegalMoveError),
        **dict.fromkeys(ABOUT_TRIGGERS, IllegalMoveError),
        **dict.fromkeys(CONFIG_TRIGGERS, ConfigError),
        **dict.fromkeys(RECORD_TRIGGERS, RecordError),
        **dict.fromkeys(BOT_TRIGGERS, BotSpecError),
    }.get(code, SequenceError)
    assert isinstance(exc, kind)


# --- (c) a coded error never falls back to English ------------------------------------------


@pytest.mark.parametrize("code", sorted(TRIGGERS))
def test_rendering_never_falls_back_to_english(code: str) -> None:
    exc = raised(code)
    for lang in OTHER_LANGUAGES:
        text = translate_error(exc, lang)
        assert text != str(exc), (lang, text)
        template = exc.messages[code]
        assert translator(lang).gettext(template) != template, (lang, template)
        nested = [v for v in exc.params.values() if isinstance(v, SequenceError)]
        for inner in nested:  # a nested reason in the same language, not in English
            assert inner.reason not in text, (lang, text)


def test_parameters_are_put_in_the_players_words() -> None:
    with pytest.raises(IllegalMoveError) as lion:
        state("kids", 2, hands=["CAT", "DOG"]).push(Move.parse("dead:LION"))
    assert translate_error(lion.value, "uk") == "dead:LION: у вас немає карти Лев"
    with pytest.raises(ConfigError) as teams:
        make_config("classic", 6, 4)
    assert "2 или 3" in translate_error(teams.value, "ru")
    assert "2 oder 3" in translate_error(teams.value, "de")
    with pytest.raises(ConfigError) as kids:
        make_config("kids", 2, difficult=True)
    assert (
        translate_error(kids.value, "de")
        == "die Option difficult gilt nicht für Sequence für Kinder"
    )
    with pytest.raises(IllegalMoveError) as kind:
        _dice().push(Move.parse("dead:5H"))
    assert "Sequence Dés" in translate_error(kind.value, "fr")


def test_an_illegal_move_keeps_its_notation() -> None:
    exc = raised("space_taken")
    assert isinstance(exc, IllegalMoveError) and exc.move == "JD@e5"
    assert exc.reason == "e5 is taken" and str(exc) == "JD@e5: e5 is taken"
    assert translate_error(exc, "de") == "JD@e5: e5 ist schon besetzt"


# --- (d) nested errors ------------------------------------------------------------------------


def test_a_records_illegal_move_is_rendered_nested_in_any_language() -> None:
    exc = raised("move_illegal")
    inner = exc.params["reason"]
    # The player's refusal ("you can still play") said about the seat that moved.
    assert isinstance(inner, IllegalMoveError) and inner.code == "kids_must_play_by"
    assert str(exc) == f"move 1 (pass) is illegal: {inner.reason}"
    assert inner.reason.startswith("seat ") and "you" not in inner.reason
    ru = translate_error(exc, "ru")
    seat = (
        translator("ru")
        .gettext(MESSAGES["seat_plain"])
        .format(seat=inner.params["player"].params["seat"])
    )
    reason = translator("ru").gettext(MESSAGES["kids_must_play_by"]).format(player=seat)
    assert ru == f"ход 1 (pass) недопустим: {reason}"


def test_nested_config_and_notation_errors() -> None:
    config = raised("record_config")
    assert str(config).startswith("bad configuration: Sequence cannot be played with 5 players")
    assert translate_error(config, "de").startswith(
        "falsche Einstellungen: Sequence kann nicht mit 5 Spielern gespielt werden"
    )
    notation = raised("move_unreadable")
    assert str(notation) == "move 1: not a move: zz"
    assert translate_error(notation, "fr") == "coup 1 : ce n'est pas un coup : « zz »"
    position = raised("game_field_config")
    assert "Sequence kann nicht mit 5 Spielern" in translate_error(position, "de")


def test_errors_cross_processes_as_they_are() -> None:
    import pickle

    exc = raised("move_illegal")
    again = pickle.loads(pickle.dumps(exc))
    assert type(again) is RecordError and again.code == exc.code and str(again) == str(exc)
    assert translate_error(again, "uk") == translate_error(exc, "uk")


# --- what is not a coded error stays as it is -----------------------------------------------


def test_text_and_other_exceptions_are_returned_unchanged() -> None:
    assert translate_error(ValueError("database is locked"), "ru") == "database is locked"
    assert translate_error("5H@c3: c3 is taken", "fr") == "5H@c3: c3 is taken"
    with pytest.raises(KeyError, match="no message for the code"):
        SequenceError("an English sentence without a code")  # every error has a code
