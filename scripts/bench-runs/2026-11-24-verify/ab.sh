#!/usr/bin/env bash
# Whole-process A/B of `asalto verify --threads 1` between two binaries:
# PAIRS runs of each, in turn (A B A B ...), after one warm-up run of each;
# prints each run's user+sys CPU seconds and wall seconds, then the median
# CPU ratio B/A of the pairs.
#
#   ab.sh A_BINARY B_BINARY TABLES SOLDIERS PAIRS
#   e.g. ab.sh /tmp/asalto-old target/release/asalto /tmp/vt/tw 10..=10 5
set -euo pipefail
[ $# -eq 5 ] || { echo "usage: ab.sh A B TABLES SOLDIERS PAIRS" >&2; exit 2; }
A="$1"; B="$2"; T="$3"; K="$4"; PAIRS="$5"
run() {
  /usr/bin/time -f "%U %S %e" "$1" verify --variant assaut --soldiers "$K" --threads 1 \
    --tables "$T" 2>&1 >/dev/null | tail -n 1 | awk '{printf "%.2f %.2f\n", $1 + $2, $3}'
}
run "$A" >/dev/null
run "$B" >/dev/null
ratios=()
for i in $(seq "$PAIRS"); do
  read -r ca wa < <(run "$A")
  read -r cb wb < <(run "$B")
  r=$(awk -v a="$ca" -v b="$cb" 'BEGIN {printf "%.3f", b / a}')
  ratios+=("$r")
  echo "pair $i: A cpu ${ca} s wall ${wa} s | B cpu ${cb} s wall ${wb} s | B/A ${r}"
done
printf '%s\n' "${ratios[@]}" | sort -n | awk '{v[NR] = $1} END {printf "median B/A cpu ratio %s (min %s, max %s) over %d pairs\n", v[int((NR + 1) / 2)], v[1], v[NR], NR}'
