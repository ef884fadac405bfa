"""What the game screen shows, as text: the status line, the hand, the board's marks, the keys,
the hint, the names of the seats and the result, all from a :class:`~sequence.engine.View`.

No widget here: :class:`Drawing` reads the turn controller (whose turn, who may see, who is
thinking) and the player's :class:`~sequence.tui.choosing.Choice`, and the game screen puts what
it returns into its widgets.

>>> from sequence.tui.session import GameSetup, Session
>>> seat_names(Session.start(GameSetup(seats=("human", "random"), seed=1)), Gettext("en"))
['You', 'Bot 2 (random)']
"""

from __future__ import annotations

from rich.text import Text

from ..engine import TEAM_LETTERS, Card, Move, MoveKind, Phase, View
from .choosing import Choice
from .session import Session
from .turns import TurnController
from .widgets import N_, TEAM_SYMBOLS, Gettext, HandItem, Marks, card_label, team_style

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


class Drawing:
    """The game screen's texts for the view the controller lets it show."""

    def __init__(self, turns: TurnController, choice: Choice, gettext: Gettext) -> None:
        self.turns = turns
        self.choice = choice
        self._ = gettext
        self.names = seat_names(turns.session, gettext)
        self.spin = 0
        """The spinner's frame while a bot thinks."""

    def view(self) -> View:
        """The view shown: the viewer's, or a spectator's when no hand may be shown."""
        return self.turns.session.view(self.turns.viewer)

    def marks(self, view: View) -> Marks:
        """The board's margins: where the chosen card may go, the cursor, the last move."""
        legal = self.turns.my_legal()
        card = self.choice.selected_card(view)
        targets: set[int] = set()
        removals: set[int] = set()
        for move in legal:
            if move.space is None or (view.config.spec.uses_cards and move.card != card):
                continue
            (targets if move.kind is MoveKind.PLACE else removals).add(move.space)
        last = next((m.space for m in reversed(view.move_stack) if m.space is not None), None)
        return Marks(frozenset(targets), frozenset(removals), self.choice.cursor, last)

    def status_text(self, view: View) -> Text:
        _ = self._
        turns = self.turns
        title = _(view.config.spec.title)
        if view.config.draft:
            title = _("{game} (draft)").format(game=title)
        out = Text(title + " · ", style="bold")
        actor = turns.actor()
        if view.outcome is not None:
            out.append(result_text(view, _), style="bold bright_yellow")
            return out
        assert actor is not None
        team = view.config.team_of(actor)
        out.append(f" {TEAM_SYMBOLS[team]} ", style=team_style(view, team))
        name = self.names[actor]
        if turns.thinking is not None:
            text = _("{player} is thinking {spinner}").format(
                player=name, spinner=SPINNER[self.spin % len(SPINNER)]
            )
        elif view.phase is Phase.FORFEIT:
            text = _("{player} gives up a card (table talk)").format(player=name)
        elif turns.session.is_human(actor) and len(turns.session.humans) == 1:
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
        actors = self.turns.session.actors
        return (
            len(actors) >= 1
            and actors[-1] == view.to_move
            and view.move_stack[-1].kind is not MoveKind.ROLL
        )

    def hand_parts(self, view: View) -> tuple[str, list[HandItem], int | None, str]:
        """The hand bar: its title, the cards, the chosen one, a note on it."""
        _ = self._
        if not view.config.spec.uses_cards:
            if view.roll is not None and self.turns.viewer == view.to_move:
                return _("Dice:"), [], None, _("Rolled {total}.").format(total=sum(view.roll))
            return "", [], None, ""
        if view.hand is None:
            return _("Hand hidden."), [], None, ""
        legal = self.turns.my_legal()
        usable = {m.card for m in legal if m.kind is not MoveKind.DEAD}
        dead = {m.card for m in legal if m.kind is MoveKind.DEAD}
        cards = self.choice.choices(view)
        picking = cards is view.draft and cards != view.hand
        title = _("Take a card:") if picking else _("Your hand:")
        items = [HandItem(c, c in usable, c in dead) for c in cards]
        note = ""
        card = self.choice.selected_card(view)
        if card is not None:
            note = self.card_note(card, legal)
        return title, items, self.choice.selected, note

    def card_note(self, card: Card, legal: tuple[Move, ...]) -> str:
        """What the chosen card can do now, and which key does it."""
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

    def hint(self) -> str | None:
        """What the viewer is asked to do now (``None``: nothing to say, it is not their turn)."""
        _ = self._
        view = self.view()
        legal = self.turns.my_legal()
        viewer = self.turns.viewer
        if view.outcome is not None or viewer is None or viewer != view.to_move:
            return None
        if view.phase is Phase.ROLL:
            return _("Press R to roll the dice.")
        if legal and all(m.kind is MoveKind.PASS for m in legal):
            return _("Nothing can be done: press Enter to pass.")
        if view.phase is Phase.ACT and view.roll is not None:
            return _("You rolled {total}: choose a highlighted space and press Enter.").format(
                total=sum(view.roll)
            )
        if view.phase is Phase.FORFEIT:
            return _("Table talk penalty: choose a card to give up, then press Enter.")
        if view.phase in (Phase.PICK, Phase.PICK_DEAD):
            return _("Take one of the face-up cards: choose it, then press Enter.")
        if legal and all(m.kind in (MoveKind.DISCARD, MoveKind.DEAD) for m in legal):
            return _("No card can be played: exchange a dead card (X) or choose one to discard.")
        return _("Choose a card (1-{n}), then a space.").format(n=len(view.hand or ()))

    def help_text(self) -> str:
        """The keys, for the help dialog."""
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
        return "\n".join(lines)

    def team_label(self, view: View, team: int) -> str:
        """``Team B (▲ green)``."""
        _ = self._
        return _("Team {letter} ({symbol} {colour})").format(
            letter=TEAM_LETTERS[team],
            symbol=TEAM_SYMBOLS[team],
            colour=_(view.config.spec.colours[team]),
        )


__all__ = ["LEVEL_NAMES", "SPINNER", "Drawing", "result_text", "seat_names"]
