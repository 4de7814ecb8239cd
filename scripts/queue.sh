#!/usr/bin/env bash
# Run a queue of sittings (scripts/sitting.sh) one after another within
# MINUTES, so that a session's time goes to the next job as soon as one
# is built and verified, with no one there to start it.
#
#   scripts/queue.sh QUEUE MINUTES        e.g. scripts/queue.sh runs.queue 150
#
# QUEUE is a text file, one job a line: the sitting's environment, then K
# (blank lines and lines starting with # are skipped), e.g.
#
#   ASALTO_TABLES=/data/start 13
#   ASALTO_TABLES=/data/start 14
#   ASALTO_TABLES=/data/f17 VARIANT=soldiers=closer,capture=mandatory,max=on,trapped=soldiers-win FOR='3/O1O/SS3SS/SSSSSSS/SSSSSS1/3/3 s' 17
#
# QUEUE and the relative paths of its lines are taken from the folder the
# queue is run from (each sitting runs there).
#
# Each job runs `sitting.sh K LEFT` (LEFT: the minutes still left) until it
# exits 0; it is then appended to QUEUE.done and the next job starts.
# A sitting that stops with work left (exit 75) means the time is up: the
# queue stops with 75, and run again it goes on with that job. An error
# stops the queue with the sitting's status. Jobs are taken in the order
# of the file; a line already in QUEUE.done is skipped. Each sitting keeps
# its own records (<tables>/sittings/N.*); the queue prints one line a job.
#
# Exit status: 0 when every job is done, 75 when the time ran out first,
# 2 for bad arguments, else the failed sitting's status.
set -euo pipefail
HERE="$PWD"
cd "$(dirname "$0")/.."
ROOT="$PWD"

usage() {
  echo "usage: scripts/queue.sh QUEUE MINUTES   (QUEUE: a file of sitting.sh jobs, one a line: VAR=value ... K)" >&2
  exit 2
}
[ $# -eq 2 ] || usage
QUEUE="$1"
[[ "$QUEUE" == /* ]] || QUEUE="$HERE/$QUEUE"
[ -f "$QUEUE" ] || { echo "error: no queue file $1" >&2; exit 2; }
[[ "$2" =~ ^[0-9]+$ ]] && [ "$2" -ge 2 ] || usage
DEADLINE=$(($(date +%s) + 60 * $2))
touch "$QUEUE.done"

while IFS= read -r line || [ -n "$line" ]; do
  [[ -z "${line// /}" || "$line" =~ ^[[:space:]]*# ]] && continue
  if grep -Fxq -- "$line" "$QUEUE.done"; then
    continue
  fi
  K="${line##* }"
  VARS=""
  [ "$K" != "$line" ] && VARS="${line% *}"
  [[ "$K" =~ ^[0-9]+$ ]] || { echo "error: the line '$line' of $QUEUE does not end with K" >&2; exit 2; }
  LEFT=$(((DEADLINE - $(date +%s)) / 60))
  if [ $LEFT -lt 5 ]; then
    echo "== queue: $LEFT min left, not enough for '$line'; run the queue again" >&2
    exit 75
  fi
  echo "== queue: $(date -u +%FT%TZ) '$line' for at most $LEFT min"
  status=0
  # The line is the user's own shell words (quotes as in a shell).
  (cd "$HERE" && eval "env $VARS \"\$ROOT/scripts/sitting.sh\" $K $LEFT") < /dev/null || status=$?
  if [ $status -eq 0 ]; then
    echo "$line" >> "$QUEUE.done"
    echo "== queue: $(date -u +%FT%TZ) done: '$line'"
  else
    echo "== queue: $(date -u +%FT%TZ) '$line' stopped with status $status" >&2
    exit $status
  fi
done < "$QUEUE"
echo "== queue: every job of $QUEUE is done"
