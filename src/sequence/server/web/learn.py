"""The first games that teach, in the browser: the page ``/learn/{game}`` and its one request.

The lesson is :class:`~sequence.learn.LessonGame`, the terminal's too. The server keeps no
state for it: the page sends the learner's moves so far and what they try now, and gets back
the learner's view (their hand and the table, never the scripted opponent's hand or the draw
pile), the step's words in their language, the spaces and card to point at, and the refusal
if the lesson said no.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import APIRouter
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field

from ...engine import space_name
from ...i18n import N_, normalise, translator
from ...i18n.terms import card_text_label
from ...learn import LESSONS, LessonGame, LessonRefusal
from ..common.errors import RequestError

PAGE = Path(__file__).parent / "static" / "learn.html"

WORDS = {
    "title": N_("Your first game"),
    "roll": N_("Roll the dice"),
    "skip": N_("Skip the lesson"),
    "again": N_("Play the lesson again"),
    "play": N_("Play a game"),
    "computer": N_("Computer"),
    "you": N_("You"),
    "hand": N_("Your hand: "),
    "choose": N_("Choose a game to learn"),
}
"""The page's own words, sent translated with each answer."""
GAME_WORDS = {
    "classic": N_("Sequence"),
    "kids": N_("Sequence for Kids"),
    "dice": N_("Sequence Dice"),
}


class LessonTry(BaseModel):
    """What the page sends: the learner's moves so far, and the roll or move tried now."""

    model_config = ConfigDict(extra="forbid")
    moves: list[str] = Field(default_factory=list, max_length=64)
    tried: str | None = Field(default=None, max_length=32)
    lang: str | None = Field(default=None, max_length=16)


def lesson_state(played: LessonGame, lang: str, refused: str | None = None) -> dict[str, Any]:
    """What the page shows: only the learner's view, and the lesson's words in ``lang``."""
    _ = translator(lang).gettext
    step = played.step
    view = played.view()
    return {
        "game": played.lesson.game,
        "lang": lang,
        "view": view.to_dict(),
        "moves": [str(m) for m in played.learner_moves],
        "welcome": played.welcome(lang),
        "says": played.says(lang),
        "step": None
        if step is None
        else {
            "key": step.key,
            "number": played.index + 1,
            "of": len(played.lesson.steps),
            "card": step.card,
            "card_label": card_text_label(step.card, lang) if step.card else None,
            "spaces": [space_name(s) for s in step.spaces],
            "must_roll": played.must_roll,
        },
        "over": played.over,
        "history": played.history(),
        "refused": refused,
        "words": {key: _(text) for key, text in WORDS.items()},
        "games": {game: _(GAME_WORDS[game]) for game in LESSONS},
    }


def learn_router(errors: Callable[..., dict[int | str, dict[str, Any]]]) -> APIRouter:
    """The lesson page and its request (``app.include_router(learn_router(_errors))``;
    ``errors`` declares a route's error answers)."""
    router = APIRouter()

    @router.get("/learn", include_in_schema=False)
    async def learn_page() -> FileResponse:
        return FileResponse(PAGE)

    @router.get("/learn/{game}", include_in_schema=False)
    async def learn_game_page(game: str) -> FileResponse:
        return FileResponse(PAGE)

    @router.post("/api/learn/{game}", responses=errors(400, 403, 404, 413))
    async def lesson_step(game: str, body: LessonTry) -> dict[str, Any]:
        """Rebuild the lesson from ``moves``, then try ``tried`` (a move, or ``roll``)."""
        lang = normalise(body.lang) or "en"
        if game not in LESSONS:
            no_lesson = N_("There is no first game of {game}: choose {games}.")
            raise RequestError("bad_message", no_lesson, 404, game=game, games=", ".join(LESSONS))
        try:
            played = LessonGame.replay(game, body.moves)
        except LessonRefusal as exc:
            raise RequestError(
                "bad_message",
                N_("The moves so far are not the lesson's: {reason}"),
                reason=str(exc),
            ) from None  # fmt: skip (a 422: the body fits)
        refused = None
        if body.tried is not None:
            try:
                if body.tried == "roll":
                    played.roll()
                else:
                    played.play(body.tried)
            except LessonRefusal as exc:
                refused = exc.message(lang)
        return lesson_state(played, lang, refused)

    return router


__all__ = ["learn_router", "lesson_state"]
