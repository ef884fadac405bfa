"""Imported first by the Python scripts here: with a Python that lacks the ``sequence`` package,
run the script again with the project's ``.venv/bin/python``.

The scripts start with ``#!/usr/bin/env python3`` so that ``scripts/loadtest.py ...`` runs as the
docs write it; that line finds the first ``python3`` on PATH, which is seldom the virtual
environment's (it is not activated). ``.venv/bin/python scripts/loadtest.py`` works as well.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

VENV = Path(__file__).resolve().parents[1] / ".venv"
PYTHON = VENV / "bin" / "python"

if (
    importlib.util.find_spec("sequence") is None
    and PYTHON.exists()
    and Path(sys.prefix).resolve() != VENV.resolve()  # .venv's own Python lacks it: say so
):
    os.execv(PYTHON, [str(PYTHON), *sys.argv])
