"""What an account is made of: a name anyone can read, a password nobody can, and seat tokens
that every device of the account's player gets alike.

- **Names** (:func:`check_name`): 3 to 24 letters, digits, marks, ``.``, ``_`` or ``-`` after
  NFKC normalisation; no control, invisible or right-to-left character (which could make one
  name look like another, or reorder the text around it). ``Anna`` and ``anna`` are one name:
  the stored ``name_key`` is the case-folded form, and it is unique.
- **Passwords** (:func:`check_password`, :class:`Passwords`): 8 to 256 characters, not a
  common password, not the name, not one or two characters repeated. Stored only as Argon2id
  (argon2-cffi) in the PHC string format; checked in a worker thread, a few at a time, so that
  hashing never blocks the event loop nor takes all the memory.
- **Seat tokens** (:class:`Owner`): a seat taken by a signed-in player gets a token derived
  from the account's secret ``seat_key`` (HMAC-SHA256), so the server can give the same token
  to each device the player signs in on, while storing, as for guests, only its SHA-256.

>>> check_name("  Anna_K ")
('Anna_K', 'anna_k')
>>> check_name("ab")
Traceback (most recent call last):
...
sequence.server.common.errors.RequestError: a name has 3 to 24 characters
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import secrets
import unicodedata
from dataclasses import dataclass
from typing import Any, Final

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError

from ...i18n import N_
from ..common.errors import RequestError
from ..storage.db import hash_token

NAME_MIN: Final = 3
NAME_MAX: Final = 24
NAME_KEY_MAX: Final = 40
"""The case-folded name's length in the database (folding may lengthen a name: ``ß`` is ``ss``)."""
NAME_PUNCTUATION: Final = frozenset("._-")
PASSWORD_MIN: Final = 8
PASSWORD_MAX: Final = 256
"""Characters; a longer one is refused before it is hashed (no hashing of megabytes)."""
DELETED_NAME: Final = N_("deleted player")
"""What the seats of a deleted account show instead of its name (the page translates it)."""

RIGHT_TO_LEFT: Final = frozenset({"R", "AL", "RLE", "RLO", "RLI", "LRE", "LRO", "LRI", "FSI",
                                  "PDF", "PDI"})  # fmt: skip
"""Unicode bidirectional classes refused in names: right-to-left letters and every embedding,
override and isolate control."""

_COMMON = (
    "password password1 password123 passw0rd 12345678 123456789"  # i18n: ignore
    " 1234567890 0123456789 87654321 11111111 00000000 qwertyui qwerty123 qwertyuiop"
    " 1q2w3e4r 1q2w3e4r5t asdfghjk"
    " asdfghjkl zxcvbnm1 iloveyou letmein1 welcome1 sunshine princess football baseball"
    " superman trustno1 dragon12 monkey12 abc12345 abcd1234 admin123 changeme starwars"
    " whatever computer sequence sequence1 sequence123"
)
COMMON_PASSWORDS: Final = frozenset(_COMMON.split())
"""Passwords refused whatever else they are (compared case-folded): the most used ones, and
this game's name."""


def check_name(raw: Any) -> tuple[str, str]:
    """The account name ``raw`` (normalised) and its unique key (case-folded), or a refusal
    naming what is wrong."""
    if not isinstance(raw, str):
        raise RequestError("bad_message", N_("a name is text"))
    name = unicodedata.normalize("NFKC", raw).strip()
    for ch in name:
        category = unicodedata.category(ch)
        if category[0] == "C" or (category[0] == "Z" and ch != " "):
            raise RequestError(
                "bad_message",
                N_("a name cannot hold control or invisible characters"),
            )
        if unicodedata.bidirectional(ch) in RIGHT_TO_LEFT:
            raise RequestError(
                "bad_message",
                N_("a name cannot hold right-to-left characters or direction controls"),
            )
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise RequestError(
            "bad_message", N_("a name has {min} to {max} characters"), min=NAME_MIN, max=NAME_MAX
        )
    for ch in name:
        if not (unicodedata.category(ch)[0] in "LNM" or ch in NAME_PUNCTUATION):
            raise RequestError(
                "bad_message", N_("a name holds only letters, digits, dots, dashes and _")
            )
    key = unicodedata.normalize("NFKC", name.casefold())
    if len(key) > NAME_KEY_MAX:
        raise RequestError(
            "bad_message", N_("a name has {min} to {max} characters"), min=NAME_MIN, max=NAME_MAX
        )
    return name, key


def check_password(password: Any, name_key: str, field: str = "password") -> str:
    """``password`` if it is strong enough for the account ``name_key``, else a refusal that
    says why (never the password itself).

    >>> check_password("correct horse", "anna")
    'correct horse'
    >>> check_password("qwerty123", "anna")
    Traceback (most recent call last):
    ...
    sequence.server.common.errors.RequestError: this password is one of the most used: choose another
    """  # noqa: E501 (a doctest's exception names its module)
    if not isinstance(password, str):
        raise RequestError("bad_message", N_("{field} is text"), field=field)
    if len(password) > PASSWORD_MAX:
        raise RequestError(
            "bad_message", N_("a password has at most {max} characters"), max=PASSWORD_MAX
        )
    if len(password) < PASSWORD_MIN:
        raise RequestError(
            "bad_message", N_("a password has at least {min} characters"), min=PASSWORD_MIN
        )
    folded = password.casefold()
    if folded in COMMON_PASSWORDS:
        raise RequestError(
            "bad_message", N_("this password is one of the most used: choose another")
        )
    if name_key in folded:
        raise RequestError("bad_message", N_("a password cannot contain the name"))
    if len(set(password)) < 3:
        raise RequestError("bad_message", N_("this password repeats too few characters"))
    return password


class Passwords:
    """Argon2id hashing through argon2-cffi, in worker threads, at most ``concurrent`` at once.

    The defaults are argon2-cffi's (RFC 9106's second recommendation: 3 passes over 64 MiB,
    4 lanes); tests pass cheaper ones. A hash made with other parameters is still checked, and
    replaced at the next sign-in (:meth:`needs_rehash`)."""

    def __init__(
        self,
        time_cost: int = 3,
        memory_kib: int = 65_536,
        parallelism: int = 4,
        concurrent: int = 2,
    ) -> None:
        self._hasher = PasswordHasher(
            time_cost=time_cost, memory_cost=memory_kib, parallelism=parallelism, type=Type.ID
        )
        self._dummy: str | None = None
        """Checked for an unknown name, so that its answer takes as long as a wrong password's
        (made at the first such sign-in)."""
        self._slots = asyncio.Semaphore(concurrent)

    async def hash(self, password: str) -> str:
        """The PHC string of a new Argon2id hash of ``password`` (a fresh salt)."""
        async with self._slots:
            return await asyncio.to_thread(self._hasher.hash, password)

    async def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` is the one ``stored`` was made from (``None``: no such account;
        the work is done all the same, and the answer is no)."""
        async with self._slots:
            return await asyncio.to_thread(self._verify, stored, password)

    def _verify(self, stored: str | None, password: str) -> bool:
        if stored is None and self._dummy is None:
            self._dummy = self._hasher.hash(secrets.token_urlsafe(16))
        try:
            ok = self._hasher.verify(stored or self._dummy or "", password)
        except (VerificationError, InvalidHashError):
            return False
        return ok and stored is not None

    def needs_rehash(self, stored: str) -> bool:
        """Whether ``stored`` was made with other parameters than this hasher's."""
        return self._hasher.check_needs_rehash(stored)


def new_seat_key() -> str:
    """A fresh secret for an account's seat tokens (hex)."""
    return secrets.token_hex(32)


@dataclass(frozen=True)
class Owner:
    """A signed-in player taking or claiming seats: their account and its seat key."""

    account_id: int
    name: str
    seat_key: str

    def seat_token(self, host_hash: str, seat: int) -> tuple[str, str]:
        """The token of ``seat`` at the table whose host hash is ``host_hash``, and the hash
        stored in its place. The same on every call (every device), different for every
        account, table and seat; a rematch keeps the host hash, so its seats keep their
        tokens, as guests' do."""
        digest = hmac.new(
            bytes.fromhex(self.seat_key), f"seat:{host_hash}:{seat}".encode(), hashlib.sha256
        ).digest()
        token = base64.urlsafe_b64encode(digest[:24]).decode().rstrip("=")
        return token, hash_token(token)
