"""The game review and the hints: positions built on purpose get flagged, sound play does not,
and nothing but the mover's view decides what is said."""

from __future__ import annotations

from collections import Counter

import pytest

from sequence.bots import make_bot, play_game
from sequence.bots.explain import Note
from sequence.bots.review import (
    MISTAKE,
    ChancePoint,
    MoveReview,
    Reviewer,
    _turning_points,
    summarise,
)
from sequence.engine import GameRecord, Move, State, make_config, parse_card, parse_space
from sequence.engine.games import SPECS
from sequence.engine.moves import PASS

CLASSIC = make_config("classic", players=2)
REVIEWER = Reviewer(deals=32, chance_deals=0)
HAND_A = ["3H", "5S", "7S", "KC", "QC", "8S"]
HAND_B = ["2D", "3D", "6S", "4S", "TC", "AC", "KD"]


def position(
    a: str = "", b: str = "", hand_a: list[str] | None = None, sequences: str = "-"
) -> State:
    """A classic 2-player position, seat 1 (team A) to play: ``a`` and ``b`` the spaces of
    each team's chips, the hands as given, the rest of the deck in the draw pile."""
    board = [["."] * 10 for _ in range(10)]
    for r, c in ((0, 0), (0, 9), (9, 0), (9, 9)):
        board[r][c] = "*"
    for letter, spaces in (("a", a), ("b", b)):
        for name in spaces.split():
            s = parse_space(name)
            board[s // 10][s % 10] = letter
    hands = [hand_a or HAND_A, HAND_B]
    deck = Counter(SPECS["classic"].deck)
    for hand in hands:
        deck.subtract(parse_card(c) for c in hand)
    from sequence.engine.cards import card_name

    pile = [card_name(c) for c, k in sorted(deck.items()) for _ in range(k)]
    text = " ".join([
        "classic/2",
        "/".join("".join(row) for row in board),
        sequences,
        "/".join(",".join(h) for h in hands),
        "/",
        ",".join(pile),
        "1:play",
    ])  # fmt: skip
    return State.from_position(text)


def review(state: State, move: str) -> tuple[set[str], Note | None, str]:
    reviewed = REVIEWER.review_move(state.view(0), Move.parse(move))
    assert reviewed is not None
    first = reviewed.flags[0] if reviewed.flags else None
    return reviewed.codes(), first, reviewed.verdict


# Four of team A's chips and the j10 corner need f10 (9D); b5-e5 is team B's four, a5 taken.
FOUR_A = "g10 h10 i10"
FOUR_B = "b5 c5 d5 e5"


def test_a_missed_win_is_a_blunder_with_the_winning_move() -> None:
    state = position(a=f"b1 c1 d1 e1 {FOUR_A}", b="c3 h7 e8",
                     hand_a=["9D", *HAND_A], sequences="A:a1-e1")  # fmt: skip
    codes, note, verdict = review(state, "3H@f6")
    assert codes == {"missed_win"} and verdict == "blunder"
    assert note == Note("missed_win", better="9D@f10")
    assert review(state, "9D@f10")[0] == set()


def test_a_missed_sequence_names_the_line() -> None:
    state = position(a=FOUR_A, b="c3 h7 e8", hand_a=["9D", *HAND_A])
    codes, note, verdict = review(state, "3H@f6")
    assert codes == {"missed_sequence"} and verdict in ("mistake", "blunder")
    assert note == Note("missed_sequence", better="9D@f10", span="f10-j10")


def test_an_unblocked_four_is_flagged_with_the_block() -> None:
    state = position(a="a5 c8", b=FOUR_B, hand_a=["4H", *HAND_A])
    codes, note, _ = review(state, "3H@f6")
    assert codes == {"unblocked_four"}
    assert note == Note("unblocked_four", team="B", better="4H@f5", span="b5-e5")
    assert review(state, "4H@f5")[0] == set()


def test_a_two_eyed_jack_where_an_ordinary_card_puts_the_same_chip_is_wasted() -> None:
    state = position(a="e6 c8", b="c3 h7", hand_a=["JD", *HAND_A])
    codes, note, _ = review(state, "JD@f6")
    assert codes == {"wasted_jack_same"}
    assert note == Note("wasted_jack_same", card="JD", space="f6", better="3H@f6")


def test_a_one_eyed_jack_on_a_lone_chip_is_wasted() -> None:
    state = position(a="e6 f7 c8", b="c3 h2", hand_a=["JS", *HAND_A])
    codes, note, _ = review(state, "JSxh2")
    assert codes == {"wasted_jack"}
    assert note is not None and note.params["card"] == "JS"


def test_a_kept_dead_card_is_flagged_with_the_exchange() -> None:
    state = position(a="h3 c8", b="h10 e5", hand_a=["7D", *HAND_A])  # 7D: h3 and h10 taken
    codes, note, _ = review(state, "3H@f6")
    assert codes == {"dead_card_kept"}
    assert note == Note("dead_card_kept", card="7D", better="dead:7D")


def test_sound_moves_are_not_flagged() -> None:
    state = position(a="a5 c8", b=FOUR_B, hand_a=["4H", *HAND_A])
    reviewed = REVIEWER.review_move(state.view(0), Move.parse("4H@f5"))
    assert reviewed is not None and not reviewed.flagged and reviewed.loss < MISTAKE


def test_hints_say_why_in_words() -> None:
    block = REVIEWER.hint(position(a="a5 c8", b=FOUR_B, hand_a=["4H", *HAND_A]).view(0))
    assert block.move == Move.parse("4H@f5")
    assert Note("blocks_four", team="B", span="b5-e5") in block.notes
    win = REVIEWER.hint(position(a=FOUR_A, b="c3 h7 e8", hand_a=["9D", *HAND_A]).view(0))
    assert win.move == Move.parse("9D@f10")
    assert Note("completes_sequence", span="f10-j10") in win.notes
    keep = REVIEWER.hint(position(a="e6 c8", b="c3 h7", hand_a=["JS", *HAND_A]).view(0))
    assert keep.move.card != parse_card("JS")
    assert Note("keeps_remover", card="JS") in keep.notes
    dead = REVIEWER.hint(position(a="h3 c8", b="h10 e5", hand_a=["7D", *HAND_A]).view(0))
    assert str(dead.move) == "dead:7D"


@pytest.fixture(scope="module")
def midgame() -> State:
    game = play_game(CLASSIC, [make_bot("medium", seed=1), make_bot("easy", seed=2)], seed=11)
    return game.record.replay(20)


def test_the_hidden_cards_of_other_seats_change_nothing(midgame: State) -> None:
    """The mover's review, hint and the chances are the same in a deal where every card the
    mover cannot see (the other hand, the draw pile) lies elsewhere."""
    seat = midgame.to_move
    other = State.sample_from_view(midgame.view(seat), seed=99)
    assert other.hand_of(1 - seat) != midgame.hand_of(1 - seat)
    reviewer = Reviewer(deals=8, chance_deals=4)
    for move in midgame.legal_moves[:4]:
        mine = reviewer.review_move(midgame.view(seat), move)
        assert mine == reviewer.review_move(other.view(seat), move)
    assert reviewer.hint(midgame.view(seat)) == reviewer.hint(other.view(seat))
    spectator = State.sample_from_view(midgame.view(None), seed=7)
    assert reviewer.chances(midgame.view(None), 20) == reviewer.chances(spectator.view(None), 20)


SELF_PLAY_FLAGGED = 0.05
"""The stated threshold: in a game expert played against itself, at most this share of the
decisions flagged, and no blunder (``docs/bots.md``: 6 flagged of the 374 decisions of 8 such
games, at most 2 of 45 in one)."""


def test_a_game_the_strongest_bot_played_against_itself_is_flagged_nowhere() -> None:
    game = play_game(CLASSIC, [make_bot("expert", seed=3), make_bot("expert", seed=4)], seed=1)
    reviewed = Reviewer(chance_deals=0).review_game(game.record)
    assert len(reviewed.moves) >= 20
    flagged = [m.to_dict() for m in reviewed.flagged()]
    assert len(flagged) <= SELF_PLAY_FLAGGED * len(reviewed.moves), flagged
    assert all(m.verdict != "blunder" for m in reviewed.moves)


def test_a_whole_game_review_and_the_per_agent_summary() -> None:
    game = play_game(CLASSIC, [make_bot("medium", seed=1), make_bot("random", seed=2)], seed=4,
                     tags={"Name1": "medium", "Name2": "random"})  # fmt: skip
    record = GameRecord.load(game.record.to_json())
    reviewed = Reviewer(deals=4, chance_deals=2).review_game(record)
    assert reviewed.players == ("medium", "random")
    assert len(reviewed.chances) == len(reviewed.moves) + 1
    final = reviewed.chances[-1]
    assert final.deals == 0 and sum(final.chances) == 1.0
    assert all(abs(sum(c.chances) + c.draw - 1) < 1e-9 for c in reviewed.chances)
    summary = summarise([reviewed])
    agents = summary["agents"]
    assert set(agents) == {"medium", "random"}
    assert agents["random"]["flagged"] > agents["medium"]["flagged"]
    assert sum(a["decisions"] for a in agents.values()) == len(reviewed.moves)


def test_a_hint_always_says_why(midgame: State) -> None:
    state = midgame.copy()
    reviewer = Reviewer(deals=4, chance_deals=0)
    for _ in range(12):
        view = state.view(state.to_move)
        hint = reviewer.hint(view)
        assert hint.move in view.legal_moves
        assert hint.notes or len(view.legal_moves) == 1
        state.push(hint.move)
        if state.is_over():
            break


def test_a_sound_move_whose_chances_fell_is_said_to_be_luck() -> None:
    """A turning point for the worse at a best or good move is noted ``unlucky`` (first, in the
    move's notes and the turning point's); at a worse move, or a swing for the better, not."""

    def judged(index: int, verdict: str) -> MoveReview:
        return MoveReview(index, index % 2, PASS, PASS, 0.0, verdict, (), (Note("two_lines"),),
                          False, False, 1, 1)  # fmt: skip

    verdicts = ["good", "best", "mistake", "good", "inaccuracy"]
    # Team A's chance before each decision (team B's is the rest); seats 0, 1, 0, 1, 0 move.
    a = [0.5, 0.2, 0.6, 0.1, 0.5, 0.1]
    points = [ChancePoint(i, (c, 1 - c), 0.0, 4) for i, c in enumerate(a)]
    reviews, turning = _turning_points([judged(i, v) for i, v in enumerate(verdicts)], points, 2)
    # Swings of the mover's team: -0.3 (good), -0.4 (best), -0.5 (mistake), -0.4 (good), -0.4.
    lucky = [i for i, m in enumerate(reviews) if "unlucky" in {n.code for n in m.notes}]
    assert lucky == [0, 1, 3]
    assert all(reviews[i].notes[0] == Note("unlucky") for i in lucky)
    assert [t.index for t in turning] == [0, 1, 2, 3, 4]
    assert [t.notes[0].code for t in turning] == ["unlucky", "unlucky", "two_lines", "unlucky",
                                                   "two_lines"]  # fmt: skip
    # The chances rose after a good move: no turning point is luck.
    up = [ChancePoint(i, (c, 1 - c), 0.0, 4) for i, c in enumerate([0.2, 0.6])]
    reviews, turning = _turning_points([judged(0, "good")], up, 2)
    assert len(turning) == 1 and reviews[0].notes == (Note("two_lines"),)
