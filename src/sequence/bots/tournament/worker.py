"""One tournament game, played in a worker process: :func:`run_task` makes the bots of a
:class:`~.schedule.Task`, plays the game and returns a picklable summary of it.

A bot that raises, returns an illegal move or exceeds the time limit loses that game (the
arena decides; the summary says why). A user's bot plays in a process of its own, one per seat
and game (:mod:`sequence.bots.isolated`).
"""

from __future__ import annotations

import os
import signal
from typing import TYPE_CHECKING, Any

from ...engine import config_from_dict
from .schedule import Task

COURSE_GRACE = 2.0
"""Under the course's time rules, seconds past the limit before a bot still thinking is
stopped (and loses): a call a little late is a warning, as in the course, not a loss."""

if TYPE_CHECKING:
    from ..base import Bot


def start_worker() -> None:
    """Set up a process that plays games. An alarm is the arena's own business (its move timer
    ignores one sent early; by default one would end the process). A Ctrl-C is the main
    process's: it stops the workers itself, keeping the games played."""
    if hasattr(signal, "SIGALRM"):
        signal.signal(signal.SIGALRM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _leave)


_stopping = False
"""Set in a worker told to stop: its game unwinds, closing its bots, and the worker ends."""


def _leave(signum: int, frame: object) -> None:
    global _stopping
    _stopping = True
    raise KeyboardInterrupt  # the one exception the arena lets through a bot's move


def run_task(task: Task) -> dict[str, Any]:
    """Play one game (in a worker process) and return its summary, picklable."""
    from ...engine import Move, State
    from ..arena import play_game
    from ..base import seat_seed
    from ..isolated import UnstartedBot, contained_bot

    config = config_from_dict(task.config)
    owners = task.owners
    bots: list[Bot] = []
    tags = {"Event": "sequence tournament", "Round": str(task.index + 1)}
    stats_problems: dict[int, str] = {}  # entry -> why its figures were unusable (the first)

    def check_stats(state: State, seat: int, move: Move) -> None:
        if seat < 0:  # a roll of the dice
            return
        owner = owners[seat % config.teams]
        if owner not in stats_problems:  # once is enough to be told
            problem = stats_problem(bots[seat])
            if problem is not None:
                stats_problems[owner] = problem

    try:
        for seat in range(config.players):
            spec, label = task.specs[seat % config.teams], task.labels[seat % config.teams]
            # A user's bot plays in a process of its own, one per seat and game: it cannot
            # reach the game's state, its team-mate's memory, or what it saw in the last game.
            try:
                bot = contained_bot(spec, seed=seat_seed(task.seed, seat))
            except Exception as exc:  # it started when checked, not now: it loses the game
                bot = UnstartedBot(spec, str(exc))
            bot.label = label  # what forfeits name: one entry, when a bot plays itself
            bots.append(bot)
            # The seat tag stays the spec (`sequence play --load` makes the bot from it); a
            # numbered entry's name goes where the replay viewer looks for a player's name.
            tags[f"Seat{seat + 1}"] = spec
            if label != spec:
                tags[f"Name{seat + 1}"] = label
        result = play_game(
            config,
            bots,
            seed=task.seed,
            time_limit=task.time_limit,
            tags=tags,
            on_move=check_stats,
            warnings=task.warnings,
            grace=COURSE_GRACE if task.warnings else 1.0,
        )
    finally:
        for bot in bots:
            bot.close()
        if _stopping:  # the run was stopped: this worker starts no other game
            os._exit(1)
    seat_stats = [
        {
            "bot": owners[s % config.teams],
            "moves": st.moves,
            "seconds": st.seconds,
            "iterations": st.iterations,
            "searched": st.searched,
        }
        for s, st in enumerate(result.seats)
    ]
    a, b = task.pairing
    if result.forfeit is not None:
        score_a = 0.0 if owners[result.forfeit.team] == a else 1.0
    elif result.winner is None:
        score_a = 0.5
    else:
        score_a = 1.0 if owners[result.winner] == a else 0.0
    return {
        "index": task.index,
        "pairing": [a, b],
        "deal": task.deal,
        "owners": list(owners),
        "seed": task.seed,
        "score_a": score_a,
        "winner": result.winner,
        "termination": result.termination,
        "forfeit": None if result.forfeit is None else result.forfeit.message(),
        "turns": result.turns,
        "seats": seat_stats,
        "stats_problems": stats_problems,
        "record": result.record.to_json(indent=1) if task.save else None,
    }


def stats_problem(bot: Bot) -> str | None:
    """Why the figures ``bot.stats()`` gives for its last move cannot go into the tables
    (``None``: they can). The tables use ``iterations``, a number of 0 or more."""
    from ..isolated import IsolatedBot, failure, is_figure, safe_repr

    if isinstance(bot, IsolatedBot) and bot.stats_problem is not None:
        return bot.stats_problem  # a user's bot: its own process checked what stats() gave
    try:
        figures = bot.stats()
        if not isinstance(figures, dict):
            return f"stats() returned {safe_repr(figures)}, not a dict"
        iterations = figures.get("iterations")
    except Exception as exc:  # a bot's bug costs its figures, not its game
        return f"stats() raised {failure(exc)}"
    if iterations is None:  # a bot that does not search has none to give
        return None
    if not is_figure(iterations) or iterations < 0:
        return f"stats() gave iterations = {safe_repr(iterations)}, not a number of 0 or more"
    return None
