"""Step through a game record: forward, back, jump to a move, first and last; review it.

The viewer shows the public view of each position (a spectator's: the board, discard piles,
hand sizes, the draw pile, sequences), the move log with the current move highlighted, and
the result. ``r`` reviews the game (:mod:`sequence.bots.review`, in a thread: each move judged
as its mover saw it); then every step shows the review of the move just made and each side's
estimated chances there. :func:`run_replay` is what ``sequence replay FILE`` calls in a terminal.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Static

from ..bots.review import GameReview, Reviewer
from ..engine import TEAM_LETTERS, GameRecord, State
from ..i18n import N_, system_language
from ..i18n.moves import move_words
from ..i18n.notes import translate_note
from .drawing import LEVEL_NAMES, winner_text
from .session import HUMAN
from .widgets import BoardWidget, Gettext, Marks, log_text, players_text

VERDICT_WORDS = {
    "best": N_("the best move"),
    "good": N_("good"),
    "inaccuracy": N_("an inaccuracy"),
    "mistake": N_("a mistake"),
    "blunder": N_("a blunder"),
}
"""A review's verdicts (:data:`sequence.bots.review.VERDICTS`) in words."""
NOT_JUDGED = N_("not judged (no choice)")


class ReplayApp(App[int]):
    """An interactive replay of one :class:`~sequence.engine.GameRecord`."""

    TITLE = N_("Sequence replay")
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    #status { height: 1; background: $primary-background; padding: 0 1; }
    #main { height: 1fr; }
    #board { width: 1fr; }
    #side { width: 30; padding: 0 0 0 1; }
    #table { height: auto; }
    #review { height: auto; display: none; padding: 1 0 0 0; }
    #review.shown { display: block; }
    #log { height: 1fr; }
    #keys { height: 1; padding: 0 1; color: $text-muted; }
    #jump { display: none; }
    #jump.shown { display: block; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,l,space", "step(1)", show=False),
        Binding("left,h,backspace", "step(-1)", show=False),
        Binding("pagedown", "step(10)", show=False),
        Binding("pageup", "step(-10)", show=False),
        Binding("home", "goto(0)", show=False),
        Binding("end", "goto(-1)", show=False),
        Binding("g", "jump", show=False),
        Binding("r", "review", show=False),
        Binding("escape", "cancel_jump", show=False),
        Binding("q", "quit", show=False),
    ]

    def __init__(
        self,
        record: GameRecord,
        lang: str | None = None,
        at: int | None = None,
        reviewer: Reviewer | None = None,
    ) -> None:
        super().__init__()
        self.record = record
        self.reviewer = reviewer or Reviewer()
        self.review: GameReview | None = None
        """The game's review, once ``r`` has asked for it and it is done."""
        self.reviewing = False
        self.gettext = Gettext(lang or system_language())
        self.title = self.gettext(self.TITLE)
        self.states: list[State] = record.states()
        last = len(self.states) - 1
        self.index = last if at is None else max(0, min(at, last))
        names = [
            record.tags.get(f"Name{i + 1}") or self._seat_kind(record.tags.get(f"Seat{i + 1}"))
            for i in range(record.config.players)
        ]
        self.names = [
            self.gettext("Player {n} ({who})").format(n=i + 1, who=name)
            if name
            else self.gettext("Player {n}").format(n=i + 1)
            for i, name in enumerate(names)
        ]

    def _seat_kind(self, kind: str | None) -> str | None:
        """A record's ``SeatN`` tag for people: ``human`` or a bot level, translated."""
        if kind is None:
            return None
        if kind == HUMAN:
            return self.gettext("Human")
        return self.gettext(LEVEL_NAMES.get(kind, kind))

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            yield BoardWidget(self.gettext, id="board")
            with Vertical(id="side"):
                yield Static(id="table")
                yield Static(id="review")
                yield Static(id="log")
        yield Static(id="keys")
        yield Input(
            placeholder=self.gettext("Go to move number (Enter)"),
            type="integer",
            compact=True,
            id="jump",
            disabled=True,
        )

    def on_mount(self) -> None:
        self.show()

    def on_resize(self) -> None:
        self.show()

    def show(self) -> None:
        """Draw the position after move ``index``."""
        _ = self.gettext
        state = self.states[self.index]
        view = state.view(None)
        last = self.record.moves[self.index - 1] if self.index else None
        marks = Marks(last=last.space if last is not None else None)
        self.query_one(BoardWidget).show(view, marks)
        self.query_one("#table", Static).update(players_text(view, self.names, _, None))
        log = self.query_one("#log", Static)
        log.update(
            log_text(
                self.record.moves,
                view.config.players,
                _,
                max(1, log.size.height - 1),
                self.index or None,
            )
        )
        status = Text(_(view.config.spec.title) + " · ", style="bold")
        status.append(_("Move {n} of {total}").format(n=self.index, total=len(self.record.moves)))
        if view.outcome is not None:
            status.append(" · " + winner_text(view, _), style="bold bright_yellow")
        elif last is not None:
            status.append(" · " + _("last: {move}").format(move=str(last)))
        self.query_one("#status", Static).update(status)
        self.query_one("#keys", Static).update(
            _("← → step · PgUp PgDn 10 moves · Home End · g go to move · r review · q quit")
        )
        self.show_review()

    def show_review(self) -> None:
        """The review of the move just made, and the chances there (once reviewed)."""
        _ = self.gettext
        panel = self.query_one("#review", Static)
        if self.review is None:
            panel.update(_("Reviewing the game: each move as its mover saw it…"))
            panel.set_class(self.reviewing, "shown")
            return
        panel.add_class("shown")
        lines = []
        if self.index:
            move = self.record.moves[self.index - 1]
            judged = next((m for m in self.review.moves if m.index == self.index - 1), None)
            verdict = _(VERDICT_WORDS[judged.verdict]) if judged else _(NOT_JUDGED)
            lang = self.gettext.lang
            lines.append(_("Move {n} ({move}): {verdict}").format(
                n=self.index, move=move_words(move, lang), verdict=verdict))  # fmt: skip
            if judged is not None:
                lines += [translate_note(n, lang) for n in judged.flags + judged.notes]
        point = next((p for p in reversed(self.review.chances) if p.index <= self.index), None)
        if point is not None:
            chances = " · ".join(f"{TEAM_LETTERS[t]} {c:.0%}" for t, c in enumerate(point.chances))
            lines.append(_("Chances, an estimate: {chances}").format(chances=chances))
        panel.update("\n".join(lines))

    def action_review(self) -> None:
        if self.review is not None or self.reviewing:
            return
        self.reviewing = True
        self.show_review()
        self.run_worker(self._review, thread=True)

    def _review(self) -> None:
        review = self.reviewer.review_game(self.record)
        self.call_from_thread(self._reviewed, review)

    def _reviewed(self, review: GameReview) -> None:
        self.review, self.reviewing = review, False
        self.show()

    def action_step(self, delta: int) -> None:
        self.index = max(0, min(len(self.states) - 1, self.index + delta))
        self.show()

    def action_goto(self, index: int) -> None:
        self.index = len(self.states) - 1 if index < 0 else min(index, len(self.states) - 1)
        self.show()

    def action_jump(self) -> None:
        jump = self.query_one("#jump", Input)
        jump.disabled = False
        jump.add_class("shown")
        self.query_one("#keys").display = False
        jump.value = ""
        jump.focus()

    def action_cancel_jump(self) -> None:
        jump = self.query_one("#jump", Input)
        jump.remove_class("shown")
        jump.disabled = True
        self.query_one("#keys").display = True
        self.set_focus(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_cancel_jump()
        text = event.value.strip()
        if text.isdecimal():
            self.action_goto(int(text))


def run_replay(record: GameRecord, lang: str | None = None, at: int | None = None) -> int:
    """Open the interactive replay of ``record`` in the terminal, after move ``at`` (default: the
    last); return an exit status (0)."""
    ReplayApp(record, lang, at).run()
    return 0


__all__ = ["ReplayApp", "run_replay"]
