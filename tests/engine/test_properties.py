"""Property-based tests: random games of every player count of every game and variant.

Each example plays a random game (Hypothesis picks the configuration, the seed and the
length) and checks invariants after every move:

- every card is always somewhere, exactly once per copy;
- each team's chips on the board equal its placements minus its losses, counted here from the
  moves, and never exceed the supply;
- chips of completed sequences are never removed (outside ``difficult``);
- ``pop`` after ``push`` restores an identical state;
- a view holds only the viewer's hand, no deck order and no random source, and a state
  resampled from a view gives the same view;
- ``legal_moves()`` agrees with ``is_legal()`` on a broad set of candidate moves;
- the sequences agree with a slow brute-force counter written here from the rules.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import combinations
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from sequence.engine import (
    CHANCE,
    Config,
    Move,
    MoveKind,
    Phase,
    State,
    StepKind,
    View,
    draw_move,
    make_config,
)
from sequence.engine.cards import card_name
from sequence.engine.dice_rules import ROLL_OUTCOMES
from sequence.engine.errors import MESSAGES
from sequence.engine.state import count_cards

CONFIGS: list[Config] = [
    *(make_config("classic", n) for n in (2, 3, 4, 6, 8, 9, 10, 12)),
    make_config("classic", 6, teams=3),
    make_config("classic", 12, teams=3),
    *(make_config("kids", n) for n in (2, 3, 4)),
    *(make_config("dice", n) for n in (2, 3, 4)),
    make_config("dice", 2, dice_line_length=6),
    make_config("classic", 2, draft=True),
    make_config("classic", 4, draft=True),
    make_config("classic", 2, manual_draw=True),
    make_config("classic", 3, manual_draw=True),
    make_config("classic", 4, manual_draw=True),
    make_config("classic", 2, difficult=True),
    make_config("classic", 4, difficult=True, chips_per_colour=12),
    make_config("classic", 3, chips_per_colour="us"),
    make_config("kids", 2, chips_per_colour=5),
    make_config("dice", 3, chips_per_colour=4),
]
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
config_st = hs.sampled_from(CONFIGS)
seed_st = hs.integers(0, 2**32)

# --- an independent brute-force reading of the sequence rules -----------------------------------


def brute_windows(cfg: Config) -> list[frozenset[int]]:
    """Every straight run of ``line_length`` spaces, written from scratch (not the engine's)."""
    layout = cfg.spec.layout
    rows, cols, length = layout.rows, layout.cols, cfg.line_length
    out = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + k * dr, c + k * dc) for k in range(length)]
                if all(0 <= rr < rows and 0 <= cc < cols for rr, cc in cells):
                    out.append(frozenset(rr * 10 + cc for rr, cc in cells))
    return out


def owned(st: State, team: int) -> set[int]:
    layout = st.config.spec.layout
    return {s for s in layout.spaces if st.chips[team] >> s & 1 or layout.free >> s & 1}


def compatible(ws: list[frozenset[int]]) -> bool:
    return all(len(a & b) <= 1 for a, b in combinations(ws, 2))


def most_new(cands: list[frozenset[int]], existing: list[frozenset[int]]) -> int:
    """The largest number of candidate windows that can all count as new sequences."""
    cands = [w for w in cands if all(len(w & e) <= 1 for e in existing)]
    for size in range(len(cands), 0, -1):
        if any(compatible(list(c)) for c in combinations(cands, size)):
            return size
    return 0


def check_sequences(st: State, windows: list[frozenset[int]]) -> None:
    for team in range(st.config.teams):
        mine = owned(st, team)
        seqs = [frozenset(s) for s in st.sequence_spaces(team)]
        for w in seqs:
            assert w in windows and w <= mine, "a recorded sequence is not a full line of chips"
        assert compatible(seqs), "two sequences share more than one space"
        for w in windows:
            if w <= mine and w not in seqs:
                # a complete window that is not recorded must overlap a sequence in 2+ spaces
                assert any(len(w & e) >= 2 for e in seqs), f"uncounted sequence {sorted(w)}"


def check_placement(before: State, after: State, move: Move, windows: list[frozenset[int]]) -> None:
    """A placement adds exactly as many sequences as the brute force allows."""
    if move.kind not in (MoveKind.PLACE, MoveKind.REPLACE):
        return
    team = before.to_move % before.config.teams
    space = move.space
    assert space is not None
    existing = [frozenset(s) for s in before.sequence_spaces(team)]
    mine = owned(after, team)
    cands = [w for w in windows if space in w and w <= mine]
    want = len(existing) + most_new(cands, existing)
    assert len(after.sequence_spaces(team)) == want
    assert [frozenset(s) for s in after.sequence_spaces(team)][: len(existing)] == existing


# --- the random game driver -------------------------------------------------------------------


def random_game(cfg: Config, seed: int, steps: int) -> list[tuple[State, Move, State]]:
    """Play ``steps`` random moves; return (before, move, after) triples (states are copies)."""
    rnd = random.Random(seed)
    st = State.new(cfg, seed)
    out = []
    for _ in range(steps):
        if st.is_over():
            break
        if st.is_chance():
            move = st.sample_chance()
        elif st.config.manual_draw and st.pending_draws and rnd.random() < 0.6:
            move = Move(MoveKind.DRAW, seat=rnd.choice(st.pending_draws))
        elif (
            st.config.team_size > 1
            and rnd.random() < 0.03
            and st.penalty_allowed(team := rnd.randrange(st.config.teams)) is None
        ):
            move = Move(MoveKind.PENALTY, team=team)
        else:
            move = rnd.choice(st.legal_moves)
        before = st.copy(stack=False)
        st.push(move)
        out.append((before, move, st.copy(stack=False)))
    return out


def chip_count_from_moves(cfg: Config, seed: int, moves: list[Move]) -> list[int]:
    """Chips on the board per team, counted from the moves alone."""
    st = State.new(cfg, seed)
    counts = [0] * cfg.teams
    for move in moves:
        team = st.to_move % cfg.teams
        if move.kind in (MoveKind.PLACE, MoveKind.REPLACE):
            assert move.space is not None
            owner = st.chip_at(move.space)
            if owner is not None:
                counts[owner] -= 1
            counts[team] += 1
        elif move.kind is MoveKind.REMOVE:
            assert move.space is not None
            owner = st.chip_at(move.space)
            assert owner is not None
            counts[owner] -= 1
        st.push(move)
    return counts


# --- properties -------------------------------------------------------------------------------


@SETTINGS
@given(config_st, seed_st, hs.integers(1, 120))
def test_cards_and_chips_are_conserved(cfg: Config, seed: int, steps: int) -> None:
    game = random_game(cfg, seed, steps)
    deck = Counter(cfg.spec.deck)
    moves = []
    refill = cfg.spec.uses_cards and not cfg.manual_draw and not cfg.draft
    for before, move, after in game:
        moves.append(move)
        if (
            refill
            and move.card is not None
            and move.kind is not MoveKind.FORFEIT
            and not after.is_over()
        ):
            # the card played (or exchanged) is replaced at once: hands keep their size
            # (a winning play ends the game before the draw)
            seat = before.to_move
            assert len(after.hand_of(seat)) == len(before.hand_of(seat))
            if cfg.game == "kids":
                assert len(after.hand_of(seat)) == 3
        if cfg.spec.uses_cards:
            assert count_cards(after) == deck
        for team in range(cfg.teams):
            assert 0 <= after.chips[team].bit_count() <= cfg.chips[team]
            assert after.supply(team) == cfg.chips[team] - after.chips[team].bit_count()
        chips = [after.chips[t] for t in range(cfg.teams)]
        assert all(not (a & b) for a, b in combinations(chips, 2)), "two chips on one space"
        assert not any(c & cfg.spec.layout.free for c in chips), "a chip on a free corner"
    if game:
        final = game[-1][2]
        assert chip_count_from_moves(cfg, seed, moves) == [
            final.chips[t].bit_count() for t in range(cfg.teams)
        ]


@SETTINGS
@given(config_st, seed_st, hs.integers(1, 300))
def test_locked_chips_stay_and_sequences_match_brute_force(
    cfg: Config, seed: int, steps: int
) -> None:
    windows = brute_windows(cfg)
    for before, move, after in random_game(cfg, seed, steps):
        check_sequences(after, windows)
        check_placement(before, after, move, windows)
        if not cfg.difficult:
            for team in range(cfg.teams):
                for seq in before.sequence_spaces(team):
                    assert seq in after.sequence_spaces(team)
                    for s in seq:
                        assert cfg.spec.layout.free >> s & 1 or after.chip_at(s) == team


@SETTINGS
@given(config_st, seed_st, hs.integers(1, 100))
def test_pop_after_push_restores_an_identical_state(cfg: Config, seed: int, steps: int) -> None:
    rnd = random.Random(seed)
    for before, move, after in random_game(cfg, seed, steps):
        st = before.copy()
        text = st.position()
        st.push(move)
        assert st == after and st.position() == after.position()
        assert st.pop() == move
        assert st == before and st.position() == text
        assert State.from_position(text) == before
        if rnd.random() < 0.2:
            assert State.from_position(after.position()) == after


FORBIDDEN_KEYS = {"deck", "hands", "seed", "rng", "_rng", "draw_pile", "state", "position"}


def keys_of(data: Any) -> set[str]:
    if isinstance(data, dict):
        return set(data) | {k for v in data.values() for k in keys_of(v)}
    if isinstance(data, list):
        return {k for v in data for k in keys_of(v)}
    return set()


def check_view(st: State, seat: int | None) -> View:
    view = st.view(seat)
    names = set(View._fields)
    assert not names & FORBIDDEN_KEYS
    assert view.hand == (None if seat is None else st.hand_of(seat))
    data = view.to_dict()
    assert not keys_of(data) & FORBIDDEN_KEYS
    assert data["deck_size"] == st.deck_size
    text = json.dumps(data)
    assert data["hand"] == (None if seat is None else [card_name(c) for c in st.hand_of(seat)])
    assert data["hand_sizes"] == [len(st.hand_of(s)) for s in range(st.config.players)]
    assert data["known_hands"] == [[card_name(c) for c in k] for k in view.known_hands]
    for other in range(st.config.players):
        # what the view says of another hand is only the cards publicly taken from the draft
        assert not Counter(view.known_hands[other]) - Counter(st.hand_of(other))
    assert f"{st._rng:x}" not in text or st._rng == 0
    return view


@SETTINGS
@given(config_st, seed_st, hs.integers(0, 100), hs.integers(0, 2**16))
def test_views_hide_what_they_must_and_resampling_keeps_them(
    cfg: Config, seed: int, steps: int, resample_seed: int
) -> None:
    game = random_game(cfg, seed, steps)
    st = game[-1][2] if game else State.new(cfg, seed)
    for seat in [*range(cfg.players), None]:
        view = check_view(st, seat)
        sample = State.sample_from_view(view, resample_seed)
        assert sample.view(seat) == view
        assert json.dumps(sample.view(seat).to_dict()) == json.dumps(view.to_dict())
        if cfg.spec.uses_cards:
            assert count_cards(sample) == Counter(cfg.spec.deck)
            for other in range(cfg.players):
                assert len(sample.hand_of(other)) == len(st.hand_of(other))
        if seat is not None and not st.is_over() and not st.is_chance():
            assert set(sample.legal_moves_of(seat)) == set(view.legal_moves)


def candidates(st: State) -> set[Move]:
    cfg = st.config
    layout = cfg.spec.layout
    out: set[Move] = {Move(MoveKind.PASS)}
    if cfg.spec.uses_cards:
        pool = set(st.hand_of(st.to_move)) | set(st.draft)
        pool |= set(random.Random(st.turns).sample(sorted(set(cfg.spec.deck)), 4))
        for card in pool:
            for kind in (MoveKind.DEAD, MoveKind.DISCARD, MoveKind.PICK, MoveKind.FORFEIT):
                out.add(Move(kind, card))
            for space in range(100):
                out.add(Move(MoveKind.PLACE, card, space))
                out.add(Move(MoveKind.REMOVE, card, space))
    else:
        for space in layout.spaces:
            for kind in (MoveKind.PLACE, MoveKind.REPLACE, MoveKind.REMOVE):
                out.add(Move(kind, None, space))
        out |= {Move(MoveKind.ROLL, dice=(a, b)) for a in range(1, 7) for b in range(a, 7)}
    return out


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config_st, seed_st, hs.integers(0, 120))
def test_legal_moves_agree_with_is_legal(cfg: Config, seed: int, steps: int) -> None:
    game = random_game(cfg, seed, steps)
    states = [State.new(cfg, seed)] + [after for _, _, after in game]
    for st in states[:: max(1, len(states) // 6)] + [states[-1]]:
        legal = set(st.legal_moves)
        assert len(legal) == len(st.legal_moves), "a legal move listed twice"
        for move in legal:
            assert st.is_legal(move), move
        for move in candidates(st):
            assert (move in legal) == st.is_legal(move), move
            refused = st.refusal(move)
            # Every generated move is accepted; every other one gets a coded reason.
            assert (refused is None) == (move in legal), move
            if refused is not None:
                assert refused.code in MESSAGES, (move, refused)
        if not st.is_over() and st.phase in (Phase.PLAY, Phase.ACT):
            assert legal, "no legal move for the seat to act"
        for seat in range(cfg.players):
            draw = Move(MoveKind.DRAW, seat=seat)
            ok = st.is_legal(draw, seat)
            assert ok == (seat in st.pending_draws and not st.is_over())
            if seat != st.to_move:
                assert st.legal_moves_of(seat) == ((draw,) if ok else ())


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config_st, seed_st)
def test_the_turn_driver_agrees_with_legal_moves_and_push(cfg: Config, seed: int) -> None:
    # next_step() is what every bot, server and environment follows: at each step it must
    # name exactly what the state accepts, and following it alone must finish the game.
    rnd = random.Random(seed)
    st = State.new(cfg.with_options(max_turns=300), seed)
    for _ in range(5000):
        step = st.next_step()
        if step.kind is StepKind.OVER:
            assert st.is_over() and step.seat is None and st.legal_moves == ()
            assert all(st.legal_moves_of(s) == () for s in range(cfg.players))
            return
        assert not st.is_over() and step.seat is not None
        if step.kind is StepKind.ROLL:
            assert st.is_chance() and st.actor() == CHANCE and step.seat == st.to_move
            assert st.view(step.seat).legal_moves == ()
            st.push(st.sample_chance())
        elif step.kind is StepKind.DRAW:
            assert cfg.manual_draw and step.seat == st.pending_draws[0]
            draw = draw_move(step.seat)
            assert draw in st.legal_moves_of(step.seat) and st.is_legal(draw, step.seat)
            st.push(draw, seat=step.seat)
        else:
            assert not st.pending_draws and step.seat == st.to_move == st.actor()
            legal = st.legal_moves
            assert legal and st.legal_moves_of(step.seat) == legal
            assert st.view(step.seat).legal_moves == legal
            others = [s for s in range(cfg.players) if s != step.seat]
            assert all(not st.is_legal(legal[0], s) for s in others)
            st.push(rnd.choice(legal), seat=step.seat)
    raise AssertionError("the driver did not finish the game")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config_st, seed_st)
def test_whole_games_end_properly(cfg: Config, seed: int) -> None:
    cfg = cfg.with_options(max_turns=400)
    windows = brute_windows(cfg)
    game = random_game(cfg, seed, 5000)
    final = game[-1][2]
    assert final.is_over() and final.legal_moves == ()
    outcome = final.outcome
    assert outcome is not None
    if outcome.winner is not None:
        assert outcome.termination.value in ("sequences", "heart", "draft_empty")
        if outcome.termination.value == "sequences":
            assert len(final.sequence_spaces(outcome.winner)) >= cfg.sequences_to_win
        if outcome.termination.value == "draft_empty":  # the draft's row ran out: more sequences
            mine = len(final.sequences[outcome.winner])
            assert all(
                len(final.sequences[t]) < mine for t in range(cfg.teams) if t != outcome.winner
            )
    else:
        assert final.turns <= cfg.max_turns
    for team in range(cfg.teams):
        if team != outcome.winner:
            assert len(final.sequence_spaces(team)) < cfg.sequences_to_win
    check_sequences(final, windows)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config_st, seed_st, hs.booleans(), hs.integers(0, 2**16))
def test_play_forced_makes_what_the_turn_driver_asks_up_to_a_decision(
    cfg: Config, seed: int, own_rolls: bool, roll_seed: int
) -> None:
    # play_forced() must equal following next_step() by hand through rolls and draws, stop only
    # at a seat's decision or the end (or, with dice=False, at a roll), and make nothing more
    # when called again there.
    rnd, dice_rng = random.Random(seed), random.Random(roll_seed)
    outcomes = [m for m, _ in ROLL_OUTCOMES]

    def roll(state: State) -> Move:
        assert state.is_chance()
        return outcomes[dice_rng.randrange(len(outcomes))]

    source = roll if own_rolls else None
    st = State.new(cfg.with_options(max_turns=200), seed)
    by_hand = st.copy()
    hand_rng = random.Random(roll_seed)
    for _ in range(5000):
        before = len(st.move_stack)
        if cfg.game == "dice" and rnd.random() < 0.3:
            stop = st.play_forced(source, dice=False)
            assert stop.kind in (StepKind.ROLL, StepKind.MOVE, StepKind.OVER)
            if stop.kind is StepKind.ROLL:
                assert st.is_chance() and stop == st.next_step()
        step = st.play_forced(source)
        while (want := by_hand.next_step()).kind in (StepKind.ROLL, StepKind.DRAW):
            if want.kind is StepKind.ROLL:
                by_hand.push(
                    outcomes[hand_rng.randrange(len(outcomes))]
                    if own_rolls
                    else by_hand.sample_chance()
                )
            else:
                by_hand.push(draw_move(want.seat), seat=want.seat)  # type: ignore[arg-type]
        assert step == want and st == by_hand and st.move_stack == by_hand.move_stack
        forced = st.move_stack[before:]
        assert all(m.kind in (MoveKind.ROLL, MoveKind.DRAW) for m in forced)
        assert st.play_forced(source) == step and len(st.move_stack) == len(by_hand.move_stack)
        if step.kind is StepKind.OVER:
            assert st.is_over() and step.seat is None
            return
        assert step.kind is StepKind.MOVE and step.seat == st.to_move and not st.pending_draws
        move = rnd.choice(st.legal_moves_of(step.seat))  # type: ignore[arg-type]
        st.push(move, seat=step.seat)
        by_hand.push(move, seat=step.seat)
    raise AssertionError("play_forced and the moves did not finish the game")
