"""Friends, blocks, presence and challenges in the database: the queries behind :mod:`.api`.

Every method is synchronous and runs on the store's database thread
(``await store.run(social.method, ...)``). A friendship is two rows (``friend`` both ways); a
request is one (``asked``); a block is one row of the blocker's (``blocked``) and removes any
friendship or request between the two.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, delete, or_, select, update

from ..storage.db import AccountRow, now
from ..storage.socialdb import ChallengedRow, ChallengeRow, FriendRow, PresenceRow
from ..storage.store import Store

ONLINE = timedelta(minutes=2)
"""A player whose page said it was there this recently shows as online."""


@dataclass(frozen=True)
class Friends:
    """An account's friends (name, online), the requests each way, and whom it blocked."""

    friends: list[tuple[str, bool]]
    asking_me: list[str]
    asked: list[str]
    blocked: list[str]


@dataclass(frozen=True)
class Challenge:
    """A challenge as stored: who sent it, the table's settings, each friend's seat and answer."""

    id: int
    from_id: int
    from_name: str
    settings: dict[str, Any]
    status: str
    table_code: str | None
    invited: list[tuple[int, str, int, str]]
    """(account id, name, seat, answer) of every friend asked."""


def _aware(when: datetime) -> datetime:
    return when if when.tzinfo is not None else when.replace(tzinfo=now().tzinfo)


class SocialStore:
    """The friends' and challenges' rows of every account."""

    def __init__(self, store: Store) -> None:
        self._sessions = store.sessions

    # --- friends ---------------------------------------------------------------------------

    def status(self, account_id: int, other_id: int) -> str | None:
        """What ``account_id`` made of ``other_id`` (``asked``, ``friend``, ``blocked``)."""
        with self._sessions() as session:
            row = session.get(FriendRow, (account_id, other_id))
            return None if row is None else row.status

    def ask(self, account_id: int, other_id: int) -> str:
        """Ask ``other_id`` to be friends, or accept their request; what it is now:
        ``friend``, ``asked`` or ``blocked`` (one of the two blocked the other: nothing done,
        and the asker is not told which)."""
        with self._sessions.begin() as session:
            mine = session.get(FriendRow, (account_id, other_id))
            theirs = session.get(FriendRow, (other_id, account_id))
            if (mine and mine.status == "blocked") or (theirs and theirs.status == "blocked"):
                return "blocked"
            if mine and mine.status == "friend":
                return "friend"
            if theirs is not None and theirs.status == "asked":
                theirs.status = "friend"
                if mine is None:
                    session.add(
                        FriendRow(account_id=account_id, other_id=other_id, status="friend")
                    )
                else:
                    mine.status = "friend"
                return "friend"
            if mine is None:
                session.add(FriendRow(account_id=account_id, other_id=other_id, status="asked"))
            return "asked"

    def remove(self, account_id: int, other_id: int) -> None:
        """End a friendship, a request either way, or one's own block."""
        with self._sessions.begin() as session:
            session.execute(
                delete(FriendRow).where(
                    or_(
                        and_(FriendRow.account_id == account_id, FriendRow.other_id == other_id),
                        and_(
                            FriendRow.account_id == other_id,
                            FriendRow.other_id == account_id,
                            FriendRow.status != "blocked",
                        ),
                    )
                )
            )

    def block(self, account_id: int, other_id: int) -> None:
        """Block ``other_id``: no friendship, request or challenge between the two any more."""
        self.remove(account_id, other_id)
        with self._sessions.begin() as session:
            session.add(FriendRow(account_id=account_id, other_id=other_id, status="blocked"))
            for sender, other in ((account_id, other_id), (other_id, account_id)):
                session.execute(
                    update(ChallengeRow)
                    .where(
                        ChallengeRow.status == "open",
                        ChallengeRow.from_id == sender,
                        ChallengeRow.id.in_(
                            select(ChallengedRow.challenge_id).where(
                                ChallengedRow.account_id == other
                            )
                        ),
                    )
                    .values(status="cancelled")
                )

    def touch(self, account_id: int) -> None:
        """The account's page is there now (presence)."""
        with self._sessions.begin() as session:
            row = session.get(PresenceRow, account_id)
            if row is None:
                session.add(PresenceRow(account_id=account_id, seen_at=now()))
            else:
                row.seen_at = now()

    def friends(self, account_id: int) -> Friends:
        """The account's lists, names in alphabetical order."""
        since = now() - ONLINE
        with self._sessions() as session:
            rows = session.execute(
                select(FriendRow.account_id, FriendRow.other_id, FriendRow.status).where(
                    or_(FriendRow.account_id == account_id, FriendRow.other_id == account_id)
                )
            ).all()
            ids = {r.other_id for r in rows} | {r.account_id for r in rows}
            names = dict(
                session.execute(
                    select(AccountRow.id, AccountRow.name).where(AccountRow.id.in_(ids))
                ).all()
            )
            seen = dict(
                session.execute(
                    select(PresenceRow.account_id, PresenceRow.seen_at).where(
                        PresenceRow.account_id.in_(
                            [r.other_id for r in rows if r.account_id == account_id]
                        )
                    )
                ).all()
            )
        friends, asking, asked, blocked = [], [], [], []
        for row in rows:
            if row.account_id == account_id:
                name = names[row.other_id]
                if row.status == "friend":
                    online = row.other_id in seen and _aware(seen[row.other_id]) >= since
                    friends.append((name, online))
                elif row.status == "asked":
                    asked.append(name)
                else:
                    blocked.append(name)
            elif row.status == "asked":
                asking.append(names[row.account_id])
        return Friends(sorted(friends), sorted(asking), sorted(asked), sorted(blocked))

    def friend_ids(self, account_id: int, ids: list[int]) -> set[int]:
        """Those of ``ids`` who are the account's friends."""
        with self._sessions() as session:
            return set(
                session.scalars(
                    select(FriendRow.other_id).where(
                        FriendRow.account_id == account_id,
                        FriendRow.status == "friend",
                        FriendRow.other_id.in_(ids),
                    )
                )
            )

    # --- challenges ------------------------------------------------------------------------

    def challenge(
        self, from_id: int, settings: dict[str, Any], invited: list[tuple[int, int]]
    ) -> int:
        """Store a challenge to ``invited`` (account id, seat); its id."""
        with self._sessions.begin() as session:
            row = ChallengeRow(from_id=from_id, settings=json.dumps(settings), status="open")
            session.add(row)
            session.flush()
            for account, seat in invited:
                session.add(ChallengedRow(challenge_id=row.id, account_id=account, seat=seat))
            return row.id

    def get(self, challenge_id: int) -> Challenge | None:
        """One challenge."""
        with self._sessions() as session:
            row = session.get(ChallengeRow, challenge_id)
            if row is None:
                return None
            invited = session.execute(
                select(ChallengedRow, AccountRow.name)
                .join(AccountRow, AccountRow.id == ChallengedRow.account_id)
                .where(ChallengedRow.challenge_id == challenge_id)
                .order_by(ChallengedRow.seat)
            ).all()
            sender = session.get_one(AccountRow, row.from_id)
            return Challenge(
                row.id, row.from_id, sender.name, json.loads(row.settings), row.status,
                row.table_code, [(c.account_id, name, c.seat, c.answer) for c, name in invited],
            )  # fmt: skip

    def answer(self, challenge_id: int, account_id: int, accept: bool) -> Challenge | None:
        """The friend's answer to an open challenge (one who declines declines it for all);
        the challenge after it (``None``: not open, or not theirs to answer)."""
        with self._sessions.begin() as session:
            result = session.execute(
                update(ChallengedRow)
                .where(
                    ChallengedRow.challenge_id == challenge_id,
                    ChallengedRow.account_id == account_id,
                    ChallengedRow.challenge_id.in_(
                        select(ChallengeRow.id).where(ChallengeRow.status == "open")
                    ),
                )
                .values(answer="accepted" if accept else "declined")
            )
            if not result.rowcount:  # type: ignore[attr-defined]
                return None
            if not accept:
                session.get_one(ChallengeRow, challenge_id).status = "declined"
        return self.get(challenge_id)

    def settle(self, challenge_id: int, status: str, table_code: str | None = None) -> bool:
        """Close an open challenge (``accepted`` with its table, ``cancelled``); whether this
        call closed it (of two last answers at once, one makes the table)."""
        with self._sessions.begin() as session:
            result = session.execute(
                update(ChallengeRow)
                .where(ChallengeRow.id == challenge_id, ChallengeRow.status == "open")
                .values(status=status, table_code=table_code)
            )
            return bool(result.rowcount)  # type: ignore[attr-defined]

    def challenges(self, account_id: int) -> list[Challenge]:
        """The account's challenges, sent and received, newest first (the last 50)."""
        with self._sessions() as session:
            ids = session.scalars(
                select(ChallengeRow.id)
                .where(
                    or_(
                        ChallengeRow.from_id == account_id,
                        ChallengeRow.id.in_(
                            select(ChallengedRow.challenge_id).where(
                                ChallengedRow.account_id == account_id
                            )
                        ),
                    )
                )
                .order_by(ChallengeRow.id.desc())
                .limit(50)
            ).all()
        found = [self.get(i) for i in ids]
        return [c for c in found if c is not None]
