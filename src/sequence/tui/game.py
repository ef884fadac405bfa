"""The game screen: the Textual widgets of one game, and its keys and clicks.

It holds three parts, each a class of its own: the turn controller
(:class:`~sequence.tui.turns.TurnController`: whose turn, bots in threads, undo, penalty,
saving), the player's choice (:class:`~sequence.tui.choosing.Choice`: keys and clicks to a move)
and the drawing (:class:`~sequence.tui.drawing.Drawing`: the texts shown for a view). The screen
puts the drawing into its widgets, turns keys into the choice's moves and hands them to the
controller, and opens the dialogs the controller asks for. Every decision comes from the engine:
anything the player tries goes to ``state.push``, so that the engine's reason is shown.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Input, Static

from ..bots.arena import Forfeit
from ..bots.review import Hint, Reviewer
from ..engine import (
    TEAM_LETTERS,
    Card,
    IllegalMoveError,
    InvalidNotationError,
    Move,
    MoveKind,
    SequenceError,
    View,
    parse_card,
    parse_space,
)
from ..i18n.moves import move_words
from ..i18n.notes import translate_note
from .choosing import CardNote, Choice
from .dialogs import (
    GameOverScreen,
    HandoffScreen,
    HelpScreen,
    PenaltyScreen,
    QuitScreen,
    SaveScreen,
)
from .drawing import (
    LEVEL_NAMES,
    Drawing,
    forfeit_text,
    result_detail,
    result_text,
    seat_names,
)
from .narration import move_lines, setup_lines
from .session import Marked, Session
from .turns import Listener, NoPenalty, TurnController
from .widgets import (
    BoardWidget,
    Gettext,
    HandBar,
    card_label,
    log_text,
    players_text,
    story_text,
)


def hint_text(hint: Hint, _: Gettext) -> str:
    """A hint in the player's words: the move, then why ("Hint: the Three of Hearts on f6
    (blocks ...)"); the move as :func:`sequence.i18n.moves.move_words` says it."""
    why = "; ".join(translate_note(n, _.lang) for n in hint.notes)
    said = _("Hint:") + " " + move_words(hint.move, _.lang)
    return f"{said} ({why})" if why else said


class GameScreen(Screen[None], Listener):
    """One game in play. ``bot_delay`` seconds pass before each bot move, so people can follow;
    ``new_game`` is called when the player asks for another game (the start screen)."""

    DEFAULT_CSS = """
    GameScreen { layout: vertical; }
    #status { height: 1; background: $primary-background; color: $text; padding: 0 1; }
    #main { height: 1fr; }
    #board { width: 1fr; }
    #side { width: 36; padding: 0 0 0 1; }
    #table { height: auto; }
    #log { height: 1fr; }
    #hand { height: 2; padding: 0 1; }
    #message { height: auto; max-height: 2; padding: 0 1; }
    #keys { height: 1; padding: 0 1; color: $text-muted; }
    #notation { display: none; }
    #notation.shown { display: block; }
    """

    AUTO_FOCUS = None
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "cursor(0, -1)", show=False),
        Binding("down", "cursor(0, 1)", show=False),
        Binding("left", "cursor(-1, 0)", show=False),
        Binding("right", "cursor(1, 0)", show=False),
        Binding("enter,space", "act", show=False),
        *(Binding(str(i), f"select({i - 1})", show=False) for i in range(1, 10)),
        Binding("escape", "deselect", show=False),
        Binding("x", "dead", show=False),
        Binding("r", "roll", show=False),
        Binding("d", "draw", show=False),
        Binding("p", "pass_turn", show=False),
        Binding("t", "penalty", show=False),
        Binding("u", "undo", show=False),
        Binding("s", "save", show=False),
        Binding("colon,slash", "notation", show=False),
        Binding("question_mark,f1", "help", show=False),
        Binding("q", "quit_game", show=False),
        Binding("n", "new_game", show=False),
        Binding("l", "log_notation", show=False),
        Binding("h", "hint", show=False),
    ]

    def __init__(
        self,
        session: Session,
        gettext: Gettext,
        bot_delay: float = 0.5,
        new_game: Callable[[], None] | None = None,
        bell: bool = False,
        bot_time_limit: float | None = None,
        say_on_exit: Callable[[str], None] | None = None,
    ) -> None:
        super().__init__()
        self._ = gettext
        self._say_on_exit = say_on_exit
        """Given what to print once the terminal is back (where a game was saved on quitting)."""
        self.turns = TurnController(session, self, self, bot_delay, bot_time_limit)
        self.choice = Choice(session.config.spec.layout)
        self.drawing = Drawing(self.turns, self.choice, gettext)
        self.names = self.drawing.names
        self.message = Text("")
        self.notation_log = False
        """The log shows notation (``l`` toggles) instead of sentences."""
        self._new_game = new_game
        self.bell = bell
        """Ring the bell when a person's turn begins (``--bell``, the start screen's Bell)."""
        self.bells = 0
        self._rang_for: tuple[int, int] | None = None
        self.hinted: Hint | None = None
        """The last hint shown (``h``)."""

    # --- the parts, as the tests and tools see them -----------------------------------------------

    @property
    def session(self) -> Session:
        return self.turns.session

    @property
    def viewer(self) -> int | None:
        return self.turns.viewer

    @property
    def thinking(self) -> int | None:
        return self.turns.thinking

    @property
    def awaiting_draw(self) -> int | None:
        return self.turns.awaiting_draw

    @property
    def selected(self) -> int | None:
        return self.choice.selected

    @property
    def cursor(self) -> int:
        return self.choice.cursor

    @property
    def state_view(self) -> View:
        """The view shown: the viewer's, or a spectator's when no hand may be shown."""
        return self.drawing.view()

    def actor(self) -> int | None:
        return self.turns.actor()

    def my_legal(self) -> tuple[Move, ...]:
        """The moves the viewer may make now (none when no hand is shown)."""
        return self.turns.my_legal()

    def choices(self, view: View) -> tuple[Card, ...]:
        return self.choice.choices(view)

    def selected_card(self) -> Card | None:
        return self.choice.selected_card(self.state_view)

    def extra_turn(self, view: View) -> bool:
        return self.drawing.extra_turn(view)

    # --- layout ----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            yield BoardWidget(self._, id="board")
            with Vertical(id="side"):
                yield Static(id="table")
                yield Static(id="log")
        yield HandBar(self._, id="hand")
        yield Static(id="message")
        yield Static(id="keys")
        yield Input(
            placeholder=self._("Type a move (5H@c3), a card (5H) or a space (c3)"),
            id="notation",
            compact=True,
            disabled=True,
        )

    def on_mount(self) -> None:
        self.set_interval(0.12, self._tick)
        self.call_after_refresh(self.turns.advance)

    def on_resize(self) -> None:
        self.redraw()

    def redraw(self) -> None:
        """Draw everything from the current view."""
        if not self.is_mounted:
            return
        _ = self._
        drawing = self.drawing
        view = self.state_view
        self.query_one(BoardWidget).show(view, drawing.marks(view))
        table = self.query_one("#table", Static)
        width = table.content_size.width or 35
        table.update(players_text(view, self.names, _, self.viewer, width, self.session.over))
        log = self.query_one("#log", Static)
        log.update(self.log_text(view, log.content_size.width or 35, log.size.height))
        self.query_one("#status", Static).update(drawing.status_text(view))
        self.query_one(HandBar).show(*drawing.hand_parts(view))
        self.query_one("#message", Static).update(self.message)
        keys = self.query_one("#keys", Static)
        width = keys.content_size.width or self.size.width - 2
        keys.update(drawing.keys_text(view, max(20, width)))

    def log_text(self, view: View, width: int, height: int) -> Text:
        """The log in words (who starts and why, then every move) or, after ``l``, in notation;
        the newest lines that fit."""
        _ = self._
        if self.notation_log:
            return log_text(view.move_stack, view.config.players, _, max(1, height - 1))
        state = self.session.state
        lines = setup_lines(state.setup, view, self.names, _)
        lines += move_lines(state, self.names, self.viewer, _)
        return story_text(lines, _("Moves"), width, height)

    def hint(self) -> None:
        """Say what the viewer is asked to do now."""
        text = self.drawing.hint()
        if text is not None:
            self.say(text)

    def say(self, text: str, error: bool = False) -> None:
        self.message = Text(text, style="bold #ff6b6b" if error else "")
        if self.is_mounted:
            self.query_one("#message", Static).update(self.message)

    def refuse(self, exc: BaseException) -> None:
        """Say why the engine refused what the player tried."""
        self.say(self._("Not allowed: {reason}").format(reason=self._.error(exc)), error=True)

    def _tick(self) -> None:
        if self.thinking is not None:
            self.drawing.spin += 1
            self.query_one("#status", Static).update(self.drawing.status_text(self.state_view))

    # --- what the turn controller says (Listener) and how it runs bots (Runner) -------------------

    def changed(self) -> None:
        self.redraw()

    def ring(self, seat: int) -> None:
        """The bell, once per turn of a person, when they asked for it."""
        turn = (seat, self.session.state.turns)
        if self.bell and turn != self._rang_for:
            self._rang_for = turn
            self.bells += 1
            self.app.bell()

    def human_to_act(self, seat: int) -> None:
        self.ring(seat)
        self.hint()

    def draw_open(self, seat: int) -> None:
        self.say(self._("Press D to draw a card, or Enter to end your turn without drawing."))

    def bot_to_act(self, seat: int) -> None:
        self.choice.selected = None

    def bot_thinking(self, seat: int) -> None:
        self.say("")

    def bot_forfeited(self, forfeit: Forfeit) -> None:
        self.say(forfeit_text(self.names[forfeit.seat], forfeit, self._), error=True)

    def hand_over(self, seat: int) -> None:
        self.ring(seat)
        self.app.push_screen(
            HandoffScreen(self.names[seat], self._), lambda _r: self._handed_over(seat)
        )

    def _handed_over(self, seat: int) -> None:
        self.choice.selected = None
        self.turns.handed_over(seat)

    def game_over(self) -> None:
        view = self.state_view
        session = self.session
        self.app.push_screen(
            GameOverScreen(
                result_text(session, view, self._), result_detail(session, view, self._), self._
            ),
            self._after_game_over,
        )

    def in_thread(self, job: Callable[[], None]) -> None:
        self.run_worker(job, thread=True, group="bots")

    def back(self, job: Callable[..., None], *args: Any) -> None:
        self.app.call_from_thread(job, *args)

    def after(self, seconds: float, job: Callable[[], None]) -> None:
        self.set_timer(seconds, job)

    # --- the player acts --------------------------------------------------------------------------

    def _my_turn(self) -> bool:
        """The shown hand is the seat to act, and no bot is thinking; otherwise say why not."""
        _ = self._
        turns = self.turns
        if self.session.over:
            self.say(_("The game is over."), error=True)
            return False
        if turns.thinking is not None:
            self.say(
                _("Wait: {player} is thinking.").format(player=self.names[turns.thinking]),
                error=True,
            )
            return False
        actor = self.actor()
        if self.viewer is None or self.viewer != actor or turns.awaiting_draw is not None:
            if turns.awaiting_draw is None and actor is not None:
                self.say(_("It is {player}'s turn.").format(player=self.names[actor]), error=True)
            return False
        return True

    def human_push(self, move: Move, seat: int | None) -> bool:
        """Send the player's move to the engine; show its reason when refused."""
        try:
            self.turns.push(move, seat)
        except IllegalMoveError as exc:
            self.refuse(exc)
            return False
        self.choice.selected = None
        self.say("")
        self.turns.advance()
        return True

    def _submit(self, make: Callable[[], Move | None]) -> Move | None:
        """The move the choice makes of a key; its reason is said when there is none."""
        try:
            return make()
        except CardNote as note:
            self.say(self.drawing.card_note(note.card, self.my_legal()), error=True)
        except Marked as exc:
            self.say(self._.error(exc), error=True)
        return None

    def play_at(self, space: int) -> None:
        """Play the chosen card (or the Dice roll) on ``space``."""
        if not self._my_turn():
            return
        seat = self.viewer
        view = self.session.view(seat)
        move = self._submit(lambda: self.choice.move_at(space, view, view.legal_moves))
        if move is not None:
            self.human_push(move, seat)

    def action_cursor(self, dx: int, dy: int) -> None:
        self.choice.move_cursor(dx, dy)
        self.redraw()

    def action_select(self, index: int) -> None:
        view = self.state_view
        if self.session.over:
            return
        try:
            self.choice.select(index, view, self.my_legal())
        except Marked as exc:
            self.say(self._.error(exc), error=True)
            return
        if self.selected_card() is not None:
            self.say("")
        self.redraw()

    def on_hand_bar_card_clicked(self, event: HandBar.CardClicked) -> None:
        self.action_select(event.index)

    def on_board_widget_space_clicked(self, event: BoardWidget.SpaceClicked) -> None:
        self.choice.cursor = event.space
        if self.session.config.spec.uses_cards and self.selected_card() is None:
            self.redraw()
            if self.viewer is not None and self.viewer == self.actor():
                self.say(self._("Choose a card first: press its number or click it."))
            return
        self.play_at(event.space)

    def action_deselect(self) -> None:
        notation = self.query_one("#notation", Input)
        if notation.has_class("shown"):
            notation.remove_class("shown")
            notation.disabled = True
            self.query_one("#keys").display = True
            return
        self.choice.selected = None
        self.redraw()

    def action_act(self) -> None:
        """Enter: end a turn without drawing, pass, use a card needing no space, or play."""
        if self.turns.awaiting_draw is not None:
            self.say("")
            self.turns.end_turn()
            return
        if not self._my_turn():
            return
        view = self.state_view
        legal = self.my_legal()
        try:
            move = self.choice.without_space(view, legal)
        except CardNote as note:
            self.say(self.drawing.card_note(note.card, legal), error=True)
            return
        if move is not None:
            self.human_push(move, self.viewer)
        else:
            self.play_at(self.choice.cursor)

    def action_dead(self) -> None:
        if not self._my_turn():
            return
        move = self._submit(lambda: self.choice.dead(self.state_view))
        if move is not None:
            self.human_push(move, self.viewer)

    def action_roll(self) -> None:
        if not self._my_turn():
            return
        try:
            move = self.turns.roll()
        except IllegalMoveError as exc:
            self.refuse(exc)
            return
        a, b = move.dice or (0, 0)
        self.say(self._("You rolled {a} and {b}: {total}.").format(a=a, b=b, total=a + b))
        self.turns.advance()
        if self.my_legal():
            # Put the cursor on the first space the roll allows, so Enter plays it.
            spaces = sorted(m.space for m in self.my_legal() if m.space is not None)
            if spaces:
                self.choice.cursor = spaces[0]
                self.redraw()
            self.hint()

    def action_pass_turn(self) -> None:
        if not self._my_turn():
            return
        self.human_push(Move(MoveKind.PASS), self.viewer)

    def action_draw(self) -> None:
        try:
            self.turns.draw()
        except IllegalMoveError as exc:
            self.refuse(exc)
            return
        except Marked as exc:
            self.say(self._.error(exc), error=True)
            return
        self.say(self._("You drew a card."))
        self.turns.advance()

    def action_penalty(self) -> None:
        _ = self._
        try:
            allowed = self.turns.penalty_teams()
        except NoPenalty as exc:
            reason = _.error(exc.reason)
            self.say(_("No table-talk penalty now: {reason}").format(reason=reason), error=True)
            return
        except Marked as exc:
            self.say(_.error(exc), error=True)
            return
        view = self.state_view
        labels = [(t, self.drawing.team_label(view, t)) for t in allowed]
        self.app.push_screen(PenaltyScreen(labels, _), self._impose)

    def _impose(self, team: int | None) -> None:
        if team is None:
            return
        try:
            self.turns.impose(team)
        except IllegalMoveError as exc:
            self.refuse(exc)
            return
        self.choice.selected = None
        self.say(
            self._("Team {letter} must give up a card each.").format(letter=TEAM_LETTERS[team])
        )
        self.turns.advance()

    def action_undo(self) -> None:
        _ = self._
        try:
            count = self.turns.undo()
        except Marked as exc:
            self.say(_.error(exc), error=True)
            return
        self.choice.selected = None
        self.turns.advance()
        self.say(_.ngettext("Took back {n} move.", "Took back {n} moves.", count).format(n=count))

    def action_save(self) -> None:
        self.app.push_screen(SaveScreen(self.turns.default_file(), self._), self._save_to)

    def _save_to(self, path: Path | None) -> None:
        if path is None:
            return
        try:
            self.turns.save(path)
        except (OSError, SequenceError) as exc:
            self.say(
                self._("Could not save: {reason}").format(reason=self._.error(exc)), error=True
            )
            return
        self.say(self._saved_text(path))

    def _saved_text(self, path: Path) -> str:
        return self._("Saved to {path}. Resume with: sequence play --load {path}").format(
            path=str(path)
        )

    def action_notation(self) -> None:
        notation = self.query_one("#notation", Input)
        notation.disabled = False
        notation.add_class("shown")
        self.query_one("#keys").display = False
        notation.value = ""
        notation.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "notation":
            return
        event.input.remove_class("shown")
        event.input.disabled = True
        self.query_one("#keys").display = True
        self.set_focus(None)
        self.typed(event.value.strip())

    def typed(self, text: str) -> None:
        """A space: move there (and play the chosen card); a card: choose it; a move: make it."""
        if not text:
            return
        spec = self.session.config.spec
        try:
            space = parse_space(text)
        except InvalidNotationError:
            pass
        else:
            if not spec.layout.contains(space):
                self.say(self._("{space} is not on this board.").format(space=text), error=True)
                return
            self.choice.cursor = space
            if self.selected_card() is not None or not spec.uses_cards:
                self.play_at(space)
            else:
                self.redraw()
            return
        try:
            card = parse_card(text)
        except InvalidNotationError:
            pass
        else:
            cards = self.choices(self.state_view)
            if card in cards:
                self.action_select(cards.index(card))
            else:
                self.say(
                    self._("You do not hold {card}.").format(card=card_label(card, self._)),
                    error=True,
                )
            return
        try:
            move = Move.parse(text)
        except InvalidNotationError as exc:
            reason = self._.error(exc)  # the engine's own words already say "not a move"
            self.say(reason[:1].upper() + reason[1:], error=True)
            return
        if move.kind is MoveKind.ROLL:  # the game's own dice roll, never a number typed in
            self.say(self._("Press R to roll the dice."), error=True)
        elif move.kind is MoveKind.PENALTY:
            self._impose(move.team)
        elif move.kind is MoveKind.DRAW:
            self.action_draw()
        elif self._my_turn():
            self.human_push(move, self.viewer)

    def action_hint(self) -> None:
        """``h``: the move the strongest bot likes from the viewer's own view, and why (in a
        worker thread; off in a rated game)."""
        _ = self._
        if not self.session.hints_allowed:
            self.say(_("Hints are off in a rated game."), error=True)
            return
        if not self._my_turn():
            return
        seat = self.viewer
        assert seat is not None
        view = self.session.view(seat)  # the seat's own view: nothing else goes to the search
        if not view.legal_moves:
            self.say(_("roll the dice first: a hint is for a move"), error=True)
            return
        self.say(_("Looking for a hint…"))
        self.in_thread(lambda: self.back(self._show_hint, view, Reviewer().hint(view)))

    def _show_hint(self, view: View, hint: Hint) -> None:
        """The hint found for ``view``, if the game is still there."""
        if self.viewer != view.seat or self.session.view(view.seat).move_stack != view.move_stack:
            return  # the game moved on (or another seat is at the keyboard): it is stale
        self.hinted = hint
        move = hint.move
        cards = self.choice.choices(view) if view.config.spec.uses_cards else ()
        if move.card is not None and move.card in cards:
            # The hinted card chosen, its spaces lit, the cursor on the hinted one: Enter plays.
            self.choice.selected = None
            self.choice.select(cards.index(move.card), view, view.legal_moves)
        if move.space is not None:
            self.choice.cursor = move.space
        self.say(hint_text(hint, self._))
        self.redraw()

    def action_log_notation(self) -> None:
        """The log in notation, or back in words."""
        self.notation_log = not self.notation_log
        self.redraw()

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.drawing.help_text(), self._))

    # --- leaving ---------------------------------------------------------------------------------

    def _after_game_over(self, choice: str | None) -> None:
        if choice == "quit":
            self.app.exit(0)
        elif choice == "new":
            self.new_game()
        elif choice == "save":
            self.action_save()

    def action_new_game(self) -> None:
        if self.session.over:
            self.new_game()
        else:
            self.say(self._("Finish or quit this game first (save it with S)."), error=True)

    def new_game(self) -> None:
        """Leave this game for the start screen (the app's ``new_game``)."""
        self.turns.close()
        if self._new_game is not None:
            self._new_game()
        else:
            self.app.exit(0)

    def action_quit_game(self) -> None:
        # Ask only when a person would lose moves of theirs: played since the last save.
        if not self.turns.unsaved_moves_of_people():
            self._quit()
            return
        self.app.push_screen(QuitScreen(self._), self._quit_chosen)

    def _quit_chosen(self, what: str | None) -> None:
        if what == "quit":
            self._quit()
        elif what == "save":
            self.app.push_screen(
                SaveScreen(self.turns.default_file(), self._), self._save_then_quit
            )

    def _save_then_quit(self, path: Path | None) -> None:
        self._save_to(path)
        if path is not None and self.turns.saved:
            if self._say_on_exit is not None:  # the screen goes: say where the file is
                self._say_on_exit(self._saved_text(path.resolve()))
            self._quit()

    def _quit(self) -> None:
        self.turns.close()
        self.app.exit(0)


__all__ = ["LEVEL_NAMES", "GameScreen", "result_text", "seat_names"]
