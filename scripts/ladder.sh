#!/usr/bin/env bash
# The bot ladder (docs/bots.md): each level against the one below it -- easy against random,
# medium (greedy) against random and against easy, hard against medium -- on paired deals with
# seats alternated, in 2-player classic, 3-player classic, Kids and Dice.
#
#   scripts/ladder.sh                                     # 200 games a pairing, hard at 1 s a move
#   GAMES=40 CONFIGS="kids2 dice2" scripts/ladder.sh     # fewer games (say so when you quote it)
#
# Each pairing writes ladder/<config>-<A>-<B>.json (every figure) and prints its table.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
GAMES=${GAMES:-200}
WORKERS=${WORKERS:-$(nproc)}
HARD=${HARD:-1.0}
OUT=${OUT:-ladder}
CONFIGS=${CONFIGS:-"classic2 classic3 kids2 dice2"}
PAIRS=${PAIRS:-"easy:random medium:random medium:easy hard:medium"}
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
    [ "$a" = hard ] && a="hard@time=${HARD}"
    echo "== $name: $a against $b, ${GAMES} games"
    "$PY" -m sequence.cli.main tournament "${args[@]}" --bot "$a" --bot "$b" --games "$GAMES" \
      --workers "$WORKERS" --seed 1 --json "$OUT/$name-${pair%%:*}-$b.json"
  done
done
