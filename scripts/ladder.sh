#!/usr/bin/env bash
# The bot ladder (docs/bots.md): each level against the one below it -- easy against random,
# medium (greedy) against random and against easy, hard against medium, expert against hard --
# on paired deals with seats alternated, in 2-player classic, 3-player classic, Kids and Dice.
# hard and expert search a fixed number of deals a move (their time limits are only ceilings),
# so the results do not depend on the machine or its load and a run replays exactly.
#
#   scripts/ladder.sh                                     # 200 games a pairing, 2,000 for hard
#                                                         # against medium in 2-player classic,
#                                                         # Kids and Dice
#   GAMES=40 LONG=40 CONFIGS="kids2 dice2" scripts/ladder.sh   # fewer games (say so when quoted)
#   WORKERS=1 nice -n 10 scripts/ladder.sh                # one process, on a shared machine
#
# Each pairing writes ladder/<config>-<A>-<B>.json (every figure) and prints its table.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
GAMES=${GAMES:-200}
LONG=${LONG:-2000}  # games of hard against medium in 2-player classic, Kids and Dice (its headline)
WORKERS=${WORKERS:-$(nproc)}
OUT=${OUT:-ladder}
CONFIGS=${CONFIGS:-"classic2 classic3 kids2 dice2"}
PAIRS=${PAIRS:-"easy:random medium:random medium:easy hard:medium expert:hard"}
mkdir -p "$OUT"
for name in $CONFIGS; do
  case "$name" in
    classic2) args=(--game classic --players 2) ;;
    classic3) args=(--game classic --players 3) ;;
    kids2)    args=(--game kids --players 2) ;;
    dice2)    args=(--game dice --players 2) ;;
    draft2)   args=(--game classic --players 2 --option draft=true) ;;
    *) echo "unknown configuration $name" >&2; exit 2 ;;
  esac
  for pair in $PAIRS; do
    a=${pair%%:*}
    b=${pair##*:}
    games=$GAMES
    case "$name:$pair" in classic2:hard:medium | kids2:hard:medium | dice2:hard:medium) games=$LONG ;; esac
    echo "== $name: $a against $b, ${games} games"
    "$PY" -m sequence.cli.main tournament "${args[@]}" --bot "$a" --bot "$b" --games "$games" \
      --workers "$WORKERS" --seed 1 --json "$OUT/$name-$a-$b.json"
  done
done
