"""The first games that teach: every path through each lesson ends in the learner's win, each
step teaches the rule it names, a move the step does not teach changes nothing, and every word
is in all five languages."""

from __future__ import annotations

import doctest
import importlib
import itertools
import re

import pytest

from sequence.engine import (
    CardKind,
    IllegalMoveError,
    Move,
    MoveKind,
    State,
    card_kind,
    make_config,
    space_name,
)
from sequence.i18n import SUPPORTED
from sequence.learn import LESSONS, LessonGame, LessonRefusal, step_words
from sequence.learn.lessons import KINDS_TAUGHT, deal_position


def paths(game: str) -> list[tuple[Move, ...]]:
    """Every choice of accepted move at each step."""
    return list(itertools.product(*(step.accepted for step in LESSONS[game].steps)))


def play_path(game: str, path: tuple[Move, ...]) -> LessonGame:
    played = LessonGame.start(game)
    for move in path:
        if played.must_roll:
            played.roll()
        played.play(move)
    return played


@pytest.mark.parametrize("game", sorted(LESSONS))
def test_every_path_ends_in_the_learners_win(game: str) -> None:
    assert paths(game)
    for path in paths(game):
        played = play_path(game, path)
        view = played.view()
        assert played.over and played.step is None
        assert view.is_over() and view.outcome is not None
        assert view.outcome.winner == view.team_of(played.seat)


@pytest.mark.parametrize("game", sorted(LESSONS))
def test_after_each_answer_the_learner_acts(game: str) -> None:
    """The scripted opponent's answer is legal and hands the turn back: the learner never waits."""
    played = LessonGame.start(game)
    for step in LESSONS[game].steps:
        view = played.view()
        assert view.to_move == played.seat
        assert played.must_roll == (step.roll is not None)
        if played.must_roll:
            assert str(played.roll()) == step.roll
        assert set(step.accepted) <= set(played.view().legal_moves), step.key
        played.play(step.accepted[0])


def test_classic_teaches_a_chip_both_jacks_a_dead_card_and_a_sequence() -> None:
    played = LessonGame.start("classic")
    done: dict[str, Move] = {}
    sequences = []
    for step in LESSONS["classic"].steps:
        move = step.accepted[0]
        before = len(played.view().sequences[0])
        played.play(move)
        done[step.key] = move
        sequences.append(len(played.view().sequences[0]) - before)
    kinds = {key: card_kind(m.card) for key, m in done.items() if m.card is not None}
    assert done["place"].kind is MoveKind.PLACE and kinds["place"] is CardKind.ORDINARY
    assert kinds["two_eyed_jack"] is CardKind.WILD
    assert done["one_eyed_jack"].kind is MoveKind.REMOVE
    assert kinds["one_eyed_jack"] is CardKind.REMOVER
    assert done["dead_card"].kind is MoveKind.DEAD
    assert sequences[-1] == 1 and sum(sequences) == 1  # the last step makes the sequence


def test_kids_teaches_the_dragon_and_the_unicorn() -> None:
    steps = {s.key: s for s in LESSONS["kids"].steps}
    assert steps["dragon"].card == "DRAGON" and steps["dragon"].accepted[0].kind is MoveKind.REMOVE
    assert (
        steps["unicorn"].card == "UNICORN" and steps["unicorn"].accepted[0].kind is MoveKind.PLACE
    )
    # the pictures the front ends point at: the card, and where it goes
    assert all(s.card is not None and s.spaces for s in LESSONS["kids"].steps)


def test_dice_teaches_each_special_roll() -> None:
    steps = {s.key: s for s in LESSONS["dice"].steps}
    assert steps["roll_10"].total == 10 and steps["roll_10"].accepted[0].kind is MoveKind.REMOVE
    assert steps["roll_11"].total == 11
    assert steps["roll_12"].total in (2, 12)
    assert steps["replace"].accepted[0].kind is MoveKind.REPLACE
    played = LessonGame.start("dice")
    for step in LESSONS["dice"].steps:
        played.roll()
        played.play(step.accepted[0])
        if step.key == "roll_12":  # the extra turn: the learner rolls again, no answer between
            assert played.view().to_move == played.seat and played.must_roll
    assert played.over


@pytest.mark.parametrize("game", sorted(LESSONS))
def test_each_lesson_does_the_kinds_it_teaches(game: str) -> None:
    kinds = {m.kind for s in LESSONS[game].steps for m in s.accepted}
    assert kinds == KINDS_TAUGHT[game]


def test_a_move_the_step_does_not_teach_changes_nothing() -> None:
    played = LessonGame.start("classic")
    before = played.view()
    legal_other = next(
        m for m in before.legal_moves if m not in LESSONS["classic"].steps[0].accepted
    )
    with pytest.raises(LessonRefusal) as refused:
        played.play(legal_other)
    assert refused.value.engine is None and "first game" in str(refused.value)
    said = refused.value.message("ru")
    assert "первой игре" in said and "@" not in said  # words, no notation
    with pytest.raises(LessonRefusal) as illegal:
        played.play("2S@b1")  # not in the hand
    assert isinstance(illegal.value.engine, IllegalMoveError)
    said = illegal.value.message("de")
    assert said != str(illegal.value) and "2S@b1" not in said  # the reason, not the notation
    with pytest.raises(LessonRefusal):
        played.play("nonsense")
    assert played.view() == before and played.index == 0 and not played.learner_moves


def test_dice_refuses_a_move_before_the_roll_and_a_second_roll() -> None:
    played = LessonGame.start("dice")
    with pytest.raises(LessonRefusal, match="Roll the dice first"):
        played.play("@b3")
    played.roll()
    with pytest.raises(LessonRefusal, match="nothing to roll"):
        played.roll()
    assert played.learner_moves == [Move.parse("roll:2+4")]


def test_replay_rebuilds_the_same_lesson_and_names_the_first_refused_move() -> None:
    played = play_path("dice", paths("dice")[0][:3])
    again = LessonGame.replay("dice", [str(m) for m in played.learner_moves])
    assert again.view() == played.view() and again.index == played.index == 3
    with pytest.raises(LessonRefusal, match="Roll the dice first"):
        LessonGame.replay("dice", ["@b3"])
    with pytest.raises(LessonRefusal, match="no first game of draft"):
        LessonGame.start("draft")


def test_the_view_holds_only_the_learners_hand() -> None:
    played = LessonGame.start("classic")
    view = played.view()
    state = State.from_position(LESSONS["classic"].position)
    assert view.hand == state.hand_of(played.seat)
    public = view.to_dict()
    del public["board"]  # the printed board names every card
    shown = str(public)
    opponent_only = {"8D", "2H", "9C", "TH"}  # the scripted opponent's cards, held by no one else
    assert not any(re.search(rf"\b{c}\b", shown) for c in opponent_only)


@pytest.mark.parametrize("game", sorted(LESSONS))
@pytest.mark.parametrize("lang", SUPPORTED)
def test_every_step_speaks_every_language(game: str, lang: str) -> None:
    """Each step's words are translated, name the space they point at and the card by name."""
    lesson = LESSONS[game]
    for step in lesson.steps:
        text = step_words(step, lang)
        assert "{" not in text
        assert space_name(step.spaces[0]) in text if step.spaces else step.card == "6H"
        if lang != "en":
            assert text != step_words(step, "en"), (lang, step.key)
    played = play_path(game, paths(game)[0])
    ends = (LessonGame.start(game).welcome(lang), played.says(lang))
    if lang != "en":
        assert ends != (LessonGame.start(game).welcome("en"), played.says("en"))
    assert step_words(LESSONS["classic"].steps[2], lang).count("6") == 1  # 6H named, once


def test_deal_position_refuses_more_cards_than_the_deck() -> None:
    with pytest.raises(ValueError, match="more cards than kids's deck"):
        deal_position("kids", ["*.....*"] + ["......."] * 4 + ["*.....*"],
                      [["DRAGON", "DRAGON", "DRAGON"], []])  # fmt: skip
    text = deal_position("classic", ["*........*"] + [".........."] * 8 + ["*........*"], [[], []])
    assert State.from_position(text).config == make_config("classic", 2)


@pytest.mark.parametrize("name", ["sequence.learn.lessons", "sequence.learn.game"])
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
