"""The notifier: watches every table the hub shows, and tells signed-in players who are away
from the page what concerns them, by Web Push and e-mail, as each chose.

- **What.** "Your turn" when the turn passes to a seat of an account whose player has no
  connection to the table; "the game ended" to such a player; "a friend challenged you"
  (:meth:`Notifier.tell`, from :mod:`..social`); "your time ran out" (correspondence tables).
- **Once.** Each notice has a key (``turn:CODE:TURN:SEAT``, ``end:CODE``, ...), stored per
  account and channel before it is sent (:meth:`.store.NotifyStore.mark`): a notice is sent
  once, by one server process, across restarts.
- **Batched and rate-limited.** A notice waits :attr:`NotifyConfig.batch_seconds` with the
  account's others; then they go as one message ("your turn at 3 tables"), at most one per
  :attr:`NotifyConfig.email_interval` by e-mail and one per :attr:`NotifyConfig.push_interval`
  by push, per account (claimed in the database, so across processes too); what arrives
  meanwhile waits for the next. A "your turn" that is no longer so when its message leaves
  (the player moved, or came back to the page) is dropped.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

import httpx

from ...engine import TEAM_LETTERS, StepKind
from ...i18n import translator
from ..storage.store import Store
from ..tables.table import Table
from .links import sign
from .mail import MailConfig, build_message, send_mail
from .messages import Message, Notice, render
from .store import NotifyStore, Settings
from .webpush import Gone, PushSender, new_vapid_pem

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class NotifyConfig:
    """The operator's choices for notifications (``sequence serve --smtp-host ...``)."""

    public_url: str = "http://127.0.0.1:8000"
    """The site's address as players reach it: the links in e-mails start with it."""
    mail: MailConfig | None = None
    """The SMTP server (``None``: no e-mail is sent, and the account page says so)."""
    push_contact: str = "mailto:sequence@localhost"
    """The operator's address in every push request (VAPID's ``sub``)."""
    push_http_hosts: tuple[str, ...] = ()
    """Hosts a push subscription may name over plain HTTP (a test's push service)."""
    batch_seconds: float = 60.0
    """How long a notice waits for others to go with it."""
    email_interval: float = 900.0
    """The shortest time between two e-mails to one account."""
    push_interval: float = 60.0
    """The shortest time between two push messages to one account."""


@dataclass
class _Queue:
    notices: list[Notice] = field(default_factory=list)
    task: asyncio.Task[None] | None = None


def _outcome(table: Table, seat: int) -> str:
    """``won``, ``lost`` or ``draw`` for ``seat``, from the stored result (``A wins``, ``draw``:
    a resignation's too, which the engine's state does not hold)."""
    result = table.result or "draw"
    if not result.endswith(" wins") or result[0] not in TEAM_LETTERS:
        return "draw"
    return "won" if table.config.team_of(seat) == TEAM_LETTERS.index(result[0]) else "lost"


class Notifier:
    """Notices gathered per account and channel, sent in batches."""

    def __init__(
        self, store: Store, config: NotifyConfig, tables: Callable[[str], Table | None]
    ) -> None:
        self.config = config
        self.db = NotifyStore(store)
        self.store = store
        self._tables = tables
        """A live table by code (the hub's registry), to check a "your turn" still holds."""
        self._queues: dict[tuple[int, str], _Queue] = {}
        self._seen: dict[str, tuple[object, ...]] = {}
        self._events: dict[str, int] = {}
        """How many of each table's events were looked at (a ``timeout`` among them is told)."""
        self._tasks: set[asyncio.Task[None]] = set()
        self.push: PushSender | None = None
        self.secret = b""
        self._client: httpx.AsyncClient | None = None

    async def start(self) -> None:
        """Read (or make, the first time) the server's VAPID key and link secret."""
        pem = await self.store.run(self.db.secret, "vapid", new_vapid_pem)
        key = await self.store.run(self.db.secret, "links", lambda: secrets.token_hex(32))
        self.secret = bytes.fromhex(key)
        self.push = PushSender(pem, self.config.push_contact, self.config.push_http_hosts)
        self._client = httpx.AsyncClient(timeout=15.0)

    async def close(self) -> None:
        """Drop what is waiting (it is marked only when sent) and close the HTTP client."""
        for queue in self._queues.values():
            if queue.task is not None:
                queue.task.cancel()
        for task in list(self._tasks):
            task.cancel()
        self._queues.clear()
        if self._client is not None:
            await self._client.aclose()

    # --- what happened --------------------------------------------------------------------

    def watch(self, table: Table) -> None:
        """The hub showed a change at ``table``: find whom it concerns (cheap when nothing
        that matters changed; called with the table's lock held, so it only queues)."""
        try:
            self._watch(table)
        except Exception:  # a notification is never worth a table's broadcast
            log.exception("watching %s", table.code)

    def _watch(self, table: Table) -> None:
        for event in table.events[self._events.get(table.code, 0) :]:
            seat = event.seat
            if event.kind == "timeout" and seat is not None:
                account_id = table.seats[seat].account_id
                if account_id is not None:  # sent once per key, across restarts too
                    key = f"timeout:{table.code}:{event.ply}:{seat}"
                    self.tell(account_id, Notice("timeout", key, table.code, outcome=event.detail))
        self._events[table.code] = len(table.events)
        state = table.state
        if state is None or table.status == "lobby":
            return
        if table.status == "finished":
            mark: tuple[object, ...] = ("end",)
            if self._seen.get(table.code) == mark:
                return
            self._seen[table.code] = mark
            told: set[int] = set()
            for s in table.seats:
                if s.account_id is not None and s.account_id not in told and not s.connections:
                    told.add(s.account_id)
                    notice = Notice("end", f"end:{table.code}", table.code,
                                    outcome=_outcome(table, s.seat))  # fmt: skip
                    self.tell(s.account_id, notice)
            return
        step = state.next_step()
        seat = state.to_move if step.kind is StepKind.ROLL else step.seat
        if seat is None:
            return
        s = table.seats[seat]
        mark = ("turn", state.turns, seat, s.connections, s.bot)
        if self._seen.get(table.code) == mark:
            return
        self._seen[table.code] = mark
        if s.account_id is None or s.bot or s.connections:
            return
        key = f"turn:{table.code}:{state.turns}:{seat}"
        self.tell(s.account_id, Notice("turn", key, table.code, seat=seat, turn=state.turns))

    def tell(self, account_id: int, notice: Notice) -> None:
        """Queue ``notice`` for the account, on the channels it chose."""
        self._spawn(self._queue(account_id, notice))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("notification failed", exc_info=task.exception())

    async def _queue(self, account_id: int, notice: Notice) -> None:
        settings = await self.store.run(self.db.settings, account_id)
        channels = [c for c, on in (("email", settings.by_email and self.config.mail),
                                    ("push", settings.push_on)) if on]  # fmt: skip
        for channel in channels:
            queue = self._queues.setdefault((account_id, channel), _Queue())
            if all(n.key != notice.key for n in queue.notices):
                queue.notices.append(notice)
            if queue.task is None:
                queue.task = asyncio.get_running_loop().create_task(
                    self._flush(account_id, channel, self.config.batch_seconds)
                )

    # --- sending ----------------------------------------------------------------------------

    def _still_due(self, notice: Notice) -> bool:
        if notice.kind != "turn":
            return True
        table = self._tables(notice.code or "")
        if table is None or table.state is None or table.status != "playing":
            return False
        state, seat = table.state, notice.seat
        assert seat is not None
        return (
            state.turns == notice.turn
            and state.to_move == seat
            and not table.seats[seat].connections
            and not table.seats[seat].bot
        )

    async def _flush(self, account_id: int, channel: str, delay: float) -> None:
        await asyncio.sleep(delay)
        queue = self._queues[(account_id, channel)]
        interval = self.config.email_interval if channel == "email" else self.config.push_interval
        try:
            queue.notices = [n for n in queue.notices if self._still_due(n)]
            if not queue.notices:
                return
            wait = await self.store.run(self.db.claim_send, account_id, channel, interval)
            if wait > 0:  # the account was sent something lately: these go together later
                queue.task = asyncio.get_running_loop().create_task(
                    self._flush(account_id, channel, wait)
                )
                return
            notices, queue.notices = queue.notices, []
            keys = [f"{channel}:{n.key}" for n in notices]
            fresh = set(await self.store.run(self.db.mark, account_id, keys))
            notices = [n for n, k in zip(notices, keys, strict=True) if k in fresh]
            if notices:
                settings = await self.store.run(self.db.settings, account_id)
                await self._send(account_id, channel, settings, render(notices, settings.lang))
        except Exception:
            log.exception("could not notify account %s by %s", account_id, channel)
        finally:
            if queue.task is asyncio.current_task():
                queue.task = None
                if queue.notices:  # arrived while this one was sending
                    queue.task = asyncio.get_running_loop().create_task(
                        self._flush(account_id, channel, self.config.batch_seconds)
                    )
                else:
                    self._queues.pop((account_id, channel), None)

    def link(self, path: str) -> str:
        """An absolute link to ``path`` on the site."""
        return self.config.public_url.rstrip("/") + path

    def unsubscribe_link(self, account_id: int, channel: str) -> str:
        """The signed link that stops ``channel`` for the account."""
        token = sign(self.secret, "unsubscribe", account_id, channel)
        return self.link(f"/api/notify/unsubscribe?token={token}")

    async def _send(
        self, account_id: int, channel: str, settings: Settings, message: Message
    ) -> None:
        if channel == "email":
            mail = self.config.mail
            if mail is None or not settings.by_email or settings.email is None:
                return
            _ = translator(settings.lang).gettext
            stop = self.unsubscribe_link(account_id, "email")
            text = "\n\n".join(
                [
                    message.text,
                    self.link(message.path),
                    _("To receive no more e-mails from this site: {link}").format(link=stop),
                ]
            )
            first = message.text.split("\n", 1)[0]
            await send_mail(mail, build_message(mail, settings.email, first, text, stop))
            return
        if not settings.push_on or self.push is None or self._client is None:
            return
        payload = {
            "title": message.title,
            "body": message.text,
            "url": message.path,
            "unsubscribe": self.unsubscribe_link(account_id, "push"),
        }
        for sub in await self.store.run(self.db.subscriptions, account_id):
            try:
                await self.push.send(self._client, sub, payload)
            except Gone:
                await self.store.run(self.db.unsubscribe_browser, None, sub.endpoint)
            except httpx.HTTPError as exc:
                log.warning("push to a browser of account %s failed: %s", account_id, exc)

    async def confirm_email(self, account_id: int, email: str, lang: str) -> bool:
        """Send the link that confirms ``email`` is the account's (rate-limited as the other
        e-mails); whether it was sent."""
        mail = self.config.mail
        if mail is None:
            return False
        wait = await self.store.run(
            self.db.claim_send, account_id, "email", self.config.email_interval
        )
        if wait > 0:
            return False
        _ = translator(lang).gettext
        token = sign(self.secret, "confirm", account_id, email)
        text = _("Open this link to receive notifications from Sequence at this address: {link}")
        body = text.format(link=self.link(f"/api/notify/confirm?token={token}"))
        subject = _("Confirm your address")
        await send_mail(mail, build_message(mail, email, subject, body, None))
        return True
