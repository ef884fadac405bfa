"""schemathesis against the server's own OpenAPI description, in process (ASGI).

Every operation gets valid and invalid requests (bounded, deterministic: 25 of each mode an
operation, about 2,000 cases, a minute or two on two cores). The checks, both ways:

- no answer is a 5xx; every answer fits the description (its status is declared, its content
  type and body match), and every refusal is the API's ``{error, message}``;
- a request that fits the description is never refused as malformed (400): the rules or the
  table may refuse it (422, 403, 404, 409, 429), schemathesis's ``positive_data_acceptance``;
- a request that does not fit it is refused as malformed (400, or 413 past the body limit) and
  changes nothing: ``negative_data_rejection``, stricter than schemathesis's default (which
  takes any 4xx), so that the description states every constraint the models enforce.
"""

from __future__ import annotations

import itertools
import re
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

schemathesis = pytest.importorskip("schemathesis")

from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis import GenerationMode  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    content_type_conformance,
    negative_data_rejection,
    positive_data_acceptance,
    response_schema_conformance,
    status_code_conformance,
)

from sequence.learn import LESSONS  # noqa: E402
from sequence.server.accounts.account import Passwords  # noqa: E402
from sequence.server.tables import protocol  # noqa: E402
from sequence.server.tables.models import TABLE_CODE  # noqa: E402
from sequence.server.web.app import create_app  # noqa: E402

DB = Path(tempfile.mkdtemp(prefix="sequence-fuzz-")) / "fuzz.db"
APP = create_app(
    db=f"sqlite:///{DB}",
    bot_delay=0,
    create_rate=1000,
    create_burst=1000,
    join_rate=1000,
    join_burst=1000,
    # Cheap hashes: the fuzz checks what the API answers, not the hashes' cost (every sign-in
    # hashes, even for a name nobody has).
    passwords=Passwords(time_cost=1, memory_kib=8192, parallelism=1),
)
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)
schema.config.generation.update(
    modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE],
    max_examples=25,
    deterministic=True,
    database="none",
)
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    positive_data_acceptance,
    negative_data_rejection,
]
# Data that fits may be refused by the rules (422), the session (401), the tokens (403), the
# tables (404, 409) or the rate limits (429); never as malformed (400).
schema.config.checks.positive_data_acceptance.expected_statuses = [
    "2xx", "401", "403", "404", "409", "422", "429"
]  # fmt: skip
# Data that does not fit is refused as malformed: a 400, or a 413 when it is over the body limit
# (16 KiB: an array past its maxItems can be that large) and refused before its fields are read.
schema.config.checks.negative_data_rejection.expected_statuses = ["400", "413"]
CODES: list[str] = []
"""Tables made for the run (a full lobby, a finished game). Most cases that name a table are
sent to a fresh lobby or the finished game, so the fuzzer reaches what lies behind a table, not
only ``unknown_table``."""
_turn = itertools.count()
CASES: dict[str, int] = {"positive": 0, "negative": 0}
"""The cases sent, by mode (printed at the end of the module: ``pytest -s``)."""


@pytest.fixture(autouse=True, scope="module")
def _count_cases() -> Any:
    yield
    print(f"\nschemathesis cases: {CASES}")  # the figure the run reports (pytest -s)


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
    code = (case.path_parameters or {}).get("code")
    if isinstance(code, str) and re.fullmatch(TABLE_CODE, code):  # not a malformed code
        turn = next(_turn) % 4  # a quarter keep the generated code
        if turn in (1, 2):  # a fresh lobby with two open seats
            fresh = _call("POST", "/api/tables", {"game": "kids", "players": 2, "public": False})
            case.path_parameters["code"] = fresh["code"]
        elif turn == 3:
            case.path_parameters["code"] = CODES[1]
    if case.path == "/api/learn/{game}" and next(_turn) % 4:  # most to a lesson there is
        case.path_parameters["game"] = list(LESSONS)[next(_turn) % len(LESSONS)]
    before = _tables()
    CASES[case.meta.generation.mode.value] += 1
    response = case.call_and_validate(checks=CHECKS)
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
