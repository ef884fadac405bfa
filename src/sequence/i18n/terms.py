"""The game's words, marked for the catalogues: titles, options, colours, cards, outcomes.

Front ends show these through the helpers here, so every screen says a term the same way (the
glossary, ``docs/glossary.md``, records where each language's word comes from).

>>> game_title("dice", "fr")
'Sequence Dés'
>>> card_label(parse_card("LION"), "uk")
'Лев'
>>> option_label("difficult", "ru")
'Сложный вариант'
"""

from __future__ import annotations

from sequence.engine import TEAM_LETTERS, Outcome, Termination
from sequence.engine.cards import KIDS_ANIMALS, KIDS_FIRST, Card, card_symbol, parse_card
from sequence.engine.games import OPTIONS

from . import N_, Nn_, translator

__all__ = [
    "ANIMALS",
    "COLOURS",
    "GAME_TITLES",
    "OPTION_HELP",
    "OPTION_LABELS",
    "PLURALS",
    "TERMS",
    "card_label",
    "colour_name",
    "game_title",
    "option_help",
    "option_label",
    "outcome_text",
    "plural",
    "term",
]

GAME_TITLES: dict[str, str] = {
    "classic": N_("Sequence"),
    "kids": N_("Sequence for Kids"),
    "dice": N_("Sequence Dice"),
    "draft": N_("draft variant"),
}
"""The English titles are the engine's ``GameSpec.title`` (``_(spec.title)`` works too)."""

OPTION_LABELS: dict[str, str] = {
    "difficult": N_("Difficult variant"),
    "manual_draw": N_("Loss of card (draw by hand)"),
    "chips_per_colour": N_("Chips per colour"),
    "max_turns": N_("Turn limit"),
    "dice_line_length": N_("Chips in a row to win"),
    "draft": N_("Draft variant"),
}

OPTION_HELP: dict[str, str] = {
    "difficult": N_(
        "one-eyed Jacks may also remove chips of completed sequences, which then stop counting"
    ),
    "manual_draw": N_(
        "drawing is a separate action; a player who has not drawn before the next player has"
        " played and drawn loses that draw"
    ),
    "chips_per_colour": N_(
        "chips in each colour's supply: a number, or 'us' for the US edition's 50/50/35"
        " (default: 48 classic, 21 Kids, 20 Dice)"
    ),
    "max_turns": N_("the game ends drawn after this many turns"),
    "dice_line_length": N_(
        "chips in a row to win at Dice: 5, or 6 as the rule book recommends"
        " for 2 players or 2 teams"
    ),
    "draft": N_(
        "tournament draft variant: hands of 6, five face-up cards to take from, the heart of"
        " the board wins, the game ends drawn when the deck is empty"
    ),
}
"""Exactly the engine's ``OPTIONS[name].help`` texts, so ``_(option.help)`` translates them."""

COLOURS: dict[str, str] = {
    "blue": N_("blue"),
    "green": N_("green"),
    "red": N_("red"),
    "yellow": N_("yellow"),
}

ANIMALS: dict[str, str] = {
    "BEAR": N_("Bear"),
    "CAT": N_("Cat"),
    "COW": N_("Cow"),
    "DOG": N_("Dog"),
    "DUCK": N_("Duck"),
    "ELEPHANT": N_("Elephant"),
    "FOX": N_("Fox"),
    "FROG": N_("Frog"),
    "GIRAFFE": N_("Giraffe"),
    "HORSE": N_("Horse"),
    "LION": N_("Lion"),
    "MONKEY": N_("Monkey"),
    "OWL": N_("Owl"),
    "PANDA": N_("Panda"),
    "PENGUIN": N_("Penguin"),
    "PIG": N_("Pig"),
    "RABBIT": N_("Rabbit"),
    "TIGER": N_("Tiger"),
    "ZEBRA": N_("Zebra"),
    "UNICORN": N_("Unicorn"),
    "DRAGON": N_("Dragon"),
}
"""The Kids cards by notation (``card_name``), each with its name for people."""

TERMS: dict[str, str] = {
    "sequence": N_("sequence"),
    "free_space": N_("free corner"),
    "dead_card": N_("dead card"),
    "two_eyed_jack": N_("two-eyed Jack"),
    "one_eyed_jack": N_("one-eyed Jack"),
    "draw_pile": N_("draw pile"),
    "discard_pile": N_("discard pile"),
    "chips": N_("chips"),
    "team": N_("team"),
    "table_talk": N_("table talk"),
    "loss_of_card": N_("loss of card"),
    "board": N_("board"),
    "hand": N_("hand"),
    "dealer": N_("dealer"),
    "defence": N_("defence"),
    "wild": N_("wild"),
    "dice": N_("dice"),
    "heart": N_("heart of the board"),
    "face_up_cards": N_("face-up cards"),
    "penalty": N_("table-talk penalty"),
    "team_name": N_("Team {team}"),
    "seat_name": N_("Player {seat}"),
    "your_turn": N_("Your turn"),
    "draw": N_("Draw"),
}

PLURALS: dict[str, tuple[str, str]] = {
    "cards": Nn_("{n} card", "{n} cards"),
    "chips_left": Nn_("{n} chip left", "{n} chips left"),
    "sequences": Nn_("{n} sequence", "{n} sequences"),
    "players": Nn_("{n} player", "{n} players"),
    "turns": Nn_("{n} turn", "{n} turns"),
    "cards_in_pile": Nn_("{n} card in the draw pile", "{n} cards in the draw pile"),
}

_OUTCOMES: dict[Termination, str] = {
    Termination.SEQUENCES: N_("Team {team} wins: its sequences are complete."),
    Termination.HEART: N_("Team {team} wins: it holds the heart of the board."),
    Termination.STALEMATE: N_("Drawn game: every player passed for a whole round."),
    Termination.MAX_TURNS: N_("Drawn game: the turn limit was reached."),
    Termination.DRAFT_EMPTY: N_(
        "Team {team} wins: it has more sequences when the face-up cards ran out."
    ),
}

_DRAWN_OUTCOMES: dict[Termination, str] = {
    Termination.DRAFT_EMPTY: N_("Drawn game: the face-up cards ran out with the sequences level."),
}
"""Terminations that may end a game won or drawn: their sentence for a draw."""

_MOVE_KINDS: dict[str, str] = {
    "place": N_("placing a chip"),
    "replace": N_("replacing a chip"),
    "remove": N_("removing a chip"),
    "pass": N_("passing"),
    "dead": N_("exchanging a dead card"),
    "discard": N_("discarding"),
    "draw": N_("drawing"),
    "pick": N_("taking a face-up card"),
    "penalty": N_("a table-talk penalty"),
    "forfeit": N_("forfeiting a card"),
    "roll": N_("rolling the dice"),
}
"""A move kind (``MoveKind.name.lower()``) as words, for error messages."""


def _(lang: str | None, message: str) -> str:
    return translator(lang).gettext(message)


def game_title(game: str, lang: str | None) -> str:
    """``classic``/``kids``/``dice``/``draft`` as the players' language names it."""
    return _(lang, GAME_TITLES[game])


def option_label(name: str, lang: str | None) -> str:
    """A short label for an option (a name in :data:`sequence.engine.OPTIONS`)."""
    return _(lang, OPTION_LABELS[name])


def option_help(name: str, lang: str | None) -> str:
    """The option's one-line help, translated."""
    return _(lang, OPTIONS[name].help)


def colour_name(colour: str, lang: str | None) -> str:
    """``blue`` -> ``синий``."""
    return _(lang, COLOURS[colour])


def card_label(card: Card, lang: str | None) -> str:
    """A card for people: ``5♥``, ``10♠``, ``J♦`` or a Kids animal's name in ``lang``."""
    if card >= KIDS_FIRST:
        names = (*KIDS_ANIMALS, "UNICORN", "DRAGON")
        return _(lang, ANIMALS[names[card - KIDS_FIRST]])
    return card_symbol(card)


def card_text_label(text: str, lang: str | None) -> str:
    """:func:`card_label` of a card given by notation; unknown text is returned as it is."""
    try:
        return card_label(parse_card(text), lang)
    except ValueError:
        return text


def term(key: str, lang: str | None) -> str:
    """A game term of :data:`TERMS` (e.g. ``dead_card``) in ``lang``."""
    return _(lang, TERMS[key])


def move_kind_words(kind: str, lang: str | None) -> str:
    """``place`` -> "placing a chip" in ``lang`` (unknown kinds are returned as they are)."""
    return _(lang, _MOVE_KINDS[kind]) if kind in _MOVE_KINDS else kind


def plural(key: str, n: int, lang: str | None) -> str:
    """A counted phrase of :data:`PLURALS` with the right plural form: ``21 карта``."""
    singular, plural_ = PLURALS[key]
    return translator(lang).ngettext(singular, plural_, n).format(n=n)


def outcome_text(outcome: Outcome, lang: str | None) -> str:
    """How a game ended, as a sentence."""
    if outcome.winner is None and outcome.termination in _DRAWN_OUTCOMES:
        return _(lang, _DRAWN_OUTCOMES[outcome.termination])
    team = TEAM_LETTERS[outcome.winner] if outcome.winner is not None else ""
    return _(lang, _OUTCOMES[outcome.termination]).format(team=team)
