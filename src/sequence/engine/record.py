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

from .errors import ConfigError, IllegalMoveError, InvalidNotationError, RecordError
from .games import Config, config_from_dict, make_config
from .moves import Move, MoveKind
from .state import State

FORMAT = "sequence-record/1"


@dataclass(frozen=True)
class GameRecord:
    """A whole game: enough to rebuild every state of it."""

    config: Config
    seed: int
    moves: tuple[Move, ...]
    result: str | None = None
    """``A wins``, ``draw``, or ``None`` while unfinished (informative; replay decides)."""
    tags: dict[str, str] = field(default_factory=dict, compare=False)
    """Free-form headers: players' names, event, date (a name is letters, digits and ``_``, and
    not one of the record's own headers such as ``Seed``)."""

    def __post_init__(self) -> None:
        for name, value in self.tags.items():
            if not isinstance(name, str) or not _TAG_NAME.fullmatch(name):
                raise RecordError(f"a tag name is letters, digits and _, not {name!r}")
            if name in _RESERVED:
                raise RecordError(f"tag {name!r} is one of the record's own headers")
            if not isinstance(value, str):
                raise RecordError(f"tag {name!r} is not text: {value!r}")

    @classmethod
    def from_state(cls, state: State, tags: dict[str, str] | None = None) -> GameRecord:
        if state.seed is None:
            raise RecordError("this state was not set up from a seed (it came from a position)")
        outcome = state.outcome
        return cls(
            config=state.config,
            seed=state.seed,
            moves=state.move_stack,
            result=None if outcome is None else outcome.result(),
            tags=dict(tags or {}),
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
                    raise RecordError(f"move {number} ({move}): the seed rolls {rolled} here")
            try:
                state.push(move)
            except IllegalMoveError as exc:
                raise RecordError(f"move {number} ({move}) is illegal: {exc}") from None
        if upto is None and self.result is not None:
            outcome = state.outcome
            actual = None if outcome is None else outcome.result()
            if actual != self.result:
                raise RecordError(
                    f"the record says {self.result!r}"
                    f" but the moves give {actual or 'an unfinished game'!r}"
                )
        return state

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
            "tags": self.tags,
        }

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        if not isinstance(data, dict):
            raise RecordError("a record is a JSON object with config, seed and moves")
        if data.get("format", FORMAT) != FORMAT:
            raise RecordError(f"unknown record format {data.get('format')!r} (expected {FORMAT})")
        for key in ("config", "seed", "moves"):
            if key not in data:
                raise RecordError(f"the record has no {key!r}")
        try:
            config = config_from_dict(data["config"])
        except ConfigError as exc:
            raise RecordError(f"bad config: {exc}") from None
        seed = data["seed"]
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise RecordError("the seed must be an integer")
        if not isinstance(data["moves"], list):
            raise RecordError("moves must be a list of move notations")
        moves = []
        for number, text in enumerate(data["moves"], start=1):
            if not isinstance(text, str):
                raise RecordError(f"move {number} is not text: {text!r}")
            try:
                moves.append(Move.parse(text))
            except InvalidNotationError as exc:
                raise RecordError(f"move {number}: {exc}") from None
        result = data.get("result")
        tags = data.get("tags") or {}
        if not isinstance(tags, dict):
            raise RecordError("tags must be an object")
        return cls(config, seed, tuple(moves), result, {str(k): str(v) for k, v in tags.items()})

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not valid JSON: {exc}") from None
        return cls.from_dict(data)

    # --- text -----------------------------------------------------------------------------------

    def to_text(self) -> str:
        cfg = self.config
        headers = {"Game": cfg.game, "Players": str(cfg.players), "Teams": str(cfg.teams)}
        for name, value in cfg.options().items():
            headers[_header(name)] = str(value).lower()
        headers["Seed"] = str(self.seed)
        headers["Result"] = self.result or "*"
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
                raise RecordError(
                    f'line {number}: not a header: {line.strip()[:40]!r} (write [Name "value"])'
                )
            if m:
                if m.group(1) in headers:
                    raise RecordError(f"the header [{m.group(1)} ...] is given twice")
                headers[m.group(1)] = _unescape(m.group(2))
            elif line.strip():
                body_lines.append(line)
        for key in ("Game", "Players", "Seed"):
            if key not in headers:
                raise RecordError(f"the record has no [{key} ...] header")
        options: dict[str, str] = {}
        tags: dict[str, str] = {}
        for k, v in headers.items():
            if k in ("Game", "Players", "Teams", "Seed", "Result"):
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
                raise RecordError(f"[{key} ...] is a whole number, not {value!r}") from None
        try:
            config = make_config(
                headers["Game"], numbers["Players"], numbers["Teams"] or None, **options
            )
        except ConfigError as exc:
            raise RecordError(f"bad headers: {exc}") from None
        seed = numbers["Seed"]
        moves = []
        tokens = " ".join(body_lines).split()
        for token in tokens:
            if _NUMBER.fullmatch(token):
                continue
            try:
                moves.append(Move.parse(token))
            except InvalidNotationError as exc:
                raise RecordError(f"move {len(moves) + 1}: {exc}") from None
        result = headers.get("Result")
        return cls(config, seed, tuple(moves), None if result in (None, "*") else result, tags)

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


_RESERVED = frozenset({"Game", "Players", "Teams", "Seed", "Result", *_OPTION_HEADERS.values()})
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
