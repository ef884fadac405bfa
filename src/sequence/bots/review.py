"""The review of a finished game, and hints: each move judged as its mover saw it.

Every decision of a record is judged from the mover's :class:`~sequence.engine.View` only (their
hand, the board, the discards; never another hand or the draw pile): the strongest bot's
search (:class:`~.lookahead.LookaheadBot` with the informed evaluation, ``expert``'s deals by
default) plays each candidate (greedy's best ``k``, the move played, any winning move and the
dead-card exchange) in the same deals of the hidden cards, dealt at random consistently with
that view, and scores the position reached. A move's **loss** is how far its mean score falls
short of the best candidate's, in the evaluation's points (``docs/bots.md`` has the tables: an
opponent's four is worth 120, a completed sequence 3,000 and more; a deal in which the game
ends counts :data:`GAME_POINTS`, won or lost):

=============  ==============================================================================
verdict        loss
=============  ==============================================================================
best           the move the search likes most (loss 0)
good           under :data:`INACCURACY`
inaccuracy     under :data:`MISTAKE`
mistake        under :data:`BLUNDER`
blunder        :data:`BLUNDER` or more, or a missed win
=============  ==============================================================================

A move is **flagged** when it is a mistake or a blunder, or when it is one of these (each a
:class:`~.explain.Note` saying what was better): a missed win, a missed sequence, an opponent's
four left open that the better move blocks, a Jack spent where an ordinary card put the same
chip or for little, a dead card kept. The deals are seeded from the review's seed and the public
history only (:func:`decision_seed`), so two games that differ only in cards the mover could
not see get the same review.

**Chances** are an estimate, not a calculation: at each decision, :data:`CHANCE_DEALS` deals of
every hidden card consistent with what a spectator sees, each played to its end by the greedy
bot (every seat), and the share each team wins. **Turning points** are the moves after which
the mover's team's chances moved most; a sound move (best or good) among them after which the
chances fell is noted ``unlucky``: no other move was clearly better, so the drop came from
what the move could not change (the cards drawn, the dice, the estimate's own spread).

>>> from sequence.engine import GameRecord, State, make_config
>>> from sequence.bots import make_bot, play_game
>>> game = play_game(make_config("kids", players=2), [make_bot("greedy")] * 2, seed=5)
>>> review = Reviewer(deals=4, chance_deals=2).review_game(game.record)
>>> all(m.verdict in VERDICTS for m in review.moves), len(review.chances) == len(review.moves) + 1
(True, True)
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..engine import (
    RESIGNATION,
    TEAM_LETTERS,
    CardKind,
    Config,
    GameRecord,
    Move,
    MoveKind,
    State,
    StepKind,
    View,
    card_kind,
    card_name,
    draw_move,
    space_name,
)
from .explain import After, Note, after, describe, open_lines, span
from .heuristic import WIN, evaluator_for
from .levels import EXPERT_DEALS
from .lookahead import FINISHED, LookaheadBot

INACCURACY = 50.0
"""A loss from this many points is an inaccuracy (about a three left to an opponent)."""
MISTAKE = 200.0
"""A loss from this many points is a mistake (more than an opponent's four is worth)."""
BLUNDER = 2000.0
"""A loss from this many points is a blunder (about a sequence)."""
GAME_POINTS = 5000.0
"""What a game won or lost in a deal counts in the review's mean (the search counts
:data:`~.lookahead.FINISHED`): about a sequence and a four, so a move that loses the game in
one deal of 32 is an inaccuracy (156 points), in half of them a blunder."""
CHANCE_DEALS = 16
"""Deals each chance estimate plays to the end."""
TURNING = 0.25
"""A move is a turning point when its team's estimated chances moved by this much or more (with
:data:`CHANCE_DEALS` deals a point, smaller swings are mostly the estimate's noise)."""
TURNING_MAX = 5
"""At most this many turning points, the largest swings."""
_PLAYOUT_CAP = 2000
"""Plies after which a chance playout counts as a draw (no game of the family lasts so long)."""

VERDICTS = ("best", "good", "inaccuracy", "mistake", "blunder")
SOUND = ("best", "good")
"""The verdicts of a sound move: at a turning point for the worse, no other move was clearly
better (the note ``unlucky`` says so)."""


def decision_seed(seed: int, view: View) -> int:
    """The seed of the deals that judge ``view``'s decision: from the review's seed, the moves
    made so far and the seat, all public, so no hidden card changes it."""
    text = f"sequence-review:{seed}:{view.seat}:" + " ".join(map(str, view.move_stack))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 2


@dataclass(frozen=True)
class MoveReview:
    """One decision judged: the move made, the best the search found, and what was wrong."""

    index: int
    """The move's place in the record, from 0."""
    seat: int
    move: Move
    best: Move
    """The candidate with the best mean score (``move`` itself when it was best)."""
    loss: float
    """How far the move's mean score fell short of ``best``'s, in evaluation points."""
    verdict: str
    """One of :data:`VERDICTS`."""
    flags: tuple[Note, ...]
    """The mistakes found, each with what was better (empty when the move was sound)."""
    notes: tuple[Note, ...]
    """What the move did (completed a sequence, blocked a four, ...); first, for a sound move
    after which its team's chances fell most (a turning point), that this was luck."""
    could_win: bool
    """A legal move won the game at once."""
    could_block: bool
    """An opponent had a four and a legal move blocked or broke it."""
    candidates: int
    deals: int

    @property
    def flagged(self) -> bool:
        return bool(self.flags)

    def codes(self) -> set[str]:
        return {n.code for n in self.flags}

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "number": self.index + 1,
            "seat": self.seat,
            "move": str(self.move),
            "best": str(self.best),
            "loss": round(self.loss, 1),
            "verdict": self.verdict,
            "flagged": self.flagged,
            "flags": [n.to_dict() for n in self.flags],
            "notes": [n.to_dict() for n in self.notes],
            "could_win": self.could_win,
            "could_block": self.could_block,
            "candidates": self.candidates,
            "deals": self.deals,
        }


@dataclass(frozen=True)
class Hint:
    """The move the strongest bot would make from a seat's view, and why in words."""

    move: Move
    notes: tuple[Note, ...]
    candidates: int
    deals: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "move": str(self.move),
            "notes": [n.to_dict() for n in self.notes],
            "candidates": self.candidates,
            "deals": self.deals,
        }


@dataclass(frozen=True)
class ChancePoint:
    """Each team's estimated chance to win after ``index`` moves (and the share drawn)."""

    index: int
    chances: tuple[float, ...]
    draw: float
    deals: int
    """Deals played out (0: the game was over, the chances are its result)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "chances": [round(c, 3) for c in self.chances],
            "draw": round(self.draw, 3),
            "deals": self.deals,
        }


@dataclass(frozen=True)
class TurningPoint:
    """A move after which its team's estimated chances moved by :data:`TURNING` or more."""

    index: int
    seat: int
    move: Move
    swing: float
    """The change in the mover's team's estimated chance (+ better, - worse)."""
    notes: tuple[Note, ...]
    """The move's flags, then what it did."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "number": self.index + 1,
            "seat": self.seat,
            "move": str(self.move),
            "swing": round(self.swing, 3),
            "notes": [n.to_dict() for n in self.notes],
        }


@dataclass(frozen=True)
class GameReview:
    """A whole game reviewed: every decision, the chances over the game, its turning points."""

    config: Config
    result: str | None
    players: tuple[str, ...]
    """Who sat in each seat (the record's ``Name``/``Seat`` tags, else ``seat N``)."""
    moves: tuple[MoveReview, ...]
    chances: tuple[ChancePoint, ...]
    turning_points: tuple[TurningPoint, ...]
    deals: int
    chance_deals: int
    seed: int
    seconds: float = field(default=0.0, compare=False)

    def flagged(self) -> list[MoveReview]:
        return [m for m in self.moves if m.flagged]

    def to_dict(self) -> dict[str, Any]:
        cfg = self.config
        return {
            "format": "sequence-review/1",
            "config": cfg.to_dict(),
            "result": self.result,
            "players": list(self.players),
            "teams": [TEAM_LETTERS[t] for t in range(cfg.teams)],
            "method": {
                "search": "lookahead (expert's evaluation), each candidate in the same deals",
                "deals": self.deals,
                "chance_deals": self.chance_deals,
                "seed": self.seed,
                "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER},
                "chances": "an estimate: the share of sampled deals of the unseen cards that"
                " greedy play wins, from what a spectator sees",
                "seen": "each move is judged from its mover's view only",
            },
            "moves": [m.to_dict() for m in self.moves],
            "chances": [c.to_dict() for c in self.chances],
            "turning_points": [t.to_dict() for t in self.turning_points],
            "seconds": round(self.seconds, 2),
        }


class Reviewer:
    """Judges decisions, gives hints and estimates chances (see the module's docstring).

    ``deals``: deals each decision is searched over (``None``: expert's, by game); ``k``: how
    many of greedy's best moves are candidates; ``chance_deals``: deals each chance estimate
    plays out (0: no chances); ``seed``: the review's seed.
    """

    def __init__(
        self,
        deals: int | None = None,
        k: int = 6,
        chance_deals: int = CHANCE_DEALS,
        seed: int = 0,
    ) -> None:
        if deals is not None and deals < 1:
            raise ValueError(f"deals must be above 0, not {deals}")
        if k < 1:
            raise ValueError(f"k must be above 0, not {k}")
        if chance_deals < 0:
            raise ValueError(f"chance_deals must be 0 or more, not {chance_deals}")
        self.deals = deals
        self.k = k
        self.chance_deals = chance_deals
        self.seed = seed

    def deals_for(self, config: Config) -> int:
        return self.deals if self.deals is not None else EXPERT_DEALS[config.game]

    # --- one decision ---------------------------------------------------------------------------

    def _judge(
        self, view: View, extra: Sequence[Move]
    ) -> tuple[list[Move], list[float], State, dict[Move, After], list[Move]]:
        """Candidates (greedy's best ``k``, ``extra``, winning moves, the dead-card exchange),
        their mean scores, the deal their effects are read on, those effects, the winning moves."""
        legal = view.legal_moves
        team = view.team
        assert team is not None
        seed = decision_seed(self.seed, view)
        sample = State.sample_from_view(view, seed)
        judge = evaluator_for(view.config).informed(view)
        values = {m: judge.move_value(m, view.chips, view.sequences, team) for m in legal}
        ranked = sorted(legal, key=lambda m: values[m], reverse=True)
        cands = list(ranked[: self.k])
        effects: dict[Move, After] = {}
        wins = []
        for m in legal:
            if m.kind in (MoveKind.PLACE, MoveKind.REPLACE, MoveKind.REMOVE) and values[m] >= WIN:
                effects[m] = after(sample, m)
                if effects[m].winner == team:
                    wins.append(m)
        for m in (*extra, *wins, *(m for m in legal if m.kind is MoveKind.DEAD)):
            if m not in cands:
                cands.append(m)
        for m in cands:
            if m not in effects:
                effects[m] = after(sample, m)
        bot = LookaheadBot(seed=seed, time=None, deals=1, k=self.k, cards=True)
        per_deal = bot.deal_scores(view, cands, self.deals_for(view.config))
        scores = [sum(map(_weighed, deal)) / len(deal) for deal in per_deal]
        return cands, scores, sample, effects, wins

    def review_move(self, view: View, move: Move, index: int | None = None) -> MoveReview | None:
        """Judge ``move`` made from ``view`` (``None`` when there was no choice: one legal
        move, a due draw). ``index``: the move's place in its record (default: the moves so far).
        """
        legal = view.legal_moves
        if move not in legal:
            raise ValueError(f"{move} is not a legal move of seat {view.seat} here")
        if len(legal) < 2 or move.kind is MoveKind.DRAW:
            return None
        team = view.team
        assert team is not None and view.seat is not None
        cfg = view.config
        cands, scores, sample, effects, wins = self._judge(view, [move])
        score = dict(zip(cands, scores, strict=True))
        best = max(cands, key=lambda m: (score[m], m == move))
        loss = max(0.0, score[best] - score[move])
        left = effects[move]
        flags: list[Note] = []
        if wins and move not in wins:
            flags.append(Note("missed_win", better=str(best if best in wins else wins[0])))
        better = str(best)
        completes = [m for m in cands if _completes(view, effects[m], team)]
        if not flags and best in completes and not _completes(view, left, team) and loss >= MISTAKE:
            w = _new_sequence(view, effects[best], team)
            flags.append(Note("missed_sequence", better=better, span=span(cfg, w)))
        fours = {
            o: open_lines(view.chips, view.sequences, cfg, o, 1)
            for o in range(cfg.teams)
            if o != team
        }
        could_block = any(_blocks(view, m, sample, effects, fours) for m in legal if _may_block(m))
        if left.winner != team and loss >= MISTAKE and not flags:
            for o, ws in fours.items():
                still = set(open_lines(left.chips, left.sequences, cfg, o, 1))
                after_best = set(
                    open_lines(effects[best].chips, effects[best].sequences, cfg, o, 1)
                )
                left_open = [w for w in ws if w in still and w not in after_best]
                if left_open:
                    theirs = view.chips[o] | cfg.spec.layout.free
                    flags.append(Note("unblocked_four", team=TEAM_LETTERS[o], better=better,
                                      span=span(cfg, left_open[0], theirs)))  # fmt: skip
                    break
        spent = _jack(move)
        if spent is not None and not flags:
            # A two-eyed Jack put where an ordinary card of the hand puts the same chip.
            same = next(
                (m for m in legal if move.kind is MoveKind.PLACE and m.kind is MoveKind.PLACE
                 and m.space == move.space and _jack(m) is None),
                None,
            )  # fmt: skip
            if same is not None:
                flags.append(Note("wasted_jack_same", card=card_name(move.card),  # type: ignore[arg-type]
                                  space=_space(move), better=str(same)))  # fmt: skip
            elif _jack(best) is not spent and loss >= INACCURACY:
                flags.append(Note("wasted_jack", card=card_name(move.card), better=better))  # type: ignore[arg-type]
        dead = next((m for m in legal if m.kind is MoveKind.DEAD), None)
        if dead is not None and move.kind is not MoveKind.DEAD:
            flags.append(Note("dead_card_kept", card=card_name(dead.card), better=str(dead)))  # type: ignore[arg-type]
        if loss >= MISTAKE and not flags:
            flags.append(Note("better_move", better=better))
        verdict = _verdict(loss, move == best)
        if wins and move not in wins:
            verdict = "blunder"
        return MoveReview(
            index=len(view.move_stack) if index is None else index,
            seat=view.seat,
            move=move,
            best=best,
            loss=loss,
            verdict=verdict,
            flags=tuple(flags),
            notes=tuple(describe(view, move, left)),
            could_win=bool(wins),
            could_block=could_block,
            candidates=len(cands),
            deals=self.deals_for(cfg),
        )

    def hint(self, view: View) -> Hint:
        """The move the strongest bot would make from ``view``, and why (:class:`Hint`)."""
        legal = view.legal_moves
        if not legal:
            raise ValueError(f"seat {view.seat} has nothing to do now")
        if len(legal) == 1 or legal[0].kind is MoveKind.DRAW:
            move = legal[0]
            return Hint(move, (), 1, 0)
        dead = next((m for m in legal if m.kind is MoveKind.DEAD), None)
        if dead is not None:  # free, always first (the search plays it at once too)
            sample = State.sample_from_view(view, decision_seed(self.seed, view))
            return Hint(dead, tuple(describe(view, dead, after(sample, dead))), 1, 0)
        cands, scores, _sample, effects, wins = self._judge(view, [])
        best = wins[0] if wins else max(zip(scores, cands, strict=True), key=lambda p: p[0])[1]
        notes = describe(view, best, effects[best], keeps=True)
        if not any(n.code not in ("keeps_wild", "keeps_remover") for n in notes):
            notes.insert(0, Note("search_best"))  # no line it makes or stops: say whose choice
        return Hint(best, tuple(notes), len(cands), self.deals_for(view.config))

    # --- chances ----------------------------------------------------------------------------------

    def chances(self, view: View, index: int) -> ChancePoint:
        """Each team's chance to win from ``view``'s position, estimated by playing
        :attr:`chance_deals` deals of the cards ``view`` does not show to the end with greedy
        play. Give a spectator's view (``state.view(None)``) for chances nobody's hand informs."""
        cfg = view.config
        teams = cfg.teams
        outcome = view.outcome
        if outcome is not None:
            return ChancePoint(index, _result(outcome.winner, teams), 1.0 if outcome.winner
                               is None else 0.0, 0)  # fmt: skip
        wins = [0.0] * teams
        draws = 0.0
        n = self.chance_deals
        # The same seeds at every point of a game (common random numbers): two points' deals
        # differ only where what is unseen differs, so a swing is less the deals' noise.
        base = self.seed * 1_000_003
        for i in range(n):
            winner = _play_out(State.sample_from_view(view, base + i))
            if winner is None:
                draws += 1
            else:
                wins[winner] += 1
        return ChancePoint(index, tuple(w / n for w in wins), draws / n, n)

    # --- a whole game ----------------------------------------------------------------------------

    def review_game(self, record: GameRecord) -> GameReview:
        """Review every decision of ``record``, estimate the chances at each and pick the
        turning points. Raises :class:`~sequence.engine.RecordError` for a bad record."""
        start = time.perf_counter()
        judged = [self.judge(d) for d in decisions(record)]
        end = self.end_chances(record)
        return self.assemble(record, judged, end, time.perf_counter() - start)

    def judge(self, decision: Decision) -> tuple[MoveReview | None, ChancePoint | None]:
        """One decision of a game judged, and (with :attr:`chance_deals`) the chances before it:
        a piece of :meth:`review_game` that a worker pool can run on its own."""
        reviewed = self.review_move(decision.view, decision.move, decision.index)
        if reviewed is None or not self.chance_deals:
            return reviewed, None
        return reviewed, self.chances(decision.public, decision.index)

    def end_chances(self, record: GameRecord) -> ChancePoint | None:
        """The chances after the record's last move (``None`` without :attr:`chance_deals`)."""
        if not self.chance_deals:
            return None
        if record.termination == RESIGNATION:
            # A side gave up: the end is the result, whatever the position still allowed.
            return ChancePoint(len(record.moves), _result(record.winner, record.config.teams),
                               0.0, 0)  # fmt: skip
        return self.chances(record.replay().view(None), len(record.moves))

    def assemble(
        self,
        record: GameRecord,
        judged: Sequence[tuple[MoveReview | None, ChancePoint | None]],
        end: ChancePoint | None,
        seconds: float = 0.0,
    ) -> GameReview:
        """The game's review from :meth:`judge` of each of its :func:`decisions`, in order,
        and :meth:`end_chances`."""
        reviews = [r for r, _ in judged if r is not None]
        points = [p for r, p in judged if r is not None and p is not None]
        if end is not None:
            points.append(end)
        cfg = record.config
        reviews, turning = _turning_points(reviews, points, cfg.teams)
        return GameReview(
            config=cfg,
            result=record.result,
            players=players_of(record),
            moves=tuple(reviews),
            chances=tuple(points),
            turning_points=turning,
            deals=self.deals_for(cfg),
            chance_deals=self.chance_deals,
            seed=self.seed,
            seconds=seconds,
        )


@dataclass(frozen=True)
class Decision:
    """A move of a record that its mover chose: the mover's view, and the spectators' view of
    the same position (for the chances)."""

    index: int
    view: View
    move: Move
    public: View


def decisions(record: GameRecord) -> list[Decision]:
    """Every move of ``record`` made by a seat (not the dice) from a position where it was
    legal, with the views to judge it by. Raises :class:`~sequence.engine.RecordError` for a
    bad record (checked first: a bad move is named before any work)."""
    record.replay()
    state = State.new(record.config, record.seed)
    found = []
    for index, move in enumerate(record.moves):
        seat = None if state.is_chance() else state.to_move
        if seat is not None and move in state.legal_moves:
            found.append(Decision(index, state.view(seat), move, state.view(None)))
        state.push(move)
    return found


def players_of(record: GameRecord) -> tuple[str, ...]:
    """Who sat in each seat: the ``Name``/``Seat`` tags a tournament writes, else ``seat N``."""
    tags = record.tags
    return tuple(
        tags.get(f"Name{s + 1}") or tags.get(f"Seat{s + 1}") or f"seat {s + 1}"
        for s in range(record.config.players)
    )


def summarise(reviews: Iterable[GameReview]) -> dict[str, Any]:
    """Per agent (a seat's name in the records), over many reviewed games: decisions, flagged
    moves, how often it missed a win when it had one and left a four it could have blocked,
    Jacks wasted, dead cards kept, the mean loss. JSON-ready."""
    agents: dict[str, dict[str, Any]] = {}
    games = 0
    for review in reviews:
        games += 1
        seen: set[str] = set()
        for m in review.moves:
            name = review.players[m.seat]
            a = agents.setdefault(name, {
                "games": 0, "decisions": 0, "flagged": 0, "mistakes": 0, "blunders": 0,
                "wins_available": 0, "missed_wins": 0, "blocks_available": 0,
                "missed_blocks": 0, "missed_sequences": 0, "wasted_jacks": 0,
                "dead_cards_kept": 0, "total_loss": 0.0,
            })  # fmt: skip
            if name not in seen:
                seen.add(name)
                a["games"] += 1
            codes = m.codes()
            a["decisions"] += 1
            a["flagged"] += m.flagged
            a["mistakes"] += m.verdict == "mistake"
            a["blunders"] += m.verdict == "blunder"
            a["wins_available"] += m.could_win
            a["missed_wins"] += "missed_win" in codes
            a["blocks_available"] += m.could_block
            a["missed_blocks"] += "unblocked_four" in codes
            a["missed_sequences"] += "missed_sequence" in codes
            a["wasted_jacks"] += bool(codes & {"wasted_jack", "wasted_jack_same"})
            a["dead_cards_kept"] += "dead_card_kept" in codes
            a["total_loss"] += m.loss
    for a in agents.values():
        a["mean_loss"] = round(a.pop("total_loss") / a["decisions"], 1) if a["decisions"] else 0.0
        a["missed_win_rate"] = _rate(a["missed_wins"], a["wins_available"])
        a["missed_block_rate"] = _rate(a["missed_blocks"], a["blocks_available"])
        a["flagged_rate"] = _rate(a["flagged"], a["decisions"])
    return {"format": "sequence-review-agents/1", "games": games, "agents": agents}


# --- helpers ------------------------------------------------------------------------------------


def _weighed(score: float) -> float:
    """A deal's score with a finished game counted as :data:`GAME_POINTS` (the search's own
    ±:data:`~.lookahead.FINISHED` would make one unlucky deal in 32 a blunder)."""
    if score >= FINISHED:
        return GAME_POINTS
    if score <= -FINISHED:
        return -GAME_POINTS
    return score


def _rate(k: int, n: int) -> float | None:
    return round(k / n, 4) if n else None


def _verdict(loss: float, best: bool) -> str:
    if best or loss <= 0:
        return "best"
    if loss < INACCURACY:
        return "good"
    if loss < MISTAKE:
        return "inaccuracy"
    if loss < BLUNDER:
        return "mistake"
    return "blunder"


def _jack(move: Move) -> CardKind | None:
    """The kind of Jack (Unicorn, Dragon) ``move`` spends, if any."""
    if move.card is None or move.kind not in (MoveKind.PLACE, MoveKind.REMOVE):
        return None
    kind = card_kind(move.card)
    return None if kind is CardKind.ORDINARY else kind


def _space(move: Move) -> str:
    assert move.space is not None
    return space_name(move.space)


def _completes(view: View, left: After, team: int) -> bool:
    return len(left.sequences[team]) > len(view.sequences[team])


def _new_sequence(view: View, left: After, team: int) -> int:
    had = set(view.sequences[team])
    return next(w for w in left.sequences[team] if w not in had)


def _may_block(move: Move) -> bool:
    return move.kind in (MoveKind.PLACE, MoveKind.REMOVE, MoveKind.REPLACE)


def _blocks(
    view: View,
    move: Move,
    sample: State,
    effects: dict[Move, After],
    fours: dict[int, tuple[int, ...]],
) -> bool:
    """Whether ``move`` closes one of the opponents' ``fours`` (placing in it or removing from
    it); read from the move's space first, so most moves cost no push."""
    assert move.space is not None
    bit = 1 << move.space
    if not any(w & bit for ws in fours.values() for w in ws):
        return False
    left = effects.get(move) or after(sample, move)
    cfg = view.config
    return any(
        w not in set(open_lines(left.chips, left.sequences, cfg, o, 1))
        for o, ws in fours.items()
        for w in ws
    )


def _result(winner: int | None, teams: int) -> tuple[float, ...]:
    if winner is None:
        return (0.0,) * teams
    return tuple(1.0 if t == winner else 0.0 for t in range(teams))


def _play_out(state: State) -> int | None:
    """Play ``state`` to its end with every seat's greedy move (the first best on ties); the
    winning team, or ``None`` for a draw."""
    ev = evaluator_for(state.config)
    teams = state.config.teams
    for _ in range(_PLAYOUT_CAP):
        step = state.next_step()
        if step.kind is StepKind.OVER:
            break
        if step.kind is StepKind.ROLL:
            state.push(state.sample_chance())
            continue
        if step.kind is StepKind.DRAW:
            state.push(draw_move(step.seat))  # type: ignore[arg-type]
            continue
        legal = state.legal_moves
        move = legal[0]
        if len(legal) > 1:
            t = state.to_move % teams
            chips, seqs = state.chips, state.sequences
            best_value = float("-inf")
            for m in legal:
                v = ev.move_value(m, chips, seqs, t)
                if v > best_value:
                    best_value, move = v, m
        state.push(move)
    outcome = state.outcome
    return None if outcome is None else outcome.winner


def _turning_points(
    reviews: Sequence[MoveReview], points: Sequence[ChancePoint], teams: int
) -> tuple[list[MoveReview], tuple[TurningPoint, ...]]:
    """The moves after which the mover's team's chances moved by :data:`TURNING` or more
    (points[i] is taken before reviews[i], the last one after the game), and the reviews with
    each :data:`SOUND` move among them whose chances fell noted ``unlucky``: no other move was
    clearly better."""
    if len(points) != len(reviews) + 1:
        return list(reviews), ()
    swings = []
    for i, m in enumerate(reviews):
        team = m.seat % teams
        swing = points[i + 1].chances[team] - points[i].chances[team]
        if abs(swing) >= TURNING:
            swings.append((i, swing))
    swings.sort(key=lambda p: -abs(p[1]))
    out = list(reviews)
    found = []
    for i, swing in sorted(swings[:TURNING_MAX]):
        m = out[i]
        if swing < 0 and m.verdict in SOUND:
            m = out[i] = replace(m, notes=(Note("unlucky"), *m.notes))
        found.append(TurningPoint(m.index, m.seat, m.move, swing, m.flags + m.notes))
    return out, tuple(found)
