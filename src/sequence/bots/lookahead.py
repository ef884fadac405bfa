"""Determinized greedy lookahead: greedy's best few moves, each tried against sampled deals.

The bot is given only its seat's :class:`~sequence.engine.View`. It

1. ranks the legal moves by the :mod:`.heuristic` (what :class:`~.greedy.GreedyBot` plays) and
   keeps the best ``k`` (a winning move, a dead-card exchange or a due draw is played at once);
2. deals the hidden cards at random, consistently with the view
   (:meth:`State.sample_from_view`), and in that deal plays each candidate, then ``depth`` more
   plies in which every seat plays its greedy move with the cards it holds *in that deal*
   (the opponents' replies, then our next move), rolling the dice itself at Dice;
3. scores the position reached for our team: its :meth:`Evaluator.position_value` plus the
   Jacks in its hands, minus the best other team's (a finished game is worth ±:data:`FINISHED`);
4. repeats with fresh deals until the budget (``time`` seconds and/or ``deals``) runs out,
   every candidate seeing the same deals (common random numbers), and plays the candidate with
   the best mean score plus ``prior`` times its one-ply value (greedy's own judgement).

This is expectimax over deals with greedy as every player's policy: a move's worth is what it
leaves after the replies the opponents could really make, not only what it gains now.

>>> from sequence.engine import State, make_config
>>> state = State.new(make_config("kids", players=2), seed=1)
>>> bot = LookaheadBot(seed=2, deals=8, time=None)
>>> bot.choose(state.view(state.to_move)) in state.legal_moves
True
>>> bot.stats()["deals"]
8.0
"""

from __future__ import annotations

import time as _time
from collections.abc import Sequence

from ..engine import Move, MoveKind, State, StepKind, View, draw_move
from .base import Bot, check_budget, obvious_move, roll_dice
from .heuristic import WIN, Evaluator, evaluator_for

_OVER, _ROLL, _DRAW = StepKind.OVER, StepKind.ROLL, StepKind.DRAW

FINISHED = 1_000_000.0
"""Score of a finished game: + for our team's win, - for a loss, 0 for a draw."""


class LookaheadBot(Bot):
    """Greedy's top ``k`` moves, each scored by ``depth`` greedy plies over sampled deals."""

    name = "lookahead"

    def __init__(
        self,
        seed: int = 0,
        time: float | None = 1.0,
        deals: int | None = None,
        k: int = 6,
        depth: int | None = None,
        prior: float = 0.0,
        leaf: str = "position",
        cards: bool = False,
    ) -> None:
        super().__init__(seed)
        if not deals and time is None:
            raise ValueError("give lookahead a budget: deals, time, or both")
        self.time = None if time is None else float(time)
        self.deals = int(deals) if deals else None  # 0 or None: no limit of that kind
        self.k = int(k)
        self.depth = None if depth is None else int(depth)
        self.prior = float(prior)
        check_budget(time=self.time, deals=self.deals, k=self.k)
        if self.depth is not None and self.depth < 0:
            raise ValueError(f"depth is 0 or more, not {depth}")
        if leaf not in ("position", "path", "both"):
            raise ValueError(f"leaf is 'position', 'path' or 'both', not {leaf!r}")
        self.leaf = leaf
        self.cards = bool(cards)
        self._last: dict[str, float] = {}

    def stats(self) -> dict[str, float]:
        return dict(self._last)

    def keep_within(self, seconds: float) -> None:
        """Stop searching at ``seconds`` a move (or sooner, at its own time or budget)."""
        self.time = seconds if self.time is None else min(self.time, seconds)

    def choose(self, view: View) -> Move:
        legal = view.legal_moves
        self._last = {"deals": 0.0, "iterations": 0.0, "seconds": 0.0}
        obvious = obvious_move(legal)
        if obvious is not None:
            return obvious
        team = view.team
        assert team is not None
        ev = evaluator_for(view.config)
        judge = ev.informed(view) if self.cards else ev
        start = _time.perf_counter()
        values = [judge.move_value(m, view.chips, view.sequences, team) for m in legal]
        order = sorted(range(len(legal)), key=lambda i: values[i], reverse=True)
        top = order[: self.k]
        if values[top[0]] >= WIN or len(top) == 1:
            return legal[top[0]]
        cands = [legal[i] for i in top]
        priors = [values[i] for i in top]
        deadline = None if self.time is None else start + self.time
        totals, n = self._search(view, cands, priors, self.deals, deadline)
        elapsed = _time.perf_counter() - start
        self._last = {
            "deals": float(n),
            "iterations": float(n * len(cands)),
            "seconds": elapsed,
            "iterations_per_second": n * len(cands) / elapsed if elapsed > 0 else 0.0,
        }
        best = max(range(len(cands)), key=lambda i: (totals[i] / n + self.prior * priors[i], -i))
        return cands[best]

    def deal_scores(self, view: View, moves: Sequence[Move], deals: int) -> list[list[float]]:
        """The score of each of ``moves`` in each of ``deals`` deals of the hidden cards, as
        :meth:`choose` judges its candidates (whose mean it compares): each move played in the
        same deals, then greedy replies, the position reached scored for the mover's team (a
        finished game ±:data:`FINISHED`). ``prior`` is not added.

        What the game review and the hints read (:mod:`.review`); only ``view`` is used."""
        check_budget(deals=deals)
        team = view.team
        assert team is not None
        ev = evaluator_for(view.config)
        judge = ev.informed(view) if self.cards else ev
        priors = [judge.move_value(m, view.chips, view.sequences, team) for m in moves]
        per_deal: list[list[float]] = [[] for _ in moves]
        self._search(view, moves, priors, deals, None, per_deal)
        return per_deal

    def _search(
        self,
        view: View,
        cands: Sequence[Move],
        priors: Sequence[float],
        deals: int | None,
        deadline: float | None,
        per_deal: list[list[float]] | None = None,
    ) -> tuple[list[float], int]:
        """Each candidate's total score over the deals searched (until ``deals`` or
        ``deadline``, at least one), and how many deals that was; ``per_deal`` collects each
        candidate's score in each deal."""
        team = view.team
        assert team is not None
        ev = evaluator_for(view.config)
        judge = ev.informed(view) if self.cards else ev
        depth = view.config.teams + 1 if self.depth is None else self.depth
        totals = [0.0] * len(cands)
        n = 0
        rng = self.rng
        while True:
            if deals is not None and n >= deals:
                break
            if deadline is not None and n and _time.perf_counter() >= deadline:
                break
            state = self.deal(view, rng.getrandbits(62))
            for i, m in enumerate(cands):
                score = self._rollout(state, m, depth, ev, judge, team, priors[i])
                totals[i] += score
                if per_deal is not None:
                    per_deal[i].append(score)
            n += 1
        return totals, n

    def deal(self, view: View, seed: int) -> State:
        """A deal of the hidden cards to search on: :meth:`State.sample_from_view`.

        A subclass may deal otherwise (``scripts/luck_bound.py`` gives it the true cards, to
        measure what knowing them would be worth)."""
        return State.sample_from_view(view, seed)

    def _rollout(
        self,
        state: State,
        move: Move,
        depth: int,
        ev: Evaluator,
        judge: Evaluator,
        team: int,
        gain: float,
    ) -> float:
        """Play ``move`` (worth ``gain``) then ``depth`` greedy plies on ``state`` (every seat
        judging by ``ev``); score the result for ``team`` by ``judge``; pop back."""
        path = 0.0
        rng = self.rng
        cfg = state.config
        teams = cfg.teams
        state.push(move)
        pushed = 1
        plies = 0
        while True:
            step = state.next_step()
            if step.kind is _DRAW:  # manual_draw: part of the move just made, not a ply
                state.push(draw_move(step.seat))  # type: ignore[arg-type]
                pushed += 1
                continue
            if step.kind is _OVER or plies >= depth:
                break
            if step.kind is _ROLL:
                state.push(roll_dice(rng))
                pushed += 1
                continue
            t = state.to_move % teams
            legal = state.legal_moves
            best = legal[0]
            if len(legal) > 1:
                chips, seqs = state.chips, state.sequences
                best_value = float("-inf")
                for m in legal:
                    v = ev.move_value(m, chips, seqs, t)
                    if v > best_value:
                        best_value, best = v, m
                if best.kind is not MoveKind.DEAD:
                    path += best_value if t == team else -best_value
            state.push(best)
            pushed += 1
            if best.kind is not MoveKind.DEAD:
                plies += 1
        if self.leaf == "path":
            score = gain + path
        elif self.leaf == "both":
            score = gain + path + self._score(state, judge, team)
        else:
            score = self._score(state, judge, team)
        for _ in range(pushed):
            state.pop()
        return score

    @staticmethod
    def _score(state: State, ev: Evaluator, team: int) -> float:
        cfg = state.config
        teams = cfg.teams
        outcome = state.outcome
        if outcome is not None:
            if outcome.winner is None:
                return 0.0
            return FINISHED if outcome.winner == team else -FINISHED
        chips, seqs = state.chips, state.sequences
        values = [ev.position_value(chips, seqs, t) for t in range(teams)]
        if cfg.spec.uses_cards:
            for seat in range(cfg.players):
                values[seat % teams] += ev.hand_value(state.hand_of(seat))
        mine = values[team]
        return mine - max(v for t, v in enumerate(values) if t != team)
