#!/usr/bin/env python3
"""What the files above a floor prove of the start: the start (officers on
c6 and e6) and each of the 36 placements of the two officers in the
fortress, from `asalto query --floor K --json` on the floor folders there.

    scripts/floor-start.py TABLES K [--variant V] [--assume SIDE] [--formation N]... [--asalto BIN] [--out DIR]

    scripts/floor-start.py /work/runs/floor22 22 --variant assaut --out scripts/bench-runs/2026-12-02-floor22

TABLES is the tables folder holding floor-K-officers/ and/or
floor-K-soldiers/ (`asalto build --floor K --assume SIDE --tables TABLES`);
every floor folder of K there is read (the query refuses when neither is),
or with --assume that side's alone (while the other is being built, say).
Printed: one line a placement, the start first: what each floor proves
and the bracket, from the soldiers' side. With --out, DIR/<variant>-start.json
(the start's query object, as `asalto query --floor K --json start`
prints it) and DIR/<variant>-placements.csv (with --assume,
<variant>-<side>-start.json and -placements.csv) (placement, each floor's
proof, the bracket's lower and upper bound, decided) are written.
With --formation N (K <= N <= 24, repeatable), the formation of N soldiers
(`formation:N`, the N outside points nearest the fortress, as the critical
mass uses them) and its 36 placements instead of the start (N = 24 is the
start); the files are then <stem>-formation-N.json and
<stem>-formation-N-placements.csv, and a summary line per formation.
The binary is target/release/asalto unless --asalto says otherwise.
Needs only Python 3.
"""

import argparse
import csv
import itertools
import json
import pathlib
import subprocess
import sys

FORTRESS = ["c7", "d7", "e7", "c6", "d6", "e6", "c5", "d5", "e5"]


def query(binary, tables, k, variant, assume, position):
    """The JSON of `asalto query --floor K [--assume SIDE]` of one position."""
    side = ["--assume", assume] if assume else []
    out = subprocess.run(
        [binary, "query", "--floor", str(k), *side, "--tables", tables, "--variant", variant, "--json", position],
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        sys.exit(f"error: asalto query {position}: {out.stderr.strip()}")
    return json.loads(out.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tables")
    ap.add_argument("k", type=int)
    ap.add_argument("--variant", default="assaut")
    ap.add_argument("--assume", choices=["officers", "soldiers"])
    ap.add_argument("--asalto", default="target/release/asalto")
    ap.add_argument("--formation", type=int, action="append")
    ap.add_argument("--out")
    a = ap.parse_args()
    if not 10 <= a.k <= 24:
        sys.exit(f"error: a floor of {a.k} soldiers: it must be 10 to 24")
    for n in a.formation or [24]:
        if not a.k <= n <= 24:
            sys.exit(f"error: a formation of {n} soldiers: it must be {a.k} (the floor) to 24")
        one(a, n)


def one(a, n):
    """The start (n = 24) or the formation of n soldiers, and its 36 placements."""
    rows = []
    start = None
    if n == 24:
        placements = ["start"] + [f"start:{p},{q}" for p, q in itertools.combinations(FORTRESS, 2)]
    else:
        placements = [f"formation:{n}"] + [
            f"formation:{n}:{p},{q}" for p, q in itertools.combinations(FORTRESS, 2)
        ]
    for pos in placements:
        q = query(a.asalto, a.tables, a.k, a.variant, a.assume, pos)
        if pos == placements[0]:
            start = q
        proves = {f["assume"]: f["proves"] for f in q["floors"]}
        b = q["bracket"]
        rows.append(
            {
                "placement": pos,
                "officers_floor": proves.get("officers", ""),
                "soldiers_floor": proves.get("soldiers", ""),
                "lower": b["lower"],
                "upper": b["upper"],
                "decided": b["decided"],
            }
        )
        print(
            f"{pos:<18} officers' floor: {proves.get('officers', '-'):<28} "
            f"soldiers' floor: {proves.get('soldiers', '-'):<28} bracket: {b['words']}"
        )
    decided = sum(r["decided"] for r in rows[1:])
    wins = sum(r["lower"] == "soldiers win" for r in rows[1:])
    what = "start" if n == 24 else f"formation of {n}"
    print(f"{what}: placements decided: {decided} of 36; soldiers' wins proved: {wins} of 36")
    if a.out:
        out = pathlib.Path(a.out)
        out.mkdir(parents=True, exist_ok=True)
        stem = f"{a.variant}-{a.assume}" if a.assume else a.variant
        name = "start" if n == 24 else f"formation-{n}"
        (out / f"{stem}-{name}.json").write_text(json.dumps(start, indent=1) + "\n")
        csv_name = f"{stem}-placements.csv" if n == 24 else f"{stem}-{name}-placements.csv"
        with open(out / csv_name, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)


if __name__ == "__main__":
    main()
