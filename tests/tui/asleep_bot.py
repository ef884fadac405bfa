"""A bot that never answers in time, for the test of ``sequence play --bot-time-limit``."""

from __future__ import annotations

import threading
from typing import Any

from sequence.bots import Bot


class Asleep(Bot):
    """Waits ``seconds`` (longer than any limit a test sets), then plays the first legal move:
    an answer the game must no longer take."""

    seconds = 5.0

    def choose(self, view: Any) -> Any:
        threading.Event().wait(self.seconds)
        return view.legal_moves[0]
