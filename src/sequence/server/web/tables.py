"""The HTTP routes of tables: create, list, look up, join, start, seat a bot, rematch, the
finished games, a record, its replay and its review, the invite QR code.

A route reads the request, asks the rated rules (:class:`..ratings.ranked.Ranked`) and the
account (:class:`..accounts.api.AccountService`) what they must, and leaves the table's change
to the hub (:class:`..tables.hub.Hub`)."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Annotated, Any

import segno
from fastapi import APIRouter, Path, Request
from fastapi.responses import Response

from ...engine import ConfigError, Move, make_config
from ...i18n import N_, normalise
from ..accounts.api import AccountService
from ..common.errors import RequestError, engine_refusal, request_language
from ..common.limits import ClientLimiter
from ..ratings.ranked import Ranked
from ..tables import protocol
from ..tables.coaching import review_answer
from ..tables.hub import Hub
from ..tables.models import (
    PLAYER_COUNTS,
    TABLE_CODE,
    Created,
    CreateTable,
    Finished,
    Join,
    Joined,
    OpenTables,
    Rematch,
    Rematched,
    Replay,
    ReviewAnswer,
    ReviewWorking,
    SeatBot,
    SeatBotAnswer,
    Start,
    Started,
    TableInfo,
)
from ..tables.models import Record as RecordAnswer
from ..tables.scheduler import check_level, check_on_timeout, check_time_control
from ..tables.seating import seat_bots
from .http import error_answers, limit

TableCode = Annotated[str, Path(pattern=TABLE_CODE, description="the table's code")]
SeatNumber = Annotated[
    int,
    Path(
        ge=0, le=PLAYER_COUNTS[-1] - 1, description="the seat (from 0; 422: not one the table has)"
    ),
]
Ply = Annotated[int, Path(description="moves from the start (404: not from 0 to the game's end)")]


def invite_qr_svg(link: str) -> str:
    """``link`` as a QR code in SVG (error correction M, 4 modules of quiet zone, 6 px a
    module): black on white, no script, no external reference."""
    qr = segno.make(link, error="m", micro=False)
    out = io.BytesIO()
    qr.save(out, kind="svg", scale=6, border=4, xmldecl=False, svgclass="qr", title=None)
    return out.getvalue().decode("utf-8")


def tables_router(
    hub: Callable[[], Hub],
    accounts: Callable[[], AccountService],
    ranked: Callable[[], Ranked],
    creates: ClientLimiter,
    joins: ClientLimiter,
    invite_base: str | None = None,
) -> APIRouter:
    """The ``/api/tables`` and ``/api/finished`` routes; ``creates`` and ``joins`` limit how
    often a client makes (or rematches) tables and takes seats; ``invite_base`` starts the
    invite links' QR codes (``None``: the address the request reached this server at)."""
    router = APIRouter()

    @router.post(
        "/api/tables", response_model=Created, responses=error_answers(400, 401, 403, 413, 429)
    )
    async def create(body: CreateTable, request: Request) -> dict[str, Any]:
        """A new table in the lobby; with a ``name``, its creator takes a seat (the account's,
        when signed in)."""
        await limit(creates, request)
        owner = await accounts().owner(request) if body.name is not None else None
        options = body.options.model_dump(exclude_none=True) if body.options else {}
        spec: dict[str, Any] = {"game": body.game, "players": body.players}
        if body.teams is not None:
            spec["teams"] = body.teams
        try:  # the engine says what the game takes (its reason, translated, if not)
            config = make_config(**spec, **options)
        except ConfigError as exc:
            raise engine_refusal("bad_message", exc) from None
        clock = check_time_control(body.clock)
        if clock is not None and clock.correspondence and owner is None and body.name is None:
            owner = await accounts().owner(request)  # a correspondence table is theirs only
        on_timeout = check_on_timeout(clock, body.on_timeout, config.teams, owner is not None)
        if body.bot_level is not None:
            check_level(body.bot_level)
        player = await ranked().player(body.player_token, owner)
        bots = seat_bots(body.bots, config.players)  # one a seat, before the rated rules
        local = [(s.seat, s.name) for s in body.local or ()]
        ranked().check_create(
            body.rated, config, clock, bots, body.bot_level, player, body.name is not None,
            bool(local),
        )  # fmt: skip
        table, host_token, seat_token, seat, taken = await hub().create(
            config,
            bots,
            body.public,
            body.name,
            body.seat,
            clock,
            body.bot_level,
            local,
            owner,
            rated=body.rated,
            on_timeout=on_timeout,
        )
        await ranked().created(table, seat, player)
        return {
            "code": table.code,
            "url": f"/t/{table.code}",
            "host_token": host_token,
            "seat_token": seat_token,
            "seat": seat,
            "local": [{"seat": n, "seat_token": token} for n, token in taken],
        }

    @router.get("/api/tables", response_model=OpenTables)
    async def open_tables() -> dict[str, Any]:
        """Public tables: lobbies to join and games in play to watch, the most recent first."""
        return {"tables": hub().registry.open_tables()}

    @router.get("/api/tables/{code}", response_model=TableInfo, responses=error_answers(400, 404))
    async def table_info(code: TableCode) -> Response:
        """A table's public facts: settings, seats, names, who is away, where it stands."""
        table = await hub().get(code)
        return Response(protocol.table_meta_json(table), media_type="application/json")

    @router.get(
        "/api/tables/{code}/qr.svg",
        response_class=Response,
        responses={
            200: {"content": {"image/svg+xml": {}}, "description": "the QR code"},  # i18n: ignore
            **error_answers(400, 404),
        },
    )
    async def invite_qr(code: TableCode, request: Request) -> Response:
        """The invite link (``invite_base``, else this server's address as the request reached
        it, then ``/t/CODE``) as a QR code, for a phone at the same table."""
        table = await hub().get(code)
        link = f"{invite_base or str(request.base_url).rstrip('/')}/t/{table.code}"
        return Response(
            invite_qr_svg(link),
            media_type="image/svg+xml",
            headers={"Cache-Control": "public, max-age=3600"},  # i18n: ignore
        )

    @router.post(
        "/api/tables/{code}/join",
        response_model=Joined,
        responses=error_answers(400, 401, 403, 404, 409, 413, 429),
    )
    async def join(code: TableCode, body: Join, request: Request) -> dict[str, Any]:
        """Take a seat in the lobby: the answer holds the seat's secret token (when signed in,
        the seat is the account's, and its token the same on every device)."""
        await limit(joins, request)
        owner = await accounts().owner(request)
        table = await hub().get(code)
        player = await ranked().player(body.player_token, owner)
        local = [(s.seat, s.name) for s in body.local or ()]
        await ranked().check_join(table, player, bool(local))
        seat, token, taken = await hub().join(table, body.seat, body.name, local, owner)
        await ranked().joined(table, seat, player)
        return {
            "code": table.code,
            "seat": seat,
            "seat_token": token,
            "local": [{"seat": n, "seat_token": t} for n, t in taken],
        }

    @router.post(
        "/api/tables/{code}/start",
        response_model=Started,
        responses=error_answers(400, 403, 404, 409, 413),
    )
    async def start(code: TableCode, body: Start) -> dict[str, Any]:
        """The host deals, once every seat has a player or a bot."""
        table = await hub().get(code)
        await hub().start(table, body.host_token)
        return {"code": table.code, "status": table.status}

    @router.post(
        "/api/tables/{code}/seats/{seat}/bot",
        response_model=SeatBotAnswer,
        responses=error_answers(400, 403, 404, 409, 413),
    )
    async def seat_bot(code: TableCode, seat: SeatNumber, body: SeatBot) -> dict[str, Any]:
        """The host seats a bot (``level: null``: opens the seat in the lobby), or in play has
        one stand in for a player who is away."""
        table = await hub().get(code)
        await hub().set_bot(table, seat, body.level, body.host_token)
        return {"code": table.code, "seat": seat, "bot": table.seats[seat].bot}

    @router.post(
        "/api/tables/{code}/rematch",
        response_model=Rematched,
        responses=error_answers(400, 403, 404, 409, 413, 429),
    )
    async def rematch(code: TableCode, body: Rematch, request: Request) -> dict[str, Any]:
        """A player (or the host) of a finished game opens a new table with the same people."""
        await limit(creates, request)
        table = await hub().get(code)
        new = await hub().rematch(table, body.token)
        await ranked().rematched(table, new)
        return {"code": new.code, "url": f"/t/{new.code}"}

    @router.get("/api/finished", response_model=Finished, responses=error_answers(400))
    async def finished(limit: int = 50) -> dict[str, Any]:
        """Finished public games, newest first (``limit``: 1 to 200)."""
        rows = await hub().registry.finished(max(1, min(limit, 200)))
        return {
            "games": [
                {
                    "code": r.code,
                    "config": r.config,
                    "result": r.result,
                    "finished_at": r.finished_at,
                    "players": [s.name for s in r.seats],
                    "bots": [s.bot if s.bot and not s.stand_in else None for s in r.seats],
                }
                for r in rows
            ]
        }

    async def finished_table(code: str) -> Any:
        table = await hub().get(code)
        if table.status != "finished" or table.state is None:
            raise RequestError(
                "not_finished", N_("a game's record is published only when the game is over"), 403
            )
        return table

    @router.get(
        "/api/tables/{code}/record",
        response_model=RecordAnswer,
        responses=error_answers(400, 403, 404),
    )
    async def record(code: TableCode) -> dict[str, Any]:
        """A finished game's record, as JSON and as text."""
        return protocol.record_dict(await finished_table(code))

    @router.get(
        "/api/tables/{code}/replay/{ply}",
        response_model=Replay,
        responses=error_answers(400, 403, 404),
    )
    async def replay(code: TableCode, ply: Ply) -> Response:
        """The spectators' view of a finished game after ``ply`` moves, and who sat where."""
        table = await finished_table(code)
        moves: tuple[Move, ...] = table.state.move_stack
        if not 0 <= ply <= len(moves):
            raise RequestError("not_found", N_("the game has {n} moves"), 404, n=len(moves))
        rec = protocol.finished_record(table)
        view = protocol.view_dict(rec.replay(upto=ply), None)
        meta = protocol.table_meta(table)
        last = ply == len(moves)
        answer = {
            "ply": ply,
            "plies": len(moves),
            "view": view,
            "seats": meta["seats"],
            "result": rec.result if last else None,
            "termination": rec.termination if last else None,
            "events": meta["events"],
        }
        return Response(protocol.dumps(answer), media_type="application/json")

    @router.get(
        "/api/tables/{code}/review",
        response_model=ReviewAnswer,
        responses={
            202: {
                "model": ReviewWorking,
                "description": "the review is being computed",  # i18n: ignore (OpenAPI)
            },
            **error_answers(400, 403, 404, 429),
        },
    )
    async def review(code: TableCode, request: Request, lang: str | None = None) -> Response:
        """The review of a finished game: every decision judged as its mover saw it, each
        side's estimated chances and the turning points, the notes said in ``lang`` (else the
        request's language). 202 while it is computed (ask again); the first request starts it."""
        table = await finished_table(code)
        found = hub().reviews.get(table)
        if isinstance(found, tuple):
            done, total = found
            body = {"status": "working", "done": done, "total": total}
            return Response(protocol.dumps(body), status_code=202, media_type="application/json")
        said = normalise(lang) if lang else request_language(request.headers)
        body = {"status": "ready", "review": review_answer(found, said)}
        return Response(protocol.dumps(body), media_type="application/json")

    return router
