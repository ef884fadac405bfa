"""A bridge to the COMP90054 (University of Melbourne AI course) Sequence framework, both ways.

The course's agents are modules with ``class myAgent(Agent)`` whose ``SelectAction(actions,
game_state)`` returns one of ``actions``, within a second; the rules are this project's ``draft``
variant. This module is written from the framework's public interface, restated here as facts:

- a **card** is lower-case text, rank then suit: ``"5h"``, ``"ts"``, ``"jd"`` (ours: ``5H``, ``TS``,
  ``JD``); ``jd``/``jc`` are the two-eyed Jacks, ``jh``/``js`` the one-eyed ones;
- a **space** is ``coords = (row, col)`` from the top left: ``(0, 1)`` is our ``b1``;
- ``game_state.board.chips`` is a 10x10 list of one-character texts: ``_`` empty, ``#`` a free
  corner, ``r``/``b`` the two teams' chips (seats 0, 2 are red, 1, 3 blue), ``X``/``O`` a red or
  blue chip that is part of a completed sequence; ``game_state.board.draft`` the face-up cards;
- ``game_state.agents[i]`` has ``hand``, ``colour``, ``seq_colour``, ``opp_colour``,
  ``opp_seq_colour``, ``completed_seqs`` and ``trade`` (a dead card was traded this turn);
- an **action** is a dict ``{"play_card", "draft_card", "type", "coords"}`` with ``type`` one of
  ``"place"``, ``"remove"`` (a one-eyed Jack) and ``"trade"`` (a dead card for a face-up card,
  ``coords`` ``None``; the turn goes on). Playing and drafting are one action: the framework's
  ``place`` of ``5h`` at ``(4, 4)`` drafting ``9c`` is our ``5H@e5`` then ``pick:9C``.

Two positions the framework's interface does not describe get actions of our own: with no card
that can be played or traded, our rules discard a card (``"type": "discard"``, then a draft) or
pass (``"type": "pass"``). They arise only when every card in hand is dead and the turn's trade is
used.

Both ways:

- :class:`CourseAgent` (and :class:`ExpertAgent`, :class:`HardAgent`, :class:`MediumAgent`,
  :class:`EasyAgent`): our bots as course agents. ``from sequence.compat.comp90054 import
  HardAgent as myAgent`` in a file of the framework's agents folder; it reads only what the
  framework's ``game.py`` leaves it of ``game_state`` (the other agents' ``hand`` and the deck's
  ``cards`` are deleted there; hand sizes, the deck's size, the discards and the cards others
  took face up are worked out from what survives), rebuilds a
  :class:`~sequence.engine.State` with :meth:`~sequence.engine.State.from_position` (the unseen
  cards dealt in an arbitrary order), asks our bot within :data:`CALL_BUDGET` of the course's
  second, and answers with one of ``actions`` (declining a trade when it would rather play).
- :class:`CourseAgentBot`: a course agent in our tournaments, ``sequence tournament --bot
  comp90054:path/to/agents/<name>/myTeam.py``. It imports the agent as the framework does (from
  its course folder, :func:`load_course_agent`), feeds it the framework's game state with
  every field kept up to date (:func:`course_state`) and the framework's actions in its order
  (:func:`course_actions_of`), and maps its answer back. :mod:`.course_model` restates the
  framework (its state, rules and game loop) where the framework is not at hand.

>>> from sequence.engine import State, make_config
>>> state = State.new(make_config("classic", 2, draft=True), seed=4)
>>> view = state.view(state.to_move)
>>> actions = course_actions(view)
>>> len(actions) == sum(m.kind.name in ("PLACE", "REMOVE", "DEAD") for m in view.legal_moves) * 5
True
>>> play, pick = moves_of(actions[0], view)
>>> play in view.legal_moves and pick.card in view.draft
True
"""

from __future__ import annotations

import copy
import importlib
import random
import time
from collections import Counter
from pathlib import Path
from typing import Any

from ..bots import Bot, BotMistake, make_bot
from ..bots.errors import safe_repr
from ..bots.loading import user_bot_class
from ..engine import (
    TEAM_LETTERS,
    Card,
    Move,
    MoveKind,
    Phase,
    State,
    View,
    card_name,
    make_config,
    parse_card,
    space_name,
)
from ..engine.board import line_geometry
from .course_model import (
    EMPTY,
    JOKER,
    SequenceGameRule,
    SequenceState,
    framework_root,
    install_modules,
)

COLOURS = ("r", "b")
"""The chip of team 0 (red: seats 0 and 2) and team 1 (blue: seats 1 and 3)."""
SEQ_COLOURS = ("X", "O")
"""A chip of team 0 or team 1 that is part of a completed sequence."""
TYPES = {MoveKind.PLACE: "place", MoveKind.REMOVE: "remove", MoveKind.DEAD: "trade"}
"""Our move kinds that are the framework's action types (always with a draft card)."""
OWN_TYPES = {MoveKind.DISCARD: "discard", MoveKind.PASS: "pass"}
"""Our moves for positions the framework does not describe (no card to play or trade)."""

Action = dict[str, Any]


class CourseAgentError(BotMistake):
    """A course agent's answer that is not one of the actions it was given, or a game state
    this bridge cannot read; the message says which, in words for the agent's author (a
    forfeit shows it without this class's name)."""


# --- cards, spaces, actions -----------------------------------------------------------------------


def card_text(card: Card) -> str:
    """The framework's name of a card: ``5h``, ``ts``, ``jd``."""
    return card_name(card).lower()


def card_of(text: str) -> Card:
    """Our card from the framework's name; raises CourseAgentError for anything else."""
    try:
        return parse_card(str(text).upper())
    except ValueError:
        raise CourseAgentError(f"{safe_repr(text)} is not a card of the framework") from None


def coords_of(space: int) -> tuple[int, int]:
    """``(row, col)`` of our space (``a1`` is ``(0, 0)``, ``b1`` ``(0, 1)``)."""
    return divmod(space, 10)


def _action(move: Move, draft: Card | None) -> Action:
    kind = TYPES.get(move.kind) or OWN_TYPES[move.kind]
    return {
        "play_card": None if move.card is None else card_text(move.card),
        "draft_card": None if draft is None else card_text(draft),
        "type": kind,
        "coords": None if move.space is None else coords_of(move.space),
    }


def course_actions(view: View) -> list[Action]:
    """The framework's actions for the seat of ``view`` on its turn: every play (or dead-card
    trade) of ours with every face-up card it could take after it. Empty when it is not that
    seat's turn to play (a pick is part of the action that played)."""
    if view.phase is not Phase.PLAY:
        return []
    drafts = list(dict.fromkeys(view.draft))
    actions: list[Action] = []
    for move in view.legal_moves:
        if move.kind in TYPES or move.kind is MoveKind.DISCARD:
            actions.extend(_action(move, d) for d in drafts)
        elif move.kind is MoveKind.PASS:
            actions.append(_action(move, None))
    return actions


def moves_of(action: object, view: View) -> tuple[Move, Move | None]:
    """Our play and then our pick (``None`` for a pass) for one of the framework's actions;
    raises CourseAgentError when ``action`` is not one of :func:`course_actions` of ``view``."""
    try:
        return _moves_of(action, view)
    except (CourseAgentError, KeyError, TypeError, ValueError, IndexError):
        raise CourseAgentError(
            f"{safe_repr(action)} is not one of the actions given {_SHAPE}"
        ) from None


_SHAPE = "(a dict with play_card, draft_card, type and coords, as the list held)"


_KINDS = {v: k for k, v in {**TYPES, **OWN_TYPES}.items()}


def _moves_of(action: object, view: View) -> tuple[Move, Move | None]:
    if (
        not isinstance(action, dict)
        or set(action) != set(_ACTION_KEYS)
        or view.phase is not (Phase.PLAY)
    ):
        raise CourseAgentError("not an action")
    kind = _KINDS[action["type"]]
    card = None if action["play_card"] is None else card_of(action["play_card"])
    coords = action["coords"]
    space = None
    if coords is not None:
        r, c = coords
        if not (type(r) is int and type(c) is int and 0 <= r < 10 and 0 <= c < 10):
            raise CourseAgentError("not an action")
        space = r * 10 + c
    play = Move(kind, card, space)
    if play not in view.legal_moves:
        raise CourseAgentError("not an action")
    if action["draft_card"] is None:
        if kind is not MoveKind.PASS:
            raise CourseAgentError("not an action")
        return play, None
    pick = Move(MoveKind.PICK, card_of(action["draft_card"]))
    if kind is MoveKind.PASS or pick.card not in view.draft:
        raise CourseAgentError("not an action")
    return play, pick


_ACTION_KEYS = ("play_card", "draft_card", "type", "coords")


# --- game states ----------------------------------------------------------------------------------


def course_state(view: View) -> Any:
    """The framework's game state for the seat of ``view``, as ``game.py`` gives it: a
    :class:`~.course_model.SequenceState` with every field of the framework's (``agent_trace``,
    ``score``, ``completed_seqs``, ``seq_orientations``, ``discard``, ``last_action``,
    ``deck.discards``, ``board.plr_coords``, ``board.empty_coords``, ``board.new_seq``...),
    kept up to date by replaying the game's public record through the framework's own rules;
    the other agents' ``hand`` and the deck's ``cards`` are deleted, as the framework deletes
    them. (A choice not to trade leaves no trace in our record, so it is not in
    ``agent_trace``.)"""
    players = view.config.players
    state = _blank_state(players)
    rule = _RULE
    seat = view.setup.first if view.setup is not None else 0
    stack = view.move_stack
    i = 0
    while i < len(stack):
        play = stack[i]
        pick = stack[i + 1] if i + 1 < len(stack) and stack[i + 1].kind is MoveKind.PICK else None
        i += 2 if pick is not None else 1
        if play.kind is MoveKind.PICK:  # pragma: no cover - a pick always follows a play
            continue
        action = _action(play, None if pick is None else pick.card)
        if play.kind in (MoveKind.DISCARD, MoveKind.PASS):  # ours alone: the chips stay
            agent = state.agents[seat]
            agent.last_action = action
            if play.card is not None:
                agent.discard = action["play_card"]
                state.deck.discards.append(action["play_card"])
            agent.agent_trace.action_reward.append((action, 0))
        else:
            rule.apply_public(state, action, seat)
        if play.kind is not MoveKind.DEAD:
            seat = (seat + 1) % players
    state.board.draft = [card_text(c) for c in view.draft]
    me = view.seat if view.seat is not None else view.to_move
    if view.hand is not None:
        state.agents[me].hand = [card_text(c) for c in view.hand]
    state.agents[view.to_move].trade = view.dead_card_exchanged
    del state.deck.cards
    for agent in state.agents:
        if agent.id != me:
            del agent.hand
    return state


_RULE = object.__new__(SequenceGameRule)  # its methods only: no game of its own is dealt
_RULE.private_information = ["hand"]


def _blank_state(players: int) -> Any:
    """A framework game state before the deal: empty board, no cards anywhere."""
    state = object.__new__(SequenceState)
    state.deck = object.__new__(SequenceState.Deck)
    state.deck.cards = []
    state.deck.discards = []
    state.board = SequenceState.BoardState()
    state.agents = [SequenceState.AgentState(i) for i in range(players)]
    for agent in state.agents:
        agent.hand = []
    return state


def course_actions_of(game_state: Any, seat: int) -> list[Action]:
    """The framework's actions for ``seat`` in ``game_state``, in its order (trades and the
    choice not to trade first, while a dead card may be traded)."""
    return _RULE.getLegalActions(game_state, seat)


def _sequences(chips: list[list[str]], team: int, count: int) -> list[tuple[int, ...]]:
    """Up to ``count`` windows of five of ``team``'s sequence chips (free corners count), each
    sharing at most one space with the others: the completed sequences the chips show."""
    geo = line_geometry(make_config("classic", 2).spec.layout, 5)
    mine = 0
    for s in range(100):
        if chips[s // 10][s % 10] in (SEQ_COLOURS[team], JOKER):
            mine |= 1 << s
    best: list[int] = []

    def search(start: int, chosen: list[int]) -> bool:
        nonlocal best
        if len(chosen) > len(best):
            best = chosen
        if len(chosen) == count:
            return True
        for i in range(start, len(geo.windows)):
            w = geo.windows[i]
            fits = w & mine == w and all((w & c).bit_count() <= 1 for c in chosen)
            if fits and search(i + 1, [*chosen, w]):
                return True
        return False

    search(0, [])
    return [geo.window_spaces[w] for w in best]


def _seen_cards(game_state: Any, seat: int) -> tuple[list[list[Card]], list[list[Card]]]:
    """Each seat's discard pile and the cards publicly known in each hand, read from what the
    framework leaves a seat: ``agent_trace`` (each agent's actions: what it played, what it
    took face up) or, without it, ``deck.discards`` (all put on the seat's own pile)."""
    agents = game_state.agents
    piles: list[list[Card]] = [[] for _ in agents]
    known: list[list[Card]] = [[] for _ in agents]
    traces = [getattr(getattr(a, "agent_trace", None), "action_reward", None) for a in agents]
    if all(isinstance(t, list) for t in traces):
        for s, trace in enumerate(traces):
            for entry in trace:  # type: ignore[union-attr]
                action = entry[0]
                if action.get("play_card"):
                    card = card_of(action["play_card"])
                    piles[s].append(card)
                    if card in known[s]:
                        known[s].remove(card)
                if action.get("draft_card"):
                    known[s].append(card_of(action["draft_card"]))
        known[seat] = []
    else:
        discards = getattr(getattr(game_state, "deck", None), "discards", [])
        piles[seat] = [card_of(c) for c in discards]
    return piles, known


def state_from_course(game_state: Any, seat: int, seed: int = 0) -> State:
    """A State the seat ``seat`` cannot tell from the framework's ``game_state``, read from
    what the framework's ``game.py`` leaves it (the others' ``hand`` and the deck's ``cards``
    are deleted there): the chips, each team's sequences (the agents' ``completed_seqs``
    added by team, seats 0+2 and 1+3), the face-up cards, its own hand, the discards and the
    cards others took face up (``agent_trace``), whether it has traded this turn. Every hand
    holds six cards in the framework (each card played is replaced at once by a face-up one),
    so the deck holds 104 less the hands, the face-up row and the discards. The cards it
    cannot see are dealt at random (``seed``) to the others' hands and the deck."""
    agents = game_state.agents
    players = len(agents)
    config = make_config("classic", players, draft=True)
    marks = {COLOURS[0]: "a", SEQ_COLOURS[0]: "a", COLOURS[1]: "b", SEQ_COLOURS[1]: "b"}
    marks.update({JOKER: "*", EMPTY: "."})
    rows = []
    for r in range(10):
        row = ""
        for c in range(10):
            mark = str(game_state.board.chips[r][c])
            if mark not in marks:
                raise CourseAgentError(f"{safe_repr(mark)} at {(r, c)} is not a chip")
            row += marks[mark]
        rows.append(row)
    seqs = []
    for team in (0, 1):
        count = sum(int(a.completed_seqs) for a in agents if a.colour == COLOURS[team])
        for spaces in _sequences(game_state.board.chips, team, min(count, 2)):
            seqs.append(f"{TEAM_LETTERS[team]}:{space_name(spaces[0])}-{space_name(spaces[-1])}")
    hand = [card_of(c) for c in agents[seat].hand]
    draft = [card_of(c) for c in game_state.board.draft]
    piles, known = _seen_cards(game_state, seat)
    unseen = Counter(config.spec.deck)
    unseen.subtract(hand + draft + [c for p in piles for c in p] + [c for k in known for c in k])
    if any(v < 0 for v in unseen.values()):
        raise CourseAgentError(
            "the seat's hand, the face-up cards and the discards hold more than the deck"
        )
    pool = sorted(unseen.elements())
    random.Random(seed).shuffle(pool)
    hands: list[list[Card]] = []
    for s in range(players):
        if s == seat:
            hands.append(hand)
            continue
        others = getattr(agents[s], "hand", None)
        size = len(others) if isinstance(others, list) else config.hand_size
        take = max(0, size - len(known[s]))
        hands.append(known[s] + pool[:take])
        del pool[:take]
    deck = pool  # what is left: 104 - hands - face-up row - discards

    def cards(lists: list[list[Card]]) -> str:
        return "/".join(",".join(card_name(c) for c in cs) for cs in lists)

    head = State.new(config, 0).position().split()[0]
    extras = [f"draft={','.join(card_name(c) for c in draft)}"]
    if any(known):
        extras.append(f"known={cards(known)}")
    if agents[seat].trade:
        extras.append("dead=1")
    text = (
        f"{head} {'/'.join(rows)} {','.join(seqs) or '-'} {cards(hands)} {cards(piles)}"
        f" {','.join(card_name(c) for c in deck) or '-'} {seat + 1}:play {' '.join(extras)}"
    )
    return State.from_position(text)


# --- our bots as course agents --------------------------------------------------------------------

CALL_BUDGET = 0.6
"""Seconds our bots give themselves of each of the framework's calls (it allows 1 s): the play
gets most of it, the face-up card the rest; what is left is margin for rebuilding the position
and for a busy machine."""


class CourseAgent:
    """One of our bots as a course agent: ``myAgent(_id)``, then ``SelectAction(actions,
    game_state)`` answers with one of ``actions``. :data:`SPEC` names the bot. It reads only
    what the framework's ``game.py`` leaves it (:func:`state_from_course`) and keeps to
    :data:`CALL_BUDGET` of each call."""

    SPEC = "medium"

    def __init__(self, _id: int) -> None:
        self.id = _id
        self.bot = make_bot(self.SPEC, seed=_id)
        self.turns = 0

    def _budget(self, seconds: float) -> None:
        if isinstance(getattr(self.bot, "time", None), float):
            self.bot.time = max(0.01, seconds)  # type: ignore[attr-defined]

    def SelectAction(self, actions: list[Action], game_state: Any) -> Action:
        """The framework's call: which of ``actions`` to play in ``game_state``."""
        start = time.perf_counter()
        self.turns += 1
        state = state_from_course(game_state, self.id, seed=self.id * 100_003 + self.turns)
        view = state.view(self.id)
        self._budget(CALL_BUDGET * 0.6 - (time.perf_counter() - start))
        play = self.bot.choose(view)
        forgo = [a for a in actions if a.get("type") == "trade" and a.get("play_card") is None]
        if forgo and play.kind is not MoveKind.DEAD:
            return forgo[0]  # the framework asks again, for the play, once it is declined
        state.push(play)
        pick: Move | None = None
        if not state.is_over() and state.phase in (Phase.PICK, Phase.PICK_DEAD):
            self._budget(CALL_BUDGET - (time.perf_counter() - start))
            pick = self.bot.choose(state.view(self.id))
        wanted = _action(play, None if pick is None else pick.card)
        same_play = [a for a in actions if _same(a, wanted, draft=False)]
        exact = [a for a in same_play if _same(a, wanted, draft=True)]
        chosen = exact or same_play or actions
        return chosen[0]


def _same(a: object, b: Action, *, draft: bool) -> bool:
    if not isinstance(a, dict):
        return False
    keys = ("play_card", "type", "coords") + (("draft_card",) if draft else ())
    return all(_plain(a.get(k)) == _plain(b[k]) for k in keys)


def _plain(value: object) -> object:
    return tuple(value) if isinstance(value, list) else value


class EasyAgent(CourseAgent):
    """Our easy level as a course agent."""

    SPEC = "easy"


class MediumAgent(CourseAgent):
    """Our medium level (greedy) as a course agent."""

    SPEC = "medium"


class HardAgent(CourseAgent):
    """Our hard level as a course agent: it searches until its deals are done or its share of
    :data:`CALL_BUDGET` is spent, whichever comes first."""

    SPEC = "hard"


class ExpertAgent(CourseAgent):
    """Our expert level as a course agent: as :class:`HardAgent`, with expert's deals."""

    SPEC = "expert"


# --- course agents in our tournaments -------------------------------------------------------------


def load_course_agent(path: str, agent: str = "myAgent") -> type:
    """The class ``agent`` of the course agent file ``path``, imported as the framework
    imports it: from the course folder that holds its ``agents`` folder, as
    ``agents.<name>.<module>`` (so its own ``from agents.<name>.x import ...`` and relative
    imports work), with the framework's ``template`` and ``Sequence`` modules where that
    folder has them, else this project's restatement of them (:mod:`.course_model`)."""
    file = Path(path)
    if not file.is_file():
        raise ValueError(f"there is no file {path}")
    root = framework_root(file)
    install_modules(root)
    if root is None:
        return _course_class(user_bot_class(f"{path}:{agent}"), path, agent)
    module_name = ".".join(file.resolve().relative_to(root.resolve()).with_suffix("").parts)
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:
        raise CourseAgentError(
            f"the course agent {module_name} (from {root}) could not be imported:"
            f" {type(exc).__name__}: {exc}"
        ) from None
    return _course_class(getattr(module, agent, None), path, agent)


def _course_class(found: object, path: str, agent: str) -> type:
    if not isinstance(found, type):
        raise CourseAgentError(f"{path} has no class {agent}")
    return found


class CourseAgentBot(Bot):
    """A course agent (the file ``path``'s ``myAgent``) as one of our bots. Give it as
    ``comp90054:path/to/agents/<name>/myTeam.py``: it then runs in a process of its own, as
    every user's bot, imported as the framework imports it (:func:`load_course_agent`).

    Each turn it gets the framework's game state (:func:`course_state`) and the framework's
    actions in its order (:func:`course_actions_of`; while a dead card may be traded, only
    the trades and the choice not to trade, after which it is asked again). Its
    ``SelectAction`` calls are timed here, in its own process: :meth:`stats` gives the
    longest (``call_seconds``), which the arena's course time rules judge, not the round trip.

    Raises CourseAgentError (the agent loses its game, saying why) when ``SelectAction`` returns
    something that is not one of the actions it was given."""

    def __init__(self, seed: int = 0, path: str = "", agent: str = "myAgent") -> None:
        super().__init__(seed)
        if not path:
            raise ValueError("give the course agent's file: comp90054:path/to/myTeam.py")
        self.agent_class = load_course_agent(path, agent)
        self.name = f"comp90054:{path}"
        self.agent: Any = None
        self.pick: Move | None = None
        self.call_seconds = 0.0

    def stats(self) -> dict[str, float]:
        return {"call_seconds": self.call_seconds}

    def _ask(self, actions: list[Action], game_state: Any) -> Any:
        start = time.perf_counter()
        try:
            return self.agent.SelectAction(copy.deepcopy(actions), game_state)
        finally:
            self.call_seconds = max(self.call_seconds, time.perf_counter() - start)

    def choose(self, view: View) -> Move:
        if view.seat is None:
            raise ValueError("a course agent plays a seat")
        if self.agent is None:
            self.agent = self.agent_class(view.seat)
        self.call_seconds = 0.0
        if view.phase in (Phase.PICK, Phase.PICK_DEAD):
            pick, self.pick = self.pick, None
            if pick is None or pick not in view.legal_moves:
                raise CourseAgentError(
                    "the agent's SelectAction chose no face-up card with its play"
                )
            return pick
        game_state = course_state(view)
        actions = course_actions_of(game_state, view.seat)
        if not actions:  # every card dead, the trade used: the framework has no action
            actions = course_actions(view)
        answer = self._ask(actions, game_state)
        if _is_forgo(answer) and any(_is_forgo(a) for a in actions):
            game_state = course_state(view)
            game_state.agents[view.seat].trade = True
            actions = course_actions_of(game_state, view.seat) or course_actions(view)
            answer = self._ask(actions, game_state)
        try:
            if not any(_plain_action(answer) == _plain_action(a) for a in actions):
                raise CourseAgentError("not offered")
            play, self.pick = moves_of(answer, view)
        except CourseAgentError:  # said for the agent's author, naming its method
            raise CourseAgentError(
                f"the agent's SelectAction returned {safe_repr(answer)}, which is not one of"
                f" the actions it was given {_SHAPE}"
            ) from None
        return play


def _is_forgo(action: object) -> bool:
    return (
        isinstance(action, dict)
        and action.get("type") == "trade"
        and action.get("play_card") is None
    )


def _plain_action(action: object) -> object:
    if not isinstance(action, dict):
        return action
    return {k: _plain(v) for k, v in action.items()}


__all__ = [
    "COLOURS",
    "SEQ_COLOURS",
    "CourseAgent",
    "CourseAgentBot",
    "CourseAgentError",
    "EasyAgent",
    "ExpertAgent",
    "HardAgent",
    "MediumAgent",
    "card_of",
    "card_text",
    "coords_of",
    "course_actions",
    "course_actions_of",
    "course_state",
    "load_course_agent",
    "moves_of",
    "state_from_course",
]
