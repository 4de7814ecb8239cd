#!/usr/bin/env bash
# Whole-process A/B of a WDL-only `asalto build --for` on one thread between
# two binaries, each run into an empty tables folder: PAIRS runs of each, in
# turn (A B A B ...), after one warm-up run of each; prints each run's
# user+sys CPU seconds and wall seconds, checks that both binaries wrote the
# same bytes, then prints the median CPU ratio B/A of the pairs.
#
#   ab.sh A_BINARY B_BINARY FORMATION MEMORY PAIRS
#   e.g. ab.sh /tmp/asalto-old target/release/asalto '3/O1O/SS3SS/SSSSSS1/7/3/3 s' 1GiB 5
set -euo pipefail
[ $# -eq 5 ] || { echo "usage: ab.sh A B FORMATION MEMORY PAIRS" >&2; exit 2; }
A="$1"; B="$2"; F="$3"; M="$4"; PAIRS="$5"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
run() {
  rm -rf "$W/$2"
  /usr/bin/time -f "%U %S %e" "$1" build --for "$F" --wdl-only --threads 1 --memory "$M" \
    --tables "$W/$2" --json 2>&1 >/dev/null | tail -n 1 | awk '{printf "%.2f %.2f\n", $1 + $2, $3}'
}
run "$A" a >/dev/null
run "$B" b >/dev/null
for f in "$W"/a/*/*.atb; do cmp "$f" "$W/b/${f#"$W"/a/}"; done
echo "same bytes: $(ls "$W"/a/*/*.atb | wc -l) files"
ratios=()
for i in $(seq "$PAIRS"); do
  read -r ca wa < <(run "$A" a)
  read -r cb wb < <(run "$B" b)
  r=$(awk -v a="$ca" -v b="$cb" 'BEGIN {printf "%.3f", b / a}')
  ratios+=("$r")
  echo "pair $i: A cpu ${ca} s wall ${wa} s | B cpu ${cb} s wall ${wb} s | B/A ${r}"
done
printf '%s\n' "${ratios[@]}" | sort -n | awk '{v[NR] = $1} END {printf "median B/A cpu ratio %s (min %s, max %s) over %d pairs\n", v[int((NR + 1) / 2)], v[1], v[NR], NR}'
