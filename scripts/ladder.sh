#!/usr/bin/env bash
# The bot ladder (docs/bots.md): random, easy (greedy), medium and hard, round robin, in
# 2-player classic, 3-player classic, Kids and Dice. Seats alternate on paired deals.
# medium and hard are the greedy lookahead (sequence/bots/lookahead.py) at 0.2 s and 1 s a move;
# EXTRA adds bots, e.g. EXTRA="mcts@time=1" to compare the tree search.
#
#   scripts/ladder.sh                    # the full ladder: 200 games a pairing, hard at 1 s a move
#   GAMES=40 HARD=0.25 MEDIUM=0.05 scripts/ladder.sh   # a reduced run (say so when you quote it)
#
# Each configuration writes ladder/<name>.json (every figure of the tables) and prints its tables.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
GAMES=${GAMES:-200}
WORKERS=${WORKERS:-$(nproc)}
HARD=${HARD:-1.0}
MEDIUM=${MEDIUM:-0.2}
OUT=${OUT:-ladder}
CONFIGS=${CONFIGS:-"classic2 classic3 kids2 dice2"}
mkdir -p "$OUT"
EXTRA=${EXTRA:-}
BOTS=(--bot random --bot easy --bot "medium@time=${MEDIUM}" --bot "hard@time=${HARD}")
for extra in $EXTRA; do BOTS+=(--bot "$extra"); done
for name in $CONFIGS; do
  case "$name" in
    classic2) args=(--game classic --players 2) ;;
    classic3) args=(--game classic --players 3) ;;
    kids2)    args=(--game kids --players 2) ;;
    dice2)    args=(--game dice --players 2) ;;
    draft2)   args=(--game classic --players 2 --option draft=true) ;;
    *) echo "unknown configuration $name" >&2; exit 2 ;;
  esac
  echo "== $name: ${GAMES} games a pairing, medium ${MEDIUM} s, hard ${HARD} s a move"
  "$PY" -m sequence.cli.main tournament "${args[@]}" "${BOTS[@]}" --games "$GAMES" \
    --workers "$WORKERS" --seed 1 --json "$OUT/$name.json"
done
