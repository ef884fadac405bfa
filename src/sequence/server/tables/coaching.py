"""Hints at casual tables, and the reviews of finished games: the strongest bot's search
(:mod:`sequence.bots.review`), run where the bots run.

**Hints**: the move the strongest bot likes from the asking seat's own view, and why, in the
reader's language.

A seated player asks with a ``hint`` message on the WebSocket (the connection's seat token says
whose seat). The hint is :meth:`sequence.bots.review.Reviewer.hint` of that seat's
:class:`~sequence.engine.View` and nothing else: the view is taken here, under the table's
lock, and only the view goes to the bots' worker pool (:attr:`.scheduler.Scheduler.executor`,
where the bots think), so no other hand and no draw pile can shape the answer. A rated table has
no hints (every person there plays on their own); a spectator gets none; and each seat may ask
:data:`HINT_BURST` at once, then one every :data:`HINT_INTERVAL` seconds, one at a time, since
each hint costs a search (tens to hundreds of milliseconds of a worker).

**Reviews** (``GET /api/tables/{code}/review``): every decision of a finished game judged as its
mover saw it, each side's estimated chances, the turning points (:class:`Reviews`). Computed
once per game, a decision at a time in the same pool, and kept in this process's memory.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from typing import Any, Final

from ...bots.explain import NOTE_MESSAGES
from ...bots.review import ChancePoint, Decision, Hint, MoveReview, Reviewer, decisions
from ...engine import GameRecord, Move, View
from ...i18n import N_
from ...i18n.moves import move_words
from ...i18n.notes import translate_note
from ..common.errors import RateLimited, RequestError
from ..common.limits import ClientLimiter
from . import protocol
from .connection import Connection
from .core import HubCore
from .table import Table

HINT_INTERVAL: Final = 10.0
"""Seconds a seat waits for its next hint once :data:`HINT_BURST` are spent."""
HINT_BURST: Final = 3
"""Hints a seat may ask for at once."""


def find_hint(view: View) -> Hint:
    """The hint for ``view`` (run in a worker thread or process, as a bot's move is)."""
    return Reviewer().hint(view)


class Coach:
    """Answers a seated player's ``hint`` at a casual table (see the module's docstring)."""

    def __init__(self, core: HubCore) -> None:
        self.core = core
        self._limits = ClientLimiter(1 / HINT_INTERVAL, HINT_BURST)
        self._asking: set[tuple[str, int]] = set()

    @staticmethod
    def _judge(table: Table, conn: Connection, version: int) -> tuple[int, View]:
        """The seat asking and its view, or why it gets no hint (nothing changes)."""
        seat = conn.seat
        if seat is None:
            raise RequestError("not_seated", N_("hints are for the players, not spectators"))
        if table.rated:
            raise RequestError(
                "hints_off", N_("there are no hints at a rated table: everyone plays alone")
            )
        state = table.state
        if state is None or table.status == "lobby":
            raise RequestError("not_started", N_("the game has not started yet"))
        if table.status == "finished" or state.is_over():
            raise RequestError("game_over", N_("the game is over"))
        if version != table.version:
            raise RequestError(
                "stale",
                N_("that position is gone (now at version {version}); ask again"),
                version=table.version,
            )
        view = state.view(seat)
        if state.is_chance() and state.to_move == seat:
            raise RequestError("bad_message", N_("roll the dice first: a hint is for a move"))
        if not view.legal_moves:
            raise RequestError("bad_message", N_("a hint is for your own turn"))
        return seat, view

    async def hint(self, table: Table, conn: Connection, version: int) -> None:
        """Judge ``conn``'s request for a hint in the position at ``version`` (refusals raise at
        once), then find it in the worker pool and send it when it is found; the connection's
        other messages are served meanwhile."""
        async with table.lock:
            await self.core.sync(table)
            seat, view = self._judge(table, conn, version)
        key = (table.code, seat)
        if key in self._asking:
            raise RequestError("rate_limited", N_("a hint is on its way: wait for it"))
        if await self._limits.take(f"{table.code}:{seat}"):
            raise RequestError(
                "rate_limited",
                N_("{n} hints at once, then one every {seconds} seconds: wait a little"),
                n=HINT_BURST,
                seconds=int(HINT_INTERVAL),
            )
        self._asking.add(key)
        self.core.soon(self._answer(key, conn, view, version))

    async def _answer(
        self, key: tuple[str, int], conn: Connection, view: View, version: int
    ) -> None:
        try:
            loop = asyncio.get_running_loop()
            found = await loop.run_in_executor(self.core.scheduler.executor, find_hint, view)
        finally:
            self._asking.discard(key)
        assert view.seat is not None
        if not conn.closed:
            conn.send(protocol.hint_payload(version, view.seat, found, conn.lang))


# --- the review of a finished game ----------------------------------------------------------

REVIEWS_KEPT: Final = 100
"""Reviews of finished games kept in memory (each a few tens of kilobytes), the newest asked."""
REVIEWS_AT_ONCE: Final = 1
"""Reviews this process computes at once (the others wait their turn): a review is a few
seconds of search, and the bots playing at tables share the workers."""

REVIEWS_QUEUED: Final = 20
"""Reviews that may wait their turn; a request that would start one more is refused (429)."""

_REVIEWER = Reviewer()


def judge_decision(decision: Decision) -> tuple[MoveReview | None, ChancePoint | None]:
    """One decision of a review (run in a worker thread or process, as a bot's move is)."""
    return _REVIEWER.judge(decision)


def end_chances(record: GameRecord) -> ChancePoint | None:
    """The chances after a game's last move (in a worker, as :func:`judge_decision`)."""
    return _REVIEWER.end_chances(record)


def _said(notes: list[dict[str, Any]], lang: str | None) -> list[dict[str, Any]]:
    return [{**n, "says": translate_note(_Said(n), lang)} for n in notes]


class _Said:
    """A note of a review's JSON, as :func:`~sequence.i18n.notes.translate_note` reads one."""

    def __init__(self, note: dict[str, Any]) -> None:
        self.template = NOTE_MESSAGES[note["code"]]
        self.params = note["params"]


def _words(move: str, lang: str | None) -> str:
    return move_words(Move.parse(move), lang)


def review_answer(review: dict[str, Any], lang: str | None) -> dict[str, Any]:
    """A review's JSON (:meth:`~sequence.bots.review.GameReview.to_dict`) with every note also
    said in ``lang`` (``says``), and every move too (``move_says``, ``best_says``)."""
    out = dict(review)
    out["moves"] = [
        {**m, "move_says": _words(m["move"], lang), "best_says": _words(m["best"], lang),
         "flags": _said(m["flags"], lang), "notes": _said(m["notes"], lang)}
        for m in review["moves"]
    ]  # fmt: skip
    out["turning_points"] = [
        {**p, "move_says": _words(p["move"], lang), "notes": _said(p["notes"], lang)}
        for p in review["turning_points"]
    ]
    return out


class Reviews:
    """The reviews of finished games: computed once, a decision at a time in the bots' worker
    pool (so a bot's move waits for at most one decision's search), and kept in memory."""

    def __init__(self, core: HubCore) -> None:
        self.core = core
        self._done: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._working: dict[str, tuple[int, int]] = {}
        """The reviews under way: code -> (decisions judged, decisions)."""
        self._turns = asyncio.Semaphore(REVIEWS_AT_ONCE)

    def get(self, table: Table) -> dict[str, Any] | tuple[int, int]:
        """The review of the finished game at ``table`` (its JSON), or, while it is computed,
        how far it is (decisions judged, decisions); the first request starts it."""
        code = table.code
        done = self._done.get(code)
        if done is not None:
            self._done.move_to_end(code)
            return done
        if code not in self._working:
            if len(self._working) >= REVIEWS_QUEUED:
                raise RateLimited("30")
            assert table.state is not None
            record = GameRecord.from_dict(protocol.record_dict(table)["record"])
            found = decisions(record)  # a replay of the record: counted before the first answer
            self._working[code] = (0, len(found))
            self.core.soon(self._review(code, record, found))
        return self._working[code]

    async def _review(self, code: str, record: GameRecord, found: list[Decision]) -> None:
        try:
            async with self._turns:
                loop = asyncio.get_running_loop()
                pool = self.core.scheduler.executor
                start = time.perf_counter()
                judged = []
                for i, decision in enumerate(found):
                    self._working[code] = (i, len(found))
                    judged.append(await loop.run_in_executor(pool, judge_decision, decision))
                end = await loop.run_in_executor(pool, end_chances, record)
                review = _REVIEWER.assemble(record, judged, end, time.perf_counter() - start)
            self._done[code] = review.to_dict()
            while len(self._done) > REVIEWS_KEPT:
                self._done.popitem(last=False)
        finally:
            self._working.pop(code, None)
