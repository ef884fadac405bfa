"""Tournaments between bots, without a front end: who plays whom on which deal
(:mod:`.schedule`), one game in a worker process (:mod:`.worker`), every game on a pool of them
(:mod:`.pool`), and what the results say (:mod:`.stats` for the intervals and Elo,
:mod:`.summary` for the tables as data). ``sequence tournament`` (``sequence.cli.tournament``)
parses the options, shows progress and prints the report.

Each pairing plays every deal (seed) once per *seat pattern*: with two sides, A-B then B-A on
the same deal; with three sides, every way to give the three colours to the two bots (A-B-B,
B-A-B, ..., B-A-A). So first move, cards and dice even out.
"""

from __future__ import annotations

from .pool import play_all
from .schedule import Task, deal_seed, entry_labels, make_tasks, seat_patterns
from .stats import bradley_terry, rating_intervals, wilson
from .summary import summarise
from .worker import run_task, start_worker, stats_problem

__all__ = [
    "Task",
    "bradley_terry",
    "deal_seed",
    "entry_labels",
    "make_tasks",
    "play_all",
    "rating_intervals",
    "run_task",
    "seat_patterns",
    "start_worker",
    "stats_problem",
    "summarise",
    "wilson",
]
