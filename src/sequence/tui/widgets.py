"""The terminal game's widgets: the board, the hand, the public table and the move log.

They draw a :class:`~sequence.engine.View` and nothing else, so they show only what the seat
(or a spectator, for replays) may know. Each team has a colour *and* a symbol, so the board
reads the same without colour.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from babel.numbers import format_decimal
from rich.console import Console
from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget

from ..engine import Card, Move, View, card_symbol, space_name, spaces_of
from ..engine.cards import KIDS_ANIMALS, KIDS_FIRST
from ..i18n import DEFAULT, normalise, translator
from ..i18n.errors import translate_error


class Gettext:
    """The player's language for the terminal game: ``_("...")``, ``_.ngettext`` and errors.

    >>> _ = Gettext("ru")
    >>> _("Your turn"), _.ngettext("{n} card", "{n} cards", 5).format(n=5)
    ('Ваш ход', '5 карт')
    """

    def __init__(self, lang: str | None = None) -> None:
        self.lang = normalise(lang) or DEFAULT
        self.translations = translator(self.lang)

    def __call__(self, message: str) -> str:
        return self.translations.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form of a counted message for ``n`` (placeholders still to fill)."""
        return self.translations.ngettext(singular, plural, n)

    def decimal(self, number: float) -> str:
        """``number`` with two decimals as the language writes it (``1.20``, ``1,20``)."""
        return format_decimal(number, format="0.00", locale=self.lang)

    def error(self, exc: BaseException | str) -> str:
        """An error's message for the player.

        The terminal game's own refusals carry their msgid and values (``exc.msgid``,
        ``exc.values``); engine errors are rendered from their code by
        :func:`~sequence.i18n.errors.translate_error`; anything else (an operating system error)
        is shown as it is.
        """
        msgid = getattr(exc, "msgid", None)
        if isinstance(msgid, str):
            values = getattr(exc, "values", {})
            return self(msgid).format(**values)
        if isinstance(exc, OSError) and exc.filename is not None:
            path = str(exc.filename)
            if isinstance(exc, FileNotFoundError):
                return self(N_("there is no file {path}")).format(path=path)
            if isinstance(exc, IsADirectoryError):
                return self(N_("{path} is a folder, not a file")).format(path=path)
            if isinstance(exc, PermissionError):
                return self(N_("no permission to use {path}")).format(path=path)
        if isinstance(exc, UnicodeDecodeError):
            return self(N_("the file is not text (UTF-8)"))
        return translate_error(exc, self.lang)


TEAM_SYMBOLS = ("●", "▲", "■", "◆")
"""One symbol per team, so chips differ without colour (colour-blind safe)."""
FREE_SYMBOL = "★"
DICE_FACES = "⚀⚁⚂⚃⚄⚅"
COLOURS = {
    "blue": ("#1f5fd0", "white"),
    "green": ("#1e8a3c", "white"),
    "red": ("#c8322f", "white"),
    "yellow": ("#e0b000", "black"),
}
"""Chip colour name -> (background, text colour)."""


def N_(message: str) -> str:
    """Mark a string for translation without translating it yet (gettext's convention)."""
    return message


COLOUR_NAMES = {"blue": N_("blue"), "green": N_("green"), "red": N_("red"), "yellow": N_("yellow")}
ANIMAL_NAMES: dict[str, str] = {
    "BEAR": N_("Bear"), "CAT": N_("Cat"), "COW": N_("Cow"), "DOG": N_("Dog"), "DUCK": N_("Duck"),
    "ELEPHANT": N_("Elephant"), "FOX": N_("Fox"), "FROG": N_("Frog"), "GIRAFFE": N_("Giraffe"),
    "HORSE": N_("Horse"), "LION": N_("Lion"), "MONKEY": N_("Monkey"), "OWL": N_("Owl"),
    "PANDA": N_("Panda"), "PENGUIN": N_("Penguin"), "PIG": N_("Pig"), "RABBIT": N_("Rabbit"),
    "TIGER": N_("Tiger"), "ZEBRA": N_("Zebra"), "UNICORN": N_("Unicorn"), "DRAGON": N_("Dragon"),
}  # fmt: skip
assert set(ANIMAL_NAMES) >= set(KIDS_ANIMALS)


def card_label(card: Card, _: Gettext) -> str:
    """A card for people, in the player's language: ``10♠``, ``Lion``."""
    if card >= KIDS_FIRST:
        return _(ANIMAL_NAMES[card_symbol(card).upper()])
    return card_symbol(card)


def card_style(card: Card) -> Style:
    """Red suits red, black suits bright; Kids cards plain."""
    text = card_symbol(card)
    if text.endswith(("♥", "♦")):
        return Style(color="#ff6b6b")
    return Style(color="bright_white")


def team_style(view: View, team: int) -> Style:
    bg, fg = COLOURS.get(view.config.spec.colours[team], ("grey50", "white"))
    return Style(bgcolor=bg, color=fg, bold=True)


def team_badge(view: View, team: int, _: Gettext) -> Text:
    """The team's symbol on its colour, then its colour's name: `● blue`."""
    colour = view.config.spec.colours[team]
    out = Text(f" {TEAM_SYMBOLS[team]} ", style=team_style(view, team))
    out.append(" " + _(COLOUR_NAMES.get(colour, colour)))
    return out


def space_label(view: View, space: int, _: Gettext) -> str:
    """What a space shows: a card, an animal or a number."""
    layout = view.config.spec.layout
    if layout.numbered:
        return str(layout.labels[space])
    return card_label(layout.labels[space], _)


@dataclass(frozen=True)
class Marks:
    """What the board highlights besides the chips."""

    targets: frozenset[int] = frozenset()
    """Spaces the chosen card (or the Dice roll) can go to."""
    removals: frozenset[int] = frozenset()
    """Chips the chosen card (a one-eyed Jack, a Dragon, a roll of 10) can remove or replace."""
    cursor: int | None = None
    last: int | None = None
    """The space of the last move."""


class BoardWidget(Widget):
    """The board: a label on every space, chips in team colours and symbols, free corners.

    Completed sequences are underlined with ``=`` in the cell's margin; the last move has a
    ``•``; spaces the chosen card can take have a ``+`` (or ``x`` for a chip it can remove).
    Larger terminals get larger cells. Clicking a space posts :class:`BoardWidget.SpaceClicked`.
    """

    DEFAULT_CSS = """
    BoardWidget { width: 1fr; height: 1fr; min-width: 40; }
    """

    class SpaceClicked(Message):
        """A space was clicked."""

        def __init__(self, space: int) -> None:
            self.space = space
            super().__init__()

    def __init__(self, gettext: Gettext, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._ = gettext
        self.view: View | None = None
        self.marks = Marks()

    def show(self, view: View, marks: Marks) -> None:
        """Draw ``view`` with ``marks``."""
        self.view = view
        self.marks = marks
        self.refresh()

    def _geometry(self) -> tuple[int, int]:
        """Cell width and height for the widget's size."""
        assert self.view is not None
        layout = self.view.config.spec.layout
        width = max(4, min(11, (self.size.width - 3) // layout.cols))
        height = 2 if self.size.height >= 2 * layout.rows + 1 else 1
        return width, height

    def _two_lines(self) -> bool:
        return self._geometry()[1] == 2

    def space_at(self, x: int, y: int) -> int | None:
        """The space under widget coordinates ``(x, y)``, if any."""
        if self.view is None:
            return None
        layout = self.view.config.spec.layout
        width, height = self._geometry()
        if x < 3 or y < 1:
            return None
        col, row = (x - 3) // width, (y - 1) // height
        if 0 <= col < layout.cols and 0 <= row < layout.rows:
            return row * 10 + col
        return None

    def cell_offset(self, space: int) -> tuple[int, int]:
        """Widget coordinates of the middle of a space's cell (for clicks in tests)."""
        width, height = self._geometry()
        row, col = divmod(space, 10)
        return 3 + col * width + width // 2, 1 + row * height

    def render(self) -> Text:
        view = self.view
        if view is None:
            return Text("")
        _ = self._
        layout = view.config.spec.layout
        width, height = self._geometry()
        locked = view.locked
        out = Text("   ")
        for c in range(layout.cols):
            out.append(f"{'abcdefghij'[c]:^{width}}", style="dim")
        for r in range(layout.rows):
            for line in range(height):
                out.append("\n")
                out.append(f"{r + 1:>2} " if line == 0 else "   ", style="dim")
                for c in range(layout.cols):
                    space = r * 10 + c
                    out.append_text(
                        self._cell(view, space, width, line, bool(locked >> space & 1), _)
                    )
        return out

    def _cell(
        self, view: View, space: int, width: int, line: int, locked: bool, _: Gettext
    ) -> Text:
        layout = view.config.spec.layout
        marks = self.marks
        team = view.chip_at(space)
        free = bool(layout.free >> space & 1)
        body_width = width - 1
        if space in marks.targets:
            gutter, gutter_style = "+", Style(color="black", bgcolor="#7fe08a", bold=True)
        elif space in marks.removals:
            gutter, gutter_style = "x", Style(color="black", bgcolor="#ffb347", bold=True)
        elif locked and team is not None:  # a sequence says more than the last move
            gutter, gutter_style = "=", Style(color="bright_white", bold=True)
        elif space == marks.last:
            gutter, gutter_style = "•", Style(color="bright_yellow", bold=True)
        else:
            gutter, gutter_style = " ", Style()
        if free:
            body = f"{FREE_SYMBOL:^{body_width}}" if line == 0 else " " * body_width
            style = Style(color="#ffd75f", bgcolor="#3a3a3a", bold=True)
        elif team is not None:
            label = space_label(view, space, _)
            symbol = TEAM_SYMBOLS[team]
            room = body_width - 1
            if len(label) > room and self._two_lines():  # a long name goes on in the next line
                text = symbol + label[:room] if line == 0 else label[room:]
            else:
                text = f"{symbol}{label}" if line == 0 else symbol * 2
            body = f"{text[:body_width]:<{body_width}}"
            style = team_style(view, team) + Style(underline=locked)
        else:
            label = space_label(view, space, _)
            if len(label) > body_width and self._two_lines():  # Kids: "Gira" / "ffe"
                label = label[body_width * line : body_width * (line + 1)]
            elif line:
                label = ""
            if layout.numbered:
                body = f"{label:^{body_width}}"
            else:
                body = f"{label[:body_width]:<{body_width}}"
            style = (
                card_style(layout.labels[space])
                if not layout.numbered
                else Style(color="bright_white")
            )
            if space in marks.targets:
                style += Style(bgcolor="#1f4f2a")
        if space == marks.cursor:
            style += Style(reverse=True)
            gutter_style += Style(reverse=True)
        out = Text(gutter, style=gutter_style)
        out.append(body, style=style)
        return out

    def on_click(self, event: events.Click) -> None:
        space = self.space_at(event.x, event.y)
        if space is not None:
            self.post_message(self.SpaceClicked(space))


@dataclass(frozen=True)
class HandItem:
    """One card shown in the hand bar."""

    card: Card
    playable: bool
    dead: bool


class HandBar(Widget):
    """The cards the player can choose from, numbered for the keyboard, clickable.

    Shows the hand of the seat to play (or the draft's face-up cards when one must be taken).
    A dead card carries a ``†``; a card with no legal use is dimmed; the chosen one is reversed.
    """

    DEFAULT_CSS = """
    HandBar { height: 2; width: 1fr; }
    """

    class CardClicked(Message):
        """The card at ``index`` was clicked."""

        def __init__(self, index: int) -> None:
            self.index = index
            super().__init__()

    def __init__(self, gettext: Gettext, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._ = gettext
        self.title = ""
        self.items: tuple[HandItem, ...] = ()
        self.selected: int | None = None
        self.note = ""
        self._spans: list[tuple[int, int, int]] = []

    def show(
        self, title: str, items: Iterable[HandItem], selected: int | None, note: str = ""
    ) -> None:
        self.title = title
        self.items = tuple(items)
        self.selected = selected
        self.note = note
        self.refresh()

    def render(self) -> Text:
        out = Text(self.title, style="bold")
        x = len(self.title)
        self._spans = []
        for i, item in enumerate(self.items):
            out.append(" ")
            x += 1
            chunk = f"{i + 1}:{card_label(item.card, self._)}{'†' if item.dead else ''}"
            style = card_style(item.card) + Style(bold=True)
            if not item.playable and not item.dead:
                style += Style(dim=True)
            if item.dead:
                style += Style(italic=True)
            if i == self.selected:
                style += Style(reverse=True)
            out.append(chunk, style=style)
            self._spans.append((x, x + len(chunk), i))
            x += len(chunk)
        if self.note:
            out.append("\n" + self.note, style="italic")
        return out

    def card_offset(self, index: int) -> tuple[int, int]:
        """Widget coordinates of a card (for clicks in tests)."""
        for start, _end, i in self._spans:
            if i == index:
                return start + 1, 0
        raise IndexError(index)

    def on_click(self, event: events.Click) -> None:
        if event.y != 0:
            return
        for start, end, i in self._spans:
            if start <= event.x < end:
                self.post_message(self.CardClicked(i))
                return


class _Lines:
    """Lines of text made of phrases, broken between phrases (never inside one) to fit
    ``width``; a continued line is indented."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.out = Text()
        self.x = 0

    def add(self, text: str | Text, style: str | Style = "", gap: str = " ") -> None:
        piece = text if isinstance(text, Text) else Text(text, style=style)
        if self.x and self.x + len(gap) + piece.cell_len > self.width:
            self.out.append("\n   ")
            self.x = 3
        elif self.x:
            self.out.append(gap)
            self.x += len(gap)
        self.out.append_text(piece)
        self.x += piece.cell_len

    def end(self) -> None:
        self.out.append("\n")
        self.x = 0


def players_text(
    view: View,
    names: list[str],
    _: Gettext,
    viewer: int | None,
    width: int = 1000,
    over: bool = False,
) -> Text:
    """The public table: per seat its team, hand size and discard-pile top; draw pile, sequences.

    Lines longer than ``width`` break between their phrases (a long name or a long word in
    another language never runs into the next row). ``over``: the game has ended although the
    rules have not ended it (a bot forfeited): nobody is to play, ``▶`` marks no seat."""
    cfg = view.config
    lines = _Lines(width)
    for team in range(cfg.teams):
        lines.add(team_badge(view, team, _))
        count = len(view.sequences[team])
        lines.add(
            _("sequences {count}/{needed}").format(count=count, needed=cfg.sequences_to_win),
            gap="  ",
        )
        lines.add(_("chips {n}").format(n=view.supply(team)), gap="  ")
        lines.end()
    for seat in range(cfg.players):
        team = cfg.team_of(seat)
        head = Text("▶" if seat == view.to_move and view.outcome is None and not over else " ")
        head.stylize("bold bright_yellow")
        head.append(TEAM_SYMBOLS[team], style=team_style(view, team))
        head.append(f" {names[seat]}", style="bold" if seat == viewer else "")
        lines.add(head)
        if cfg.spec.uses_cards:
            size = view.hand_sizes[seat]
            lines.add(_.ngettext("{n} card", "{n} cards", size).format(n=size), style="dim")
            pile = view.discards[seat]
            top = Text(_("discard:") + " ", style="dim")
            if pile:
                top.append(card_label(pile[-1], _), style=card_style(pile[-1]))
            else:
                top.append("–", style="dim")
            lines.add(top)
            if view.known_hands[seat]:
                known = " ".join(card_label(c, _) for c in view.known_hands[seat])
                lines.add(_("took {cards}").format(cards=known), style="dim")
        lines.end()
    out = lines.out
    if cfg.spec.uses_cards:
        pile_text = _.ngettext("Draw pile: {n} card", "Draw pile: {n} cards", view.deck_size)
        out.append(pile_text.format(n=view.deck_size) + "\n")
    if view.draft:
        out.append(_("Face up:") + " ")
        for card in view.draft:
            out.append(card_label(card, _) + " ", style=card_style(card))
        out.append("\n")
    # On the viewer's own turn the roll is on the hand bar's "Dice:" line: once is enough.
    if view.roll is not None and (viewer is None or viewer != view.to_move):
        a, b = view.roll
        out.append(
            _("Dice: {a} + {b} = {total}").format(a=a, b=b, total=a + b) + "\n", style="bold"
        )
    return out


def log_text(
    moves: tuple[Move, ...], players: int, _: Gettext, limit: int, current: int | None = None
) -> Text:
    """The last ``limit`` moves, numbered; ``current`` (1-based) is highlighted."""
    out = Text()  # the title's style only, not the whole text's (Text(style=) is a base style)
    out.append(_("Moves") + "\n", style="bold underline")
    numbered = list(enumerate(moves, start=1))
    if current is not None:
        end = max(current, min(len(numbered), limit))
        shown = numbered[max(0, end - limit) : end]
    else:
        shown = numbered[-limit:] if limit > 0 else []
    for number, move in shown:
        style = "reverse" if number == current else ""
        out.append(f"{number:>3}. {move}\n", style=style)
    return out


def story_text(lines: list[Text], title: str, width: int, height: int) -> Text:
    """The newest of ``lines`` that fit in ``height`` rows of ``width`` (each wraps), under the
    title: the latest moves stay in sight however long the game (or a loaded one) is."""
    console = Console(width=max(1, width), no_color=True, file=None, legacy_windows=False)
    out = Text()  # the title's style only, not the lines' too
    out.append(title + "\n", style="bold underline")
    room = max(0, height - 1)
    shown: list[Text] = []
    for line in reversed(lines):
        rows = len(line.wrap(console, max(1, width)))
        if rows > room:
            break
        room -= rows
        shown.append(line)
    for line in reversed(shown):
        out.append_text(line)
        out.append("\n")
    return out


def move_space(move: Move | None) -> int | None:
    """The space a move put a chip on or took one from, for marking the last move."""
    return None if move is None else move.space


def sequence_spaces(view: View) -> set[int]:
    out: set[int] = set()
    for seqs in view.sequences:
        for w in seqs:
            out.update(spaces_of(w))
    return out


__all__ = [
    "COLOURS",
    "N_",
    "TEAM_SYMBOLS",
    "BoardWidget",
    "Gettext",
    "HandBar",
    "HandItem",
    "Marks",
    "card_label",
    "log_text",
    "players_text",
    "space_name",
    "story_text",
    "team_badge",
]
