"""Players and their ratings in the database: who sat where, a finished rated game's ratings
(applied exactly once, whichever server process sees the end), the leaderboard and a player's
page.

Every method here is synchronous and runs on the store's database thread
(``store.run(book.method, ...)``). A *player* (:class:`~.ratingdb.PlayerRow`) is a guest known
by a secret player token, an account, or a bot level; see :mod:`.ratings` for the rating itself.
"""

from __future__ import annotations

import json
import logging
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from ...engine import config_from_dict
from ...i18n import N_
from ..common.errors import RequestError
from ..storage.db import SeatRow, TableRow, hash_token, now
from ..storage.ratingdb import (
    PlayerRow,
    RatedGameRow,
    RatingHistoryRow,
    RatingRow,
    TablePlayerRow,
)
from ..tables import access
from .rating import FAMILIES, Rating, display_rating, family_of, rate, winner_of

log = logging.getLogger("sequence.server")

BOT_RATINGS = Path(__file__).parent / "bot_ratings.json"
"""The bots' starting ratings, written by ``scripts/calibrate_bot_ratings.py``."""

GAMES_SHOWN = 100
"""A player's page lists this many of their latest games."""


@dataclass(frozen=True)
class Player:
    """A player as requests see them."""

    id: int
    kind: str
    name: str


def load_calibration(path: Path = BOT_RATINGS) -> dict[str, dict[str, Rating]]:
    """The bots' calibrated ratings by family and level (empty if the file is missing)."""
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {
        family: {level: Rating(r["mu"], r["sigma"], r["games"]) for level, r in levels.items()}
        for family, levels in data["ratings"].items()
    }


def _player(row: PlayerRow) -> Player:
    return Player(row.id, row.kind, row.name)


def _rating(row: RatingRow | None) -> Rating:
    return Rating() if row is None else Rating(row.mu, row.sigma, row.games)


def _when(at: datetime | None) -> str | None:
    return at.isoformat() if at is not None else None


class PlayerBook:
    """Players, ratings and the rated games' bookkeeping in the database of ``engine``."""

    def __init__(self, engine: Engine) -> None:
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        self.locking = engine.dialect.name != "sqlite"
        """Whether rows can be locked (``SELECT ... FOR UPDATE``); SQLite has one writer."""

    # --- who is who ----------------------------------------------------------------------------

    def new_guest(self, name: str) -> tuple[Player, str]:
        """A new guest player called ``name``; return it and its secret player token."""
        token, digest = access.new_token()
        with self._sessions.begin() as session:
            row = PlayerRow(kind="guest", name=name, token_hash=digest)
            session.add(row)
            session.flush()
            return _player(row), token

    def by_token(self, token: str | None) -> Player | None:
        """The guest whose player token ``token`` is (``None``: no such player)."""
        if not isinstance(token, str) or not token:
            return None
        with self._sessions() as session:
            row = session.scalars(
                select(PlayerRow).where(PlayerRow.token_hash == hash_token(token))
            ).one_or_none()
            return None if row is None else _player(row)

    def require(self, token: str | None) -> Player:
        """The player of ``token``, or a refusal that says the token is unknown."""
        player = self.by_token(token)
        if player is None:
            raise RequestError(
                "bad_message", N_("unknown player token: ask for a new one; nothing was done")
            )
        return player

    def for_account(self, account_id: int, name: str, guest_token: str | None) -> Player:
        """The player of a signed-in account, made on first need. A guest who signs up (or in)
        keeps what they played: the first time, the guest player whose token the browser holds
        becomes the account's, ratings, history and games with it (its token then no longer
        names anybody)."""
        try:
            with self._sessions.begin() as session:
                row = session.scalars(
                    select(PlayerRow).where(PlayerRow.account_id == account_id)
                ).one_or_none()
                if row is None and guest_token:
                    row = session.scalars(
                        select(PlayerRow).where(
                            PlayerRow.token_hash == hash_token(guest_token),
                            PlayerRow.kind == "guest",
                        )
                    ).one_or_none()
                    if row is not None:
                        row.kind, row.account_id, row.token_hash = "account", account_id, None
                if row is None:
                    row = PlayerRow(kind="account", name=name, account_id=account_id)
                    session.add(row)
                row.name = name
                session.flush()
                return _player(row)
        except IntegrityError:  # the same account's other request made it first
            with self._sessions() as session:
                row = session.scalars(
                    select(PlayerRow).where(PlayerRow.account_id == account_id)
                ).one()
                return _player(row)

    def of_account(self, account_id: int) -> Player | None:
        """The player of an account, if it has played rated yet."""
        with self._sessions() as session:
            row = session.scalars(
                select(PlayerRow).where(PlayerRow.account_id == account_id)
            ).one_or_none()
            return None if row is None else _player(row)

    def rename(self, player_id: int, name: str) -> None:
        """The name a player plays under now (shown on the leaderboard)."""
        with self._sessions.begin() as session:
            session.get_one(PlayerRow, player_id).name = name

    def _bot(self, session: Session, level: str) -> PlayerRow:
        row = session.scalars(select(PlayerRow).where(PlayerRow.bot == level)).one_or_none()
        if row is None:
            row = PlayerRow(kind="bot", name=level, bot=level)
            session.add(row)
            session.flush()
        return row

    def seed_bots(self, calibration: dict[str, dict[str, Rating]]) -> int:
        """Give every bot level the calibrated rating of each family it has none in yet (a
        rating that games have since moved is kept); return how many were given."""
        given = 0
        for family, levels in calibration.items():
            for level, r in levels.items():
                try:
                    with self._sessions.begin() as session:
                        player = self._bot(session, level)
                        if session.get(RatingRow, (player.id, family)) is None:
                            session.add(RatingRow(player_id=player.id, family=family, mu=r.mu,
                                                  sigma=r.sigma, games=r.games))  # fmt: skip
                            given += 1
                except IntegrityError:  # another process seeded it first
                    continue
        return given

    def rating(self, player_id: int, family: str) -> Rating:
        """A player's rating in ``family`` (a new player's: the model's start)."""
        with self._sessions() as session:
            return _rating(session.get(RatingRow, (player_id, family)))

    def bot_ratings(self, family: str) -> dict[str, Rating]:
        """Every bot level's rating in ``family``."""
        with self._sessions() as session:
            rows = session.execute(
                select(PlayerRow.bot, RatingRow)
                .join(RatingRow, RatingRow.player_id == PlayerRow.id)
                .where(PlayerRow.kind == "bot", RatingRow.family == family)
            ).all()
            return {str(level): _rating(r) for level, r in rows}

    # --- seats ---------------------------------------------------------------------------------

    def seat(self, table_id: int, seat: int, player_id: int) -> None:
        """Record that ``player_id`` took ``seat`` at the table (in place of whoever took it
        before and left it: the host may open a lobby's seat again)."""
        with self._sessions.begin() as session:
            row = session.scalars(
                select(TablePlayerRow).where(
                    TablePlayerRow.table_id == table_id, TablePlayerRow.seat == seat
                )
            ).one_or_none()
            if row is None:
                session.add(TablePlayerRow(table_id=table_id, seat=seat, player_id=player_id))
            else:
                row.player_id = player_id

    def seated(self, table_id: int) -> dict[int, int]:
        """The player of each seat that was taken with a player, by seat."""
        with self._sessions() as session:
            rows = session.scalars(
                select(TablePlayerRow).where(TablePlayerRow.table_id == table_id)
            ).all()
            return {r.seat: r.player_id for r in rows}

    def copy_seats(self, from_id: int, to_id: int) -> None:
        """A rematch's seats are its players' again (nothing if already copied)."""
        with self._sessions.begin() as session:
            if session.scalars(
                select(TablePlayerRow.id).where(TablePlayerRow.table_id == to_id)
            ).first():
                return
            for r in session.scalars(
                select(TablePlayerRow).where(TablePlayerRow.table_id == from_id)
            ).all():
                session.add(TablePlayerRow(table_id=to_id, seat=r.seat, player_id=r.player_id))

    def mark_rated(self, table_id: int, family: str) -> None:
        """The table is rated in ``family``: its end will move its players' ratings."""
        with self._sessions.begin() as session:
            if session.get(RatedGameRow, table_id) is None:
                session.add(RatedGameRow(table_id=table_id, family=family, applied=False))

    # --- the end of a rated game ---------------------------------------------------------------

    def apply(self, table_id: int) -> bool:
        """Move the ratings of a finished rated game's players, exactly once (the game's row is
        locked and marked in the same transaction); return whether this call did it.

        Each side is a team of its seats' players: a person who sat (by their player; a bot
        that stood in or took over after a resignation does not change who is rated) or a bot
        level. A player on several seats (two bots of one level) gets the mean of their
        seats' new ratings."""
        with self._sessions.begin() as session:
            query = select(RatedGameRow).where(
                RatedGameRow.table_id == table_id, RatedGameRow.applied.is_(False)
            )
            game = session.scalars(query.with_for_update() if self.locking else query).first()
            table = session.get(TableRow, table_id)
            if game is None or table is None or table.status != "finished":
                return False
            game.applied = True
            config = config_from_dict(json.loads(table.config))
            people = {
                r.seat: r.player_id
                for r in session.scalars(
                    select(TablePlayerRow).where(TablePlayerRow.table_id == table_id)
                )
            }
            seats = session.scalars(select(SeatRow).where(SeatRow.table_id == table_id)).all()
            owner: dict[int, int] = {}
            for s in seats:
                # The person who took the seat, while they hold it (a seat the host gave to a bot
                # in the lobby lost its token; one resigned to a bot in play kept it).
                if s.seat in people and s.token_hash:
                    owner[s.seat] = people[s.seat]
                elif s.bot:
                    owner[s.seat] = self._bot(session, s.bot).id
                else:
                    log.warning("rated table %s: seat %s has no player", table.code, s.seat)
                    return True
            ids = sorted(set(owner.values()))
            query_r = select(RatingRow).where(
                RatingRow.player_id.in_(ids), RatingRow.family == game.family
            )
            found = {
                r.player_id: r
                for r in session.scalars(query_r.with_for_update() if self.locking else query_r)
            }
            before = {pid: _rating(found.get(pid)) for pid in ids}
            teams = [list(config.members(t)) for t in range(config.teams)]
            after = rate(
                [[before[owner[x]] for x in team] for team in teams], winner_of(table.result)
            )
            new: dict[int, list[Rating]] = defaultdict(list)
            for team, rated in zip(teams, after, strict=True):
                for seat, r in zip(team, rated, strict=True):
                    new[owner[seat]].append(r)
            for pid, rs in new.items():
                old = before[pid]
                mu = sum(r.mu for r in rs) / len(rs)
                sigma = sum(r.sigma for r in rs) / len(rs)
                row = found.get(pid)
                if row is None:
                    row = RatingRow(player_id=pid, family=game.family, mu=mu, sigma=sigma, games=0)
                    session.add(row)
                row.mu, row.sigma, row.games, row.updated_at = mu, sigma, old.games + 1, now()
                session.add(RatingHistoryRow(player_id=pid, family=game.family, table_id=table_id,
                                             mu=mu, sigma=sigma, before_mu=old.mu,
                                             before_sigma=old.sigma))  # fmt: skip
            return True

    def unapplied(self) -> list[int]:
        """Finished rated games whose ratings have not moved yet (a server stopped between the
        end and the update): what a start-up catches up on."""
        with self._sessions() as session:
            return list(
                session.scalars(
                    select(RatedGameRow.table_id)
                    .join(TableRow, TableRow.id == RatedGameRow.table_id)
                    .where(RatedGameRow.applied.is_(False), TableRow.status == "finished")
                )
            )

    # --- what people read -----------------------------------------------------------------------

    def leaderboard(self, family: str, limit: int = 100) -> list[dict[str, Any]]:
        """The rated players of ``family``, best conservative rating first (bots beside people)."""
        with self._sessions() as session:
            rows = session.execute(
                select(PlayerRow, RatingRow)
                .join(RatingRow, RatingRow.player_id == PlayerRow.id)
                .where(RatingRow.family == family)
                .order_by((RatingRow.mu - 3 * RatingRow.sigma).desc(), PlayerRow.id)
                .limit(limit)
            ).all()
            return [
                {"player": p.id, "name": p.name, "kind": p.kind, **_rating(r).to_dict()}
                for p, r in rows
            ]

    def page(self, player_id: int) -> dict[str, Any]:
        """A player's page: ratings per family, their history, games, and head-to-head against
        each bot level (``unknown_player`` if there is none)."""
        with self._sessions() as session:
            # An id beyond the column's range is no player's (and no database's to look up).
            player = session.get(PlayerRow, player_id) if 0 < player_id < 2**31 else None
            if player is None:
                raise RequestError(
                    "unknown_player", N_("there is no player {id}"), 404, id=player_id
                )
            ratings = session.scalars(
                select(RatingRow).where(RatingRow.player_id == player_id)
            ).all()
            history = session.scalars(
                select(RatingHistoryRow)
                .where(RatingHistoryRow.player_id == player_id)
                .order_by(RatingHistoryRow.id)
            ).all()
            mine = session.scalars(
                select(TablePlayerRow).where(TablePlayerRow.player_id == player_id)
            ).all()
            my_seats: dict[int, list[int]] = defaultdict(list)
            for r in mine:
                my_seats[r.table_id].append(r.seat)
            account_seats: set[tuple[int, int]] = set()
            if player.account_id is not None:  # and every seat the account took, rated or not
                for s in session.scalars(
                    select(SeatRow).where(SeatRow.account_id == player.account_id)
                ):
                    my_seats[s.table_id].append(s.seat)
                    account_seats.add((s.table_id, s.seat))
            tables = session.scalars(
                select(TableRow)
                .where(TableRow.id.in_(list(my_seats)), TableRow.status == "finished")
                .order_by(TableRow.finished_at.desc(), TableRow.id.desc())
            ).all()
            people = account_seats | {
                (r.table_id, r.seat)
                for r in session.scalars(
                    select(TablePlayerRow).where(TablePlayerRow.table_id.in_(list(my_seats)))
                )
            }
            games: list[dict[str, Any]] = []
            versus: dict[str, dict[str, int]] = {}
            for t in tables:
                config = config_from_dict(json.loads(t.config))
                seats = session.scalars(select(SeatRow).where(SeatRow.table_id == t.id)).all()
                # A person's seat is theirs while they hold its token (a lobby seat the host
                # gave to a bot lost it; a seat resigned to a bot kept it).
                held = {s.seat for s in seats if (t.id, s.seat) in people and s.token_hash}
                played = [x for x in my_seats[t.id] if x in held]
                if not played:
                    continue
                seat = played[0]
                team = config.team_of(seat)
                winner = winner_of(t.result)
                outcome = "draw" if winner is None else "win" if winner == team else "loss"
                levels = {
                    s.bot
                    for s in seats
                    if s.bot and s.seat not in held and config.team_of(s.seat) != team
                }
                for level in sorted(levels):
                    tally = versus.setdefault(level, {"win": 0, "draw": 0, "loss": 0})
                    tally[outcome] += 1
                if len(games) < GAMES_SHOWN:
                    games.append(
                        {
                            # A private table's code is its invitation: never on a public page.
                            "code": t.code if t.public else None,
                            "family": family_of(config),
                            "config": config.to_dict(),
                            "seat": seat,
                            "result": outcome,
                            "rated": t.rated,
                            "finished_at": _when(t.finished_at),
                            "players": [s.name for s in sorted(seats, key=lambda s: s.seat)],
                            # A seated bot's level, for the page to name it in its language.
                            "bots": [
                                s.bot if s.bot and not s.stand_in else None
                                for s in sorted(seats, key=lambda s: s.seat)
                            ],
                        }
                    )
            return {
                "player": player.id,
                "name": player.name,
                "kind": player.kind,
                "ratings": {r.family: _rating(r).to_dict() for r in ratings},
                "history": {
                    family: [
                        {
                            "rating": round(h.mu - 3 * h.sigma, 2),
                            "before": round(h.before_mu - 3 * h.before_sigma, 2),
                            "display": display_rating(h.mu),
                            "before_display": display_rating(h.before_mu),
                            "mu": round(h.mu, 2),
                            "sigma": round(h.sigma, 2),
                            "at": _when(h.created_at),
                        }
                        for h in history
                        if h.family == family
                    ]
                    for family in FAMILIES
                    if any(h.family == family for h in history)
                },
                "games": games,
                "versus_bots": versus,
            }
