"""The engine's exceptions: each names its mistake with a stable code and the values it concerns.

Every error is a :class:`ValueError` with a ``code`` (``"space_taken"``), its ``params``
(``{"space": "e5"}``) and an English message built from :data:`MESSAGES` (``"e5 is taken"``).
Front ends never read the English back: they render ``code`` and ``params`` from the
catalogues in the player's language (:func:`sequence.i18n.errors.translate_error`).

>>> exc = IllegalMoveError("space_taken", move="5H@c3", space="c3")
>>> exc.code, exc.params, str(exc)
('space_taken', {'space': 'c3'}, '5H@c3: c3 is taken')
"""

from __future__ import annotations

from typing import Any


def _m(template: str) -> str:
    """Marks an English template for the catalogue extractor (``scripts/i18n-update.sh``)."""
    return template


MESSAGES: dict[str, str] = {
    # --- any move, any game ------------------------------------------------------------------
    "not_a_move": _m("not a move"),
    "game_over": _m("the game is over"),
    "not_your_turn": _m("it is not your turn (player {seat} is to act)"),
    "move_not_in_game": _m("{kind} is not a move in {title}"),
    "off_board": _m("that space is not on the board"),
    # --- manual draw: loss of card (RULES.md §2.5) ---------------------------------------------
    "draw_automatic": _m("cards are drawn automatically in this game (option manual_draw is off)"),
    "no_such_seat": _m("no such seat"),
    "draw_for_yourself": _m("you can only draw for yourself"),
    "no_draw_due": _m(
        "there is no draw to take: it was taken, or it lapsed once the next player had played"
        " and drawn"
    ),
    # --- table talk (§2.6) --------------------------------------------------------------------
    "forfeit_due": _m("a table-talk penalty is due: give up a card first (forfeit:CARD)"),
    "no_forfeit_due": _m("no card is to be forfeited now"),
    "penalty_not_in_game": _m("table-talk penalties are a rule of classic Sequence"),
    "no_such_team": _m("no such team"),
    "penalty_no_team_mates": _m("players who play alone have no team-mates to coach"),
    "penalty_not_now": _m("a penalty can be imposed only between plays"),
    "penalty_no_cards": _m("nobody in team {team} holds a card"),
    # --- the draft variant ----------------------------------------------------------------------
    "pick_due": _m("take one of the face-up cards now (pick:CARD)"),
    "not_face_up": _m("{card} is not among the face-up cards"),
    "no_pick_due": _m("no face-up card is to be taken now"),
    # --- playing a card -------------------------------------------------------------------------
    "must_play": _m("you hold cards: play one, or discard one if none can be played"),
    "card_not_held": _m("you do not hold {card}"),
    "card_missing": _m("name the card you play"),
    "never_dead": _m("{card} is never dead: it goes anywhere or removes a chip"),
    "not_dead": _m("{card} is not dead: {space} is still open"),
    "not_dead_both": _m("{card} is not dead: {space1} and {space2} are still open"),
    "one_dead_card": _m("only one dead card may be exchanged a turn"),
    "can_play": _m("you can play a card, so you may not discard to pass"),
    "remover_places": _m("{card} removes a chip; it does not place one (write {hint})"),
    "free_corner": _m("{space} is a free corner: no chip goes there"),
    "space_taken": _m("{space} is taken"),
    "wrong_space": _m("{card} goes on {space1} or {space2}, not on {space}"),
    "team_out_of_chips": _m("team {team} has no chips left to place"),
    "placer_removes": _m("{card} places a chip; only a one-eyed Jack or a Dragon removes one"),
    "no_chip": _m("there is no chip on {space}"),
    "own_chip": _m("the chip on {space} is your own team's"),
    "chip_locked": _m("the chip on {space} is part of a completed sequence"),
    # --- Sequence Dice --------------------------------------------------------------------------
    "no_roll_due": _m("no dice to roll now"),
    "roll_first": _m("the dice must be rolled first"),
    "dice_no_cards": _m("Sequence Dice has no cards: write @e5, =e5 or xe5"),
    "roll_usable": _m("the roll can be used: pass only when nothing can be done"),
    "defence_target": _m(
        "a roll of 10 (defence) removes an opponent's chip, not on a 2 or a 12: {space} has"
        " no such chip"
    ),
    "out_of_chips": _m("you have no chips left to place"),
    "wild_roll": _m(
        "a roll of 11 (wild) puts a chip on any empty space, or replaces a chip when the"
        " board is full; not {kind} on {space}"
    ),
    "wrong_number": _m("you rolled {total}; {space} is a {label}"),
    "number_rule": _m(
        "a roll of {total} puts a chip on an empty {total}, or replaces an opponent's chip when"
        " all four are covered"
    ),
}
"""Every code the engine can raise, with its English template (the catalogues' msgid)."""

LEGACY = "legacy"
"""The code of a message not yet given one (being phased out: every error gets a code)."""


class SequenceError(ValueError):
    """Base class of every error the engine raises on bad input.

    ``SequenceError(code, **params)``: ``code`` is a key of :data:`MESSAGES`, ``params`` fill
    its template (plain strings and numbers, as the English message shows them).
    """

    code: str
    params: dict[str, Any]

    def __init__(self, code: str, /, **params: Any) -> None:
        template = MESSAGES.get(code)
        if template is None:  # an English sentence not yet given a code
            self.code, self.params = LEGACY, {}
            super().__init__(code)
            return
        self.code, self.params = code, params
        super().__init__(template.format(**params))

    def __reduce__(self) -> tuple[Any, ...]:
        # Errors cross process boundaries (bots' workers): rebuilt as they were, not re-parsed.
        return (_rebuild, (type(self), self.args, self.__dict__))


def _rebuild(cls: type[SequenceError], args: tuple[Any, ...], fields: dict[str, Any]) -> Any:
    exc = cls.__new__(cls)
    exc.args = args
    exc.__dict__.update(fields)
    return exc


class ConfigError(SequenceError):
    """A game configuration that the rules do not allow (player count, teams, options)."""


class InvalidNotationError(SequenceError):
    """Text that is not valid notation for a card, space, move or position."""


class IllegalMoveError(SequenceError):
    """A well-formed move that is not legal in the current position. The state is unchanged.

    ``move`` is the refused move's notation (its message starts ``"<move>: "``), or ``None``.
    """

    move: str | None

    def __init__(self, code: str, /, move: object = None, **params: Any) -> None:
        super().__init__(code, **params)
        self.move = None if move is None else str(move)
        if self.move is not None:
            self.args = (f"{self.move}: {self.args[0]}",)

    @property
    def reason(self) -> str:
        """The English reason, without the move."""
        text = str(self)
        return text[len(self.move) + 2 :] if self.move is not None else text


class InvalidPositionError(SequenceError):
    """A position (from notation) that cannot arise: card counts, chip counts, sequences."""


class RecordError(SequenceError):
    """A game record that is malformed or does not replay; the message names the move."""
