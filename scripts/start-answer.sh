#!/usr/bin/env bash
# The answer the whole game's tables give, in one folder: the value of the
# start position and of each first move, a line of play (a won game to its
# end, or each side's drawing replies), the value against each of the 36
# placements of the officers, and the balance curve over every formation
# of 9..=K soldiers; its rows 9-17 compared with the committed curve.
#
#   scripts/start-answer.sh OUT
#
#   ASALTO_TABLES=/data/start VERIFIED_BY=scripts/bench-runs/<date>-start/<N>-verify.json \
#     scripts/start-answer.sh notebooks/data/assaut-whole-game
#
# The tables must hold the closure of the start (`asalto plan --for start`:
# the complete files with 9 to 24 soldiers). OUT receives:
#   start.json, start.txt   `asalto query --json start` and its text: the
#                           start's value and every first move's, best first
#   line.json, line.txt     `asalto line start`: for a win or loss, a game to
#                           the end the winner can follow (never repeating a
#                           position); for a draw, every move's value and the
#                           replies DEPTH plies deep (each side's drawing
#                           replies to the other's moves)
#   placements.csv          the start's value with the officers on each of
#                           the 36 pairs of fortress points (`start:c7,e5`...):
#                           the report's k = K rows, soldiers to move
#   report.md, report.json, the CSV files and SVG plots of `asalto report
#                           --variants VARIANT --formations 9..=K`
#   PROVENANCE.txt          the commands, commit, machine and times; the
#                           verify record (VERIFIED_BY) with its ok, positions
#                           and inconsistent; the comparison of rows 9-17
#
# Environment: ASALTO_TABLES (default tables), VARIANT (default assaut),
# K (default 24; a smaller K, with POSITION, tries the script on the
# closure of a smaller formation), POSITION (default start; with K < 24,
# needed: e.g. the formation of 10 soldiers with the officers on c6 and e6,
# '3/O1O/SS3SS/SSSSSS1/7/3/3 s', whose closure `asalto build --for` builds
# in about 20 s), DEPTH (default 3, the reply tree of
# a draw), VERIFIED_BY (the verify JSON proving the tables: `ok` true and 0
# inconsistent required, else the script stops; unset, PROVENANCE.txt says
# NOT VERIFIED), ASALTO_BIN (an asalto binary to use instead of building
# the release one; tests/start_answer.rs passes its own), COMPARE (default notebooks/data/presets-formations-9-17:
# the committed curve whose rows 9-17 must agree on every win/draw/loss
# field; a difference stops the script with exit 1).
#
# Exit status: 0 when every file is written and the rows agree, 1 for a
# difference or a failed step, 2 for bad arguments.
set -euo pipefail
HERE="$PWD"
cd "$(dirname "$0")/.."

[ $# -eq 1 ] || { echo "usage: scripts/start-answer.sh OUT   (see the comment at its top)" >&2; exit 2; }
OUT="$1"
[[ "$OUT" == /* ]] || OUT="$HERE/$OUT"
abs() { if [ -n "$1" ] && [[ "$1" != /* ]]; then echo "$HERE/$1"; else echo "$1"; fi; }
TABLES="$(abs "${ASALTO_TABLES:-tables}")"
VARIANT="${VARIANT:-assaut}"
K="${K:-24}"
DEPTH="${DEPTH:-3}"
VERIFIED_BY="$(abs "${VERIFIED_BY:-}")"
COMPARE="$(abs "${COMPARE:-notebooks/data/presets-formations-9-17}")"
[[ "$K" =~ ^[0-9]+$ ]] && [ "$K" -ge 9 ] && [ "$K" -le 24 ] || { echo "error: K must be 9..24, not '$K'" >&2; exit 2; }
POSITION="${POSITION:-}"
if [ -z "$POSITION" ]; then
  [ "$K" -eq 24 ] || { echo "error: with K=$K < 24, give POSITION (the formation of $K soldiers)" >&2; exit 2; }
  POSITION=start
fi
[ -d "$TABLES" ] || { echo "error: no tables folder $TABLES" >&2; exit 2; }
[ -f "$COMPARE/critical_mass.csv" ] || { echo "error: no committed curve $COMPARE/critical_mass.csv" >&2; exit 2; }
command -v python3 >/dev/null || { echo "error: python3 is needed (the comparison and placements.csv)" >&2; exit 2; }

VERIFIED="NOT VERIFIED: no VERIFIED_BY was given"
if [ -n "$VERIFIED_BY" ]; then
  VERIFIED=$(python3 - "$VERIFIED_BY" "$VARIANT" <<'PY'
import json, sys
path, variant = sys.argv[1], sys.argv[2]
try:
    j = json.load(open(path))
except (OSError, ValueError) as e:
    sys.exit(f"error: VERIFIED_BY {path}: not a verify JSON ({e})")
if j.get("variant") != variant or j.get("ok") is not True or j.get("inconsistent") != 0:
    sys.exit(f"error: VERIFIED_BY {path}: variant {j.get('variant')}, ok {j.get('ok')}, "
             f"inconsistent {j.get('inconsistent')}: not a whole verify of {variant} with 0 inconsistent")
print(f"verified by {path}: ok true, {j['positions']:,} positions, {len(j.get('per_file', []))} files, "
      f"0 inconsistent")
PY
  ) || exit 2
fi

. scripts/common.sh
if [ -n "${ASALTO_BIN:-}" ]; then ASALTO="$(abs "$ASALTO_BIN")"; else build_asalto; fi
# A bad position is said before the long report, not after it.
"$ASALTO" show "$POSITION" > /dev/null || exit 2
mkdir -p "$OUT"
LOG="$OUT/PROVENANCE.txt.part"
{
  echo "Made by: scripts/start-answer.sh (ASALTO_TABLES=T VARIANT=$VARIANT K=$K POSITION='$POSITION' DEPTH=$DEPTH)"
  echo "date: $(date -u +%FT%TZ)"
  provenance
  echo "tables (T): $TABLES"
  echo "$VERIFIED"
} > "$LOG"

# Run one step, its time and command in the provenance.
run() {
  local t0=$SECONDS
  echo "== asalto $*" >&2
  "$ASALTO" "$@"
  local words
  words=$(printf ' %q' "$@")
  words=${words//$OUT/OUT}
  echo "  asalto${words//$TABLES/T}: $((SECONDS - t0)) s" >> "$LOG"
}

echo "== the balance curve over the formations of 9..=$K soldiers"
run report --variants "$VARIANT" --formations "9..=$K" --tables "$TABLES" --out "$OUT"

echo "== the start"
run query --json --variant "$VARIANT" --tables "$TABLES" "$POSITION" > "$OUT/start.json"
"$ASALTO" query --variant "$VARIANT" --tables "$TABLES" "$POSITION" > "$OUT/start.txt"
RESULT=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["result"])' "$OUT/start.json")
LINE=(line --variant "$VARIANT" --tables "$TABLES")
[ "$RESULT" = draw ] && LINE+=(--depth "$DEPTH")
run "${LINE[@]}" --json "$POSITION" > "$OUT/line.json"
"$ASALTO" "${LINE[@]}" "$POSITION" > "$OUT/line.txt"

echo "== the 36 placements and rows 9-17 against $COMPARE"
python3 - "$OUT" "$COMPARE" "$VARIANT" "$K" >> "$LOG" <<'PY'
import csv, sys
out, compare, variant, k = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])

def rows(folder, name, top):
    with open(f"{folder}/{name}") as f:
        return [r for r in csv.DictReader(f)
                if r["variant"] == variant and int(r["soldiers"]) <= top]

# The start's 36 placements: the curve's k = K rows.
placed = [r for r in rows(out, "critical_mass_placements.csv", k) if int(r["soldiers"]) == k]
if len(placed) != 36:
    sys.exit(f"error: {len(placed)} placements at k = {k} in the report, not 36")
with open(f"{out}/placements.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["officers", "result_for_soldiers", "plies"])
    for r in placed:
        w.writerow([r["officers"], r["result_for_soldiers"], r["plies"]])
counts = {v: sum(r["result_for_soldiers"] == v for r in placed) for v in ("win", "draw", "loss")}
print(f"placements.csv: the {k}-soldier rows of critical_mass_placements.csv: the soldiers "
      f"win against {counts['win']}, draw against {counts['draw']}, lose against {counts['loss']}")

# Rows 9..=min(K, 17) on every win/draw/loss field (a WDL-only report
# names a different best placement among equal losses: not compared).
top = min(k, 17)
fields = ["soldiers", "formation", "result_for_soldiers", "soldiers_win_placements",
          "draw_placements", "soldiers_lose_placements"]
new, old = rows(out, "critical_mass.csv", top), rows(compare, "critical_mass.csv", top)
diffs = []
if len(new) != len(old):
    diffs.append(f"{len(new)} rows here, {len(old)} in {compare}")
for a, b in zip(new, old):
    diffs += [f"k={a['soldiers']} {f}: {a[f]} here, {b[f]} there" for f in fields if a[f] != b[f]]
new = rows(out, "critical_mass_placements.csv", top)
old = rows(compare, "critical_mass_placements.csv", top)
if len(new) != len(old):
    diffs.append(f"{len(new)} placement rows here, {len(old)} in {compare}")
key = lambda r: (r["soldiers"], r["officers"], r["result_for_soldiers"])
diffs += [f"k={a['soldiers']} {a['officers']}: {a['result_for_soldiers']} here, "
          f"{b['result_for_soldiers']} there" for a, b in zip(new, old) if key(a) != key(b)]
if diffs:
    print(f"rows 9-{top} DIFFER from {compare}:")
    for d in diffs:
        print("  " + d)
    print("\n".join(diffs[:5]), file=sys.stderr)
    sys.exit(1)
print(f"rows 9-{top} agree with {compare} on every win/draw/loss field: {top - 8} rows of "
      f"critical_mass.csv, {len(new)} (k, placement) pairs of critical_mass_placements.csv")
PY
mv "$LOG" "$OUT/PROVENANCE.txt"
echo "== done: $OUT (start.json: $RESULT; PROVENANCE.txt says what it was made from)"
