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

from collections.abc import Mapping
from typing import Any, ClassVar


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
    "kids_must_play": _m(
        "you can still play a card or exchange a dead one: the turn passes only when neither"
        " is possible"
    ),
    "card_not_held": _m("you do not hold {card}"),
    "card_missing": _m("name the card you play"),
    "never_dead": _m("{card} is never dead: it goes anywhere or removes a chip"),
    "not_dead": _m("{card} is not dead: {space} is still open"),
    "not_dead_both": _m("{card} is not dead: {space1} and {space2} are still open"),
    "one_dead_card": _m("only one dead card may be exchanged a turn"),
    "dead_card_limit": _m("at most {limit} dead cards may be exchanged a turn"),
    "can_play": _m("you can play a card, so you may not discard to pass"),
    "kids_no_discard": _m(
        "in Sequence for Kids no card is discarded: when no card can be played, the turn passes"
    ),
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
    # --- configuration (games.make_config) ----------------------------------------------------
    "unknown_game": _m("unknown game {text}: choose {games} ({variants})"),
    "game_variant": _m("the {variant} variant: {game} with the option {variant}"),
    "variant_contradicted": _m(
        "draft is classic with option draft: draft=false contradicts it; choose classic to"
        " play without it"
    ),
    "players_not_whole": _m("players and teams must be whole numbers"),
    "unknown_option": _m("unknown option {text}; the options are: {known}"),
    "option_not_in_game": _m("option {name} does not apply to {title}"),
    "option_not_bool": _m("option {name} takes true or false, not {value}"),
    "option_not_whole": _m("option {name} takes a whole number, not {value}"),
    "option_too_low": _m("option {name} must be at least {low}, not {value}"),
    "option_out_of_range": _m("option {name} must be from {low} to {high}, not {value}"),
    "too_many_players": _m(
        "Sequence cannot be played with {players} players: at most 12 can play. It takes 2,"
        " 3, 4, 6, 8, 9, 10 or 12 players: up to 3 play alone, more play in 2 or 3 equal"
        " teams."
    ),
    "too_few_players": _m(
        "Sequence cannot be played with {players} players: at least 2 must play. It takes 2,"
        " 3, 4, 6, 8, 9, 10 or 12 players: up to 3 play alone, more play in 2 or 3 equal"
        " teams."
    ),
    "no_equal_teams": _m(
        "Sequence cannot be played with {players} players: they cannot be split into 2 or 3"
        " equal teams. It takes 2, 3, 4, 6, 8, 9, 10 or 12 players: up to 3 play alone, more"
        " play in 2 or 3 equal teams."
    ),
    "alone_teams": _m(
        "with {players} players each plays alone: there must be {players} teams, not {teams}"
    ),
    "team_count": _m(
        "{players} players play in {listed} equal teams (at most 3 teams), not in {teams}"
    ),
    "draft_players": _m(
        "the draft variant is for 2 players or 2 teams of 2, not for {players} players"
    ),
    "draft_manual_draw": _m(
        "manual_draw does not apply to the draft variant, where cards are taken face up"
    ),
    "kids_players": _m("Sequence for Kids takes 2 to 4 players, not {players}"),
    "kids_teams": _m(
        "in Sequence for Kids everyone plays alone: there are as many teams as players"
    ),
    "dice_players": _m("Sequence Dice takes 2 to 4 players, not {players}"),
    "dice_teams_four": _m(
        "in Sequence Dice with 4 players, players 1 and 3 play against players 2 and 4:"
        " there must be 2 teams"
    ),
    "dice_teams_alone": _m(
        "in Sequence Dice with {players} players each plays alone: there must be {players} teams"
    ),
    "us_chips_classic": _m("chips_per_colour 'us' is the US edition of classic Sequence"),
    "config_not_object": _m("a configuration must be an object with game, players and options"),
    # --- notation: moves, spaces, cards (moves.py, board.py, cards.py) ---------------------------
    "equals_no_card": _m("bad move {text}: '=' takes no card"),
    "not_move_text": _m("not a move: {text}"),
    "draw_seat_number": _m("bad move {text}: draw takes a player number from 1 to 12"),
    "penalty_team_letter": _m("bad move {text}: penalty takes a team letter, A to C"),
    "roll_two_dice": _m("bad move {text}: a roll is two dice, for example roll:3+4"),
    "dice_faces": _m("dice show 1 to 6, not {a} and {b}"),
    "not_space": _m("not a space: {text} (write a column letter and a row number, for example e5)"),
    "space_row": _m("not a space: {text} (rows are 1 to 10)"),
    "unknown_card": _m("unknown card {text}"),
    # --- game records (record.py); {reason} is a nested error, rendered in the same language ---
    "move_illegal": _m("move {n} ({move}) is illegal: {reason}"),
    "move_illegal_by": _m("move {n} ({move}) by {player} is illegal: {reason}"),
    "seat_named": _m("seat {seat} ({name})"),
    "seat_plain": _m("seat {seat}"),
    # A refusal told about a player ({player}: seat_named or seat_plain), not to them: a
    # record's illegal move (about_player). The code is the one told to a player, plus _by.
    "must_play_by": _m("{player} holds cards: play one, or discard one if none can be played"),
    "kids_must_play_by": _m(
        "{player} can still play a card or exchange a dead one: the turn passes only when"
        " neither is possible"
    ),
    "card_not_held_by": _m("{player} does not hold {card}"),
    "card_missing_by": _m("name the card {player} plays"),
    "can_play_by": _m("{player} can play a card, and so may not discard to pass"),
    "own_chip_by": _m("the chip on {space} is {player}'s own team's"),
    "out_of_chips_by": _m("{player} has no chips left to place"),
    "wrong_number_by": _m("{player} rolled {total}; {space} is a {label}"),
    "move_unreadable": _m("move {n}: {reason}"),
    "seed_rolls": _m("move {n} ({move}): the seed rolls {rolled} here"),
    "move_not_text": _m("move {n} is not text: {value}"),
    "result_differs": _m("the record says {said} but the moves give {gives}"),
    "result_unfinished": _m("the record says {said} but the moves leave the game unfinished"),
    "termination_unknown": _m(
        "unknown termination '{text}': a record's termination is resignation, or none"
    ),
    "resignation_result": _m(
        "a game ended by resignation has a winner (A wins, B wins...), not {said}"
    ),
    "record_not_object": _m("a record is a JSON object with config, seed and moves"),
    "record_format": _m("unknown record format '{text}' (expected {expected})"),
    "record_missing": _m("the record has no {text}"),
    "record_config": _m("bad configuration: {reason}"),
    "seed_not_integer": _m("the seed must be an integer"),
    "moves_not_list": _m("moves must be a list of move notations"),
    "tags_not_object": _m("tags must be an object"),
    "not_json": _m("not valid JSON: {value}"),
    "not_a_header": _m('line {n}: not a header: {text} (write [Name "value"])'),
    "header_twice": _m("the header [{key} ...] is given twice"),
    "header_missing": _m("the record has no [{key} ...] header"),
    "header_not_whole": _m("[{key} ...] is a whole number, not {text}"),
    "record_headers": _m("bad headers: {reason}"),
    "tag_name": _m("a tag name is letters, digits and _, not '{text}'"),
    "tag_reserved": _m("the tag '{text}' is one of the record's own headers"),
    "tag_not_text": _m("the tag '{text}' is not text: {value}"),
    "not_seeded": _m("this game was not set up from a seed (it came from a position)"),
    # --- position notation (position.py) -------------------------------------------------------
    "position_not_text": _m("a position is a line of text"),
    "position_fields": _m(
        "a position has at least 7 fields (game, board, sequences, hands, discards, draw pile,"
        " turn), not {count}"
    ),
    "game_field": _m(
        "bad game field '{text}': write the game and the players, for example classic/2"
    ),
    "game_field_option": _m("bad game option '{text}': write name=value"),
    "game_field_unknown": _m("unknown option '{text}' in the game field"),
    "game_field_config": _m("the game field: {reason}"),
    "board_shape": _m("the board of {title} has {rows} rows of {cols} spaces"),
    "free_corner_mark": _m("{space}: '*' marks the free corners, and only them"),
    "board_no_team": _m("{space}: there is no team {team} in this game"),
    "board_mark": _m("{space}: unknown board mark '{text}'"),
    "chips_over_supply": _m("team {team} has more chips on the board than its supply"),
    "sequence_notation": _m(
        "bad sequence '{text}': write the team and both ends, for example A:a1-e1"
    ),
    "sequence_not_line": _m("{text}: not a line of {length} spaces"),
    "sequence_not_team": _m("{text}: not all team {team}'s chips"),
    "sequence_overlap": _m("{text}: shares more than one space with another sequence"),
    "hands_count": _m("give {n} hands and {n} discard piles, separated by '/'"),
    "dice_no_hands": _m("Sequence Dice has no cards: hands, discards and draw pile are '-'"),
    "turn_seat": _m("bad player number '{text}': the players are numbered 1 to {players}"),
    "unknown_phase": _m("unknown phase '{text}'; the phases are {names}"),
    "field_notation": _m("bad field '{text}': write key=value"),
    "field_number": _m("{key}= takes a number"),
    "known_lists": _m("known= takes {n} lists separated by '/'"),
    "roll_field": _m("roll= takes two dice, for example roll=3+4"),
    "rng_field": _m("rng= takes a hexadecimal number"),
    "unknown_ending": _m("unknown ending '{text}'"),
    "winner_letter": _m("over= names the winner by a team letter ({letters}), not '{text}'"),
    "unknown_field": _m("unknown field '{text}'"),
    "cards_extra": _m("the cards do not add up to the deck: too many {cards}"),
    "cards_missing": _m("the cards do not add up to the deck: missing {cards}"),
    "known_not_held": _m("player {seat}: known cards that are not in their hand"),
    "dead_over_limit": _m(
        "dead={count}: at most {limit} dead cards may be exchanged a turn in this game"
    ),
    "act_needs_roll": _m("phase act needs the roll (roll=A+B)"),
    "roll_outside_act": _m("a roll is given only while it is acted on (phase act)"),
    "phase_not_in_game": _m("phase {phase} is not a phase of {title}"),
    "over_field": _m("phase over goes with an over= field, and only it"),
    "forfeit_field": _m("phase forfeit goes with a forfeit= field, and only it"),
    "draft_field": _m("face-up cards (draft=) belong to the draft variant"),
    "draft_phase": _m("phase {phase} belongs to the draft variant"),
    "sequences_win": _m("team {team} has {count} sequences: the game would be over (give over=)"),
}
"""Every code the engine can raise, with its English template (the catalogues' msgid)."""


class SequenceError(ValueError):
    """Base class of every error the engine raises on bad input.

    ``SequenceError(code, **params)``: ``code`` is a key of :attr:`messages` (the engine's
    :data:`MESSAGES`; a layer above gives its subclass a table of its own), ``params`` fill its
    template: plain strings and numbers as the English message shows them, a list of
    alternatives (``[2, 3]``: "2 or 3"), or another :class:`SequenceError` that this one
    reports (a record's illegal move: its reason is rendered in place).

    >>> inner = IllegalMoveError("space_taken", move="5H@c3", space="c3")
    >>> str(RecordError("move_illegal", n=4, move="5H@c3", reason=inner))
    'move 4 (5H@c3) is illegal: c3 is taken'
    """

    messages: ClassVar[Mapping[str, str]] = MESSAGES
    """The codes this class (and its subclasses) raises, each with its English template."""
    code: str
    params: dict[str, Any]

    def __init__(self, code: str, /, **params: Any) -> None:
        template = self.messages.get(code)
        if template is None:  # a programming error: every refusal has a code and a message
            raise KeyError(f"{type(self).__name__}: no message for the code {code!r}")
        self.code, self.params = code, params
        super().__init__(template.format(**{k: _english(v) for k, v in params.items()}))

    @property
    def reason(self) -> str:
        """The English message (an :class:`IllegalMoveError`'s without its move)."""
        return str(self)

    def __reduce__(self) -> tuple[Any, ...]:
        # Errors cross process boundaries (bots' workers): rebuilt as they were, not re-parsed.
        return (_rebuild, (type(self), self.args, self.__dict__))


def _english(value: Any) -> Any:
    """A parameter as the English message shows it."""
    if isinstance(value, SequenceError):
        return value.reason
    if isinstance(value, (list, tuple)):
        words = [str(v) for v in value]
        return " or ".join(filter(None, (", ".join(words[:-1]), *words[-1:])))
    return value


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


def about_player(exc: IllegalMoveError, player: SequenceError) -> IllegalMoveError | None:
    """``exc``'s refusal told about ``player`` rather than to them (``"seat 2 (Ann) does not
    hold AS"`` for ``"you do not hold AS"``), or ``None`` where its message does not address
    the player (``"c3 is taken"``), which is then right about anybody.

    >>> told = IllegalMoveError("card_not_held", move="AS@a1", card="AS")
    >>> str(about_player(told, RecordError("seat_named", seat=2, name="Ann")))
    'AS@a1: seat 2 (Ann) does not hold AS'
    """
    code = f"{exc.code}_by"
    if code not in MESSAGES:
        return None
    return IllegalMoveError(code, move=exc.move, player=player, **exc.params)
