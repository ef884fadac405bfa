"""Position notation: a whole game state in one line of text, read and written exactly.

Seven fields separated by spaces, then optional ``key=value`` fields::

    classic/2 ********** /...  A:a1-e1 5H,TS/JD,2C - 7C,8C 1:play turns=4 rng=...

1. **game**: ``classic/2`` (game/players), then ``/teams=3`` and ``/option=value`` for every option
   that is not at its default, e.g. ``classic/6/teams=3/difficult=true``.
2. **board**: rows from the top, separated by ``/``; ``.`` empty, ``*`` free corner, ``a``-``d`` a
   chip of team A-D.
3. **sequences**: ``A:a1-e1,B:c3-g7`` (team, first and last space) or ``-``.
4. **hands**: one per seat, separated by ``/``, cards by ``,`` (an empty hand is empty);
   ``-`` at Dice.
5. **discards**: the same, each pile bottom first.
6. **draw pile**: cards in the order they will be drawn, or ``-``.
7. **turn**: seat to act (1-based) and phase: ``1:play``, ``2:pick``, ``1:roll``, ``1:act``...

Then, only when not at their defaults: ``turns=N``, ``passes=N``, ``dead=N`` (dead cards
exchanged this turn), ``draft=5H,7C``, ``known=`` (cards known in hands, like hands),
``pending=1,2`` (seats that may still draw), ``forfeit=2,4>1:play`` (seats owing a card, then
whose turn resumes), ``roll=3+4``, ``rng=HEX`` (the random source for reshuffles and dice),
``over=TERMINATION:TEAM``.

>>> from sequence.engine import State, make_config
>>> state = State.new(make_config("classic", players=2), seed=3)
>>> State.from_position(state.position()) == state
True
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from .board import STRIDE, TEAM_LETTERS, Bitboard, parse_space, space_name
from .cards import Card, card_name, parse_card
from .errors import ConfigError, InvalidNotationError, InvalidPositionError
from .games import OPTIONS, Config, make_config
from .turn import Outcome, Phase, Termination

_NUMBER_FIELDS = {"turns": "_turns", "passes": "_passes", "dead": "_exchanges"}
"""The extras that are whole numbers, and the state's field each sets."""

if TYPE_CHECKING:
    from .state import State

if TYPE_CHECKING:
    pass


def _cards(cards: tuple[Card, ...]) -> str:
    return ",".join(card_name(c) for c in cards)


def _read_cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_card(t) for t in text.split(",")) if text else ()


def _per_seat(items: tuple[tuple[Card, ...], ...]) -> str:
    return "/".join(_cards(h) for h in items)


def _config_text(cfg: Config) -> str:
    parts = [cfg.game, str(cfg.players)]
    default_teams = make_config(cfg.game, cfg.players).teams
    if cfg.teams != default_teams:
        parts.append(f"teams={cfg.teams}")
    for name, value in cfg.options().items():
        parts.append(f"{name}={str(value).lower()}")
    return "/".join(parts)


def _read_config(text: str) -> Config:
    parts = text.split("/")
    if len(parts) < 2 or not parts[1].isdecimal():
        raise InvalidNotationError("game_field", text=text)
    teams: int | None = None
    options: dict[str, str] = {}
    for part in parts[2:]:
        key, sep, value = part.partition("=")
        if not sep:
            raise InvalidNotationError("game_field_option", text=part)
        if key == "teams":
            if not value.isdecimal():
                raise InvalidNotationError("field_number", key=key)
            teams = int(value)
        elif key in OPTIONS:
            options[key] = value
        else:
            raise InvalidNotationError("game_field_unknown", text=key)
    try:
        return make_config(parts[0], int(parts[1]), teams, **options)
    except ConfigError as exc:
        raise InvalidPositionError("game_field_config", reason=exc) from None


def write_position(state: State) -> str:
    cfg = state.config
    layout = cfg.spec.layout
    rows = []
    for r in range(layout.rows):
        row = ""
        for c in range(layout.cols):
            s = r * STRIDE + c
            team = state.chip_at(s)
            row += "*" if layout.free >> s & 1 else "." if team is None else "abcd"[team]
        rows.append(row)
    geo = state._t.geo
    seqs = [
        f"{TEAM_LETTERS[t]}:{space_name(geo.window_spaces[w][0])}-{space_name(geo.window_spaces[w][-1])}"
        for t, team_seqs in enumerate(state._seqs)
        for w in team_seqs
    ]
    cards = cfg.spec.uses_cards
    deck = state._deck[state._deck_pos :]
    fields = [
        _config_text(cfg),
        "/".join(rows),
        ",".join(seqs) or "-",
        _per_seat(state._hands) if cards else "-",
        _per_seat(state._discards) if cards else "-",
        _cards(deck) or "-",
        f"{state._to_move + 1}:{state._phase.name.lower()}",
    ]
    extras = {
        "turns": str(state._turns) if state._turns else "",
        "passes": str(state._passes) if state._passes else "",
        "dead": str(state._exchanges) if state._exchanges else "",
        "draft": _cards(state._draft),
        "known": _per_seat(state._known) if any(state._known) else "",
        "pending": ",".join(str(s + 1) for s in state._pending),
        "forfeit": "",
        "roll": f"{state._roll[0]}+{state._roll[1]}" if state._roll else "",
        "rng": f"{state._rng:x}",
        "over": "",
    }
    if state._forfeit:
        due, seat, phase = state._forfeit
        extras["forfeit"] = ",".join(str(s + 1) for s in due) + f">{seat + 1}:{phase.name.lower()}"
    if state._outcome:
        o = state._outcome
        extras["over"] = o.termination.value + (
            "" if o.winner is None else ":" + TEAM_LETTERS[o.winner]
        )
    fields += [f"{k}={v}" for k, v in extras.items() if v]
    return " ".join(fields)


def _phase(text: str) -> Phase:
    try:
        return Phase[text.upper()]
    except KeyError:
        names = ", ".join(p.name.lower() for p in Phase)
        raise InvalidNotationError("unknown_phase", text=text, names=names) from None


def _seat(text: str, players: int) -> int:
    if not text.isdecimal() or not 1 <= int(text) <= players:
        raise InvalidNotationError("turn_seat", text=text, players=players)
    return int(text) - 1


def read_position(text: str, state_class: type[State]) -> State:
    """Parse position notation into a new ``state_class`` (what ``State.from_position`` does);
    check that the position is possible."""
    if not isinstance(text, str):
        raise InvalidNotationError("position_not_text")
    fields = text.split()
    if len(fields) < 7:
        raise InvalidNotationError("position_fields", count=len(fields))
    cfg = _read_config(fields[0])
    state = state_class(cfg)
    layout = cfg.spec.layout
    n = cfg.players

    rows = fields[1].split("/")
    if len(rows) != layout.rows or any(len(r) != layout.cols for r in rows):
        raise InvalidNotationError(
            "board_shape", title=cfg.spec.title, rows=layout.rows, cols=layout.cols
        )
    chips = [0] * cfg.teams
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            s = r * STRIDE + c
            is_free = bool(layout.free >> s & 1)
            if ch == "*" or is_free:
                if ch != "*" or not is_free:
                    raise InvalidPositionError("free_corner_mark", space=space_name(s))
            elif ch in "abcd":
                team = "abcd".index(ch)
                if team >= cfg.teams:
                    raise InvalidPositionError(
                        "board_no_team", space=space_name(s), team=ch.upper()
                    )
                chips[team] |= 1 << s
            elif ch != ".":
                raise InvalidNotationError("board_mark", space=space_name(s), text=ch)
    for team, m in enumerate(chips):
        if m.bit_count() > cfg.chips[team]:
            raise InvalidPositionError("chips_over_supply", team=TEAM_LETTERS[team])
    state._chips = tuple(chips)
    occ = 0
    for m in chips:
        occ |= m
    state._occ = occ

    geo = state._t.geo
    by_ends = {(geo.window_spaces[w][0], geo.window_spaces[w][-1]): w for w in geo.windows}
    seqs: list[list[Bitboard]] = [[] for _ in range(cfg.teams)]
    if fields[2] != "-":
        for token in fields[2].split(","):
            letter, _, span = token.partition(":")
            first, _, last = span.partition("-")
            if letter not in TEAM_LETTERS[: cfg.teams] or not first or not last:
                raise InvalidNotationError("sequence_notation", text=token)
            a, b = parse_space(first), parse_space(last)
            w = by_ends.get((a, b)) or by_ends.get((b, a))
            if w is None:
                raise InvalidPositionError("sequence_not_line", text=token, length=cfg.line_length)
            team = TEAM_LETTERS.index(letter)
            if (chips[team] | layout.free) & w != w:
                raise InvalidPositionError("sequence_not_team", text=token, team=letter)
            if any((w & e).bit_count() > 1 for e in seqs[team]):
                raise InvalidPositionError("sequence_overlap", text=token)
            seqs[team].append(w)
    state._seqs = tuple(tuple(s) for s in seqs)
    locked = 0
    for team_seqs in state._seqs:
        for w in team_seqs:
            locked |= w
    state._locked = locked & ~layout.free

    if cfg.spec.uses_cards:
        hands = fields[3].split("/")
        piles = fields[4].split("/")
        if len(hands) != n or len(piles) != n:
            raise InvalidNotationError("hands_count", n=n)
        state._hands = tuple(_read_cards(h) for h in hands)
        state._discards = tuple(_read_cards(p) for p in piles)
        state._deck = _read_cards("" if fields[5] == "-" else fields[5])
    elif fields[3:6] != ["-", "-", "-"]:
        raise InvalidNotationError("dice_no_hands")

    seat_text, _, phase_text = fields[6].partition(":")
    state._to_move = _seat(seat_text, n)
    state._phase = _phase(phase_text)

    for field in fields[7:]:
        key, sep, value = field.partition("=")
        if not sep:
            raise InvalidNotationError("field_notation", text=field)
        if key in ("turns", "passes", "dead"):
            if not value.isdecimal():
                raise InvalidNotationError("field_number", key=key)
            setattr(state, _NUMBER_FIELDS[key], int(value))
        elif key == "draft":
            state._draft = _read_cards(value)
        elif key == "known":
            known_lists = value.split("/")
            if len(known_lists) != n:
                raise InvalidNotationError("known_lists", n=n)
            state._known = tuple(_read_cards(k) for k in known_lists)
        elif key == "pending":
            state._pending = tuple(_seat(s, n) for s in value.split(","))
        elif key == "forfeit":
            due, _, resume = value.partition(">")
            resume_seat, _, resume_phase = resume.partition(":")
            state._forfeit = (
                tuple(_seat(s, n) for s in due.split(",")),
                _seat(resume_seat, n),
                _phase(resume_phase),
            )
        elif key == "roll":
            die1, _, die2 = value.partition("+")
            if not (
                die1.isdecimal()
                and die2.isdecimal()
                and 1 <= int(die1) <= 6
                and 1 <= int(die2) <= 6
            ):
                raise InvalidNotationError("roll_field")
            state._roll = (int(die1), int(die2))
        elif key == "rng":
            try:
                state._rng = int(value, 16)
            except ValueError:
                raise InvalidNotationError("rng_field") from None
        elif key == "over":
            term, _, winner_letter = value.partition(":")
            try:
                termination = Termination(term)
            except ValueError:
                raise InvalidNotationError("unknown_ending", text=term) from None
            winner = None
            if winner_letter:
                teams = TEAM_LETTERS[: cfg.teams]
                if len(winner_letter) != 1 or winner_letter not in teams:
                    raise InvalidNotationError(
                        "winner_letter", letters=", ".join(teams), text=winner_letter
                    )
                winner = teams.index(winner_letter)
            state._outcome = Outcome(termination, winner)
        else:
            raise InvalidNotationError("unknown_field", text=key)

    if cfg.spec.uses_cards:
        counts: Counter[Card] = Counter()
        for h in state._hands:
            counts.update(h)
        for d in state._discards:
            counts.update(d)
        counts.update(state._deck)
        counts.update(state._draft)
        expected = Counter(cfg.spec.deck)
        if counts != expected:
            extra = counts - expected
            code, wrong = ("cards_extra", extra) if extra else ("cards_missing", expected - counts)
            cards = ", ".join(f"{card_name(c)}x{k}" for c, k in sorted(wrong.items()))
            raise InvalidPositionError(code, cards=cards)
        for holder, known in enumerate(state._known):
            if Counter(known) - Counter(state._hands[holder]):
                raise InvalidPositionError("known_not_held", seat=holder + 1)
    if state._exchanges > cfg.spec.dead_cards_per_turn:
        raise InvalidPositionError(
            "dead_over_limit", count=state._exchanges, limit=cfg.spec.dead_cards_per_turn
        )
    if state._phase is Phase.ACT and state._roll is None:
        raise InvalidPositionError("act_needs_roll")
    if state._roll is not None and state._phase not in (Phase.ACT, Phase.OVER):
        raise InvalidPositionError("roll_outside_act")
    card_phases = {Phase.PLAY, Phase.PICK, Phase.PICK_DEAD, Phase.FORFEIT, Phase.OVER}
    if (state._phase in card_phases) != cfg.spec.uses_cards and state._phase is not Phase.OVER:
        raise InvalidPositionError(
            "phase_not_in_game", phase=state._phase.name.lower(), title=cfg.spec.title
        )
    if (state._phase is Phase.OVER) != (state._outcome is not None):
        raise InvalidPositionError("over_field")
    if (state._phase is Phase.FORFEIT) != (state._forfeit is not None):
        raise InvalidPositionError("forfeit_field")
    if not cfg.draft:
        if state._draft:
            raise InvalidPositionError("draft_field")
        if state._phase in (Phase.PICK, Phase.PICK_DEAD):
            raise InvalidPositionError("draft_phase", phase=state._phase.name.lower())
    if state._outcome is None:
        _check_sequences(state)
    return state


def _check_sequences(state: State) -> None:
    """A game in progress: no team has the sequences that win (else give ``over=``)."""
    cfg = state.config
    for team, seqs in enumerate(state._seqs):
        if len(seqs) >= cfg.sequences_to_win:
            raise InvalidPositionError("sequences_win", team=TEAM_LETTERS[team], count=len(seqs))
