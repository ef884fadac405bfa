"""The account requests of the HTTP API: sign up, sign in and out, change the password, delete
the account, list and export its games, and the seats that follow a signed-in player.

Nobody needs an account: every table request works for guests as before. With one, a seat the
player takes (``POST /api/tables``, ``/join``) belongs to the account, and its token is the
same on every device the player signs in on (:class:`.accounts.Owner`): a second device asks
for it (``POST /api/account/seats/{code}``) instead of reading it from local storage. Signing
up or in on a device that holds guest seats hands them to the account
(``POST /api/account/claim``). See docs/server.md, "Accounts".
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi import Path as PathParameter
from fastapi.responses import FileResponse, JSONResponse, Response

from ...i18n import N_
from ..common.errors import RateLimited, RequestError
from ..storage.db import hash_token
from ..storage.store import Store
from ..tables import protocol
from ..tables.hub import Hub
from ..tables.models import TABLE_CODE, ErrorAnswer
from ..tables.scheduler import step_seat
from ..tables.table import Table
from .account import (
    NAME_KEY_MAX,
    PASSWORD_MAX,
    Owner,
    Passwords,
    check_name,
    check_password,
    new_seat_key,
)
from .attempts import AttemptLimits, Counter, Limit
from .models import (
    AccountGames,
    AccountInfo,
    AccountTurns,
    ChangePassword,
    Claim,
    DeleteAccount,
    Export,
    NoFields,
    OwnedSeats,
    SignedOut,
    SignIn,
    SignUp,
)
from .sessions import (
    LIFETIME,
    check_csrf,
    check_same_site,
    clear_session_cookie,
    csrf_token,
    new_session,
    session_cookie,
    set_session_cookie,
)
from .store import AccountData, AccountStore

ERROR_STATUSES: dict[int, str] = {
    400: "bad_json, bad_message: malformed (does not fit /openapi.json)",  # i18n: ignore
    422: "bad_message: a name or password breaks a rule",  # i18n: ignore
    401: "signed_out, sign_in_failed: no live session, or a wrong name or password",  # i18n: ignore
    403: "cross_site: another site's request, or no CSRF token",  # i18n: ignore
    404: "unknown_table",  # i18n: ignore
    409: "name_taken",  # i18n: ignore
    413: "too_large: the body is over 16 KiB",  # i18n: ignore
    429: "rate_limited: too many attempts (see Retry-After)",  # i18n: ignore
}


def _errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """An operation's error answers; one that takes a body (413 past the size
    limit) may also refuse one that fits the description by the rules (422)."""
    statuses = (*statuses, 422) if 413 in statuses else statuses
    return {status: {"model": ErrorAnswer, "description": ERROR_STATUSES[status]}
            for status in statuses}  # fmt: skip


def signed_out() -> RequestError:
    return RequestError("signed_out", N_("you are not signed in (or your session ended)"), 401)


def sign_in_failed() -> RequestError:
    """The one answer to a wrong password and to a name nobody has."""
    return RequestError("sign_in_failed", N_("wrong name or password; nothing was done"), 401)


def name_key(raw: str) -> str:
    """The key a name is looked up by, without refusing anything: a sign-in with a name that
    breaks the rules is simply a name nobody has (the answer must not differ)."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", raw).strip().casefold())
    return folded[: NAME_KEY_MAX + 1]


def _account_info(account: AccountData, token: str) -> dict[str, Any]:
    return {
        "signed_in": True,
        "name": account.name,
        "created_at": account.created_at.isoformat(),
        "csrf": csrf_token(token),
    }


class AccountService:
    """What the account requests do, on the store's database and the hub's live tables."""

    def __init__(
        self,
        store: Store,
        hub: Hub,
        passwords: Passwords,
        counter: Counter,
        limits: AttemptLimits,
        client: Callable[[Request], str],
    ) -> None:
        self.store, self.hub, self.passwords = store, hub, passwords
        self.accounts = AccountStore(store)
        self.counter, self.limits, self.client = counter, limits, client

    # --- who is asking ------------------------------------------------------------------------

    async def signed_in(self, request: Request) -> tuple[AccountData, str] | None:
        """The account of the request's live session and the session token, or ``None``."""
        token = session_cookie(request)
        if token is None:
            return None
        account = await self.store.run(self.accounts.session_account, hash_token(token))
        return None if account is None else (account, token)

    async def require(self, request: Request, changes: bool) -> tuple[AccountData, str]:
        """The signed-in account (``signed_out`` if none); a request that ``changes``
        something must also pass :func:`.sessions.check_csrf`."""
        found = await self.signed_in(request)
        if found is None:
            raise signed_out()
        if changes:
            check_csrf(request, found[1])
        return found

    async def owner(self, request: Request) -> Owner | None:
        """For a request that takes a seat: the signed-in player (their CSRF token checked),
        or ``None`` for a guest, whose request goes on as before."""
        found = await self.signed_in(request)
        if found is None:
            return None
        account, token = found
        check_csrf(request, token)
        return Owner(account.id, account.name, account.seat_key)

    async def _throttle(self, limit: Limit, key: str) -> None:
        wait = await limit.hit(self.counter, key)
        if wait:
            raise RateLimited(str(max(1, math.ceil(wait))))

    # --- signing up, in and out ------------------------------------------------------------------

    async def _open(self, request: Request, account: AccountData) -> JSONResponse:
        """A new session for ``account`` (the browser's previous one ended): the answer sets
        its cookie."""
        old = session_cookie(request)
        if old is not None:
            await self.store.run(self.accounts.close_session, hash_token(old))
        token, token_hash = new_session()
        await self.store.run(self.accounts.open_session, account.id, token_hash, LIFETIME)
        response = JSONResponse(_account_info(account, token))
        set_session_cookie(response, request, token)
        return response

    async def sign_up(self, request: Request, body: SignUp) -> JSONResponse:
        check_same_site(request)
        name, key = check_name(body.name)
        check_password(body.password, key)
        await self._throttle(self.limits.signup_client, self.client(request))
        password_hash = await self.passwords.hash(body.password)
        account = await self.store.run(
            self.accounts.create, name, key, password_hash, new_seat_key()
        )
        if account is None:
            raise RequestError(
                "name_taken", N_("the name {name} is taken: choose another"), 409, name=name
            )
        return await self._open(request, account)

    async def sign_in(self, request: Request, body: SignIn) -> JSONResponse:
        check_same_site(request)
        await self._throttle(self.limits.signin_client, self.client(request))
        key = name_key(body.name)
        wait = await self.limits.signin_name.wait(self.counter, key)
        if wait:
            raise RateLimited(str(max(1, math.ceil(wait))))
        if len(body.password) > PASSWORD_MAX:
            raise sign_in_failed()  # never hashed: no account has such a password
        account = await self.store.run(self.accounts.by_key, key)
        ok = await self.passwords.verify(
            None if account is None else account.password_hash, body.password
        )
        if account is None or not ok:
            await self.limits.signin_name.hit(self.counter, key)
            raise sign_in_failed()
        if self.passwords.needs_rehash(account.password_hash):
            new_hash = await self.passwords.hash(body.password)
            await self.store.run(self.accounts.set_password, account.id, new_hash)
        return await self._open(request, account)

    async def sign_out(self, request: Request) -> JSONResponse:
        _, token = await self.require(request, changes=True)
        await self.store.run(self.accounts.close_session, hash_token(token))
        response = JSONResponse({"signed_in": False})
        clear_session_cookie(response, request)
        return response

    async def _check_password(self, account: AccountData, password: str) -> None:
        """The account's password again (changing it, deleting the account): a wrong one
        counts against the name like a failed sign-in."""
        wait = await self.limits.signin_name.wait(self.counter, name_key(account.name))
        if wait:
            raise RateLimited(str(max(1, math.ceil(wait))))
        ok = len(password) <= PASSWORD_MAX and await self.passwords.verify(
            account.password_hash, password
        )
        if not ok:
            await self.limits.signin_name.hit(self.counter, name_key(account.name))
            raise RequestError("sign_in_failed", N_("the password is wrong; nothing was done"), 401)

    async def change_password(self, request: Request, body: ChangePassword) -> dict[str, Any]:
        account, token = await self.require(request, changes=True)
        check_password(body.new_password, name_key(account.name), "new_password")
        await self._check_password(account, body.password)
        new_hash = await self.passwords.hash(body.new_password)
        await self.store.run(self.accounts.set_password, account.id, new_hash)
        # Whoever else holds a session of this account (a stolen cookie) is signed out.
        await self.store.run(self.accounts.close_other_sessions, account.id, hash_token(token))
        return _account_info(account, token)

    async def delete(self, request: Request, body: DeleteAccount) -> JSONResponse:
        account, _ = await self.require(request, changes=True)
        await self._check_password(account, body.password)
        codes = await self.store.run(self.accounts.delete, account.id)
        await self.hub.seats_stored(codes)
        response = JSONResponse({"signed_in": False})
        clear_session_cookie(response, request)
        return response

    # --- games and seats ---------------------------------------------------------------------

    async def games(self, request: Request) -> dict[str, Any]:
        account, _ = await self.require(request, changes=False)
        games = await self.store.run(self.accounts.games, account.id)
        return {
            "games": [
                {
                    "code": g.code,
                    "status": g.status,
                    "config": g.config,
                    "result": g.result,
                    "finished_at": g.finished_at.isoformat() if g.finished_at else None,
                    "seats": g.seats,
                }
                for g in games
            ]
        }

    async def turns(self, request: Request) -> dict[str, Any]:
        """Every table of the account not yet over, where it is their turn first."""
        account, _ = await self.require(request, changes=False)
        games = await self.store.run(self.accounts.games, account.id)
        out = []
        for g in games:
            if g.status == "finished":
                continue
            try:
                table = await self.hub.get(g.code)
            except RequestError:  # gone meanwhile
                continue
            await self.hub.refresh(table)  # another process may have moved a moment ago
            if table.status != "finished":
                out.append(turn_info(table, account.id))
        order = {id(row): i for i, row in enumerate(out)}
        out.sort(key=lambda row: (not row["your_turn"], row["deadline"] is None,
                                  row["deadline"] or 0, order[id(row)]))  # fmt: skip
        return {"turns": out}

    async def export(self, request: Request) -> Response:
        account, _ = await self.require(request, changes=False)
        games = await self.store.run(self.accounts.games, account.id)
        out = []
        for g in games:
            if g.status != "finished":
                continue
            table = await self.hub.get(g.code)
            if table.status == "finished" and table.state is not None:
                out.append({"code": table.code, **protocol.record_dict(table)})
        return Response(
            protocol.dumps({"name": account.name, "games": out}),
            media_type="application/json",
            headers={
                "Content-Disposition": 'attachment; filename="sequence-games.json"'  # i18n: ignore
            },
        )

    async def claim(self, request: Request, body: Claim) -> dict[str, Any]:
        """The guest seats whose tokens the browser sent become the account's: each gets the
        account's token (returned), and its old token stops working."""
        account, _ = await self.require(request, changes=True)
        owner = Owner(account.id, account.name, account.seat_key)
        out = []
        for item in body.seats:
            try:
                table = await self.hub.get(item.code)
            except RequestError:
                continue
            claimed = await self.hub.claim(table, item.token, owner)
            if claimed is None:
                continue
            seat, token = claimed
            out.append({"code": table.code, "seat": seat, "seat_token": token})
        return {"seats": out}

    async def seats_at(self, request: Request, code: str) -> dict[str, Any]:
        """The account's seats at one table, with their tokens: how a second device sits."""
        account, _ = await self.require(request, changes=True)
        table = await self.hub.get(code)
        await self.hub.refresh(table)  # another process may have claimed or freed a seat
        return {"seats": owned_seats(table, Owner(account.id, account.name, account.seat_key))}


def turn_info(table: Table, account_id: int) -> dict[str, Any]:
    """Where ``table`` stands for the account: whose step, the deadline (public facts only)."""
    mine = [s.seat for s in table.seats if s.account_id == account_id]
    seat = step_seat(table)
    turn = table.turn
    deadline = None
    if turn is not None and turn.seat == seat and not turn.timed_out:
        deadline = int(turn.deadline() * 1000)
    return {
        "code": table.code,
        "status": table.status,
        "game": table.config.game,
        "players": [s.name for s in table.seats],
        "seats": mine,
        "to_move": seat,
        "your_turn": seat is not None and seat in mine and table.seats[seat].kind == "human",
        "time_control": None if table.clock is None else table.clock.name,
        "on_timeout": table.on_timeout,
        "deadline": deadline,
        "version": table.version,
    }


def owned_seats(table: Table, owner: Owner) -> list[dict[str, Any]]:
    """``owner``'s seats at ``table`` whose token is still the account's (a lobby seat the host
    opened again is nobody's)."""
    out = []
    for s in table.seats:
        if s.account_id != owner.account_id:
            continue
        token, token_hash = owner.seat_token(table.host_hash, s.seat)
        if s.token_hash == token_hash:
            out.append({"code": table.code, "seat": s.seat, "seat_token": token})
    return out


def account_router(service: Callable[[], AccountService]) -> APIRouter:
    """The ``/api/account`` requests, answered by the app's :class:`AccountService`, and the
    account page (``/account``, drawn by ``static/account.js``)."""
    router = APIRouter()

    @router.get("/account", include_in_schema=False)
    async def account_page() -> FileResponse:
        return FileResponse(Path(__file__).parents[1] / "web" / "static" / "index.html")

    @router.get("/api/account", response_model=AccountInfo)
    async def account(request: Request) -> dict[str, Any]:
        """Who this browser is signed in as, and the CSRF token its requests must carry."""
        found = await service().signed_in(request)
        return {"signed_in": False} if found is None else _account_info(*found)

    @router.post(
        "/api/account/signup",
        response_model=AccountInfo,
        responses=_errors(400, 403, 409, 413, 429),
    )
    async def sign_up(request: Request, body: SignUp) -> JSONResponse:
        """A new account, signed in at once (the answer sets the session cookie)."""
        return await service().sign_up(request, body)

    @router.post(
        "/api/account/signin",
        response_model=AccountInfo,
        responses=_errors(400, 401, 403, 413, 429),
    )
    async def sign_in(request: Request, body: SignIn) -> JSONResponse:
        """Sign in (the answer sets the session cookie); a wrong password and an unknown name
        get the same answer."""
        return await service().sign_in(request, body)

    @router.post(
        "/api/account/signout", response_model=SignedOut, responses=_errors(400, 401, 403, 413)
    )
    async def sign_out(request: Request, body: NoFields) -> JSONResponse:
        """End this browser's session."""
        return await service().sign_out(request)

    @router.post(
        "/api/account/password",
        response_model=AccountInfo,
        responses=_errors(400, 401, 403, 413, 429),
    )
    async def change_password(request: Request, body: ChangePassword) -> dict[str, Any]:
        """A new password; every other session of the account ends."""
        return await service().change_password(request, body)

    @router.post(
        "/api/account/delete",
        response_model=SignedOut,
        responses=_errors(400, 401, 403, 413, 429),
    )
    async def delete(request: Request, body: DeleteAccount) -> JSONResponse:
        """Delete the account, its sessions and its name from its seats (the games stay,
        their seats shown as "deleted player")."""
        return await service().delete(request, body)

    @router.get("/api/account/games", response_model=AccountGames, responses=_errors(401))
    async def games(request: Request) -> dict[str, Any]:
        """Every table the account holds a seat at, newest first."""
        return await service().games(request)

    @router.get("/api/account/turns", response_model=AccountTurns, responses=_errors(401))
    async def turns(request: Request) -> dict[str, Any]:
        """Every table of the account in the lobby or in play: where it is their turn first
        (the nearest deadline first), with whose step it is and when its time runs out."""
        return await service().turns(request)

    @router.get("/api/account/export", response_model=Export, responses=_errors(401))
    async def export(request: Request) -> Response:
        """The account's finished games as records (a JSON file to download)."""
        return await service().export(request)

    @router.post(
        "/api/account/claim",
        response_model=OwnedSeats,
        responses=_errors(400, 401, 403, 409, 413),
    )
    async def claim(request: Request, body: Claim) -> dict[str, Any]:
        """The guest seats this browser holds (their tokens) become the account's."""
        return await service().claim(request, body)

    @router.post(
        "/api/account/seats/{code}",
        response_model=OwnedSeats,
        responses=_errors(400, 401, 403, 404, 413),
    )
    async def seats_at(
        code: Annotated[str, PathParameter(pattern=TABLE_CODE)], request: Request, body: NoFields
    ) -> dict[str, Any]:
        """The account's seats at a table, with their tokens (a second device sits with
        them)."""
        return await service().seats_at(request, code)

    return router
