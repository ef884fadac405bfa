"""The terminal game and the replay viewer (Textual), started by ``sequence play`` and
``sequence replay``. Importing this package loads no Textual: the commands ask
:func:`on_a_terminal` first."""

from __future__ import annotations

import sys


def on_a_terminal() -> bool:
    """Whether a full-screen app can run here: standard input and output are both a terminal
    (not ``</dev/null``, a pipe or a file, where Textual would wait for keys that never come)."""
    return sys.stdin.isatty() and sys.stdout.isatty()
