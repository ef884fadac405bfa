"""Optional accounts (issue 16): signing up, in and out, sessions in the database, passwords,
deletion, export, seats that follow a signed-in player, and every refusal changing nothing;
on SQLite and on PostgreSQL."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select, update

from sequence.engine import GameRecord
from sequence.server.accounts.account import Passwords
from sequence.server.accounts.attempts import AttemptLimits, Limit
from sequence.server.storage.db import AccountRow, SessionRow, now
from sequence.server.storage.store import Store

from .conftest import Client, ServerThread, create_table, fresh_postgres, join, start

CHEAP = {"time_cost": 1, "memory_kib": 8192, "parallelism": 1}
"""Argon2id parameters for tests: the same algorithm, far less work."""
PASSWORD = "green tea at nine"


def account_server(db: str, **kwargs: Any) -> ServerThread:
    kwargs.setdefault("passwords", Passwords(**CHEAP))
    return ServerThread(db, bot_delay=0, rate=10_000, burst=10_000, **kwargs)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, sqlite_url: str) -> Iterator[str]:
    if request.param == "sqlite":
        yield sqlite_url
    else:
        with fresh_postgres() as url:
            yield url


@pytest.fixture
def srv(db_url: str) -> Iterator[ServerThread]:
    with account_server(db_url) as s:
        yield s


def unique(prefix: str = "p") -> str:
    return f"{prefix}{secrets.token_hex(4)}"


class Browser:
    """An HTTP client that keeps cookies and sends the session's CSRF token, as the page does."""

    def __init__(self, server: ServerThread) -> None:
        self.server = server
        self.http = httpx.Client(base_url=server.url, timeout=20)
        self.csrf: str | None = None
        self.answers: list[httpx.Response] = []

    def _remember(self, r: httpx.Response) -> httpx.Response:
        self.answers.append(r)
        if r.status_code == 200 and "csrf" in r.text:
            self.csrf = r.json().get("csrf")
        return r

    def post(self, path: str, body: Any = None, csrf: bool = True, **kw: Any) -> httpx.Response:
        headers = dict(kw.pop("headers", {}))
        if csrf and self.csrf:
            headers["X-CSRF-Token"] = self.csrf
        return self._remember(self.http.post(path, json={} if body is None else body,
                                             headers=headers, **kw))  # fmt: skip

    def get(self, path: str, **kw: Any) -> httpx.Response:
        return self._remember(self.http.get(path, **kw))

    def sign_up(self, name: str, password: str = PASSWORD) -> httpx.Response:
        r = self.post("/api/account/signup", {"name": name, "password": password})
        assert r.status_code == 200, r.text
        return r

    def sign_in(self, name: str, password: str = PASSWORD) -> httpx.Response:
        r = self.post("/api/account/signin", {"name": name, "password": password})
        assert r.status_code == 200, r.text
        return r

    def me(self) -> dict[str, Any]:
        return dict(self.get("/api/account").json())

    @property
    def session(self) -> str:
        return str(self.http.cookies["seq_session"])


def count_accounts(server: ServerThread) -> int:
    store = Store(server.db)
    try:
        with store.sessions() as session:
            return int(session.scalar(select(func.count()).select_from(AccountRow)) or 0)
    finally:
        store.close()


# --- signing up, in and out ----------------------------------------------------------------------


def test_sign_up_sign_out_and_sign_in_with_a_server_side_session(srv: ServerThread) -> None:
    name = unique("Anna")
    phone = Browser(srv)
    r = phone.sign_up(name)
    cookie = r.headers["set-cookie"]
    assert "seq_session=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert "Path=/" in cookie and "Secure" not in cookie  # plain HTTP here
    assert phone.me()["signed_in"] and phone.me()["name"] == name
    stolen = phone.session
    # Signing out needs the page's CSRF token; without it nothing changes.
    r = phone.post("/api/account/signout", csrf=False)
    assert r.status_code == 403 and r.json()["error"] == "cross_site"
    assert phone.me()["signed_in"]
    r = phone.post("/api/account/signout")
    assert r.status_code == 200 and r.json() == {"signed_in": False}
    assert not phone.me()["signed_in"]
    # The cookie of an ended session is worth nothing, on any request.
    thief = Browser(srv)
    thief.http.cookies.set("seq_session", stolen)
    assert thief.me() == {"signed_in": False, "name": None, "created_at": None, "csrf": None}
    r = thief.get("/api/account/games")
    assert r.status_code == 401 and r.json()["error"] == "signed_out"
    # The name is the same whatever its case.
    laptop = Browser(srv)
    assert laptop.sign_in(name.upper()).json()["name"] == name
    assert laptop.me()["signed_in"]


def test_the_cookie_is_secure_behind_a_tls_proxy(srv: ServerThread) -> None:
    b = Browser(srv)
    r = b.post(
        "/api/account/signup",
        {"name": unique(), "password": PASSWORD},
        headers={"X-Forwarded-Proto": "https"},
    )
    assert r.status_code == 200
    assert "Secure" in r.headers["set-cookie"]


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("ab", "3 to 24 characters"),
        ("a" * 25, "3 to 24 characters"),
        ("ann\x07ie", "control or invisible"),
        ("an\u200bna", "control or invisible"),
        ("anna\u202e", "control or invisible"),  # RLO is a format character
        ("\u05e9\u05dc\u05d5\u05dd", "right-to-left"),  # Hebrew
        ("\u0633\u0644\u0627\u0645", "right-to-left"),  # Arabic
        ("anna smith", "only letters, digits"),
        ("anna<b>", "only letters, digits"),
    ],
)
def test_names_that_break_the_rules_are_refused(
    server_plain: ServerThread, name: str, says: str
) -> None:
    r = Browser(server_plain).post("/api/account/signup", {"name": name, "password": PASSWORD})
    assert r.status_code == 422, r.text
    assert r.json()["error"] == "bad_message" and says in r.json()["message"]
    assert "set-cookie" not in r.headers
    assert count_accounts(server_plain) == 0


@pytest.mark.parametrize(
    ("password", "says"),
    [
        ("short", "at least 8"),
        ("x" * 257, "at most 256"),
        ("Password123", "most used"),
        ("qwertyuiop", "most used"),
        ("my name is NAME!", "cannot contain the name"),
        ("abababababab", "too few characters"),
    ],
)
def test_weak_or_huge_passwords_are_refused(
    server_plain: ServerThread, password: str, says: str
) -> None:
    name = unique("zoe")
    r = Browser(server_plain).post(
        "/api/account/signup", {"name": name, "password": password.replace("NAME", name)}
    )
    assert r.status_code == 422, r.text
    assert says in r.json()["message"]
    assert count_accounts(server_plain) == 0


def test_a_taken_name_is_refused_whatever_its_case(srv: ServerThread) -> None:
    name = unique("Bob")
    Browser(srv).sign_up(name)
    r = Browser(srv).post("/api/account/signup", {"name": name.swapcase(), "password": PASSWORD})
    assert r.status_code == 409 and r.json()["error"] == "name_taken"
    assert count_accounts(srv) == 1


def test_sign_in_errors_do_not_tell_whether_the_name_exists(srv: ServerThread) -> None:
    name = unique("cleo")
    Browser(srv).sign_up(name)
    b = Browser(srv)
    wrong = b.post("/api/account/signin", {"name": name, "password": "not the password"})
    nobody = b.post("/api/account/signin", {"name": unique("nobody"), "password": PASSWORD})
    bad_name = b.post("/api/account/signin", {"name": "\u202e!", "password": PASSWORD})
    huge = b.post("/api/account/signin", {"name": name, "password": "y" * 1000})
    for r in (wrong, nobody, bad_name, huge):
        assert r.status_code == 401 and "set-cookie" not in r.headers
    assert (
        wrong.json()
        == nobody.json()
        == bad_name.json()
        == huge.json()
        == {
            "error": "sign_in_failed",
            "message": "wrong name or password; nothing was done",
        }
    )
    assert not b.me()["signed_in"]


def test_changing_the_password_ends_the_other_sessions(srv: ServerThread) -> None:
    name = unique("dan")
    phone, laptop = Browser(srv), Browser(srv)
    phone.sign_up(name)
    laptop.sign_in(name)
    r = phone.post("/api/account/password", {"password": "wrong one!", "new_password": "x" * 9})
    assert r.status_code == 422 and "too few characters" in r.json()["message"]
    r = phone.post(
        "/api/account/password", {"password": "wrong one!", "new_password": "blue sky at ten"}
    )
    assert r.status_code == 401 and r.json()["error"] == "sign_in_failed"
    assert laptop.me()["signed_in"]  # nothing changed
    r = phone.post(
        "/api/account/password", {"password": PASSWORD, "new_password": "blue sky at ten"}
    )
    assert r.status_code == 200, r.text
    assert phone.me()["signed_in"] and not laptop.me()["signed_in"]
    r = Browser(srv).post("/api/account/signin", {"name": name, "password": PASSWORD})
    assert r.status_code == 401
    Browser(srv).sign_in(name, "blue sky at ten")


def test_an_expired_session_is_refused(srv: ServerThread) -> None:
    b = Browser(srv)
    b.sign_up(unique("eve"))
    store = Store(srv.db)
    try:
        with store.sessions.begin() as session:
            session.execute(update(SessionRow).values(expires_at=now() - timedelta(seconds=1)))
    finally:
        store.close()
    assert not b.me()["signed_in"]
    r = b.post("/api/account/signout")
    assert r.status_code == 401 and r.json()["error"] == "signed_out"
    # A guest's play is untouched: joining with the dead cookie is a guest's join.
    code = create_table(srv, game="kids", players=2)["code"]
    r = b.post(f"/api/tables/{code}/join", {"name": "Eve"})
    assert r.status_code == 200


def test_requests_from_another_site_are_refused_and_change_nothing(srv: ServerThread) -> None:
    name = unique("fay")
    evil = {"Origin": "http://evil.example"}
    b = Browser(srv)
    r = b.post("/api/account/signup", {"name": name, "password": PASSWORD}, headers=evil)
    assert r.status_code == 403 and r.json()["error"] == "cross_site"
    assert count_accounts(srv) == 0
    b.sign_up(name)
    r = b.post("/api/account/signin", {"name": name, "password": PASSWORD}, headers=evil)
    assert r.status_code == 403
    r = b.post(
        "/api/account/signout", headers={"Sec-Fetch-Site": "cross-site"}
    )  # even with the token
    assert r.status_code == 403 and b.me()["signed_in"]
    # A signed-in join without the page's token (a form on another site) takes no seat.
    code = create_table(srv, game="kids", players=2)["code"]
    r = b.post(f"/api/tables/{code}/join", {"name": "Fay"}, csrf=False)
    assert r.status_code == 403 and r.json()["error"] == "cross_site"
    r = b.post(f"/api/tables/{code}/join", {"name": "Fay"}, headers=evil)
    assert r.status_code == 403
    seats = b.get(f"/api/tables/{code}").json()["seats"]
    assert [s["kind"] for s in seats] == ["empty", "empty"]
    r = b.post("/api/account/delete", {"password": PASSWORD}, csrf=False)
    assert r.status_code == 403 and count_accounts(srv) == 1
    # Behind a proxy that rewrites Host, the forwarded one names the site.
    r = b.post(
        f"/api/tables/{code}/join",
        {"name": "Fay"},
        headers={"Origin": "https://sequence.example", "X-Forwarded-Host": "sequence.example"},
    )
    assert r.status_code == 200
    # The site's own page (same Origin) passes.
    r = b.post(f"/api/tables/{code}/join", {"name": "Fay"}, headers={"Origin": srv.url})
    assert r.status_code == 200
    assert [s["kind"] for s in b.get(f"/api/tables/{code}").json()["seats"]] == ["human"] * 2


# --- rate limits ----------------------------------------------------------------------------------


@pytest.fixture
def server_plain(sqlite_url: str) -> Iterator[ServerThread]:
    with account_server(sqlite_url) as s:
        yield s


def test_sign_in_attempts_are_limited_per_client_and_per_name(sqlite_url: str) -> None:
    limits = AttemptLimits(
        signup_client=Limit("signup-client", 2, 60),
        signin_client=Limit("signin-client", 5, 60),
        signin_name=Limit("signin-name", 2, 60),
    )
    with account_server(sqlite_url, attempt_limits=limits) as srv:
        b = Browser(srv)
        b.sign_up("gina")
        b.sign_up("hugo")
        r = b.post("/api/account/signup", {"name": "ivan", "password": PASSWORD})
        assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
        assert count_accounts(srv) == 2
        for _ in range(2):
            r = b.post("/api/account/signin", {"name": "gina", "password": "guessing 1"})
            assert r.status_code == 401
        # The name is locked for a while, even with the right password...
        r = b.post("/api/account/signin", {"name": "GINA", "password": PASSWORD})
        assert r.status_code == 429 and r.json()["error"] == "rate_limited"
        # ...another name is not, until the client's own limit.
        b.sign_in("hugo")
        r = b.post("/api/account/signin", {"name": "hugo", "password": PASSWORD})
        assert r.status_code == 200
        r = b.post("/api/account/signin", {"name": "hugo", "password": PASSWORD})
        assert r.status_code == 429


def test_attempt_limits_hold_across_processes_with_redis(sqlite_url: str) -> None:
    """Two servers on one database and one Redis (as several processes behind a proxy): a
    session made on one is known to the other, and failed sign-ins counted on one lock the
    name on the other."""
    redis = "redis://127.0.0.1:6379/0"
    _require_redis(redis)
    limits = AttemptLimits(signin_name=Limit("signin-name", 2, 60))
    name = unique("jo")
    prefix = unique("sequence-test-")  # never another run's counts
    with (
        account_server(sqlite_url, redis=redis, redis_prefix=prefix, attempt_limits=limits) as one,
        account_server(sqlite_url, redis=redis, redis_prefix=prefix, attempt_limits=limits) as two,
    ):
        a = Browser(one)
        a.sign_up(name)
        b = Browser(two)
        b.http.cookies.set("seq_session", a.session)
        assert b.me()["name"] == name
        for _ in range(2):
            r = Browser(one).post("/api/account/signin", {"name": name, "password": "nope nope"})
            assert r.status_code == 401
        r = Browser(two).post("/api/account/signin", {"name": name, "password": PASSWORD})
        assert r.status_code == 429


def _require_redis(url: str) -> None:
    try:
        import redis
    except ImportError:
        pytest.skip("the redis package is not installed")
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except Exception as exc:
        pytest.skip(f"Redis at {url} is not reachable: {exc}")


# --- seats that follow the player ----------------------------------------------------------------


def test_a_signed_in_player_finds_their_seat_on_another_device(srv: ServerThread) -> None:
    name = unique("kim")
    phone, laptop = Browser(srv), Browser(srv)
    phone.sign_up(name)
    r = phone.post("/api/tables", {"game": "classic", "players": 2, "name": "Kim"})
    assert r.status_code == 200, r.text
    created = r.json()
    code, token = created["code"], created["seat_token"]
    bob = join(srv, code, "Bob")
    start(srv, code, created["host_token"])
    # The laptop has no token for the table: a stranger's request gets nothing.
    r = laptop.post(f"/api/account/seats/{code}")
    assert r.status_code == 401
    laptop.sign_in(name)
    r = laptop.post(f"/api/account/seats/{code}", csrf=False)
    assert r.status_code == 403
    r = laptop.post(f"/api/account/seats/{code}")
    assert r.json() == {"seats": [{"code": code, "seat": 0, "seat_token": token}]}
    other = Browser(srv)
    other.sign_up(unique("lea"))
    assert other.post(f"/api/account/seats/{code}").json() == {"seats": []}
    # Both devices play the same seat.
    on_phone = Client(srv, code, token)
    on_laptop = Client(srv, code, r.json()["seats"][0]["seat_token"])
    for c in (on_phone, on_laptop):
        assert c.wait(lambda s: s["view"] is not None)["you"]["seat"] == 0
    assert bob["seat"] == 1
    games = laptop.get("/api/account/games").json()["games"]
    assert [(g["code"], g["status"], g["seats"]) for g in games] == [(code, "playing", [0])]


def test_a_guest_who_signs_up_keeps_their_seat(srv: ServerThread) -> None:
    guest = create_table(srv, game="classic", players=2, name="Mia")
    code, old = guest["code"], guest["seat_token"]
    join(srv, code, "Ned")
    start(srv, code, guest["host_token"])
    b = Browser(srv)
    b.sign_up(unique("mia"))
    r = b.post(
        "/api/account/claim",
        {"seats": [{"code": code, "token": old}, {"code": code, "token": "forged"},
                   {"code": "NOSUCH", "token": old}]},
    )  # fmt: skip
    assert r.status_code == 200, r.text
    [claimed] = r.json()["seats"]
    assert (claimed["code"], claimed["seat"]) == (code, 0) and claimed["seat_token"] != old
    c = Client(srv, code, old)  # the guest token no longer opens the seat
    assert c.error()["code"] == "bad_token"
    c = Client(srv, code, claimed["seat_token"])
    assert c.wait(lambda s: s["view"] is not None)["you"]["seat"] == 0
    # Another account cannot take it over, with the old token or the new.
    thief = Browser(srv)
    thief.sign_up(unique("oz"))
    r = thief.post(
        "/api/account/claim",
        {"seats": [{"code": code, "token": claimed["seat_token"]}, {"code": code, "token": old}]},
    )
    assert r.json() == {"seats": []}
    assert b.post(f"/api/account/seats/{code}").json()["seats"] == [claimed]
    assert srv.stored(code).seats[0].account_id is not None


def test_a_signed_in_device_owns_only_its_own_seat_of_its_pass_and_play_seats(
    srv: ServerThread,
) -> None:
    b = Browser(srv)
    b.sign_up(unique("pat"))
    body = {"game": "classic", "players": 3, "name": "Pat", "local": [{"seat": 2, "name": "Sam"}]}
    created = b.post("/api/tables", body).json()
    code, seat_token = created["code"], created["seat_token"]
    [local] = created["local"]
    assert (created["seat"], local["seat"]) == (0, 2)
    # "Sit here too": the account has its seat here, so the new one is a guest's.
    r = b.post(f"/api/tables/{code}/join", {"name": "Lou", "seat": 1})
    assert r.status_code == 200, r.text
    stored = srv.stored(code).seats
    account_id = stored[0].account_id
    assert account_id is not None
    assert [s.account_id for s in stored] == [account_id, None, None]
    assert b.post(f"/api/account/seats/{code}").json()["seats"] == [
        {"code": code, "seat": 0, "seat_token": seat_token}
    ]
    # Joining another table with local seats: the first seat is the account's.
    other = create_table(srv, game="classic", players=3, name="Host")
    r = b.post(
        f"/api/tables/{other['code']}/join",
        {"name": "Pat", "seat": 2, "local": [{"seat": 1, "name": "Sam"}]},
    )
    assert r.status_code == 200, r.text
    assert [s.account_id for s in srv.stored(other["code"]).seats] == [None, None, account_id]


def _finished_game(server: ServerThread, b: Browser) -> tuple[str, str]:
    """A classic game for two that the signed-in ``b`` wins (the other resigns)."""
    r = b.post("/api/tables", {"game": "classic", "players": 2, "name": "Winner"})
    created = r.json()
    code = created["code"]
    loser = join(server, code, "Loser")
    start(server, code, created["host_token"])
    c = Client(server, code, loser["seat_token"])
    c.wait(lambda s: s["view"] is not None)
    c.send({"type": "resign"})
    c.wait(lambda s: s["table"]["status"] == "finished")
    c.close()
    return code, created["seat_token"]


def test_export_gives_the_records_of_finished_games(srv: ServerThread) -> None:
    b = Browser(srv)
    b.sign_up(unique("pia"))
    code, _ = _finished_game(srv, b)
    playing = b.post("/api/tables", {"game": "kids", "players": 2, "name": "P"}).json()["code"]
    r = b.get("/api/account/export")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    exported = r.json()
    assert [g["code"] for g in exported["games"]] == [code]  # not the game still going
    game = exported["games"][0]
    assert GameRecord.from_text(game["text"]).to_dict() == game["record"]
    assert game == {"code": code, **b.get(f"/api/tables/{code}/record").json()}
    assert {g["code"] for g in b.get("/api/account/games").json()["games"]} == {code, playing}
    assert Browser(srv).get("/api/account/export").status_code == 401


def test_deleting_the_account_keeps_the_games_under_deleted_player(srv: ServerThread) -> None:
    name = unique("quinn")
    b = Browser(srv)
    b.sign_up(name)
    code, _ = _finished_game(srv, b)
    lobby = b.post("/api/tables", {"game": "kids", "players": 2, "name": name}).json()["code"]
    r = b.post("/api/account/delete", {"password": "not it at all"})
    assert r.status_code == 401 and count_accounts(srv) == 1
    session = b.session
    r = b.post("/api/account/delete", {"password": PASSWORD})
    assert r.status_code == 200 and count_accounts(srv) == 0
    assert 'seq_session=""' in r.headers["set-cookie"] or "Max-Age=0" in r.headers["set-cookie"]
    ghost = Browser(srv)
    ghost.http.cookies.set("seq_session", session)
    assert not ghost.me()["signed_in"]
    r = ghost.post("/api/account/signin", {"name": name, "password": PASSWORD})
    assert r.status_code == 401
    for c in (code, lobby):
        seats = ghost.get(f"/api/tables/{c}").json()["seats"]
        assert seats[0]["name"] == "deleted player", seats
        assert srv.stored(c).seats[0].account_id is None
    record = ghost.get(f"/api/tables/{code}/record").json()
    assert record["record"]["tags"]["Seat1"] == "deleted player"
    assert name not in str(record)
    # The name is free again.
    Browser(srv).sign_up(name)


# --- nothing secret leaks ------------------------------------------------------------------------


@pytest.fixture
def logged_server(sqlite_url: str, caplog: pytest.LogCaptureFixture) -> Iterator[ServerThread]:
    """A server started with every logger at DEBUG, and SQLAlchemy's at INFO: every statement
    logged (at DEBUG it would print the rows it reads, the database's content itself)."""
    caplog.set_level("DEBUG")
    caplog.set_level("INFO", logger="sqlalchemy")  # SQLAlchemy sets its own to WARNING
    with account_server(sqlite_url) as s:
        yield s


def test_no_password_hash_session_or_seat_token_reaches_a_log_a_page_or_another_player(
    logged_server: ServerThread, caplog: pytest.LogCaptureFixture
) -> None:
    srv = logged_server
    name = unique("rae")
    rae, phone = Browser(srv), Browser(srv)
    rae.sign_up(name)
    rae.post("/api/account/signin", {"name": name, "password": "a wrong password"})
    phone.sign_in(name)
    created = rae.post("/api/tables", {"game": "classic", "players": 2, "name": "Rae"}).json()
    code = created["code"]
    sam = join(srv, code, "Sam")
    start(srv, code, created["host_token"])
    seen_by_sam = Client(srv, code, sam["seat_token"])
    spectator = Client(srv, code)
    mine = Client(srv, code, created["seat_token"])
    mine.wait(lambda s: s["view"] is not None)
    mine.send({"type": "chat", "text": "hello"})
    seen_by_sam.wait(lambda s: s["view"] is not None)
    seen_by_sam.drain(0.3)
    spectator.drain(0.3)
    phone.post(f"/api/account/seats/{code}")
    rae.post("/api/account/password", {"password": PASSWORD, "new_password": "second secret!"})
    with caplog.at_level("WARNING", logger="sqlalchemy"):  # the test's own look at it
        store = Store(srv.db)
        try:
            with store.sessions() as s:
                password_hash = s.scalars(select(AccountRow.password_hash)).one()
        finally:
            store.close()
    secrets_ = {
        "password": PASSWORD,
        "new password": "second secret!",
        "wrong password": "a wrong password",
        "hash": password_hash,
        "hash digest": password_hash.rsplit("$", 1)[1],
        "session": rae.session,
        "other session": phone.session,
        "seat token": created["seat_token"],
        "host token": created["host_token"],
    }
    pages = [
        *(srv.url + p for p in ("/", f"/t/{code}", f"/api/tables/{code}", "/api/tables")),
    ]
    with httpx.Client(timeout=20) as http:
        page_texts = [http.get(p).text for p in pages]
    page_texts.append(rae.get("/api/account/games").text)
    page_texts.append(rae.get("/api/account").text)
    # Every server-side log line, at every level (the test's own HTTP and WebSocket clients
    # log what they send and receive, which is theirs to know).
    client_side = ("httpcore", "httpx", "websockets.client")
    logs = [
        f"{r.getMessage()} {r.exc_text or ''}"
        for r in caplog.records
        if not r.name.startswith(client_side)
    ]
    # The server's every query was logged (with SQLAlchemy's statement logging on), so the
    # search below looked at what an operator who turns logging up would read.
    assert any(r.name.startswith("sqlalchemy.engine") for r in caplog.records)
    others = seen_by_sam.raw + spectator.raw
    for what, secret in secrets_.items():
        for text in logs:
            assert secret not in text, f"the {what} reached a log line"
        for text in page_texts:
            assert secret not in text, f"the {what} reached a page"
        for text in others:
            assert secret not in text, f"the {what} reached another player"
    # Answers to the account's own requests hold no password or hash either (only the
    # seat tokens it asked for, and its cookie in Set-Cookie).
    for r in rae.answers + phone.answers:
        for what in ("password", "new password", "wrong password", "hash", "hash digest"):
            assert secrets_[what] not in r.text, what
