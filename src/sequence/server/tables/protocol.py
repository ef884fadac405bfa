"""Everything the server sends to a client, built in one place.

A client may learn only what its seat's :class:`~sequence.engine.View` holds (or the spectators'
view). Every message therefore leaves the server as a :class:`Payload`, and only this module can
make one: game state passes through :func:`state_payload`, which calls ``state.view(seat)`` and
nothing else of the state; errors are short texts about the sender's own request. A connection
sends nothing but payloads (see :class:`sequence.server.tables.connection.Connection`), so a message
that skipped the filter cannot be sent at all -- the lesson of boardgame.io's ``playerView`` bugs
(the first state, the undo history, the log).

Client to server (JSON text frames, at most :data:`MAX_MESSAGE` bytes; each type is a model
of :mod:`.messages`, which checks its fields):

``{"type": "hello", "token": SEAT_TOKEN|null, "host": HOST_TOKEN|null, "lang": LANG|null}``
    first message: take a seat (or spectate) and get the current state; ``lang`` (``en``, ``ru``,
    ``de``, ``uk``, ``fr``) is the language of error messages, by default the handshake's
    ``Accept-Language``;
``{"type": "lang", "lang": LANG}``
    error messages from now on in this language (the client switched; nothing is sent back);
``{"type": "move", "move": "5H@c3", "version": N, "id": MOVE_ID}``
    make a move in the position at version ``N``; with an ``id`` (text, at most 64 characters,
    unique per move) it is applied once: a resend is answered by an ``ack`` and changes nothing;
``{"type": "roll", "version": N}``
    Sequence Dice: roll the dice for your turn;
``{"type": "penalty", "team": "B", "version": N}``
    the host imposes the table-talk penalty on a team;
``{"type": "resign"}``
    resign (see :meth:`sequence.server.tables.standins.StandIns.resign`);
``{"type": "back"}``
    take back your seat from the bot that kept it (your clock ran out twice in a row);
``{"type": "sync"}``
    send me the whole current state again (a client that missed a ``delta`` asks so);
``{"type": "react", "reaction": ID}``
    a quick reaction to everyone at the table, one of ``good_game``, ``well_played``,
    ``hurry_up``, ``oops`` (:mod:`.talk`; one every 2 s);
``{"type": "chat", "text": TEXT}``
    a chat message (at most 200 characters, one a second): to everyone in the lobby and after
    the game; during play from a spectator to the spectators only, and refused
    (``table_talk``) from a seated player;
``{"type": "hint", "version": N}``
    a seated player at a casual table: the move the strongest bot likes from the seat's own
    view, and why (:mod:`.coaching`; refused at a rated table, ``hints_off``);
``{"type": "ping"}``
    keep-alive, answered by ``{"type": "pong"}``.

Server to client:

``{"type": "state", "version": N, "you": {...}, "table": {...}, "view": VIEW|null,
"clock": CLOCK|null}``
    the whole table as this connection may see it (``view`` is ``View.to_dict()``); ``clock``
    (tables with a time control) is :func:`clock_info`: whose turn the clock runs for, the
    seconds it has left when the message was sent, and each seat's reserve. A connection gets it
    when it says ``hello``, when it asks (``sync``), and while there is no game yet;
``{"type": "delta", "base": B, "version": N, "you": {...}, "table": {...}, "view": VIEW,
"log": [ENTRY...], "clock": CLOCK|null}``
    after that, every change: the state at version ``N`` for a client that holds the one at
    version ``B`` (the last this connection was sent; ``B == N`` when only the table changed).
    ``you``, ``table``, ``clock`` and ``view`` are whole, except that ``view`` lacks ``moves``
    and ``log``; ``log`` is the log's entries for moves ``B+1`` to ``N``. The client appends
    them to the log it holds and takes ``moves`` from the log (each entry's ``move``). A client
    whose version is not ``B`` (it missed a message, or never had a state) sends ``sync`` and
    ignores deltas until the whole ``state`` comes;
``{"type": "reaction", "seat": N|null, "name": NAME|null, "reaction": ID}``,
``{"type": "chat", "seat": N|null, "name": NAME|null, "text": TEXT}``
    someone at the table (``seat`` ``null``: a spectator) reacted or said something;
``{"type": "hint", "version": N, "seat": N, "move": MOVE, "notes": [{"code", "params", "text",
"says"}]}``
    the hint asked for, found from the seat's own view (``says``: the note in the connection's
    language);
``{"type": "ack", "id": MOVE_ID, "ply": N, "duplicate": BOOL}``
    the move with that id is move number ``N`` (``duplicate``: it was already; nothing changed);
``{"type": "error", "code": CODE, "message": TEXT, "version": N|null, "id": MOVE_ID?}``
    the request was refused and nothing changed; ``code`` is stable (one of
    :data:`ERROR_CODES`), ``message`` is for the player, in the connection's language;
    ``version`` is the version of the table the ``hello`` joined, whatever the code
    (``too_large`` included), and ``null`` only before a ``hello`` was accepted (no table yet).
"""

from __future__ import annotations

import json
from typing import Any, Final, final

from ...bots.review import Hint
from ...engine import GameRecord, State, StepKind, history, roll_reason
from ...i18n.moves import move_words
from ...i18n.notes import translate_note
from ..common.clock import clock
from .table import Event, Table

MAX_MESSAGE: Final = 4096
"""The largest message a client may send, in bytes; larger ones are refused (``too_large``) and
the connection goes on."""

MAX_FRAME: Final = 65_536
"""A frame larger than this ends the connection: a ``too_large`` error, then close code 1009
(``message too big``). No client of this protocol sends one; a client that does is broken or
hostile, and reading on would only cost memory."""

WS_MAX_SIZE: Final = 1_048_576
"""uvicorn's own limit (its ``ws_max_size``), well above :data:`MAX_FRAME` so that the app sees
an oversized frame and says what is wrong before closing; uvicorn closes a frame larger than
this one with 1009 without reading it (its payload is never buffered)."""

ERROR_CODES: Final = (
    "bad_json",
    "bad_message",
    "too_large",
    "rate_limited",
    "unknown_table",
    "bad_token",
    "not_seated",
    "not_host",
    "not_started",
    "game_over",
    "stale",
    "illegal",
    "unavailable",
    "table_talk",
    "hints_off",
    # HTTP only
    "not_found",
    "method_not_allowed",
    "not_finished",
    "unknown_player",
    "signed_out",
    "sign_in_failed",
    "name_taken",
    "cross_site",
)
"""Every error code a client can get."""

_SEAL = object()


@final
class Payload:
    """A message that may go to one connection. Made only by this module's functions."""

    __slots__ = ("text",)

    def __init__(self, text: str, seal: object) -> None:
        if seal is not _SEAL:
            raise TypeError("payloads are built only by sequence.server.tables.protocol")
        self.text = text

    def data(self) -> Any:
        """The message decoded (for tests and logs)."""
        return json.loads(self.text)


def _dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def view_json(table: Table, seat: int | None) -> str:
    """The JSON of ``seat``'s whole view of the game (``null`` before the start): its
    :func:`view_part_json`, the ``moves`` and the ``log`` (:func:`view_dict`).

    This and :func:`view_part_json` are the one place where a game state turns into something a
    client can get.
    """
    state = table.state
    if state is None:
        return "null"
    part = view_part_json(table, seat)
    moves = _dumps([str(m) for m in state.move_stack])
    return f'{part[:-1]},"moves":{moves},"log":[{",".join(log_entries(table))}]}}'


def view_part_json(table: Table, seat: int | None) -> str:
    """The JSON of ``seat``'s view of the game without the two parts that only grow (``moves``
    and ``log``, which a :func:`state_payload` delta sends only the end of), cached per version.

    It is ``state.view(seat).to_dict()`` and the ``roll_reason``: nothing of the state but what
    the seat may see."""
    state = table.state
    if state is None:
        return "null"
    key = (table.version, seat)
    cached = table.view_cache.get(key)
    if cached is None:
        if len(table.view_cache) > 64:
            table.view_cache.clear()
        out = state.view(seat).to_dict()
        del out["moves"]
        out["roll_reason"] = roll_reason(state)
        cached = _dumps(out)
        table.view_cache[key] = cached
    return cached


def log_entries(table: Table) -> list[str]:
    """Each move's public facts (:func:`~sequence.engine.history`) as JSON, oldest first: kept
    with the table and only extended as moves come (an entry never changes once its move is
    made), so that a move costs one entry, not the whole log again."""
    state = table.state
    assert state is not None
    stack = state.move_stack
    moves, entries = table.log_cache
    done = len(entries)
    if done > len(stack) or (done and moves[-1] != str(stack[done - 1])):
        moves, entries, done = [], [], 0  # not this game's moves: start again
    if done < len(stack):
        entries += [_dumps(e) for e in history(state, done)]
        moves += [str(m) for m in stack[done:]]
        table.log_cache = (moves, entries)
    return entries


def view_dict(state: State, seat: int | None) -> dict[str, Any]:
    """``state.view(seat).to_dict()`` with the public facts a person reads the game by.

    ``log``: every move with who made it and whose chip it took
    (:func:`~sequence.engine.history`); ``roll_reason``: what the Dice roll being acted on
    allows (:func:`~sequence.engine.roll_reason`).
    Both are public: the board, the turn and the moves everybody at the table saw.
    """
    out = state.view(seat).to_dict()
    out["log"] = history(state)
    out["roll_reason"] = roll_reason(state)
    return out


def table_meta(table: Table) -> dict[str, Any]:
    """The public facts about a table: settings, seats, names, who is away, where it stands."""
    state = table.state
    return {
        "code": table.code,
        "config": table.config.to_dict(),
        "public": table.public,
        "status": table.status,
        "result": table.result,
        "rematch": table.rematch_code,
        "spectators": table.spectators,
        "seats": [
            {
                "seat": s.seat,
                "team": table.config.team_of(s.seat),
                "name": s.name,
                "kind": s.kind,
                "bot": s.bot,
                "stand_in": s.stand_in,
                "connected": s.kind == "bot" or s.connections > 0,
                "away": s.away,
                "timeouts": s.timeouts,
            }
            for s in table.seats
        ],
        "time_control": None
        if table.clock is None
        else {"name": table.clock.name, "turn": table.clock.turn, "reserve": table.clock.reserve},
        "bot_level": table.bot_level,
        "on_timeout": table.on_timeout,
        "rated": table.rated,
        "host_seat": table.host_seat,
        "events": [e.to_dict() for e in table.events],
        "version": table.version,
        "chance": state is not None and state.next_step().kind is StepKind.ROLL,
    }


def event_text(event: Event) -> str:
    """An event as a record's tag holds it: ``ply kind seat by detail`` (``-`` for none), e.g.
    ``12 resign 1 1 lost``; seats counted from 0."""
    parts = (event.ply, event.kind, event.seat, event.by_seat, event.detail)
    return " ".join("-" if p is None else str(p) for p in parts)


def finished_record(table: Table, tags: dict[str, str] | None = None) -> GameRecord:
    """A finished game's record with ``tags``: its result as the moves give it, or, where a
    resignation ended it, the stored result and the termination ``resignation``."""
    assert table.state is not None and table.status == "finished"
    resigned = table.result if table.state.outcome is None and table.result else None
    return GameRecord.from_state(table.state, tags=tags, resigned=resigned)


def record_dict(table: Table) -> dict[str, Any]:
    """A finished game's record (``GET /api/tables/{code}/record``, and each game of an
    account's export): ``{"record": RECORD, "text": TEXT, "events": [...]}``. It holds the
    seed: the caller serves it only once the game is over."""
    assert table.state is not None and table.status == "finished"
    tags = {f"Seat{s.seat + 1}": s.name or "" for s in table.seats}
    for i, e in enumerate(table.events, 1):
        tags[f"Event{i}"] = event_text(e)
    rec = finished_record(table, {"Table": table.code, **tags})
    return {
        "record": rec.to_dict(),
        "text": rec.to_text(),
        "events": [e.to_dict() for e in table.events],
    }


def table_meta_json(table: Table) -> str:
    """:func:`table_meta` as JSON, encoded again only when the facts may have changed."""
    key = table.meta_key
    if table.meta_cache is None or table.meta_cache[0] != key:
        table.meta_cache = (key, _dumps(table_meta(table)))
    return table.meta_cache[1]


def clock_info(table: Table) -> dict[str, Any] | None:
    """The turn clock now (``None`` without one): the seat it runs for (``null`` between
    people's turns), the seconds that seat has ``left`` (its turn plus its reserve), the
    ``deadline`` as a Unix time in milliseconds, each seat's ``reserves``, and whether the time
    ran out (``timed_out``: a bot is playing the rest of the turn). A client counts down from
    ``left`` by its own clock, so the two machines' clocks need not agree."""
    if table.clock is None:
        return None
    turn = table.turn
    left = None if turn is None else round(turn.remaining(), 2)
    return {
        "seat": None if turn is None else turn.seat,
        "left": left,
        "deadline": None if left is None else int((clock().time() + left) * 1000),
        "timed_out": turn is not None and turn.timed_out,
        "reserves": [round(s.reserve, 1) for s in table.seats],
    }


def state_payload(table: Table, seat: int | None, host: bool, since: int | None = None) -> Payload:
    """The state message for a connection sitting at ``seat`` (``None``: spectator).

    ``since``: the version of the last game state this connection was sent (``None``: none, or
    it asked for the whole state again). Then the message is a ``delta``: the same, but its
    ``view`` lacks ``moves`` and ``log``, and ``log`` holds only the moves after ``since``. The
    whole state is sent whenever a delta cannot be (no game yet, or ``since`` ahead of the
    table)."""
    meta = table_meta_json(table)
    you = _dumps({"seat": seat, "host": host})
    clock = _dumps(clock_info(table))
    version = table.version
    if since is None or table.state is None or not 0 <= since <= version:
        text = (
            f'{{"type":"state","version":{version},"you":{you},'
            f'"table":{meta},"view":{view_json(table, seat)},"clock":{clock}}}'
        )
    else:
        log = ",".join(log_entries(table)[since:])
        text = (
            f'{{"type":"delta","base":{since},"version":{version},"you":{you},'
            f'"table":{meta},"view":{view_part_json(table, seat)},"log":[{log}],'
            f'"clock":{clock}}}'
        )
    return Payload(text, _SEAL)


def error_payload(
    code: str, message: str, version: int | None = None, move_id: str | None = None
) -> Payload:
    """An error: the request was refused and nothing changed.

    ``message`` is already in the connection's language
    (:meth:`sequence.server.common.errors.RequestError.text`).
    """
    if code not in ERROR_CODES:
        raise ValueError(f"unknown error code {code!r}")
    out: dict[str, Any] = {"type": "error", "code": code, "message": message, "version": version}
    if move_id is not None:
        out["id"] = move_id  # the refused move's id: the client drops it from its queue
    return Payload(_dumps(out), _SEAL)


def ack_payload(move_id: str, ply: int, duplicate: bool) -> Payload:
    """A move with an id was applied as move number ``ply``; ``duplicate``: it already had been,
    and this resend changed nothing."""
    return Payload(
        _dumps({"type": "ack", "id": move_id, "ply": ply, "duplicate": duplicate}), _SEAL
    )


def talk_payload(kind: str, seat: int | None, name: str | None, said: str) -> Payload:
    """A reaction (``kind`` ``"reaction"``, ``said`` one of :data:`.talk.REACTIONS`) or a chat
    message (``"chat"``, ``said`` its checked text) from ``seat`` (``None``: a spectator), with
    the seat's public name. It holds nothing of the game."""
    if kind not in ("reaction", "chat"):
        raise ValueError(f"unknown kind of talk {kind!r}")
    key = "reaction" if kind == "reaction" else "text"
    return Payload(_dumps({"type": kind, "seat": seat, "name": name, key: said}), _SEAL)


def hint_payload(version: int, seat: int, hint: Hint, lang: str | None) -> Payload:
    """The hint for ``seat`` in the position at ``version`` (:mod:`.coaching`, found from that
    seat's view only): the move (its notation, and ``move_says``: in words, in ``lang``), and
    each note about it, as data and said in ``lang``."""
    notes = [{**n.to_dict(), "says": translate_note(n, lang)} for n in hint.notes]
    out = {"type": "hint", "version": version, "seat": seat, "move": str(hint.move),
           "move_says": move_words(hint.move, lang), "notes": notes}  # fmt: skip
    return Payload(_dumps(out), _SEAL)


def pong_payload() -> Payload:
    """The answer to a ping."""
    return Payload('{"type":"pong"}', _SEAL)


def dumps(obj: Any) -> str:
    """Compact JSON, as every payload is written."""
    return _dumps(obj)
