"""Ratings: which family a game is rated in, what a rated table must be, and how a finished
game moves its players' ratings (OpenSkill).

A rating is OpenSkill's ``(mu, sigma)``: ``mu`` the estimated skill, ``sigma`` how unsure that
estimate is. What is shown and ranked is the conservative :attr:`Rating.shown` =
``mu - 3 sigma`` (OpenSkill's *ordinal*: 99.7% of the time the skill is above it), so a new
player starts at 0 and climbs as games make the estimate surer. A rating is *provisional* while
fewer than :data:`PROVISIONAL_GAMES` games are behind it or ``sigma`` is above
:data:`PROVISIONAL_SIGMA`.

OpenSkill's Plackett-Luce model rates teams and any number of sides, and ties: a game of two
teams of two is two teams of two ratings; a game of three sides ranks the winner first and the
other two tied second; a draw ranks every side equal. People and bots are rated the same way on
one scale per family (the bots' starting ratings come from ``scripts/calibrate_bot_ratings.py``).

>>> from sequence.engine import make_config
>>> family_of(make_config("classic", players=4))
'classic2'
>>> a, b = Rating(), Rating()
>>> [[a2], [b2]] = rate([[a], [b]], winner=0)
>>> a2.mu > a.mu > b2.mu, a2.sigma < a.sigma
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from ...bots.levels import LEVELS
from ...engine import OPTIONS, TEAM_LETTERS, Config
from ...i18n import N_
from ..common.errors import RequestError
from ..tables.table import TimeControl

FAMILIES: dict[str, str] = {
    "classic2": N_("Sequence, two sides"),
    "classic3": N_("Sequence, three sides"),
    "kids": N_("Sequence for Kids"),
    "dice": N_("Sequence Dice"),
}
"""Every family a rating is kept in, with its name for people."""

PROVISIONAL_GAMES = 10
"""A rating with fewer rated games behind it than this is provisional."""
PROVISIONAL_SIGMA = 5.0
"""A rating less sure than this (OpenSkill's default start is 25/3, about 8.3) is provisional."""

MODEL = PlackettLuce()
"""The rating model: OpenSkill's Plackett-Luce with its defaults (mu 25, sigma 25/3)."""

DISPLAY_START = 1500
"""Where every player starts on the scale people read (a chess-like 1500)."""
DISPLAY_PER_MU = 40
"""Points of that scale per point of ``mu``: the calibrated bots (``mu`` 21 to 28) read 1360 to
1620."""


def display_rating(mu: float) -> int:
    """A rating on the familiar scale people read (1500 to start), from OpenSkill's ``mu``: the
    one place it is computed (the pages add "?" while :attr:`Rating.provisional`).

    >>> display_rating(MODEL.mu), display_rating(28.3), display_rating(21.4)
    (1500, 1632, 1356)
    """
    return round(DISPLAY_START + (mu - MODEL.mu) * DISPLAY_PER_MU)


RATED_OPTIONS = frozenset({"manual_draw"})
"""Options a rated game may change: when a card is drawn changes nothing of the game."""


@dataclass(frozen=True)
class Rating:
    """One player's rating in one family."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0

    @property
    def shown(self) -> float:
        """The conservative rating that is shown and ranked: ``mu - 3 sigma``."""
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        """Too few games, or still too unsure, to mean much yet."""
        return self.games < PROVISIONAL_GAMES or self.sigma > PROVISIONAL_SIGMA

    def to_dict(self) -> dict[str, object]:
        """``{mu, sigma, rating, display, games, provisional}``, rounded for people."""
        return {
            "mu": round(self.mu, 2),
            "sigma": round(self.sigma, 2),
            "rating": round(self.shown, 1),
            "display": display_rating(self.mu),
            "games": self.games,
            "provisional": self.provisional,
        }


def family_of(config: Config) -> str:
    """The family a game of ``config`` is rated in: classic by its number of sides, Kids, Dice."""
    if config.game == "classic":
        return "classic3" if config.teams == 3 else "classic2"
    return config.game


def check_rated(config: Config, clock: TimeControl | None, bots: Sequence[str | None]) -> None:
    """Refuse a rated table that is not a fair, timed game of its family's usual rules.

    A rated game has its clock on (nobody may sit out the other player's evening), no option
    that changes the game (a shorter game, the draft, the harder board) and only the bot levels
    (whose ratings are kept); this server offers no undo and no hints at all.
    """
    if clock is None:
        raise RequestError(
            "bad_message", N_("a rated game needs a turn clock: choose casual or quick")
        )
    for name, option in OPTIONS.items():
        if name not in RATED_OPTIONS and _option(config, name) != option.default:
            raise RequestError(
                "bad_message",
                N_("a rated game is played by the usual rules: option {option} is not allowed"),
                option=name,
            )
    for level in bots:
        check_rated_bot(level)


def _option(config: Config, name: str) -> object:
    """The value ``config`` has for option ``name`` (``Config.to_dict`` leaves defaults out)."""
    return config.to_dict().get(name, OPTIONS[name].default)


def check_rated_bot(level: str | None) -> None:
    """Refuse a bot at a rated table that is not one of the rated levels."""
    if level is not None and level not in LEVELS:
        raise RequestError(
            "bad_message",
            N_("a rated game seats only the bot levels {levels}"),
            levels=", ".join(LEVELS),
        )


def winner_of(result: str | None) -> int | None:
    """The winning team of a stored result (``"B wins"`` -> 1; ``"draw"`` -> ``None``)."""
    if result and result.endswith(" wins") and result[:-5] in TEAM_LETTERS:
        return TEAM_LETTERS.index(result[:-5])
    return None


def rate(teams: Sequence[Sequence[Rating]], winner: int | None) -> list[list[Rating]]:
    """The ratings of every team's members after a game that ``winner`` won (``None``: a
    draw, every side equal); with more than two sides the losers tie for second.

    >>> [[l1], [l2], [w]] = rate([[Rating()], [Rating()], [Rating()]], winner=2)
    >>> round(l1.mu, 9) == round(l2.mu, 9) < 25 < w.mu
    True
    """
    ranks = [1.0 if winner is None or t == winner else 2.0 for t in range(len(teams))]
    model_teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma) for r in team] for team in teams]
    new = MODEL.rate(model_teams, ranks=ranks)
    out = []
    for team, rated in zip(teams, new, strict=True):
        out.append(
            [
                Rating(float(n.mu), float(n.sigma), old.games + 1)
                for old, n in zip(team, rated, strict=True)
            ]
        )
    return out
