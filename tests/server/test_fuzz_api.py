"""schemathesis against the server's own OpenAPI description, in process (ASGI).

Every operation gets valid and invalid requests (bounded, deterministic): no answer is a 5xx,
every answer fits the description (status, headers, body), an invalid request is refused, and a
refused request changes no table.
"""

from __future__ import annotations

import itertools
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

schemathesis = pytest.importorskip("schemathesis")

from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis import GenerationMode  # noqa: E402
from schemathesis.specs.openapi.checks import positive_data_acceptance  # noqa: E402

from sequence.server.tables import protocol  # noqa: E402
from sequence.server.web.app import create_app  # noqa: E402

DB = Path(tempfile.mkdtemp(prefix="sequence-fuzz-")) / "fuzz.db"
APP = create_app(
    db=f"sqlite:///{DB}",
    bot_delay=0,
    create_rate=1000,
    create_burst=1000,
    join_rate=1000,
    join_burst=1000,
)
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)
schema.config.generation.update(
    modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE],
    max_examples=25,
    deterministic=True,
    database="none",
)
# A request over the body limit (16 KiB) is refused with 413 before its fields are read: as much
# a refusal of invalid data as a 400 (an array past its maxItems can be that large).
_rejection = schema.config.checks.negative_data_rejection
_rejection.expected_statuses = [*_rejection.expected_statuses, "413"]
CODES: list[str] = []
"""Tables made for the run (a full lobby, a finished game). Most cases that name a table are
sent to a fresh lobby or the finished game, so the fuzzer reaches what lies behind a table, not
only ``unknown_table``."""
_turn = itertools.count()


def _tables() -> dict[str, Any]:
    """Every table in memory, as its public facts (the connections aside)."""
    hub = APP.state.hub()
    return {
        code: {k: v for k, v in protocol.table_meta(t).items() if k != "spectators"}
        for code, t in hub.registry.tables.items()
    }


def _call(method: str, path: str, body: Any = None, **path_parameters: str) -> Any:
    """A request through schemathesis's own ASGI client (the app's one running lifespan)."""
    operation = schema[path][method]
    if body is None:
        case = operation.Case(path_parameters=path_parameters or None)
    else:
        case = operation.Case(
            body=body, media_type="application/json", path_parameters=path_parameters or None
        )
    return case.call().json()


def _setup() -> None:
    if CODES:
        return
    lobby = {"game": "kids", "players": 2, "name": "Ann", "bots": [None, "random"]}
    codes = [_call("POST", "/api/tables", lobby)["code"]]
    short = {"game": "kids", "players": 2, "bots": ["random"] * 2, "options": {"max_turns": 2}}
    done = _call("POST", "/api/tables", short)
    _call("POST", "/api/tables/{code}/start", {"host_token": done["host_token"]}, code=done["code"])
    deadline = time.monotonic() + 60
    while _call("GET", "/api/tables/{code}", code=done["code"])["status"] != "finished":
        assert time.monotonic() < deadline, "the bots' game did not finish"
        time.sleep(0.05)
    CODES.extend([*codes, done["code"]])


@schema.parametrize()
@settings(
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_the_api_as_described(case: Any) -> None:
    _setup()
    if case.path_parameters and "code" in case.path_parameters:
        turn = next(_turn) % 4  # a quarter keep the generated code
        if turn in (1, 2):  # a fresh lobby with two open seats
            fresh = _call("POST", "/api/tables", {"game": "kids", "players": 2, "public": False})
            case.path_parameters["code"] = fresh["code"]
        elif turn == 3:
            case.path_parameters["code"] = CODES[1]
    before = _tables()
    response = case.call_and_validate(excluded_checks=[positive_data_acceptance])
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        assert response.json().keys() == {"error", "message"}
        after = _tables()  # a finished table may leave memory (the database keeps it)
        # (the finished game may have left memory and come back from the database)
        made = after.keys() - before.keys() - set(CODES)
        assert not made, f"a refused request made tables {made}: {response.text}"
        changed = [code for code in after if code in before and after[code] != before[code]]
        assert not changed, [
            {k: (before[c][k], after[c][k]) for k in after[c] if after[c][k] != before[c][k]}
            for c in changed
        ] + [response.text]
