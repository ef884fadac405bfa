"""A first game being played: the lesson's position, the step the learner is at, the opponent.

:class:`LessonGame` holds the engine's state and moves it on: the learner rolls (Dice: the
step's scripted roll) and makes the step's move, checked by the engine; then the scripted
opponent answers and the next step begins. A move the step does not teach is refused with a
:class:`LessonRefusal` (the engine's own reason first, when the move is not even legal), and
nothing changes. Front ends show :meth:`LessonGame.view` (the learner's seat only: the
opponent's hand and the draw pile never leave here) and :meth:`LessonGame.says`.

>>> game = LessonGame.start("kids")
>>> game.step.key, game.says("de")[:20]
('place', 'Spiele Tiger und set')
>>> [str(m) for m in game.play("TIGER@b1")]
['OWL@e4']
>>> game.step.key
'dragon'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..engine import (
    IllegalMoveError,
    Move,
    MoveKind,
    State,
    StepKind,
    View,
    history,
    space_name,
)
from ..i18n import N_, translator
from ..i18n.errors import render_reason
from ..i18n.terms import card_text_label
from .lessons import LESSONS, Lesson, Step

__all__ = ["LessonGame", "LessonRefusal", "step_words"]


class LessonRefusal(ValueError):
    """The lesson refuses what the learner tried: ``msgid`` (a catalogue message) and its values,
    or the engine's refusal (``engine``). ``str()`` is English; :meth:`message` the learner's."""

    def __init__(self, msgid: str, engine: IllegalMoveError | None = None, **values: str) -> None:
        super().__init__(str(engine) if engine is not None else msgid.format(**values))
        self.msgid = msgid
        self.engine = engine
        self.values = values

    def message(self, lang: str | None) -> str:
        if self.engine is not None:
            return render_reason(self.engine, lang)  # a learner reads words, not notation
        return translator(lang).gettext(self.msgid).format(**self.values)


def step_words(step: Step, lang: str | None) -> str:
    """What ``step`` says, in ``lang``: its card named as people name it, its spaces."""
    card = step.card
    return (
        translator(lang)
        .gettext(step.says)
        .format(
            card=card_text_label(card, lang) if card is not None else "",
            spaces=", ".join(space_name(s) for s in step.spaces),
            total=step.total if step.total is not None else "",
        )
    )


class LessonGame:
    """One lesson played from its start (:meth:`start`) or rebuilt from the learner's moves
    (:meth:`replay`, for a front end that keeps no state between requests)."""

    def __init__(self, lesson: Lesson) -> None:
        self.lesson = lesson
        self._state = State.from_position(lesson.position)
        self.index = 0
        """The step the learner is at (``len(lesson.steps)`` once every step is done)."""
        self.learner_moves: list[Move] = []
        """The learner's rolls and moves so far, in order (what :meth:`replay` takes)."""

    @classmethod
    def start(cls, game: str) -> LessonGame:
        """The first game of ``game`` (``classic``, ``kids``, ``dice``) from its start."""
        if game not in LESSONS:
            raise LessonRefusal(
                N_("There is no first game of {game}: choose {games}."),
                game=game,
                games=", ".join(LESSONS),
            )
        return cls(LESSONS[game])

    @classmethod
    def replay(cls, game: str, moves: Iterable[str | Move]) -> LessonGame:
        """The lesson of ``game`` after the learner's ``moves`` (rolls included); the first
        one refused raises its :class:`LessonRefusal`."""
        played = cls.start(game)
        for move in moves:
            parsed = move if isinstance(move, Move) else _parse(move)
            if parsed.kind is MoveKind.ROLL:
                played.roll()
            else:
                played.play(parsed)
        return played

    # --- what a front end shows -----------------------------------------------------------------

    @property
    def seat(self) -> int:
        return self.lesson.seat

    @property
    def step(self) -> Step | None:
        """The step to do now; ``None`` when the lesson is over."""
        steps = self.lesson.steps
        return steps[self.index] if self.index < len(steps) else None

    @property
    def over(self) -> bool:
        """Every step is done (and the learner has won the game)."""
        return self.step is None

    def view(self) -> View:
        """What the learner may see (their hand and the table)."""
        return self._state.view(self.seat)

    @property
    def must_roll(self) -> bool:
        """Dice: the learner rolls before the step's move."""
        return not self.over and self._state.next_step().kind is StepKind.ROLL

    def says(self, lang: str | None) -> str:
        """The current step's words in ``lang``, or the lesson's last words once it is over."""
        step = self.step
        if step is None:
            return translator(lang).gettext(self.lesson.won)
        return step_words(step, lang)

    def history(self) -> list[dict[str, Any]]:
        """Every move so far with its public facts (:func:`~sequence.engine.history`), for a log."""
        return history(self._state)

    def welcome(self, lang: str | None) -> str:
        return translator(lang).gettext(self.lesson.welcome)

    # --- what the learner does ------------------------------------------------------------------

    def roll(self) -> Move:
        """Dice: roll the learner's dice (the step's scripted roll); returns the roll."""
        step = self.step
        if step is None:
            raise LessonRefusal(N_("The lesson is over."))
        if step.roll is None or not self.must_roll:
            raise LessonRefusal(N_("There is nothing to roll now."))
        roll = Move.parse(step.roll)
        self._state.push(roll)
        self.learner_moves.append(roll)
        return roll

    def play(self, move: str | Move) -> tuple[Move, ...]:
        """Make the learner's ``move`` if it is the step's, then the opponent's answer; returns
        the opponent's rolls and moves. :class:`LessonRefusal` says why not (nothing changes)."""
        step = self.step
        if step is None:
            raise LessonRefusal(N_("The lesson is over."))
        if self.must_roll:
            raise LessonRefusal(N_("Roll the dice first."))
        parsed = move if isinstance(move, Move) else _parse(move)
        refusal = self._state.refusal(parsed, self.seat)
        if refusal is not None:
            raise LessonRefusal(N_("That move is not allowed."), engine=refusal)
        if parsed not in step.accepted:
            # The step's own words say which move (in words: a learner reads no notation).
            raise LessonRefusal(N_("Not this one: in this first game, do what the step says."))
        self._state.push(parsed, seat=self.seat)
        self.learner_moves.append(parsed)
        self.index += 1
        answer = tuple(Move.parse(m) for m in step.reply)
        for reply in answer:
            after = self._state.next_step()
            self._state.push(reply, seat=None if after.kind is StepKind.ROLL else after.seat)
        return answer


def _parse(text: str) -> Move:
    try:
        return Move.parse(text)
    except ValueError as exc:
        raise LessonRefusal(N_("That is not a move: {text}."), text=str(exc)) from None
