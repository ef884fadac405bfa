"""The scheduler on its own: bots take the engine's next step (roll, draw, move) until the end.

No server, no database: a table in memory and an ``apply`` that pushes the move as the hub does
(checked with the seat, then the scheduler woken again).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from sequence.engine import Move, MoveKind, State, Step, StepKind, View, draw_move, make_config
from sequence.server.tables import scheduler
from sequence.server.tables.scheduler import Scheduler, bot_step
from sequence.server.tables.table import Seat, Table


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


async def test_a_person_acting_during_a_bots_wait_makes_it_look_again(
    pool: ThreadPoolExecutor, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = opened_draw(5)
    drawer = state.pending_draws[0]
    bot = 1 - drawer
    table = make_table(state, [None, None])
    table.seats[bot] = Seat(bot, bot="random")
    shown: list[int] = []  # the version each of the bot's choices was made at
    choose_move = scheduler.choose_move

    def choose(spec: str, seed: int, view: View) -> str:
        shown.append(len(view.move_stack))
        return choose_move(spec, seed, view)

    monkeypatch.setattr(scheduler, "choose_move", choose)
    hub = Recorder(pool)
    hub.scheduler.delay = 0.4
    hub.scheduler.wake(table)  # the bot is to move at version 1 and waits
    await asyncio.sleep(0.05)
    # Meanwhile the person takes their draw: the table is at version 2, the bot's step is stale.
    async with table.lock:
        await hub.apply(table, draw_move(drawer), drawer)
    for _ in range(200):
        if len(hub.steps) >= 3:
            break
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.3)
    # The bot moved once, chosen at version 2, then drew; now the person is to move.
    assert [seat for _, seat in hub.steps] == [drawer, bot, bot]
    assert hub.steps[2][0] is MoveKind.DRAW and shown == [2]
    assert bot_step(table) is None
    await hub.scheduler.stop([table])
