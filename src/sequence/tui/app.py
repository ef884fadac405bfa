"""The terminal game's Textual application: the start screen, then the game screen.

It is the one place that knows both screens: the start screen hands it the session to play,
and the game screen asks it for a new game.

>>> from sequence.tui.app import SequenceApp
>>> from sequence.tui.session import GameSetup, Session
>>> app = SequenceApp(session=Session.start(GameSetup(seats=("human", "random"), seed=1)))
"""

from __future__ import annotations

from dataclasses import replace

from textual.app import App

from ..i18n import system_language
from .game import GameScreen
from .session import GameSetup, Session
from .start import StartScreen
from .turns import DEFAULT_TIME_LIMIT
from .widgets import Gettext


class SequenceApp(App[int]):
    """``sequence play``: opens on the start screen, or straight on a game when one is given."""

    TITLE = "Sequence"
    ENABLE_COMMAND_PALETTE = False

    def __init__(
        self,
        session: Session | None = None,
        setup: GameSetup | None = None,
        lang: str | None = None,
        bot_delay: float = 0.5,
        bot_time_limit: float | None = DEFAULT_TIME_LIMIT,
    ) -> None:
        super().__init__()
        self.session = session
        self.setup = setup
        self.gettext = Gettext(lang or system_language())
        self.lang = self.gettext.lang
        self.bot_delay = bot_delay
        self.bot_time_limit = bot_time_limit
        """Seconds a bot may think about a move (``--bot-time-limit``; ``None``: no limit)."""
        self.farewell: str | None = None
        """What to print once the app has ended and the terminal is back (``sequence play``
        prints it): where the game was saved, on "Save, then quit"."""

    def on_mount(self) -> None:
        if self.session is not None:
            self.push_screen(self._game(self.session))
        else:
            self.push_screen(StartScreen(self.gettext, self.play, self.setup))

    def _game(self, session: Session) -> GameScreen:
        # A loaded game has no setup of its own: the bell is the command line's choice.
        setup = session.setup or self.setup
        bell = setup is not None and setup.bell
        return GameScreen(
            session, self.gettext, self.bot_delay, new_game=self.new_game, bell=bell,
            bot_time_limit=self.bot_time_limit, say_on_exit=self.say_on_exit,
        )  # fmt: skip

    def say_on_exit(self, text: str) -> None:
        """Print ``text`` once the app has ended (:attr:`farewell`)."""
        self.farewell = text

    def play(self, session: Session) -> None:
        """Start playing ``session`` (the start screen's choice)."""
        self.switch_screen(self._game(session))

    def new_game(self) -> None:
        """Back to the start screen for another game, with the last game's settings (its seed
        aside: the next game is dealt anew)."""
        last = self.game_screen.session.setup if self.screen_stack else None
        last = last or self.setup
        setup = replace(last, seed=None) if last is not None else self.setup
        self.switch_screen(StartScreen(self.gettext, self.play, setup))

    @property
    def game_screen(self) -> GameScreen:
        """The game being played (for tests and tools); raises if none is on screen."""
        for screen in reversed(self.screen_stack):
            if isinstance(screen, GameScreen):
                return screen
        raise LookupError("no game on screen")
