"""``sequence review RECORD [--json]``: each move of a finished game judged as its mover saw it.

One record (JSON or text, ``-`` for standard input): every decision judged by the strongest
bot's search from the mover's view only (:mod:`sequence.bots.review`), the flagged moves with
what was better, the turning points, and each side's chances over the game (an estimate by
sampled deals). With ``--json`` the whole review as JSON, for a person's own tools.

A folder of records (a tournament's ``--save`` folder) or several files: the same review of
every game, summed per agent (the records' ``Name``/``Seat`` tags): how often each missed a win
it had, left a four it could have blocked, wasted a Jack, kept a dead card.

Examples::

    sequence review game.json
    sequence review game.json --json --lang ru
    sequence tournament --bot hard --bot medium --games 20 --save games/
    sequence review games/ --json

The notes are translated (``--lang``, else the terminal's language); the frame around them is
English, like the other commands'. A bad record says which move is wrong and why (exit 1);
a file that cannot be read exits 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..bots.explain import Note
from ..bots.review import GameReview, Reviewer, summarise
from ..engine import TEAM_LETTERS, GameRecord, RecordError
from ..i18n import language_option, system_language
from ..i18n.notes import translate_note


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("records", nargs="+", metavar="RECORD",
                        help="a game record (JSON or text), - for standard input, or a folder of"
                        " records (several: a summary per agent)")  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print the review as JSON")
    parser.add_argument(
        "--lang", type=language_option, help="language of the notes: en, ru, de, uk or fr"
    )
    parser.add_argument("--deals", type=int, default=None, metavar="N",
                        help="deals each decision is searched over (default: expert's, 32 in"
                        " classic)")  # fmt: skip
    parser.add_argument("--chance-deals", type=int, default=16, metavar="N",
                        help="deals each chance estimate plays out (0: none; default 16)",
                        )  # fmt: skip
    parser.add_argument("--seed", type=int, default=0, help="the review's seed (default 0)")


def run(args: argparse.Namespace) -> int:
    lang = args.lang or system_language()
    if args.deals is not None and args.deals < 1:
        return _fail(f"--deals must be 1 or more, not {args.deals}", 2)
    if args.chance_deals < 0:
        return _fail(f"--chance-deals must be 0 or more, not {args.chance_deals}", 2)
    paths = _paths(args.records)
    if isinstance(paths, str):
        return _fail(paths, 2)
    records: list[tuple[str, GameRecord]] = []
    for path in paths:
        loaded = _load(path)
        if isinstance(loaded, tuple):
            return _fail(*loaded)
        records.append((path, loaded))
    reviewer = Reviewer(deals=args.deals, chance_deals=args.chance_deals, seed=args.seed)
    several = len(records) > 1 or any(Path(p).is_dir() for p in args.records)
    if several:
        reviewer.chance_deals = 0  # a summary counts mistakes; chances would only cost time
    reviews = []
    for path, record in records:
        try:
            reviews.append(reviewer.review_game(record))
        except RecordError as exc:
            return _fail(f"{path}: invalid record: {exc}", 1)
    if several:
        summary = summarise(reviews)
        if args.json:
            print(json.dumps(summary, indent=2, ensure_ascii=False))
        else:
            print(_summary_text(summary))
        return 0
    review = reviews[0]
    if args.json:
        data = review.to_dict()
        _translate_notes(data, review, lang)
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        print(review_text(review, lang))
    return 0


def _fail(message: str, status: int) -> int:
    print(f"sequence review: {message}", file=sys.stderr)
    return status


def _paths(given: list[str]) -> list[str] | str:
    """The record files named (a folder: its ``*.json`` and ``*.txt`` files, sorted), or why not."""
    out: list[str] = []
    for name in given:
        path = Path(name)
        if name != "-" and path.is_dir():
            found = sorted(p for p in path.iterdir() if p.suffix in (".json", ".txt"))
            if not found:
                return f"{name} holds no records (*.json or *.txt)"
            out += [str(p) for p in found]
        else:
            out.append(name)
    return out


def _load(path: str) -> GameRecord | tuple[str, int]:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        return f"cannot read {path}: {exc.strerror}", 2
    except UnicodeDecodeError:
        return f"{path} is not a text file (UTF-8)", 2
    try:
        record = GameRecord.load(text)
    except RecordError as exc:
        return f"{path}: invalid record: {exc}", 1
    if record.result is None:
        return f"{path}: the game is not finished (a review is of a finished game)", 1
    return record


def _translate_notes(data: dict[str, Any], review: GameReview, lang: str) -> None:
    """Put each note's text in ``lang`` beside its English (``text``) in the JSON."""
    data["lang"] = lang
    for entry, move in zip(data["moves"], review.moves, strict=True):
        for key, notes in (("flags", move.flags), ("notes", move.notes)):
            for item, note in zip(entry[key], notes, strict=True):
                item["said"] = translate_note(note, lang)
    for entry, point in zip(data["turning_points"], review.turning_points, strict=True):
        for item, note in zip(entry["notes"], point.notes, strict=True):
            item["said"] = translate_note(note, lang)


def _said(notes: tuple[Note, ...], lang: str) -> str:
    return "; ".join(translate_note(n, lang) for n in notes)


def review_text(review: GameReview, lang: str) -> str:
    """The review for a person: the flagged moves, the turning points, the chances."""
    cfg = review.config
    teams = cfg.teams

    def who(seat: int) -> str:
        return f"{review.players[seat]} ({TEAM_LETTERS[seat % teams]})"

    lines = [
        f"Review of {cfg.game} for {cfg.players} ({review.result or 'unfinished'}):"
        f" {len(review.moves)} decision{'s' * (len(review.moves) != 1)}, each judged from its"
        " mover's view by expert's search"
        f" over {review.deals} deals ({review.seconds:.1f} s)",
        "",
    ]
    flagged = review.flagged()
    lines.append(f"Flagged moves: {len(flagged)}" if flagged else "Flagged moves: none")
    if flagged:  # the unit of "loss", said once
        lines.append(
            "  (loss: how far the move's mean score fell short of the best one's, in"
            " the evaluation's points: a four is worth 120, a sequence 3,000 or more)"
        )
    for m in flagged:
        lines.append(f"  {m.index + 1}. {who(m.seat)} {m.move}: {m.verdict}, loss {m.loss:.0f}"
                     f" - {_said(m.flags, lang)}")  # fmt: skip
    # Every verdict, counted: inaccuracies alone are not flagged, so the two numbers differ.
    counts = {v: sum(m.verdict == v for m in review.moves) for v in ("inaccuracy", "mistake",
                                                                      "blunder")}  # fmt: skip
    lines.append("  all verdicts: " + ", ".join(f"{k} {v}" for k, v in counts.items())
                 + " (an inaccuracy alone is not flagged)")  # fmt: skip
    if review.chances:
        lines += ["", "Turning points:" if review.turning_points else "Turning points: none"]
        for t in review.turning_points:
            team = TEAM_LETTERS[t.seat % teams]
            said = f" - {_said(t.notes, lang)}" if t.notes else ""
            lines.append(f"  {t.index + 1}. {who(t.seat)} {t.move}: team {team}'s chances"
                         f" {t.swing:+.0%}{said}")  # fmt: skip
        lines += ["", _chances_text(review)]
    return "\n".join(lines)


def _chances_text(review: GameReview, rows: int = 12) -> str:
    """Each side's chances over the game as a small table (about ``rows`` rows)."""
    teams = review.config.teams
    points = review.chances
    step = max(1, len(points) // rows)
    shown = list(points[::step])
    if shown[-1] is not points[-1]:
        shown.append(points[-1])
    head = (f"Chances to win (an estimate: {review.chance_deals} deals of the unseen cards"
            " played out by greedy play, from what a spectator sees):")  # fmt: skip
    lines = [head, "  after move " + "".join(f"{TEAM_LETTERS[t]:>7}" for t in range(teams))]
    for p in shown:
        bars = "".join(f"{c:>7.0%}" for c in p.chances)
        lines.append(f"  {p.index:>10} {bars}  " + "#" * round(20 * p.chances[0]))
    return "\n".join(lines)


def _summary_text(summary: dict[str, Any]) -> str:
    lines = [f"{summary['games']} games reviewed; per agent:"]
    head = ("decisions", "flagged", "missed_wins", "wins_available", "missed_blocks",
            "blocks_available", "wasted_jacks", "dead_cards_kept", "mean_loss")  # fmt: skip
    lines.append(f"  {'agent':<20}" + "".join(f"{h:>17}" for h in head))
    for name, a in summary["agents"].items():
        lines.append(f"  {name:<20}" + "".join(f"{a[h]!s:>17}" for h in head))
    return "\n".join(lines)
