"""The browser client and the state deltas (issue 30): a page that misses one asks for the whole
state and shows the same game as the server.

Two seats play over Python WebSocket clients; a spectator's page in Chromium watches through a
Playwright WebSocket route that passes everything on, except one delta from the server, dropped.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from sequence.server.tables import protocol

from .conftest import Client, ServerThread, create_table, join, start

pytestmark = pytest.mark.browser


def play(clients: dict[int, Client], moves: int) -> None:
    """``moves`` legal moves, each by the seat to play, each seen by both seats."""
    for _ in range(moves):
        for c in clients.values():
            st = c.state
            assert st is not None
            if st["view"]["legal_moves"]:
                c.send(
                    {"type": "move", "move": st["view"]["legal_moves"][0], "version": st["version"]}
                )
                for other in clients.values():
                    other.wait_version(st["version"] + 1)
                break
        else:
            raise AssertionError("nobody to move")


def test_a_page_that_misses_a_delta_syncs_and_shows_the_whole_game(
    browser: Any, web: ServerThread
) -> None:
    created = create_table(web, game="kids", players=2, name="Ann", seat=0)
    code = created["code"]
    bob = join(web, code, "Bob")
    start(web, code, created["host_token"])
    clients = {0: Client(web, code, created["seat_token"]), 1: Client(web, code, bob["seat_token"])}
    for c in clients.values():
        c.wait(lambda s: s["view"] is not None)
    play(clients, 2)

    from_page: list[dict[str, Any]] = []
    from_server: list[dict[str, Any]] = []
    dropped: list[dict[str, Any]] = []

    def route(ws: Any) -> None:
        server = ws.connect_to_server()

        def down(text: str | bytes) -> None:
            msg = json.loads(text)
            from_server.append(msg)
            if msg["type"] == "delta" and msg["version"] >= 3 and not dropped:
                dropped.append(msg)  # lost on the way: the page never sees it
                return
            ws.send(text)

        def up(text: str | bytes) -> None:
            from_page.append(json.loads(text))
            server.send(text)

        server.on_message(down)
        ws.on_message(up)

    ctx = browser.new_context()
    page = ctx.new_page()
    page.route_web_socket("**/ws/**", route)
    page.goto(f"{web.url}/t/{code}")
    page.wait_for_selector("#board")
    assert page.evaluate("() => window.seq.msg.version") == 2
    play(clients, 4)
    table = web.hub.registry.tables[code]
    page.wait_for_function(f"() => window.seq.msg.version === {table.version}", timeout=15000)
    assert dropped, "no delta was dropped"
    # After the gap, the page asked for the whole state once, and got it.
    assert [m["type"] for m in from_page].count("sync") == 1
    assert any(m["type"] == "state" and m["version"] > 2 for m in from_server)
    shown = page.evaluate("() => window.seq.msg.view")
    assert shown == json.loads(json.dumps(protocol.view_dict(table.state, None)))
    # The deltas before and after the gap were applied, not replaced by whole states.
    deltas = [m for m in from_server if m["type"] == "delta"]
    assert len(deltas) >= 3
    deadline = time.monotonic() + 5
    while page.evaluate("() => window.seq.resyncing") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert page.evaluate("() => window.seq.resyncing") is False
    for c in clients.values():
        c.close()
    ctx.close()
