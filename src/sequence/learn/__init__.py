"""First games that teach: a prepared deal for each game, step by step, with a scripted opponent.

The lesson scripts live once here (:mod:`.lessons`), below the front ends: the terminal
(``sequence learn``) and the browser render the same :class:`LessonGame`. This package sits
between the front ends and the bots and catalogues (``docs/architecture.md``): it reads the
engine's rules and the catalogues' words, and no front end.
"""

from .game import LessonGame, LessonRefusal, step_words
from .lessons import LESSONS, Lesson, Step

__all__ = ["LESSONS", "Lesson", "LessonGame", "LessonRefusal", "Step", "step_words"]
