"""The site: the browser client's pages (one ``index.html`` for every path the client draws),
and what the client asks before any table: the games and their options, the strings of a
language, a game's rules."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse

from ...engine import (
    GAMES,
    OPTIONS,
    SPECS,
    VARIANTS,
    dice_line_lengths,
    player_counts,
    takes_option,
    team_counts,
    unknown_game,
)
from ...i18n import LANGUAGE_NAMES, N_, SUPPORTED, catalog_json
from ...i18n.howto import rules_html
from ..common.errors import RequestError, engine_refusal, request_language
from ..tables.models import Catalogue, Meta, Rules
from ..tables.scheduler import TIME_CONTROLS, bot_levels
from .http import error_answers

STATIC = Path(__file__).parent / "static"


def site_router(invite_base: str | None = None) -> APIRouter:
    """The pages of the browser client and the API's ``/api/rules``, ``/api/meta`` and
    ``/api/i18n``; ``invite_base`` is where friends reach this server (``/api/meta`` says it:
    ``None``, the page's own address)."""
    router = APIRouter()

    @router.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @router.get("/manifest.webmanifest", include_in_schema=False)
    async def manifest() -> FileResponse:
        return FileResponse(STATIC / "manifest.webmanifest", media_type="application/manifest+json")

    @router.get("/sw.js", include_in_schema=False)
    async def service_worker() -> FileResponse:
        # At the root, so that its scope is the whole app; never cached by the browser itself.
        return FileResponse(
            STATIC / "sw.js",
            media_type="text/javascript",
            headers={"Cache-Control": "no-cache"},
        )

    @router.get("/t/{code}", include_in_schema=False)
    async def table_page(code: str) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @router.get("/replay/{code}", include_in_schema=False)
    async def replay_page(code: str) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @router.get("/games", include_in_schema=False)
    async def games_page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @router.get("/friends", include_in_schema=False)
    async def friends_page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @router.get("/leaderboard", include_in_schema=False)
    async def leaderboard_page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @router.get("/p/{player}", include_in_schema=False)
    async def player_page(player: str) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @router.get("/rules/{game}", include_in_schema=False)
    async def rules_page(game: str) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @router.get("/api/rules/{game}", response_model=Rules, responses=error_answers(404))
    async def rules(game: str, request: Request) -> dict[str, Any]:
        """The "how to play" page of a game, as HTML, in the request's language."""
        if game not in GAMES:  # the engine's refusal names the games /api/meta lists
            raise engine_refusal("not_found", unknown_game(game[:20]), 404)
        lang = request_language(request.headers)
        return {"game": game, "lang": lang, "html": rules_html(game, lang)}

    @router.get("/api/meta", response_model=Meta)
    async def meta(request: Request) -> dict[str, Any]:
        return {
            # What the create form offers, asked of the engine: it never re-derives a rule.
            "games": {
                g: {
                    "title": SPECS[g].title,
                    "players": list(player_counts(g)),
                    "teams": {str(n): list(team_counts(g, n)) for n in player_counts(g)},
                    "options": [name for name in OPTIONS if takes_option(g, name)],
                }
                for g in GAMES
            },
            # Names POST /api/tables also takes as a game: a game with options (draft).
            "variants": {
                name: {"game": game, "options": options}
                for name, (game, options) in VARIANTS.items()
            },
            "dice_line_lengths": list(dice_line_lengths()),
            "options": {
                name: {"default": o.default, "games": list(o.games), "help": o.help}
                for name, o in OPTIONS.items()
            },
            "bots": bot_levels(),
            "time_controls": {
                name: None if tc is None else {"turn": tc.turn, "reserve": tc.reserve}
                for name, tc in TIME_CONTROLS.items()
            },
            "languages": list(SUPPORTED),
            "language_names": LANGUAGE_NAMES,
            "language": request_language(request.headers),
            "invite_base": invite_base,
        }

    @router.get("/api/i18n/{lang}", response_model=Catalogue, responses=error_answers(404))
    async def i18n(lang: str) -> dict[str, Any]:
        if lang not in SUPPORTED:
            raise RequestError(
                "not_found",
                N_("unknown language {lang}; choose one of {languages}"),
                404,
                lang=repr(lang)[:20],
                languages=", ".join(SUPPORTED),
            )
        return catalog_json(lang)

    return router
