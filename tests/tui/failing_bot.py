"""A user's bot with a bug, for the tests of how the terminal game shows a failing bot.

Its own module, so the file and line its failure names (``failing_bot.py:LINE``), which the
snapshots show, do not move when a test file is edited.
"""

from __future__ import annotations

from sequence.bots import Bot


class Failing(Bot):
    """Raises KeyError on every move."""

    def choose(self, view: object) -> object:
        return {}[7]
