"""The COMP90054 course bridge: actions and game states both ways, agents both ways."""

from __future__ import annotations

import json
import random
import textwrap
from pathlib import Path

import pytest

from sequence.bots.isolated import IsolatedBot
from sequence.cli.main import main
from sequence.compat.comp90054 import (
    CourseAgentBot,
    CourseAgentError,
    EasyAgent,
    ExpertAgent,
    MediumAgent,
    card_of,
    card_text,
    course_actions,
    course_actions_of,
    course_state,
    moves_of,
    state_from_course,
)
from sequence.compat.course_model import (
    COORDS,
    CourseGame,
    SequenceGameRule,
    team_result,
    team_sequences,
)
from sequence.engine import Move, MoveKind, Phase, State, View, make_config

DRAFT = make_config("classic", 2, draft=True)
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "comp90054" / "myTeam.py"
TWO_EYED, ONE_EYED = ("jd", "jc"), ("jh", "js")


def framework_actions(gs: object, seat: int) -> set[tuple[object, ...]]:
    """The actions the framework's rules give, worked out from its game state alone (its
    published interface: ordinary cards on their empty spaces, two-eyed Jacks anywhere empty,
    one-eyed Jacks on an opponent's chip not in a sequence, dead cards traded once a turn)."""
    me = gs.agents[seat]  # type: ignore[attr-defined]
    chips = gs.board.chips  # type: ignore[attr-defined]
    drafts = set(gs.board.draft)  # type: ignore[attr-defined]
    board = DRAFT.spec.layout
    out: set[tuple[object, ...]] = set()
    for card in set(me.hand):
        if card in TWO_EYED or card in ONE_EYED:
            want = "_" if card in TWO_EYED else me.opp_colour
            kind = "place" if card in TWO_EYED else "remove"
            cells = [(r, c) for r in range(10) for c in range(10) if chips[r][c] == want]
        else:
            label = board.labels  # space -> card label
            cells = [divmod(s, 10) for s, lab in label.items() if card_text(lab) == card]
            if not [rc for rc in cells if chips[rc[0]][rc[1]] == "_"]:
                if not me.trade:
                    out |= {(card, d, "trade", None) for d in drafts}
                continue
            cells = [rc for rc in cells if chips[rc[0]][rc[1]] == "_"]
            kind = "place"
        out |= {(card, d, kind, rc) for rc in cells for d in drafts}
    return out


def key(action: dict[str, object]) -> tuple[object, ...]:
    return (action["play_card"], action["draft_card"], action["type"], action["coords"])


def random_draft_views(games: int, seed: int = 0) -> list[tuple[State, View]]:
    """Every position where a seat must play in ``games`` random draft games."""
    rng = random.Random(seed)
    out = []
    for g in range(games):
        state = State.new(DRAFT, seed + g)
        while not state.is_over():
            if state.phase is Phase.PLAY:
                out.append((state.copy(), state.view(state.to_move)))
            state.push(rng.choice(state.legal_moves))
    return out


@pytest.fixture(scope="module")
def positions() -> list[tuple[State, View]]:
    found = random_draft_views(24)
    assert len(found) >= 2000  # thousands of positions, dead cards and late picks among them
    return found


def test_our_moves_and_the_frameworks_actions_map_one_to_one(
    positions: list[tuple[State, View]],
) -> None:
    kinds: set[str] = set()
    for state, view in positions:
        actions = course_actions(view)
        keys = [key(a) for a in actions]
        assert len(set(keys)) == len(keys)  # no action twice
        # Our side: each action is one of our plays with one face-up card, and every pair is one.
        pairs = {moves_of(a, view) for a in actions}
        plays = [m for m in view.legal_moves if m.kind is not MoveKind.PASS]
        faces = {Move(MoveKind.PICK, c) for c in view.draft}
        assert pairs == {(m, p) for m in plays for p in faces}
        # The framework's side: the same actions, from its game state alone.
        gs = course_state(view)
        assert set(keys) == framework_actions(gs, view.to_move), state.position()
        # And its rules' own list: while a dead card may be traded, the trades and the
        # choice not to; else the same actions.
        theirs = course_actions_of(gs, view.to_move)
        trades = {k for k in keys if k[2] == "trade"}
        if trades:
            assert set(map(key, theirs)) == trades | {(None, None, "trade", None)}
        elif theirs:
            assert set(map(key, theirs)) == set(keys)
        kinds |= {a["type"] for a in actions}  # type: ignore[misc]
        # And each pair is legal here, in turn.
        play, pick = moves_of(random.Random(len(keys)).choice(actions), view)
        trial = state.copy()
        trial.push(play)
        if not trial.is_over():
            assert pick is not None and pick in trial.legal_moves
    assert kinds >= {"place", "remove", "trade"}


AGENT_FIELDS = {
    "id", "agent_trace", "colour", "opp_colour", "seq_colour", "opp_seq_colour",
    "completed_seqs", "score", "seq_orientations", "discard", "trade", "last_action",
}  # fmt: skip
BOARD_FIELDS = {"new_seq", "chips", "draft", "plr_coords", "empty_coords"}


def test_a_seats_game_state_is_the_frameworks_and_rebuilds_the_view(
    positions: list[tuple[State, View]],
) -> None:
    for _state, view in positions[::15]:
        seat = view.to_move
        gs = course_state(view)
        # Every field of the framework's state, the private ones deleted as game.py does.
        assert not hasattr(gs.deck, "cards") and isinstance(gs.deck.discards, list)
        assert set(vars(gs.board)) == BOARD_FIELDS
        for agent in gs.agents:
            assert set(vars(agent)) == AGENT_FIELDS | ({"hand"} if agent.id == seat else set())
        assert len(gs.deck.discards) == sum(len(d) for d in view.discards)
        assert sum(len(a.agent_trace.action_reward) for a in gs.agents) >= len(gs.deck.discards)
        empty = {(r, c) for r in range(10) for c in range(10) if gs.board.chips[r][c] == "_"}
        assert set(gs.board.empty_coords) == empty
        for team, colour in enumerate("rb"):
            assert set(gs.board.plr_coords[colour]) <= {
                (r, c)
                for r in range(10)
                for c in range(10)
                if gs.board.chips[r][c] in colour + "XO"[team]
            }
            assert sum(a.completed_seqs for a in gs.agents if a.colour == colour) == len(
                view.sequences[team]
            )
        if view.move_stack:
            assert any(a.last_action is not None for a in gs.agents)
        rebuilt = state_from_course(gs, seat, seed=3).view(seat)
        assert rebuilt.chips == view.chips
        assert {frozenset(s) for s in rebuilt.sequences} == {frozenset(s) for s in view.sequences}
        assert rebuilt.hand == view.hand and rebuilt.draft == view.draft
        assert rebuilt.deck_size == view.deck_size and rebuilt.hand_sizes == view.hand_sizes
        others = [s for s in range(len(view.hand_sizes)) if s != seat]
        assert [rebuilt.known_hands[s] for s in others] == [view.known_hands[s] for s in others]
        assert rebuilt.discards == view.discards
        assert set(rebuilt.legal_moves) == set(view.legal_moves)


def test_cards_by_the_frameworks_names() -> None:
    assert card_text(card_of("ts")) == "ts" and card_text(card_of("JD")) == "jd"
    with pytest.raises(CourseAgentError, match="not a card"):
        card_of("1x")
    view = State.new(DRAFT, 2).view(0)
    with pytest.raises(CourseAgentError, match="not one of the actions"):
        moves_of({"play_card": "5h", "draft_card": None, "type": "place", "coords": None}, view)


def test_our_bots_play_whole_games_in_the_frameworks_loop() -> None:
    # The stand-in game.py deletes the others' hands and the deck's cards, as the real one
    # does: reading them would be a warning here, as there (scripts/comp90054_check.py runs
    # the real one).
    for players, seed in ((2, 1), (4, 2), (4, 3)):
        agents = [(MediumAgent if s % 2 else EasyAgent)(s) for s in range(players)]
        game = CourseGame(agents, seed=seed, time_limit=5.0)
        history = game.run()
        assert game.errors == [], game.errors
        assert len(history["actions"]) > 8
        state = game.game_rule.current_game_state
        assert game.game_rule.gameEnds()
        red, blue = team_sequences(state)
        assert team_result(history["scores"]) == (red, blue)


def test_the_stand_in_deletes_what_the_framework_deletes() -> None:
    game = CourseGame([EasyAgent(0), EasyAgent(1), EasyAgent(2), EasyAgent(3)], seed=4)
    seen = game.observation(2)
    assert not hasattr(seen.deck, "cards") and seen.deck.discards == []
    assert [hasattr(a, "hand") for a in seen.agents] == [False, False, True, False]
    assert len(seen.agents[2].hand) == 6 and len(seen.board.draft) == 5


def test_a_sequence_of_seat_4_counts_for_its_team() -> None:
    # Teams are seats 1+3 and 2+4 (0+2, 1+3 in the framework's ids): a sequence of the
    # fourth seat is blue's, and blue's second wins wherever it is counted.
    game = CourseGame([EasyAgent(s) for s in range(4)], seed=5)
    state = game.game_rule.current_game_state
    for c in range(1, 6):
        state.board.chips[1][c] = "O"
    state.agents[3].completed_seqs = 1
    seen = game.observation(1)
    rebuilt = state_from_course(seen, 1, seed=1)
    assert [len(s) for s in rebuilt.view(1).sequences] == [0, 1]
    state.agents[1].completed_seqs = 1
    assert game.game_rule.gameEnds()


def test_our_agent_declines_a_trade_it_does_not_want() -> None:
    rule = SequenceGameRule(2)
    state = rule.current_game_state
    for r, c in COORDS["5h"]:
        state.board.chips[r][c] = "b"
    state.agents[0].hand = ["5h", "2s", "3s", "4s", "6s", "7s"]
    actions = rule.getLegalActions(state, 0)
    assert actions[-1] == {"play_card": None, "draft_card": None, "type": "trade", "coords": None}
    game = CourseGame([MediumAgent(0), MediumAgent(1)], seed=1)
    game.game_rule = rule
    answer = MediumAgent(0).SelectAction(actions, game.observation(0))
    assert answer in actions  # a trade, or declining it (then the framework asks again)


def test_the_hard_agent_answers_within_the_courses_second() -> None:
    import time

    state = State.new(DRAFT, 5)
    view = state.view(state.to_move)
    gs = course_state(view)
    actions = course_actions_of(gs, state.to_move)
    start = time.perf_counter()
    answer = ExpertAgent(state.to_move).SelectAction(actions, gs)
    assert time.perf_counter() - start < 1.0 and any(answer is a for a in actions)


def test_the_example_course_agent_plays_in_our_tournament(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rc = main([
        "tournament", "--game", "draft", "--bot", f"comp90054:{EXAMPLE}", "--bot", "easy",
        "--games", "2", "--workers", "1", "--json", "-", "--quiet", "--seed", "1",
    ])  # fmt: skip
    assert rc == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 2 and data["forfeits"] == []


BROKEN = {
    "raises": "raise RuntimeError('my bug')",
    "wrong": "return {'type': 'place'}",
    "stuck": "import time; time.sleep(60)",
}


@pytest.mark.parametrize(("kind", "message"), [
    ("raises", "RuntimeError: my bug"),
    ("wrong", "the agent's SelectAction returned {'type': 'place'}, which is not one of the"
              " actions it was given"),
    ("stuck", "still thinking"),
])  # fmt: skip
def test_a_course_agent_that_fails_loses_saying_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, message: str
) -> None:
    agent = tmp_path / "myTeam.py"
    agent.write_text(
        textwrap.dedent(f"""
        from template import Agent

        class myAgent(Agent):
            def SelectAction(self, actions, game_state):
                {BROKEN[kind]}
    """)
    )
    rc = main([
        "tournament", "--game", "draft", "--bot", f"comp90054:{agent}", "--bot", "easy",
        "--games", "2", "--workers", "1", "--time-limit", "1", "--json", "-", "--quiet",
    ])  # fmt: skip
    assert rc == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["forfeits"]) == 2 and all(message in f for f in data["forfeits"]), data
    # A user-level message: no class name of ours (the agent's own exception keeps its name).
    assert not any("CourseAgentError" in f for f in data["forfeits"]), data
    if kind == "wrong":
        assert not any("choose() raised" in f for f in data["forfeits"]), data


def test_a_course_agent_spec_names_a_file() -> None:
    # A missing file is said plainly, not as "bad arguments" nor "cannot load".
    with pytest.raises(
        ValueError, match=r"^bot 'comp90054:no/such/myTeam.py': there is no file no/such/myTeam.py"
    ) as caught:
        IsolatedBot("comp90054:no/such/myTeam.py", output="null").close()
    assert "bad arguments" not in str(caught.value) and "cannot load" not in str(caught.value)
    with pytest.raises(ValueError, match="give the course agent's file"):
        CourseAgentBot(path="")


FOLDER_AGENT = """
from template import Agent
from Sequence.sequence_model import SequenceGameRule
from Sequence.sequence_utils import EMPTY
from agents.{name}.helpers import first_of

class myAgent(Agent):
    def __init__(self, _id):
        super().__init__(_id)
        self.rule = SequenceGameRule(2)

    def SelectAction(self, actions, game_state):
        # What course agents read: every field of the framework's state, and its rules.
        me = game_state.agents[self.id]
        assert me.agent_trace.action_reward is not None and me.score >= 0
        assert len(game_state.deck.discards) >= 0 and game_state.board.new_seq in (0, 1, 2, 3)
        assert all(game_state.board.chips[r][c] == EMPTY for r, c in game_state.board.empty_coords)
        assert set(game_state.board.plr_coords) == {{"r", "b"}}
        if any(a.last_action is not None for a in game_state.agents):
            pass
        trial = __import__("copy").deepcopy(game_state)
        trial.deck.cards = []
        self.rule.generateSuccessor(trial, actions[0], self.id)
        assert self.rule.getLegalActions(game_state, self.id) == actions
        return first_of(actions)
"""


def test_a_course_agent_loads_from_its_course_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # agents/<name>/myTeam.py importing agents.<name>.helpers, template and Sequence.*, with
    # no PYTHONPATH: the course folder here has no framework, so the stand-in is used.
    folder = tmp_path / "course" / "agents" / "t_007"
    folder.mkdir(parents=True)
    (folder / "helpers.py").write_text("def first_of(actions):\n    return actions[0]\n")
    (folder / "myTeam.py").write_text(FOLDER_AGENT.format(name="t_007"))
    for players in ("2", "4"):
        rc = main([
            "tournament", "--game", "draft", "--players", players, "--bot",
            f"comp90054:{folder / 'myTeam.py'}", "--bot", "easy", "--games", "2",
            "--workers", "1", "--json", "-", "--quiet", "--seed", "1",
        ])  # fmt: skip
        assert rc == 0
        data = json.loads(capsys.readouterr().out)
        assert data["games"] == 2 and data["forfeits"] == [], data["forfeits"]


def test_the_courses_time_rules_warn_then_lose(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    agent = tmp_path / "myTeam.py"
    agent.write_text(
        textwrap.dedent("""
        import time
        from template import Agent

        class myAgent(Agent):
            calls = 0
            def SelectAction(self, actions, game_state):
                self.calls += 1
                if self.calls <= LATE:
                    time.sleep(0.3)
                return actions[0]
    """)
    )

    def run(late: int, rules: str) -> dict[str, object]:
        agent.write_text(agent.read_text().replace("LATE", str(late)))
        rc = main([
            "tournament", "--game", "draft", "--bot", f"comp90054:{agent}", "--bot", "easy",
            "--games", "2", "--workers", "1", "--time-limit", "0.2", "--time-rules", rules,
            "--json", "-", "--quiet", "--seed", "1",
        ])  # fmt: skip
        assert rc == 0
        agent.write_text(agent.read_text().replace(f"<= {late}:", "<= LATE:"))
        return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]

    # Two late calls are two warnings (a random move for each); the game goes on.
    assert run(2, "course")["forfeits"] == []
    # The third loses, saying why; strict rules lose at the first.
    third = run(3, "course")["forfeits"]
    assert len(third) == 2 and all("3 warnings" in f for f in third), third  # type: ignore[arg-type]
    strict = run(1, "strict")["forfeits"]
    assert len(strict) == 2 and all("the limit is 0.20 s" in f for f in strict), strict  # type: ignore[arg-type]


def test_our_levels_keep_a_games_time_limit() -> None:
    from sequence.bots import make_bot

    expert = make_bot("expert")
    expert.keep_within(0.35)
    assert expert.time == 0.35  # type: ignore[attr-defined]
    hard = make_bot("hard@time=0.1")
    hard.keep_within(0.35)
    assert hard.time == 0.1  # type: ignore[attr-defined]
