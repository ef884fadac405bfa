"""Driving the terminal game through its interface, as a person would: keys and clicks."""

from __future__ import annotations

import random

from textual.pilot import Pilot

from sequence.engine import Move, MoveKind, Phase
from sequence.tui.app import SequenceApp
from sequence.tui.dialogs import GameOverScreen, HandoffScreen
from sequence.tui.game import GameScreen
from sequence.tui.widgets import BoardWidget, HandBar


def screen_text(app: SequenceApp, under: bool = False) -> str:
    """What the terminal shows now, as plain text (one line per row); ``under``: the game
    screen beneath any dialog."""
    screen = app.game_screen if under else app.screen
    strips = screen._compositor.render_strips()
    return "\n".join("".join(seg.text for seg in strip) for strip in strips)


async def settle(pilot: Pilot[int], app: SequenceApp, limit: int = 400) -> None:
    """Wait until a person must act: no bot thinking, or a dialog is up, or the game is over."""
    for _ in range(limit):
        await pilot.pause()
        screen = app.screen
        if isinstance(screen, GameOverScreen | HandoffScreen):
            return
        if isinstance(screen, GameScreen) and screen.thinking is None:
            session = screen.session
            actor = session.actor()
            if actor is None or (session.is_human(actor) and screen.viewer == actor):
                return
            if screen.awaiting_draw is not None:
                return
    raise AssertionError("the game did not come back to a person")


async def click_space(pilot: Pilot[int], screen: GameScreen, space: int) -> None:
    board = screen.query_one(BoardWidget)
    await pilot.click(board, offset=board.cell_offset(space))


async def type_text(pilot: Pilot[int], text: str) -> None:
    await pilot.press("colon", *text, "enter")


async def human_turn(
    pilot: Pilot[int], app: SequenceApp, rng: random.Random, step: int
) -> Move | None:
    """Play one legal move of the seat shown, through keys and clicks; return the move."""
    screen = app.game_screen
    session = screen.session
    seat = screen.viewer
    assert seat is not None
    view = session.view(seat)
    before = len(session.state.move_stack)
    if view.phase is Phase.ROLL:
        await pilot.press("r")
        await pilot.pause()
        assert len(session.state.move_stack) == before + 1, screen.message.plain
        return session.state.move_stack[-1]
    legal = view.legal_moves
    assert legal, "the shown seat has nothing to do"
    move = rng.choice(legal)
    if move.kind is MoveKind.PASS:
        await pilot.press("p" if step % 2 else "enter")
    else:
        if move.card is not None:
            cards = screen.choices(view)
            index = cards.index(move.card)
            if step % 3 == 0:
                hand = screen.query_one(HandBar)
                await pilot.click(hand, offset=hand.card_offset(index))
            else:
                await pilot.press(str(index + 1))
            assert screen.selected == index
        if move.kind is MoveKind.DEAD:
            await pilot.press("x")
        elif move.space is None:
            await pilot.press("enter")
        elif step % 2 == 0:
            await click_space(pilot, screen, move.space)
        else:
            from sequence.engine import space_name

            await type_text(pilot, space_name(move.space))
    await pilot.pause()
    stack = session.state.move_stack
    assert len(stack) > before and stack[before] == move, (move, screen.message.plain)
    if screen.awaiting_draw is not None:
        await pilot.press("d")
        await pilot.pause()
        # (a bot may have moved since, even ended the game)
        assert any(m.kind is MoveKind.DRAW for m in session.state.move_stack[before:])
    return move


async def play_to_the_end(
    pilot: Pilot[int], app: SequenceApp, seed: int = 0, limit: int = 3000
) -> int:
    """Play every human turn through the interface until the game is over; return the moves."""
    rng = random.Random(seed)
    for step in range(limit):
        await settle(pilot, app)
        if isinstance(app.screen, GameOverScreen):
            return step
        if isinstance(app.screen, HandoffScreen):
            await pilot.press("enter")
            continue
        await human_turn(pilot, app, rng, step)
    raise AssertionError("the game did not end")
