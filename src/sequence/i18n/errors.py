"""Engine errors in the player's language.

The engine (which stays English and free of I/O) raises :class:`~sequence.engine.ConfigError`,
:class:`~sequence.engine.IllegalMoveError` and :class:`~sequence.engine.InvalidNotationError`
with English messages built from f-strings. :func:`translate_error` reads such a message back
with the patterns below, one per message the engine can build, and gives the catalogue's
translation with the same values filled in (cards as people name them, game titles and move
kinds translated). A message no pattern knows is returned in English, unchanged.

An illegal move's message is ``"<move>: <reason>"``; the reason is translated and the move's
notation kept.

>>> from sequence.engine import IllegalMoveError
>>> translate_error(IllegalMoveError("5H@c3: c3 is taken"), "de")
'5H@c3: c3 ist schon besetzt'
>>> translate_error("something the engine never says", "ru")
'something the engine never says'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from . import N_, translator
from .terms import GAME_TITLES, card_text_label, move_kind_words

__all__ = ["PATTERNS", "ErrorPattern", "match_error", "translate_error"]

_CARD = r"(?:[2-9TJQKA][SHDC]|[A-Z]{2,}|that card)"
_SPACE = r"[a-j]\d{1,2}"
_TEXT = r"(?P<q>['\"])(?P<text>.*)(?P=q)"
_VALUE = r"(?P<value>.+)"


@dataclass(frozen=True)
class ErrorPattern:
    """One engine message: a regular expression over the English text and its catalogue msgid."""

    regex: re.Pattern[str]
    msgid: str


def _p(regex: str, msgid: str) -> ErrorPattern:
    regex = (
        regex.replace("{card}", f"(?P<card>{_CARD})")
        .replace("{space}", f"(?P<space>{_SPACE})")
        .replace("{space1}", f"(?P<space1>{_SPACE})")
        .replace("{space2}", f"(?P<space2>{_SPACE})")
        .replace("{text}", _TEXT)
        .replace("{value}", _VALUE)
    )
    regex = re.sub(r"\{(\w+)\}", r"(?P<\1>\\S+?)", regex)
    return ErrorPattern(re.compile(regex), msgid)


_P = _p
PATTERNS: tuple[ErrorPattern, ...] = (
    # --- State: any game -------------------------------------------------------------------
    _P(r"not a move", N_("not a move")),
    _P(r"the game is over", N_("the game is over")),
    _P(
        r"it is not your turn \(seat {seat} is to act\)",
        N_("it is not your turn (player {seat} is to act)"),
    ),
    _P(r"no dice to roll now", N_("no dice to roll now")),
    _P(r"the dice must be rolled first", N_("the dice must be rolled first")),
    _P(r"that space is not on the board", N_("that space is not on the board")),
    _P(r"{kind} is not a move in (?P<title>.+)", N_("{kind} is not a move in {title}")),
    # --- manual draw (loss of card) ----------------------------------------------------------
    _P(
        r"cards are drawn automatically in this game \(option manual_draw is off\)",
        N_("cards are drawn automatically in this game (option manual_draw is off)"),
    ),
    _P(r"no such seat", N_("no such seat")),
    _P(r"you can only draw for yourself", N_("you can only draw for yourself")),
    _P(
        r"there is no draw to take: it was taken, or it lapsed when the next player played"
        r" and drew",
        N_(
            "there is no draw to take: it was taken, or it lapsed when the next player played"
            " and drew"
        ),
    ),
    # --- table talk --------------------------------------------------------------------------
    _P(
        r"a table-talk penalty is due: give up a card first \(forfeit:CARD\)",
        N_("a table-talk penalty is due: give up a card first (forfeit:CARD)"),
    ),
    _P(
        r"table-talk penalties are a rule of classic Sequence",
        N_("table-talk penalties are a rule of classic Sequence"),
    ),
    _P(r"no such team", N_("no such team")),
    _P(
        r"players who play alone have no team-mates to coach",
        N_("players who play alone have no team-mates to coach"),
    ),
    _P(
        r"a penalty can be imposed only between plays",
        N_("a penalty can be imposed only between plays"),
    ),
    _P(r"nobody in team {team} holds a card", N_("nobody in team {team} holds a card")),
    _P(r"no forfeit is due now", N_("no card is to be forfeited now")),
    # --- draft variant -----------------------------------------------------------------------
    _P(
        r"take one of the face-up cards now \(pick:CARD\)",
        N_("take one of the face-up cards now (pick:CARD)"),
    ),
    _P(r"{card} is not among the face-up cards", N_("{card} is not among the face-up cards")),
    _P(r"no pick is due now", N_("no face-up card is to be taken now")),
    # --- playing a card ----------------------------------------------------------------------
    _P(
        r"you hold cards: play one, or discard one if none can be played",
        N_("you hold cards: play one, or discard one if none can be played"),
    ),
    _P(r"you do not hold {card}", N_("you do not hold {card}")),
    _P(r"name the card you play", N_("name the card you play")),
    _P(
        r"{card} is never dead: it goes anywhere or removes a chip",
        N_("{card} is never dead: it goes anywhere or removes a chip"),
    ),
    _P(r"{card} is not dead: {space} still open", N_("{card} is not dead: {space} is still open")),
    _P(
        r"{card} is not dead: {space1} and {space2} still open",
        N_("{card} is not dead: {space1} and {space2} are still open"),
    ),
    _P(
        r"only one dead card may be exchanged a turn",
        N_("only one dead card may be exchanged a turn"),
    ),
    _P(
        r"you can play a card, so you may not discard to pass",
        N_("you can play a card, so you may not discard to pass"),
    ),
    _P(
        r"{card} removes a chip; it does not place one \(write (?P<hint>\S+)\)",
        N_("{card} removes a chip; it does not place one (write {hint})"),
    ),
    _P(
        r"{space} is a free corner: no chip goes there",
        N_("{space} is a free corner: no chip goes there"),
    ),
    _P(r"{space} is taken", N_("{space} is taken")),
    _P(
        r"{card} goes on {space1} and {space2}, not {space}",
        N_("{card} goes on {space1} or {space2}, not on {space}"),
    ),
    _P(r"team {team} has no chips left to place", N_("team {team} has no chips left to place")),
    _P(
        r"{card} places a chip; only a one-eyed Jack or a Dragon removes one",
        N_("{card} places a chip; only a one-eyed Jack or a Dragon removes one"),
    ),
    _P(r"there is no chip on {space}", N_("there is no chip on {space}")),
    _P(r"the chip on {space} is your own team's", N_("the chip on {space} is your own team's")),
    _P(
        r"the chip on {space} is part of a completed sequence",
        N_("the chip on {space} is part of a completed sequence"),
    ),
    # --- Dice --------------------------------------------------------------------------------
    _P(
        r"Sequence Dice has no cards: write @e5, =e5 or xe5",
        N_("Sequence Dice has no cards: write @e5, =e5 or xe5"),
    ),
    _P(
        r"the roll can be used: pass only when nothing can be done",
        N_("the roll can be used: pass only when nothing can be done"),
    ),
    _P(
        r"a roll of 10 removes an opponent's chip \(not on 2 or 12\): xSPACE, and {space} is not"
        r" one",
        N_(
            "a roll of 10 (defence) removes an opponent's chip, not on a 2 or a 12: {space} has"
            " no such chip"
        ),
    ),
    _P(r"you have no chips left to place", N_("you have no chips left to place")),
    _P(
        r"a roll of 11 puts a chip on any empty space \(or replaces one when the board is full\);"
        r" not {kind} on {space}",
        N_(
            "a roll of 11 (wild) puts a chip on any empty space, or replaces a chip when the"
            " board is full; not {kind} on {space}"
        ),
    ),
    _P(r"you rolled {total}; {space} is a {label}", N_("you rolled {total}; {space} is a {label}")),
    _P(
        r"{space}: a roll of {total} places on an empty \d+, or replaces an opponent's chip when"
        r" all four are covered",
        N_(
            "{space}: a roll of {total} puts a chip on an empty {total}, or replaces an opponent's"
            " chip when all four are covered"
        ),
    ),
    # --- configuration (games.make_config) ---------------------------------------------------
    _P(
        r"option {name} takes true or false, not {value}",
        N_("option {name} takes true or false, not {value}"),
    ),
    _P(
        r"option {name} takes a whole number, not {value}",
        N_("option {name} takes a whole number, not {value}"),
    ),
    _P(
        r"option {name} must be at least {low}, not {value}",
        N_("option {name} must be at least {low}, not {value}"),
    ),
    _P(
        r"option {name} must be from {low} to {high}, not {value}",
        N_("option {name} must be from {low} to {high}, not {value}"),
    ),
    _P(
        r"classic Sequence cannot be played by {players} players: at most 12 players\. It takes"
        r" 2, 3, 4, 6, 8, 9, 10 or 12 players .*",
        N_(
            "Sequence cannot be played with {players} players: at most 12 can play. It takes 2,"
            " 3, 4, 6, 8, 9, 10 or 12 players: up to 3 play alone, more play in 2 or 3 equal"
            " teams."
        ),
    ),
    _P(
        r"classic Sequence cannot be played by {players} players: at least 2 players\. It takes"
        r" 2, 3, 4, 6, 8, 9, 10 or 12 players .*",
        N_(
            "Sequence cannot be played with {players} players: at least 2 must play. It takes 2,"
            " 3, 4, 6, 8, 9, 10 or 12 players: up to 3 play alone, more play in 2 or 3 equal"
            " teams."
        ),
    ),
    _P(
        r"classic Sequence cannot be played by {players} players: \d+ players cannot be split"
        r" into 2 or 3 equal teams\. It takes 2, 3, 4, 6, 8, 9, 10 or 12 players .*",
        N_(
            "Sequence cannot be played with {players} players: they cannot be split into 2 or 3"
            " equal teams. It takes 2, 3, 4, 6, 8, 9, 10 or 12 players: up to 3 play alone, more"
            " play in 2 or 3 equal teams."
        ),
    ),
    _P(
        r"with {players} players each plays alone: teams must be \d+, not {teams}",
        N_("with {players} players each plays alone: there must be {players} teams, not {teams}"),
    ),
    _P(
        r"{players} players play in (?P<listed>\d(?: or \d)?) equal teams \(at most 3 teams\),"
        r" not {teams}",
        N_("{players} players play in {listed} equal teams (at most 3 teams), not in {teams}"),
    ),
    _P(
        r"unknown game {text}: choose classic, kids or dice",
        N_("unknown game {text}: choose classic, kids or dice"),
    ),
    _P(
        r"unknown game {text}: choose classic, kids, dice or draft",
        N_("unknown game {text}: choose classic, kids, dice or draft"),
    ),
    _P(
        r"draft is classic with option draft: draft=false contradicts it; choose classic to play"
        r" without it",
        N_(
            "draft is classic with option draft: draft=false contradicts it; choose classic to"
            " play without it"
        ),
    ),
    _P(r"players and teams must be whole numbers", N_("players and teams must be whole numbers")),
    _P(
        r"unknown option {text}; the options are: (?P<known>.+)",
        N_("unknown option {text}; the options are: {known}"),
    ),
    _P(
        r"option {name} does not apply to (?P<title>.+)",
        N_("option {name} does not apply to {title}"),
    ),
    _P(
        r"the draft variant is for 2 players or 2 teams of 2, not {players} players",
        N_("the draft variant is for 2 players or 2 teams of 2, not for {players} players"),
    ),
    _P(r"the draft variant is for 2 sides", N_("the draft variant is for 2 sides")),
    _P(
        r"Sequence for Kids takes 2 to 4 players, not {players}",
        N_("Sequence for Kids takes 2 to 4 players, not {players}"),
    ),
    _P(
        r"in Sequence for Kids everyone plays alone: teams = players",
        N_("in Sequence for Kids everyone plays alone: there are as many teams as players"),
    ),
    _P(
        r"Sequence Dice takes 2 to 4 players, not {players}",
        N_("Sequence Dice takes 2 to 4 players, not {players}"),
    ),
    _P(
        r"Sequence Dice with 4 players: seats 1 and 3 play against seats 2 and 4; teams must be 2",
        N_(
            "in Sequence Dice with 4 players, players 1 and 3 play against players 2 and 4:"
            " there must be 2 teams"
        ),
    ),
    _P(
        r"Sequence Dice with {players} players: each plays alone; teams must be \d+",
        N_(
            "in Sequence Dice with {players} players each plays alone:"
            " there must be {players} teams"
        ),
    ),
    _P(
        r"manual_draw does not apply to the draft variant, where cards are taken face up",
        N_("manual_draw does not apply to the draft variant, where cards are taken face up"),
    ),
    _P(
        r"chips_per_colour 'us' is the US edition of classic Sequence",
        N_("chips_per_colour 'us' is the US edition of classic Sequence"),
    ),
    _P(
        r"a configuration must be an object with game, players and options",
        N_("a configuration must be an object with game, players and options"),
    ),
    # --- notation (moves, spaces, cards) -----------------------------------------------------
    _P(r"bad move {text}: '=' takes no card", N_("bad move {text}: '=' takes no card")),
    _P(r"not a move: {text}", N_("not a move: {text}")),
    _P(
        r"bad move {text}: draw takes a seat number 1-12",
        N_("bad move {text}: draw takes a player number from 1 to 12"),
    ),
    _P(
        r"bad move {text}: penalty takes a team letter A-C",
        N_("bad move {text}: penalty takes a team letter, A to C"),
    ),
    _P(
        r"bad move {text}: a roll is two dice, e\.g\. roll:3\+4",
        N_("bad move {text}: a roll is two dice, for example roll:3+4"),
    ),
    _P(r"dice show 1 to 6, not {a} and {b}", N_("dice show 1 to 6, not {a} and {b}")),
    _P(
        r"not a space: {text} \(expected a column letter and a row, e\.g\. e5\)",
        N_("not a space: {text} (write a column letter and a row number, for example e5)"),
    ),
    _P(r"not a space: {text} \(rows are 1-10\)", N_("not a space: {text} (rows are 1 to 10)")),
    _P(r"unknown card {text}", N_("unknown card {text}")),
    # --- records (a file the terminal game loads) and bot specs ------------------------------
    _P(
        r"move {n} \((?P<move>\S+)\) is illegal: (?P<reason>.+)",
        N_("move {n} ({move}) is illegal: {reason}"),
    ),
    _P(
        r"move {n} \((?P<move>\S+)\): the seed rolls {rolled} here",
        N_("move {n} ({move}): the seed rolls {rolled} here"),
    ),
    _P(r"move {n} is not text: {value}", N_("move {n} is not text: {value}")),
    _P(r"move {n}: (?P<reason>.+)", N_("move {n}: {reason}")),
    _P(
        r"the record says (?P<said>'.*') but the moves give (?P<gives>'.*')",
        N_("the record says {said} but the moves give {gives}"),
    ),
    _P(
        r"the record has no \[(?P<key>\w+) \.\.\.\] header",
        N_("the record has no [{key} ...] header"),
    ),
    _P(r"the record has no {text}", N_("the record has no {text}")),
    _P(r"not valid JSON: {value}", N_("not valid JSON: {value}")),
    _P(
        r"a record is a JSON object with config, seed and moves",
        N_("a record is a JSON object with config, seed and moves"),
    ),
    _P(r"bad config: (?P<reason>.+)", N_("bad configuration: {reason}")),
    _P(r"bad headers: (?P<reason>.+)", N_("bad headers: {reason}")),
    _P(
        r"line {n}: not a header: {text} \(write \[Name \"value\"\]\)",
        N_('line {n}: not a header: {text} (write [Name "value"])'),
    ),
    _P(
        r"\[(?P<key>\w+) \.\.\.\] is a whole number, not {text}",
        N_("[{key} ...] is a whole number, not {text}"),
    ),
    _P(
        r"the header \[(?P<key>\w+) \.\.\.\] is given twice",
        N_("the header [{key} ...] is given twice"),
    ),
    _P(
        r"unknown bot {text}; known: (?P<known>.+) or package\.module:Class",
        N_("unknown bot {text}; known: {known} or package.module:Class"),
    ),
    _P(r"cannot load bot {text}: {value}", N_("cannot load bot {text}: {value}")),
    _P(r"bad arguments for bot {text}: {value}", N_("bad arguments for bot {text}: {value}")),
)
"""Every message the engine builds for a player's mistake, in the order they are tried."""

_MOVE_PREFIX = re.compile(r"(?P<move>\S+): (?P<reason>.+)", re.DOTALL)
_WITH_MOVE = N_("{move}: {reason}")
_THAT_CARD = N_("that card")
_OR = N_("or")


def _values(match: re.Match[str], lang: str | None) -> dict[str, str]:
    gettext = translator(lang).gettext
    converters: dict[str, Callable[[str], str]] = {
        "card": lambda v: gettext(_THAT_CARD) if v == "that card" else card_text_label(v, lang),
        "title": lambda v: gettext(_title_msgid(v)),
        "kind": lambda v: move_kind_words(v, lang),
        "listed": lambda v: v.replace(" or ", f" {gettext(_OR)} "),
        "reason": lambda v: translate_error(v, lang),  # a nested engine message
    }
    values = {}
    for name, value in match.groupdict().items():
        if name == "q" or value is None:
            continue
        convert = converters.get(name)
        values[name] = convert(value) if convert else value
    return values


def _title_msgid(title: str) -> str:
    return next((t for t in GAME_TITLES.values() if t == title), title)


def match_error(message: str) -> ErrorPattern | None:
    """The pattern that reads ``message`` (a whole message or an illegal move's reason)."""
    for pattern in PATTERNS:
        if pattern.regex.fullmatch(message):
            return pattern
    m = _MOVE_PREFIX.fullmatch(message)
    if m:
        return match_error(m.group("reason"))
    return None


def _translate(message: str, lang: str | None) -> str | None:
    gettext = translator(lang).gettext
    for pattern in PATTERNS:
        m = pattern.regex.fullmatch(message)
        if m:
            return gettext(pattern.msgid).format(**_values(m, lang))
    return None


def translate_error(exc: BaseException | str, lang: str | None) -> str:
    """The message of an engine error (or the message itself) in ``lang``; English if unknown."""
    message = str(exc)
    text = _translate(message, lang)
    if text is not None:
        return text
    m = _MOVE_PREFIX.fullmatch(message)
    if m:
        reason = _translate(m.group("reason"), lang)
        if reason is not None:
            return translator(lang).gettext(_WITH_MOVE).format(move=m.group("move"), reason=reason)
    return message
