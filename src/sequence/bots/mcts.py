"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling et al. 2012).

The bot is given only its seat's :class:`~sequence.engine.View`. Every iteration runs one UCT
descent on a *determinization*: a deal of the hidden cards made at random, consistently with
that view (:meth:`State.sample_from_view`: the other hands and the draw pile; its own hand, the
board and the discards are what it sees). The first ``deals`` iterations each deal afresh; later
ones cycle through those deals, pushing moves and popping them back (dealing costs more than a
whole iteration), with fresh dice every time:

1. **select** down one tree shared by all determinizations. A node's children are moves; a
   child competes only when its move is legal in this determinization, and UCB uses how often
   it was *available* instead of the parent's visits (SO-ISMCTS).
2. **expand** one move, in the order the :mod:`.heuristic` ranks them, with progressive
   widening (a node may hold ``widen_base + widen_k * sqrt(visits)`` children), so a hand with a
   two-eyed Jack (80 moves) is searched best-first, not uniformly.
3. **play out** ``depth`` moves with a cheap policy: the best by the heuristic of
   ``playout_k`` legal moves drawn at random.
4. **evaluate**: a finished game scores 1 for the winner's team, 0 for the others, ½ each for a
   draw; otherwise the static :meth:`Evaluator.position_value` of every team, plus the Jacks in
   its hands in this deal (:meth:`Evaluator.hand_value`), through a softmax.
5. **back up** each node's score for the team that made the move into it.

Chance is handled as chance: at a Dice roll the search rolls the dice itself (its own random
source, with the true 1/36 and 2/36 probabilities), and card draws come from the determinized
draw pile, so every iteration sees another deal and other dice. With ``manual_draw`` the search
takes each draw right after the play, as a player would.

The budget is ``iterations`` or ``time`` seconds a move (whichever ends first). The move played
is the root child visited most. :meth:`stats` reports iterations and iterations per second.

>>> from sequence.engine import State, make_config
>>> state = State.new(make_config("kids", players=2), seed=1)
>>> bot = MCTSBot(seed=2, iterations=50, time=None)
>>> bot.choose(state.view(state.to_move)) in state.legal_moves
True
>>> bot.stats()["iterations"]
50.0
"""

from __future__ import annotations

import math
import time as _time
from collections.abc import Sequence

from ..engine import Move, MoveKind, State, StepKind, View, draw_move
from .base import Bot, check_budget, obvious_move, roll_dice
from .heuristic import Evaluator, evaluator_for

_OVER, _ROLL, _DRAW = StepKind.OVER, StepKind.ROLL, StepKind.DRAW

_NO_GAIN = frozenset({MoveKind.DEAD, MoveKind.DRAW, MoveKind.ROLL, MoveKind.PASS})


def _gain(
    ev: Evaluator,
    move: Move,
    chips: tuple[int, ...],
    seqs: tuple[tuple[int, ...], ...],
    team: int,
    value: float | None = None,
) -> float:
    """What ``move`` gains its team by the evaluation (0 for exchanges, draws and passes)."""
    if move.kind in _NO_GAIN:
        return 0.0
    v = ev.move_value(move, chips, seqs, team) if value is None else value
    return max(-2000.0, min(v, 2000.0))


class _Node:
    __slots__ = ("avail", "children", "n", "prior", "ranked", "ranked_set", "team", "w")

    def __init__(self, team: int) -> None:
        self.children: dict[Move, _Node] = {}
        self.n = 0
        self.w = 0.0
        self.avail = 0
        self.team = team
        """The team whose move led here (its score is what :attr:`w` sums)."""
        self.prior = 1.0
        """1 / (1 + k) for the k-th child expanded (best-first: the heuristic's rank)."""
        self.ranked: list[Move] = []
        self.ranked_set: set[Move] = set()


class MCTSBot(Bot):
    """ISMCTS with heuristic ordering, heuristic playouts and a depth cap.

    ``iterations`` and ``time`` (seconds a move) bound the search; give one or both.
    """

    name = "mcts"

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = None,
        time: float | None = 1.0,
        depth: int = 2,
        c: float = 0.35,
        widen_base: int = 2,
        widen_k: float = 0.5,
        playout_k: int = 24,
        scale: float = 60.0,
        deals: int = 64,
        bias: float = 0.0,
        leaf: str = "position",
    ) -> None:
        super().__init__(seed)
        if iterations is None and time is None:
            raise ValueError("give mcts a budget: iterations, time, or both")
        self.iterations = None if iterations is None else int(iterations)
        self.time = None if time is None else float(time)
        self.depth = int(depth)
        self.c = float(c)
        self.widen_base = int(widen_base)
        self.widen_k = float(widen_k)
        self.playout_k = int(playout_k)
        self.scale = float(scale)
        self.deals = int(deals)
        self.bias = float(bias)
        check_budget(
            iterations=self.iterations, time=self.time, widen_base=self.widen_base,
            playout_k=self.playout_k, scale=self.scale, deals=self.deals,
        )  # fmt: skip
        if self.depth < 0 or self.c < 0:
            raise ValueError(f"depth and c are 0 or more, not {depth} and {c}")
        if leaf not in ("position", "path"):
            raise ValueError(f"leaf is 'position' or 'path', not {leaf!r}")
        self.leaf = leaf
        self._last: dict[str, float] = {}

    def stats(self) -> dict[str, float]:
        return dict(self._last)

    # --- the search ------------------------------------------------------------------------------

    def keep_within(self, seconds: float) -> None:
        """Stop searching at ``seconds`` a move (or sooner, at its own time or budget)."""
        self.time = seconds if self.time is None else min(self.time, seconds)

    def choose(self, view: View) -> Move:
        legal = view.legal_moves
        self._last = {"iterations": 0.0, "seconds": 0.0}
        obvious = obvious_move(legal)
        if obvious is not None:
            return obvious
        assert view.team is not None
        ev = evaluator_for(view.config)
        start = _time.perf_counter()
        deadline = None if self.time is None else start + self.time
        limit = self.iterations
        root = _Node(view.team)
        rng = self.rng
        n = 0
        deals: list[State] = []
        while True:
            if limit is not None and n >= limit:
                break
            if deadline is not None and n and _time.perf_counter() >= deadline:
                break
            if len(deals) < self.deals:
                state = State.sample_from_view(view, rng.getrandbits(62))
                deals.append(state)
            else:
                state = deals[n % self.deals]
            for _ in range(self._iterate(root, state, ev)):
                state.pop()
            n += 1
        elapsed = _time.perf_counter() - start
        self._last = {
            "iterations": float(n),
            "seconds": elapsed,
            "iterations_per_second": n / elapsed if elapsed > 0 else 0.0,
        }
        best = max(
            (m for m in legal if m in root.children),
            key=lambda m: (root.children[m].n, root.children[m].w),
            default=None,
        )
        return best if best is not None else legal[0]

    def _iterate(self, root: _Node, state: State, ev: Evaluator) -> int:
        """One descent, playout and backup on ``state``; returns the moves pushed (to pop)."""
        rng = self.rng
        pushed = 0
        teams = state.config.teams
        path = [root]
        node = root
        gains = [0.0] * teams if self.leaf == "path" else None
        while (step := state.next_step()).kind is not _OVER:
            if step.kind is _ROLL:
                roll = roll_dice(rng)
                state.push(roll)
                pushed += 1
                child = node.children.get(roll)
                if child is None:
                    child = node.children[roll] = _Node(-1)
                node = child
                path.append(node)
                continue
            if step.kind is _DRAW:  # manual_draw: part of the move just made, not a ply
                state.push(draw_move(step.seat))  # type: ignore[arg-type]
                pushed += 1
                continue
            team = state.to_move % teams
            legal = state.legal_moves
            move, child = self._select(node, state, legal, ev, team)
            if gains is not None:
                chips, seqs = state.chips, state.sequences
                gains[team] += _gain(ev, move, chips, seqs, team)
            state.push(move)
            pushed += 1
            path.append(child)
            if child.n == 0:
                node = child
                break
            node = child
        rewards, played = self._playout(state, ev, gains)
        root.n += 1
        for nd in path[1:]:
            nd.n += 1
            if nd.team >= 0:
                nd.w += rewards[nd.team]
        return pushed + played

    def _select(
        self, node: _Node, state: State, legal: Sequence[Move], ev: Evaluator, team: int
    ) -> tuple[Move, _Node]:
        children = node.children
        if len(legal) == 1:
            m = legal[0]
            child = children.get(m)
            if child is None:
                child = children[m] = _Node(team)
            child.avail += 1
            return m, child
        limit = self.widen_base + int(self.widen_k * math.sqrt(node.n))
        available: list[tuple[Move, _Node]] = []
        for m in legal:
            ch = children.get(m)
            if ch is not None:
                ch.avail += 1
                available.append((m, ch))
        if len(children) < limit or not available:
            untried = self._next_untried(node, state, legal, ev, team)
            if untried is not None:
                child = _Node(team)
                child.prior = 1.0 / (1 + len(children))
                children[untried] = child
                child.avail += 1
                return untried, child
        c = self.c
        bias = self.bias
        best_score = -1.0
        best: tuple[Move, _Node] = available[0]
        for m, ch in available:
            if ch.n == 0:
                return m, ch
            score = (
                ch.w / ch.n
                + c * math.sqrt(math.log(ch.avail) / ch.n)
                + bias * ch.prior / (ch.n + 1)
            )
            if score > best_score:
                best_score, best = score, (m, ch)
        return best

    def _next_untried(
        self, node: _Node, state: State, legal: Sequence[Move], ev: Evaluator, team: int
    ) -> Move | None:
        """The best-ranked legal move without a child yet (ranking new moves as they appear)."""
        children = node.children
        legal_set = set(legal)
        for m in node.ranked:
            if m not in children and m in legal_set:
                return m
        fresh = [m for m in legal if m not in node.ranked_set]
        if not fresh:
            return None
        chips, seqs = state.chips, state.sequences
        scored = sorted(fresh, key=lambda m: ev.move_value(m, chips, seqs, team), reverse=True)
        node.ranked.extend(scored)
        node.ranked_set.update(scored)
        for m in scored:
            if m not in children:
                return m
        return None

    def _playout(
        self, state: State, ev: Evaluator, gains: list[float] | None
    ) -> tuple[list[float], int]:
        rng = self.rng
        pushed = 0
        cfg = state.config
        teams = cfg.teams
        k = self.playout_k
        plies = 0
        while True:
            step = state.next_step()
            if step.kind is _DRAW:  # manual_draw: part of the move just made, not a ply
                state.push(draw_move(step.seat))  # type: ignore[arg-type]
                pushed += 1
                continue
            if step.kind is _OVER or plies >= self.depth:
                break
            plies += 1
            if step.kind is _ROLL:
                state.push(roll_dice(rng))
                pushed += 1
                continue
            team = state.to_move % teams
            legal = state.legal_moves
            cands = legal if len(legal) <= k else rng.sample(legal, k)
            if len(cands) == 1:
                move = cands[0]
                if gains is not None:
                    chips, seqs = state.chips, state.sequences
                    gains[team] += _gain(ev, move, chips, seqs, team)
            else:
                chips, seqs = state.chips, state.sequences
                best_value = float("-inf")
                move = cands[0]
                for m in cands:
                    v = ev.move_value(m, chips, seqs, team)
                    if v > best_value:
                        best_value, move = v, m
                if gains is not None:
                    gains[team] += _gain(ev, move, chips, seqs, team, best_value)
            state.push(move)
            pushed += 1
        outcome = state.outcome
        if outcome is not None:
            if outcome.winner is None:
                return [1.0 / teams] * teams, pushed
            return [1.0 if t == outcome.winner else 0.0 for t in range(teams)], pushed
        if gains is not None:
            values = [g / self.scale for g in gains]
            top = max(values)
            exps = [math.exp(v - top) for v in values]
            total = sum(exps)
            return [e / total for e in exps], pushed
        chips, seqs = state.chips, state.sequences
        values = [ev.position_value(chips, seqs, t) for t in range(teams)]
        if cfg.spec.uses_cards:
            for seat in range(cfg.players):
                values[seat % teams] += ev.hand_value(state.hand_of(seat))
        values = [v / self.scale for v in values]
        top = max(values)
        exps = [math.exp(v - top) for v in values]
        total = sum(exps)
        return [e / total for e in exps], pushed
