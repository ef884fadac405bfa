"""Engine tests: make the shared helpers in ``engine_testkit.py`` importable.

The project runs pytest with ``--import-mode=importlib``, which does not put test folders on
``sys.path``; this folder is added here so every test module can ``import engine_testkit``.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)
