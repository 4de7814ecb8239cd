#!/usr/bin/env bash
# One sitting of a job longer than a sitting: build the complete tables of a
# variant with 9..=K soldiers, then verify them, stopping by itself once
# MINUTES are up (at the next checkpoint or verify record: a few minutes
# later at most) and going on where the last sitting stopped when run again.
#
#   scripts/sitting.sh K MINUTES        e.g. scripts/sitting.sh 12 150
#
# Raising K one level at a time (`sitting.sh 12 ..` until it exits 0, then
# `sitting.sh 13 ..`) verifies each level before the next is built: files
# already built are skipped, and files verified completely before are
# taken as verified from their records (`verify --resume`).
#
# The build stops at a checkpoint (`build --stop-after`), the verification
# at a record (`verify --resume --stop-after`); both take up their state
# from the tables folder, so that folder must survive between sittings.
# Each sitting N writes under <tables>/sittings/: N.txt (command, machine,
# times, exit statuses and, at its end, the free disk and every table
# file with its size), N-build.json and N-build.log (the build's summary
# and progress lines; `asalto bench --build-summary` reads the summaries),
# N-verify.json and N-verify.log, and where GNU time is installed
# (/usr/bin/time) N-build.time and N-verify.time: its `time -v` of the
# step (CPU seconds, peak resident memory, page faults, file system I/O).
#
# Environment (a relative path is taken from the folder the script is run
# from): ASALTO_TABLES (default the checkout's tables/), VARIANT (default assaut, or
# a spec such as soldiers=closer,capture=mandatory,max=on,trapped=soldiers-win),
# THREADS (default: one per core), MEMORY (the build's budget, default
# 12GiB), WDL_ONLY (1, the default: tables without distances; 0: with),
# ENGINE (the solver of a WDL-only build, `build --engine`: bits, the
# default, or positions; the same bytes either way), VERIFY (1, the
# default; 0: build only, no verify),
# LEVEL (the zstd level of the files built, default 9; 15 writes WDL-only
# files about a tenth smaller for about an eighth more CPU),
# FOR (a position: build only its closure, `build --for`, instead of the
# complete tables; K is then the position's soldier count, and the verify
# checks every table of the variant under ASALTO_TABLES with 9..=K
# soldiers, so give each closure a folder of its own),
# FLOOR (a floor and the side its drop counts for, e.g. '22 officers':
# the files with FLOOR..=K soldiers of the game above that floor, `build
# --floor 22 --assume officers`, in <tables>/floor-22-officers/, and their
# verify under the same floor),
# PROVED_BY (the verify JSON of an earlier sitting, e.g. one committed
# before the machine and its tables were lost: the files it proved are
# taken as proved where the files built again have the same contents,
# `verify --proved-by`), RECORDS (a folder, e.g. one under
# scripts/bench-runs/ to commit: when the sitting ends, however it ends,
# its records are copied there as ${RECORDS_PREFIX}N.txt,
# ${RECORDS_PREFIX}N-build.json ..., RECORDS_PREFIX defaulting to none,
# e.g. assaut-mdj-), e.g.
#
#   FOR='3/O1O/SS3SS/SSSSSSS/SSSSSS1/3/3 s' ASALTO_TABLES=tables/f17 \
#     VARIANT=soldiers=closer,capture=mandatory,max=on,trapped=soldiers-win \
#     scripts/sitting.sh 17 150
#
# Exit status: 0 when every table is built and verified, 75 when the sitting
# stopped with work left (run it again), anything else for an error (the
# sitting's files say which step).
set -euo pipefail
# Paths given relative are relative to where the script was run from
# (the default tables folder is the checkout's own tables/).
for v in ASALTO_TABLES PROVED_BY RECORDS; do
  if [ -n "${!v:-}" ] && [[ "${!v}" != /* ]]; then
    export "$v=$PWD/${!v}"
  fi
done
cd "$(dirname "$0")/.."

usage() {
  echo "usage: scripts/sitting.sh K MINUTES   (K = most soldiers, 9..24; MINUTES >= 2)" >&2
  exit 2
}
[ $# -eq 2 ] || usage
[[ "$1" =~ ^[0-9]+$ ]] && [ "$1" -ge 9 ] && [ "$1" -le 24 ] || usage
[[ "$2" =~ ^[0-9]+$ ]] && [ "$2" -ge 2 ] || usage
K="$1"
MINUTES="$2"
TABLES="${ASALTO_TABLES:-tables}"
VARIANT="${VARIANT:-assaut}"
THREADS="${THREADS:-0}"
MEMORY="${MEMORY:-12GiB}"
LEVEL="${LEVEL:-9}"
WDL=()
[ "${WDL_ONLY:-1}" = 1 ] && WDL=(--wdl-only)
[ "${WDL_ONLY:-1}" = 1 ] && [ -n "${ENGINE:-}" ] && WDL+=(--engine "$ENGINE")
LOW=9
FLOORARGS=()
if [ -n "${FLOOR:-}" ]; then
  read -r FK FSIDE <<<"$FLOOR"
  [[ "$FK" =~ ^[0-9]+$ ]] && [ "$FK" -ge 10 ] && [ "$FK" -le "$K" ] || usage
  FLOORARGS=(--floor "$FK" --assume "$FSIDE")
  LOW=$FK
fi
WHAT=(--soldiers "$LOW..=$K")
SCOPE="$LOW..=$K${FLOOR:+ above the floor $FLOOR}"
if [ -n "${FOR:-}" ]; then
  WHAT=(--for "$FOR")
  SCOPE="the closure of '$FOR' (9..=$K soldiers)"
fi
. scripts/common.sh
build_asalto
START=$(date +%s)

mkdir -p "$TABLES/sittings"
if [ -n "${RECORDS:-}" ]; then
  mkdir -p "$RECORDS" || { echo "error: cannot make the records folder $RECORDS" >&2; exit 2; }
fi
N=1
while [ -e "$TABLES/sittings/$N.txt" ]; do N=$((N + 1)); done
REC="$TABLES/sittings/$N"
{
  ENVS=""
  for v in ASALTO_TABLES VARIANT THREADS MEMORY WDL_ONLY ENGINE VERIFY LEVEL FOR FLOOR PROVED_BY RECORDS RECORDS_PREFIX; do
    [ -n "${!v:-}" ] && ENVS+="$v='${!v}' "
  done
  echo "command: ${ENVS}scripts/sitting.sh $K $MINUTES"
  echo "date: $(date -u +%FT%TZ)"
  echo "variant: $VARIANT, ${FOR:+for $FOR, }soldiers $LOW..=$K${FLOOR:+ above the floor $FLOOR}, threads $THREADS, memory $MEMORY, zstd level $LEVEL, ${WDL[*]:-with distances}"
  provenance
} > "$REC.txt"

# However the sitting ends: the free disk and the table files in the record.
on_exit() {
  {
    echo "free disk under $TABLES: $(df -B1 --output=avail "$TABLES" | tail -n 1 | tr -d ' ') bytes"
    echo "files (bytes, path under $TABLES):"
    find "$TABLES" -mindepth 2 -maxdepth 3 -type f -name '*.atb*' -printf '  %s %P\n' | sort -k 2
  } >> "$REC.txt"
  if [ -n "${RECORDS:-}" ]; then
    local f
    # The record and whatever its steps wrote (`step`: $REC-<step>.json, .log).
    for f in "$REC.txt" "$REC"-*; do
      [ -f "$f" ] && cp "$f" "$RECORDS/${RECORDS_PREFIX:-}${f##*/}"
    done
    echo "== sitting $N: records copied to $RECORDS/${RECORDS_PREFIX:-}$N*"
  fi
}
trap on_exit EXIT

# Run one step (build or verify) with its output to files and its exit
# status in the record; leave the script when it stopped (75) or failed.
step() {
  local name="$1"
  shift
  local t0=$SECONDS status=0 timed=()
  # GNU time passes the step's exit status on (128 + the signal if killed).
  [ -x /usr/bin/time ] && timed=(/usr/bin/time -v -o "$REC-$name.time")
  "${timed[@]}" "$ASALTO" "$@" --json > "$REC-$name.json" 2> "$REC-$name.log" || status=$?
  echo "$name: exit $status after $((SECONDS - t0)) s" >> "$REC.txt"
  if [ $status -eq 75 ]; then
    echo "== $name stopped where it can go on; run the same command again ($REC.txt)"
    exit 75
  elif [ $status -ne 0 ]; then
    echo "error: $name failed (exit $status): $(tail -n 1 "$REC-$name.log")" >&2
    exit $status
  fi
}

echo "== sitting $N: building $VARIANT $SCOPE for at most $MINUTES min (log: $REC-build.log)"
step build build --variant "$VARIANT" "${WHAT[@]}" "${FLOORARGS[@]}" "${WDL[@]}" --memory "$MEMORY" \
  --threads "$THREADS" --level "$LEVEL" --stop-after "${MINUTES}m" --tables "$TABLES"

if [ "${VERIFY:-1}" = 0 ]; then
  echo "== built; VERIFY=0: no verify ($REC.txt)"
  exit 0
fi
LEFT=$((MINUTES - ($(date +%s) - START) / 60))
if [ $LEFT -lt 1 ]; then
  echo "== built; no time left to verify: run the same command again to go on ($REC.txt)"
  exit 75
fi
echo "== sitting $N: verifying for at most $LEFT min (log: $REC-verify.log)"
PROVED=()
[ -n "${PROVED_BY:-}" ] && PROVED=(--proved-by "$PROVED_BY")
step verify verify --variant "$VARIANT" --soldiers "$LOW..=$K" "${FLOORARGS[@]}" --threads "$THREADS" \
  --resume "${PROVED[@]}" --stop-after "${LEFT}m" --tables "$TABLES"
echo "== done: $VARIANT $SCOPE built and verified under $TABLES/ (records in $TABLES/sittings/)"
