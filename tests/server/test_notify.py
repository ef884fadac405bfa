"""Notifications away from the page (issue 35): e-mails received by a local SMTP server
(aiosmtpd) and Web Push requests received by a local push service that decrypts them with the
subscription's own keys (RFC 8291) and checks their VAPID signature (RFC 8292); opt-in,
confirmed addresses, signed unsubscribe links, batching and rate limits, and no notification
carrying a card of anyone's hand."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from sequence.engine.cards import card_name, card_symbol
from sequence.server.notify.mail import MailConfig
from sequence.server.notify.notifier import NotifyConfig
from sequence.server.tables.registry import table_from

from .conftest import Client, ServerThread, start
from .notify_parts import Browser as PushBrowser
from .notify_parts import Inbox, PushService, check_vapid, decrypt, parts
from .test_accounts import Browser, account_server, unique

PUBLIC = "http://sequence.test"


@pytest.fixture
def real_parts() -> Iterator[tuple[Any, Inbox, PushService]]:
    yield from parts()


def notify_server(db: str, smtp_port: int, **limits: float) -> ServerThread:
    config = NotifyConfig(
        public_url=PUBLIC,
        mail=MailConfig("127.0.0.1", smtp_port, sender="games@sequence.test", security="none"),
        push_http_hosts=("127.0.0.1",),
        batch_seconds=limits.get("batch", 0.2),
        email_interval=limits.get("email", 0.0),
        push_interval=limits.get("push", 0.0),
    )
    return account_server(db, notify=config)


def local(server: ServerThread, link: str) -> str:
    """A link of a notification, on the test's server."""
    assert link.startswith(PUBLIC), link
    return link[len(PUBLIC) :]


def hidden_cards(server: ServerThread, code: str) -> set[str]:
    """Every card of every hand at the table, as notation and as symbols."""
    table = table_from(server.stored(code))
    assert table.state is not None
    cards = {c for seat in range(len(table.seats)) for c in table.state.hand_of(seat)}
    return {card_name(c) for c in cards} | {card_symbol(c) for c in cards}


def assert_no_card(text: str, cards: set[str]) -> None:
    for card in cards:
        assert not re.search(rf"(?<![\w]){re.escape(card)}(?![\w])", text), (card, text)


def two_player_table(server: ServerThread, host: Browser, guest: Browser) -> str:
    created = host.post("/api/tables", {"game": "classic", "players": 2, "name": "Anna"}).json()
    code = created["code"]
    r = guest.post(f"/api/tables/{code}/join", {"name": "Ben"})
    assert r.status_code == 200, r.text
    start(server, code, created["host_token"])
    return str(code)


def test_email_and_push_reach_a_player_away_with_nothing_of_a_hand(
    sqlite_url: str, real_parts: tuple[Any, Inbox, PushService]
) -> None:
    controller, inbox, service = real_parts
    with notify_server(sqlite_url, controller.port) as srv:
        anna, ben = Browser(srv), Browser(srv)
        anna.sign_up(unique("anna"))
        ben.sign_up(unique("ben"))
        info = anna.get("/api/notify").json()
        assert (info["email_on"], info["push_on"], info["email_available"]) == (False, False, True)
        # Opt in: the address gets a confirmation link, and nothing else until it is opened.
        r = anna.post("/api/notify", {"lang": "en", "email": "anna@example.org",
                                      "email_on": True, "push_on": True})  # fmt: skip
        assert r.status_code == 200, r.text
        assert r.json()["confirmation_sent"] and not r.json()["email_confirmed"]
        [confirm] = inbox.wait(1)
        assert inbox.recipients[0] == ["anna@example.org"]
        link = re.search(r"http://\S+", confirm.get_content())
        assert link is not None
        forged = local(srv, link.group(0)).replace("token=", "token=x")
        assert anna.get(forged).status_code == 400
        page = anna.get(local(srv, link.group(0)))
        assert page.status_code == 200 and "confirmed" in page.text
        assert anna.get("/api/notify").json()["email_confirmed"] is True
        phone = PushBrowser(service.endpoint("anna-phone"))
        r = anna.post("/api/notify/push", phone.subscription())
        assert r.status_code == 200, r.text

        # Anna (seat 0) is not on the page: once it is her turn, she is told.
        code = two_player_table(srv, anna, ben)
        ben_seat = ben.post(f"/api/account/seats/{code}").json()["seats"][0]["seat_token"]
        c = Client(srv, code, ben_seat)
        view = c.wait(lambda s: s["view"] is not None)
        if view["view"]["to_move"] == 1:  # Ben plays first
            c.send({"type": "move", "version": view["version"],
                    "move": view["view"]["legal_moves"][0], "id": "m1"})  # fmt: skip
            c.wait(lambda s: s["view"]["to_move"] == 0)
        [push] = service.wait(1)
        claims = check_vapid(push, info["vapid_key"], f"http://127.0.0.1:{service.port}")
        assert claims["sub"] == "mailto:sequence@localhost"
        message = decrypt(push, phone)
        assert message["body"] == f"It is your turn at table {code}."
        assert message["url"] == f"/t/{code}"
        mails = inbox.wait(2)
        turn_mail = mails[1]
        assert turn_mail["Subject"] == f"It is your turn at table {code}."
        assert turn_mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert f"{PUBLIC}/t/{code}" in turn_mail.get_content()

        # Ben resigns: the game is over, and Anna, away, is told she won.
        c.send({"type": "resign"})
        c.wait(lambda s: s["table"]["status"] == "finished")
        c.close()
        end = decrypt(service.wait(2)[1], phone)
        assert end["body"] == f"The game at table {code} is over: you won."
        end_mail = inbox.wait(3)[2]
        assert "you won" in end_mail.get_content()

        # Nothing of any hand in anything sent (nor a token or the seed).
        cards = hidden_cards(srv, code)
        stored = srv.stored(code)
        texts = [decrypt(p, phone) for p in service.received]
        for text in [*(str(t) for t in texts), *(m.as_string() for m in inbox.mails)]:
            assert_no_card(text, cards)
            assert ben_seat not in text and str(stored.seed) not in text

        # The unsubscribe link (one click, RFC 8058) stops e-mails; push stays as chosen.
        unsubscribe = end_mail["List-Unsubscribe"].strip("<>")
        assert "Unsubscribe" in anna.get(local(srv, unsubscribe)).text
        assert anna.get("/api/notify").json()["email_on"] is True  # opening it changes nothing
        form = {"Content-Type": "application/x-www-form-urlencoded"}
        r = anna.http.post(local(srv, unsubscribe), content=b"List-Unsubscribe=One-Click",
                           headers=form)  # fmt: skip
        assert r.status_code == 200 and "no more e-mails" in r.text
        after = anna.get("/api/notify").json()
        assert (after["email_on"], after["push_on"]) == (False, True)


def test_many_games_batch_into_one_message_within_the_rate_limit(
    sqlite_url: str, real_parts: tuple[Any, Inbox, PushService]
) -> None:
    controller, _inbox, service = real_parts
    with notify_server(sqlite_url, controller.port, batch=0.3, push=2.0) as srv:
        anna, ben = Browser(srv), Browser(srv)
        anna.sign_up(unique("anna"))
        ben.sign_up(unique("ben"))
        laptop = PushBrowser(service.endpoint("laptop"))
        anna.post("/api/notify", {"lang": "de", "email_on": False, "push_on": True})
        assert anna.post("/api/notify/push", laptop.subscription()).status_code == 200

        def anna_to_move() -> str:
            # Anna against a bot that moves at once if it plays first: then it is her turn.
            body = {"game": "classic", "players": 2, "name": "Anna", "bots": [None, "easy"]}
            created = anna.post("/api/tables", body).json()
            start(srv, created["code"], created["host_token"])
            return str(created["code"])

        first = anna_to_move()
        [one] = service.wait(1)
        assert decrypt(one, laptop)["body"] == f"Du bist am Zug an Tisch {first}."
        sent = time.monotonic()
        anna_to_move(), anna_to_move()
        two = service.wait(2, timeout=20)[1]
        assert time.monotonic() - sent >= 1.5  # not before the push interval
        message = decrypt(two, laptop)
        assert message["body"] == "Du bist an 2 Tischen am Zug."
        assert message["url"] == "/games"
        time.sleep(1.0)
        assert len(service.received) == 2

        # A player on the page is not told (the bot answers her move: her turn again); once she
        # leaves the page during her turn, she is.
        code = anna_to_move()
        anna_seat = anna.post(f"/api/account/seats/{code}").json()["seats"][0]["seat_token"]
        c = Client(srv, code, anna_seat)
        view = c.wait(lambda s: s["view"] is not None and s["view"]["to_move"] == 0)
        c.send({"type": "move", "version": view["version"],
                "move": view["view"]["legal_moves"][0], "id": "m1"})  # fmt: skip
        c.wait(lambda s: s["version"] > view["version"] + 1 and s["view"]["to_move"] == 0)
        time.sleep(3.0)
        assert len(service.received) == 2
        c.close()
        assert decrypt(service.wait(3)[2], laptop)["body"] == f"Du bist am Zug an Tisch {code}."


def test_a_gone_subscription_is_forgotten_and_bad_input_changes_nothing(
    sqlite_url: str, real_parts: tuple[Any, Inbox, PushService]
) -> None:
    controller, _inbox, service = real_parts
    with notify_server(sqlite_url, controller.port) as srv:
        anna, ben = Browser(srv), Browser(srv)
        assert anna.get("/api/notify").status_code == 401
        anna.sign_up(unique("anna"))
        ben.sign_up(unique("ben"))
        old = PushBrowser(service.endpoint("old"))
        good = old.subscription()
        bad: list[tuple[dict[str, Any], str]] = [
            ({**good, "endpoint": "http://203.0.113.9/push"}, "https://"),
            ({**good, "keys": {**good["keys"], "p256dh": "AAAA"}}, "P-256"),
            ({**good, "keys": {**good["keys"], "auth": "AAAA"}}, "16 bytes"),
        ]
        for body, reason in bad:
            r = anna.post("/api/notify/push", body)
            assert r.status_code == 422 and reason in r.json()["message"], r.text
        for settings, reason in [
            ({"lang": "xx", "email_on": False, "push_on": True}, "lang"),
            ({"lang": "en", "email": "not an address", "email_on": True, "push_on": False}, "not"),
            ({"lang": "en", "email_on": True, "push_on": False}, "address"),
        ]:
            r = anna.post("/api/notify", settings)
            status = 400 if reason == "lang" else 422  # not of the description, or refused
            assert r.status_code == status and reason in r.json()["message"], r.text
        assert anna.get("/api/notify").json()["push_on"] is False
        assert anna.post("/api/notify", {"lang": "en", "email_on": False, "push_on": True},
                         csrf=False).status_code == 403  # fmt: skip
        r = anna.post("/api/notify", {"lang": "en", "email_on": False, "push_on": True})
        assert r.status_code == 200
        assert anna.post("/api/notify/push", good).status_code == 200
        service.gone.add("/push/old")
        body = {"game": "classic", "players": 2, "name": "Anna", "bots": [None, "easy"]}
        created = anna.post("/api/tables", body).json()
        start(srv, created["code"], created["host_token"])
        service.wait(1)
        deadline = time.monotonic() + 10
        while _subscriptions(srv) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _subscriptions(srv) == 0


def _subscriptions(server: ServerThread) -> int:
    from sqlalchemy import func, select

    from sequence.server.storage.socialdb import PushSubscriptionRow
    from sequence.server.storage.store import Store

    store = Store(server.db)
    try:
        with store.sessions() as session:
            return int(session.scalar(select(func.count()).select_from(PushSubscriptionRow)) or 0)
    finally:
        store.close()
