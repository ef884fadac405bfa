"""``sequence learn``: a first game that teaches, in the terminal.

The lesson (:class:`~sequence.learn.LessonGame`: a prepared deal, a scripted opponent) says
what to do at each step; this screen shows it above the board, points at the step's card and
spaces (``+`` where a chip goes, ``x`` where one is taken), and hands the learner's keys and
clicks to the lesson, which refuses anything else with the reason. Only the learner's view is
drawn; the opponent's hand never leaves the lesson.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Static

from ..engine import Move, MoveKind, View, parse_card
from ..i18n import N_, system_language
from ..learn import LessonGame, LessonRefusal
from .choosing import CardNote, Choice
from .narration import sentence
from .session import Marked
from .widgets import BoardWidget, Gettext, HandBar, HandItem, Marks, card_label, story_text


class LessonApp(App[int]):
    """One first game, from its welcome to the learner's win."""

    TITLE = N_("Your first game")
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    #says { height: auto; min-height: 3; padding: 0 1; border: round $accent; }
    #main { height: 1fr; }
    #board { width: 1fr; }
    #log { width: 30; padding: 0 0 0 1; }
    #hand { height: 2; padding: 0 1; }
    #message { height: auto; max-height: 2; padding: 0 1; color: $warning; }
    #keys { height: 1; padding: 0 1; color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(n), f"select({n - 1})", show=False) for n in range(1, 10)),
        Binding("up", "cursor(0, -1)", show=False),
        Binding("down", "cursor(0, 1)", show=False),
        Binding("left", "cursor(-1, 0)", show=False),
        Binding("right", "cursor(1, 0)", show=False),
        Binding("enter,space", "act", show=False),
        Binding("x", "dead", show=False),
        Binding("r", "roll", show=False),
        Binding("q,escape", "quit", show=False),
    ]

    def __init__(self, game: str, lang: str | None = None) -> None:
        super().__init__()
        self.lesson = LessonGame.start(game)
        self.gettext = Gettext(lang or system_language())
        self.title = self.gettext(self.TITLE)
        view = self.lesson.view()
        self.choice = Choice(view.config.spec.layout)
        self._point_cursor()
        self.message = ""
        self.names = [self.gettext("You"), self.gettext("Computer")]

    def compose(self) -> ComposeResult:
        yield Static(id="says")
        with Horizontal(id="main"):
            yield BoardWidget(self.gettext, id="board")
            yield Static(id="log")
        yield HandBar(self.gettext, id="hand")
        yield Static(id="message")
        yield Static(id="keys")

    def on_mount(self) -> None:
        self.show()

    def on_resize(self) -> None:
        self.show()

    # --- drawing ---------------------------------------------------------------------------------

    def show(self) -> None:
        _ = self.gettext
        lesson = self.lesson
        view = lesson.view()
        step = lesson.step
        says = Text()
        if not lesson.learner_moves:
            says.append(lesson.welcome(_.lang) + "\n")
        if step is not None and step.card is not None:
            says.append("[ " + card_label(parse_card(step.card), _) + " ] ", style="bold reverse")
        says.append(lesson.says(_.lang), style="bold")
        self.query_one("#says", Static).update(says)
        marks = Marks(cursor=self.choice.cursor if not lesson.over else None)
        if step is not None and not lesson.must_roll:
            accepted = step.accepted
            marks = Marks(
                targets=frozenset(m.space for m in accepted
                                  if m.kind is MoveKind.PLACE and m.space is not None),
                removals=frozenset(m.space for m in accepted
                                   if m.kind in (MoveKind.REMOVE, MoveKind.REPLACE)
                                   and m.space is not None),
                cursor=self.choice.cursor,
            )  # fmt: skip
        self.query_one(BoardWidget).show(view, marks)
        self._show_hand(view)
        log = self.query_one("#log", Static)
        lines = [sentence(e, view, self.names, lesson.seat, _) for e in lesson.history()]
        log.update(story_text(lines, _("Moves"), max(10, log.size.width), max(3, log.size.height)))
        self.query_one("#message", Static).update(self.message)
        self.query_one("#keys", Static).update(self._keys(view))

    def _show_hand(self, view: View) -> None:
        _ = self.gettext
        bar = self.query_one(HandBar)
        if view.hand is None or not view.config.spec.uses_cards:
            roll = view.roll
            rolled = "" if roll is None else _("Dice: {a} and {b}").format(a=roll[0], b=roll[1])
            bar.show(rolled, (), None)
            return
        step = self.lesson.step
        dead = {m.card for m in view.legal_moves if m.kind is MoveKind.DEAD}
        wanted = None if step is None else step.card
        items = [
            HandItem(card, wanted is not None and card == parse_card(wanted), card in dead)
            for card in view.hand
        ]
        bar.show(_("Your hand: "), items, self.choice.selected)

    def _keys(self, view: View) -> str:
        _ = self.gettext
        if self.lesson.over:
            return _("q: leave")
        if self.lesson.must_roll:
            return _("r: roll the dice   q: leave")
        if view.config.spec.uses_cards:
            return _("1-9: a card   arrows, Enter: a space   x: exchange a dead card   q: leave")
        return _("arrows, Enter: a space (or click it)   q: leave")

    def _point_cursor(self) -> None:
        """The cursor starts on the step's first space, where the learner is to act."""
        step = self.lesson.step
        if step is not None and step.spaces:
            self.choice.cursor = step.spaces[0]

    # --- the learner acts ------------------------------------------------------------------------

    def _try(self, move: Move) -> None:
        try:
            self.lesson.play(move)
        except LessonRefusal as exc:
            self.message = exc.message(self.gettext.lang)
        else:
            self.message = ""
            self.choice.selected = None
            self._point_cursor()
        self.show()

    def _refuse(self, exc: BaseException) -> None:
        self.message = self.gettext.error(exc)
        self.show()

    def action_select(self, index: int) -> None:
        view = self.lesson.view()
        try:
            self.choice.select(index, view, view.legal_moves)
        except Marked as exc:
            self._refuse(exc)
            return
        self.message = ""
        self._point_cursor()
        self.show()

    def action_cursor(self, dx: int, dy: int) -> None:
        self.choice.move_cursor(dx, dy)
        self.show()

    def on_hand_bar_card_clicked(self, event: HandBar.CardClicked) -> None:
        self.action_select(event.index)

    def on_board_widget_space_clicked(self, event: BoardWidget.SpaceClicked) -> None:
        self.choice.cursor = event.space
        self.action_act()

    def action_act(self) -> None:
        if self.lesson.over:
            return
        view = self.lesson.view()
        if self.lesson.must_roll:
            self.action_roll()
            return
        try:
            move = self.choice.without_space(view, view.legal_moves)
            if move is None:
                move = self.choice.move_at(self.choice.cursor, view, view.legal_moves)
        except CardNote as note:  # the card's one use is the dead-card exchange
            move = Move(MoveKind.DEAD, note.card)
        except Marked as exc:
            self._refuse(exc)
            return
        self._try(move)

    def action_dead(self) -> None:
        try:
            move = self.choice.dead(self.lesson.view())
        except Marked as exc:
            self._refuse(exc)
            return
        self._try(move)

    def action_roll(self) -> None:
        try:
            self.lesson.roll()
        except LessonRefusal as exc:
            self.message = exc.message(self.gettext.lang)
        else:
            self.message = ""
            self._point_cursor()
        self.show()


def run_lesson(game: str, lang: str | None) -> int:
    """Play the first game of ``game`` in this terminal; the exit status."""
    return LessonApp(game, lang).run() or 0


__all__ = ["LessonApp", "run_lesson"]
