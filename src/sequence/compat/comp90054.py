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
  HardAgent as myAgent`` in a file of the framework's agents folder; it reads what its seat may
  see of ``game_state`` (chips, draft, its own hand, how many cards the deck holds), rebuilds
  a :class:`~sequence.engine.State` with :meth:`~sequence.engine.State.from_position` (the
  unseen cards dealt in an arbitrary order), asks our bot, and answers with one of ``actions``.
- :class:`CourseAgentBot`: a course agent in our tournaments, ``sequence tournament --bot
  comp90054:path/to/myTeam.py``. It loads the file in the bot's own process (as every user's bot
  is), feeds it a game state built from its seat's :class:`~sequence.engine.View` (others' hands
  and the deck are :data:`HIDDEN` placeholders, except cards taken face up) and the actions built
  from our legal moves, and maps its answer back.

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

import random
import sys
import types
from collections import Counter
from dataclasses import dataclass, field
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

EMPTY, JOKER = "_", "#"
COLOURS = ("r", "b")
"""The chip of team 0 (red: seats 0 and 2) and team 1 (blue: seats 1 and 3)."""
SEQ_COLOURS = ("X", "O")
"""A chip of team 0 or team 1 that is part of a completed sequence."""
HIDDEN = "??"
"""What a card a seat may not see looks like in the game state we give a course agent."""
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


@dataclass
class CourseBoard:
    """The framework's ``game_state.board``."""

    chips: list[list[str]]
    draft: list[str]


@dataclass
class CourseAgentState:
    """The framework's ``game_state.agents[i]``."""

    id: int
    colour: str
    seq_colour: str
    opp_colour: str
    opp_seq_colour: str
    hand: list[str]
    completed_seqs: int
    trade: bool = False
    discard: str | None = None
    last_action: Action | None = None


@dataclass
class CourseDeck:
    """The framework's ``game_state.deck``: here only its size can be read (:data:`HIDDEN`)."""

    cards: list[str] = field(default_factory=list)


@dataclass
class CourseGameState:
    """The framework's ``game_state``, as one seat may see it."""

    agents: list[CourseAgentState]
    board: CourseBoard
    deck: CourseDeck

    @property
    def num_agents(self) -> int:
        return len(self.agents)


def course_state(view: View) -> CourseGameState:
    """The framework's game state for the seat of ``view``: what that seat may see, nothing
    more (others' hands and the deck are :data:`HIDDEN`, except cards taken face up)."""
    chips = [[EMPTY] * 10 for _ in range(10)]
    free = view.config.spec.layout.free
    for s in range(100):
        if free >> s & 1:
            chips[s // 10][s % 10] = JOKER
    for team, mask in enumerate(view.chips):
        in_seq = 0
        for seq in view.sequences[team]:
            in_seq |= seq
        for s in range(100):
            if mask >> s & 1:
                chips[s // 10][s % 10] = (SEQ_COLOURS if in_seq >> s & 1 else COLOURS)[team]
    agents = []
    for seat in range(view.config.players):
        team = view.config.team_of(seat)
        if seat == view.seat and view.hand is not None:
            hand = [card_text(c) for c in view.hand]
        else:
            known = [card_text(c) for c in view.known_hands[seat]]
            hand = known + [HIDDEN] * (view.hand_sizes[seat] - len(known))
        last = next((m for m in reversed(view.discards[seat])), None)
        agents.append(
            CourseAgentState(
                id=seat,
                colour=COLOURS[team],
                seq_colour=SEQ_COLOURS[team],
                opp_colour=COLOURS[1 - team],
                opp_seq_colour=SEQ_COLOURS[1 - team],
                hand=hand,
                completed_seqs=len(view.sequences[team]),
                trade=view.dead_card_exchanged if seat == view.to_move else False,
                discard=None if last is None else card_text(last),
            )
        )
    board = CourseBoard(chips, [card_text(c) for c in view.draft])
    return CourseGameState(agents, board, CourseDeck([HIDDEN] * view.deck_size))


def _sequences(chips: list[list[str]], team: int, count: int) -> list[tuple[int, ...]]:
    """``count`` windows of five of ``team``'s sequence chips (free corners count), each sharing
    at most one space with the others: the completed sequences the chips show."""
    geo = line_geometry(make_config("classic", 2).spec.layout, 5)
    mine = 0
    for s in range(100):
        if chips[s // 10][s % 10] in (SEQ_COLOURS[team], JOKER):
            mine |= 1 << s

    def search(start: int, chosen: list[int]) -> list[int] | None:
        if len(chosen) == count:
            return chosen
        for i in range(start, len(geo.windows)):
            w = geo.windows[i]
            if w & mine == w and all((w & c).bit_count() <= 1 for c in chosen):
                found = search(i + 1, [*chosen, w])
                if found is not None:
                    return found
        return None

    found = search(0, [])
    if found is None:
        raise CourseAgentError(f"the board does not show {count} sequences of team {team}")
    return [geo.window_spaces[w] for w in found]


def state_from_course(game_state: Any, seat: int, seed: int = 0) -> State:
    """A State the seat ``seat`` cannot tell from the framework's ``game_state``: the chips,
    sequences, face-up cards, its own hand, the deck's size and whether it has traded this turn
    are read; the cards it cannot see are dealt at random (``seed``) to the others' hands, the
    deck and the discard piles."""
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
        count = int(agents[team].completed_seqs)
        for spaces in _sequences(game_state.board.chips, team, count):
            seqs.append(f"{TEAM_LETTERS[team]}:{space_name(spaces[0])}-{space_name(spaces[-1])}")
    hand = [card_of(c) for c in agents[seat].hand]
    draft = [card_of(c) for c in game_state.board.draft]
    unseen = Counter(config.spec.deck)
    unseen.subtract(hand + draft)
    if any(v < 0 for v in unseen.values()):
        raise CourseAgentError("the seat's hand and the face-up cards hold more than the deck")
    pool = sorted(unseen.elements())
    random.Random(seed).shuffle(pool)
    hands: list[list[Card]] = []
    for s in range(players):
        if s == seat:
            hands.append(hand)
        else:
            size = len(agents[s].hand)
            hands.append(pool[:size])
            del pool[:size]
    deck_size = min(len(getattr(game_state, "deck", CourseDeck()).cards), len(pool))
    deck, rest = pool[:deck_size], pool[deck_size:]
    piles = [rest if s == seat else [] for s in range(players)]

    def cards(lists: list[list[Card]]) -> str:
        return "/".join(",".join(card_name(c) for c in cs) for cs in lists)

    head = State.new(config, 0).position().split()[0]
    extras = [f"draft={','.join(card_name(c) for c in draft)}"]
    if agents[seat].trade:
        extras.append("dead=1")
    text = (
        f"{head} {'/'.join(rows)} {','.join(seqs) or '-'} {cards(hands)} {cards(piles)}"
        f" {','.join(card_name(c) for c in deck) or '-'} {seat + 1}:play {' '.join(extras)}"
    )
    return State.from_position(text)


# --- our bots as course agents --------------------------------------------------------------------


class CourseAgent:
    """One of our bots as a course agent: ``myAgent(_id)``, then ``SelectAction(actions,
    game_state)`` answers with one of ``actions``. :data:`SPEC` names the bot."""

    SPEC = "medium"

    def __init__(self, _id: int) -> None:
        self.id = _id
        self.bot = make_bot(self.SPEC, seed=_id)
        self.turns = 0

    def SelectAction(self, actions: list[Action], game_state: Any) -> Action:
        """The framework's call: which of ``actions`` to play in ``game_state``."""
        self.turns += 1
        state = state_from_course(game_state, self.id, seed=self.id * 100_003 + self.turns)
        view = state.view(self.id)
        play = self.bot.choose(view)
        state.push(play)
        pick: Move | None = None
        if not state.is_over() and state.phase in (Phase.PICK, Phase.PICK_DEAD):
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
    """Our hard level as a course agent. It decides twice in the course's 1 s (the play, then
    the face-up card to take): its deals take far less, and it stops at 0.35 s for each."""

    SPEC = "hard@time=0.35"


class ExpertAgent(CourseAgent):
    """Our expert level as a course agent: its deals fit in the course's second on an ordinary
    machine, and it stops at 0.35 s for each of its two decisions (the play, the pick)."""

    SPEC = "expert@time=0.35"


# --- course agents in our tournaments -------------------------------------------------------------


def _template_shim() -> None:
    """Let a student's ``from template import Agent`` work without the framework: a module
    ``template`` with a plain ``Agent`` base class, unless the real one can be imported."""
    try:
        import template  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        shim = types.ModuleType("template")

        class Agent:
            def __init__(self, _id: int) -> None:
                self.id = _id

        shim.Agent = Agent  # type: ignore[attr-defined]
        sys.modules["template"] = shim


class CourseAgentBot(Bot):
    """A course agent (the file ``path``'s ``myAgent``) as one of our bots. Give it as
    ``comp90054:path/to/myTeam.py``: it then runs in a process of its own, as every user's bot.

    Raises CourseAgentError (the agent loses its game, saying why) when ``SelectAction`` returns
    something that is not one of the actions it was given."""

    def __init__(self, seed: int = 0, path: str = "", agent: str = "myAgent") -> None:
        super().__init__(seed)
        if not path:
            raise ValueError("give the course agent's file: comp90054:path/to/myTeam.py")
        _template_shim()
        self.agent_class = user_bot_class(f"{path}:{agent}")
        self.name = f"comp90054:{path}"
        self.agent: Any = None
        self.pick: Move | None = None

    def choose(self, view: View) -> Move:
        if view.seat is None:
            raise ValueError("a course agent plays a seat")
        if self.agent is None:
            self.agent = self.agent_class(view.seat)
        if view.phase in (Phase.PICK, Phase.PICK_DEAD):
            pick, self.pick = self.pick, None
            if pick is None or pick not in view.legal_moves:
                raise CourseAgentError(
                    "the agent's SelectAction chose no face-up card with its play"
                )
            return pick
        actions = course_actions(view)
        answer = self.agent.SelectAction([dict(a) for a in actions], course_state(view))
        try:
            play, self.pick = moves_of(answer, view)
        except CourseAgentError:  # said for the agent's author, naming its method
            raise CourseAgentError(
                f"the agent's SelectAction returned {safe_repr(answer)}, which is not one of"
                f" the actions it was given {_SHAPE}"
            ) from None
        return play


__all__ = [
    "COLOURS",
    "HIDDEN",
    "SEQ_COLOURS",
    "CourseAgent",
    "CourseAgentBot",
    "CourseAgentError",
    "CourseGameState",
    "EasyAgent",
    "ExpertAgent",
    "HardAgent",
    "MediumAgent",
    "card_of",
    "card_text",
    "coords_of",
    "course_actions",
    "course_state",
    "moves_of",
    "state_from_course",
]
