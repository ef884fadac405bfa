"""The scheduler on its own: bots take the engine's next step (roll, draw, move) until the end.

No server, no database: a table in memory and an ``apply`` that pushes the move as the hub does
(checked with the seat, then the scheduler woken again).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from sequence.engine import Move, MoveKind, State, Step, StepKind, make_config
from sequence.server.scheduler import Scheduler, bot_step
from sequence.server.table import Seat, Table


def make_table(state: State, bots: list[str | None]) -> Table:
    return Table(
        id=1,
        code="TEST",
        config=state.config,
        seed=0,
        public=True,
        status="playing",
        host_hash="",
        seats=[Seat(i, bot=b, token_hash=None if b else "person") for i, b in enumerate(bots)],
        state=state,
    )


@pytest.fixture
def pool() -> Iterator[ThreadPoolExecutor]:
    with ThreadPoolExecutor(max_workers=2) as executor:
        yield executor


class Recorder:
    """The hub's part: push each step with its seat, wake the scheduler, note who did what."""

    def __init__(self, pool: ThreadPoolExecutor) -> None:
        self.scheduler = Scheduler(pool, self.apply, delay=0)
        self.steps: list[tuple[MoveKind, int]] = []
        self.over = asyncio.Event()

    async def apply(self, table: Table, move: Move, seat: int) -> None:
        assert table.lock.locked()
        assert table.state is not None
        state = table.state.copy()
        state.push(move, seat=seat)
        table.state = state
        self.steps.append((move.kind, seat))
        if state.is_over():
            table.status = "finished"
            self.over.set()
        self.scheduler.wake(table)


def opened_draw(seed: int) -> State:
    """Classic with manual draws, just after the first play: that seat's draw is open."""
    state = State.new(make_config("classic", players=2, manual_draw=True), seed=seed)
    state.push(next(m for m in state.legal_moves if m.kind is MoveKind.PLACE))
    assert state.pending_draws
    return state


@pytest.mark.parametrize(
    ("game", "options"), [("classic", {}), ("classic", {"manual_draw": True}), ("dice", {})]
)
async def test_bots_play_a_table_to_the_end(
    pool: ThreadPoolExecutor, game: str, options: dict[str, bool]
) -> None:
    state = State.new(make_config(game, players=2, **options), seed=7)
    table = make_table(state, ["random", "random"])
    hub = Recorder(pool)
    hub.scheduler.wake(table)
    await asyncio.wait_for(hub.over.wait(), 60)
    assert table.state is not None and table.state.outcome is not None
    assert len(hub.steps) == table.version > 0
    kinds = {kind for kind, _ in hub.steps}
    if game == "dice":
        assert MoveKind.ROLL in kinds
    if options:
        assert MoveKind.DRAW in kinds
    await asyncio.sleep(0)
    assert bot_step(table) is None


def test_a_bot_takes_the_engines_next_step() -> None:
    dice = State.new(make_config("dice", players=2), seed=3)
    step = dice.next_step()
    assert step.kind is StepKind.ROLL and step.seat is not None
    bots: list[str | None] = [None, None]
    assert bot_step(make_table(dice, bots)) is None
    bots[step.seat] = "random"
    assert bot_step(make_table(dice, bots)) == step


def test_a_persons_open_draw_does_not_hold_the_bot_up() -> None:
    state = opened_draw(5)
    drawer = state.pending_draws[0]
    other = 1 - drawer
    assert state.to_move == other
    # The person may draw later; the bot to move goes on meanwhile.
    table = make_table(state, [None, None])
    table.seats[other] = Seat(other, bot="random")
    assert bot_step(table) == Step(StepKind.MOVE, other)
    # A bot draws at once.
    table = make_table(state, [None, None])
    table.seats[drawer] = Seat(drawer, bot="random")
    assert bot_step(table) == Step(StepKind.DRAW, drawer)
    # Nobody to play for.
    assert bot_step(make_table(state, [None, None])) is None


def test_no_step_before_the_start_or_after_the_end() -> None:
    state = State.new(make_config("classic", players=2), seed=1)
    table = make_table(state, ["random", "random"])
    table.status = "lobby"
    assert bot_step(table) is None
    table.status, table.state = "playing", None
    assert bot_step(table) is None


async def test_a_step_shown_an_old_version_is_dropped(pool: ThreadPoolExecutor) -> None:
    state = opened_draw(5)
    drawer = state.pending_draws[0]
    table = make_table(state, [None, None])
    table.seats[1 - drawer] = Seat(1 - drawer, bot="random")
    hub = Recorder(pool)
    hub.scheduler.delay = 0.2
    hub.scheduler.wake(table)
    await asyncio.sleep(0.02)
    # While the bot waits, the person takes the draw: the bot was shown version 1, not 2.
    async with table.lock:
        await hub.apply(table, Move.parse(f"draw:{drawer + 1}"), drawer)
    await asyncio.sleep(0.5)
    assert hub.steps[0] == (MoveKind.DRAW, drawer)
    assert [seat for _, seat in hub.steps[1:]] == [1 - drawer]  # it moved once, at version 2
    hub.scheduler.stop()
