"""Shared test set-up.

Tests that need PostgreSQL, Chromium or another real component skip with a clear reason on a
machine without it. With ``SEQUENCE_STRICT=1`` (set by ``.ci/run``) a skip is a failure: CI
installs everything, so nothing may be skipped there.
"""

from __future__ import annotations

import os

import pytest

STRICT = os.environ.get("SEQUENCE_STRICT") == "1"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):  # type: ignore[no-untyped-def]
    outcome = yield
    report = outcome.get_result()
    if STRICT and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.longrepr = f"skipped under SEQUENCE_STRICT=1 (CI must run every test): {reason}"
