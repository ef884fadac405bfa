"""The move log in words for the terminal: who moved, which card, whose chip, who starts and why.

The facts come from the engine (:func:`sequence.engine.history` for the moves, ``state.setup``
for the cut, the dealer drawn or the roll-off); this module only puts them into the player's
language, with the same messages as the web client's log, so both read alike.

>>> from sequence.engine import State, make_config
>>> from sequence.tui.widgets import Gettext
>>> state = State.new(make_config("dice", players=2), seed=1)
>>> _ = state.push_text("roll:4+6")
>>> names = ["Bot", "Anna"]
>>> [line.plain for line in move_lines(state, names, None, Gettext("en"))]
['Anna ▲ rolled 4+6 = 10: defence']
"""

from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.text import Text

from ..engine import TEAM_LETTERS, Setup, State, View, history, parse_card
from .widgets import N_, TEAM_SYMBOLS, Gettext, card_label, card_style, team_style

ROLL_MEANINGS = {"defence": N_("defence"), "wild": N_("wild")}


def _fill(message: str, **parts: Text | str) -> Text:
    """``message`` with its ``{placeholders}`` replaced by styled pieces."""
    out = Text()
    rest = message
    while rest:
        start = rest.find("{")
        end = rest.find("}", start)
        if start < 0 or end < 0:
            out.append(rest)
            break
        out.append(rest[:start])
        key = rest[start + 1 : end]
        piece = parts.get(key)
        if piece is None:
            out.append(rest[start : end + 1])
        else:
            out.append(piece)
        rest = rest[end + 1 :]
    return out


def _who(view: View, names: list[str], seat: int) -> Text:
    team = view.config.team_of(seat)
    out = Text(names[seat] + " ")
    out.append(TEAM_SYMBOLS[team], style=team_style(view, team))
    return out


def _team(view: View, team: int) -> Text:
    out = Text(TEAM_LETTERS[team] + " ")
    out.append(TEAM_SYMBOLS[team], style=team_style(view, team))
    return out


def _card(name: str, _: Gettext) -> Text:
    card = parse_card(name)
    return Text(card_label(card, _), style=card_style(card) + Style(bold=True))


def sentence(
    entry: dict[str, Any], view: View, names: list[str], viewer: int | None, _: Gettext
) -> Text:
    """One entry of :func:`~sequence.engine.history` as a sentence in the player's language."""
    seat = entry["seat"]
    who: Text | str = _("Someone") if seat is None else _who(view, names, seat)
    mine = None if viewer is None else view.config.team_of(viewer)
    removed = entry["removed"]
    yours = removed is not None and removed == mine
    team: Text | str = "" if removed is None else _team(view, removed)
    space = Text(entry["space"] or "", style="bold")
    card: Text | str = "" if entry["card"] is None else _card(entry["card"], _)
    kind = entry["kind"]
    parts: dict[str, Text | str] = {"who": who, "card": card, "space": space, "team": team}
    message: str
    if kind == "place":
        message = (
            _("{who} played {card} on {space}") if card else _("{who} placed a chip on {space}")
        )
    elif kind == "remove":
        if card:
            message = (
                _("{who} removed your chip from {space} with {card}")
                if yours
                else _("{who} removed a chip of team {team} from {space} with {card}")
            )
        else:
            message = (
                _("{who} removed your chip from {space}")
                if yours
                else _("{who} removed a chip of team {team} from {space}")
            )
    elif kind == "replace":
        message = (
            _("{who} replaced your chip on {space}")
            if yours
            else _("{who} replaced a chip of team {team} on {space}")
        )
    elif kind == "dead":
        message = _("{who} exchanged the dead card {card}")
    elif kind == "discard":
        message = _("{who} discarded {card} and passed")
    elif kind == "pass":
        message = _("{who} passed")
    elif kind == "draw":
        message = _("{who} drew a card")
    elif kind == "pick":
        message = _("{who} took {card} from the draft")
    elif kind == "forfeit":
        message = _("{who} gave up {card}")
    elif kind == "penalty":
        message = _("Table-talk penalty for team {team}")
        parts["team"] = _team(view, entry["team"])
    elif kind == "roll":
        a, b = entry["dice"]
        parts.update(a=str(a), b=str(b), total=str(entry["total"]))
        meaning = ROLL_MEANINGS.get(entry["meaning"])
        if meaning is None:
            message = _("{who} rolled {a}+{b} = {total}")
        else:
            message = _("{who} rolled {a}+{b} = {total}: {meaning}")
            parts["meaning"] = Text(_(meaning), style="bold")
    else:
        return Text(entry["move"])
    return _fill(message, **parts)


def move_lines(state: State, names: list[str], viewer: int | None, _: Gettext) -> list[Text]:
    """Every move so far as a sentence, oldest first (public facts only)."""
    view = state.view(None)
    return [sentence(e, view, names, viewer, _) for e in history(state)]


def setup_lines(setup: Setup | None, view: View, names: list[str], _: Gettext) -> list[Text]:
    """Who plays first and why: the cut for dealer (classic), the dealer drawn (Kids) or the
    roll-off (Dice), one line per round, then the result."""
    if setup is None:
        return []
    first = _who(view, names, setup.first)
    out: list[Text] = []
    if setup.rolls:
        for rolls in setup.rolls:
            rolled = Text(", ").join(
                _fill("{who} {a}+{b}", who=_who(view, names, s), a=str(d[0]), b=str(d[1]))
                for s, d in rolls
            )
            out.append(_fill(_("Roll-off: {rolls}"), rolls=rolled))
        out.append(_fill(_("{first} rolled highest and plays first."), first=first))
    elif setup.cuts and setup.dealer is not None:
        for cuts in setup.cuts:
            cut = Text(", ").join(
                _fill(
                    "{who} {card}",
                    who=_who(view, names, s),
                    card=Text(card_label(c, _), style=card_style(c) + Style(bold=True)),
                )
                for s, c in cuts
            )
            out.append(_fill(_("Cut for dealer: {cuts}"), cuts=cut))
        dealer = _who(view, names, setup.dealer)
        out.append(
            _fill(
                _("{dealer} cut lowest and deals; {first} plays first."), dealer=dealer, first=first
            )
        )
    elif setup.dealer is not None:
        dealer = _who(view, names, setup.dealer)
        out.append(
            _fill(_("{dealer} was drawn to deal; {first} plays first."), dealer=dealer, first=first)
        )
    else:
        out.append(_fill(_("{first} plays first."), first=first))
    return out


__all__ = ["move_lines", "sentence", "setup_lines"]
