"""Who plays whom, from which deal and in which seats: a tournament's games as :class:`Task`\\ s.

Round robin (every pair of bots) or gauntlet (the first bot against each of the others). Each
pairing plays every deal once per seat pattern (:func:`seat_patterns`).

A user's bot cannot learn a deal it has still to play: each deal's seed is a hash of the run's
seed (:func:`deal_seed`), so one game's seed tells nothing of the others'.
"""

from __future__ import annotations

import hashlib
import itertools
import math
from collections import Counter
from dataclasses import dataclass
from typing import Any

from ...engine import Config


@dataclass(frozen=True)
class Task:
    """One game: which bot plays each team, from which deal."""

    index: int
    pairing: tuple[int, int]
    specs: tuple[str, ...]
    """Bot spec for each team."""
    labels: tuple[str, ...]
    """What the tables call each team's entry (:func:`entry_labels`)."""
    owners: tuple[int, ...]
    """For each team, the index of its bot in the tournament's bot list."""
    config: dict[str, Any]
    deal: int
    """Which deal of the pairing (0, 1, ...): its games share the seed."""
    seed: int
    time_limit: float | None
    save: bool
    warnings: int = 0
    """0: over the time limit loses; N: the course's time rules, the N-th warning loses."""


def seat_patterns(teams: int) -> list[tuple[int, ...]]:
    """Every way to give ``teams`` sides to two bots (0 and 1), each bot getting at least one.

    >>> seat_patterns(2)
    [(0, 1), (1, 0)]
    >>> len(seat_patterns(3))
    6
    """
    return [p for p in itertools.product((0, 1), repeat=teams) if 0 in p and 1 in p]


def deal_seed(run_seed: int, deal: int) -> int:
    """The seed of deal ``deal`` of a run from ``run_seed``: a hash, so a bot that learns one
    game's seed (from a saved record, say) cannot work out the deals still to come.

    >>> deal_seed(1, 0) == deal_seed(1, 0) != deal_seed(1, 1)
    True
    """
    digest = hashlib.sha256(f"sequence-deal:{run_seed}:{deal}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 2


def entry_labels(specs: list[str]) -> list[str]:
    """What the tables, the JSON and the records call each entry: its spec, numbered where the
    same spec is entered more than once, so that every name points at one entry.

    >>> entry_labels(["random", "greedy", "random"])
    ['random #1', 'greedy', 'random #2']
    """
    entered = Counter(specs)
    seen: Counter[str] = Counter()
    labels = []
    for spec in specs:
        seen[spec] += 1
        labels.append(spec if entered[spec] == 1 else f"{spec} #{seen[spec]}")
    return labels


def make_tasks(
    specs: list[str],
    config: Config,
    mode: str,
    games: int,
    seed: int,
    time_limit: float | None,
    save: bool,
    warnings: int = 0,
) -> list[Task]:
    """Every game of a run, in the order they are handed out: pairing, then deal, then seat
    pattern (``games`` a pairing, rounded up to whole seat patterns)."""
    if mode == "gauntlet":
        pairings = [(0, j) for j in range(1, len(specs))]
    else:
        pairings = list(itertools.combinations(range(len(specs)), 2))
    labels = entry_labels(specs)
    patterns = seat_patterns(config.teams)
    deals = max(1, math.ceil(games / len(patterns)))
    tasks: list[Task] = []
    for a, b in pairings:
        for deal in range(deals):
            for pattern in patterns:
                owners = tuple(a if p == 0 else b for p in pattern)
                tasks.append(
                    Task(
                        index=len(tasks),
                        pairing=(a, b),
                        specs=tuple(specs[o] for o in owners),
                        labels=tuple(labels[o] for o in owners),
                        owners=owners,
                        config=config.to_dict(),
                        deal=deal,
                        seed=deal_seed(seed, deal),
                        time_limit=time_limit,
                        save=save,
                        warnings=warnings,
                    )
                )
    return tasks


def games_a_deal(tasks: list[Task], teams: int) -> int:
    """How many games each deal has: every pairing plays the same deals, so a deal is over once
    each pairing has played it in every seat pattern."""
    return len(seat_patterns(teams)) * len({task.pairing for task in tasks})
