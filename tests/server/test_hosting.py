"""Hosting for friends (issue 32): a server listening on the network invites with an address
their devices reach, a public URL overrides it, and ``sequence serve`` says which."""

from __future__ import annotations

import ipaddress
import socket
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from sequence.cli.main import main
from sequence.server.web.address import invite_base, is_loopback, lan_address, public_url_problem
from sequence.server.web.tables import invite_qr_svg

from .conftest import ServerThread, create_table, free_port


def test_where_invite_links_point() -> None:
    # On the loopback only: the address the browser used (None), the only one that reaches it.
    for host in ("127.0.0.1", "localhost", "::1", "127.0.1.1"):
        assert invite_base(host, 8000) is None, host
    # On every address: this machine's address on the network, never a loopback one.
    lan = lan_address()
    assert lan is not None, "this machine has no network address but the loopback"
    assert not ipaddress.ip_address(lan).is_loopback and lan != "0.0.0.0"
    assert invite_base("0.0.0.0", 8080) == f"http://{lan}:8080"
    assert invite_base("::", 8080) == f"http://{lan}:8080"
    # On one network address: that one.
    assert invite_base("10.0.0.5", 8001) == "http://10.0.0.5:8001"
    assert invite_base("fd00::5", 8001) == "http://[fd00::5]:8001"
    # A public URL wins over all of them, without a trailing slash.
    for host in ("127.0.0.1", "0.0.0.0"):
        assert invite_base(host, 8001, "https://example.org/") == "https://example.org"
    assert invite_base("127.0.0.1", 8001, "https://example.org/play") == "https://example.org/play"
    assert is_loopback("[::1]") and not is_loopback("192.168.1.20")


def test_a_public_url_that_cannot_start_a_link_is_refused() -> None:
    assert public_url_problem("https://example.org") is None
    assert public_url_problem("http://192.168.1.20:8000/") is None
    for bad in ("example.org", "ftp://example.org", "https://", "https://x.org/?a=1", "x.org#y"):
        problem = public_url_problem(bad)
        assert problem is not None and repr(bad) in problem, bad


def test_a_server_listening_on_the_network_invites_with_an_address_friends_reach(
    sqlite_url: str,
) -> None:
    port = free_port()
    base = invite_base("0.0.0.0", port)
    assert base is not None
    with ServerThread(sqlite_url, host="0.0.0.0", port=port, invite_base=base) as server:
        code = create_table(server, game="kids", players=2)["code"]
        with server.http() as http:  # the host's own browser, at http://127.0.0.1:PORT
            said = http.get("/api/meta").json()["invite_base"]
            assert said == base
            host = urlsplit(said).hostname
            assert host and not ipaddress.ip_address(host).is_loopback
            # The QR code holds that link, not the address the request came by.
            qr = http.get(f"/api/tables/{code}/qr.svg").text
            assert qr == invite_qr_svg(f"{base}/t/{code}")
            assert qr != invite_qr_svg(f"{server.url}/t/{code}")
        # And a device elsewhere on the network reaches the table by it.
        with httpx.Client(timeout=20) as friend:
            assert friend.get(f"{base}/t/{code}").status_code == 200
            assert friend.get(f"{base}/api/tables/{code}").json()["code"] == code


def test_a_server_on_the_loopback_invites_with_the_address_the_browser_used(
    server: ServerThread,
) -> None:
    code = create_table(server, game="kids", players=2)["code"]
    with server.http() as http:
        assert http.get("/api/meta").json()["invite_base"] is None
        assert http.get(f"/api/tables/{code}/qr.svg").text == invite_qr_svg(
            f"{server.url}/t/{code}"
        )


def _served(monkeypatch: pytest.MonkeyPatch, args: list[str]) -> dict[str, Any]:
    """What ``sequence serve ARGS`` hands uvicorn (which is not started)."""
    import uvicorn

    handed: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: handed.update(app=app, **kw))
    assert main(["serve", *args]) == 0
    return handed


def test_serve_on_the_network_says_the_address_friends_open(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = f"sqlite:///{tmp_path / 'x.db'}"
    port = str(free_port())
    monkeypatch.delenv("SEQUENCE_PUBLIC_URL", raising=False)
    handed = _served(monkeypatch, ["--host", "0.0.0.0", "--port", port, "--db", db])
    assert handed["host"] == "0.0.0.0"
    out = capsys.readouterr().out
    assert out.startswith(f"Sequence: open http://{lan_address()}:{port}/ (database"), out
    _served(monkeypatch, ["--port", port, "--db", db])
    assert capsys.readouterr().out.startswith(f"Sequence: open http://127.0.0.1:{port}/")
    monkeypatch.setenv("SEQUENCE_PUBLIC_URL", "https://example.org")  # as in sequence.env
    _served(monkeypatch, ["--port", port, "--db", db])
    assert capsys.readouterr().out.startswith(
        f"Sequence: open https://example.org/ (listening on http://127.0.0.1:{port}, database"
    )
    monkeypatch.delenv("SEQUENCE_PUBLIC_URL")
    assert main(["serve", "--port", port, "--db", db, "--public-url", "example.org"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == (
        "sequence serve: --public-url is http(s)://HOST[:PORT][/PATH], not 'example.org'"
    )


@pytest.mark.browser
def test_the_lobby_shows_and_copies_the_network_link(browser: Any, sqlite_url: str) -> None:
    port = free_port()
    base = invite_base("0.0.0.0", port)
    with ServerThread(sqlite_url, host="0.0.0.0", port=port, invite_base=base) as server:
        created = create_table(server, game="classic", players=2, name="Ann", seat=0)
        code = created["code"]
        for size in ({"width": 390, "height": 844}, {"width": 1280, "height": 800}):
            ctx = browser.new_context(
                viewport=size, permissions=["clipboard-read", "clipboard-write"]
            )
            page = ctx.new_page()
            page.goto(server.url + "/")  # the host opened it on the loopback
            page.evaluate(
                f"() => {{ localStorage.setItem('seq.seat.{code}', '{created['seat_token']}');"
                f" localStorage.setItem('seq.host.{code}', '{created['host_token']}'); }}"
            )
            page.goto(server.url + f"/t/{code}")
            page.wait_for_selector("#share")
            link = page.inner_text("#share")
            assert link == f"{base}/t/{code}"
            assert not is_loopback(urlsplit(link).hostname or "")
            assert page.get_attribute("#share", "href") == link
            page.click("#copy-link")
            page.wait_for_selector("#copied:has-text('Copied')")
            assert page.evaluate("() => navigator.clipboard.readText()") == link
            assert page.evaluate("() => document.querySelector('#invite-qr').naturalWidth") > 0
            ctx.close()


def test_the_lan_address_is_one_this_machine_listens_on() -> None:
    lan = lan_address()
    assert lan is not None
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((lan, 0))  # only an address of this machine can be bound
