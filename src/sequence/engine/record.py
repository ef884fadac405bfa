"""Game records: the configuration, the seed and every move, in JSON or readable text.

A record replays exactly: the seed fixes the cut, the deal, every reshuffle and every roll of
the dice, and the moves do the rest. :meth:`GameRecord.replay` checks every move, and every
recorded roll against the seed, and says which move is wrong and why.

The text form, for people (like PGN)::

    [Game "classic"]
    [Players "2"]
    [Seed "7"]
    [Result "A wins"]

    1. 5H@c3 2. JSxc3 3. dead:9D 4. 7C@a3 ...

A game a side resigned (online play) ends before its moves do: its record says who won and
``termination`` ``resignation`` (``[Termination "resignation"]``), and replays to the position
where the side gave up. Older records of such games (``result`` ``null`` and a ``Resigned``
tag holding the result) are read as the same.

>>> from sequence.engine import State, make_config
>>> state = State.new(make_config("kids", players=3), seed=2)
>>> record = GameRecord.from_state(state)
>>> GameRecord.from_text(record.to_text()) == record
True
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from .board import TEAM_LETTERS
from .errors import (
    ConfigError,
    IllegalMoveError,
    InvalidNotationError,
    RecordError,
    about_player,
)
from .games import Config, config_from_dict, make_config
from .moves import Move, MoveKind
from .state import State

FORMAT = "sequence-record/1"

RESIGNATION = "resignation"
"""The one :attr:`GameRecord.termination` a record may state: the moves do not end the game."""


@dataclass(frozen=True)
class GameRecord:
    """A whole game: enough to rebuild every state of it."""

    config: Config
    seed: int
    moves: tuple[Move, ...]
    result: str | None = None
    """``A wins``, ``draw``, or ``None`` while unfinished (informative; replay decides, but for
    a resignation)."""
    tags: dict[str, str] = field(default_factory=dict, compare=False)
    """Free-form headers: players' names, event, date (a name is letters, digits and ``_``, and
    not one of the record's own headers such as ``Seed``)."""
    termination: str | None = None
    """:data:`RESIGNATION`: a side resigned, and ``result`` names the side that won; ``None``:
    the moves decide how the game ended (or that it goes on)."""

    def __post_init__(self) -> None:
        if self.termination is not None:
            if self.termination != RESIGNATION:
                raise RecordError("termination_unknown", text=str(self.termination))
            if self.winner is None:
                raise RecordError("resignation_result", said=repr(self.result))
        for name, value in self.tags.items():
            if not isinstance(name, str) or not _TAG_NAME.fullmatch(name):
                raise RecordError("tag_name", text=str(name))
            if name in _RESERVED:
                raise RecordError("tag_reserved", text=name)
            if not isinstance(value, str):
                raise RecordError("tag_not_text", text=name, value=repr(value))

    @property
    def winner(self) -> int | None:
        """The team ``result`` names as the winner (``None``: a draw, unfinished, or a result
        that names no team of the game)."""
        m = re.fullmatch(r"([A-Z]) wins", self.result or "")
        team = TEAM_LETTERS.find(m.group(1)) if m else -1
        return team if 0 <= team < self.config.teams else None

    @classmethod
    def from_state(
        cls, state: State, tags: dict[str, str] | None = None, resigned: str | None = None
    ) -> GameRecord:
        """The record of ``state``'s game so far; ``resigned``: the game ended there because
        a side resigned, and this is its result (``A wins``)."""
        if state.seed is None:
            raise RecordError("not_seeded")
        outcome = state.outcome
        if resigned is not None and outcome is None:
            result: str | None = resigned
        else:
            result = None if outcome is None else outcome.result()
        return cls(
            config=state.config,
            seed=state.seed,
            moves=state.move_stack,
            result=result,
            tags=dict(tags or {}),
            termination=RESIGNATION if resigned is not None and outcome is None else None,
        )

    def replay(self, upto: int | None = None) -> State:
        """Rebuild the game (or its first ``upto`` moves).

        Raises :class:`RecordError` naming the first bad move.
        """
        state = State.new(self.config, self.seed)
        for number, move in enumerate(self.moves[:upto], start=1):
            if move.kind is MoveKind.ROLL and state.is_chance():
                expected = state.sample_chance()
                if expected != move:
                    rolled = str(expected).removeprefix("roll:")
                    raise RecordError("seed_rolls", n=number, move=str(move), rolled=rolled)
            try:
                state.push(move)
            except IllegalMoveError as exc:
                raise self._illegal(number, move, state.to_move, exc) from None
        if upto is None and self.termination == RESIGNATION:
            if state.outcome is not None:  # the moves ended it before anybody resigned
                said = f"{self.result!r} ({RESIGNATION})"
                raise RecordError("result_differs", said=said, gives=repr(state.outcome.result()))
        elif upto is None and self.result is not None:
            outcome = state.outcome
            actual = None if outcome is None else outcome.result()
            if actual != self.result:
                if actual is None:
                    raise RecordError("result_unfinished", said=repr(self.result))
                raise RecordError("result_differs", said=repr(self.result), gives=repr(actual))
        return state

    def _illegal(self, number: int, move: Move, seat: int, exc: IllegalMoveError) -> RecordError:
        """Move ``number`` refused: the refusal, told to the player, said about the seat that
        moved (its name from the record's ``Name``/``Seat`` tags, numbered from 1 as they are)."""
        name = self.tags.get(f"Name{seat + 1}") or self.tags.get(f"Seat{seat + 1}")
        if name:
            player = RecordError("seat_named", seat=seat + 1, name=name)
        else:
            player = RecordError("seat_plain", seat=seat + 1)
        about = about_player(exc, player)
        if about is not None:
            return RecordError("move_illegal", n=number, move=str(move), reason=about)
        return RecordError("move_illegal_by", n=number, move=str(move), player=player, reason=exc)

    def states(self) -> list[State]:
        """Every state of the game, from the set-up to the last move, each with its history."""
        state = State.new(self.config, self.seed)
        out = [state.copy()]
        for move in self.moves:
            state.push(move)
            out.append(state.copy())
        return out

    # --- JSON ---------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "config": self.config.to_dict(),
            "seed": self.seed,
            "moves": [str(m) for m in self.moves],
            "result": self.result,
            "termination": self.termination,
            "tags": self.tags,
        }

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        if not isinstance(data, dict):
            raise RecordError("record_not_object")
        if data.get("format", FORMAT) != FORMAT:
            raise RecordError("record_format", text=str(data.get("format")), expected=FORMAT)
        for key in ("config", "seed", "moves"):
            if key not in data:
                raise RecordError("record_missing", text=key)
        try:
            config = config_from_dict(data["config"])
        except ConfigError as exc:
            raise RecordError("record_config", reason=exc) from None
        seed = data["seed"]
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise RecordError("seed_not_integer")
        if not isinstance(data["moves"], list):
            raise RecordError("moves_not_list")
        moves = []
        for number, text in enumerate(data["moves"], start=1):
            if not isinstance(text, str):
                raise RecordError("move_not_text", n=number, value=repr(text))
            try:
                moves.append(Move.parse(text))
            except InvalidNotationError as exc:
                raise RecordError("move_unreadable", n=number, reason=exc) from None
        tags = data.get("tags") or {}
        if not isinstance(tags, dict):
            raise RecordError("tags_not_object")
        texts = {str(k): str(v) for k, v in tags.items()}
        result, termination = _resigned(data.get("result"), data.get("termination"), texts)
        return cls(config, seed, tuple(moves), result, texts, termination)

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError("not_json", value=str(exc)) from None
        return cls.from_dict(data)

    # --- text -----------------------------------------------------------------------------------

    def to_text(self) -> str:
        cfg = self.config
        headers = {"Game": cfg.game, "Players": str(cfg.players), "Teams": str(cfg.teams)}
        for name, value in cfg.options().items():
            headers[_header(name)] = str(value).lower()
        headers["Seed"] = str(self.seed)
        headers["Result"] = self.result or "*"
        if self.termination is not None:
            headers["Termination"] = self.termination
        for k, v in self.tags.items():
            headers[k] = v
        lines = [f'[{k} "{_escape(v)}"]' for k, v in headers.items()]
        body = " ".join(f"{i}. {m}" for i, m in enumerate(self.moves, start=1))
        return "\n".join(lines) + "\n\n" + _wrap(body) + "\n"

    @classmethod
    def from_text(cls, text: str) -> GameRecord:
        headers: dict[str, str] = {}
        body_lines = []
        for number, line in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
            m = _HEADER.fullmatch(line.strip())
            if not m and line.strip().startswith("["):
                raise RecordError("not_a_header", n=number, text=line.strip()[:40])
            if m:
                if m.group(1) in headers:
                    raise RecordError("header_twice", key=m.group(1))
                headers[m.group(1)] = _unescape(m.group(2))
            elif line.strip():
                body_lines.append(line)
        for key in ("Game", "Players", "Seed"):
            if key not in headers:
                raise RecordError("header_missing", key=key)
        options: dict[str, str] = {}
        tags: dict[str, str] = {}
        for k, v in headers.items():
            if k in ("Game", "Players", "Teams", "Seed", "Result", "Termination"):
                continue
            name = _option(k)
            if name is None:
                tags[k] = v
            else:
                options[name] = v
        numbers: dict[str, int] = {}
        for key in ("Players", "Teams", "Seed"):
            value = headers.get(key) or ("0" if key == "Teams" else "")
            try:
                numbers[key] = int(value)
            except ValueError:
                raise RecordError("header_not_whole", key=key, text=value) from None
        try:
            config = make_config(
                headers["Game"], numbers["Players"], numbers["Teams"] or None, **options
            )
        except ConfigError as exc:
            raise RecordError("record_headers", reason=exc) from None
        seed = numbers["Seed"]
        moves = []
        tokens = " ".join(body_lines).split()
        for token in tokens:
            if _NUMBER.fullmatch(token):
                continue
            try:
                moves.append(Move.parse(token))
            except InvalidNotationError as exc:
                raise RecordError("move_unreadable", n=len(moves) + 1, reason=exc) from None
        said = headers.get("Result")
        result, termination = _resigned(
            None if said in (None, "*") else said, headers.get("Termination"), tags
        )
        return cls(config, seed, tuple(moves), result, tags, termination)

    @classmethod
    def load(cls, text: str) -> GameRecord:
        """Read a record in either form: text starts with a ``[Name "value"]`` header."""
        text = text.lstrip("\ufeff")  # a byte-order mark some editors write
        stripped = text.lstrip()
        first = stripped.split("\n", 1)[0].strip()
        if stripped[:1] == "[" and re.match(r"\[\w+\s", first):
            return cls.from_text(text)  # a header line, perhaps a malformed one: it says which
        if stripped[:1] in ("{", "["):
            return cls.from_json(text)  # broken JSON says where
        try:
            data = json.loads(stripped)  # another JSON value (42, null): not a record, it says
        except ValueError:
            return cls.from_text(text)
        return cls.from_dict(data)


_HEADER = re.compile(r'\[(\w+) "((?:[^"\\]|\\.)*)"\]')
_TAG_NAME = re.compile(r"\w+", re.ASCII)
_NUMBER = re.compile(r"\d+\.")
_OPTION_HEADERS = {
    "difficult": "Difficult",
    "manual_draw": "ManualDraw",
    "chips_per_colour": "ChipsPerColour",
    "max_turns": "MaxTurns",
    "dice_line_length": "DiceLineLength",
    "draft": "Draft",
}


_RESERVED = frozenset(
    {"Game", "Players", "Teams", "Seed", "Result", "Termination", *_OPTION_HEADERS.values()}
)


def _resigned(result: Any, termination: Any, tags: dict[str, str]) -> tuple[Any, Any]:
    """A record's result and termination as read; an older record of a resigned game (no
    result, the result in a ``Resigned`` tag) gets them from the tag, which it loses."""
    if (
        result is None
        and termination is None
        and re.fullmatch(r"[A-Z] wins", tags.get("Resigned", ""))
    ):
        return tags.pop("Resigned"), RESIGNATION
    return result, termination


_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_UNESCAPES = {v[1]: k for k, v in _ESCAPES.items()}


def _header(option: str) -> str:
    return _OPTION_HEADERS[option]


def _option(header: str) -> str | None:
    for k, v in _OPTION_HEADERS.items():
        if v == header:
            return k
    return None


_LINE_BREAKS = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
"""The other characters ``str.splitlines`` breaks lines at: written as ``\\uXXXX``."""


def _escape(value: str) -> str:
    """A header value on one line: backslash, quote and every line break escaped."""
    return "".join(
        _ESCAPES.get(ch) or (f"\\u{ord(ch):04x}" if ch in _LINE_BREAKS else ch) for ch in value
    )


def _unescaped(m: re.Match[str]) -> str:
    code = m.group(1)
    return chr(int(code[1:], 16)) if len(code) == 5 else _UNESCAPES.get(code, code)


def _unescape(text: str) -> str:
    return re.sub(r"\\(u[0-9a-fA-F]{4}|.)", _unescaped, text)


def _wrap(body: str, width: int = 90) -> str:
    lines: list[str] = []
    line = ""
    for token in body.split(" "):
        if line and len(line) + 1 + len(token) > width:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    if line:
        lines.append(line)
    return "\n".join(lines)
