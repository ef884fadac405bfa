"""The COMP90054 course's Sequence framework, restated: its game state, its rules and its game loop.

The course (hmooy/Sequence-COMP90054 is a public copy) runs agents in ``game.py``: each turn it
deep-copies the game state, deletes the other agents' ``hand`` (the rule's
``private_information``) and the deck's ``cards``, and calls the agent's ``SelectAction(actions,
game_state)`` through ``func_timeout`` with 1 s a call; a timeout, an exception (an
AttributeError is reported as "SelectAction() is not defined!") or an answer that is not one of
the actions is a **warning** and a random action is played instead; the third warning loses the
game (score -1). Teams are seats 0+2 (red) and 1+3 (blue); a team's sequences are the sum of
its agents' ``completed_seqs``.

This module is that framework written again from its behaviour (none of its files is copied),
so that:

- the tests have a stand-in that behaves as the real loop does, field for field
  (:class:`CourseGame`); ``scripts/comp90054_check.py`` runs the real one where it is fetched;
- a course agent run outside the course's folder finds ``template``, ``Sequence.sequence_model``
  and ``Sequence.sequence_utils`` (:func:`install_modules` registers this module under those
  names when the real ones cannot be imported);
- the bridge keeps a course agent's game state up to date as the framework does
  (:meth:`SequenceGameRule.apply_public`).

Names are the framework's (``SelectAction``, ``generateSuccessor``, ``agent_trace``...): agents
call them by those names.

>>> rule = SequenceGameRule(2)
>>> state = rule.current_game_state
>>> len(state.agents[0].hand), len(state.board.draft), len(state.deck.cards)
(6, 5, 87)
>>> actions = rule.getLegalActions(state, 0)
>>> rule.update(actions[0]); rule.getCurrentAgentIndex() in (0, 1)
True
"""

from __future__ import annotations

import copy
import ctypes
import random
import sys
import threading
import types
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

# --- sequence_utils -------------------------------------------------------------------------------

RED, BLU, RED_SEQ, BLU_SEQ, JOKER, EMPTY = "r", "b", "X", "O", "#", "_"
TRADSEQ, HOTBSEQ, MULTSEQ = 1, 2, 3
"""``board.new_seq`` after a placement: one sequence, the heart, several."""

Action = dict[str, Any]


class AgentTrace:
    """An agent's turns so far: ``action_reward`` is a list of ``(action, reward)``, reward the
    sequences the action completed."""

    def __init__(self, pid: int) -> None:
        self.id = pid
        self.action_reward: list[tuple[Action, int]] = []


# --- sequence_model -------------------------------------------------------------------------------

BOARD = [
    "jk 2s 3s 4s 5s 6s 7s 8s 9s jk".split(),
    "6c 5c 4c 3c 2c ah kh qh th ts".split(),
    "7c as 2d 3d 4d 5d 6d 7d 9h qs".split(),
    "8c ks 6c 5c 4c 3c 2c 8d 8h ks".split(),
    "9c qs 7c 6h 5h 4h ah 9d 7h as".split(),
    "tc ts 8c 7h 2h 3h kh td 6h 2d".split(),
    "qc 9s 9c 8h 9h th qh qd 5h 3d".split(),
    "kc 8s tc qc kc ac ad kd 4h 4d".split(),
    "ac 7s 6s 5s 4s 3s 2s 2h 3h 5d".split(),
    "jk ad kd qd td 9d 8d 7d 6d jk".split(),
]
COORDS: defaultdict[str, list[tuple[int, int]]] = defaultdict(list)
for _r, _row in enumerate(BOARD):
    for _c, _label in enumerate(_row):
        COORDS[_label].append((_r, _c))
HEART = [(4, 4), (4, 5), (5, 4), (5, 5)]
TWO_EYED, ONE_EYED = ("jd", "jc"), ("jh", "js")
HAND_SIZE, DRAFT_SIZE, DECK_SIZE = 6, 5, 104
_LINES = {  # the nine spaces through a placed chip, by orientation, in the framework's order
    "vr": [(d, 0) for d in range(-4, 5)],
    "hz": [(0, d) for d in range(-4, 5)],
    "d1": [(d, d) for d in range(-4, 5)],
    "d2": [(d, -d) for d in range(-4, 5)],
}


class GameState:
    """The framework's ``template.GameState`` (a base with nothing in it)."""

    def __init__(self, num_of_agent: int = 2, agent_id: int = 0) -> None:
        pass


class SequenceState(GameState):
    """The framework's game state: ``deck``, ``board`` and ``agents``."""

    class Deck:
        """Two shuffled 52-card decks; ``discards`` every card played, in order (public)."""

        def __init__(self) -> None:
            self.cards = self.new_deck()
            self.discards: list[str] = []

        def new_deck(self) -> list[str]:
            cards = [r + s for r in "23456789tjqka" for s in "dchs"] * 2
            random.shuffle(cards)
            return cards

        def deal(self, num_cards: int = 1) -> list[str]:
            random.shuffle(self.cards)
            hand = []
            for _ in range(num_cards):
                if not self.cards:
                    break
                hand.append(self.cards.pop())
            return hand

    class BoardState:
        """``chips`` (10x10 of ``_ # r b X O``), ``draft``, ``plr_coords`` (each colour's plain
        chips, as the framework keeps them), ``empty_coords`` and ``new_seq``."""

        def __init__(self) -> None:
            self.new_seq: int | bool = False
            self.chips = [[EMPTY] * 10 for _ in range(10)]
            for r, c in COORDS["jk"]:
                self.chips[r][c] = JOKER
            self.draft: list[str] = []
            self.plr_coords: dict[str, list[tuple[int, int]]] = {RED: [], BLU: []}
            self.empty_coords = [
                (r, c) for r in range(10) for c in range(10) if (r, c) not in COORDS["jk"]
            ]

    class AgentState:
        """One agent: seats 0, 2 red, 1, 3 blue."""

        def __init__(self, _id: int) -> None:
            blue = _id % 2 == 1
            self.id = _id
            self.agent_trace = AgentTrace(_id)
            self.colour = BLU if blue else RED
            self.opp_colour = RED if blue else BLU
            self.seq_colour = BLU_SEQ if blue else RED_SEQ
            self.opp_seq_colour = RED_SEQ if blue else BLU_SEQ
            self.completed_seqs = 0
            self.score = 0
            self.seq_orientations: list[str] = []
            self.hand: list[str] | None = None
            self.discard: str | None = None
            self.trade = False
            self.last_action: Action | None = None

    def __init__(self, num_agents: int) -> None:
        self.deck = self.Deck()
        self.board = self.BoardState()
        self.board.draft = self.deck.deal(DRAFT_SIZE)
        self.agents = []
        for i in range(num_agents):
            agent = self.AgentState(i)
            agent.hand = self.deck.deal(HAND_SIZE)
            self.agents.append(agent)


class GameRule:
    """The framework's ``template.GameRule``: the game in ``current_game_state``, whose turn in
    ``current_agent_index``."""

    private_information: list[str] | None = None

    def __init__(self, num_of_agent: int = 2) -> None:
        self.perfect_information = True
        self.current_agent_index = 0
        self.num_of_agent = num_of_agent
        self.current_game_state = self.initialGameState()
        self.action_counter = 0

    def initialGameState(self) -> Any:
        raise NotImplementedError

    def generateSuccessor(self, game_state: Any, action: Any, agent_id: int) -> Any:
        raise NotImplementedError

    def getNextAgentIndex(self) -> int:
        return (self.current_agent_index + 1) % self.num_of_agent

    def getLegalActions(self, game_state: Any, agent_id: int) -> list[Any]:
        raise NotImplementedError

    def calScore(self, game_state: Any, agent_id: int) -> int:
        raise NotImplementedError

    def gameEnds(self) -> bool:
        raise NotImplementedError

    def update(self, action: Any) -> None:
        self.current_game_state = self.generateSuccessor(
            self.current_game_state, action, self.current_agent_index
        )
        self.current_agent_index = self.getNextAgentIndex()
        self.action_counter += 1

    def getCurrentAgentIndex(self) -> int:
        return self.current_agent_index


class SequenceGameRule(GameRule):
    """The framework's rules of Sequence (its draft variant)."""

    def __init__(self, num_of_agent: int = 2) -> None:
        super().__init__(num_of_agent)
        self.private_information = ["hand"]

    def initialGameState(self) -> SequenceState:
        return SequenceState(self.num_of_agent)

    def checkSeq(
        self, chips: list[list[str]], plr_state: Any, last_coords: tuple[int, int]
    ) -> tuple[dict[str, Any] | None, int | None]:
        """The sequences the chip just put at ``last_coords`` completed, as the framework finds
        them: only lines through that chip; a line of nine of one's own plain chips counts
        twice (and once more as a run of five); the heart counts twice. One quirk is kept on
        purpose: once a line crossing an old sequence has been matched, later orientations
        through one are only tried as five plain chips."""
        clr, sclr = plr_state.colour, plr_state.seq_colour
        opp = (plr_state.opp_colour, plr_state.opp_seq_colour)
        found = {"vr": 0, "hz": 0, "d1": 0, "d2": 0, "hb": 0}
        coords: list[list[tuple[int, int]]] = []
        kind = TRADSEQ
        for r, c in COORDS["jk"]:
            chips[r][c] = clr
        heart = [chips[r][c] for r, c in HEART]
        if EMPTY not in heart and not any(x in opp for x in heart):
            kind = HOTBSEQ
            found["hb"] += 2
            coords.append(list(HEART))
        crossed_matched = False
        patterns = [clr * i + sclr + clr * (4 - i) for i in range(5)]
        patterns = [clr * 5, *reversed(patterns)]
        lr, lc = last_coords
        for name, offsets in _LINES.items():
            line = [(lr + dr, lc + dc) for dr, dc in offsets]
            line = [(r, c) for r, c in line if 0 <= r <= 9 and 0 <= c <= 9]
            text = "".join(chips[r][c] for r, c in line)
            if len(text) == 9 and text == clr * 9:
                found[name] += 2
                coords.append(line)
            if sclr not in text:
                run = 0
                for i, ch in enumerate(text):
                    run = run + 1 if ch == clr else 0
                    if run >= 5:
                        found[name] += 1
                        coords.append(line[i - 4 : i + 1])
                        break
                continue
            for pattern in patterns:
                for start in range(5):
                    if text[start : start + 5] == pattern:
                        found[name] += 1
                        coords.append(line[start : start + 5])
                        crossed_matched = True
                        break
                if crossed_matched:
                    break
        for r, c in COORDS["jk"]:
            chips[r][c] = JOKER
        total = sum(found.values())
        if not total:
            return None, None
        if total > 1 and kind != HOTBSEQ:
            kind = MULTSEQ
        seq = {
            "num_seq": total,
            "orientation": [k for k, v in found.items() if v],
            "coords": coords,
        }
        return seq, kind

    def generateSuccessor(self, state: Any, action: Action, agent_id: int) -> Any:
        """``state`` after ``action`` of ``agent_id`` (changed in place, as the framework does):
        the card played and the face-up card taken, then the board."""
        plr_state = state.agents[agent_id]
        card, draft = action["play_card"], action["draft_card"]
        if card:
            plr_state.hand.remove(card)
            state.board.draft.remove(draft)
            plr_state.hand.append(draft)
            state.board.draft.extend(state.deck.deal())
        return self.apply_public(state, action, agent_id)

    def apply_public(self, state: Any, action: Action, agent_id: int) -> Any:
        """What ``action`` changes that everyone sees (all of it but the hands, the face-up row
        and the deck): the discards, the board, the agent's trace, score and flags. The bridge
        keeps a course agent's state with it from the public record of the game."""
        state.board.new_seq = False
        plr_state = state.agents[agent_id]
        plr_state.last_action = action
        card = action["play_card"]
        if card:
            plr_state.discard = card
            state.deck.discards.append(card)
        if action["type"] == "trade":
            plr_state.trade = True
            plr_state.agent_trace.action_reward.append((action, 0))
            return state
        reward = 0
        board = state.board
        r, c = action["coords"]
        if action["type"] == "place":
            board.chips[r][c] = plr_state.colour
            board.empty_coords.remove(action["coords"])
            board.plr_coords[plr_state.colour].append(action["coords"])
            seq, kind = self.checkSeq(board.chips, plr_state, (r, c))
            if seq:
                reward += seq["num_seq"]
                board.new_seq = kind
                for line in seq["coords"]:
                    for sr, sc in line:
                        if board.chips[sr][sc] != JOKER:
                            board.chips[sr][sc] = plr_state.seq_colour
                # The framework takes only the placed chip out of plr_coords, once.
                if action["coords"] in board.plr_coords[plr_state.colour]:
                    board.plr_coords[plr_state.colour].remove(action["coords"])
                plr_state.completed_seqs += seq["num_seq"]
                plr_state.seq_orientations.extend(seq["orientation"])
        elif action["type"] == "remove":
            board.chips[r][c] = EMPTY
            board.empty_coords.append(action["coords"])
            board.plr_coords[plr_state.opp_colour].remove(action["coords"])
        plr_state.trade = False
        plr_state.agent_trace.action_reward.append((action, reward))
        plr_state.score += reward
        return state

    def update(self, action: Action) -> None:
        """As the template's, but a trade keeps the turn with the agent who traded."""
        self.current_game_state = self.generateSuccessor(
            self.current_game_state, action, self.current_agent_index
        )
        if action["type"] != "trade":
            self.current_agent_index = self.getNextAgentIndex()
        self.action_counter += 1

    def gameEnds(self) -> bool:
        """A team (seats 0+2 or 1+3) has two sequences, or the face-up row is empty."""
        state = self.current_game_state
        return max(team_sequences(state)) >= 2 or not state.board.draft

    def calScore(self, game_state: Any, agent_id: int) -> int:
        return int(game_state.agents[agent_id].completed_seqs)

    def getLegalActions(self, game_state: Any, agent_id: int) -> list[Action]:
        """The framework's actions, in its order: while a dead card may be traded, only the
        trades (each dead card with each face-up card) and the choice not to trade; else every
        card of the hand on each space it may take, with each face-up card."""
        me = game_state.agents[agent_id]
        chips, draft = game_state.board.chips, game_state.board.draft
        actions: list[Action] = []
        if not me.trade:
            for card in me.hand:
                if card[0] != "j" and all(chips[r][c] != EMPTY for r, c in COORDS[card]):
                    actions += [_act(card, d, "trade", None) for d in draft]
            if actions:
                return [*actions, _act(None, None, "trade", None)]
        for card in me.hand:
            if card in TWO_EYED or card in ONE_EYED:
                want, kind = (EMPTY, "place") if card in TWO_EYED else (me.opp_colour, "remove")
                spaces = [(r, c) for r in range(10) for c in range(10) if chips[r][c] == want]
            else:
                kind = "place"
                spaces = [(r, c) for r, c in COORDS[card] if chips[r][c] == EMPTY]
            actions += [_act(card, d, kind, rc) for rc in spaces for d in draft]
        return actions


def _act(card: str | None, draft: str | None, kind: str, coords: Any) -> Action:
    return {"play_card": card, "draft_card": draft, "type": kind, "coords": coords}


def team_sequences(state: Any) -> tuple[int, int]:
    """Sequences of red (seats 0, 2) and blue (seats 1, 3), as the framework adds them."""
    red = sum(a.completed_seqs for a in state.agents if a.colour == RED)
    blue = sum(a.completed_seqs for a in state.agents if a.colour == BLU)
    return red, blue


# --- template.Agent and game.py's loop ------------------------------------------------------------


class Agent:
    """The framework's ``template.Agent``: ``myAgent(_id)`` subclasses it."""

    def __init__(self, _id: int) -> None:
        self.id = _id
        super().__init__()

    def SelectAction(self, actions: list[Any], game_state: Any) -> Any:
        return random.choice(actions)


class FunctionTimedOut(Exception):
    """A call ran past its time (``func_timeout``'s exception)."""


def func_timeout(seconds: float, function: Callable[..., Any], args: tuple[Any, ...] = ()) -> Any:
    """Run ``function(*args)`` in a thread for at most ``seconds``; past it, raise
    FunctionTimedOut here and stop the thread with an exception (as ``func_timeout`` does)."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = function(*args)
        except BaseException as exc:
            box["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        ident = thread.ident
        if ident is not None:
            ctypes.pythonapi.PyThreadState_SetAsyncExc(
                ctypes.c_ulong(ident), ctypes.py_object(FunctionTimedOut)
            )
        raise FunctionTimedOut(f"still running after {seconds} s")
    if "error" in box:
        raise box["error"]
    return box.get("value")


class CourseGame:
    """``game.py``'s ``Game``: plays ``agents`` (one per seat) from ``seed`` with the course's
    time rules, and ``run()`` returns the history, whose ``scores`` are each agent's sequences
    (-1 for the agent that reached ``warning_limit`` warnings, 0 for the others)."""

    def __init__(
        self,
        agents: list[Any],
        seed: int = 1,
        time_limit: float = 1.0,
        warning_limit: int = 3,
        rule: type[SequenceGameRule] = SequenceGameRule,
    ) -> None:
        for i, agent in enumerate(agents):
            if agent.id != i:
                raise ValueError(f"the agent at seat {i} has id {agent.id}")
        self.seed = seed
        random.seed(seed)
        self.seed_list = [random.randint(0, int(1e10)) for _ in range(1000)]
        self.seed_idx = 0
        self.game_rule = rule(len(agents))
        self.agents = agents
        self.time_limit = time_limit
        self.warning_limit = warning_limit
        self.warnings = [0] * len(agents)
        self.warning_positions: list[tuple[int, int]] = []
        self.errors: list[tuple[int, str]] = []
        """(seat, what went wrong) for each warning: the course prints these."""

    def _warn(self, seat: int, counter: int, why: str) -> None:
        self.warnings[seat] += 1
        self.warning_positions.append((seat, counter))
        self.errors.append((seat, why))

    def observation(self, seat: int) -> Any:
        """The game state ``seat`` is given: a deep copy without the deck's cards and the
        other agents' private fields."""
        rule = self.game_rule
        state = copy.deepcopy(rule.current_game_state)
        if rule.private_information:
            del state.deck.cards
            for agent in state.agents:
                if agent.id != seat:
                    for name in rule.private_information:
                        delattr(agent, name)
        return state

    def run(self) -> dict[str, Any]:
        rule = self.game_rule
        history: dict[str, Any] = {"actions": []}
        counter = 0
        while not rule.gameEnds():
            seat = rule.getCurrentAgentIndex()
            actions = rule.getLegalActions(rule.current_game_state, seat)
            offered = copy.deepcopy(actions)
            state = self.observation(seat)
            selected: Any
            try:
                selected = func_timeout(
                    self.time_limit, self.agents[seat].SelectAction, (offered, state)
                )
            except FunctionTimedOut:
                self._warn(seat, counter, "timeout")
                selected = random.choice(offered)
            except AttributeError as exc:
                self._warn(seat, counter, f"AttributeError: {exc}")
                selected = random.choice(offered)
            except Exception as exc:
                self._warn(seat, counter, f"{type(exc).__name__}: {exc}")
                selected = random.choice(offered)
            if selected is None:
                self._warn(seat, counter, "None returned")
                selected = random.choice(offered)
            if selected not in offered:
                self._warn(seat, counter, f"invalid action {selected!r}")
                selected = random.choice(offered)
            random.seed(self.seed_list[self.seed_idx])
            self.seed_idx += 1
            history["actions"].append({counter: {"agent_id": seat, "action": selected}})
            counter += 1
            rule.update(selected)
            random.seed(self.seed_list[self.seed_idx])
            self.seed_idx += 1
            if self.warnings[seat] == self.warning_limit:
                history["scores"] = {i: 0 for i in range(len(self.agents))}
                history["scores"][seat] = -1
                return history
        state = rule.current_game_state
        history["scores"] = {i: rule.calScore(state, i) for i in range(len(self.agents))}
        return history


def team_result(scores: dict[int, int]) -> tuple[int, int]:
    """Red's and blue's points from ``run()``'s scores, as the course's runner adds them
    (seats 0+2 and 1+3; a forfeit's -1 counts)."""
    red = sum(v for k, v in scores.items() if k % 2 == 0)
    blue = sum(v for k, v in scores.items() if k % 2 == 1)
    return red, blue


# --- the framework's module names, for an agent run outside its folder ---------------------------

MODULE_NAMES = ("template", "Sequence", "Sequence.sequence_model", "Sequence.sequence_utils")


def framework_root(agent_file: Path) -> Path | None:
    """The course folder an agent file lives in (the parent of its ``agents`` folder), or None."""
    for parent in agent_file.resolve().parents:
        if parent.name == "agents":
            return parent.parent
    return None


def install_modules(root: Path | None) -> str:
    """Make ``template``, ``Sequence.sequence_model`` and ``Sequence.sequence_utils``
    importable: the course's own from ``root`` when it holds them (``root`` goes first on
    ``sys.path``, so ``agents.<name>...`` imports work too), else this module under those names.
    Returns ``"course"`` or ``"stand-in"``."""
    if root is not None:
        sys.path.insert(0, str(root))
        if (root / "template.py").is_file() and (root / "Sequence" / "sequence_model.py").is_file():
            return "course"
    this = sys.modules[__name__]
    package = types.ModuleType("Sequence")
    package.__path__ = []
    package.sequence_model = this  # type: ignore[attr-defined]
    package.sequence_utils = this  # type: ignore[attr-defined]
    for name in MODULE_NAMES:
        sys.modules.setdefault(name, package if name == "Sequence" else this)
    return "stand-in"


__all__ = [
    "BLU",
    "BLU_SEQ",
    "BOARD",
    "COORDS",
    "EMPTY",
    "HOTBSEQ",
    "JOKER",
    "MULTSEQ",
    "RED",
    "RED_SEQ",
    "TRADSEQ",
    "Agent",
    "AgentTrace",
    "CourseGame",
    "FunctionTimedOut",
    "GameRule",
    "GameState",
    "SequenceGameRule",
    "SequenceState",
    "framework_root",
    "func_timeout",
    "install_modules",
    "team_result",
    "team_sequences",
]
