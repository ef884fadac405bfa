"""The game screen: the board, the hand, the public table, the log, and the turn loop.

Every decision comes from the engine. The screen shows the acting human seat's
:class:`~sequence.engine.View`, offers the moves in ``view.legal_moves`` (choosing a card
highlights the spaces of its legal moves) and sends anything else to ``state.push`` so that
the engine's reason is shown. Bots think in a worker thread while the screen stays live.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Input, Static

from ..bots.isolated import failure, safe_repr
from ..engine import (
    TEAM_LETTERS,
    Card,
    CardKind,
    IllegalMoveError,
    InvalidNotationError,
    Move,
    MoveKind,
    Phase,
    SequenceError,
    View,
    card_kind,
    parse_card,
    parse_space,
)
from .dialogs import (
    GameOverScreen,
    HandoffScreen,
    HelpScreen,
    PenaltyScreen,
    QuitScreen,
    SaveScreen,
)
from .session import Session
from .widgets import (
    N_,
    TEAM_SYMBOLS,
    BoardWidget,
    Gettext,
    HandBar,
    HandItem,
    Marks,
    card_label,
    log_text,
    players_text,
    team_style,
)

LEVEL_NAMES = {
    "easy": N_("easy"),
    "medium": N_("medium"),
    "hard": N_("hard"),
    "random": N_("random"),
    "greedy": N_("greedy"),
    "casual": N_("casual"),
    "lookahead": N_("lookahead"),
    "mcts": N_("mcts"),
}
"""Bot names for people (the web client translates them with the same catalogue); a bot not
named here (a user's ``module:Class``) is shown by its own name."""
SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
SPACE_MOVES = (MoveKind.PLACE, MoveKind.REMOVE, MoveKind.REPLACE)


def seat_names(session: Session, _: Gettext) -> list[str]:
    """How each seat is called on screen: `You`, `Player 2`, `Computer 3 (hard)`."""
    names = []
    alone = len(session.humans) == 1
    for seat, kind in enumerate(session.seats):
        if session.is_human(seat):
            names.append(_("You") if alone else _("Player {n}").format(n=seat + 1))
        else:
            level = _(LEVEL_NAMES.get(kind, kind))
            names.append(_("Bot {n} ({level})").format(n=seat + 1, level=level))
    return names


def result_text(view: View, _: Gettext) -> str:
    """The end of the game in words."""
    outcome = view.outcome
    assert outcome is not None
    if outcome.winner is None:
        return _("The game is drawn.")
    colour = view.config.spec.colours[outcome.winner]
    return _("Team {letter} ({symbol} {colour}) wins!").format(
        letter=TEAM_LETTERS[outcome.winner], symbol=TEAM_SYMBOLS[outcome.winner], colour=_(colour)
    )


class GameScreen(Screen[None]):
    """One game in play. ``bot_delay`` seconds pass before each bot move, so people can follow."""

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
    #keys { height: auto; max-height: 2; padding: 0 1; color: $text-muted; }
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
    ]

    def __init__(self, session: Session, gettext: Gettext, bot_delay: float = 0.5) -> None:
        super().__init__()
        self.session = session
        self._ = gettext
        self.bot_delay = bot_delay
        self.names = seat_names(session, gettext)
        self.viewer: int | None = session.humans[0] if len(session.humans) == 1 else None
        self.revealed: int | None = None
        self.selected: int | None = None
        self.cursor = self._first_space()
        self.awaiting_draw: int | None = None
        self.thinking: int | None = None
        self.generation = 0
        self.thinking_generation = 0
        self.saved_moves: tuple[Move, ...] = session.state.move_stack
        """The moves when the game was last saved (or loaded): quitting then needs no question."""
        self.message = Text("")
        self.over_shown = False
        self.handoff_open = False
        self._spin = 0

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
        self.call_after_refresh(self.advance)

    def on_resize(self) -> None:
        self.redraw()

    # --- what is shown ---------------------------------------------------------------------------

    @property
    def state_view(self) -> View:
        """The view shown: the viewer's, or a spectator's when no hand may be shown."""
        return self.session.view(self.viewer)

    def actor(self) -> int | None:
        return self.session.actor()

    def my_legal(self) -> tuple[Move, ...]:
        """The moves the viewer may make now (none when no hand is shown)."""
        if self.viewer is None or self.thinking is not None:
            return ()
        return self.session.view(self.viewer).legal_moves

    def choices(self, view: View) -> tuple[Card, ...]:
        """The cards to choose from: the hand, or the face-up cards when one must be taken."""
        if view.hand is None:
            return ()
        if view.phase in (Phase.PICK, Phase.PICK_DEAD) and view.to_move == view.seat:
            return view.draft
        return view.hand

    def selected_card(self) -> Card | None:
        cards = self.choices(self.state_view)
        if self.selected is None or self.selected >= len(cards):
            return None
        return cards[self.selected]

    def marks(self, view: View) -> Marks:
        legal = self.my_legal()
        card = self.selected_card()
        targets: set[int] = set()
        removals: set[int] = set()
        for move in legal:
            if move.space is None or (view.config.spec.uses_cards and move.card != card):
                continue
            (targets if move.kind is MoveKind.PLACE else removals).add(move.space)
        last = next((m.space for m in reversed(view.move_stack) if m.space is not None), None)
        return Marks(frozenset(targets), frozenset(removals), self.cursor, last)

    def redraw(self) -> None:
        """Draw everything from the current view."""
        if not self.is_mounted:
            return
        _ = self._
        view = self.state_view
        self.query_one(BoardWidget).show(view, self.marks(view))
        self.query_one("#table", Static).update(players_text(view, self.names, _, self.viewer))
        log = self.query_one("#log", Static)
        log.update(log_text(view.move_stack, view.config.players, _, max(1, log.size.height - 1)))
        self.query_one("#status", Static).update(self.status_text(view))
        self.query_one(HandBar).show(*self.hand_parts(view))
        self.query_one("#message", Static).update(self.message)
        self.query_one("#keys", Static).update(self.keys_text(view))

    def status_text(self, view: View) -> Text:
        _ = self._
        title = _(view.config.spec.title)
        if view.config.draft:
            title = _("{game} (draft)").format(game=title)
        out = Text(title + " · ", style="bold")
        actor = self.actor()
        if view.outcome is not None:
            out.append(result_text(view, _), style="bold bright_yellow")
            return out
        assert actor is not None
        team = view.config.team_of(actor)
        out.append(f" {TEAM_SYMBOLS[team]} ", style=team_style(view, team))
        name = self.names[actor]
        if self.thinking is not None:
            text = _("{player} is thinking {spinner}").format(
                player=name, spinner=SPINNER[self._spin % len(SPINNER)]
            )
        elif view.phase is Phase.FORFEIT:
            text = _("{player} gives up a card (table talk)").format(player=name)
        elif self.session.is_human(actor) and len(self.session.humans) == 1:
            text = _("Your turn")
        else:
            text = _("{player} to play").format(player=name)
        out.append(" " + text)
        if self.extra_turn(view):
            out.append("  " + _("Extra turn!"), style="bold bright_green")
        return out

    def extra_turn(self, view: View) -> bool:
        """Dice: the seat about to roll made the previous play too (a 2 or 12 gives a turn)."""
        if view.phase is not Phase.ROLL or len(view.move_stack) < 2:
            return False
        actors = self.session.actors
        return (
            len(actors) >= 1
            and actors[-1] == view.to_move
            and view.move_stack[-1].kind is not MoveKind.ROLL
        )

    def hand_parts(self, view: View) -> tuple[str, list[HandItem], int | None, str]:
        _ = self._
        if not view.config.spec.uses_cards:
            if view.roll is not None and self.viewer == view.to_move:
                return _("Dice:"), [], None, _("Rolled {total}.").format(total=sum(view.roll))
            return "", [], None, ""
        if view.hand is None:
            return _("Hand hidden."), [], None, ""
        legal = self.my_legal()
        usable = {m.card for m in legal if m.kind is not MoveKind.DEAD}
        dead = {m.card for m in legal if m.kind is MoveKind.DEAD}
        cards = self.choices(view)
        picking = cards is view.draft and cards != view.hand
        title = _("Take a card:") if picking else _("Your hand:")
        items = [HandItem(c, c in usable, c in dead) for c in cards]
        note = ""
        card = self.selected_card()
        if card is not None:
            note = self.card_note(card, legal)
        return title, items, self.selected, note

    def card_note(self, card: Card, legal: tuple[Move, ...]) -> str:
        _ = self._
        name = card_label(card, _)
        mine = [m for m in legal if m.card == card]
        kinds = {m.kind for m in mine}
        if MoveKind.PLACE in kinds:
            return _("{card}: choose a green space and press Enter.").format(card=name)
        if MoveKind.REMOVE in kinds:
            return _("{card}: choose an orange chip to remove and press Enter.").format(card=name)
        if MoveKind.DEAD in kinds:
            return _("{card} is dead: press X to exchange it for a new card.").format(card=name)
        if MoveKind.DISCARD in kinds:
            return _("No card can be played: press Enter to discard {card} and pass.").format(
                card=name
            )
        if MoveKind.FORFEIT in kinds:
            return _("Press Enter to give up {card}.").format(card=name)
        if MoveKind.PICK in kinds:
            return _("Press Enter to take {card}.").format(card=name)
        return _("{card} cannot be played now.").format(card=name)

    def keys_text(self, view: View) -> str:
        _ = self._
        if view.outcome is not None:
            return _("n new game · s save · q quit · ? help")
        if view.config.spec.uses_cards:
            return _(
                "1-9 card · arrows/click space · Enter play · x dead · : type"
                " · s save · u undo · ? help · q quit"
            )
        return _(
            "r roll · arrows/click space · Enter play · p pass · : type"
            " · s save · u undo · ? help · q quit"
        )

    def hint(self) -> None:
        """Say what the viewer is asked to do now."""
        _ = self._
        view = self.state_view
        legal = self.my_legal()
        if view.outcome is not None or self.viewer is None or self.viewer != view.to_move:
            return
        if view.phase is Phase.ROLL:
            self.say(_("Press R to roll the dice."))
        elif legal and all(m.kind is MoveKind.PASS for m in legal):
            self.say(_("Nothing can be done: press Enter to pass."))
        elif view.phase is Phase.ACT and view.roll is not None:
            self.say(
                _("You rolled {total}: choose a highlighted space and press Enter.").format(
                    total=sum(view.roll)
                )
            )
        elif view.phase is Phase.FORFEIT:
            self.say(_("Table talk penalty: choose a card to give up, then press Enter."))
        elif view.phase in (Phase.PICK, Phase.PICK_DEAD):
            self.say(_("Take one of the face-up cards: choose it, then press Enter."))
        elif legal and all(m.kind in (MoveKind.DISCARD, MoveKind.DEAD) for m in legal):
            self.say(_("No card can be played: exchange a dead card (X) or choose one to discard."))
        else:
            self.say(_("Choose a card (1-{n}), then a space.").format(n=len(view.hand or ())))

    def say(self, text: str, error: bool = False) -> None:
        self.message = Text(text, style="bold #ff6b6b" if error else "")
        if self.is_mounted:
            self.query_one("#message", Static).update(self.message)

    def _tick(self) -> None:
        if self.thinking is not None:
            self._spin += 1
            self.query_one("#status", Static).update(self.status_text(self.state_view))

    # --- the turn loop ---------------------------------------------------------------------------

    def advance(self) -> None:
        """Move the game on: hand over to the next human, start a bot, or show the result."""
        session = self.session
        if session.state.is_over():
            self.redraw()
            if not self.over_shown:
                self.over_shown = True
                view = self.state_view
                played = len(view.move_stack)
                detail = self._.ngettext("{n} move played.", "{n} moves played.", played)
                detail = detail.format(n=played)
                self.app.push_screen(
                    GameOverScreen(result_text(view, self._), detail, self._), self._after_game_over
                )
            return
        if self.awaiting_draw is not None or self.handoff_open:
            self.redraw()
            return
        actor = self.actor()
        assert actor is not None
        if not session.is_human(actor):
            if len(session.humans) != 1:
                self.viewer = None
            self.selected = None
            self.redraw()
            self.start_bot(actor)
            return
        several = len(session.humans) > 1 and session.config.spec.uses_cards
        if several and self.revealed != actor:
            self.viewer = None
            self.handoff_open = True
            self.redraw()
            self.app.push_screen(
                HandoffScreen(self.names[actor], self._), lambda _r: self._handed_over(actor)
            )
            return
        self.viewer = actor
        self.revealed = actor
        self.redraw()
        self.hint()

    def _handed_over(self, seat: int) -> None:
        self.handoff_open = False
        self.revealed = seat
        self.selected = None
        self.advance()

    def start_bot(self, seat: int) -> None:
        if self.thinking is not None:
            return
        self.thinking = seat
        self.thinking_generation = self.generation
        chance = self.session.state.is_chance()
        view = self.session.view(seat)
        self.say("")
        self._think(self.generation, seat, view, chance)

    @work(thread=True, group="bots")
    def _think(self, generation: int, seat: int, view: View, chance: bool) -> None:
        """In a worker thread: wait a moment, ask the bot, hand the move back to the UI thread."""
        if self.bot_delay:
            time.sleep(self.bot_delay)
        try:
            move = None if chance else self.session.bot_move(seat, view)
        except BaseException as exc:  # a student's bot: its bug must not end the game
            self.app.call_from_thread(self._bot_failed, generation, failure(exc))
            return
        if move is not None and not isinstance(move, Move):
            # For the bot's author, in English like its exceptions.
            reason = f"choose() returned {safe_repr(move)}, which is not a Move"  # i18n: ignore
            self.app.call_from_thread(self._bot_failed, generation, reason)
            return
        self.app.call_from_thread(self._bot_done, generation, seat, move)

    def _stale(self, generation: int) -> bool:
        """Whether a bot's answer is for an earlier position (an undo, a penalty came since).

        Only the thread that owns :attr:`thinking` may clear it and carry on: after an undo a
        newer thread already thinks, and a second one must not start.
        """
        if generation == self.generation:
            self.thinking = None
            return False
        if self.thinking_generation == generation:
            self.thinking = None
            self.advance()
        return True

    def _bot_failed(self, generation: int, reason: str) -> None:
        if self._stale(generation):
            return
        self.say(self._("The computer failed: {reason}").format(reason=reason), error=True)
        self.redraw()

    def _bot_done(self, generation: int, seat: int, move: Move | None) -> None:
        if self._stale(generation):
            return
        try:
            if move is None:
                self.session.roll()
            else:
                self.session.push(move, seat)
                if self.session.draw_pending(seat) and not self.session.state.is_over():
                    self.session.push(Move(MoveKind.DRAW, seat=seat), seat)
        except IllegalMoveError as exc:
            self.say(
                self._("The computer's move was refused: {reason}").format(
                    reason=self._.error(exc)
                ),
                error=True,
            )
            self.redraw()
            return
        self.advance()

    def human_push(self, move: Move, seat: int | None) -> bool:
        """Send the player's move to the engine; show its reason when refused."""
        try:
            self.session.push(move, seat)
        except IllegalMoveError as exc:
            self.say(self._("Not allowed: {reason}").format(reason=self._.error(exc)), error=True)
            return False
        self.selected = None
        self.say("")
        if (
            seat is not None
            and self.session.draw_pending(seat)
            and not self.session.state.is_over()
        ):
            self.awaiting_draw = seat
            self.viewer = seat
            self.say(self._("Press D to draw a card, or Enter to end your turn without drawing."))
        self.advance()
        return True

    def _after_game_over(self, choice: str | None) -> None:
        if choice == "quit":
            self.app.exit(0)
        elif choice == "new":
            self.new_game()
        elif choice == "save":
            self.action_save()

    def new_game(self) -> None:
        from .start import StartScreen

        self.generation += 1
        self.session.close()
        self.app.switch_screen(StartScreen(self._, bot_delay=self.bot_delay))

    # --- actions ---------------------------------------------------------------------------------

    def _first_space(self) -> int:
        layout = self.session.config.spec.layout
        return next(s for s in layout.spaces if not layout.free >> s & 1)

    def action_cursor(self, dx: int, dy: int) -> None:
        layout = self.session.config.spec.layout
        row, col = divmod(self.cursor, 10)
        row = (row + dy) % layout.rows
        col = (col + dx) % layout.cols
        self.cursor = row * 10 + col
        self.redraw()

    def action_select(self, index: int) -> None:
        if self.state_view.outcome is not None:
            return
        cards = self.choices(self.state_view)
        if not self.session.config.spec.uses_cards:
            self.say(self._("Sequence Dice has no cards: roll the dice with R."), error=True)
            return
        if self.viewer is None or not cards:
            self.say(self._("No hand is shown now."), error=True)
            return
        if index >= len(cards):
            self.say(self._("There is no card {n}.").format(n=index + 1), error=True)
            return
        self.selected = None if self.selected == index else index
        card = self.selected_card()
        if card is not None:
            spaces = sorted(
                m.space for m in self.my_legal() if m.card == card and m.space is not None
            )
            if spaces:
                self.cursor = spaces[0]
            self.say("")
        self.redraw()

    def on_hand_bar_card_clicked(self, event: HandBar.CardClicked) -> None:
        self.action_select(event.index)

    def on_board_widget_space_clicked(self, event: BoardWidget.SpaceClicked) -> None:
        self.cursor = event.space
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
        self.selected = None
        self.redraw()

    def _my_turn(self) -> bool:
        """The shown hand is the seat to act, and no bot is thinking; otherwise say why not."""
        _ = self._
        if self.state_view.outcome is not None:
            self.say(_("The game is over."), error=True)
            return False
        if self.thinking is not None:
            self.say(
                _("Wait: {player} is thinking.").format(player=self.names[self.thinking]),
                error=True,
            )
            return False
        actor = self.actor()
        if self.viewer is None or self.viewer != actor or self.awaiting_draw is not None:
            if self.awaiting_draw is None and actor is not None:
                self.say(_("It is {player}'s turn.").format(player=self.names[actor]), error=True)
            return False
        return True

    def play_at(self, space: int) -> None:
        """Play the chosen card (or the Dice roll) on ``space``."""
        _ = self._
        if not self._my_turn():
            return
        seat = self.viewer
        view = self.session.view(seat)
        legal = view.legal_moves
        if view.phase is Phase.ROLL:
            self.say(_("Roll the dice first: press R."), error=True)
            return
        if not view.config.spec.uses_cards:
            found = [m for m in legal if m.space == space]
            self.human_push(found[0] if found else Move(MoveKind.PLACE, None, space), seat)
            return
        card = self.selected_card()
        if card is None:
            self.say(_("Choose a card first: press its number or click it."), error=True)
            return
        found = [m for m in legal if m.card == card and m.space == space]
        if found:
            self.human_push(found[0], seat)
            return
        kinds = {m.kind for m in legal if m.card == card and m.space is not None}
        if kinds:
            kind = next(iter(kinds))
        else:
            kind = MoveKind.REMOVE if card_kind(card) is CardKind.REMOVER else MoveKind.PLACE
        self.human_push(Move(kind, card, space), seat)

    def action_act(self) -> None:
        """Enter: end a turn without drawing, pass, use a card needing no space, or play."""
        if self.awaiting_draw is not None:
            self.awaiting_draw = None
            self.say("")
            self.advance()
            return
        if not self._my_turn():
            return
        legal = self.my_legal()
        if legal and all(m.kind is MoveKind.PASS for m in legal):
            self.human_push(legal[0], self.viewer)
            return
        card = self.selected_card()
        if card is not None and self.session.config.spec.uses_cards:
            mine = [m for m in legal if m.card == card]
            if mine and all(m.space is None for m in mine):
                plain = [m for m in mine if m.kind is not MoveKind.DEAD]
                if plain:
                    self.human_push(plain[0], self.viewer)
                else:
                    self.say(self.card_note(card, legal), error=True)
                return
        self.play_at(self.cursor)

    def action_dead(self) -> None:
        if not self._my_turn():
            return
        card = self.selected_card()
        if card is None:
            self.say(self._("Choose the dead card first (its number), then press X."), error=True)
            return
        self.human_push(Move(MoveKind.DEAD, card), self.viewer)

    def action_roll(self) -> None:
        if not self._my_turn():
            return
        try:
            move = self.session.roll()
        except IllegalMoveError as exc:
            self.say(self._("Not allowed: {reason}").format(reason=self._.error(exc)), error=True)
            return
        a, b = move.dice or (0, 0)
        self.say(self._("You rolled {a} and {b}: {total}.").format(a=a, b=b, total=a + b))
        self.advance()
        if self.my_legal():
            # Put the cursor on the first space the roll allows, so Enter plays it.
            spaces = sorted(m.space for m in self.my_legal() if m.space is not None)
            if spaces:
                self.cursor = spaces[0]
                self.redraw()
            self.hint()

    def action_pass_turn(self) -> None:
        if not self._my_turn():
            return
        self.human_push(Move(MoveKind.PASS), self.viewer)

    def action_draw(self) -> None:
        seat = self.awaiting_draw if self.awaiting_draw is not None else self.viewer
        if seat is None:
            self.say(self._("No hand is shown now."), error=True)
            return
        try:
            self.session.push(Move(MoveKind.DRAW, seat=seat), seat)
        except IllegalMoveError as exc:
            self.say(self._("Not allowed: {reason}").format(reason=self._.error(exc)), error=True)
            return
        self.awaiting_draw = None
        self.say(self._("You drew a card."))
        self.advance()

    def action_penalty(self) -> None:
        _ = self._
        state = self.session.state
        if self.thinking is not None or state.is_over():
            self.say(_("A penalty can be imposed only between plays."), error=True)
            return
        # Table talk is between people: a team of bots never talks, so it is never penalised.
        cfg = state.config
        talkers = sorted({cfg.team_of(s) for s in range(cfg.players) if self.session.is_human(s)})
        if not talkers:
            self.say(_("No table-talk penalty: only people talk at the table."), error=True)
            return
        allowed = [t for t in talkers if state.penalty_allowed(t) is None]
        if not allowed:
            reason = self._.error(state.penalty_allowed(talkers[0]) or "")
            self.say(_("No table-talk penalty now: {reason}").format(reason=reason), error=True)
            return
        view = self.state_view
        labels = [
            (
                t,
                _("Team {letter} ({symbol} {colour})").format(
                    letter=TEAM_LETTERS[t],
                    symbol=TEAM_SYMBOLS[t],
                    colour=_(view.config.spec.colours[t]),
                ),
            )
            for t in allowed
        ]
        self.app.push_screen(PenaltyScreen(labels, _), self._impose)

    def _impose(self, team: int | None) -> None:
        if team is None:
            return
        try:
            self.session.push(Move(MoveKind.PENALTY, team=team), None)
        except IllegalMoveError as exc:
            self.say(self._("Not allowed: {reason}").format(reason=self._.error(exc)), error=True)
            return
        self.generation += 1
        self.selected = None
        self.say(
            self._("Team {letter} must give up a card each.").format(letter=TEAM_LETTERS[team])
        )
        self.advance()

    def action_undo(self) -> None:
        _ = self._
        session = self.session
        if not session.undo_allowed:
            self.say(_("Undo is off in this game."), error=True)
            return
        if len(session.humans) != 1:
            self.say(_("Undo is for games against the computer."), error=True)
            return
        if not session.can_undo():
            self.say(_("There is no move of yours to take back."), error=True)
            return
        self.generation += 1
        self.thinking = None
        count = session.undo()
        self.awaiting_draw = None
        self.selected = None
        self.over_shown = False
        self.advance()
        self.say(_.ngettext("Took back {n} move.", "Took back {n} moves.", count).format(n=count))

    def action_save(self) -> None:
        self.app.push_screen(SaveScreen(self._default_file(), self._), self._save_to)

    def _default_file(self) -> str:
        # Named by the time, never by the seed (which would give every hand away).
        return f"sequence-{self.session.config.game}-{time.strftime('%Y%m%d-%H%M%S')}.json"

    def _save_to(self, path: Path | None) -> None:
        if path is None:
            return
        try:
            self.session.save(path)
        except (OSError, SequenceError) as exc:
            self.say(
                self._("Could not save: {reason}").format(reason=self._.error(exc)), error=True
            )
            return
        self.saved_moves = self.session.state.move_stack
        self.say(
            self._("Saved to {path}. Resume with: sequence play --load {path}").format(
                path=str(path)
            )
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
        try:
            space = parse_space(text)
        except InvalidNotationError:
            pass
        else:
            if not self.session.config.spec.layout.contains(space):
                self.say(self._("{space} is not on this board.").format(space=text), error=True)
                return
            self.cursor = space
            if self.selected_card() is not None or not self.session.config.spec.uses_cards:
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

    def action_help(self) -> None:
        _ = self._
        lines = [
            _("1-9 or a click: choose a card; the spaces it can take light up."),
            _("Arrows: move the cursor; Enter or a click: play there."),
            _("X: exchange the chosen dead card (marked †)."),
            _("R: roll the dice (Dice). P: pass when nothing can be done."),
            _("D: draw your card (manual draw option)."),
            _("T: impose a table-talk penalty on a team."),
            _(":  type a move (5H@c3, JSxd4, @e5), a card (5H) or a space (c3)."),
            _("U: undo your last move (games against the computer)."),
            _("S: save the game; resume it with sequence play --load FILE."),
            _("Q: quit."),
            "",
            _("Chips: each team has a colour and a symbol (● ▲ ■ ◆)."),
            _("= a chip in a completed sequence, • the last move, ★ a free corner."),
        ]
        self.app.push_screen(HelpScreen("\n".join(lines), _))

    def action_new_game(self) -> None:
        if self.session.state.is_over():
            self.new_game()
        else:
            self.say(self._("Finish or quit this game first (save it with S)."), error=True)

    def action_quit_game(self) -> None:
        # Ask only when a person would lose moves of theirs: played since the last save.
        session = self.session
        moves, saved = session.state.move_stack, self.saved_moves
        kept = 0  # moves the game still shares with the saved one (an undo may have gone back)
        while kept < min(len(moves), len(saved)) and moves[kept] == saved[kept]:
            kept += 1
        since = session.actors[kept:]
        if session.state.is_over() or not any(a is not None and session.is_human(a) for a in since):
            self._quit()
            return
        self.app.push_screen(QuitScreen(self._), self._quit_chosen)

    def _quit_chosen(self, what: str | None) -> None:
        if what == "quit":
            self._quit()
        elif what == "save":
            self.app.push_screen(SaveScreen(self._default_file(), self._), self._save_then_quit)

    def _save_then_quit(self, path: Path | None) -> None:
        self._save_to(path)
        if path is not None and self.saved_moves == self.session.state.move_stack:
            self._quit()

    def _quit(self) -> None:
        self.generation += 1
        self.session.close()
        self.app.exit(0)
