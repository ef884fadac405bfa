"""The start screen: which game, how many players and teams, who sits where, options, seed.

Nothing here knows the rules: the player counts, the team choices and which option a game takes
come from the engine's game declarations and :func:`~sequence.engine.make_config` (see
:mod:`sequence.tui.session`), and a refused configuration shows the engine's reason. The screen
hands the session it starts to ``play`` (the app), so it imports no game screen.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from ..engine import ConfigError, dice_line_lengths, player_counts, takes_option, team_counts
from .drawing import LEVEL_NAMES
from .session import (
    GAME_CHOICES,
    HUMAN,
    MAX_SEATS,
    GameSetup,
    Session,
    bot_choices,
    default_bot,
)
from .widgets import N_, TEAM_SYMBOLS, Gettext


class MarkedCheckbox(Checkbox):
    """A checkbox that says its state without colour: ``[x]`` ticked, ``[ ]`` not (ASCII, so
    every terminal shows it)."""

    @property
    def _button(self) -> Content:
        style = self.get_visual_style("toggle--button")
        return Content.assemble("[", ("x" if self.value else " ", style), "]")


GAME_TITLES = {
    "classic": N_("Sequence (2-12 players, teams)"),
    "kids": N_("Sequence for Kids (2-4 players)"),
    "dice": N_("Sequence Dice (2-4 players)"),
    "draft": N_("Sequence, draft tournament variant (2 or 4)"),
}


class StartScreen(Screen[None]):
    """Choose a game and start it: ``play`` receives the new session."""

    DEFAULT_CSS = """
    StartScreen { align: center top; }
    #form { width: 78; max-width: 100%; height: 1fr; padding: 0 1; }
    #form Label { width: 14; padding: 0 1 0 0; }
    #form Horizontal { height: 1; margin: 0 0 0 0; }
    #form Select { width: 1fr; }
    #form Input { width: 20; }
    #form Checkbox { width: auto; margin: 0 2 0 0; }
    #form .options { height: 1; margin: 1 0 0 0; }
    #form #comfort { margin: 0 0 1 0; }
    #title { text-style: bold; width: 1fr; content-align: center middle; height: 1; }
    #error { color: $error; height: auto; margin: 0 0 1 0; }
    #form #buttons { height: 3; margin: 1 0 0 0; }
    #buttons Button { margin: 0 2 0 0; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "start", show=False),
        Binding("escape", "quit", show=False),
    ]

    def __init__(
        self,
        gettext: Gettext,
        play: Callable[[Session], None],
        setup: GameSetup | None = None,
    ) -> None:
        super().__init__()
        self._ = gettext
        self.setup = setup or GameSetup(seats=(HUMAN,))
        self.play = play

    def compose(self) -> ComposeResult:
        _ = self._
        setup = self.setup
        kinds = list(setup.seats) or [HUMAN]
        kinds += [default_bot()] * (MAX_SEATS - len(kinds))
        # The bots offered, and any other the last game had (a user's module:Class): a new game
        # keeps its seats as they were.
        offered = list(bot_choices())
        offered += [k for k in dict.fromkeys(setup.seats) if k != HUMAN and k not in offered]
        seat_options = [(_("Human"), HUMAN)] + [
            (_("Computer: {level}").format(level=_(LEVEL_NAMES.get(b, b))), b) for b in offered
        ]
        with VerticalScroll(id="form"):
            yield Static(_("Sequence — a new game"), id="title")
            with Horizontal():
                yield Label(_("Game"))
                yield Select(
                    [(_(GAME_TITLES[g]), g) for g in GAME_CHOICES],
                    value=setup.game,
                    allow_blank=False,
                    compact=True,
                    id="game",
                )
            with Horizontal():
                yield Label(_("Players"))
                counts = player_counts(setup.game)
                yield Select(
                    [(str(n), n) for n in counts],
                    value=setup.players if setup.players in counts else counts[0],
                    allow_blank=False,
                    compact=True,
                    id="players",
                )
            with Horizontal():
                yield Label(_("Teams"))
                yield Select(
                    [(str(n), n) for n in (2, 3)], allow_blank=False, compact=True, id="teams"
                )
            for seat in range(MAX_SEATS):
                with Horizontal(id=f"seat-row-{seat}"):
                    yield Label(_("Seat {n}").format(n=seat + 1), id=f"seat-label-{seat}")
                    value = kinds[seat] if kinds[seat] in [v for _l, v in seat_options] else HUMAN
                    yield Select(
                        seat_options,
                        value=value,
                        allow_blank=False,
                        compact=True,
                        id=f"seat-{seat}",
                    )
            with Horizontal(classes="options"):
                yield MarkedCheckbox(_("Difficult"), setup.difficult, id="difficult", compact=True)
                yield MarkedCheckbox(
                    _("Manual draw"), setup.manual_draw, id="manual_draw", compact=True
                )
            with Horizontal(classes="options", id="comfort"):
                yield MarkedCheckbox(_("Undo"), setup.undo_allowed, id="undo", compact=True)
                yield MarkedCheckbox(_("Bell on your turn"), setup.bell, id="bell", compact=True)
            with Horizontal(id="line-row"):
                yield Label(_("Line length"))
                yield Select(
                    [(str(n), n) for n in dice_line_lengths()],
                    value=setup.line_length,
                    allow_blank=False,
                    compact=True,
                    id="line",
                )
            with Horizontal():
                yield Label(_("Seed"))
                # Only a seed the player chose is shown: a random one would give every hand away.
                yield Input(
                    "" if setup.seed is None else str(setup.seed),
                    placeholder=_("random"),
                    type="integer",
                    compact=True,
                    id="seed",
                )
            yield Static("", id="error")
            with Horizontal(id="buttons"):
                yield Button(_("Start"), variant="primary", id="start")
                yield Button(_("Quit"), id="quit")

    def on_mount(self) -> None:
        self._update_players()
        self.query_one("#start", Button).focus()

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "game":
            players = self.query_one("#players", Select)
            counts = player_counts(str(event.value))
            current = players.value
            players.set_options([(str(n), n) for n in counts])
            players.value = current if current in counts else counts[0]
        if event.select.id in ("game", "players", "teams"):
            self._update_players()

    def _update_players(self) -> None:
        _ = self._
        game = str(self.query_one("#game", Select).value)
        players_value = self.query_one("#players", Select).value
        players = int(players_value) if isinstance(players_value, int) else 2
        teams_select = self.query_one("#teams", Select)
        choices = list(team_counts(game, players))
        current = teams_select.value
        if [v for _l, v in teams_select._options if v is not Select.NULL] != choices:
            teams_select.set_options([(str(n), n) for n in choices])
            wanted = self.setup.teams if self.setup.teams in choices else choices[0]
            teams_select.value = current if current in choices else wanted
        teams = teams_select.value if isinstance(teams_select.value, int) else choices[0]
        for seat in range(MAX_SEATS):
            self.query_one(f"#seat-row-{seat}").display = seat < players
            label = _("Seat {n}").format(n=seat + 1)
            self.query_one(f"#seat-label-{seat}", Label).update(
                f"{label} {TEAM_SYMBOLS[seat % teams]}"
            )
        self.query_one("#difficult").display = takes_option(game, "difficult")
        self.query_one("#manual_draw").display = takes_option(game, "manual_draw")
        self.query_one("#line-row").display = takes_option(game, "dice_line_length")

    def chosen(self) -> GameSetup:
        """The setup the form describes (not yet checked)."""
        game = str(self.query_one("#game", Select).value)
        players = int(self.query_one("#players", Select).value)  # type: ignore[arg-type]
        teams_value = self.query_one("#teams", Select).value
        seed_text = self.query_one("#seed", Input).value.strip()
        seats = tuple(str(self.query_one(f"#seat-{s}", Select).value) for s in range(players))
        return replace(
            self.setup,
            game=game,
            players=players,
            teams=int(teams_value) if isinstance(teams_value, int) else None,
            seats=seats,
            difficult=self.query_one("#difficult", Checkbox).value
            and takes_option(game, "difficult"),
            manual_draw=self.query_one("#manual_draw", Checkbox).value
            and takes_option(game, "manual_draw"),
            line_length=int(self.query_one("#line", Select).value)  # type: ignore[arg-type]
            if takes_option(game, "dice_line_length")
            else 5,
            seed=_seed(seed_text),
            undo=self.query_one("#undo", Checkbox).value,
            bell=self.query_one("#bell", Checkbox).value,
        )

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()
        elif event.button.id == "quit":
            self.action_quit()

    def action_start(self) -> None:
        setup = self.chosen()
        try:
            session = Session.start(setup)
        except (ConfigError, ValueError) as exc:
            self.query_one("#error", Static).update(
                self._("Cannot start: {reason}").format(reason=self._.error(exc))
            )
            return
        self.play(session)

    def action_quit(self) -> None:
        self.app.exit(0)


def _seed(text: str) -> int | None:
    """The seed typed on the start screen (``+5`` too); blank or not a number: a random one.

    >>> _seed("+5"), _seed(""), _seed("x")
    (5, None, None)
    """
    try:
        return int(text)
    except ValueError:
        return None
