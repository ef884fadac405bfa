"""i18n tests: the engine tests' helpers (``engine_testkit.py``) build the positions here too.

The project runs pytest with ``--import-mode=importlib``, which does not put test folders on
``sys.path``; the engine tests' folder is added so ``import engine_testkit`` works.
"""

from __future__ import annotations

import sys
from pathlib import Path

ENGINE_TESTS = str(Path(__file__).resolve().parent.parent / "engine")
if ENGINE_TESTS not in sys.path:
    sys.path.insert(0, ENGINE_TESTS)
