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

from ..bots.arena import Forfeit
from ..engine import TEAM_LETTERS, Card, Move, MoveKind, Phase, View, space_name, spaces_of
from ..i18n.terms import outcome_text
from .choosing import Choice
from .session import Session
from .turns import TurnController
from .widgets import N_, TEAM_SYMBOLS, Gettext, HandItem, Marks, card_label, team_style

LEVEL_NAMES = {
    "easy": N_("easy"),
    "medium": N_("medium"),
    "hard": N_("hard"),
    "expert": N_("expert"),
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


def team_label(view: View, team: int, _: Gettext) -> str:
    """``Team B (▲ green)``, in the game's own colours (``GameSpec.colours``)."""
    return _("Team {letter} ({symbol} {colour})").format(
        letter=TEAM_LETTERS[team],
        symbol=TEAM_SYMBOLS[team],
        colour=_(view.config.spec.colours[team]),
    )


def winner_text(view: View, _: Gettext) -> str:
    """The end of a game as anyone sees it (a replay): ``Team B (▲ green) wins!``."""
    outcome = view.outcome
    assert outcome is not None
    if outcome.winner is None:
        return _("The game is drawn.")
    return _("{team} wins!").format(team=team_label(view, outcome.winner, _))


def result_text(session: Session, view: View, _: Gettext) -> str:
    """The end of the game in words, for whoever looks at this screen: ``You won!`` and
    ``Your team lost.`` when one person plays; the winners by name when several share the
    keyboard (or none plays)."""
    winners = session.winners()
    if not winners:
        return _("The game is drawn.")
    humans = session.humans
    cfg = view.config
    if len(humans) == 1:
        mine = cfg.team_of(humans[0])
        partners = sum(1 for s in range(cfg.players) if cfg.team_of(s) == mine) > 1
        if mine in winners:
            return _("Your team won!") if partners else _("You won!")
        return _("Your team lost.") if partners else _("You lost.")
    names = seat_names(session, _)
    teams = []
    for team in winners:
        members = ", ".join(names[s] for s in range(cfg.players) if cfg.team_of(s) == team)
        teams.append(
            _("{team} wins: {players}!").format(team=team_label(view, team, _), players=members)
        )
    return " ".join(teams)


def forfeit_text(player: str, forfeit: Forfeit, _: Gettext) -> str:
    """``player`` lost the game, and why: over the time limit in the player's language (the
    arena's code and figures); a bot's own failure (an exception, an illegal move) in the
    arena's words, for the bot's author, in English like its exceptions."""
    late = forfeit.late
    if late is None:
        reason = forfeit.reason
    elif late.answered:
        reason = _("took {seconds} s for a move; the limit is {limit} s").format(
            seconds=_.decimal(late.seconds), limit=_.decimal(late.limit)
        )
    else:
        reason = _("still thinking after {seconds} s; the limit is {limit} s a move").format(
            seconds=_.decimal(late.seconds), limit=_.decimal(late.limit)
        )
    return _("{player} loses the game: {reason}").format(player=player, reason=reason)


def result_detail(session: Session, view: View, _: Gettext) -> str:
    """How the game was won (the bot that lost it, or the completed sequences and the rule),
    and how long it was."""
    lines = []
    forfeit = session.forfeit
    if forfeit is not None:
        lines.append(forfeit_text(seat_names(session, _)[forfeit.seat], forfeit, _))
    elif view.outcome is not None:
        lines.append(outcome_text(view.outcome, _.lang))
        for team in session.winners():
            for window in view.sequences[team]:
                spaces = list(spaces_of(window))
                lines.append(
                    _("{symbol} sequence {first}–{last}").format(
                        symbol=TEAM_SYMBOLS[team],
                        first=space_name(min(spaces)),
                        last=space_name(max(spaces)),
                    )
                )
    turns = view.turns
    moves = len(view.move_stack)
    lines.append(
        _.ngettext("The game lasted {n} turn", "The game lasted {n} turns", turns).format(n=turns)
        + " "
        + _.ngettext("({n} move).", "({n} moves).", moves).format(n=moves)
    )
    return "\n".join(lines)


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
        if turns.session.over:
            out.append(result_text(turns.session, view, _), style="bold bright_yellow")
            return out
        assert actor is not None
        team = view.config.team_of(actor)
        out.append(f" {TEAM_SYMBOLS[team]} ", style=team_style(view, team))
        name = self.names[actor]
        if turns.thinking is not None:
            text = _("{player} is thinking {spinner}").format(
                player=name, spinner=SPINNER[self.spin % len(SPINNER)]
            )
        elif view.phase is Phase.FORFEIT and self._is_you(actor):
            text = _("You give up a card (table talk)")
        elif view.phase is Phase.FORFEIT:
            text = _("{player} gives up a card (table talk)").format(player=name)
        elif self._is_you(actor):
            text = _("Your turn")
        else:
            text = _("{player} to play").format(player=name)
        out.append(" " + text)
        if self.extra_turn(view):
            out.append("  " + _("Extra turn!"), style="bold bright_green")
        return out

    def _is_you(self, seat: int) -> bool:
        """The seat is called "You" (the one person at the table)."""
        session = self.turns.session
        return session.is_human(seat) and len(session.humans) == 1

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
            # The roll, once, on one line; the hint below says what to do with it.
            if view.roll is not None and self.turns.viewer == view.to_move:
                a, b = view.roll
                return _("Dice: {a} + {b} = {total}").format(a=a, b=b, total=a + b), [], None, ""
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
        # The board marks these spaces with + and x (never a team's colour: a team is green).
        if MoveKind.PLACE in kinds:
            return _("{card}: choose a space marked + and press Enter.").format(card=name)
        if MoveKind.REMOVE in kinds:
            return _("{card}: choose a chip marked x to remove and press Enter.").format(card=name)
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

    def keys_text(self, view: View, width: int = 1000) -> str:
        """The keys that work now, on one line of ``width``: undo only where it works (one
        person against the computer, undo on), the hint where hints are on (not in a rated
        game); what does not fit is left out (every key is in the help, ``?``, which stays)."""
        _ = self._
        session = self.turns.session
        if session.over:
            keys = [_("n new game"), _("s save"), _("q quit")]
        elif view.config.spec.uses_cards:
            keys = [_("1-9 card"), _("arrows/click space"), _("Enter play"), _("x dead")]
        else:
            keys = [_("r roll"), _("arrows/click space"), _("Enter play"), _("p pass")]
        if not session.over:
            if session.hints_allowed:
                keys.append(_("h hint"))
            keys += [_(": type"), _("s save")]
            if session.undo_allowed and len(session.humans) == 1:
                keys.append(_("u undo"))
            keys.append(_("q quit"))
        keys.append(_("? help"))
        sep = " · "
        # Left out first when the line is too long: typing, then the cursor keys (clicks and
        # typed spaces still work), then the rest from the end; quitting and the help stay.
        spare = [_(": type"), _("arrows/click space")]
        while len(sep.join(keys)) > width and len(keys) > 2:
            gone = next((k for k in spare if k in keys), keys[-3] if len(keys) > 3 else keys[0])
            keys.remove(gone)
        return sep.join(keys)

    def hint(self) -> str | None:
        """What the viewer is asked to do now (``None``: nothing to say, it is not their turn)."""
        _ = self._
        view = self.view()
        legal = self.turns.my_legal()
        viewer = self.turns.viewer
        if self.turns.session.over or viewer is None or viewer != view.to_move:
            return None
        if view.phase is Phase.ROLL:
            return _("Press R to roll the dice.")
        if legal and all(m.kind is MoveKind.PASS for m in legal):
            return _("Nothing can be done: press Enter to pass.")
        if view.phase is Phase.ACT and view.roll is not None:
            # The roll itself is on the hand bar's "Dice:" line.
            if any(m.kind is MoveKind.PLACE for m in legal):
                return _("Choose a space marked + and press Enter.")
            return _("Choose a chip marked x and press Enter.")
        if view.phase is Phase.FORFEIT:
            return _("Table talk penalty: choose a card to give up, then press Enter.")
        if view.phase in (Phase.PICK, Phase.PICK_DEAD):
            return _("Take one of the face-up cards: choose it, then press Enter.")
        if legal and all(m.kind is MoveKind.DEAD for m in legal):
            # Kids (RULES.md §3): no discard; after the exchanges the turn passes.
            return _("No card can be played: exchange a dead card (X).")
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
            _("H: a hint: the move the strongest computer player likes, and why (not rated)."),
            _("S: save the game; resume it with sequence play --load FILE."),
            _("L: the move log in notation, or back in words."),
            _("Q: quit."),
            "",
            _("Chips: each team has a colour and a symbol (● ▲ ■ ◆)."),
            _("= a chip in a completed sequence, • the last move, ★ a free corner."),
        ]
        return "\n".join(lines)

    def team_label(self, view: View, team: int) -> str:
        """``Team B (▲ green)``."""
        return team_label(view, team, self._)


__all__ = [
    "LEVEL_NAMES",
    "SPINNER",
    "Drawing",
    "result_detail",
    "result_text",
    "seat_names",
    "team_label",
    "winner_text",
]
