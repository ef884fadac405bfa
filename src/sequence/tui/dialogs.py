"""Small modal screens of the terminal game: hand-over, save, game over, penalty, help."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from .widgets import Gettext

DIALOG_CSS = """
{name} {{ align: center middle; }}
{name} > Vertical {{
    width: 60; height: auto; max-width: 95%; border: thick $accent; background: $surface;
    padding: 1 2;
}}
{name} Button {{ margin: 1 1 0 0; }}
{name} .title {{ text-style: bold; }}
"""


class HandoffScreen(ModalScreen[None]):
    """Hides the table between two human seats until the next player is ready (hotseat)."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="HandoffScreen") + "HandoffScreen { background: $background 100%; }"
    )
    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,space", "ready", "Ready")]

    def __init__(self, player: str, gettext: Gettext) -> None:
        super().__init__()
        self.player = player
        self._ = gettext

    def compose(self) -> ComposeResult:
        _ = self._
        with Vertical():
            yield Static(
                _("Pass the keyboard to {player}.").format(player=self.player), classes="title"
            )
            yield Static(
                _("Everyone else, look away: the next screen shows {player}'s hand.").format(
                    player=self.player
                )
            )
            yield Button(
                _("I am {player}: show my hand (Enter)").format(player=self.player),
                id="ready",
                variant="primary",
            )

    def action_ready(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(None)


class SaveScreen(ModalScreen[Path | None]):
    """Asks for a file name; returns the path (or ``None`` when cancelled)."""

    DEFAULT_CSS = DIALOG_CSS.format(name="SaveScreen")
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, default: str, gettext: Gettext) -> None:
        super().__init__()
        self.default = default
        self._ = gettext

    def compose(self) -> ComposeResult:
        _ = self._
        with Vertical():
            yield Static(_("Save the game"), classes="title")
            yield Static(_("File name (Enter to save, Escape to cancel):"))
            yield Input(self.default, id="path")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        self.dismiss(Path(text).expanduser() if text else None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class GameOverScreen(ModalScreen[str]):
    """The result; returns ``new``, ``save``, ``quit`` or ``look`` (close and look at the board)."""

    DEFAULT_CSS = DIALOG_CSS.format(name="GameOverScreen")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n,N", "choose('new')", "New game"),
        Binding("s,S", "choose('save')", "Save"),
        Binding("q,Q", "choose('quit')", "Quit"),
        Binding("escape", "choose('look')", "Look at the board"),
    ]

    def __init__(self, result: str, detail: str, gettext: Gettext) -> None:
        super().__init__()
        self.result = result
        self.detail = detail
        self._ = gettext

    def compose(self) -> ComposeResult:
        _ = self._
        with Vertical():
            yield Static(self.result, classes="title", id="result")
            yield Static(self.detail)
            yield Button(_("New game (N)"), id="new", variant="primary")
            yield Button(_("Save (S)"), id="save")
            yield Button(_("Quit (Q)"), id="quit")
            yield Button(_("Look at the board (Esc)"), id="look")

    def action_choose(self, what: str) -> None:
        self.dismiss(what)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "look")


class QuitScreen(ModalScreen[str | None]):
    """Quit a game in progress? Returns ``save`` (save, then quit), ``quit`` or ``None``."""

    DEFAULT_CSS = DIALOG_CSS.format(name="QuitScreen")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s,S", "choose('save')", "Save and quit"),
        Binding("q,Q", "choose('quit')", "Quit"),
        Binding("escape", "choose(None)", "Cancel"),
    ]

    def __init__(self, gettext: Gettext) -> None:
        super().__init__()
        self._ = gettext

    def compose(self) -> ComposeResult:
        _ = self._
        with Vertical():
            yield Static(_("Quit the game?"), classes="title")
            yield Static(_("The game is not saved: it ends here unless you save it."))
            yield Button(_("Save, then quit (S)"), id="save", variant="primary")
            yield Button(_("Quit without saving (Q)"), id="quit")
            yield Button(_("Cancel (Esc)"), id="cancel")

    def action_choose(self, what: str | None) -> None:
        self.dismiss(what)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id if event.button.id in ("save", "quit") else None)


class PenaltyScreen(ModalScreen[int | None]):
    """Table talk: choose the team that must give up a card each (only teams the engine allows)."""

    DEFAULT_CSS = DIALOG_CSS.format(name="PenaltyScreen")
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, teams: list[tuple[int, str]], gettext: Gettext) -> None:
        super().__init__()
        self.teams = teams
        self._ = gettext

    def compose(self) -> ComposeResult:
        _ = self._
        with Vertical():
            yield Static(_("Table talk penalty"), classes="title")
            yield Static(_("Which team coached a team-mate? Every member of it gives up one card."))
            for team, label in self.teams:
                yield Button(label, id=f"team-{team}")
            yield Button(_("Cancel (Esc)"), id="cancel")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        ident = event.button.id or ""
        self.dismiss(int(ident.removeprefix("team-")) if ident.startswith("team-") else None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class HelpScreen(ModalScreen[None]):
    """The keys; how to close it first, then the list, which scrolls where the terminal is too
    small for it (80x24)."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 78; height: auto; max-width: 100%; max-height: 100%; border: thick $accent;
        background: $surface; padding: 0 1;
    }
    HelpScreen .title { text-style: bold; }
    HelpScreen #close-help { color: $text-muted; margin-bottom: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,question_mark,q", "close", "Close")
    ]

    def __init__(self, text: str, gettext: Gettext) -> None:
        super().__init__()
        self.text = text
        self._ = gettext

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(self._("How to play at the keyboard"), classes="title")
            yield Static(self._("Escape (or ?) closes this help."), id="close-help")
            yield Static(self.text)

    def action_close(self) -> None:
        self.dismiss(None)
