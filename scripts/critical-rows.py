#!/usr/bin/env python3
"""The critical mass of each sheet from 9 to 24 soldiers, every row
labelled exact or bound: the formation of k soldiers (`formation:k`, the k
outside points nearest the fortress, soldiers to move) against each of the
36 placements of the officers in the fortress.

    scripts/critical-rows.py --exact CSV... [--bound CSV...] [--out DIR]

    scripts/critical-rows.py \\
      --exact notebooks/data/three-sheets-formations-9-20/critical_mass.csv \\
      --exact notebooks/data/assaut-formations-9-18/critical_mass.csv \\
      --bound scripts/bench-runs/2026-12-03-floor22/asalto-officers-placements.csv \\
      --out notebooks/data/critical-mass-9-24

--exact: a report's critical_mass.csv (`asalto report --formations`, from
exact tables): per variant and k, the placements the soldiers win, draw and
lose. Two exact files giving one (variant, k) must agree, or the script
stops.

--bound: a placements CSV of scripts/floor-start.py, named
<variant>[-officers|-soldiers][-formation-N]-placements.csv (N = 24, the
start, without -formation-N): what the files above a floor prove of the
formation of N soldiers against each placement, from the soldiers' side
(columns officers_floor, soldiers_floor, lower, upper, decided). Two
files of one formation (two floors) give each placement the intersection
of their brackets (both hold the real result; an empty one stops the
script). A placement whose bracket is decided is counted as that result; the others
are counted as open ("at least draw" under the officers' floor alone). A
(variant, k) with an exact row takes the exact row, and the bound must
contain it, or the script stops.

Printed: one table per sheet (k, the label, soldiers win / draw / lose /
open placements, the value against the officers' best placement), then
each sheet's critical masses: the smallest k whose formation the soldiers
win against all 36 placements, and against at least one, each exact
where every smaller row is known (exact, or decided by a bound), else
given as an upper bound ("<= k"). With --out: critical_rows.csv,
critical_rows.json and critical_rows.md there.
Needs only Python 3.
"""

import argparse
import csv
import json
import pathlib
import re
import sys

SHEETS = ["assaut", "assault", "asalto", "assaut-mdj"]
KS = range(9, 25)
RESULT = {"soldiers win": 1, "draw": 0, "officers win": -1}


def read_exact(paths):
    """(variant, k) -> {win, draw, lose, source} from critical_mass.csv files."""
    rows = {}
    for path in paths:
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                key = (r["variant"], int(r["soldiers"]))
                row = {
                    "win": int(r["soldiers_win_placements"]),
                    "draw": int(r["draw_placements"]),
                    "lose": int(r["soldiers_lose_placements"]),
                    "source": str(path),
                }
                old = rows.get(key)
                if old and (old["win"], old["draw"], old["lose"]) != (row["win"], row["draw"], row["lose"]):
                    sys.exit(f"error: {key[0]} at {key[1]}: {old['source']} and {path} disagree")
                rows.setdefault(key, row)
    return rows


NAME = re.compile(r"^(?P<variant>.+?)(-(?P<side>officers|soldiers))?(-formation-(?P<n>\d+))?-placements\.csv$")


def read_bounds(paths):
    """(variant, k) -> {win, draw, lose, open, floors, source} from floor-start.py CSVs."""
    rows = {}
    for path in paths:
        m = NAME.match(pathlib.Path(path).name)
        if not m or m["variant"] not in SHEETS:
            sys.exit(f"error: {path}: not a floor-start.py placements file (<variant>[-officers][-formation-N]-placements.csv)")
        k = int(m["n"] or 24)
        with open(path, newline="") as f:
            placements = [r for r in csv.DictReader(f) if r["placement"].count(",") == 1]
        if len(placements) != 36:
            sys.exit(f"error: {path}: {len(placements)} placements, expected 36")
        names = [r["placement"] for r in placements]
        brackets = [(RESULT[r["lower"]], RESULT[r["upper"]]) for r in placements]
        floors = [s for s in ("officers", "soldiers") if any(r[f"{s}_floor"] for r in placements)]
        source = str(path)
        key = (m["variant"], k)
        if key in rows:
            # Two floors' files of one formation: each bracket holds the
            # real result, so their intersection does too.
            old = rows[key]
            if old["names"] != names:
                sys.exit(f"error: {m['variant']} at {k}: {old['source']} and {path} list other placements")
            both = []
            for name, (a, b), (c, d) in zip(names, old["brackets"], brackets):
                lo, hi = max(a, c), min(b, d)
                if lo > hi:
                    sys.exit(f"error: {m['variant']} at {k}, {name}: {old['source']} and {path} disagree ([{a}, {b}] and [{c}, {d}])")
                both.append((lo, hi))
            brackets = both
            floors = sorted(set(old["floors"]) | set(floors), key=("officers", "soldiers").index)
            source = f"{old['source']}; {path}"
        count = {"win": 0, "draw": 0, "lose": 0, "open": 0}
        for lo, hi in brackets:
            if lo == hi:
                count[{1: "win", 0: "draw", -1: "lose"}[lo]] += 1
            else:
                count["open"] += 1
        rows[key] = {**count, "brackets": brackets, "names": names, "floors": floors, "source": source}
    return rows


def value_words(lo, hi):
    """Words for the bracket [lo, hi] of the soldiers' result."""
    one = {1: "soldiers win", 0: "draw", -1: "officers win"}
    return one[lo] if lo == hi else f"between {one[lo]} and {one[hi]}"


def best_placement(row):
    """The bracket of the soldiers' result against the officers' best
    placement: the least over the placements of each end."""
    if "brackets" in row:
        return min(lo for lo, _ in row["brackets"]), min(hi for _, hi in row["brackets"])
    r = -1 if row["lose"] else 0 if row["draw"] else 1
    return r, r


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--exact", action="append", default=[])
    ap.add_argument("--bound", action="append", default=[])
    ap.add_argument("--out")
    a = ap.parse_args()
    exact = read_exact(a.exact)
    bounds = read_bounds(a.bound)
    table = []
    for v in SHEETS:
        for k in KS:
            e, b = exact.get((v, k)), bounds.get((v, k))
            if e and b:
                # The exact row must lie inside the bound: as many decided
                # wins at most as the exact row has, and so on.
                if b["win"] > e["win"] or b["lose"] > e["lose"] or b["draw"] > e["draw"]:
                    sys.exit(f"error: {v} at {k}: the bound ({b['source']}) contradicts the exact row ({e['source']})")
            if e:
                row = {"variant": v, "soldiers": k, "label": "exact", **{x: e[x] for x in ("win", "draw", "lose")}, "open": 0, "source": e["source"]}
            elif b:
                label = "bound (" + " and ".join(f"{s}' floor" for s in b["floors"]) + ")"
                if b["open"] == 0:
                    label = "exact (decided by " + " and ".join(f"the {s}' floor" for s in b["floors"]) + ")"
                row = {"variant": v, "soldiers": k, "label": label, **{x: b[x] for x in ("win", "draw", "lose", "open")}, "source": b["source"]}
                row["_bracket"] = best_placement(b)
            else:
                row = {"variant": v, "soldiers": k, "label": "unknown", "win": None, "draw": None, "lose": None, "open": 36, "source": ""}
            if row["win"] is None:
                row["value"] = "unknown"
            else:
                row["value"] = value_words(*row.pop("_bracket", best_placement(row)))
            table.append(row)

    def masses(v):
        rows = [r for r in table if r["variant"] == v]
        out = {}
        for name, test in (("all_36", lambda r: r["win"] == 36), ("at_least_one", lambda r: (r["win"] or 0) >= 1)):
            found, known_below = None, True
            for r in rows:
                if r["win"] is not None and test(r):
                    found = r["soldiers"]
                    break
                # A row below that is not fully known could already pass.
                if r["win"] is None or r["open"]:
                    known_below = False
            if found is None:
                out[name] = "above 24" if known_below else "not known"
            else:
                out[name] = f"{found}" if known_below else f"<= {found}"
        return out

    lines = []
    for v in SHEETS:
        lines.append(f"{v}:")
        lines.append(f"  {'k':>3}  {'win/draw/lose/open':<20} {'vs the best placement':<24} label")
        for r in (r for r in table if r["variant"] == v):
            counts = "-" if r["win"] is None else f"{r['win']}/{r['draw']}/{r['lose']}/{r['open']}"
            lines.append(f"  {r['soldiers']:>3}  {counts:<20} {r['value']:<24} {r['label']}")
        m = masses(v)
        lines.append(f"  critical mass: against all 36 placements {m['all_36']}; against at least one {m['at_least_one']}")
    print("\n".join(lines))
    if a.out:
        out = pathlib.Path(a.out)
        out.mkdir(parents=True, exist_ok=True)
        fields = ["variant", "soldiers", "label", "win", "draw", "lose", "open", "value", "source"]
        with open(out / "critical_rows.csv", "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=fields)
            w.writeheader()
            w.writerows({k: r[k] for k in fields} for r in table)
        (out / "critical_rows.json").write_text(
            json.dumps({"rows": table, "critical_mass": {v: masses(v) for v in SHEETS}}, indent=1) + "\n"
        )
        md = ["# Critical mass, 9 to 24 soldiers, the four sheets", "",
              "The formation of k soldiers (`formation:k`: the k outside points nearest the fortress, "
              "soldiers to move) against the 36 placements of the officers in the fortress: the placements "
              "the soldiers win / draw / lose / that are still open, and the result against the officers' best "
              "placement. **exact**: from exact tables (or every placement decided by floor files); "
              "**bound**: from floor files (`build --floor K --assume officers`), whose soldiers' wins are real "
              "wins and whose other placements are at least draws; **unknown**: no table has it yet.", ""]
        for v in SHEETS:
            m = masses(v)
            md += [f"## {v}", "",
                   f"Critical mass: against all 36 placements **{m['all_36']}**, against at least one **{m['at_least_one']}**.", "",
                   "| k | win / draw / lose / open | vs the best placement | label | source |", "|---:|---|---|---|---|"]
            for r in (r for r in table if r["variant"] == v):
                counts = "-" if r["win"] is None else f"{r['win']} / {r['draw']} / {r['lose']} / {r['open']}"
                md.append(f"| {r['soldiers']} | {counts} | {r['value']} | {r['label']} | {r['source']} |")
            md.append("")
        (out / "critical_rows.md").write_text("\n".join(md))


if __name__ == "__main__":
    main()
