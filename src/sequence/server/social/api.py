"""The ``/api/friends`` and ``/api/challenges`` routes.

Signed-in players only (guests keep today's tables). A friend is added by name; both must ask
(the second request accepts the first). A challenge names friends only; when every one
accepts, the table is made, private, with everyone seated by account and started; one decline
ends it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request

from ...engine import ConfigError, make_config
from ...i18n import N_
from ..accounts.account import Owner
from ..accounts.api import AccountService, name_key
from ..accounts.models import NoFields as NoBody
from ..accounts.store import AccountData
from ..common.errors import RequestError, engine_refusal
from ..notify.messages import Notice
from ..notify.notifier import Notifier
from ..tables.hub import Hub
from ..tables.models import ErrorAnswer
from ..tables.scheduler import check_on_timeout, check_time_control
from ..tables.seating import seat_bots
from .models import ChallengeInfo, Challenges, FriendName, FriendsInfo, NewChallenge
from .store import Challenge, SocialStore

_ERRORS: dict[int, str] = {
    400: "bad_json, bad_message: malformed (does not fit /openapi.json)",  # i18n: ignore
    422: "bad_message: your own name, a friend named twice, rules the game refuses",  # i18n: ignore
    401: "signed_out",  # i18n: ignore
    403: "cross_site",  # i18n: ignore
    404: "unknown_player, not_found: no such account or challenge",  # i18n: ignore
    413: "too_large",  # i18n: ignore
}


def _errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """An operation's error answers; one that takes a body (413 past the size
    limit) may also refuse one that fits the description by the rules (422)."""
    statuses = (*statuses, 422) if 413 in statuses else statuses
    return {status: {"model": ErrorAnswer, "description": _ERRORS[status]}
            for status in statuses}  # fmt: skip


def _challenge_info(c: Challenge) -> dict[str, Any]:
    return {
        "id": c.id,
        "by": c.from_name,
        "settings": c.settings,
        "status": c.status,
        "table": c.table_code,
        "invited": [{"name": n, "seat": s, "answer": a} for _, n, s, a in c.invited],
    }


class SocialService:
    """What the friends' and challenges' requests do."""

    def __init__(self, accounts: AccountService, hub: Hub, notifier: Notifier) -> None:
        self.accounts, self.hub, self.notifier = accounts, hub, notifier
        self.store = accounts.store
        self.social = SocialStore(accounts.store)

    async def _other(self, me: AccountData, name: str) -> AccountData:
        other = await self.store.run(self.accounts.accounts.by_key, name_key(name))
        if other is None:
            raise RequestError("unknown_player", N_("nobody is called {name}"), 404, name=name)
        if other.id == me.id:
            raise RequestError("bad_message", N_("that is your own name"))
        return other

    async def friends(self, me: AccountData, status: str | None = None) -> dict[str, Any]:
        await self.store.run(self.social.touch, me.id)
        found = await self.store.run(self.social.friends, me.id)
        return {
            "friends": [{"name": n, "online": o} for n, o in found.friends],
            "asking_me": found.asking_me,
            "asked": found.asked,
            "blocked": found.blocked,
            "status": status,
        }

    async def ask(self, me: AccountData, name: str) -> dict[str, Any]:
        other = await self._other(me, name)
        status = await self.store.run(self.social.ask, me.id, other.id)
        # A block is not told apart from a request that waits: the blocked learn nothing.
        return await self.friends(me, "asked" if status == "blocked" else status)

    async def remove(self, me: AccountData, name: str) -> dict[str, Any]:
        other = await self._other(me, name)
        await self.store.run(self.social.remove, me.id, other.id)
        return await self.friends(me)

    async def block(self, me: AccountData, name: str) -> dict[str, Any]:
        other = await self._other(me, name)
        await self.store.run(self.social.block, me.id, other.id)
        return await self.friends(me)

    async def challenge(self, me: AccountData, body: NewChallenge) -> dict[str, Any]:
        options = body.options.model_dump(exclude_none=True) if body.options else {}
        spec: dict[str, Any] = {"game": body.game, "players": body.players}
        if body.teams is not None:
            spec["teams"] = body.teams
        try:
            config = make_config(**spec, **options)
        except ConfigError as exc:
            raise engine_refusal("bad_message", exc) from None
        on_timeout = check_on_timeout(
            check_time_control(body.clock), body.on_timeout, config.teams, True
        )
        bots = seat_bots(body.bots, config.players)
        people = [i for i, b in enumerate(bots) if b is None]
        if len(people) != 1 + len(body.friends):
            raise RequestError(
                "bad_message",
                N_("{n} seats are for people: you and {m} friends"),
                n=len(people),
                m=len(people) - 1,
            )
        invited: list[tuple[int, int]] = []
        for name, seat in zip(body.friends, people[1:], strict=True):
            other = await self._other(me, name)
            if other.id in (i for i, _ in invited):
                raise RequestError("bad_message", N_("{name} is named twice"), name=name)
            invited.append((other.id, seat))
        friends = await self.store.run(self.social.friend_ids, me.id, [i for i, _ in invited])
        strangers = [n for n, (i, _) in zip(body.friends, invited, strict=True) if i not in friends]
        if strangers:
            raise RequestError(
                "bad_message", N_("{name} is not your friend"), name=", ".join(strangers)
            )
        settings = {**spec, "options": options, "bots": bots, "clock": body.clock,
                    "on_timeout": on_timeout, "seat": people[0]}  # fmt: skip
        challenge_id = await self.store.run(self.social.challenge, me.id, settings, invited)
        for account_id, _ in invited:
            notice = Notice("invite", f"invite:{challenge_id}", name=me.name)
            self.notifier.tell(account_id, notice)
        found = await self.store.run(self.social.get, challenge_id)
        assert found is not None
        return _challenge_info(found)

    async def challenges(self, me: AccountData) -> dict[str, Any]:
        found = await self.store.run(self.social.challenges, me.id)
        return {"challenges": [_challenge_info(c) for c in found]}

    async def answer(self, me: AccountData, challenge_id: int, accept: bool) -> dict[str, Any]:
        found = await self.store.run(self.social.answer, challenge_id, me.id, accept)
        if found is None:
            raise RequestError(
                "not_found", N_("no open challenge {id} is yours to answer"), 404, id=challenge_id
            )
        if accept and all(a == "accepted" for *_, a in found.invited):
            found = await self._make_table(found)
        return _challenge_info(found)

    async def cancel(self, me: AccountData, challenge_id: int) -> dict[str, Any]:
        found = await self.store.run(self.social.get, challenge_id)
        if found is None or found.from_id != me.id or found.status != "open":
            raise RequestError(
                "not_found", N_("no open challenge {id} is yours to cancel"), 404, id=challenge_id
            )
        await self.store.run(self.social.settle, challenge_id, "cancelled")
        return await self.challenges(me)

    async def _make_table(self, c: Challenge) -> Challenge:
        """Everyone accepted: a private table, everyone seated by account, started."""
        s = c.settings
        spec = {"game": s["game"], "players": s["players"]}
        if s.get("teams") is not None:
            spec["teams"] = s["teams"]
        config = make_config(**spec, **s["options"])
        sender = await self.store.run(self.accounts.accounts.by_key, name_key(c.from_name))
        if sender is None:  # the challenger deleted their account meanwhile
            await self.store.run(self.social.settle, c.id, "cancelled")
        else:
            table, host_token, *_ = await self.hub.create(
                config, s["bots"], False, sender.name, s["seat"],
                check_time_control(s["clock"]), None, (),
                Owner(sender.id, sender.name, sender.seat_key),
                on_timeout=s.get("on_timeout"),
            )  # fmt: skip
            if await self.store.run(self.social.settle, c.id, "accepted", table.code):
                for account_id, name, seat, _ in c.invited:
                    friend = await self.store.run(self.accounts.accounts.by_key, name_key(name))
                    if friend is not None and friend.id == account_id:
                        owner = Owner(friend.id, friend.name, friend.seat_key)
                        await self.hub.join(table, seat, friend.name, (), owner)
                await self.hub.start(table, host_token)
        found = await self.store.run(self.social.get, c.id)
        assert found is not None
        return found


def social_router(service: Callable[[], SocialService]) -> APIRouter:
    """The ``/api/friends`` and ``/api/challenges`` routes."""
    router = APIRouter()

    async def me(request: Request, changes: bool) -> AccountData:
        account, _ = await service().accounts.require(request, changes=changes)
        return account

    @router.get("/api/friends", response_model=FriendsInfo, responses=_errors(401))
    async def friends(request: Request) -> dict[str, Any]:
        """The account's friends (who is online), the requests each way, whom it blocked; the
        page asks every minute or so, which is how its player shows as online."""
        return await service().friends(await me(request, False))

    @router.post(
        "/api/friends", response_model=FriendsInfo, responses=_errors(400, 401, 403, 404, 413)
    )
    async def ask(request: Request, body: FriendName) -> dict[str, Any]:
        """Ask a player to be friends (or accept their request)."""
        return await service().ask(await me(request, True), body.name)

    @router.post(
        "/api/friends/remove",
        response_model=FriendsInfo,
        responses=_errors(400, 401, 403, 404, 413),
    )
    async def remove(request: Request, body: FriendName) -> dict[str, Any]:
        """End a friendship, withdraw or refuse a request, or lift one's own block."""
        return await service().remove(await me(request, True), body.name)

    @router.post(
        "/api/friends/block",
        response_model=FriendsInfo,
        responses=_errors(400, 401, 403, 404, 413),
    )
    async def block(request: Request, body: FriendName) -> dict[str, Any]:
        """Block a player: no friendship, request or challenge between you any more."""
        return await service().block(await me(request, True), body.name)

    @router.get("/api/challenges", response_model=Challenges, responses=_errors(401))
    async def challenges(request: Request) -> dict[str, Any]:
        """The account's challenges, sent and received, newest first."""
        return await service().challenges(await me(request, False))

    @router.post(
        "/api/challenges",
        response_model=ChallengeInfo,
        responses=_errors(400, 401, 403, 404, 413),
    )
    async def challenge(request: Request, body: NewChallenge) -> dict[str, Any]:
        """Challenge friends to a table with these rules (each is notified)."""
        return await service().challenge(await me(request, True), body)

    @router.post(
        "/api/challenges/{challenge_id}/accept",
        response_model=ChallengeInfo,
        responses=_errors(400, 401, 403, 404, 413),
    )
    async def accept(challenge_id: int, request: Request, body: NoBody) -> dict[str, Any]:
        """Accept; the last to accept makes the table (``table``: its code), started."""
        return await service().answer(await me(request, True), challenge_id, True)

    @router.post(
        "/api/challenges/{challenge_id}/decline",
        response_model=ChallengeInfo,
        responses=_errors(400, 401, 403, 404, 413),
    )
    async def decline(challenge_id: int, request: Request, body: NoBody) -> dict[str, Any]:
        """Decline: the challenge ends for everyone."""
        return await service().answer(await me(request, True), challenge_id, False)

    @router.post(
        "/api/challenges/{challenge_id}/cancel",
        response_model=Challenges,
        responses=_errors(400, 401, 403, 404, 413),
    )
    async def cancel(challenge_id: int, request: Request, body: NoBody) -> dict[str, Any]:
        """The challenger withdraws an open challenge."""
        return await service().cancel(await me(request, True), challenge_id)

    return router
