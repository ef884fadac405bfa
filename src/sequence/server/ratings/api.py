"""The HTTP API of players, ratings and quick play (docs/server.md, "Ratings and quick play").

- ``POST /api/players`` a guest player (a secret player token, kept by the browser);
- ``GET /api/players/{id}`` a player's page: ratings, their history, games, against the bots;
- ``GET /api/leaderboard`` a family's leaderboard, bots beside people;
- ``POST /api/quickplay`` wait for a game; ``/status`` where the wait stands; ``/cancel``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from ..accounts.api import AccountService
from ..common.limits import ClientLimiter
from ..tables.models import WHOLE, GameName, OneOf, PlayerName, Players, Token
from ..tables.seating import clean_name
from .matchmaking import WAITS, Pick
from .ranked import Ranked
from .rating import FAMILIES


class _Request(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class _Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewPlayer(_Request):
    """``POST /api/players``: a guest player."""

    name: PlayerName = Field(description="the name to play under")


class PlayerCreated(_Answer):
    player: int = Field(description="the player's id (their page: /p/{id})")
    name: str
    player_token: str = Field(description="the secret that is this player: keep it")


class RatingShown(_Answer):
    mu: float = Field(description="OpenSkill's estimate of the skill")
    sigma: float = Field(description="its uncertainty")
    rating: float = Field(description="the conservative rating ranked: mu - 3 sigma")
    display: int = Field(description="the rating people read, 1500 to start (from mu)")
    games: int
    provisional: bool = Field(description="too few games or too unsure yet")


class LeaderRow(RatingShown):
    player: int
    name: str
    kind: str = Field(description="guest, account or bot")


class Leaderboard(_Answer):
    family: str
    families: dict[str, str] = Field(description="every family and its name")
    players: list[LeaderRow]


class PlayerPage(_Answer):
    player: int
    name: str
    kind: str
    ratings: dict[str, RatingShown] = Field(description="by family")
    history: dict[str, list[dict[str, Any]]] = Field(
        description="by family, each rated game's rating after it (oldest first)"
    )
    games: list[dict[str, Any]] = Field(
        description="finished games, newest first (code null: a private table)"
    )
    versus_bots: dict[str, dict[str, int]] = Field(
        description="by bot level: the games won, drawn and lost against it"
    )


class QuickPlay(_Request):
    """``POST /api/quickplay``: wait for a rated game."""

    game: GameName = Field(description="the game (GET /api/meta: games)")
    players: Players = Field(description="how many players (the game says which counts: 422)")
    wait: Annotated[int, Field(ge=0, le=WAITS[-1]), WHOLE] = Field(
        30,
        description=f"seconds before bots fill the seats (the page offers {WAITS}; under the"
        " server's shortest, 10 s unless set otherwise: 422)",
    )
    name: PlayerName = Field(description="the name to play under")
    player_token: Token | None = Field(
        None, description="the player's token (none: a new guest player)"
    )


class Me(_Answer):
    player: int | None = Field(description="the signed-in account's player id (null: none)")


class Ticket(_Request):
    """``POST /api/quickplay/status`` and ``/cancel``."""

    ticket: Token = Field(description="the ticket's secret")


class Queued(_Answer):
    ticket: str = Field(description="the ticket's secret: ask /status with it")
    player: int
    player_token: str | None = Field(description="a new guest's token (null: yours)")


class TicketStatus(_Answer):
    status: str = Field(description="waiting, seated or cancelled")
    waited: float
    left: float = Field(description="seconds before bots fill the seats")
    code: str | None = Field(description="the table, once seated")
    seat: int | None
    seat_token: str | None = Field(description="the seat's token, given once")


def ratings_router(
    ranked: Callable[[], Ranked],
    accounts: Callable[[], AccountService],
    errors: Callable[..., dict[int | str, dict[str, Any]]],
    limiter: ClientLimiter,
    limit: Callable[[ClientLimiter, Request], Awaitable[None]],
) -> APIRouter:
    """The routes (``ranked`` gives the running :class:`~.ranked.Ranked`, ``accounts`` who is
    signed in; ``errors`` declares a route's error answers; ``limit`` applies ``limiter`` to a
    request)."""
    router = APIRouter()

    @router.get("/api/players/me", response_model=Me)
    async def my_player(request: Request) -> dict[str, Any]:
        """The signed-in account's player (``player`` null: a guest, or no rated game yet)."""
        found = await accounts().signed_in(request)
        if found is None:
            return {"player": None}
        r = ranked()
        player = await r.store.run(r.book.of_account, found[0].id)
        return {"player": None if player is None else player.id}

    @router.post("/api/players", response_model=PlayerCreated, responses=errors(400, 413, 429))
    async def new_player(body: NewPlayer, request: Request) -> dict[str, Any]:
        """A guest player: its token rates the games it sits at (no account needed)."""
        await limit(limiter, request)
        player, token = await ranked().new_guest(body.name)
        return {"player": player.id, "name": player.name, "player_token": token}

    @router.get("/api/players/{player}", response_model=PlayerPage, responses=errors(400, 404))
    async def player_page(player: int) -> dict[str, Any]:
        """A player's ratings, rating history, games and results against each bot level."""
        r = ranked()
        return await r.store.run(r.book.page, player)

    @router.get("/api/leaderboard", response_model=Leaderboard, responses=errors(400))
    async def leaderboard(
        family: Annotated[str, Query(description="the family"), OneOf(lambda: list(FAMILIES))] = (
            "classic2"
        ),
        limit: Annotated[
            int, Query(description="this many players at most (taken as 1 to 500)")
        ] = 100,
    ) -> dict[str, Any]:
        """A family's players, best conservative rating first; bots on the same scale."""
        r = ranked()
        rows = await r.store.run(r.book.leaderboard, family, max(1, min(limit, 500)))
        return {"family": family, "families": FAMILIES, "players": rows}

    @router.post("/api/quickplay", response_model=Queued, responses=errors(400, 403, 413, 429))
    async def quickplay(body: QuickPlay, request: Request) -> dict[str, Any]:
        """Wait for a rated game with players of a similar rating; bots after ``wait`` s."""
        await limit(limiter, request)
        r = ranked()
        pick = Pick.of(body.game, body.players)
        wait = r.queue.check_wait(body.wait)
        name = clean_name(body.name)
        token = None
        owner = await accounts().owner(request)
        player = await r.player(body.player_token, owner)
        if player is None:
            player, token = await r.new_guest(name)
        elif owner is not None:
            name = owner.name  # a signed-in player plays under their account's name
        else:
            await r.store.run(r.book.rename, player.id, name)
        ticket = await r.enqueue(player, name, pick, wait)
        return {"ticket": ticket, "player": player.id, "player_token": token}

    @router.post(
        "/api/quickplay/status", response_model=TicketStatus, responses=errors(400, 403, 413)
    )
    async def quickplay_status(body: Ticket) -> dict[str, Any]:
        """Where a wait stands (asking keeps the ticket alive); once seated, the table."""
        return await ranked().status(body.ticket)

    @router.post(
        "/api/quickplay/cancel", response_model=TicketStatus, responses=errors(400, 403, 413)
    )
    async def quickplay_cancel(body: Ticket) -> dict[str, Any]:
        """Stop waiting (a ticket already seated stays seated)."""
        r = ranked()
        await r.store.run(r.queue.cancel, body.ticket)
        return await r.store.run(r.queue.collect, body.ticket)

    return router
