"""Accounts in the browser (Playwright, Debian's Chromium): sign up on a laptop, play, sign in
on a phone and find the same seat mid-game; a guest who signs up keeps the seat they hold, and
finds it on another device; the account page in French. ``scripts/screenshots.py account``
photographs the account page of the guest who signed up."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import pytest

from sequence.server.accounts.account import Passwords

from .conftest import ServerThread
from .scenes import PASSWORD, act, my_turn, new_game_against_a_bot, play_until, sign, state

pytestmark = pytest.mark.browser


@pytest.fixture
def site(sqlite_url: str) -> Iterator[ServerThread]:
    cheap = Passwords(time_cost=1, memory_kib=8192, parallelism=1)
    with ServerThread(sqlite_url, bot_delay=0.05, passwords=cheap) as srv:
        yield srv


def test_sign_up_then_find_the_same_seat_on_another_device_mid_game(
    browser: Any, site: ServerThread
) -> None:
    name = f"ann{secrets.token_hex(3)}"
    laptop_ctx = browser.new_context(viewport={"width": 1200, "height": 900})
    phone_ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    laptop = laptop_ctx.new_page()
    sign(laptop, site.url, "signup", name)
    code = new_game_against_a_bot(laptop, site.url)
    play_until(laptop, 4)
    my_turn(laptop)

    phone = phone_ctx.new_page()
    phone.goto(site.url + f"/t/{code}")  # a guest here: only watching
    phone.wait_for_function("() => window.seq.msg && window.seq.msg.view")
    assert phone.evaluate("() => window.seq.msg.you.seat") is None
    sign(phone, site.url, "signin", name)
    phone.goto(site.url + f"/t/{code}")
    phone.wait_for_function("() => window.seq.msg && window.seq.msg.view")
    mine = state(laptop)
    theirs = state(phone)
    assert theirs["you"]["seat"] == 0
    assert theirs["version"] == mine["version"]
    assert theirs["view"]["hand"] == mine["view"]["hand"]
    # A move on the phone is the laptop's seat's move too.
    version = theirs["version"]
    assert act(phone)
    laptop.wait_for_function(f"() => window.seq.msg.version > {version}")
    assert state(laptop)["view"]["moves"][version] == state(phone)["view"]["moves"][version]
    for ctx in (laptop_ctx, phone_ctx):
        ctx.close()


def test_a_guest_signs_up_and_keeps_the_seat_then_finds_it_elsewhere(
    browser: Any, site: ServerThread
) -> None:
    name = f"bea{secrets.token_hex(3)}"
    guest_ctx, other_ctx = browser.new_context(), browser.new_context()
    guest = guest_ctx.new_page()
    code = new_game_against_a_bot(guest, site.url)
    play_until(guest, 2)
    before = guest.evaluate(f"() => localStorage.getItem('seq.seat.{code}')")
    assert before
    sign(guest, site.url, "signup", name)
    after = guest.evaluate(f"() => localStorage.getItem('seq.seat.{code}')")
    assert after and after != before  # claimed: the account's token replaced the guest's
    guest.wait_for_selector("#account-games td.code")
    assert guest.inner_text("#account-games td.code") == code
    guest.goto(site.url + f"/t/{code}")
    guest.wait_for_function("() => window.seq.msg && window.seq.msg.view")
    assert state(guest)["you"]["seat"] == 0

    other = other_ctx.new_page()
    sign(other, site.url, "signin", name)
    other.goto(site.url + f"/t/{code}")
    other.wait_for_function("() => window.seq.msg && window.seq.msg.view")
    assert state(other)["you"]["seat"] == 0
    assert other.evaluate(f"() => localStorage.getItem('seq.seat.{code}')") == after
    for ctx in (guest_ctx, other_ctx):
        ctx.close()


def test_the_account_page_is_translated_and_labelled(browser: Any, site: ServerThread) -> None:
    ctx = browser.new_context(locale="fr-FR")
    page = ctx.new_page()
    page.goto(site.url + "/account")
    page.wait_for_selector("#signin-form")
    for form in ("signin", "signup"):  # every field has its label, in French
        for field in ("name", "password"):
            label = page.locator(f"#{form}-{field}").evaluate("(el) => el.labels[0].innerText")
            assert label and label not in ("User name", "Password")
    assert page.inner_text("#account-link") == "Se connecter"
    assert page.locator("#signup-form h2").inner_text() == "Créer un compte"
    page.fill("#signup-name", "ab")
    page.fill("#signup-password", PASSWORD)
    page.click("#signup-form button[type=submit]")
    page.wait_for_selector("#signup-form .error")
    assert "caractères" in page.inner_text("#signup-form .error")  # the server's reason, in French
    ctx.close()


def test_change_the_password_sign_out_and_delete_from_the_page(
    browser: Any, site: ServerThread
) -> None:
    name = f"cy{secrets.token_hex(3)}"
    page = browser.new_context().new_page()
    page.on("dialog", lambda dialog: dialog.accept())  # "Delete your account?"
    sign(page, site.url, "signup", name)
    page.fill("#old-password", "not my password")
    page.fill("#new-password", "a new secret phrase")
    page.click("#password-form button[type=submit]")
    page.wait_for_selector("#password-form .error")
    assert "the password is wrong" in page.inner_text("#password-form .error")
    page.fill("#old-password", PASSWORD)
    page.click("#password-form button[type=submit]")
    page.wait_for_selector("#password-form .notice")
    page.click("#signout")
    page.wait_for_selector("#create")
    assert page.inner_text("#account-link") == "Sign in"
    page.goto(site.url + "/account")
    page.fill("#signin-name", name)
    page.fill("#signin-password", "a new secret phrase")
    page.click("#signin-form button[type=submit]")
    page.wait_for_selector("#delete-form")
    page.fill("#delete-password", "a new secret phrase")
    page.click("#delete-form button[type=submit]")
    page.wait_for_selector("#create")
    page.goto(site.url + "/account")
    page.wait_for_selector("#signin-form")
    page.fill("#signin-name", name)
    page.fill("#signin-password", "a new secret phrase")
    page.click("#signin-form button[type=submit]")
    page.wait_for_selector("#signin-form .error")
    assert "wrong name or password" in page.inner_text("#signin-form .error")
